"""The page in a real browser: Debian's Chromium driven by Playwright.

A person's actions through the page: a whole Duo game against the computer
(pieces picked, turned, flipped and placed with the mouse and with the
keyboard), an illegal placement refused with its reason, a Trigon piece, a
record saved and opened again.  Screenshots go to ``$BLOKUS_SCREENSHOTS``
(default ``out/screenshots``) for a person to look at.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed")

import blokus  # noqa: E402
from blokus import sgf  # noqa: E402
from blokus.web.server import Session, create_app, piece_catalog  # noqa: E402

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SHOTS = Path(os.environ.get("BLOKUS_SCREENSHOTS", "out/screenshots"))
Page = Any


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    app = create_app(computer_delay=0.02, seed=11, hint_player="greedy")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(400):
        if srv.started:
            break
        time.sleep(0.025)
    assert srv.started, "the server did not start"
    yield f"http://127.0.0.1:{port}/", app
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: tuple[str, Any]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1360, "height": 860}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(server[0])
    pg.wait_for_selector("#g-cells polygon")
    yield pg
    context.close()
    assert not errors, errors


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.wait_for_timeout(600)  # let the last piece finish dropping in
    page.screenshot(path=str(path))
    return path


def session(server: tuple[str, Any], page: Page) -> Session:
    gid = page.get_attribute("#board", "data-game")
    return server[1].state.hub.sessions[gid]  # type: ignore[no-any-return]


def start_game(page: Page, variant: str, seats: list[str], seating: str | None = None) -> None:
    """Start a game through the New game dialog; ``seats`` are option values
    (``human``, ``computer:greedy`` ...)."""
    old = page.get_attribute("#board", "data-game")
    page.click("#btn-new")
    page.click(f"#new-variants label:has(input[value='{variant}'])")
    if seating:
        page.check(f"#new-seatings input[value='{seating}']")
    for i, value in enumerate(seats):
        page.select_option(f"#new-seats select[data-seat='{i}']", value)
    page.click("#new-start")
    page.wait_for_function(
        "(old) => { const b = document.querySelector('#board');"
        " return b.dataset.game && b.dataset.game !== old; }", arg=old)


def wait_my_turn(page: Page, game: blokus.Game, moves: int | None = None) -> None:
    """Wait until the page shows the server's position with this page to move
    (or the game over), at ``moves`` placed pieces if given."""
    seen: dict[str, str] = {}
    for _ in range(1200):
        seen = page.evaluate("() => ({...document.querySelector('#board').dataset})")
        want = len(game.move_stack) if moves is None else moves
        if seen.get("moves") == str(want) == str(len(game.move_stack)) and (
            seen.get("myTurn") == "true" or seen.get("over") == "true"
        ):
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"the page never showed our turn: {seen}")


def wait_moves(page: Page, moves: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.querySelector('#board').dataset.moves) >= n", arg=moves)


def orientation_path(variant_id: str, piece: int, start: int, goal: int) -> list[str]:
    """The shortest list of turns ('cw', 'ccw', 'flip') from one orientation to another."""
    orients = piece_catalog(variant_id)[piece]["orientations"]
    back: dict[int, tuple[int, str] | None] = {start: None}
    todo = deque([start])
    while todo:
        o = todo.popleft()
        if o == goal:
            break
        for step in ("cw", "ccw", "flip"):
            nxt = orients[o][step]
            if nxt not in back:
                back[nxt] = (o, step)
                todo.append(nxt)
    path: list[str] = []
    node = goal
    while back[node] is not None:
        prev, step = back[node]  # type: ignore[misc]
        path.append(step)
        node = prev
    return path[::-1]


def cells_centre(page: Page, cells: list[int]) -> tuple[float, float]:
    """Screen position of the centre of these board cells."""
    x, y = page.evaluate(
        """(cells) => {
          const svg = document.querySelector('#board');
          const m = svg.getScreenCTM();
          let sx = 0, sy = 0;
          for (const c of cells) {
            const pts = [...svg.querySelector(`polygon.cell[data-cell="${c}"]`).points];
            const x = pts.reduce((a, p) => a + p.x, 0) / pts.length;
            const y = pts.reduce((a, p) => a + p.y, 0) / pts.length;
            const q = new DOMPoint(x, y).matrixTransform(m);
            sx += q.x; sy += q.y;
          }
          return [sx / cells.length, sy / cells.length];
        }""", cells)
    return float(x), float(y)


def index_of(game: blokus.Game, move: blokus.Move) -> int:
    index = game.placement_of(move)
    assert index is not None
    return index


def board_orient(page: Page) -> int:
    return int(page.get_attribute("#board", "data-orient"))


def same_cells(a: str, b: str) -> bool:
    return sorted(a.split(",")) == sorted(b.split(","))


def turn_to(page: Page, variant_id: str, piece: int, goal: int, keyboard: bool) -> None:
    for step in orientation_path(variant_id, piece, board_orient(page), goal):
        if keyboard:
            page.keyboard.press({"cw": "r", "ccw": "Shift+R", "flip": "f"}[step])
        else:
            page.click({"cw": "#btn-rotr", "ccw": "#btn-rotl", "flip": "#btn-flip"}[step])
    assert board_orient(page) == goal


def place_with_mouse(page: Page, game: blokus.Game, move: blokus.Move, drag: bool = False) -> None:
    """Pick the piece in the tray, turn it with the buttons, put it in place
    with the mouse (a click on the board, or drag and drop from the tray)."""
    index = game.placement_of(move)
    assert index is not None
    t = game.table
    piece, goal = t.piece[index], t.orientation[index]
    x, y = cells_centre(page, list(t.cells[index]))
    if drag:
        page.click(f".tray-piece[data-piece='{piece}']")
        turn_to(page, game.variant.id, piece, goal, keyboard=False)
        box = page.locator(f".tray-piece[data-piece='{piece}']").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(x - 40, y - 40, steps=4)
        page.mouse.move(x, y, steps=3)
        page.wait_for_function(
            "(m) => { const b = document.querySelector('#board');"
            " return b.dataset.move && b.dataset.move.split(',').sort().join() === m; }",
            arg=",".join(sorted(str(move).split(","))))
        page.mouse.up()
        return
    page.click(f".tray-piece[data-piece='{piece}']")
    turn_to(page, game.variant.id, piece, goal, keyboard=False)
    page.mouse.move(x, y, steps=2)
    page.wait_for_function(
        "(m) => { const b = document.querySelector('#board');"
        " return b.dataset.move && b.dataset.move.split(',').sort().join() === m"
        " && b.dataset.preview === 'legal'; }",
        arg=",".join(sorted(str(move).split(","))))
    page.mouse.click(x, y)


def place_with_keyboard(page: Page, game: blokus.Game, move: blokus.Move) -> None:
    """Type / and the piece's name, turn it with R / Shift+R / F, move it with
    the arrow keys, place it with Enter."""
    index = game.placement_of(move)
    assert index is not None
    t = game.table
    piece, goal = t.piece[index], t.orientation[index]
    name = game.variant.piece_set.pieces[piece].name
    page.keyboard.press("/")
    page.keyboard.type(name)
    page.wait_for_function(
        "(name) => document.querySelector('#board').dataset.piece === name", arg=name)
    turn_to(page, game.variant.id, piece, goal, keyboard=True)
    cells = piece_catalog(game.variant.id)[piece]["orientations"][goal]["cells"]
    first = game.board.points[t.cells[index][0]]
    tx, trow = first[0] - cells[0][0], first[1] - cells[0][1]
    now_x = int(page.get_attribute("#board", "data-tx"))
    now_row = int(page.get_attribute("#board", "data-trow"))
    for _ in range(abs(tx - now_x)):
        page.keyboard.press("ArrowRight" if tx > now_x else "ArrowLeft")
    for _ in range(abs(trow - now_row)):
        page.keyboard.press("ArrowUp" if trow > now_row else "ArrowDown")
    assert same_cells(page.get_attribute("#board", "data-move"), str(move))
    page.keyboard.press("Enter")


def test_a_whole_duo_game_against_the_computer(page: Page, server: tuple[str, Any]) -> None:
    start_game(page, "duo", ["human", "computer:greedy"])
    s = session(server, page)
    game = s.game
    rng = random.Random(5)
    turn = 0
    drags = 0
    while True:
        wait_my_turn(page, game)
        if game.is_game_over():
            break
        assert game.seat_to_move == 0
        legal = list(game.legal_moves)
        # Prefer big pieces (a real player does), in varied orientations.
        biggest = max(len(m.points) for m in legal)
        move = rng.choice([m for m in legal if len(m.points) == biggest])
        before = len(game.move_stack)
        if turn % 3 == 2:
            place_with_keyboard(page, game, move)
        else:
            drag = turn % 3 == 1 and drags < 3
            drags += drag
            place_with_mouse(page, game, move, drag=drag)
        wait_moves(page, before + 1)
        assert str(game.move_stack[before]) == str(move)
        if turn == 3:
            shot(page, "duo-midgame")
        turn += 1
    assert turn >= 8
    page.wait_for_selector("#dlg-end[open]")
    outcome = game.outcome("advanced")
    title = page.inner_text("#end-title")
    assert ("You win" in title) == (outcome.winners == (0,) and not outcome.is_draw)
    scores = page.locator("#dlg-end td.total").all_inner_texts()
    assert sorted(int(x.replace("−", "-")) for x in scores) == sorted(outcome.group_scores)
    shot(page, "duo-game-over")
    page.click("#end-close")
    shot(page, "duo-final-board")

    # Save the record, open it again, step through it.
    with page.expect_download() as info:
        page.click("#btn-save")
    saved = Path(info.value.path())
    text = saved.read_text(encoding="utf-8")
    rec = sgf.loads(text)
    assert [str(t.move) for t in rec.moves] == [str(m) for m in game.move_stack]
    target = SHOTS / "duo-game.blksgf"
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    page.set_input_files("#file-input", str(target))
    page.wait_for_function(
        "() => document.querySelector('#game-title').textContent.includes('duo-game.blksgf')")
    wait_moves(page, rec.num_moves)
    assert page.locator("#moves li[data-move]").count() == rec.num_moves
    page.click("#btn-first")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '0'")
    assert page.locator("#g-pieces .piece").count() == 0
    page.click("#btn-forward")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '1'")
    assert page.locator("#g-pieces .piece").count() == 1
    page.fill("#replay-input", "7")
    page.press("#replay-input", "Enter")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '7'")
    assert page.locator("#g-pieces .piece").count() == 7
    assert "Position after move 7" in page.inner_text("#status-text")
    shot(page, "duo-replay-move-7")
    page.click("#btn-last")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === ''")
    assert page.locator("#g-pieces .piece").count() == rec.num_moves


def test_an_illegal_placement_is_refused_with_its_reason(
    page: Page, server: tuple[str, Any]
) -> None:
    start_game(page, "duo", ["human", "computer:random"])
    game = session(server, page).game
    # The first piece away from the starting cell: red, with the reason.
    page.click(".tray-piece[data-name='L5']")
    x, y = cells_centre(page, [game.board.parse("b2")])
    page.mouse.move(x, y, steps=2)
    page.wait_for_function("() => document.querySelector('#board').dataset.preview === 'illegal'")
    assert page.inner_text("#message") == "Purple's first piece must cover e10"
    page.mouse.click(x, y)
    page.wait_for_timeout(150)
    assert "must cover e10" in page.inner_text("#message")
    assert game.move_stack == []
    shot(page, "duo-illegal-first-move")
    # A piece along the edge of one's own piece is refused too.
    page.keyboard.press("Escape")
    place_with_mouse(page, game, blokus.Move.from_str("e10,d11,e11,f11,e12"))
    wait_my_turn(page, game, 2)
    page.click(".tray-piece[data-name='2']")
    bad = [game.board.parse("f10"), game.board.parse("g10")]
    x, y = cells_centre(page, bad)
    # The domino is drawn lying down: f10-g10 shares an edge with e10.
    page.mouse.move(x, y, steps=2)
    page.wait_for_function("() => document.querySelector('#board').dataset.preview === 'illegal'")
    assert "shares an edge with your piece" in page.inner_text("#message")
    page.mouse.click(x, y)
    page.wait_for_timeout(150)
    assert len(game.move_stack) == 2
    shot(page, "duo-illegal-edge")
    # Hint: the suggested move is shown and played with Enter.
    page.click("#btn-hint")
    page.wait_for_function("() => document.querySelector('#g-hint path')")
    hinted = page.get_attribute("#board", "data-move")
    assert game.is_legal(blokus.Move.from_str(hinted))
    page.keyboard.press("Enter")
    wait_moves(page, 3)
    assert same_cells(str(game.move_stack[2]), hinted)
    # Undo takes back the hint move and the computer's answer.
    wait_my_turn(page, game, 4)
    page.click("#btn-undo")
    wait_my_turn(page, game, 2)
    assert len(game.move_stack) == 2


def test_a_trigon_piece_placed_and_the_looks(page: Page, server: tuple[str, Any]) -> None:
    start_game(page, "trigon", ["human", "computer:random", "computer:random", "computer:random"])
    game = session(server, page).game
    page.wait_for_function("() => document.querySelectorAll('#g-cells polygon').length === 486")
    # A legal first piece, not in its first orientation, with the buttons.
    legal = [m for m in game.legal_moves if len(m.points) == 6]
    move = next(m for m in legal if game.table.orientation[index_of(game, m)] != 0)
    place_with_mouse(page, game, move)
    wait_my_turn(page, game, 4)
    assert str(game.move_stack[0]) == str(move)
    assert page.locator("#g-pieces .piece").count() == 4
    # A second piece, by keyboard on the triangle grid.
    second = max(game.legal_moves, key=lambda m: len(m.points))
    place_with_keyboard(page, game, second)
    wait_moves(page, 5)
    assert str(game.move_stack[4]) == str(second)
    wait_my_turn(page, game, 8)
    page.click(".tray-piece:not(.used):not([disabled])")
    shot(page, "trigon")
    page.keyboard.press("Escape")

    # Dark theme and the colour-blind palette, from the settings.
    page.click("#settings summary")
    page.select_option("#set-theme", "dark")
    page.check("#set-cb")
    page.check("#set-attach")
    page.click("#status")
    assert page.get_attribute("html", "data-theme") == "dark"
    assert page.locator("#g-pieces .cb-mark").count() > 0
    attach = game.board.cells_of(game.attach_points(0))
    assert page.locator("#g-attach polygon").count() == len(attach)
    shot(page, "trigon-dark-colourblind")
    page.click("#settings summary")
    page.select_option("#set-theme", "light")
    page.uncheck("#set-cb")
    page.uncheck("#set-attach")
    page.click("#status")


def test_phone_screen_and_help(browser: Any, server: tuple[str, Any]) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
        has_touch=True)
    page = context.new_page()
    try:
        page.goto(server[0])
        page.wait_for_selector("#g-cells polygon")
        start_game(page, "duo", ["human", "computer:greedy"])
        game = session(server, page).game
        # Tap a piece, drag it on the board with a finger... the page lifts it
        # above the finger; here a tap on the target puts it there, then Place.
        move = blokus.Move.from_str("e10,d11,e11,f11,e12")
        page.tap(".tray-piece[data-name='X']")
        page.locator("#board").scroll_into_view_if_needed()
        x, y = cells_centre(page, [game.board.parse(p) for p in str(move).split(",")])
        page.touchscreen.tap(x, y)
        page.wait_for_function("() => document.querySelector('#board').dataset.preview === 'legal'")
        page.tap("#btn-place")
        wait_my_turn(page, game, 2)
        assert str(game.move_stack[0]) == str(move)
        shot(page, "phone")
        page.click("#btn-help")
        page.wait_for_selector("#dlg-help[open]")
        shot(page, "phone-help")
    finally:
        context.close()


def test_two_browsers_play_by_invitation(
    browser: Any, page: Page, server: tuple[str, Any]
) -> None:
    start_game(page, "duo", ["human", "remote"])
    s = session(server, page)
    game = s.game
    assert page.locator("#players button:has-text('Copy invitation link')").count() == 1
    guest_context = browser.new_context(viewport={"width": 1100, "height": 800})
    guest = guest_context.new_page()
    try:
        guest.goto(f"{server[0]}#g={s.id}&t={s.seats[1].token}")
        guest.wait_for_function(
            "(g) => document.querySelector('#board').dataset.game === g", arg=s.id)
        # The invitation leaves the address bar; the guest plays Orange.
        assert "t=" not in guest.url
        assert guest.inner_text("#players .player[data-seat='1'] .who").startswith("You")
        page.wait_for_selector("#players .player[data-seat='1'] .online.on")
        place_with_mouse(page, game, blokus.Move.from_str("e10,d11,e11,f11,e12"))
        wait_my_turn(guest, game, 1)
        # The host's page hears of its own move on its own connection, which
        # may come after the guest's: wait for it, then it must not be our turn.
        wait_moves(page, 1)
        assert page.get_attribute("#board", "data-my-turn") == "false"
        place_with_keyboard(guest, game, blokus.Move.from_str("j5,i6,j6,k6,j7"))
        wait_my_turn(page, game, 2)
        assert page.locator("#g-pieces .piece").count() == 2
        shot(guest, "duo-guest")
    finally:
        guest_context.close()
