"""The GTP engine, sans-IO: answers exactly as Pentobi's engine formats them."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from conftest import reference_games

from blokus import Game
from blokus.gtp import GtpEngine, run
from blokus.players import make_player


def ask(engine: GtpEngine, line: str) -> str:
    answer, _ = engine.handle_line(line)
    return answer


def test_answer_format_ids_and_errors() -> None:
    e = GtpEngine("duo")
    assert ask(e, "name") == "= blokus\n\n"
    assert ask(e, "7 protocol_version") == "=7 2\n\n"
    assert ask(e, "") == "" and ask(e, "# a comment") == ""
    assert ask(e, "frobnicate") == "? unknown command: frobnicate\n\n"
    assert ask(e, "3 frobnicate").startswith("?3 unknown command")
    assert ask(e, "known_command genmove") == "= true\n\n"
    assert ask(e, "known_command frob") == "= false\n\n"
    assert "all_legal" in ask(e, "list_commands").split("\n")
    assert ask(e, "set_game Blokus Chess").startswith("? unknown game")
    assert ask(e, "play") == "? usage: play COLOR MOVE\n\n"
    assert ask(e, "undo") == "? cannot undo: no move played\n\n"


def test_bad_input_changes_nothing() -> None:
    e = GtpEngine("duo")
    e.handle_line("play b e10,d11,e11,f11,e12")
    before = [str(t) for t in e.game.history]
    for line in ["play b j5", "play w a1", "play w e10", "play w zz99", "play q j5",
                 "play w j5,,j6", "genmove x", "all_legal", "set_random_seed x",
                 "loadsgf /nonexistent/file.blksgf"]:
        assert ask(e, line).startswith("? "), line
        assert [str(t) for t in e.game.history] == before, line


def test_play_genmove_undo_final_score() -> None:
    e = GtpEngine("duo", seed=1)
    assert ask(e, "set_game Blokus Duo") == "=\n\n"
    assert ask(e, "play b e10,d11,e11,f11,e12") == "=\n\n"
    move = ask(e, "genmove w")[2:].strip()
    assert Game("duo").parse_move(move)
    assert len(e.game.move_stack) == 2
    b, w = e.game.scores("cells")
    expected = "0" if b == w else (f"B+{b - w}" if b > w else f"W+{w - b}")
    assert ask(e, "final_score") == f"= {expected}\n\n"
    assert ask(e, "undo") == "=\n\n" and len(e.game.move_stack) == 1
    legal = ask(e, "all_legal w")
    assert legal.startswith("=\n") and len(legal.strip().split("\n")) == 1 + 414


def test_any_integer_is_a_seed() -> None:
    e = GtpEngine("duo", player_factory=lambda s: make_player("level:1", s))
    moves = []
    for _ in range(2):
        assert ask(e, "set_random_seed -1") == "=\n\n"
        answer = ask(e, "genmove b")
        assert answer.startswith("= "), answer
        moves.append(answer)
        assert ask(e, "undo") == "=\n\n"
    assert moves[0] == moves[1]


@pytest.mark.parametrize("variant", ["duo", "classic_2", "classic", "trigon_3"])
def test_final_score_matches_pentobi(variant: str) -> None:
    for start, positions, end in reference_games(variant):
        e = GtpEngine(variant)
        assert ask(e, f"set_game {start['gm']}") == "=\n\n"
        for pos in positions:
            if pos["move"] != "pass":
                assert ask(e, f"play {pos['color'].lower()} {pos['move']}") == "=\n\n"
            else:
                assert ask(e, f"play {pos['color']} pass") == "=\n\n"
        assert ask(e, "final_score") == f"= {end['final_score']}\n\n"
        assert ask(e, f"genmove {start['colors'][0]}") == "= pass\n\n"


def test_colour_names_and_numbers() -> None:
    e = GtpEngine("classic")
    assert ask(e, "play blue a20") == "=\n\n"
    assert ask(e, "play 2 t20") == "=\n\n"
    assert ask(e, "play RED t1") == "=\n\n"
    assert ask(e, "play 1 b19").startswith("? it is Green's turn")


def test_savesgf_loadsgf(tmp_path) -> None:  # type: ignore[no-untyped-def]
    e = GtpEngine("duo")
    e.handle_line("play b e10,d11,e11,f11,e12")
    e.handle_line("play w j5,i6,j6,k6,j7")
    path = tmp_path / "g.blksgf"
    assert ask(e, f"savesgf {path}") == "=\n\n"
    f = GtpEngine("classic")
    assert ask(f, f"loadsgf {path}") == "=\n\n"
    assert f.game.variant.id == "duo" and len(f.game.move_stack) == 2
    assert ask(f, f"loadsgf {path} 2") == "=\n\n" and len(f.game.move_stack) == 1
    assert ask(f, f"loadsgf {path} 0").startswith("? ")
    nowhere = tmp_path / "no-such-dir" / "g.blksgf"
    assert ask(e, f"savesgf {nowhere}") == (
        f"? {nowhere}: cannot write the file: No such file or directory\n\n")
    assert ask(f, f"loadsgf {nowhere}") == (
        f"? {nowhere}: cannot read the file: No such file or directory\n\n")


def test_run_loop_ends_on_quit_and_eof() -> None:
    out = io.StringIO()
    run(GtpEngine("duo"), io.StringIO("name\nquit\nname\n"), out)
    assert out.getvalue() == "= blokus\n\n=\n\n"
    out = io.StringIO()
    run(GtpEngine("duo"), io.StringIO("version"), out)
    assert out.getvalue().startswith("= ")


def test_process_ends_cleanly_at_end_of_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "blokus", "gtp", "--game", "duo", "--level", "1"],
        input="name\nplay b e10,d11,e11,f11,e12\nfinal_score\n", capture_output=True,
        text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "= blokus\n\n=\n\n= B+5\n\n"
    assert "Traceback" not in proc.stderr
