// Blokus in the browser.  The server owns the game and checks every move;
// this page draws it, lets a person pick, turn, flip and place pieces, and
// asks the server whether a placement is legal while the piece moves.
// Plain modern JavaScript, no build step.

const $ = (sel, root = document) => root.querySelector(sel);
const S3 = Math.sqrt(3) / 2;
const GLYPHS = ["circle", "triangle", "square", "diamond"];

const VARIANT_INFO = {
  classic: ["Classic", "4 players · 20×20"],
  classic_2: ["Classic for two", "2 colours each · 20×20"],
  classic_3: ["Classic for three", "3 players + shared colour"],
  duo: ["Duo", "2 players · 14×14"],
  junior: ["Junior", "2 players · simple pieces"],
  trigon: ["Trigon", "triangles · 4 players"],
  trigon_2: ["Trigon for two", "triangles · 2 colours each"],
  trigon_3: ["Trigon for three", "triangles · smaller board"],
};
const RULE_WORDS = { advanced: "advanced scoring", basic: "basic scoring (fewest cells left wins)", cells: "points" };

const app = {
  ws: null,
  catalog: null,
  setup: null,       // the game's fixed data: board, pieces, colours, seats
  st: null,          // the latest state
  geo: null,         // geometry derived from setup, in SVG units
  sel: null,         // {piece, orient, tx, trow}: the piece in hand
  remembered: new Map(),
  previewCache: new Map(),
  previewWanted: null,
  pendingMove: null,
  hint: null,
  trayColor: null,
  trayAuto: true,
  seenHistory: null,
  passAnnounced: new Set(),
  lastPlacements: null,
  trayKey: null,
  endShown: false,
  drag: null,
  touch: null,
  down: null,
  zig: false,
  wheel: 0,
  reqId: 0,
  settings: loadSettings(),
  joining: false,
};

// ---------------------------------------------------------------------------
// Settings (kept in localStorage)

function loadSettings() {
  let s = {};
  try { s = JSON.parse(localStorage.getItem("blokus.settings") || "{}"); } catch { s = {}; }
  return { theme: "auto", cb: false, coords: true, attach: false, animate: true, ...s };
}

function saveSettings() {
  localStorage.setItem("blokus.settings", JSON.stringify(app.settings));
}

function applySettings() {
  const s = app.settings;
  const dark = s.theme === "dark" || (s.theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.documentElement.dataset.palette = s.cb ? "cb" : "normal";
  $("#set-theme").value = s.theme;
  $("#set-cb").checked = s.cb;
  $("#set-coords").checked = s.coords;
  $("#set-attach").checked = s.attach;
  $("#set-animate").checked = s.animate;
}

// ---------------------------------------------------------------------------
// Connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  app.ws = ws;
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onopen = () => { $("#conn-banner").hidden = true; };
  ws.onclose = () => {
    $("#conn-banner").hidden = false;
    setTimeout(connect, 1000);
  };
}

function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected to the server", "error");
    return false;
  }
  app.ws.send(JSON.stringify(msg));
  return true;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome": app.catalog = msg; startup(); break;
    case "setup": onSetup(msg); break;
    case "state": onState(msg); break;
    case "preview": onPreview(msg); break;
    case "hint": onHint(msg); break;
    case "error": onError(msg); break;
    default: break;
  }
}

function tokensOf(gid) {
  try { return JSON.parse(localStorage.getItem(`blokus.tokens.${gid}`) || "[]"); } catch { return []; }
}

function startup() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const gid = hash.get("g") || (app.setup && app.setup.game) || localStorage.getItem("blokus.lastGame");
  if (gid) {
    const tokens = tokensOf(gid);
    const invite = hash.get("t");
    if (invite && !tokens.includes(invite)) tokens.push(invite);
    app.joining = true;
    send({ type: "join", game: gid, tokens });
  } else {
    startDefaultGame();
  }
}

function startDefaultGame() {
  const prefs = loadNewGamePrefs();
  if (prefs) {
    send({ type: "new_game", ...prefs });
  } else {
    send({ type: "new_game", variant: "duo", seats: [{ kind: "human" }, { kind: "computer", player: "greedy" }] });
  }
}

function onError(msg) {
  if (msg.request === "join" && app.joining) {
    // The game is gone (the server was restarted): start a fresh one.
    app.joining = false;
    history.replaceState(null, "", location.pathname);
    localStorage.removeItem("blokus.lastGame");
    toast(capital(msg.message));
    startDefaultGame();
    return;
  }
  if (msg.request === "move") {
    app.pendingMove = null;
    const text = msg.message.replace(/^illegal move: /, "");
    showMessage(capital(text), "illegal");
    shakeGhost();
    return;
  }
  if (msg.request === "preview") return;
  toast(capital(msg.message), "error");
}

// ---------------------------------------------------------------------------
// A new game arrives: geometry, pieces, seats

function onSetup(msg) {
  app.joining = false;
  app.setup = msg;
  app.st = null;
  app.sel = null;
  app.hint = null;
  app.remembered = new Map();
  app.previewCache.clear();
  app.pendingMove = null;
  app.trayAuto = true;
  app.trayColor = null;
  app.seenHistory = null;
  app.passAnnounced = new Set();
  app.endShown = false;
  app.lastPlacements = null;
  app.trayKey = null;
  const mine = Object.values(msg.tokens);
  const old = tokensOf(msg.game);
  localStorage.setItem(`blokus.tokens.${msg.game}`, JSON.stringify([...new Set([...old, ...mine])]));
  localStorage.setItem("blokus.lastGame", msg.game);
  if (location.hash !== `#g=${msg.game}`) history.replaceState(null, "", `#g=${msg.game}`);
  buildGeometry();
  buildBoard();
  const [title, sub] = VARIANT_INFO[msg.variant.id] || [msg.variant.name, ""];
  $("#game-title").textContent = msg.title ? `${msg.title} — ${msg.variant.name}` : `${title} · ${sub}`;
  document.title = `Blokus ${title}`;
  closeDialog("#dlg-end");
}

function buildGeometry() {
  const b = app.setup.board;
  const kind = b.kind;
  const toXY = kind === "square"
    ? (v) => [v[0], b.height - v[1]]
    : (v) => [v[0] / 2, (b.height - v[1]) * S3];
  const geo = {
    kind,
    height: b.height,
    toXY,
    names: b.names,
    points: b.points,
    index: new Map(b.points.map((p, i) => [`${p[0]},${p[1]}`, i])),
    polys: b.polygons.map((poly) => poly.map(toXY)),
  };
  geo.centers = geo.polys.map(centroid);
  geo.orients = app.setup.pieces.map((piece) => piece.orientations.map((o) => {
    const polys = o.polygons.map((poly) => poly.map(toXY));
    const centers = polys.map(centroid);
    const c = centroid(centers);
    return { ...o, polys, cx: c[0], cy: c[1] };
  }));
  // Translations near zero, nearest first, for keeping a piece on the board.
  const near = [];
  for (let drow = -6; drow <= 6; drow++) {
    for (let dx = -12; dx <= 12; dx++) {
      if (kind === "triangle" && mod2(dx + drow)) continue;
      if (kind === "square" && Math.abs(dx) > 6) continue;
      const [sx, sy] = shiftXY(kind, dx, drow);
      near.push([dx, drow, sx * sx + sy * sy]);
    }
  }
  near.sort((a, b2) => a[2] - b2[2]);
  geo.near = near;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const poly of geo.polys) {
    for (const [x, y] of poly) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  geo.bounds = { minX, minY, maxX, maxY };
  geo.center = [(minX + maxX) / 2, (minY + maxY) / 2];
  app.geo = geo;
}

function mod2(n) { return ((n % 2) + 2) % 2; }

function shiftXY(kind, dx, drow) {
  return kind === "square" ? [dx, -drow] : [dx / 2, -drow * S3];
}

function centroid(points) {
  let x = 0, y = 0;
  for (const p of points) { x += p[0]; y += p[1]; }
  return [x / points.length, y / points.length];
}

