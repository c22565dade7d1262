"""The web server: games in memory, JSON over a WebSocket, the static page.

The server owns every game.  The page sends what a person does; the server
checks it with the rules engine (:meth:`blokus.Game.why_illegal`,
:meth:`blokus.Game.push`) and sends every connected page the new state.
Computer players think in worker threads, so the server keeps answering.

HTTP routes
-----------
``GET /``                               the page (``static/index.html``)
``GET /static/...``                     its script, style sheet and icon
``GET /api/catalog``                    variants, seatings, players, rules (JSON)
``GET /api/games/{id}/record.blksgf``   the game record (Blokus SGF)

WebSocket ``/ws``: one JSON object per message, each with a ``type``.  A
request may carry an ``id``, echoed in the answer.  Every bad request (bad
JSON, unknown type, bad field, not your seat, game over, illegal move) is
answered by ``{"type": "error", "message": ..., "request": ...}`` and changes
nothing.

Client to server:

``new_game``   ``variant``, ``seating`` (id, optional), ``rule`` (``advanced``,
               ``basic`` or ``cells``), ``seats``: one ``{"kind": "human" |
               "remote" | "computer", "player": spec}`` per seat.  ``human``
               seats belong to this page, ``remote`` seats to whoever opens
               their invitation, computer seats play ``player`` (``random``,
               ``greedy``, ``level:1`` ... ``level:9``).  A neutral seat is
               always played by ``random``.
``join``       ``game``, ``tokens`` (list): watch a game and take the seats
               whose tokens are given (reconnecting, or an invitation).
``preview``    ``move``: is this placement legal for the colour to move, and
               if not, why (answered by ``preview``; changes nothing).
``move``       ``move``: place a piece for the seat to move, which must be
               this page's.
``undo``       take back this page's last move (and the computer moves after it).
``hint``       ask a computer player for a move for this page's seat to move.
``goto``       ``move``: show the position after that many placed pieces
               (``null``: the live position); for replaying records.
``play_from_here``  drop the moves after the shown position and play on.
``set_seat``   ``seat``, ``kind`` (``human`` / ``computer``), ``player``:
               hand one of this page's seats to the computer or take it back.
``rematch``    ``swap`` (bool): the same game again (seats rotated if ``swap``).
``load_record``  ``text``: open a Blokus SGF record (Pentobi's too) to replay.

Server to client: ``welcome`` (the catalog), ``setup`` (once per game: board
geometry, pieces with their orientations, colours, seats, this page's seat
tokens and invitations), ``state`` (after every change: moves, position,
scores, whose turn), ``preview``, ``hint``, ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import importlib.util
import json
import logging
import math
import os
import secrets
import socket
import threading
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import blokus
from blokus.game import Game
from blokus.geometry import Board, Point, Shape, Vertex
from blokus.notation import IllegalMoveError, InvalidMoveError, Move
from blokus.players import LEVEL_NOTES, LEVELS, Player, PlayerSpecError, make_player
from blokus.scoring import RULES, bonus
from blokus.variants import VARIANTS, Seating

__all__ = ["ServeError", "WebError", "create_app", "run", "board_geometry", "piece_catalog"]

log = logging.getLogger("blokus.web")

STATIC_DIR = Path(__file__).with_name("static")
MAX_MESSAGE = 2_000_000
"""Largest accepted WebSocket message (a record upload), in characters."""
MAX_GAMES = 500
"""Games kept in memory; the oldest unwatched ones are dropped beyond this."""
HINT_SPEC = "level:3"
"""The player that suggests moves (``greedy`` when levels are not available)."""
PLAYER_SPECS: tuple[str, ...] = ("random", "greedy", *LEVELS)
SEAT_KINDS = ("human", "remote", "computer")


class ServeError(ValueError):
    """The server cannot start (for example: the port is in use)."""


class WebError(ValueError):
    """A request the server refuses; the message is shown to the person."""


# ---------------------------------------------------------------------------
# Geometry and pieces, as the page needs them (computed once per variant)
# ---------------------------------------------------------------------------


def _polygon(vertices: tuple[Vertex, ...] | list[Vertex], kind: str) -> list[list[int]]:
    """The vertices of a cell in drawing order (around its centre)."""
    sy = math.sqrt(3) if kind == "triangle" else 1.0
    cx = sum(v[0] for v in vertices) / len(vertices)
    cy = sum(v[1] for v in vertices) / len(vertices)
    ordered = sorted(vertices, key=lambda v: math.atan2((v[1] - cy) * sy, v[0] - cx))
    return [[v[0], v[1]] for v in ordered]


@functools.cache
def board_geometry(variant_id: str) -> dict[str, Any]:
    """The board of a variant for drawing: per cell its name, point and
    polygon (lattice vertices ``(X, L)``; the real position is ``(X, L)`` on
    the square grid and ``(X/2, L*sqrt(3)/2)`` on the triangle grid)."""
    v = VARIANTS[variant_id]
    board = v.board
    return {
        "kind": board.kind,
        "width": board.width,
        "height": board.height,
        "edge": getattr(board, "edge", 0),
        "names": [board.name(c) for c in range(board.size)],
        "points": [list(p) for p in board.points],
        "polygons": [_polygon(board.vertices[c], board.kind) for c in range(board.size)],
        "starts": [list(s) for s in v.starting_cells],
    }


def _rotate_cw(kind: str, v: Vertex) -> Vertex:
    if kind == "square":
        return v[1], -v[0]
    return (v[0] + 3 * v[1]) // 2, (v[1] - v[0]) // 2


def _transform(board: Board, shape: Shape, f: Callable[[Vertex], Vertex]) -> Shape:
    return board.normalize([[f(v) for v in cell] for cell in shape])


def orientation_points(board: Board, shape: Shape) -> list[Point]:
    """The cells of an orientation as board points, placed near the origin so
    that moving them by ``(dx, drow)`` gives a placement on ``board`` (on the
    triangle grid only when ``dx + drow`` is even, which keeps the parity of
    the triangles)."""
    shift = 0
    if board.kind == "triangle" and getattr(board, "edge", 0) % 2:
        shift = 1  # normalized shapes have X + L even; this board's lattice is odd
    points = [(min(x for x, _ in cell) + shift, max(row for _, row in cell)) for cell in shape]
    dx = -min(p[0] for p in points)
    drow = 1 - min(p[1] for p in points)
    if board.kind == "triangle" and (dx + drow) % 2:
        dx += 1
    return sorted(((x + dx, row + drow) for x, row in points), key=lambda p: (p[1], p[0]))


@functools.cache
def piece_catalog(variant_id: str) -> list[dict[str, Any]]:
    """Every piece of a variant with its orientations: per orientation the
    cells (``orientation_points``), their polygons, and the orientation
    reached by turning it clockwise, anticlockwise, and by flipping it
    left to right."""
    v = VARIANTS[variant_id]
    board = v.board
    out = []
    for piece in v.piece_set.pieces:
        index = {o: i for i, o in enumerate(piece.orientations)}
        orients = []
        for shape in piece.orientations:
            cw = index[_transform(board, shape, functools.partial(_rotate_cw, board.kind))]
            flip = index[_transform(board, shape, lambda p: (-p[0], p[1]))]
            points = orientation_points(board, shape)
            orients.append({
                "cells": [list(p) for p in points],
                "polygons": [_polygon(board.point_vertices(p), board.kind) for p in points],
                "cw": cw,
                "flip": flip,
            })
        for i, o in enumerate(orients):
            o["ccw"] = next(j for j, p in enumerate(orients) if p["cw"] == i)
        out.append({
            "name": piece.name,
            "size": piece.size,
            "copies": piece.copies,
            "orientations": orients,
        })
    return out


def levels_installed() -> bool:
    """Whether the module behind the ``level:N`` players is installed (it may
    still fail to start, see :meth:`Hub.make_player`)."""
    try:
        return importlib.util.find_spec("blokus.players.mcts") is not None
    except (ImportError, ValueError):
        return False


def catalog(levels_available: bool | None = None) -> dict[str, Any]:
    """Variants with their seatings, the players and the scoring rules."""
    variants = []
    for v in VARIANTS.values():
        variants.append({
            "id": v.id,
            "name": v.name,
            "kind": v.board.kind,
            "colors": [c.name for c in v.colors],
            "seatings": [_seating_json(s) for s in v.seatings],
            "bonus": v.bonus,
        })
    return {
        "variants": variants,
        "players": list(PLAYER_SPECS),
        "levels": list(LEVELS),
        "level_notes": dict(LEVEL_NOTES),
        "levels_available": levels_installed() if levels_available is None else levels_available,
        "rules": list(RULES),
        "version": blokus.__version__,
    }


def _seating_json(s: Seating) -> dict[str, Any]:
    return {
        "id": s.id,
        "description": s.description,
        "seats": [
            {"name": t.name, "colors": list(t.colors), "neutral": t.neutral} for t in s.seats
        ],
        "shared": s.shared_color,
        "teams": [list(t) for t in s.teams] if s.teams else None,
    }


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------


@dataclass
class SeatConfig:
    """Who plays a seat, and the token that proves a page owns it."""

    kind: str
    """``human`` (at the screen of the page that made the game), ``remote``
    (a person at another browser, by invitation) or ``computer``."""
    player: str = "greedy"
    """Player spec when ``kind`` is ``computer``."""
    token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    notice: str | None = None
    """Why the computer plays something else than asked (a level not available)."""


def mover_seats(game: Game) -> list[int]:
    """The seat that placed each piece of ``game.move_stack``."""
    seating = game.seating
    shared = seating.shared_color
    start = game.copy()
    for _ in game.move_stack:
        start.pop()
    count = start.num_placed(shared) if shared is not None else 0
    seats = []
    for turn in game.history:
        if turn.move.is_pass:
            continue
        seats.append(seating.seat_of(turn.color, count))
        if turn.color == shared:
            count += 1
    return seats


def _piece_name(game: Game, move: Move) -> str:
    index = game.placement_of(move)
    if index is None:
        return "?"
    return game.variant.piece_set.pieces[game.table.piece[index]].name


class Session:
    """One game on the server, with the pages watching it."""

    def __init__(
        self,
        hub: Hub,
        game: Game,
        seats: list[SeatConfig],
        rule: str,
        title: str | None = None,
    ) -> None:
        self.hub = hub
        self.id = secrets.token_urlsafe(6)
        self.game = game
        self.seats = seats
        self.rule = rule
        self.title = title
        self.conns: set[Connection] = set()
        self.players: dict[int, Player] = {}
        self.thinking: int | None = None
        self.generation = 0
        self.task: asyncio.Task[None] | None = None
        self.notices: list[str] = []
        self.last_used = 0.0
        self.seed = hub.next_seed()

    # -- who may do what ------------------------------------------------------

    def owned(self, conn: Connection) -> set[int]:
        """Seats whose token ``conn`` holds."""
        return {i for i, s in enumerate(self.seats) if s.token in conn.tokens}

    def is_computer(self, seat: int) -> bool:
        return self.seats[seat].kind == "computer" or self.game.seating.seats[seat].neutral

    def require_turn(self, conn: Connection) -> int:
        """The seat to move, if ``conn`` may move for it; raises :class:`WebError`."""
        game = self.game
        seat = game.seat_to_move
        if seat is None:
            raise WebError("the game is over")
        if self.is_computer(seat):
            raise WebError(f"it is the computer's turn ({self._color_name()})")
        if seat not in self.owned(conn):
            raise WebError(f"it is {self._color_name()}'s turn, and that seat is not yours")
        return seat

    def _color_name(self) -> str:
        c = self.game.color_to_move
        return "nobody" if c is None else c.name

    # -- changes ----------------------------------------------------------------

    def changed(self) -> None:
        """After any change: tell every page, and let the computer move if it is its turn."""
        self.generation += 1
        self.last_used = self.hub.clock()
        self.broadcast()
        self.kick()

    def broadcast(self) -> None:
        for conn in list(self.conns):
            conn.send(self.state_for(conn))

    def kick(self) -> None:
        """(Re)start the computer if a computer seat is to move."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.thinking = None
        seat = self.game.seat_to_move
        if seat is not None and self.is_computer(seat):
            self.task = asyncio.get_running_loop().create_task(self._computer_moves())

    async def player_for(self, seat: int) -> Player:
        """The computer player of a seat (made once; a level that is not
        available yet falls back to ``greedy`` with a notice)."""
        player = self.players.get(seat)
        if player is not None:
            return player
        cfg = self.seats[seat]
        spec = "random" if self.game.seating.seats[seat].neutral else cfg.player
        player, notice = await self.hub.make_player(spec, self.seed + seat)
        if notice:
            cfg.notice = notice
        self.players[seat] = player
        return player

    async def _computer_moves(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            game = self.game
            seat = game.seat_to_move
            if seat is None or not self.is_computer(seat):
                return
            generation = self.generation
            started = loop.time()
            player = await self.player_for(seat)
            self.thinking = seat
            self.broadcast()
            try:
                move = await asyncio.to_thread(player.choose, game.copy())
            except Exception as e:  # a broken player must not stop the game
                log.exception("computer player %s failed", player.name)
                fallback = make_player("greedy", self.seed + seat)
                self.players[seat] = fallback
                self.seats[seat].notice = (
                    f"The computer player {self.seats[seat].player} failed "
                    f"({type(e).__name__}), so the computer plays greedy instead."
                )
                move = await asyncio.to_thread(fallback.choose, game.copy())
            delay = self.hub.computer_delay - (loop.time() - started)
            if delay > 0:
                await asyncio.sleep(delay)
            if generation != self.generation or self.game is not game:
                return
            self.thinking = None
            try:
                game.push(move)
            except (IllegalMoveError, InvalidMoveError) as e:
                log.error("computer player chose an illegal move %s: %s", move, e)
                self.notices.append(
                    f"the computer chose an illegal move ({e}); it played a random one"
                )
                game.push(make_player("random", self.seed).choose(game))
            self.generation += 1
            self.last_used = self.hub.clock()
            self.broadcast()

    def position(self, view: int | None) -> Game:
        """The game as it was after ``view`` placed pieces (``None``: now)."""
        game = self.game
        if view is None:
            return game
        back = len(game.move_stack) - view
        if back <= 0:
            return game
        g = game.copy()
        for _ in range(back):
            g.pop()
        return g

    # -- what a page sees ---------------------------------------------------------

    def setup_for(self, conn: Connection) -> dict[str, Any]:
        v = self.game.variant
        mine = self.owned(conn)
        return {
            "type": "setup",
            "game": self.id,
            "variant": {"id": v.id, "name": v.name, "bonus": v.bonus},
            "seating": _seating_json(self.game.seating),
            "colors": [{"name": c.name, "sgf": c.sgf} for c in v.colors],
            "board": board_geometry(v.id),
            "pieces": piece_catalog(v.id),
            "rule": self.rule,
            "title": self.title,
            "tokens": {str(i): self.seats[i].token for i in sorted(mine)},
            # Invitations go to the page that set the game up (it holds the
            # tokens of the seats that are not remote), not to the guests.
            "invites": {
                str(i): s.token for i, s in enumerate(self.seats) if s.kind == "remote"
            } if any(self.seats[i].kind != "remote" for i in mine) else {},
        }

    def state_for(self, conn: Connection) -> dict[str, Any]:
        game = self.game
        mine = self.owned(conn)
        view = conn.view
        if view is not None and view >= len(game.move_stack):
            view = None
        pos = self.position(view)
        v = game.variant
        board = game.board
        start = game.copy()
        for _ in game.move_stack:
            start.pop()
        history: list[dict[str, Any]] = []
        number = 0
        seats = mover_seats(game)
        for turn in game.history:
            if turn.move.is_pass:
                history.append({"color": turn.color, "pass": True})
                continue
            history.append({
                "color": turn.color,
                "move": str(turn.move),
                "cells": [board.cell(p) for p in turn.move.points],
                "piece": _piece_name(game, turn.move),
                "seat": seats[number],
            })
            number += 1
        outcome = pos.outcome(self.rule)
        colors = []
        for c in range(v.num_colors):
            last = pos.last_piece(c)
            all_placed = not pos.pieces_left(c)
            colors.append({
                "left": [p.index for p in pos.pieces_left(c)],
                "remaining": pos.remaining_cells(c),
                "placed": pos.num_placed(c),
                "bonus": bonus(all_placed, last is not None and last.size == 1) if v.bonus else 0,
                "can_move": pos.has_moves(c),
            })
        to_move = pos.turn
        seat = pos.seat_to_move
        seat_info = []
        for i, cfg in enumerate(self.seats):
            neutral = game.seating.seats[i].neutral
            seat_info.append({
                "kind": "computer" if neutral else cfg.kind,
                "player": "random" if neutral else cfg.player if cfg.kind == "computer" else None,
                "mine": i in mine,
                "online": any(cfg.token in c.tokens for c in self.conns),
                "notice": cfg.notice,
            })
        own_humans = {i for i in mine if not self.is_computer(i)}
        return {
            "type": "state",
            "game": self.id,
            "history": history,
            "initial": [board.cells_of(start.cells_of(c)) for c in range(v.num_colors)],
            "num_moves": len(game.move_stack),
            "view": view,
            "turn": to_move,
            "seat": seat,
            "over": pos.is_game_over(),
            "game_over": game.is_game_over(),
            "attach": board.cells_of(pos.attach_points(to_move)) if to_move is not None else [],
            "colors": colors,
            "outcome": {
                "rule": outcome.rule,
                "color_scores": list(outcome.color_scores),
                "seat_scores": list(outcome.seat_scores),
                "groups": [list(g) for g in outcome.groups],
                "group_scores": list(outcome.group_scores),
                "places": list(outcome.places),
                "winners": list(outcome.winners),
                "finished": outcome.finished,
            },
            "seats": seat_info,
            "rule": self.rule,
            "thinking": self.thinking,
            "my_turn": view is None and seat is not None and seat in own_humans,
            "can_undo": view is None and self._undo_count(conn) is not None,
            "can_play_from_here": view is not None and self._all_people_here(conn),
            "notices": [*self.notices, *(s.notice for s in self.seats if s.notice)],
        }

    # -- undo -------------------------------------------------------------------

    def _undo_count(self, conn: Connection) -> int | None:
        """How many moves ``undo`` would take back for ``conn``, or ``None``."""
        try:
            return self._undo_plan(conn)
        except WebError:
            return None

    def _undo_plan(self, conn: Connection) -> int:
        own = {i for i in self.owned(conn) if not self.is_computer(i)}
        seats = mover_seats(self.game)
        last = next((k for k in range(len(seats) - 1, -1, -1) if seats[k] in own), None)
        if last is None:
            raise WebError("there is no move of yours to take back")
        for s in seats[last + 1:]:
            if not self.is_computer(s):
                name = self.game.seating.seats[s].name
                raise WebError(f"cannot take back your move: {name} has moved since")
        return len(seats) - last

    def undo(self, conn: Connection) -> None:
        count = self._undo_plan(conn)
        for _ in range(count):
            self.game.pop()
        conn.view = None
        self.changed()

    def _all_people_here(self, conn: Connection) -> bool:
        mine = self.owned(conn)
        return all(self.is_computer(i) or i in mine for i in range(len(self.seats)))


class Connection:
    """One page connected over the WebSocket."""

    def __init__(self, hub: Hub, websocket: WebSocket) -> None:
        self.hub = hub
        self.websocket = websocket
        self.tokens: set[str] = set()
        self.session: Session | None = None
        self.view: int | None = None
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            await self.websocket.send_text(json.dumps(message, separators=(",", ":")))

    def enter(self, session: Session, tokens: set[str]) -> None:
        self.leave()
        self.session = session
        self.tokens = tokens
        self.view = None
        session.conns.add(self)
        self.send(session.setup_for(self))

    def leave(self) -> None:
        session = self.session
        if session is not None:
            session.conns.discard(self)
            self.session = None
            session.broadcast()

    # -- requests -----------------------------------------------------------------

    async def handle(self, text: str) -> None:
        """Answer one message; every refusal becomes an ``error`` message."""
        request = None
        rid = None
        try:
            if len(text) > MAX_MESSAGE:
                raise WebError(f"message too long ({len(text)} characters, at most {MAX_MESSAGE})")
            try:
                msg = json.loads(text)
            except json.JSONDecodeError as e:
                raise WebError(f"the message is not JSON: {e.msg}") from None
            if not isinstance(msg, dict):
                raise WebError("the message must be a JSON object with a 'type'")
            rid = msg.get("id")
            request = msg.get("type")
            handler = _HANDLERS.get(request) if isinstance(request, str) else None
            if handler is None:
                known = ", ".join(sorted(_HANDLERS))
                raise WebError(f"unknown message type {request!r} (known: {known})")
            await handler(self, msg)
        except WebError as e:
            self.send({"type": "error", "message": str(e), "request": request, "id": rid})
        except Exception as e:  # never let one request break the connection
            log.exception("request %r failed", request)
            self.send(
                {"type": "error", "message": f"internal error: {e}", "request": request, "id": rid}
            )

    def _session(self) -> Session:
        if self.session is None:
            raise WebError("no game: start a new game or open a record first")
        return self.session


_MISSING: Any = object()


def _field(msg: dict[str, Any], key: str, kind: type, default: Any = _MISSING) -> Any:
    """``msg[key]`` checked to be a ``kind``; ``default`` when absent or null
    (no default: the field is required).  Raises :class:`WebError`."""
    value = msg.get(key)
    if value is None:
        if default is _MISSING:
            raise WebError(f"'{key}' is missing")
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise WebError(f"'{key}' must be {_TYPE_WORDS.get(kind, kind.__name__)}")
    return value


_TYPE_WORDS = {str: "a string", int: "an integer", list: "a list", bool: "true or false"}


def _parse(msg: dict[str, Any]) -> Move:
    try:
        return Move.from_str(_field(msg, "move", str))
    except InvalidMoveError as e:
        raise WebError(str(e)) from None


async def _on_new_game(conn: Connection, msg: dict[str, Any]) -> None:
    vid = _field(msg, "variant", str)
    try:
        v = blokus.variant(vid)
    except KeyError as e:
        raise WebError(e.args[0]) from None
    seating_id = _field(msg, "seating", str, None)
    try:
        seating = v.get_seating(seating_id)
    except KeyError as e:
        raise WebError(e.args[0]) from None
    rule = _field(msg, "rule", str, "advanced")
    if rule not in RULES:
        raise WebError(f"unknown scoring rule {rule!r} (known: {', '.join(RULES)})")
    raw = _field(msg, "seats", list, None)
    if raw is None:
        computer = {"kind": "computer", "player": "greedy"}
        raw = [{"kind": "human"}] + [computer] * (len(seating.seats) - 1)
    if len(raw) != len(seating.seats):
        raise WebError(f"{seating.description}: {len(seating.seats)} seats, not {len(raw)}")
    seats = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise WebError(f"seat {i + 1} must be an object with a 'kind'")
        kind = s.get("kind")
        if kind not in SEAT_KINDS:
            kinds = ", ".join(SEAT_KINDS)
            raise WebError(f"seat {i + 1}: kind must be one of {kinds}, not {kind!r}")
        player = s.get("player", "greedy")
        if kind == "computer" and player not in PLAYER_SPECS:
            known = ", ".join(PLAYER_SPECS)
            raise WebError(f"seat {i + 1}: unknown player {player!r} (known: {known})")
        if seating.seats[i].neutral:
            kind, player = "computer", "random"
        seats.append(SeatConfig(kind, player if kind == "computer" else "greedy"))
    session = conn.hub.add(Session(conn.hub, Game(v, seating), seats, rule))
    conn.enter(session, {s.token for s in seats if s.kind != "remote"})
    session.changed()


async def _on_join(conn: Connection, msg: dict[str, Any]) -> None:
    gid = _field(msg, "game", str)
    tokens = _field(msg, "tokens", list, [])
    session = conn.hub.sessions.get(gid)
    if session is None:
        raise WebError(f"there is no game {gid!r} on this server (it may have been restarted)")
    valid = {s.token for s in session.seats}
    given = {t for t in tokens if isinstance(t, str)}
    conn.enter(session, given & valid)
    session.broadcast()  # everybody sees who is online now
    if given - valid:
        raise WebError("this invitation is not valid for this game: you are watching")


async def _on_preview(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    game = session.game
    move = _parse(msg)
    reason: str | None
    try:
        session.require_turn(conn)
        reason = game.why_illegal(move)
    except WebError as e:
        reason = str(e)
    if move.is_pass and reason is None:
        reason = "passes are automatic"
    conn.send({
        "type": "preview", "id": msg.get("id"), "move": msg["move"],
        "legal": reason is None, "reason": reason,
    })


async def _on_move(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    game = session.game
    move = _parse(msg)
    session.require_turn(conn)
    if move.is_pass:
        raise WebError("passes are automatic: a colour passes only when it cannot move")
    try:
        game.push(move)
    except (IllegalMoveError, InvalidMoveError) as e:
        raise WebError(f"illegal move: {e}") from None
    conn.view = None
    session.changed()


async def _on_undo(conn: Connection, msg: dict[str, Any]) -> None:
    conn._session().undo(conn)


async def _on_hint(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    session.require_turn(conn)
    game = session.game
    generation = session.generation
    player, _ = await conn.hub.make_player(conn.hub.hint_player, session.seed + 99)
    try:
        move = await asyncio.to_thread(player.choose, game.copy())
    except Exception:  # a broken player must not cost the hint
        log.exception("hint player %s failed", player.name)
        conn.hub.hint_player = "greedy"
        player = make_player("greedy", session.seed + 99)
        move = await asyncio.to_thread(player.choose, game.copy())
    if session.generation != generation:
        raise WebError("the position changed while the hint was being computed")
    index = game.placement_of(move)
    assert index is not None
    t = game.table
    conn.send({
        "type": "hint",
        "id": msg.get("id"),
        "move": str(move),
        "cells": list(t.cells[index]),
        "piece": t.piece[index],
        "orientation": t.orientation[index],
        "player": player.name,
    })


async def _on_goto(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    n = _field(msg, "move", int, None)
    total = len(session.game.move_stack)
    if n is not None and not 0 <= n <= total:
        raise WebError(f"move must be between 0 and {total}, not {n}")
    conn.view = None if n is None or n == total else n
    conn.send(session.state_for(conn))


async def _on_play_from_here(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    if conn.view is None:
        raise WebError("you are at the current position already")
    if not session._all_people_here(conn):
        raise WebError("people at other browsers play in this game: use undo instead")
    game = session.game
    for _ in range(len(game.move_stack) - conn.view):
        game.pop()
    conn.view = None
    session.changed()


async def _on_set_seat(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    seat = _field(msg, "seat", int)
    if not 0 <= seat < len(session.seats):
        raise WebError(f"there is no seat {seat}")
    if seat not in session.owned(conn):
        raise WebError("that seat is not yours")
    if session.game.seating.seats[seat].neutral:
        raise WebError("the neutral seat is always played by the computer")
    kind = _field(msg, "kind", str)
    if kind not in ("human", "computer"):
        raise WebError(f"kind must be human or computer, not {kind!r}")
    player = _field(msg, "player", str, "greedy")
    if player not in PLAYER_SPECS:
        raise WebError(f"unknown player {player!r} (known: {', '.join(PLAYER_SPECS)})")
    cfg = session.seats[seat]
    cfg.kind = kind
    cfg.player = player if kind == "computer" else cfg.player
    cfg.notice = None
    session.players.pop(seat, None)
    session.changed()


async def _on_rematch(conn: Connection, msg: dict[str, Any]) -> None:
    session = conn._session()
    if not session.owned(conn):
        raise WebError("only the players can start a rematch")
    swap = _field(msg, "swap", bool, False)
    seats = session.seats
    if swap:
        movable = [i for i in range(len(seats)) if not session.game.seating.seats[i].neutral]
        moved = [seats[i] for i in movable]
        moved = moved[-1:] + moved[:-1]
        for i, cfg in zip(movable, moved, strict=True):
            seats[i] = cfg
    session.game = Game(session.game.variant, session.game.seating)
    session.players = {}
    session.notices = []
    session.title = None
    for c in session.conns:
        c.view = None
        c.send(session.setup_for(c))
    session.changed()


async def _on_load_record(conn: Connection, msg: dict[str, Any]) -> None:
    text = _field(msg, "text", str)
    name = _field(msg, "name", str, None)
    try:
        from blokus import sgf
    except ImportError:  # pragma: no cover - part of the package
        raise WebError("records need blokus.sgf, which is missing") from None
    try:
        rec = sgf.loads(text)
        game = rec.game()
    except ValueError as e:
        raise WebError(f"cannot read the record: {e}") from None
    seats = [SeatConfig("human") for _ in game.seating.seats]
    for i, s in enumerate(game.seating.seats):
        if s.neutral:
            seats[i] = SeatConfig("computer", "random")
    session = conn.hub.add(Session(conn.hub, game, seats, "advanced", title=name or "record"))
    conn.enter(session, {s.token for s in seats})
    session.changed()


_HANDLERS: dict[str, Callable[[Connection, dict[str, Any]], Awaitable[None]]] = {
    "new_game": _on_new_game,
    "join": _on_join,
    "preview": _on_preview,
    "move": _on_move,
    "undo": _on_undo,
    "hint": _on_hint,
    "goto": _on_goto,
    "play_from_here": _on_play_from_here,
    "set_seat": _on_set_seat,
    "rematch": _on_rematch,
    "load_record": _on_load_record,
}


class Hub:
    """All games of one server."""

    def __init__(self, computer_delay: float, seed: int | None, hint_player: str) -> None:
        self.sessions: dict[str, Session] = {}
        self.computer_delay = computer_delay
        self.hint_player = hint_player
        self._seed = seed
        self._count = 0
        self.levels_available: bool | None = None
        self.level_problem: str | None = None

    def clock(self) -> float:
        self._count += 1
        return float(self._count)

    def next_seed(self) -> int:
        if self._seed is None:
            return secrets.randbits(31)
        self._seed += 1000
        return self._seed

    def add(self, session: Session) -> Session:
        session.last_used = self.clock()
        self.sessions[session.id] = session
        if len(self.sessions) > MAX_GAMES:
            idle = sorted(
                (s for s in self.sessions.values() if not s.conns), key=lambda s: s.last_used
            )
            for s in idle[: len(self.sessions) - MAX_GAMES]:
                if s.task is not None:
                    s.task.cancel()
                del self.sessions[s.id]
        return session

    async def make_player(self, spec: str, seed: int) -> tuple[Player, str | None]:
        """A player for ``spec``; a level that cannot be made yet gives
        ``greedy`` and a notice saying so."""
        if spec.startswith("level:") and self.levels_available is False:
            return make_player("greedy", seed), self._level_notice(spec)
        try:
            player = await asyncio.to_thread(make_player, spec, seed)
        except PlayerSpecError as e:
            if not spec.startswith("level:"):
                raise WebError(str(e)) from None
            self.levels_available = False
            self.level_problem = str(e)
            return make_player("greedy", seed), self._level_notice(spec)
        if spec.startswith("level:"):
            self.levels_available = True
        return player, None

    def _level_notice(self, spec: str) -> str:
        return (
            f"Computer level {spec.partition(':')[2]} is not available yet "
            "(the search kernel is missing), so the computer plays greedy instead."
        )


# ---------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------


def _record_info(session: Session) -> tuple[dict[str, str], list[str]]:
    info = {
        "AP": f"blokus:{blokus.__version__}",
        "DT": datetime.date.today().isoformat(),
    }
    names = []
    for i, cfg in enumerate(session.seats):
        if session.game.seating.seats[i].neutral:
            names.append("")
        elif cfg.kind == "computer":
            names.append(f"Computer ({cfg.player})")
        else:
            names.append("Human")
    return info, names


def create_app(
    computer_delay: float = 0.5, seed: int | None = None, hint_player: str = HINT_SPEC
) -> Starlette:
    """The ASGI app: the page, its files, the API and the WebSocket.

    ``computer_delay`` is the least time in seconds between a computer's move
    and the one before it, so that people can follow; ``seed`` makes the
    computer players reproducible; ``hint_player`` is the player spec that
    suggests moves (``greedy`` if it cannot be made or fails)."""
    hub = Hub(computer_delay, seed, hint_player)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_catalog(request: Request) -> Response:
        return JSONResponse(catalog(hub.levels_available))

    async def record(request: Request) -> Response:
        session = hub.sessions.get(request.path_params["gid"])
        if session is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        from blokus import sgf

        info, names = _record_info(session)
        text = sgf.dumps(session.game, info=info, seating=names)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M")
        filename = f"blokus-{session.game.variant.id}-{stamp}.blksgf"
        return Response(
            text,
            media_type="application/x-blokus-sgf",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def websocket_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(hub, websocket)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.send({"type": "welcome", **catalog(hub.levels_available)})
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                await conn.handle(text)
        except WebSocketDisconnect:
            pass
        finally:
            conn.leave()
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/catalog", api_catalog),
        Route("/api/games/{gid}/record.blksgf", record),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ])
    app.state.hub = hub
    return app


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; raises :class:`ServeError` if the address is taken."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as e:
        raise ServeError(
            f"cannot listen on {host}:{port}: {os.strerror(e.errno) if e.errno else e}"
            " (choose another port with --port)"
        ) from None
    sock.set_inheritable(True)
    return sock


def _warm_up() -> None:
    """Build the tables of every variant, and compile the search kernel once,
    while the first person opens the page."""
    for vid in sorted(VARIANTS, key=lambda v: v != "duo"):  # the page's first game first
        blokus.placement_table(VARIANTS[vid].board, VARIANTS[vid].piece_set)
        board_geometry(vid)
        piece_catalog(vid)
    try:
        from blokus.players.mcts import warm_up

        warm_up("duo")  # the prior (levels 1 and 2) and the search (3 and up)
    except Exception:  # levels missing or broken: games fall back to greedy
        log.info("computer levels are not available", exc_info=True)


def run(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Serve the game until interrupted, after printing the address to open.

    Raises :class:`ServeError` if the address cannot be used."""
    import uvicorn

    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{actual}/"
    config = uvicorn.Config(create_app(), log_level="warning")
    server = uvicorn.Server(config)
    threading.Thread(target=_warm_up, daemon=True).start()
    print(f"Blokus is ready: open {url} in your browser (Ctrl+C to stop)", flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
