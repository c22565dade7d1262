"""The web server: HTTP routes, the WebSocket protocol, seats and tokens,
computer replies, undo, hints, records; and the geometry sent to the page."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from conftest import REFERENCE  # noqa: E402
from starlette.testclient import TestClient, WebSocketTestSession  # noqa: E402

import blokus  # noqa: E402
from blokus import sgf  # noqa: E402
from blokus.players import PlayerSpecError, make_player  # noqa: E402
from blokus.web import server  # noqa: E402
from blokus.web.server import (  # noqa: E402
    ServeError,
    Session,
    bind,
    board_geometry,
    create_app,
    piece_catalog,
    run,
)

Msg = dict[str, Any]
DUO_FIRST = "e10,d11,e11,f11,e12"
HUMAN = {"kind": "human"}


def computer(player: str) -> Msg:
    return {"kind": "computer", "player": player}


_open: list[WebSocketTestSession] = []


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(computer_delay=0, seed=7, hint_player="greedy")) as c:
        try:
            yield c
        finally:
            while _open:
                _open.pop().__exit__(None, None, None)


def hub(client: TestClient) -> server.Hub:
    app: Any = client.app
    return app.state.hub  # type: ignore[no-any-return]


def until(ws: WebSocketTestSession, pred: Callable[[Msg], bool], limit: int = 200) -> Msg:
    """Read messages until one satisfies ``pred``; an unexpected error fails."""
    seen = []
    for _ in range(limit):
        msg: Msg = ws.receive_json()
        if pred(msg):
            return msg
        if msg["type"] == "error":
            raise AssertionError(f"unexpected error: {msg['message']}")
        seen.append(msg.get("type"))
    raise AssertionError(f"no such message among {seen}")


def of_type(kind: str) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == kind


def moves(n: int) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == "state" and m["num_moves"] == n


def connect(client: TestClient) -> WebSocketTestSession:
    ws = client.websocket_connect("/ws").__enter__()
    _open.append(ws)
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    return ws


def new_game(ws: WebSocketTestSession, **fields: Any) -> tuple[Msg, Msg]:
    """Start a game; returns its setup and first state."""
    ws.send_json({"type": "new_game", **fields})
    setup = until(ws, of_type("setup"))
    state = until(ws, of_type("state"))
    return setup, state


def session_of(client: TestClient, setup: Msg) -> Session:
    return hub(client).sessions[setup["game"]]


def vs_human(ws: WebSocketTestSession, variant: str = "duo") -> tuple[Msg, Msg]:
    seats = [{"kind": "human"}] * len(blokus.variant(variant).seating.seats)
    return new_game(ws, variant=variant, seats=seats)


# ---------------------------------------------------------------------------
# HTTP


def test_page_and_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/app.js">' in page.text
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
    assert client.get("/static/nothing.js").status_code == 404


def test_catalog_lists_every_variant_seating_player_and_rule(client: TestClient) -> None:
    cat = client.get("/api/catalog").json()
    assert [v["id"] for v in cat["variants"]] == list(blokus.VARIANTS)
    for entry in cat["variants"]:
        v = blokus.VARIANTS[entry["id"]]
        assert [s["id"] for s in entry["seatings"]] == [s.id for s in v.seatings]
        assert entry["colors"] == [c.name for c in v.colors]
    assert cat["players"][:2] == ["random", "greedy"]
    assert cat["levels"] == [f"level:{n}" for n in range(1, 10)]
    assert "minute" in cat["level_notes"]["level:9"]  # (the slow one is named)
    assert cat["rules"] == ["advanced", "basic", "cells"]


def test_record_of_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nope/record.blksgf").status_code == 404


# ---------------------------------------------------------------------------
# Geometry and pieces as the page uses them


@pytest.mark.parametrize("variant_id", ["duo", "junior", "trigon", "trigon_3"])
def test_every_placement_is_an_orientation_moved_by_an_allowed_translation(variant_id: str) -> None:
    # The page places orientation cells at (x + dx, row + drow), with dx + drow
    # even on the triangle grid: that must reach exactly the placement table.
    v = blokus.VARIANTS[variant_id]
    board = v.board
    table = blokus.placement_table(board, v.piece_set)
    pieces = piece_catalog(variant_id)
    reached = set()
    for i in range(len(table)):
        orient = pieces[table.piece[i]]["orientations"][table.orientation[i]]
        points = [board.points[c] for c in table.cells[i]]
        dx = points[0][0] - orient["cells"][0][0]
        drow = points[0][1] - orient["cells"][0][1]
        if board.kind == "triangle":
            assert (dx + drow) % 2 == 0
        assert points == [(x + dx, row + drow) for x, row in orient["cells"]]
        reached.add(i)
    assert len(reached) == len(table)


@pytest.mark.parametrize("variant_id", ["classic", "trigon", "trigon_3"])
def test_turning_and_flipping_orientations(variant_id: str) -> None:
    turns = 4 if blokus.VARIANTS[variant_id].board.kind == "square" else 6
    for piece in piece_catalog(variant_id):
        orients = piece["orientations"]
        for i, o in enumerate(orients):
            assert orients[o["cw"]]["ccw"] == i
            assert orients[o["flip"]]["flip"] == i
            j = i
            for _ in range(turns):
                j = orients[j]["cw"]
            assert j == i
        # Turning and flipping reach every orientation from the first one.
        seen, todo = {0}, [0]
        while todo:
            o = orients[todo.pop()]
            for j in (o["cw"], o["ccw"], o["flip"]):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        assert seen == set(range(len(orients)))


def test_l4_turned_clockwise_as_seen_on_the_screen() -> None:
    # Drawn "X.. / XXX"; turned clockwise it is "XX / X. / X.".
    l4 = next(p for p in piece_catalog("duo") if p["name"] == "L4")["orientations"]
    assert l4[0]["cells"] == [[0, 1], [1, 1], [2, 1], [0, 2]]
    assert l4[l4[0]["cw"]]["cells"] == [[0, 1], [0, 2], [0, 3], [1, 3]]
    assert l4[l4[0]["flip"]]["cells"] == [[0, 1], [1, 1], [2, 1], [2, 2]]


def _centres(variant_id: str, orient: dict[str, Any]) -> list[tuple[float, float]]:
    """Cell centres in real coordinates (y up), relative to their mean."""
    sy = 3**0.5 / 2 if blokus.VARIANTS[variant_id].board.kind == "triangle" else 1.0
    sx = 0.5 if sy != 1.0 else 1.0
    pts = [
        (sum(v[0] for v in poly) / len(poly) * sx, sum(v[1] for v in poly) / len(poly) * sy)
        for poly in orient["polygons"]
    ]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    return [(x - mx, y - my) for x, y in pts]


def _rounded(points: list[tuple[float, float]]) -> set[tuple[float, float]]:
    return {(round(x, 3) + 0.0, round(y, 3) + 0.0) for x, y in points}


@pytest.mark.parametrize("variant_id", ["duo", "trigon"])
def test_cw_turns_clockwise_and_flip_mirrors_left_to_right(variant_id: str) -> None:
    import math

    angle = -math.pi / 2 if blokus.VARIANTS[variant_id].board.kind == "square" else -math.pi / 3
    cos, sin = math.cos(angle), math.sin(angle)
    for piece in piece_catalog(variant_id):
        orients = piece["orientations"]
        for o in orients:
            a = _centres(variant_id, o)
            turned = [(x * cos - y * sin, x * sin + y * cos) for x, y in a]
            assert _rounded(turned) == _rounded(_centres(variant_id, orients[o["cw"]]))
            mirrored = [(-x, y) for x, y in a]
            assert _rounded(mirrored) == _rounded(_centres(variant_id, orients[o["flip"]]))


def test_board_geometry_polygons_are_the_cells(client: TestClient) -> None:
    for vid in ("duo", "trigon"):
        geo = board_geometry(vid)
        board = blokus.VARIANTS[vid].board
        assert len(geo["polygons"]) == board.size
        for c, poly in enumerate(geo["polygons"]):
            assert sorted(tuple(v) for v in poly) == sorted(board.vertices[c])
        assert geo["names"][0] == board.name(0)
        assert geo["starts"] == [list(s) for s in blokus.VARIANTS[vid].starting_cells]


# ---------------------------------------------------------------------------
# New games, previews, moves


def test_new_game_sends_setup_then_state(client: TestClient) -> None:
    ws = connect(client)
    setup, state = new_game(ws, variant="duo", seats=[HUMAN, computer("greedy")])
    assert setup["variant"]["id"] == "duo"
    assert len(setup["board"]["polygons"]) == 196
    assert [p["name"] for p in setup["pieces"]] == blokus.CLASSIC.names
    assert set(setup["tokens"]) == {"0", "1"}
    assert state["turn"] == 0 and state["my_turn"] and not state["over"]
    assert state["history"] == [] and state["num_moves"] == 0
    assert state["outcome"]["color_scores"] == [-89, -89]
    assert len(state["attach"]) == 1  # the starting cell
    assert [s["kind"] for s in state["seats"]] == ["human", "computer"]


def test_preview_says_legal_or_why_not(client: TestClient) -> None:
    ws = connect(client)
    setup, _ = vs_human(ws)
    ws.send_json({"type": "preview", "move": DUO_FIRST, "id": 1})
    ok = until(ws, of_type("preview"))
    assert ok == {"type": "preview", "id": 1, "move": DUO_FIRST, "legal": True, "reason": None}
    ws.send_json({"type": "preview", "move": "a1,a2", "id": 2})
    bad = until(ws, of_type("preview"))
    assert bad["legal"] is False
    assert bad["reason"] == "Purple's first piece must cover e10"
    ws.send_json({"type": "preview", "move": "a1,c3", "id": 3})
    assert "do not form a piece" in until(ws, of_type("preview"))["reason"]
    assert session_of(client, setup).game.move_stack == []


def test_legal_move_is_played_and_illegal_one_refused_with_reason(client: TestClient) -> None:
    ws = connect(client)
    setup, _ = vs_human(ws)
    game = session_of(client, setup).game
    ws.send_json({"type": "move", "move": "a1,a2"})
    err = until(ws, of_type("error"))
    assert err["request"] == "move"
    assert err["message"] == "illegal move: Purple's first piece must cover e10"
    assert game.move_stack == []
    ws.send_json({"type": "move", "move": DUO_FIRST})
    state = until(ws, of_type("state"))
    assert [h["move"] for h in state["history"]] == [DUO_FIRST]
    assert state["history"][0]["piece"] == "X" and state["history"][0]["seat"] == 0
    assert state["turn"] == 1 and state["my_turn"]  # both seats are at this screen
    assert str(game.peek()) == DUO_FIRST
    # Orange may not touch Purple... but may: only its own colour matters.
    ws.send_json({"type": "preview", "move": "e9"})
    assert until(ws, of_type("preview"))["reason"] == "Orange's first piece must cover j5"


def test_malformed_messages_get_an_error_and_change_nothing(client: TestClient) -> None:
    ws = connect(client)
    ws.send_json({"type": "move", "move": DUO_FIRST})
    assert "no game" in until(ws, of_type("error"))["message"]
    setup, _ = vs_human(ws)
    game = session_of(client, setup).game
    bad: list[tuple[str, str]] = [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "dance"}), "unknown message type 'dance'"),
        (json.dumps({"kind": "move"}), "unknown message type None"),
        (json.dumps({"type": "move"}), "'move' is missing"),
        (json.dumps({"type": "move", "move": 7}), "'move' must be a string"),
        (json.dumps({"type": "move", "move": "e10,zz"}), "is not a move"),
        (json.dumps({"type": "move", "move": ""}), "empty move"),
        (json.dumps({"type": "move", "move": "pass"}), "passes are automatic"),
        (json.dumps({"type": "move", "move": "e10,e10"}), "repeated"),
        (json.dumps({"type": "goto", "move": 5}), "between 0 and 0"),
        (json.dumps({"type": "goto", "move": True}), "must be an integer"),
        (json.dumps({"type": "new_game", "variant": "chess"}), "unknown variant"),
        (json.dumps({"type": "new_game", "variant": "duo", "seating": "teams"}), "no seating"),
        (json.dumps({"type": "new_game", "variant": "duo", "seats": [HUMAN]}), "2 seats, not 1"),
        (json.dumps({"type": "new_game", "variant": "duo", "rule": "golf"}), "unknown scoring"),
        (json.dumps({"type": "new_game", "variant": "duo",
                     "seats": [{"kind": "human"}, {"kind": "computer", "player": "oracle"}]}),
         "unknown player 'oracle'"),
        (json.dumps({"type": "new_game", "variant": "duo", "seats": [{"kind": "robot"}, {}]}),
         "kind must be one of"),
        (json.dumps({"type": "set_seat", "seat": 9, "kind": "human"}), "no seat 9"),
        (json.dumps({"type": "join", "game": "nope"}), "there is no game 'nope'"),
        (json.dumps({"type": "load_record", "text": "(;GM[Chess])"}), "cannot read the record"),
        (json.dumps({"type": "play_from_here"}), "current position already"),
        (json.dumps({"type": "undo"}), "no move of yours"),
    ]
    games_before = set(hub(client).sessions)
    for text, expected in bad:
        ws.send_text(text)
        err = until(ws, of_type("error"))
        assert expected in err["message"], (text, err)
    assert game.move_stack == [] and game.turn == 0
    assert set(hub(client).sessions) == games_before
    # The connection still works after all that.
    ws.send_json({"type": "move", "move": DUO_FIRST})
    assert until(ws, of_type("state"))["num_moves"] == 1


def test_moves_after_the_game_is_over_are_refused(client: TestClient) -> None:
    ws = connect(client)
    seats = [{"kind": "computer", "player": "random"}] * 2
    setup, _ = new_game(ws, variant="duo", seats=seats)
    final = until(ws, lambda m: m["type"] == "state" and m["game_over"])
    game = session_of(client, setup).game
    assert game.is_game_over()
    assert final["turn"] is None and final["outcome"]["finished"]
    outcome = game.outcome("advanced")
    assert final["outcome"]["color_scores"] == list(outcome.color_scores)
    assert final["outcome"]["winners"] == list(outcome.winners)
    for c in range(2):
        assert final["colors"][c]["remaining"] == game.remaining_cells(c)
    moves = len(game.move_stack)
    ws.send_json({"type": "move", "move": DUO_FIRST})
    assert until(ws, of_type("error"))["message"] == "the game is over"
    ws.send_json({"type": "hint"})
    assert until(ws, of_type("error"))["message"] == "the game is over"
    assert len(game.move_stack) == moves


# ---------------------------------------------------------------------------
# The computer


def test_computer_replies_and_undo_takes_back_both_moves(client: TestClient) -> None:
    ws = connect(client)
    setup, state = new_game(ws, variant="duo", seats=[HUMAN, computer("greedy")])
    assert not state["can_undo"]
    ws.send_json({"type": "move", "move": DUO_FIRST})
    reply = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 2)
    assert reply["my_turn"] and reply["can_undo"] and reply["thinking"] is None
    assert reply["history"][1]["seat"] == 1 and reply["history"][1]["color"] == 1
    game = session_of(client, setup).game
    assert game.is_legal(game.copy().legal_moves.__iter__().__next__())
    ws.send_json({"type": "undo"})
    back = until(ws, of_type("state"))
    assert back["num_moves"] == 0 and back["turn"] == 0 and back["my_turn"]
    assert game.move_stack == []


def test_computer_thinking_is_announced(client: TestClient) -> None:
    ws = connect(client)
    new_game(ws, variant="duo", seats=[computer("random"), HUMAN])
    thinking = until(ws, lambda m: m["type"] == "state" and m["thinking"] is not None)
    assert thinking["thinking"] == 0 and not thinking["my_turn"]
    moved = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 1)
    assert moved["my_turn"] and moved["turn"] == 1


def test_unavailable_level_falls_back_to_greedy_with_a_notice(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = make_player

    def fake(spec: str, seed: int | None = None) -> Any:
        if spec.startswith("level:"):
            raise PlayerSpecError(f"{spec!r} needs the search kernel")
        return real(spec, seed)

    monkeypatch.setattr(server, "make_player", fake)
    ws = connect(client)
    new_game(ws, variant="duo", seats=[computer("level:5"), HUMAN])
    moved = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 1)
    assert any("level 5 is not available" in n and "greedy" in n for n in moved["notices"])
    assert moved["seats"][0]["notice"] is not None
    assert hub(client).levels_available is False
    assert client.get("/api/catalog").json()["levels_available"] is False


def test_hint_suggests_a_legal_move_of_the_seat_to_move(client: TestClient) -> None:
    ws = connect(client)
    setup, _ = vs_human(ws)
    ws.send_json({"type": "hint", "id": 9})
    hint = until(ws, of_type("hint"))
    game = session_of(client, setup).game
    move = blokus.Move.from_str(hint["move"])
    assert hint["id"] == 9 and game.is_legal(move)
    index = game.placement_of(move)
    assert index is not None
    assert hint["cells"] == list(game.table.cells[index])
    assert hint["piece"] == game.table.piece[index]
    assert hint["orientation"] == game.table.orientation[index]
    assert game.move_stack == []  # a hint plays nothing


def test_a_failing_player_is_replaced_by_greedy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        name = "broken"

        def choose(self, game: blokus.Game) -> blokus.Move:
            raise RuntimeError("kernel exploded")

    real = make_player
    def fake(spec: str, seed: int | None = None) -> Any:
        return Broken() if spec == "random" else real(spec, seed)

    monkeypatch.setattr(server, "make_player", fake)
    ws = connect(client)
    setup, _ = new_game(ws, variant="duo", seats=[computer("random"), HUMAN])
    moved = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 1)
    assert "failed (RuntimeError)" in moved["seats"][0]["notice"]
    assert moved["my_turn"]
    hub(client).hint_player = "random"
    ws.send_json({"type": "hint"})
    hint = until(ws, of_type("hint"))
    assert hint["player"] == "greedy"
    assert session_of(client, setup).game.is_legal(blokus.Move.from_str(hint["move"]))


def test_neutral_seat_is_always_random(client: TestClient) -> None:
    ws = connect(client)
    seats = [{"kind": "human"}] * 4
    setup, state = new_game(ws, variant="classic_3", seating="neutral", seats=seats)
    assert state["seats"][3]["kind"] == "computer" and state["seats"][3]["player"] == "random"
    assert session_of(client, setup).seats[3].player == "random"


# ---------------------------------------------------------------------------
# Seats and tokens


def test_seat_tokens_decide_who_may_move(client: TestClient) -> None:
    host = connect(client)
    setup, _ = new_game(host, variant="duo", seats=[{"kind": "human"}, {"kind": "remote"}])
    gid = setup["game"]
    assert set(setup["tokens"]) == {"0"}
    invite = setup["invites"]["1"]
    game = session_of(client, setup).game

    guest = connect(client)
    guest.send_json({"type": "join", "game": gid, "tokens": [invite]})
    guest_setup = until(guest, of_type("setup"))
    assert guest_setup["tokens"] == {"1": invite}
    assert not until(guest, of_type("state"))["my_turn"]

    # The guest may not move for Purple; the host may.
    guest.send_json({"type": "move", "move": DUO_FIRST})
    assert "not yours" in until(guest, of_type("error"))["message"]
    guest.send_json({"type": "preview", "move": DUO_FIRST})
    assert "not yours" in until(guest, of_type("preview"))["reason"]
    host.send_json({"type": "move", "move": DUO_FIRST})
    assert until(host, moves(1))["history"][0]["move"] == DUO_FIRST
    assert until(guest, moves(1))["my_turn"]

    # Now the host may not move for Orange.
    host.send_json({"type": "move", "move": "j5,i6,j6,k6,j7"})
    assert "not yours" in until(host, of_type("error"))["message"]

    # A watcher with a forged token is told so and may not move either.
    watcher = connect(client)
    watcher.send_json({"type": "join", "game": gid, "tokens": ["forged"]})
    assert until(watcher, of_type("setup"))["tokens"] == {}
    assert "not valid" in until(watcher, of_type("error"))["message"]
    watcher.send_json({"type": "move", "move": "j5,i6,j6,k6,j7"})
    assert "not yours" in until(watcher, of_type("error"))["message"]
    watcher.send_json({"type": "rematch"})
    assert "only the players" in until(watcher, of_type("error"))["message"]
    watcher.send_json({"type": "set_seat", "seat": 1, "kind": "computer"})
    assert "not yours" in until(watcher, of_type("error"))["message"]

    guest.send_json({"type": "move", "move": "j5,i6,j6,k6,j7"})
    assert until(guest, moves(2))["turn"] == 0
    # The host cannot take back a move once the guest has answered it.
    host.send_json({"type": "undo"})
    assert "has moved since" in until(host, of_type("error"))["message"]
    assert len(game.move_stack) == 2
    # The guest can take back its own move.
    guest.send_json({"type": "undo"})
    assert until(guest, moves(1))["my_turn"]


def test_other_pages_see_the_moves_and_who_is_online(client: TestClient) -> None:
    host = connect(client)
    setup, _ = new_game(host, variant="duo", seats=[{"kind": "human"}, {"kind": "remote"}])
    guest = connect(client)
    guest.send_json({"type": "join", "game": setup["game"], "tokens": [setup["invites"]["1"]]})
    online = until(host, lambda m: m["type"] == "state" and m["seats"][1]["online"])
    assert online["seats"][1]["kind"] == "remote" and not online["seats"][1]["mine"]
    host.send_json({"type": "move", "move": DUO_FIRST})
    seen = until(guest, lambda m: m["type"] == "state" and m["num_moves"] == 1)
    assert seen["history"][0]["move"] == DUO_FIRST


def test_set_seat_and_rematch_with_swapped_seats(client: TestClient) -> None:
    ws = connect(client)
    setup, _ = new_game(ws, variant="duo", seats=[HUMAN, computer("random")])
    ws.send_json({"type": "set_seat", "seat": 1, "kind": "human"})
    state = until(ws, of_type("state"))
    assert [s["kind"] for s in state["seats"]] == ["human", "human"]
    ws.send_json({"type": "move", "move": DUO_FIRST})
    assert until(ws, of_type("state"))["my_turn"]  # Orange is ours now
    ws.send_json({"type": "set_seat", "seat": 1, "kind": "computer", "player": "greedy"})
    reply = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 2)
    assert reply["seats"][1]["player"] == "greedy"
    session = session_of(client, setup)
    tokens = [s.token for s in session.seats]
    ws.send_json({"type": "rematch", "swap": True})
    again = until(ws, of_type("setup"))
    assert again["game"] == setup["game"]
    # The computer now plays Purple and moves first.
    first = until(ws, lambda m: m["type"] == "state" and m["num_moves"] == 1)
    assert [s["kind"] for s in first["seats"]] == ["computer", "human"]
    assert first["my_turn"] and first["turn"] == 1
    assert [s.token for s in session.seats] == tokens[::-1]


# ---------------------------------------------------------------------------
# Records


def test_record_download_and_upload(client: TestClient) -> None:
    ws = connect(client)
    setup, _ = vs_human(ws)
    moves = [DUO_FIRST, "j5,i6,j6,k6,j7", "c9,c10", "l4,l5"]
    for move in moves:
        ws.send_json({"type": "move", "move": move})
        until(ws, of_type("state"))
    r = client.get(f"/api/games/{setup['game']}/record.blksgf")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-blokus-sgf")
    assert ".blksgf" in r.headers["content-disposition"]
    rec = sgf.loads(r.text)
    assert rec.variant.id == "duo" and rec.num_moves == 4
    assert [str(t.move) for t in rec.moves] == [str(blokus.Move.from_str(m)) for m in moves]

    ws.send_json({"type": "load_record", "text": r.text, "name": "mine.blksgf"})
    loaded = until(ws, of_type("setup"))
    assert loaded["title"] == "mine.blksgf" and loaded["game"] != setup["game"]
    state = until(ws, of_type("state"))
    assert state["num_moves"] == 4 and state["view"] is None

    # Step through it.
    ws.send_json({"type": "goto", "move": 1})
    one = until(ws, of_type("state"))
    assert one["view"] == 1 and one["turn"] == 1
    assert [len(c["left"]) for c in one["colors"]] == [20, 21]
    assert one["can_play_from_here"] and not one["my_turn"]
    ws.send_json({"type": "goto", "move": 0})
    assert until(ws, of_type("state"))["attach"] == [board_cell("duo", "e10")]
    ws.send_json({"type": "goto", "move": None})
    assert until(ws, of_type("state"))["view"] is None

    # Play on from move 2: the later moves are dropped.
    ws.send_json({"type": "goto", "move": 2})
    until(ws, of_type("state"))
    ws.send_json({"type": "play_from_here"})
    cut = until(ws, of_type("state"))
    assert cut["num_moves"] == 2 and cut["view"] is None and cut["my_turn"]


def board_cell(variant_id: str, name: str) -> int:
    return blokus.VARIANTS[variant_id].board.parse(name)


def test_pentobi_records_open(client: TestClient) -> None:
    ws = connect(client)
    for variant_id, game_id in (("duo", "duo_s0001"), ("trigon_3", "trigon_3_s0002")):
        path = REFERENCE / variant_id / "sgf" / f"{game_id}.blksgf"
        if not path.exists():
            pytest.skip(f"reference record {path} is missing")
        text = path.read_text(encoding="utf-8")
        ws.send_json({"type": "load_record", "text": text, "name": path.name})
        setup = until(ws, of_type("setup"))
        state = until(ws, of_type("state"))
        rec = sgf.loads(text)
        assert setup["variant"]["id"] == variant_id
        assert state["num_moves"] == rec.num_moves
        assert state["game_over"] == rec.game().is_game_over()
        assert [h["move"] for h in state["history"] if not h.get("pass")] == [
            str(t.move) for t in rec.moves
        ]


# ---------------------------------------------------------------------------
# Starting the server


def test_bind_reports_a_busy_port_in_one_line() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{port}.*--port"):
            run(port=port)
    finally:
        sock.close()
    assert isinstance(ServeError("x"), ValueError)


def test_free_port_is_found_for_port_zero() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.getsockname()[1] > 0
        probe = socket.create_connection(("127.0.0.1", sock.getsockname()[1]))
        probe.close()
    finally:
        sock.close()


def test_warm_up_loads_the_search() -> None:
    """The server's start-up work leaves the tree search compiled (or loaded
    from numba's cache), not only the prior that level 1 plays by; in a
    process of its own, so that no other test has loaded it first."""
    import subprocess
    import sys

    code = ("from blokus.players import mcts; from blokus.web import server; "
            "assert not mcts.search.signatures; server._warm_up(); "
            "print(len(mcts.search.signatures))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) >= 1