function fmt(n) { return Math.round(n * 1000) / 1000; }

function polyAttr(poly) { return poly.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" "); }

function outlinePath(polys) {
  const edges = new Map();
  for (const poly of polys) {
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i], b = poly[(i + 1) % poly.length];
      const ka = `${fmt(a[0])},${fmt(a[1])}`, kb = `${fmt(b[0])},${fmt(b[1])}`;
      const key = ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
      const e = edges.get(key);
      if (e) e.n++; else edges.set(key, { n: 1, a, b });
    }
  }
  let d = "";
  for (const { n, a, b } of edges.values()) {
    if (n === 1) d += `M${fmt(a[0])} ${fmt(a[1])}L${fmt(b[0])} ${fmt(b[1])}`;
  }
  return d;
}

function colorVar(c) {
  if (c === null || c === undefined) return "var(--c-none)";
  return `var(--c-${app.setup.colors[c].name})`;
}

function colorName(c) { return app.setup.colors[c].name; }

function glyph(c, [x, y], r) {
  switch (GLYPHS[c % 4]) {
    case "circle": return `<circle class="cb-mark" cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r * 0.85)}"/>`;
    case "triangle": return `<polygon class="cb-mark" points="${polyAttr([[x, y - r], [x + r * 0.95, y + r * 0.7], [x - r * 0.95, y + r * 0.7]])}"/>`;
    case "square": return `<rect class="cb-mark" x="${fmt(x - r * 0.75)}" y="${fmt(y - r * 0.75)}" width="${fmt(r * 1.5)}" height="${fmt(r * 1.5)}"/>`;
    default: return `<polygon class="cb-mark" points="${polyAttr([[x, y - r], [x + r, y], [x, y + r], [x - r, y]])}"/>`;
  }
}

// ---------------------------------------------------------------------------
// The board

function buildBoard() {
  const geo = app.geo;
  const svg = $("#board");
  const { minX, minY, maxX, maxY } = geo.bounds;
  const m = app.settings.coords ? (geo.kind === "square" ? 0.95 : 0.75) : 0.3;
  const vb = [minX - m, minY - 0.3, maxX - minX + m + 0.3, maxY - minY + m + 0.3];
  svg.setAttribute("viewBox", vb.map(fmt).join(" "));
  svg.style.aspectRatio = `${vb[2]} / ${vb[3]}`;
  svg.classList.toggle("tri", geo.kind === "triangle");
  const cells = geo.polys.map((poly, i) =>
    `<polygon class="cell" data-cell="${i}" data-name="${geo.names[i]}" points="${polyAttr(poly)}"/>`).join("");
  let labels = "";
  if (app.settings.coords) labels = coordinateLabels();
  svg.innerHTML = `
    <defs><linearGradient id="shine" x1="0" y1="0" x2="0.3" y2="1">
      <stop offset="0" stop-color="#fff" stop-opacity=".38"/><stop offset=".55" stop-color="#fff" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity=".10"/></linearGradient></defs>
    <path class="frame-edge" d="${outlinePath(geo.polys)}" stroke="var(--board)" stroke-width="${geo.kind === "square" ? 0.5 : 0.35}" stroke-linejoin="round" stroke-linecap="round" fill="none"/>
    <g id="g-cells">${cells}</g>
    <g id="g-starts"></g>
    <g id="g-pieces"></g>
    <g id="g-attach"></g>
    <g id="g-hint"></g>
    <g id="g-ghost" class="ghost"></g>
    <g id="g-labels">${labels}</g>`;
  if (app.st) renderAll();
}

function coordinateLabels() {
  const geo = app.geo;
  const cols = new Map(); // x -> [name letters, bottom-most cell]
  const rows = new Map(); // row -> left-most cell
  geo.points.forEach(([x, row], i) => {
    const c = cols.get(x);
    if (!c || row < geo.points[c][1]) cols.set(x, i);
    const r = rows.get(row);
    if (r === undefined || x < geo.points[r][0]) rows.set(row, i);
  });
  let out = "";
  const { maxY, minX } = app.geo.bounds;
  for (const i of cols.values()) {
    const letters = geo.names[i].replace(/[0-9]+$/, "");
    const cx = geo.centers[i][0];
    out += `<text class="label" x="${fmt(cx)}" y="${fmt(maxY + (geo.kind === "square" ? 0.45 : 0.38))}">${letters}</text>`;
  }
  for (const [row, i] of rows) {
    const num = geo.names[i].replace(/^[a-z]+/, "");
    const left = Math.min(...geo.polys[i].map((p) => p[0]));
    // At the middle of the row; on the triangle grid the hexagon's edge is
    // slanted, and there the middle of a row is a quarter side in from its corner.
    const y = geo.kind === "square" ? geo.centers[i][1] : (geo.height - row + 0.5) * S3;
    const x = geo.kind === "square" ? minX - 0.48 : left + 0.25 - 0.32;
    out += `<text class="label" x="${fmt(x)}" y="${fmt(y)}">${num}</text>`;
  }
  return out;
}

function placements(st) {
  // Pieces on the board at the position shown: setup pieces, then moves.
  const shown = st.view === null ? st.num_moves : st.view;
  const out = [];
  st.initial.forEach((cells, c) => { if (cells.length) out.push({ color: c, cells, setup: true }); });
  let n = 0;
  for (const h of st.history) {
    if (h.pass) continue;
    if (n >= shown) break;
    n++;
    out.push({ color: h.color, cells: h.cells, n, seat: h.seat, move: h.move });
  }
  return out;
}

function renderPieces() {
  const st = app.st, geo = app.geo;
  const list = placements(st);
  const occupied = new Set();
  const lastNumber = list.length && !list[list.length - 1].setup ? list[list.length - 1].n : 0;
  // Animate a piece that just arrived from the computer or another player.
  let fresh = 0;
  if (st.view === null && app.lastPlacements !== null && st.num_moves > app.lastPlacements && app.settings.animate) {
    const last = list[list.length - 1];
    const seat = last && last.seat !== undefined ? st.seats[last.seat] : null;
    if (seat && !(seat.mine && seat.kind !== "computer")) fresh = last.n;
  }
  if (st.view === null) app.lastPlacements = st.num_moves;
  const r = geo.kind === "square" ? 0.2 : 0.11;
  let html = "";
  for (const p of list) {
    const polys = p.cells.map((c) => geo.polys[c]);
    p.cells.forEach((c) => occupied.add(c));
    let cellsHtml = "";
    for (const poly of polys) {
      const pts = polyAttr(poly);
      cellsHtml += `<polygon class="pc-cell" points="${pts}"/><polygon class="pc-shine" points="${pts}"/>`;
    }
    if (app.settings.cb) for (const c of p.cells) cellsHtml += glyph(p.color, geo.centers[c], r);
    let mark = "";
    if (p.n && p.n === lastNumber) {
      const cc = centroid(p.cells.map((c) => geo.centers[c]));
      let best = p.cells[0], bd = Infinity;
      for (const c of p.cells) {
        const [x, y] = geo.centers[c];
        const d = (x - cc[0]) ** 2 + (y - cc[1]) ** 2;
        if (d < bd) { bd = d; best = c; }
      }
      const [x, y] = geo.centers[best];
      mark = `<circle class="last-mark" cx="${fmt(x)}" cy="${fmt(y)}" r="${geo.kind === "square" ? 0.16 : 0.1}"/>`;
    }
    const cls = `piece${p.n && p.n === fresh ? " fresh" : ""}${p.n === lastNumber ? " last" : ""}`;
    html += `<g class="${cls}" data-color="${p.color}" data-move="${p.n || 0}" style="--pc:${colorVar(p.color)}">${cellsHtml}<path class="pc-edge" d="${outlinePath(polys)}"/>${mark}</g>`;
  }
  $("#g-pieces").innerHTML = html;
  // Starting cells that are still free.
  const owners = new Map();
  app.setup.board.starts.forEach((cells, color) => {
    for (const c of cells) {
      if (!owners.has(c)) owners.set(c, new Set());
      owners.get(c).add(color);
    }
  });
  let starts = "";
  const rs = geo.kind === "square" ? 0.22 : 0.12;
  for (const [c, colors] of owners) {
    if (occupied.has(c)) continue;
    const color = colors.size === 1 ? [...colors][0] : null;
    const [x, y] = geo.centers[c];
    starts += `<g style="--pc:${colorVar(color)}"><circle class="start-mark" cx="${fmt(x)}" cy="${fmt(y)}" r="${rs}"/><circle class="start-ring" cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(rs * 1.6)}"/></g>`;
  }
  $("#g-starts").innerHTML = starts;
  // Attach points of the colour to move.
  let attach = "";
  if (app.settings.attach && st.turn !== null) {
    const ra = geo.kind === "square" ? 0.13 : 0.08;
    for (const c of st.attach) {
      const [x, y] = geo.centers[c];
      attach += `<polygon class="attach-mark" points="${polyAttr([[x, y - ra * 1.4], [x + ra * 1.4, y], [x, y + ra * 1.4], [x - ra * 1.4, y]])}"/>`;
    }
  }
  const ga = $("#g-attach");
  ga.innerHTML = attach;
  ga.style.setProperty("--pc", colorVar(st.turn));
}

