"""Tests of the ``blokus`` command: the hot-seat loop and show / legal / score."""

from __future__ import annotations

import hashlib
import io
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from blokus import Game, Move, render, sgf
from blokus.cli import HotSeat, main, outcome_lines, piece_move, play
from blokus.players import RandomPlayer

REFERENCE = Path("/work/shared/reference")
needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(), reason="reference games missing")


def reference(variant_id: str) -> list[dict[str, object]]:
    with open(REFERENCE / variant_id / f"{variant_id}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def record_path(variant_id: str, game: str) -> str:
    return str(REFERENCE / variant_id / "sgf" / f"{game}.blksgf")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- typed moves -------------------------------------------------------------


@pytest.mark.parametrize("variant_id", ["duo", "trigon", "junior"])
def test_piece_move_names_every_placement(variant_id: str) -> None:
    game = Game(variant_id)
    table = game.table
    pieces = game.variant.piece_set.pieces
    for i in range(0, table.size, 7):
        name = pieces[table.piece[i]].name
        first = game.board.name(table.cells[i][0])
        assert piece_move(game, name, str(table.orientation[i] + 1), first) == table.move(i)


def test_piece_move_errors() -> None:
    game = Game("duo")
    with pytest.raises(KeyError, match="no piece named 'Q'"):
        piece_move(game, "Q", "1", "e5")
    with pytest.raises(ValueError, match="orientations 1 to 8, not 9"):
        piece_move(game, "F", "9", "e5")
    with pytest.raises(ValueError, match="not a number"):
        piece_move(game, "F", "x", "e5")
    with pytest.raises(ValueError, match="not on the board"):
        piece_move(game, "F", "1", "z5")
    with pytest.raises(ValueError, match="does not fit"):
        piece_move(game, "I5", "1", "l1")
    trigon = Game("trigon")
    with pytest.raises(ValueError, match="points up, but q15 points down"):
        piece_move(trigon, "A4", "1", "q15")


# -- the hot-seat loop ---------------------------------------------------------


def piece_form(game: Game, move: Move) -> str:
    i = game.placement_of(move)
    assert i is not None
    t = game.table
    name = game.variant.piece_set.pieces[t.piece[i]].name
    return f"{name} {t.orientation[i] + 1} {game.board.name(t.cells[i][0])}"


def scrambled(move: Move, rng: random.Random) -> str:
    cells = str(move).split(",")
    rng.shuffle(cells)
    return ",".join(c.upper() if rng.random() < 0.5 else c for c in cells)


def test_scripted_duo_game(tmp_path: Path) -> None:
    rng = random.Random(2024)
    shadow = Game("duo")
    save_file = tmp_path / "mid.blksgf"
    lines = ["help", "legal", "a1", "pieces", "pieces F", "pieces Q", "", "frobnicate x"]
    saved_after = None
    took_back = ""
    passes = 0
    step = 0
    while not shadow.is_game_over():
        move = rng.choice(list(shadow.legal_moves))
        if step == 1:
            lines.append(piece_form(shadow, move))
        elif step == 2:
            # play it, take it back, then play it in another spelling
            lines += [str(move), "undo", scrambled(move, rng)]
            took_back = f"Took back: {shadow.color_to_move} {move}\n"
        elif step == 3:
            lines.append(str(shadow.move_stack[-1]))  # occupied: illegal
            lines.append(scrambled(move, rng).replace(",", " , "))
        elif step == 6:
            lines += [f"save {save_file}", "legal", scrambled(move, rng)]
            saved_after = len(shadow.move_stack)
        else:
            lines.append(scrambled(move, rng))
        before = len(shadow.history)
        shadow.push(move)
        if not shadow.is_game_over():
            passes += sum(1 for t in shadow.history[before + 1 :] if t.move.is_pass)
        step += 1
    lines.append("this line is never read")
    out = io.StringIO()
    seat = HotSeat(Game("duo"), io.StringIO("\n".join(lines) + "\n"), out)
    assert seat.run() == 0
    text = out.getvalue()
    assert seat.game.is_game_over()
    assert seat.game.move_stack == shadow.move_stack
    assert "PIECE N CELL" in text  # help
    assert "414 legal moves for Purple" in text
    assert "error: Purple's first piece must cover e10" in text
    assert "Purple's pieces left (21); 'pieces NAME'" in text
    assert "Piece F, 8 orientations" in text
    assert "error: no piece named 'Q'" in text
    assert "is neither a move" in text
    assert took_back in text
    assert "is occupied" in text
    assert f"Saved to {save_file}." in text
    assert text.count("cannot move and passes") == passes
    assert "Game over." in text
    final = "\n".join(outcome_lines(shadow, "advanced"))
    assert text.rstrip().endswith(final)
    assert "this line is never read" not in text
    # before each turn: the board, whose turn, the scores, the pieces left
    assert "Move 1: Purple to move (seat 1: Purple)" in text
    assert "Scores (advanced): Purple -89, Orange -89" in text
    assert render.text(shadow, color=False) in text
    assert "\x1b[" not in text
    record = sgf.load(save_file)
    assert saved_after is not None and record.num_moves == saved_after
    assert record.game().move_stack == shadow.move_stack[:saved_after]


def test_legal_lists_few_moves() -> None:
    game = Game("duo")
    game.push("e10")
    out = io.StringIO()
    seat = HotSeat(game, io.StringIO("legal\n"), out)
    seat.run()
    text = out.getvalue()
    # Orange's first move: every placement covering j5 is listed by count
    assert "414 legal moves for Orange; by piece: 1 1, 2 4," in text
    # play on until few moves are left, then list them
    game = Game("duo")
    rng = random.Random(5)
    while len(game.legal_moves) > 40:
        game.push(rng.choice(list(game.legal_moves)))
    assert game.color_to_move is not None
    out = io.StringIO()
    HotSeat(game, io.StringIO("legal\n"), out).run()
    moves = sorted(str(m) for m in game.legal_moves)
    name = game.color_to_move.name
    assert f"{len(moves)} legal moves for {name}:\n" + "\n".join(moves) in out.getvalue()


def test_end_of_input_keeps_the_moves() -> None:
    out = io.StringIO()
    code = play(Game("duo"), io.StringIO("e10,d11,e11,f11,e12\nj5\n"), out, color=False)
    assert code == 0
    text = out.getvalue()
    assert "End of input" in text
    assert "'save FILE'" in text
    assert "B[e10,d11,e11,f11,e12]" in text and "W[j5]" in text
    # nothing placed: nothing to keep
    out = io.StringIO()
    play(Game("duo"), io.StringIO(""), out, color=False)
    assert "No piece was placed." in out.getvalue()


def test_quit_asks_again_when_unsaved(tmp_path: Path) -> None:
    out = io.StringIO()
    seat = HotSeat(Game("duo"), io.StringIO("e10\nquit\nquit\nj5\n"), out)
    assert seat.run() == 0
    text = out.getvalue()
    assert "The game is not saved" in text
    assert text.rstrip().endswith("Bye.")
    assert len(seat.game.move_stack) == 1
    path = tmp_path / "g.blksgf"
    out = io.StringIO()
    seat = HotSeat(Game("duo"), io.StringIO(f"e10\nsave {path}\nquit\n"), out)
    assert seat.run() == 0
    assert "not saved" not in out.getvalue()
    assert sgf.load(path).num_moves == 1


def test_save_errors_change_nothing(tmp_path: Path) -> None:
    out = io.StringIO()
    bad = tmp_path / "no" / "such" / "dir.blksgf"
    seat = HotSeat(Game("duo"), io.StringIO(f"e10\nsave {bad}\nsave\nundo\nundo\n"), out)
    seat.run()
    text = out.getvalue()
    assert "error: cannot save:" in text
    assert "usage: save FILE" in text
    assert "No move to take back." in text
    assert not bad.exists()


def test_ctrl_c_ends_cleanly() -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    out = io.StringIO()
    game = Game("duo")
    game.push("e10")
    assert HotSeat(game, Interrupting(), out).run() == 130
    assert "Interrupted" in out.getvalue()
    assert "B[e10]" in out.getvalue()


def test_computer_seats_and_undo() -> None:
    # both seats computer players: the game plays itself to the end
    out = io.StringIO()
    seat = HotSeat(Game("duo"), io.StringIO(""), out, {0: RandomPlayer(1), 1: RandomPlayer(2)})
    assert seat.run() == 0
    assert seat.game.is_game_over()
    assert "Purple (random) plays" in out.getvalue()
    assert "thinking" not in out.getvalue()  # (each move took microseconds)
    assert "Game over." in out.getvalue()
    # a person against a computer: undo takes back the computer's reply too
    out = io.StringIO()
    seat = HotSeat(Game("duo"), io.StringIO("e10\nundo\n"), out, {1: RandomPlayer(3)})
    seat.run()
    text = out.getvalue()
    assert "Orange (random) plays" in text
    assert re.search(r"Took back: Orange \S+; Purple e10", text)
    assert "Move 2: Orange to move (seat 2: Orange (random))" in text
    assert text.count("Move 1: Purple to move (seat 1: Purple)") == 2
    assert seat.game.move_stack == []


def test_a_slow_computer_seat_is_shown_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer that takes longer than the notice delay is said to be
    thinking before its move (a quick one is not: the test above)."""
    import threading

    from blokus import cli

    monkeypatch.setattr(cli, "THINKING_NOTICE", 0.01)
    answered = threading.Event()

    class Slow(RandomPlayer):
        def choose(self, game: Game) -> Move:
            answered.wait(5.0)  # until the notice has been written
            return super().choose(game)

    class Watched(io.StringIO):
        def write(self, text: str) -> int:
            if "thinking" in text:
                answered.set()
            return super().write(text)

    out = Watched()
    seat = HotSeat(Game("duo"), io.StringIO(""), out, {0: Slow(1), 1: RandomPlayer(2)})
    seat.run()
    text = out.getvalue()
    assert text.index("Purple (random) is thinking...") < text.index("Purple (random) plays")


def test_neutral_seat_is_played_by_a_random_mover() -> None:
    game = Game("classic_3", "neutral")
    out = io.StringIO()
    players = {i: RandomPlayer(i) for i in range(3)}
    assert play(game, io.StringIO(""), out, players, color=False) == 0
    assert game.is_game_over()
    assert "Green (random) plays" in out.getvalue()
    assert "(neutral, counts for nobody)" in out.getvalue()


def test_announces_passes() -> None:
    # the end of a reference game where one colour passes
    rec = sgf.load(record_path("duo", "duo_s0001")) if REFERENCE.is_dir() else None
    if rec is None:
        pytest.skip("reference games missing")
    moves = rec.game().move_stack
    game = Game("duo")
    for move in moves[:-4]:
        game.push(move)
    script = "\n".join(str(m) for m in moves[-4:]) + "\n"
    out = io.StringIO()
    HotSeat(game, io.StringIO(script), out).run()
    # in duo_s0001 Orange passes from move 28 on: Purple plays the last three
    assert "Orange cannot move and passes" in out.getvalue()
    assert "Game over." in out.getvalue()


# -- show, legal, score ------------------------------------------------------


@needs_reference
def test_show(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = record_path("trigon_3", "trigon_3_s0002")
    rec = sgf.load(path)
    code, out, err = run(["show", path, "--move", "10", "--no-color"], capsys)
    assert code == 0 and err == ""
    assert out.startswith(render.text(rec.game(9), color=False) + "\n")
    assert "Move 10: " in out
    svg_file = tmp_path / "p.svg"
    code, out, err = run(["show", path, "--svg", str(svg_file), "--no-color"], capsys)
    assert code == 0
    assert out.startswith(render.text(rec.game(), color=False))
    assert "game over" in out
    root = ET.parse(svg_file).getroot()
    polygons = root.findall(".//{http://www.w3.org/2000/svg}polygon")
    assert len(polygons) == rec.game().board.size
    code, out, _ = run(["show", path, "--move", "1", "--no-color"], capsys)
    assert out.startswith(render.text(Game("trigon_3"), color=False))


@needs_reference
@pytest.mark.parametrize("variant_id", ["duo", "classic_2", "trigon_3", "junior"])
def test_legal_matches_reference(variant_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [r for r in reference(variant_id) if r["type"] == "pos" and str(r["game"])[-1] == "3"]
    path = record_path(variant_id, str(rows[0]["game"]))
    for row in rows[:: max(1, len(rows) // 6)] + [rows[-1]]:
        base = ["legal", path, "--move", str(row["move_number"]), "--color", str(row["color"])]
        code, out, err = run([*base, "--count"], capsys)
        assert (code, err) == (0, "")
        assert int(out) == row["num_legal"]
        code, out, err = run(base, capsys)
        text = out.rstrip("\n")
        assert hashlib.sha1(text.encode()).hexdigest() == row["legal_sha1"]


@needs_reference
def test_legal_defaults_to_the_colour_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    path = record_path("duo", "duo_s0002")
    rec = sgf.load(path)
    game = rec.game(4)
    code, out, _ = run(["legal", path, "--move", "5"], capsys)
    assert code == 0
    assert out.split() == sorted(str(m) for m in game.legal_moves)
    code, out, _ = run(["legal", path, "--count"], capsys)  # after the end: nobody moves
    assert out.strip() == "0"
    code, out, _ = run(["legal", path, "--move", "5", "--color", "orange", "--count"], capsys)
    assert int(out) == len(game.legal_moves_of(1))


@needs_reference
@pytest.mark.parametrize(
    "variant_id", ["duo", "classic", "classic_2", "classic_3", "trigon", "trigon_3", "junior"]
)
def test_score_matches_reference(variant_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    ends = [r for r in reference(variant_id) if r["type"] == "end"]
    names = Game(variant_id).variant.colors
    for end in ends[:3]:
        path = record_path(variant_id, str(end["game"]))
        code, out, err = run(["score", path, "--scoring", "cells"], capsys)
        assert (code, err) == (0, "")
        assert "game over" in out.splitlines()[0]
        points = end["points"]
        assert isinstance(points, list)
        for color, expected in zip(names, points, strict=True):
            m = re.search(rf"^  {color.name} \({color.sgf}\)\s+(-?\d+)", out, re.M)
            assert m is not None, out
            assert int(m.group(1)) == expected
        final = str(end["final_score"])
        if final == "0":
            assert "Draw between" in out
        elif final[:2] in ("B+", "W+"):
            seat = 0 if final[0] == "B" else 1
            winner = Game(variant_id).seating.seats[seat].name
            assert f"Winner: {winner}\n" in out


def test_score_teams_and_basic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game("classic")
    for move in ("a20", "t20", "t1", "a1"):
        game.push(move)
    path = tmp_path / "c.blksgf"
    sgf.dump(game, path)
    code, out, _ = run(["score", str(path), "--scoring", "basic"], capsys)
    assert code == 0
    assert "game not over, scores so far" in out
    assert re.search(r"^  Blue \(1\) +88$", out, re.M)
    assert "Draw" not in out and "Leading: Blue and Yellow and Red and Green" in out
    lines = outcome_lines(Game("classic", "teams"), "advanced")
    assert "  seat 1 (Blue): -89" in lines
    assert "   1st  team Blue + Red: -178" in lines


# -- errors and help ---------------------------------------------------------


@needs_reference
@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["show"],
        ["show", "/no/such/file.blksgf"],
        ["show", "{duo}", "--move", "0"],
        ["show", "{duo}", "--move", "x"],
        ["show", "{duo}", "--move", "32"],
        ["show", "{duo}", "--svg", "/no/such/dir/x.svg"],
        ["show", "{bad}"],
        ["legal", "{duo}", "--color", "Blue"],
        ["legal", "{duo}", "--bogus"],
        ["score", "{duo}", "--scoring", "best"],
        ["play", "--variant", "chess"],
        ["play", "--variant", "duo", "--seating", "teams"],
        ["play", "--load", "{duo}", "--variant", "classic"],
        ["play", "--load", "{bad}"],
        ["play", "--seat", "1=level:1", "--seat", "1=level:2"],
        ["bench", "--seconds", "0"],
        ["gtp", "--threads", "0"],
        ["bench", "--seconds", "inf"],
        ["bench", "--seconds", "nan"],
        ["match", "greedy", "random", "--games", "0"],
        ["match", "greedy", "random", "--move-timeout", "-1"],
    ],
)
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[e10,e11,e12,e13,e14,e15])")
    duo = record_path("duo", "duo_s0001")
    argv = [a.format(duo=duo, bad=bad) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("blokus: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--variant", "duo", "--seconds", "0.05", "--threads", "1",
                          "--json"], capsys)
    assert code == 0
    figures = json.loads(out.splitlines()[-1])
    assert figures["variant"] == "duo" and figures["threads"] == 1
    assert figures["random_games_per_s"] > 0 and figures["mcts_sims_per_s"] > 0
    assert [r["threads"] for r in figures["by_threads"]] == [1]


@pytest.mark.parametrize("command", [[], ["play"], ["show"], ["legal"], ["score"], ["match"],
                                     ["bench"]])
def test_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*command, "--help"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("usage: blokus")
    if not command:
        for name in ("play", "show", "legal", "score"):
            assert re.search(rf"^\s+{name}\s", out, re.M)
    expected = {
        "play": ["--variant", "--seating", "--scoring", "PIECE N CELL", "save FILE"],
        "show": ["--move", "--svg", "--no-color"],
        "legal": ["--move", "--color", "--count"],
        "score": ["--scoring"],
        "match": ["--games", "--workers", "95% confidence", "gtp:"],
    }
    for option in expected.get(command[0] if command else "", []):
        assert option in out
    assert "%%" not in out


def test_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "blokus", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert "play" in done.stdout and "score" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "blokus", "show", "/no/such.blksgf"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("blokus: error: ")
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "blokus", "play"], input="e10\nquit\nquit\n",
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0
    assert "Bye." in done.stdout and "Traceback" not in done.stderr


def test_play_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.blksgf"
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdin", io.StringIO(f"r15\nsave {path}\nquit\n"))
    code, out, err = run(["play", "--variant", "trigon_3", "--scoring", "cells"], capsys)
    # r15 is no starting triangle of the smaller board: nothing is placed
    assert (code, err) == (0, "")
    assert "Blokus Trigon Three-Player: Blue vs Yellow vs Red" in out
    assert "error: Blue's first piece must cover a free starting cell" in out
    assert "Scores (cells): Blue 0, Yellow 0, Red 0" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(f"p14\nsave {path}\nquit\n"))
    code, out, err = run(["play", "--variant", "Blokus Trigon Three-Player"], capsys)
    assert code == 0 and out.rstrip().endswith("Bye.")
    # continue the saved game: loaded and unchanged, so one quit leaves
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(["play", "--load", str(path)], capsys)
    assert code == 0
    assert "Move 2: Yellow to move" in out
    assert "not saved" not in out