// ---------------------------------------------------------------------------
// The piece in hand (the "ghost") and the live preview

function orientOf(sel) { return app.geo.orients[sel.piece][sel.orient]; }

function ghostPoints(sel = app.sel) {
  return orientOf(sel).cells.map(([x, row]) => [x + sel.tx, row + sel.trow]);
}

function ghostCells(sel = app.sel) {
  return ghostPoints(sel).map(([x, row]) => {
    const c = app.geo.index.get(`${x},${row}`);
    return c === undefined ? -1 : c;
  });
}

function fits(sel) { return ghostCells(sel).every((c) => c >= 0); }

function ghostKey(sel = app.sel) {
  const cells = ghostCells(sel);
  if (cells.some((c) => c < 0)) return null;
  return cells.map((c) => app.geo.names[c]).join(",");
}

function ghostCenter(sel = app.sel) {
  const o = orientOf(sel);
  const [sx, sy] = shiftXY(app.geo.kind, sel.tx, sel.trow);
  return [o.cx + sx, o.cy + sy];
}

function nearestTranslation(o, px, py) {
  if (app.geo.kind === "square") return [Math.round(px - o.cx), Math.round(o.cy - py)];
  const drow = Math.round((o.cy - py) / S3);
  const r = 2 * (px - o.cx);
  let dx = Math.round(r);
  if (mod2(dx + drow)) dx += r > dx ? 1 : -1;
  return [dx, drow];
}

function placeAt(sel, px, py) {
  // Put the piece as close to (px, py) as it goes, inside the board.
  const o = orientOf(sel);
  const [tx, trow] = nearestTranslation(o, px, py);
  for (const [dx, drow] of app.geo.near) {
    const cand = { ...sel, tx: tx + dx, trow: trow + drow };
    if (fits(cand)) return cand;
  }
  return { ...sel, tx, trow };
}

function canHold() {
  const st = app.st;
  return !!(st && st.my_turn && st.view === null);
}

function selectPiece(piece, how = {}) {
  // how.force: select again even if it is the piece in hand.
  if (!canHold()) return;
  const left = app.st.colors[app.st.turn].left;
  if (!left.includes(piece)) {
    showMessage(`Piece ${app.setup.pieces[piece].name} is already placed`, "illegal");
    return;
  }
  if (app.sel && app.sel.piece === piece && !how.force) return;
  const orient = app.remembered.get(piece) ?? 0;
  // A new piece in hand appears where it was, or at the attach point nearest
  // to the last piece placed, ready to be moved a little and placed.
  const center = app.sel ? ghostCenter() : nearestAttach(app.lastCenter || app.geo.center);
  app.sel = placeAt({ piece, orient, tx: 0, trow: 0 }, center[0], center[1]);
  app.hint = null;
  app.remembered.set(piece, orient);
  updateHand();
}

function nearestAttach([x, y]) {
  let best = null, bd = Infinity;
  for (const c of app.st.attach) {
    const [cx, cy] = app.geo.centers[c];
    const d = (cx - x) ** 2 + (cy - y) ** 2;
    if (d < bd) { bd = d; best = [cx, cy]; }
  }
  return best || [x, y];
}

function clearSelection() {
  if (app.sel) app.lastCenter = ghostCenter();
  app.sel = null;
  app.previewWanted = null;
  updateHand();
}

function turnPiece(step) {
  if (!app.sel) { showMessage("Pick a piece first", "info"); return; }
  const o = orientOf(app.sel);
  const next = step === "flip" ? o.flip : step > 0 ? o.cw : o.ccw;
  const [cx, cy] = ghostCenter();
  app.sel = placeAt({ ...app.sel, orient: next }, cx, cy);
  app.remembered.set(app.sel.piece, next);
  updateHand();
}

function movePiece(key) {
  if (!app.sel) return;
  const tri = app.geo.kind === "triangle";
  let options;
  if (key === "ArrowLeft") options = [[tri ? -2 : -1, 0]];
  else if (key === "ArrowRight") options = [[tri ? 2 : 1, 0]];
  else {
    const drow = key === "ArrowUp" ? 1 : -1;
    if (!tri) options = [[0, drow]];
    else {
      app.zig = !app.zig;
      options = app.zig ? [[1, drow], [-1, drow]] : [[-1, drow], [1, drow]];
    }
  }
  for (const [dx, drow] of options) {
    const cand = { ...app.sel, tx: app.sel.tx + dx, trow: app.sel.trow + drow };
    if (fits(cand)) { app.sel = cand; updateHand(); return; }
  }
  showMessage("The piece is at the edge of the board", "info");
}

function moveToClient(clientX, clientY, lift = 0) {
  if (!app.sel) return;
  const p = svgPoint(clientX, clientY);
  if (!p) return;
  const cand = placeAt(app.sel, p[0], p[1] - lift);
  if (cand.tx !== app.sel.tx || cand.trow !== app.sel.trow) {
    app.sel = cand;
    updateHand();
  }
}

function svgPoint(clientX, clientY) {
  const svg = $("#board");
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function overBoard(clientX, clientY) {
  const r = $("#board").getBoundingClientRect();
  return clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom;
}

function updateHand() {
  // Draw the piece in hand, ask the server about it, refresh the controls.
  const sel = app.sel;
  const svg = $("#board");
  svg.classList.toggle("has-sel", !!sel);
  renderGhost();
  renderHint();
  renderTray();
  renderPieceBar();
  if (!sel) {
    delete svg.dataset.piece;
    svg.dataset.preview = "none";
    if (!app.pendingMove) showMessage("");
    return;
  }
  svg.dataset.piece = app.setup.pieces[sel.piece].name;
  svg.dataset.orient = sel.orient;
  svg.dataset.tx = sel.tx;
  svg.dataset.trow = sel.trow;
  const key = ghostKey();
  svg.dataset.move = key || "";
  if (!key) { setPreview(null, false, "The piece does not fit on the board here"); return; }
  const known = app.previewCache.get(key);
  if (known) { setPreview(key, known.legal, known.reason); return; }
  setPreview(key, null, null);
  app.previewWanted = key;
  if (!app.previewInFlight) requestPreview();
}

function requestPreview() {
  const key = app.previewWanted;
  if (!key) return;
  app.previewWanted = null;
  app.previewInFlight = ++app.reqId;
  send({ type: "preview", move: key, id: app.previewInFlight });
}

function onPreview(msg) {
  // An answer about an older position (a state came in since) is dropped.
  if (msg.id !== app.previewInFlight) return;
  app.previewCache.set(msg.move, { legal: msg.legal, reason: msg.reason });
  app.previewInFlight = null;
  if (app.sel && ghostKey() === msg.move) setPreview(msg.move, msg.legal, msg.reason);
  if (app.previewWanted && app.previewWanted !== msg.move) requestPreview();
  else app.previewWanted = null;
}

function setPreview(key, legal, reason) {
  const g = $("#g-ghost");
  const state = legal === null ? "pending" : legal ? "legal" : "illegal";
  g.classList.remove("legal", "illegal", "pending");
  g.classList.add(state);
  $("#board").dataset.preview = state;
  if (app.pendingMove) return;
  if (legal === true) {
    const how = matchMedia("(pointer: coarse)").matches ? "tap Place" : "click or press Enter";
    showMessage(app.hint && app.hint.move === key ? `Hint: this move is good — ${how} to play it` : `Legal — ${how} to place it`, "legal");
  } else if (legal === false) {
    showMessage(capital(reason || "Illegal"), "illegal");
  }
}

function renderGhost() {
  const g = $("#g-ghost");
  const sel = app.sel;
  if (!sel || !app.st || app.st.view !== null) { g.innerHTML = ""; return; }
  const o = orientOf(sel);
  const [sx, sy] = shiftXY(app.geo.kind, sel.tx, sel.trow);
  const polys = o.polys.map((poly) => poly.map(([x, y]) => [x + sx, y + sy]));
  const cells = ghostCells();
  let html = "";
  polys.forEach((poly, i) => {
    html += `<polygon class="${cells[i] < 0 ? "gh-bad" : "gh-cell"}" points="${polyAttr(poly)}"/>`;
  });
  html += `<path class="gh-edge" d="${outlinePath(polys)}"/>`;
  g.innerHTML = html;
  g.style.setProperty("--pc", colorVar(app.st.turn));
}

function renderHint() {
  const g = $("#g-hint");
  if (!app.hint || !app.st || app.st.view !== null) { g.innerHTML = ""; return; }
  g.innerHTML = `<path class="hint-edge" d="${outlinePath(app.hint.cells.map((c) => app.geo.polys[c]))}"/>`;
}

function shakeGhost() {
  const g = $("#g-ghost");
  g.animate([{ transform: "translateX(0)" }, { transform: "translateX(.15px)" }, { transform: "translateX(-.15px)" }, { transform: "translateX(0)" }], { duration: 220 });
}

function tryPlace() {
  if (!app.sel) { showMessage("Pick a piece first: click it, or type / and its name", "info"); return; }
  if (!canHold()) return;
  const key = ghostKey();
  if (!key) { showMessage("The piece does not fit on the board here", "illegal"); return; }
  // The server decides; it answers with the new state or the reason.
  app.pendingMove = key;
  send({ type: "move", move: key, id: ++app.reqId });
}

function onHint(msg) {
  if (!canHold()) return;
  app.hint = { move: msg.move, cells: msg.cells };
  const o = app.geo.orients[msg.piece][msg.orientation];
  const first = app.geo.points[msg.cells[0]];
  app.sel = { piece: msg.piece, orient: msg.orientation, tx: first[0] - o.cells[0][0], trow: first[1] - o.cells[0][1] };
  app.remembered.set(msg.piece, msg.orientation);
  app.trayColor = app.st.turn;
  updateHand();
}

// ---------------------------------------------------------------------------
// A new state: draw everything

function onState(st) {
  if (!app.setup || st.game !== app.setup.game) return;
  const prev = app.st;
  app.st = st;
  app.previewCache.clear();
  app.previewInFlight = null;
  if (app.pendingMove) {
    const last = [...st.history].reverse().find((h) => !h.pass);
    if (last && sameMove(last.move, app.pendingMove)) {
      // Our move was accepted: the piece leaves the hand.
      app.pendingMove = null;
      app.hint = null;
      if (app.sel) app.lastCenter = ghostCenter();
      app.sel = null;
      showMessage("");
    }
  }
  if (!st.my_turn && app.sel) { app.lastCenter = ghostCenter(); app.sel = null; }
  if (prev && prev.num_moves !== st.num_moves) app.hint = null;
  if (app.trayAuto || app.trayColor === null || st.my_turn) app.trayColor = st.turn ?? app.trayColor ?? 0;
  if (st.my_turn) app.trayAuto = true;
  announce(st);
  renderAll();
  if (st.game_over && st.view === null && !app.endShown && !app.setup.title) {
    app.endShown = true;
    setTimeout(() => { if (app.st === st) showResult(); }, 350);
  }
  if (!st.game_over) app.endShown = false;
}

function sameMove(a, b) {
  return a.split(",").sort().join() === b.split(",").sort().join();
}

function announce(st) {
  if (app.seenHistory === null) {
    // Joining: remember what is already known without announcing it.
    st.history.forEach((h) => { if (h.pass) app.passAnnounced.add(h.color); });
    app.seenHistory = st.history.length;
    return;
  }
  if (st.history.length < app.seenHistory) {
    app.passAnnounced = new Set(st.history.filter((h) => h.pass).map((h) => h.color));
  }
  for (const h of st.history.slice(app.seenHistory)) {
    if (h.pass && !app.passAnnounced.has(h.color)) {
      app.passAnnounced.add(h.color);
      // At the end the result says it all.
      if (!st.game_over) toast(`${colorName(h.color)} cannot move any more`);
    }
  }
  app.seenHistory = st.history.length;
}

function renderAll() {
  if (!app.st || !app.geo) return;
  renderPieces();
  renderGhost();
  renderHint();
  renderStatus();
  renderPlayers();
  renderTray();
  renderPieceBar();
  renderMoves();
  renderReplayBar();
  renderActions();
  if (app.sel) updateHand();
}

function seatLabel(i) {
  const st = app.st, seat = app.setup.seating.seats[i], s = st.seats[i];
  if (seat.neutral) return "Neutral";
  if (s.kind === "computer") return `Computer · ${playerWord(s.player)}`;
  const mineHumans = st.seats.filter((x) => x.mine && x.kind !== "computer").length;
  if (s.mine) return mineHumans > 1 ? `${seat.name}` : "You";
  return s.kind === "remote" ? "Invited player" : "Other player";
}

function playerWord(spec) {
  if (!spec) return "";
  if (spec.startsWith("level:")) return `level ${spec.slice(6)}`;
  return spec;
}

function renderStatus() {
  const st = app.st;
  const dot = $("#status-dot");
  let text;
  let color = st.turn;
  dot.classList.toggle("thinking", st.thinking !== null && st.view === null);
  if (st.view !== null) {
    text = st.view === 0 ? "Start position" : `Position after move ${st.view}`;
    if (st.turn !== null) text += ` · ${colorName(st.turn)} to move`;
  } else if (st.game_over) {
    text = `Game over — ${resultHeadline()}`;
    color = null;
  } else if (st.my_turn) {
    const mineHumans = st.seats.filter((x) => x.mine && x.kind !== "computer").length;
    text = mineHumans > 1 ? `${colorName(st.turn)} to move` : `Your move · ${colorName(st.turn)}`;
    if (app.setup.seating.shared === st.turn) text += ` (shared colour, played by ${app.setup.seating.seats[st.seat].name} now)`;
  } else {
    const s = st.seats[st.seat];
    if (s.kind === "computer") text = st.thinking !== null ? `${colorName(st.turn)} is thinking…` : `${colorName(st.turn)} (computer) to move`;
    else text = `Waiting for ${seatTitle(st.seat)}`;
  }
  $("#status-text").textContent = text;
  dot.style.setProperty("--pc", colorVar(color));
  const n = st.view === null ? st.num_moves : st.view;
  $("#status-extra").textContent = `Move ${n} · ${RULE_WORDS[st.rule] || st.rule}`;
  // For scripts and tests: what the page shows now.
  const board = $("#board");
  board.dataset.game = st.game;
  board.dataset.moves = st.num_moves;
  board.dataset.view = st.view === null ? "" : st.view;
  board.dataset.myTurn = String(st.my_turn);
  board.dataset.over = String(st.game_over);
}

function renderPlayers() {
  const st = app.st, setup = app.setup;
  const out = st.outcome;
  const box = $("#players");
  box.innerHTML = "";
  setup.seating.seats.forEach((seat, i) => {
    const s = st.seats[i];
    const row = document.createElement("div");
    const toMove = st.seat === i && st.turn !== null;
    row.className = `player${toMove ? " to-move" : ""}`;
    row.style.setProperty("--pc", colorVar(toMove ? st.turn : seat.colors[0]));
    row.dataset.seat = i;
    const chips = seat.colors.map((c) => `<span class="chip${st.colors[c].can_move ? "" : " out"}" style="--pc:${colorVar(c)}" title="${colorName(c)}"></span>`).join("");
    const score = seat.neutral ? "–" : out.seat_scores[i];
    const leftWords = seat.colors.map((c) => `${st.colors[c].left.length} pieces`).join(" + ");
    let sub = seat.name;
    if (s.kind === "remote" && !s.mine) sub = `<span class="online${s.online ? " on" : ""}"></span>${s.online ? "online" : "not here yet"} · ${seat.name}`;
    row.innerHTML = `<span class="chips">${chips}</span><span class="who">${escapeHtml(seatLabel(i))}<small>${sub}</small></span><span class="score" title="${RULE_WORDS[st.rule]}">${score}</span><span class="detail">${leftWords} left</span>`;
    const detail = row.querySelector(".detail");
    if (s.mine && !seat.neutral) {
      const select = document.createElement("select");
      select.setAttribute("aria-label", `Who plays ${seat.name}`);
      select.dataset.seat = i;
      select.innerHTML = seatOptions(false, true);
      select.value = s.kind === "computer" ? `computer:${s.player}` : "human";
      select.addEventListener("change", () => {
        const v = select.value;
        send(v === "human"
          ? { type: "set_seat", seat: i, kind: "human" }
          : { type: "set_seat", seat: i, kind: "computer", player: v.slice(9) });
      });
      detail.append(select);
    } else if (s.kind === "remote" && setup.invites[i] !== undefined) {
      const b = document.createElement("button");
      b.className = "btn small";
      b.textContent = "Copy invitation link";
      b.addEventListener("click", () => copyInvite(i));
      detail.append(b);
    }
    box.append(row);
  });
  if (setup.seating.shared !== null) {
    const c = setup.seating.shared;
    const row = document.createElement("div");
    row.className = `player${st.turn === c ? " to-move" : ""}`;
    row.style.setProperty("--pc", colorVar(c));
    row.innerHTML = `<span class="chips"><span class="chip" style="--pc:${colorVar(c)}"></span></span><span class="who">${colorName(c)}<small>shared: each player in turn</small></span><span class="score" title="counts for nobody">${out.color_scores[c]}</span><span class="detail">${st.colors[c].left.length} pieces left · counts for nobody</span>`;
    box.append(row);
  }
  if (out.groups.some((g) => g.length > 1)) {
    out.groups.forEach((g, k) => {
      const line = document.createElement("div");
      line.className = "team-line";
      line.innerHTML = `<span>Team ${g.map((i) => escapeHtml(setup.seating.seats[i].name)).join(" + ")}</span><b>${out.group_scores[k]}</b>`;
      box.append(line);
    });
  }
  const notes = [...new Set(st.notices)];
  $("#notices").innerHTML = notes.map((n) => `<p>${escapeHtml(n)}</p>`).join("");
}

function seatOptions(includeRemote, compact = false) {
  // The choices for who plays a seat (compact: for the players panel).
  const avail = app.catalog && app.catalog.levels_available;
  let html = `<option value="human">${compact ? "played by you" : "You (at this screen)"}</option>`;
  if (includeRemote) html += `<option value="remote">Invite a player (another browser)</option>`;
  const c = compact ? "computer" : "Computer";
  html += `<optgroup label="Computer"><option value="computer:random">${c} · random${compact ? "" : " (beginner)"}</option><option value="computer:greedy">${c} · greedy${compact ? "" : " (easy)"}</option>`;
  const notes = (app.catalog && app.catalog.level_notes) || {};
  for (const spec of (app.catalog ? app.catalog.levels : [])) {
    const note = !avail ? " (greedy for now)" : notes[spec] ? ` (${notes[spec]})` : "";
    html += `<option value="computer:${spec}">${c} · level ${spec.slice(6)}${compact ? "" : escapeHtml(note)}</option>`;
  }
  return `${html}</optgroup>`;
}

function copyInvite(seat) {
  const url = `${location.origin}${location.pathname}#g=${app.setup.game}&t=${app.setup.invites[seat]}`;
  const done = () => toast("Invitation link copied: send it to the other player");
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, () => prompt("Invitation link", url));
  else prompt("Copy this invitation link and send it to the other player:", url);
}

function trayInteractive() {
  return canHold() && app.trayColor === app.st.turn;
}

function renderTray() {
  const st = app.st;
  if (!st) return;
  const interactive = trayInteractive();
  const left = st.colors[app.trayColor].left;
  const orients = app.setup.pieces.map((p, i) => (app.sel && app.sel.piece === i ? app.sel.orient : (app.remembered.get(i) ?? 0)));
  const key = [app.setup.game, app.trayColor, left.join(), interactive, orients.join(), st.colors.map((c) => c.left.length).join()].join("|");
  if (key === app.trayKey) {
    for (const b of document.querySelectorAll(".tray-piece")) {
      b.classList.toggle("selected", !!app.sel && app.sel.piece === Number(b.dataset.piece));
    }
    return;
  }
  app.trayKey = key;
  const tabs = $("#tray-tabs");
  tabs.innerHTML = "";
  app.setup.colors.forEach((col, c) => {
    const b = document.createElement("button");
    b.className = "tray-tab";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(c === app.trayColor));
    b.style.setProperty("--pc", colorVar(c));
    b.innerHTML = `<span class="chip"></span>${col.name} · ${st.colors[c].left.length}`;
    b.addEventListener("click", () => {
      app.trayColor = c;
      app.trayAuto = c === st.turn;
      if (!trayInteractive()) clearSelection();
      renderTray();
    });
    tabs.append(b);
  });
  const tray = $("#tray");
  tray.classList.toggle("readonly", !interactive);
  tray.style.setProperty("--pc", colorVar(app.trayColor));
  const counts = new Map();
  for (const p of left) counts.set(p, (counts.get(p) || 0) + 1);
  const unit = app.geo.kind === "square" ? 13 : 19;
  tray.innerHTML = "";
  if (!left.length) {
    tray.innerHTML = `<span class="tray-empty">${colorName(app.trayColor)} has placed every piece.</span>`;
    return;
  }
  app.setup.pieces.forEach((piece, i) => {
    const n = counts.get(i) || 0;
    const o = app.geo.orients[i][orients[i]];
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const poly of o.polys) for (const [x, y] of poly) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const w = maxX - minX, h = maxY - minY;
    const polys = o.polys.map((poly) => `<polygon class="pc-cell" points="${polyAttr(poly)}"/><polygon class="pc-shine" points="${polyAttr(poly)}"/>`).join("");
    const b = document.createElement("button");
    b.className = `tray-piece${n ? "" : " used"}${app.sel && app.sel.piece === i ? " selected" : ""}`;
    b.dataset.piece = i;
    b.dataset.name = piece.name;
    b.title = n ? `${piece.name} (${piece.size} cells)` : `${piece.name} is placed`;
    b.disabled = !interactive || !n;
    b.setAttribute("aria-label", `Piece ${piece.name}`);
    b.innerHTML = `<svg width="${fmt(w * unit)}" height="${fmt(h * unit)}" viewBox="${fmt(minX)} ${fmt(minY)} ${fmt(w)} ${fmt(h)}"><g class="piece" style="--pc:${colorVar(app.trayColor)}">${polys}<path class="pc-edge" d="${outlinePath(o.polys)}"/></g></svg><span class="pname">${piece.name}</span>${n > 1 ? `<span class="copies">×${n}</span>` : ""}`;
    tray.append(b);
  });
}

function trayPointerDown(e) {
  // Pick a piece from the tray; dragging it onto the board places it there.
  const b = e.target.closest(".tray-piece");
  if (!b || b.disabled || e.button > 0) return;
  e.preventDefault();
  selectPiece(Number(b.dataset.piece));
  app.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, type: e.pointerType };
}

function dragMove(e) {
  const d = app.drag;
  if (!d || d.id !== e.pointerId) return;
  if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 8) d.moved = true;
  if (d.moved && overBoard(e.clientX, e.clientY)) moveToClient(e.clientX, e.clientY, d.type === "mouse" ? 0 : 1.8);
}

function dragEnd(e) {
  const d = app.drag;
  if (!d || d.id !== e.pointerId) return;
  app.drag = null;
  if (e.type === "pointerup" && d.moved && overBoard(e.clientX, e.clientY)) {
    moveToClient(e.clientX, e.clientY, d.type === "mouse" ? 0 : 1.8);
    tryPlace();
  }
}

function renderPieceBar() {
  $("#piece-bar").hidden = !!app.st && app.st.view !== null;
  const has = !!app.sel;
  const hold = app.st && canHold();
  $("#sel-name").innerHTML = has
    ? `Piece <b>${app.setup.pieces[app.sel.piece].name}</b>`
    : hold ? "Pick a piece" : "No piece selected";
  for (const id of ["#btn-rotl", "#btn-rotr", "#btn-flip", "#btn-place", "#btn-cancel"]) $(id).disabled = !has;
  $("#piece-name").disabled = !hold;
}

function renderMoves() {
  const st = app.st;
  const list = $("#moves");
  const current = st.view === null ? st.num_moves : st.view;
  let html = "";
  let n = 0;
  const passed = new Set();
  for (const h of st.history) {
    const style = `style="--pc:${colorVar(h.color)}"`;
    if (h.pass) {
      if (passed.has(h.color)) continue;
      passed.add(h.color);
      html += `<li class="pass" ${style}><span class="num"></span><span class="sw"></span><span>${colorName(h.color)} cannot move</span></li>`;
      continue;
    }
    n++;
    html += `<li data-move="${n}" class="${n === current ? "current" : ""}" ${style} title="Show the position after move ${n}"><span class="num">${n}.</span><span class="sw"></span><span class="pc">${h.piece}</span><span class="cells">${h.move}</span></li>`;
  }
  if (!n) html = `<li class="pass"><span class="num"></span><span></span><span>No moves yet</span></li>`;
  list.innerHTML = html;
  const cur = list.querySelector("li.current");
  // Scroll the list only (scrollIntoView would scroll the whole side panel too).
  if (cur && st.view !== null) list.scrollTop = cur.offsetTop - list.clientHeight / 2;
  else list.scrollTop = list.scrollHeight;
}

function renderReplayBar() {
  const st = app.st;
  const cur = st.view === null ? st.num_moves : st.view;
  $("#replay-total").textContent = st.num_moves;
  const input = $("#replay-input");
  input.max = st.num_moves;
  if (document.activeElement !== input) input.value = cur;
  $("#btn-first").disabled = cur === 0;
  $("#btn-back").disabled = cur === 0;
  $("#btn-forward").disabled = st.view === null;
  $("#btn-last").disabled = st.view === null;
  $("#btn-live").hidden = st.view === null;
  $("#btn-live").textContent = app.setup.title ? "Last position" : "Back to the game";
  $("#btn-from-here").hidden = !st.can_play_from_here;
}

function renderActions() {
  const st = app.st;
  $("#btn-undo").disabled = !st.can_undo;
  $("#btn-hint").disabled = !st.my_turn;
  $("#btn-result").hidden = !st.game_over;
}

function goto(n) {
  if (!app.st) return;
  const total = app.st.num_moves;
  const m = Math.max(0, Math.min(total, n));
  clearSelection();
  send({ type: "goto", move: m === total ? null : m });
}

function current() { return app.st.view === null ? app.st.num_moves : app.st.view; }

// ---------------------------------------------------------------------------
// End of the game

function seatTitle(i) {
  // A seat in words for sentences: "You", "Yellow (computer)", "Blue".
  const label = seatLabel(i);
  if (label === "You") return label;
  const seat = app.setup.seating.seats[i], s = app.st.seats[i];
  if (s.kind === "computer" && !seat.neutral) return `${seat.name} (computer)`;
  if (s.kind === "remote" && !s.mine) return `${seat.name} (${label.toLowerCase()})`;
  return seat.name;
}

function groupLabel(k) {
  const g = app.st.outcome.groups[k];
  if (g.length === 1) return seatTitle(g[0]);
  const names = g.map((i) => app.setup.seating.seats[i].name).join(" & ");
  const mine = g.some((i) => app.st.seats[i].mine && app.st.seats[i].kind !== "computer");
  const others = app.st.seats.some((s, i) => !g.includes(i) && s.mine && s.kind !== "computer");
  return mine && !others ? `${names} (your team)` : names;
}

function resultHeadline() {
  const st = app.st, out = st.outcome;
  const mineGroups = out.groups
    .map((g, k) => (g.some((i) => st.seats[i].mine && st.seats[i].kind !== "computer") ? k : -1))
    .filter((k) => k >= 0);
  if (out.winners.length > 1) return `a draw between ${out.winners.map(groupLabel).join(" and ")}`;
  const w = out.winners[0];
  const scores = [...out.group_scores].sort((a, b) => (st.rule === "basic" ? a - b : b - a));
  const margin = Math.abs(scores[0] - (scores[1] ?? scores[0]));
  const by = scores.length > 1 ? ` by ${margin} ${st.rule === "basic" ? (margin === 1 ? "cell" : "cells") : (margin === 1 ? "point" : "points")}` : "";
  const wins = out.groups[w].length > 1 ? "win" : "wins";
  if (mineGroups.length === 1) return mineGroups[0] === w ? `you win${by}!` : `${groupLabel(w)} ${wins}${by}`;
  return `${groupLabel(w)} ${wins}${by}`;
}

function showResult() {
  const st = app.st, out = st.outcome, setup = app.setup;
  $("#end-title").textContent = capital(resultHeadline());
  const order = out.groups.map((g, k) => k).sort((a, b) => out.places[a] - out.places[b]);
  let rows = "";
  for (const k of order) {
    const g = out.groups[k];
    const colors = g.flatMap((i) => setup.seating.seats[i].colors);
    const details = colors.map((c) => {
      const info = st.colors[c];
      const bonus = info.bonus ? ` <span class="bonus">+${info.bonus} bonus${info.bonus === 20 ? " (single cell last)" : ""}</span>` : "";
      const left = info.remaining ? `${info.remaining} cells left` : "all pieces placed";
      return `<span><i class="chip" style="--pc:${colorVar(c)}"></i>${colorName(c)}: ${out.color_scores[c]} · ${left}${bonus}</span>`;
    }).join("");
    rows += `<tr class="${out.places[k] === 1 ? "winner" : ""}"><td class="place">${ordinal(out.places[k])}</td><td><b>${escapeHtml(groupLabel(k))}</b><div class="colors">${details}</div></td><td class="num total">${out.group_scores[k]}</td></tr>`;
  }
  const shared = setup.seating.shared;
  let extra = "";
  if (shared !== null) extra = `<p class="note">${colorName(shared)} was shared; its ${out.color_scores[shared]} counts for nobody.</p>`;
  const rule = { advanced: "Advanced scoring: −1 per cell left, +15 for placing every piece, +20 if the last one was the single cell.", basic: "Basic scoring: cells left; the fewest wins.", cells: "Points: +1 per cell placed, +15 for placing every piece, +20 if the last one was the single cell." }[st.rule];
  $("#end-body").innerHTML = `<table class="result-table"><thead><tr><th>Place</th><th>Player</th><th class="num">Score</th></tr></thead><tbody>${rows}</tbody></table>${extra}<p class="note">${rule}${setup.variant.bonus ? "" : " Junior has no bonus."}</p>`;
  const players = Object.keys(setup.tokens).length > 0;
  $("#end-rematch").hidden = !players;
  $("#end-swap").hidden = !players || setup.seating.seats.length < 2;
  openDialog("#dlg-end");
}

function ordinal(n) { return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`; }

// ---------------------------------------------------------------------------
// New game dialog

function loadNewGamePrefs() {
  try { return JSON.parse(localStorage.getItem("blokus.newgame") || "null"); } catch { return null; }
}

function openNewGame() {
  if (!app.catalog) return;
  const prefs = loadNewGamePrefs() || { variant: "duo" };
  const box = $("#new-variants");
  box.innerHTML = app.catalog.variants.map((v) => {
    const [title, sub] = VARIANT_INFO[v.id] || [v.name, ""];
    return `<label class="variant"><input type="radio" name="variant" value="${v.id}"><b>${title}</b><span>${sub}</span></label>`;
  }).join("");
  const chosen = app.catalog.variants.find((v) => v.id === prefs.variant) ? prefs.variant : "duo";
  box.querySelector(`input[value="${chosen}"]`).checked = true;
  box.onchange = () => renderSeatings(null);
  $("#new-rule").value = prefs.rule || "advanced";
  renderSeatings(prefs);
  openDialog("#dlg-new");
  box.querySelector("input:checked").focus();
}

function chosenVariant() {
  const id = $("#new-variants input:checked").value;
  return app.catalog.variants.find((v) => v.id === id);
}

function renderSeatings(prefs) {
  const v = chosenVariant();
  const box = $("#new-seatings");
  const seatingId = prefs && prefs.variant === v.id && prefs.seating ? prefs.seating : v.seatings[0].id;
  box.innerHTML = v.seatings.length > 1
    ? v.seatings.map((s) => `<label><input type="radio" name="seating" value="${s.id}"${s.id === seatingId ? " checked" : ""}> ${capital(s.description)}</label>`).join("")
    : `<span class="note">${capital(v.seatings[0].description)}</span>`;
  box.onchange = () => renderSeats(null);
  renderSeats(prefs && prefs.variant === v.id ? prefs : null);
}

function chosenSeating() {
  const v = chosenVariant();
  const input = $("#new-seatings input:checked");
  return v.seatings.find((s) => s.id === (input ? input.value : v.seatings[0].id)) || v.seatings[0];
}

function renderSeats(prefs) {
  const s = chosenSeating();
  const v = chosenVariant();
  const box = $("#new-seats");
  const samePrefs = prefs && prefs.seating === s.id && prefs.seats && prefs.seats.length === s.seats.length;
  const fallback = app.catalog.levels_available ? "computer:level:3" : "computer:greedy";
  box.innerHTML = "";
  s.seats.forEach((seat, i) => {
    const row = document.createElement("div");
    row.className = "seat-row";
    const chips = seat.colors.map((c) => `<span class="chip" style="--pc:var(--c-${v.colors[c]})"></span>`).join("");
    row.innerHTML = `<span class="seat-name">${chips}${escapeHtml(seat.name)}</span>`;
    const select = document.createElement("select");
    select.dataset.seat = i;
    select.setAttribute("aria-label", `Who plays ${seat.name}`);
    if (seat.neutral) {
      select.innerHTML = `<option value="computer:random">Computer · random moves (neutral)</option>`;
      select.disabled = true;
    } else {
      select.innerHTML = seatOptions(true);
      let value = i === 0 ? "human" : fallback;
      if (samePrefs) {
        const p = prefs.seats[i];
        value = p.kind === "computer" ? `computer:${p.player}` : p.kind;
      }
      select.value = value;
      if (!select.value) select.value = fallback;
    }
    row.append(select);
    box.append(row);
  });
  const note = $("#new-level-note");
  note.hidden = !!app.catalog.levels_available;
  note.textContent = "Computer levels 1–9 need the search engine, which is not installed yet: they play like “greedy” for now.";
}

function submitNewGame() {
  const v = chosenVariant();
  const s = chosenSeating();
  const seats = [...$("#new-seats").querySelectorAll("select")].map((sel) => {
    const value = sel.value;
    if (value.startsWith("computer:")) return { kind: "computer", player: value.slice(9) };
    return { kind: value };
  });
  const msg = { variant: v.id, seating: s.id, rule: $("#new-rule").value, seats };
  localStorage.setItem("blokus.newgame", JSON.stringify(msg));
  send({ type: "new_game", ...msg });
}

// ---------------------------------------------------------------------------
// Records

function saveRecord() {
  if (!app.setup) return;
  const a = document.createElement("a");
  a.href = `/api/games/${app.setup.game}/record.blksgf`;
  a.download = "";
  document.body.append(a);
  a.click();
  a.remove();
}

function openRecordFile(file) {
  if (!file) return;
  if (file.size > 1_500_000) { toast("This file is too large to be a game record", "error"); return; }
  file.text().then((text) => send({ type: "load_record", text, name: file.name }));
}

// ---------------------------------------------------------------------------
// Little helpers

function showMessage(text, kind = "") {
  const m = $("#message");
  m.textContent = text;
  m.className = `message ${kind}`;
}

function toast(text, kind = "") {
  const t = document.createElement("div");
  t.className = `toast ${kind}`;
  t.textContent = text;
  const box = $("#toasts");
  box.append(t);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => t.classList.add("hide"), 3200);
  setTimeout(() => t.remove(), 3700);
}

function capital(s) {
  // "the game is over" -> "The game is over"; a cell name ("f10 is occupied") stays as it is.
  if (!s || /^[a-z]+[0-9]/.test(s)) return s;
  return s[0].toUpperCase() + s.slice(1);
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
}

function openDialog(sel) {
  const d = $(sel);
  for (const other of document.querySelectorAll("dialog[open]")) if (other !== d) other.close();
  if (!d.open) d.showModal();
}

function closeDialog(sel) {
  const d = $(sel);
  if (d.open) d.close();
}

function cyclePiece(step) {
  if (!canHold()) return;
  const left = [...new Set(app.st.colors[app.st.turn].left)].sort((a, b) => a - b);
  if (!left.length) return;
  const at = app.sel ? left.indexOf(app.sel.piece) : -1;
  const next = at < 0 ? (step > 0 ? left[0] : left[left.length - 1]) : left[(at + step + left.length) % left.length];
  selectPiece(next);
}

function pieceNameInput() {
  const input = $("#piece-name");
  const text = input.value.trim().toLowerCase();
  if (!text || !canHold()) return;
  const names = app.setup.pieces.map((p) => p.name.toLowerCase());
  const exact = names.indexOf(text);
  const longer = names.filter((n) => n.startsWith(text) && n !== text);
  if (exact >= 0 && !longer.length) {
    input.value = "";
    input.blur();
    app.trayColor = app.st.turn;
    selectPiece(exact);
  } else if (exact < 0 && !longer.length) {
    showMessage(`No piece is called “${input.value.trim()}” (names: ${app.setup.pieces.map((p) => p.name).join(" ")})`, "illegal");
  } else {
    showMessage(`Piece ${input.value.trim().toUpperCase()}…: ${longer.map((n) => n.toUpperCase()).join(", ")}${exact >= 0 ? ` or ${text.toUpperCase()} (press Enter)` : ""}`, "info");
  }
}

// ---------------------------------------------------------------------------
// Wiring

function wire() {
  $("#btn-new").addEventListener("click", openNewGame);
  $("#new-cancel").addEventListener("click", () => closeDialog("#dlg-new"));
  $("#new-form").addEventListener("submit", (e) => {
    e.preventDefault();
    submitNewGame();
    closeDialog("#dlg-new");
  });
  $("#btn-open").addEventListener("click", () => $("#file-input").click());
  $("#file-input").addEventListener("change", (e) => { openRecordFile(e.target.files[0]); e.target.value = ""; });
  $("#btn-save").addEventListener("click", saveRecord);
  $("#end-save").addEventListener("click", saveRecord);
  $("#btn-help").addEventListener("click", () => openDialog("#dlg-help"));
  $("#help-close").addEventListener("click", () => closeDialog("#dlg-help"));
  $("#end-close").addEventListener("click", () => closeDialog("#dlg-end"));
  $("#end-rematch").addEventListener("click", () => { closeDialog("#dlg-end"); send({ type: "rematch", swap: false }); });
  $("#end-swap").addEventListener("click", () => { closeDialog("#dlg-end"); send({ type: "rematch", swap: true }); });
  $("#btn-result").addEventListener("click", showResult);
  $("#btn-undo").addEventListener("click", () => send({ type: "undo" }));
  $("#btn-hint").addEventListener("click", () => { showMessage("Thinking about a hint…", "info"); send({ type: "hint", id: ++app.reqId }); });
  $("#btn-rotl").addEventListener("click", () => turnPiece(-1));
  $("#btn-rotr").addEventListener("click", () => turnPiece(1));
  $("#btn-flip").addEventListener("click", () => turnPiece("flip"));
  $("#btn-place").addEventListener("click", tryPlace);
  $("#btn-cancel").addEventListener("click", () => { app.hint = null; clearSelection(); });
  $("#btn-first").addEventListener("click", () => goto(0));
  $("#btn-back").addEventListener("click", () => goto(current() - 1));
  $("#btn-forward").addEventListener("click", () => goto(current() + 1));
  $("#btn-last").addEventListener("click", () => goto(app.st.num_moves));
  $("#btn-live").addEventListener("click", () => goto(app.st.num_moves));
  $("#btn-from-here").addEventListener("click", () => send({ type: "play_from_here" }));
  $("#replay-input").addEventListener("change", (e) => {
    const n = parseInt(e.target.value, 10);
    if (Number.isFinite(n)) goto(n);
  });
  $("#moves").addEventListener("click", (e) => {
    const li = e.target.closest("li[data-move]");
    if (li) goto(parseInt(li.dataset.move, 10));
  });

  const pieceName = $("#piece-name");
  pieceName.addEventListener("input", pieceNameInput);
  pieceName.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { pieceName.value = ""; pieceName.blur(); e.preventDefault(); }
    if (e.key === "Enter") {
      const text = pieceName.value.trim().toLowerCase();
      const names = app.setup.pieces.map((p) => p.name.toLowerCase());
      const i = names.indexOf(text) >= 0 ? names.indexOf(text) : names.findIndex((n) => n.startsWith(text));
      if (text && i >= 0) { pieceName.value = ""; pieceName.blur(); selectPiece(i); }
      e.preventDefault();
    }
  });

  // Settings
  $("#set-theme").addEventListener("change", (e) => { app.settings.theme = e.target.value; saveSettings(); applySettings(); });
  $("#set-cb").addEventListener("change", (e) => { app.settings.cb = e.target.checked; saveSettings(); applySettings(); renderAll(); });
  $("#set-coords").addEventListener("change", (e) => { app.settings.coords = e.target.checked; saveSettings(); if (app.geo) buildBoard(); });
  $("#set-attach").addEventListener("change", (e) => { app.settings.attach = e.target.checked; saveSettings(); renderAll(); });
  $("#set-animate").addEventListener("change", (e) => { app.settings.animate = e.target.checked; saveSettings(); });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applySettings);
  document.addEventListener("click", (e) => {
    const s = $("#settings");
    if (s.open && !s.contains(e.target)) s.open = false;
  });

  // The board: hover, click, touch drag, wheel
  const board = $("#board");
  board.addEventListener("pointermove", (e) => {
    if (!app.sel || app.drag) return;
    if (e.pointerType === "mouse") moveToClient(e.clientX, e.clientY);
    else if (app.touch && app.touch.id === e.pointerId) {
      if (Math.hypot(e.clientX - app.touch.x, e.clientY - app.touch.y) > 6) app.touch.moved = true;
      if (app.touch.moved) moveToClient(e.clientX, e.clientY, 1.8);
    }
  });
  board.addEventListener("pointerdown", (e) => {
    if (!app.sel) return;
    if (e.pointerType === "mouse") {
      if (e.button === 0) app.down = { x: e.clientX, y: e.clientY };
      return;
    }
    e.preventDefault();
    app.touch = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
    try { board.setPointerCapture(e.pointerId); } catch { /* ignore */ }
  });
  board.addEventListener("pointerup", (e) => {
    if (e.pointerType === "mouse") {
      const d = app.down;
      app.down = null;
      if (d && app.sel && e.button === 0 && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) {
        moveToClient(e.clientX, e.clientY);
        tryPlace();
      }
      return;
    }
    if (app.touch && app.touch.id === e.pointerId) {
      if (!app.touch.moved) moveToClient(e.clientX, e.clientY);
      app.touch = null;
    }
  });
  board.addEventListener("pointercancel", () => { app.touch = null; app.down = null; });
  board.addEventListener("wheel", (e) => {
    if (!app.sel) return;
    e.preventDefault();
    app.wheel += e.deltaY;
    if (Math.abs(app.wheel) >= 40 || e.deltaMode !== 0) {
      turnPiece(app.wheel > 0 ? 1 : -1);
      app.wheel = 0;
    }
  }, { passive: false });
  board.addEventListener("contextmenu", (e) => { if (app.sel) { e.preventDefault(); turnPiece("flip"); } });

  // Records dropped on the page
  document.addEventListener("dragover", (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes("Files")) e.preventDefault(); });
  document.addEventListener("drop", (e) => {
    if (!e.dataTransfer || !e.dataTransfer.files.length) return;
    e.preventDefault();
    openRecordFile(e.dataTransfer.files[0]);
  });

  document.addEventListener("keydown", onKey);
  const tray = $("#tray");
  tray.addEventListener("pointerdown", trayPointerDown);
  tray.addEventListener("click", (e) => {
    const b = e.target.closest(".tray-piece");
    if (b && !b.disabled && e.detail === 0) selectPiece(Number(b.dataset.piece));
  });
  document.addEventListener("pointermove", dragMove);
  document.addEventListener("pointerup", dragEnd);
  document.addEventListener("pointercancel", dragEnd);
}

function onKey(e) {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (document.querySelector("dialog[open]")) return;
  const k = e.key;
  if ((e.ctrlKey || e.metaKey) && k.toLowerCase() === "z") { e.preventDefault(); send({ type: "undo" }); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if ((k === "Enter" || k === " ") && e.target.closest && e.target.closest("button, summary, a")) {
    // Enter on a tool button (turn, flip, a tray piece, hint) places the piece in hand.
    if (k === "Enter" && app.sel && e.target.closest("#piece-bar, #tray, .actions")) {
      e.preventDefault();
      tryPlace();
    }
    return;
  }
  const sel = app.sel;
  switch (k) {
    case "/": e.preventDefault(); $("#piece-name").focus(); return;
    case "r": case "R": e.preventDefault(); turnPiece(e.shiftKey ? -1 : 1); return;
    case "f": case "F": e.preventDefault(); turnPiece("flip"); return;
    case "[": cyclePiece(-1); return;
    case "]": cyclePiece(1); return;
    case "Enter": case " ":
      if (sel) { e.preventDefault(); tryPlace(); }
      return;
    case "Escape": app.hint = null; clearSelection(); return;
    case "h": case "H": if (app.st && app.st.my_turn) $("#btn-hint").click(); return;
    case "u": case "U": if (app.st && app.st.can_undo) send({ type: "undo" }); return;
    case "n": case "N": openNewGame(); return;
    case "?": openDialog("#dlg-help"); return;
    case "Home": if (!sel && app.st) { e.preventDefault(); goto(0); } return;
    case "End": if (!sel && app.st) { e.preventDefault(); goto(app.st.num_moves); } return;
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown":
      e.preventDefault();
      if (sel) movePiece(k);
      else if (app.st && (k === "ArrowLeft" || k === "ArrowRight")) goto(current() + (k === "ArrowLeft" ? -1 : 1));
      return;
    default: break;
  }
}

applySettings();
wire();
connect();
