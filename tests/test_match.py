"""The match runner: fair seating, records, statistics, external GTP engines."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from blokus import sgf
from blokus.cli import main
from blokus.match import (
    GameResult,
    GtpPlayer,
    MatchSummary,
    elo,
    play_game,
    run_match,
    seat_sides,
    tally,
)
from blokus.players import PlayerSpecError


def test_seat_sides_alternate_and_swap() -> None:
    assert seat_sides(2, False) == [0, 1] and seat_sides(2, True) == [1, 0]
    assert seat_sides(4, False) == [0, 1, 0, 1]
    assert seat_sides(3, False) == [0, 1, 0] and seat_sides(3, True) == [1, 0, 1]


def test_statistics() -> None:
    assert elo(0.5) == 0 and math.isinf(elo(1.0)) and elo(0.75) == pytest.approx(190.8, abs=0.1)
    s = MatchSummary("a", "b", "duo")
    assert s.score == 0 and s.interval() == (0.0, 1.0)


def test_a_game_ended_by_an_error_counts_as_a_forfeit_but_not_in_the_points() -> None:
    finished = GameResult(0, False, (60, 50), (60.0, 50.0), "", 30)
    # B's engine failed early, with A 5 points behind on the unfinished board
    failed = GameResult(1, True, (5, 10), (5.0, 10.0), "", 4, error="engine died", forfeit=1)
    s = MatchSummary("a", "b", "duo", [finished, failed])
    assert (s.wins, s.draws, s.losses) == (2, 0, 0)
    assert s.mean_difference == 10.0
    report = s.report()
    assert "mean score difference A-B +10.00 points (of the 1 finished games)" in report
    assert "game 2: engine died" in report
    assert "finished games" not in MatchSummary("a", "b", "duo", [finished]).report()


def test_a_match_won_throughout_has_a_real_interval() -> None:
    won = [GameResult(i, i % 2 == 1, (60, 50), (60.0, 50.0), "", 30) for i in range(4)]
    lo, hi = MatchSummary("a", "b", "duo", won).interval()
    assert hi == pytest.approx(1.0) and lo == pytest.approx(4 / (4 + 1.96 ** 2))
    lost = [GameResult(i, False, (50, 60), (50.0, 60.0), "", 30) for i in range(4)]
    lo, hi = MatchSummary("a", "b", "duo", lost).interval()
    assert lo == pytest.approx(0.0) and hi == pytest.approx(1.96 ** 2 / (4 + 1.96 ** 2))
    # with results that vary, the normal approximation with their variance
    mixed = won[:3] + lost[:1]
    lo, hi = MatchSummary("a", "b", "duo", mixed).interval()
    assert lo == pytest.approx(0.75 - 1.96 * 0.25) and hi == 1.0  # (clipped)


def test_match_against_external_gtp_engine(tmp_path: Path) -> None:
    engine = f"gtp:'{sys.executable} -m blokus gtp --game duo --level 1 --seed 3'"
    summary = run_match("greedy", engine, "duo", 2, out=tmp_path, progress=None)
    assert summary.games == 2 and not summary.errors
    assert summary.wins + summary.draws + summary.losses == 2
    records = sorted(tmp_path.glob("*.blksgf"))
    assert len(records) == 2
    first = sgf.load(records[0])
    second = sgf.load(records[1])
    assert first.info["PB"] == "greedy" and second.info["PW"] == "greedy"
    assert first.game().is_game_over() and second.game().is_game_over()
    # the result written in the record agrees with the replayed game
    game = first.game()
    b, w = game.scores("cells")
    assert first.info["RE"] == ("0" if b == w else f"B+{b - w}" if b > w else f"W+{w - b}")


def test_four_colour_game_sides() -> None:
    result = play_game(("greedy", "random"), "classic", 0, seed=5)
    assert result.error is None
    pts = result.points
    assert result.side_means == ((pts[0] + pts[2]) / 2, (pts[1] + pts[3]) / 2)
    swapped = play_game(("greedy", "random"), "classic", 1, seed=5)
    pts = swapped.points
    assert swapped.side_means == ((pts[1] + pts[3]) / 2, (pts[0] + pts[2]) / 2)
    # each side's thinking time and moves are counted: 4 colours, A and B two each
    assert sum(result.side_moves) == result.moves
    assert all(m > 0 for m in result.side_moves) and all(t > 0 for t in result.thinking)
    s = MatchSummary("greedy", "random", "classic", [result, swapped])
    a, b = s.seconds_per_move()
    moves_a = result.side_moves[0] + swapped.side_moves[0]
    assert a == pytest.approx((result.thinking[0] + swapped.thinking[0]) / moves_a)
    assert "thinking time per move: A" in s.report()


def test_the_search_is_warmed_up_before_any_move_is_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    from blokus.players import mcts

    warmed: list[str] = []
    monkeypatch.setattr(mcts, "warm_up", warmed.append)
    run_match("level:1", "random", "classic_2", 2, progress=None)
    assert warmed == ["classic_2"]
    # nothing to compile for players that do not search
    run_match("greedy", "random", "duo", 2, progress=None)
    assert warmed == ["classic_2"]


@pytest.mark.parametrize(("variant", "games"), [("duo", 4), ("classic_2", 2), ("classic_3", 2)])
def test_tally_of_saved_records_agrees_with_the_match(
    tmp_path: Path, variant: str, games: int
) -> None:
    summary = run_match("greedy", "random", variant, games, out=tmp_path / "a", progress=None)
    pooled, left_out = tally([tmp_path / "a"])
    assert not left_out and (pooled.a, pooled.b, pooled.variant) == ("greedy", "random", variant)
    assert [r.a_result for r in pooled.results] == [r.a_result for r in summary.results]
    assert [r.side_means for r in pooled.results] == [r.side_means for r in summary.results]
    assert [r.swapped for r in pooled.results] == [r.swapped for r in summary.results]
    assert pooled.interval() == summary.interval()
    assert "thinking time" not in pooled.report(times=False)
    # the names as Pentobi reads them: PB and PW with two players, else P1-P4;
    # the fourth colour of Classic for three is no side's
    names = sgf.load(tmp_path / "a" / f"{variant}-0002.blksgf").info
    expected = {"duo": {"PB": "random", "PW": "greedy"},
                "classic_2": {"PB": "random", "PW": "greedy"},
                "classic_3": {"P1": "random", "P2": "greedy", "P3": "random"}}[variant]
    assert {k: v for k, v in names.items() if k in ("PB", "PW", "P1", "P2", "P3", "P4")} == expected
    # pooled with a second run, and seen from the other side
    more = run_match("greedy", "random", variant, 2, out=tmp_path / "b", seed=9, progress=None)
    both, _ = tally([tmp_path / "a", *sorted((tmp_path / "b").glob("*.blksgf"))], a="random")
    assert both.games == games + 2 and (both.a, both.b) == ("random", "greedy")
    assert both.wins == summary.losses + more.losses
    assert both.mean_difference == pytest.approx(
        -(summary.mean_difference * games + more.mean_difference * 2) / (games + 2))


def test_tally_refuses_records_it_cannot_count(tmp_path: Path) -> None:
    run_match("greedy", "random", "duo", 2, out=tmp_path / "duo", progress=None)
    first = tmp_path / "duo" / "duo-0001.blksgf"
    text = first.read_text("utf-8")
    with pytest.raises(ValueError, match="no such file or folder"):
        tally([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no .blksgf records"):
        tally([tmp_path / "empty"])
    with pytest.raises(ValueError, match="not a game between 'level:3'"):
        tally([first], a="level:3")
    third = tmp_path / "third.blksgf"
    third.write_text(text.replace("PW[random]", "PW[level:2]"), "utf-8")
    with pytest.raises(ValueError, match="third.blksgf: not a game between 'greedy' and 'random'"):
        tally([first, third])
    run_match("greedy", "random", "junior", 2, out=tmp_path / "junior", progress=None)
    with pytest.raises(ValueError, match="a game of Blokus Junior, not of Blokus Duo"):
        tally([first, tmp_path / "junior"])
    rec = sgf.load(first)
    rec.main_line()[10].children.clear()
    unfinished = tmp_path / "unfinished.blksgf"
    unfinished.write_text(sgf.dumps_record(rec), "utf-8")
    with pytest.raises(ValueError, match="unfinished.blksgf: the game is not over"):
        tally([unfinished])
    # a game an error ended is left out, and said so
    rec.root.remove("RE")
    rec.root.set("GC", "ended by an error: engine died")
    failed = tmp_path / "failed.blksgf"
    failed.write_text(sgf.dumps_record(rec), "utf-8")
    summary, left_out = tally([first, failed])
    assert summary.games == 1 and left_out == [f"{failed}: ended by an error: engine died"]
    with pytest.raises(ValueError, match="ended by an error"):
        tally([failed])


def test_tally_pools_runs_in_which_a_had_other_names(tmp_path: Path) -> None:
    first = run_match("greedy", "random", "duo", 2, out=tmp_path / "a", progress=None)
    second = run_match("level:1", "random", "duo", 2, out=tmp_path / "b", seed=5,
                       progress=None)
    runs = [tmp_path / "a", tmp_path / "b"]
    with pytest.raises(ValueError, match="b/duo-0001.blksgf: not a game between 'greedy' "
                       "and 'random'"):
        tally(runs)
    both, _ = tally(runs, a=["greedy", "level:1", "greedy"])
    assert (both.a, both.b, both.games) == ("greedy or level:1", "random", 4)
    assert both.wins == first.wins + second.wins
    assert both.losses == first.losses + second.losses
    assert [r.swapped for r in both.results] == [r.swapped for r in first.results + second.results]
    assert both.mean_difference == pytest.approx(
        (first.mean_difference + second.mean_difference) / 2)
    # every name given must play, and B must be the same player throughout
    with pytest.raises(ValueError, match="no game of 'level:2' among the records"):
        tally(runs, a=["greedy", "level:1", "level:2"])
    run_match("level:1", "greedy", "duo", 2, out=tmp_path / "c", progress=None)
    with pytest.raises(ValueError, match="c/duo-0001.blksgf: not a game between 'greedy' or "
                       "'level:1' and 'random'"):
        tally([*runs, tmp_path / "c"], a=["greedy", "level:1"])
    # a game between two of A's names is no game between the sides
    with pytest.raises(ValueError, match="not a game between 'greedy' or 'level:1' and one "
                       "other player"):
        tally([tmp_path / "c"], a=["greedy", "level:1"])


def test_tally_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_match("greedy", "random", "duo", 2, out=tmp_path, progress=None)
    assert main(["tally", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy vs random, duo: 2 games") and "thinking time" not in out
    assert main(["tally", str(tmp_path), "--a", "random", "--a", "greedy"]) == 2
    assert "not a game between 'random' or 'greedy' and one other player" in (
        capsys.readouterr().err)
    assert main(["tally", str(tmp_path / "nothing")]) == 2
    assert "nothing: no such file or folder" in capsys.readouterr().err


def test_engine_errors_are_reported_not_raised() -> None:
    bad = f"gtp:'{sys.executable} -c \"print(1)\"'"
    result = play_game(("greedy", bad), "duo", 0, seed=1)
    assert result.error is not None


def test_bad_specs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PlayerSpecError):
        run_match("greedy", "chess-engine", "duo", 2, progress=None)
    assert main(["match", "greedy", "level:99", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "level" in err


def test_an_engine_that_cannot_start_stops_the_match_before_a_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-such-engine"
    for spec in (f"gtp:{missing} --level 3", "gtp:'engine \"--level'", "gtp:  "):
        with pytest.raises(PlayerSpecError):
            run_match("greedy", spec, "duo", 2, progress=None)
    assert main(["match", "greedy", f"gtp:{missing}", "--games", "2",
                 "--out", str(tmp_path / "games")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-engine" in err
    assert not (tmp_path / "games").exists()


FAKE_ENGINE = """\
import os, sys, time
if "--bad" in sys.argv:
    sys.exit("fake-engine: unknown option --bad")
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "set_game" and "--hang" in sys.argv:
        time.sleep(600)
    if word == "genmove" and "--hang-genmove" in sys.argv:
        if "--mark" in sys.argv:  # (tells a test that it is in a search)
            open(sys.argv[sys.argv.index("--mark") + 1], "w").write(str(os.getpid()))
        time.sleep(600)
    if word == "quit":
        print("=\\n", flush=True)
        break
    if word == "set_game" and "Duo" not in line:
        print("? unknown game\\n", flush=True)
    else:
        print("= fake\\n" if word == "name" else "=\\n", flush=True)
"""


def test_an_engine_that_fails_on_setup_stops_the_match_with_its_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    engine = f"gtp:'{sys.executable} {script}"
    with pytest.raises(PlayerSpecError, match="unknown option --bad"):
        run_match("greedy", engine + " --bad'", "duo", 2, progress=None)
    with pytest.raises(PlayerSpecError, match="before the first game of classic.*unknown game"):
        run_match("greedy", engine + "'", "classic", 2, progress=None)
    assert main(["match", "greedy", engine + " --bad'", "--games", "2",
                 "--out", str(tmp_path / "games")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown option --bad" in err
    assert not (tmp_path / "games").exists()


def test_an_engine_that_hangs_on_setup_is_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    # (The engine's start counts in its first command's time: long enough
    # for a Python interpreter to start on a loaded machine.)
    monkeypatch.setattr(GtpPlayer, "setup_timeout", 3.0)
    with pytest.raises(PlayerSpecError, match="did not answer 'set_game Blokus Duo' within 3 s"):
        run_match("greedy", f"gtp:'{sys.executable} {script} --hang'", "duo", 2, progress=None)


def test_an_engine_that_hangs_in_a_search_is_stopped_with_a_move_timeout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    engine = f"gtp:'{sys.executable} {script} --hang-genmove'"
    assert main(["match", "greedy", engine, "--games", "2", "--move-timeout", "0.5",
                 "--out", str(tmp_path / "games")]) == 0
    out = capsys.readouterr().out
    assert "2 games ended by an error" in out
    assert out.count("did not answer 'genmove ") == 2 and "within 0.5 s" in out
    assert "A wins 2, draws 0, losses 0" in out  # the engine forfeited both
    assert GtpPlayer.move_timeout is None  # only that match's engines had it
    records = [sgf.loads(p.read_text()) for p in sorted((tmp_path / "games").glob("*.blksgf"))]
    assert len(records) == 2
    for record in records:  # unfinished games: no result, but why
        assert "RE" not in record.root
        assert "did not answer 'genmove" in str(record.root.get("GC"))


def _wait_for(check: Callable[[], object], what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"no {what} after {seconds} s"
        time.sleep(0.05)


def _stop_match(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


@pytest.mark.parametrize("workers", [1, 2])
def test_a_match_stopped_early_prints_the_games_finished(tmp_path: Path, workers: int) -> None:
    games = tmp_path / "games"
    proc = subprocess.Popen(
        [sys.executable, "-m", "blokus", "match", "random", "random", "--games", "100000",
         "--workers", str(workers), "--out", str(games)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: len(list(games.glob("*.blksgf"))) >= 3, "finished games")
    rc, out, err = _stop_match(proc)
    assert rc == 130 and "Traceback" not in err
    finished = len(list(games.glob("*.blksgf")))
    assert f"random vs random, duo: {finished} of 100000 games (stopped early" in out
    wins, draws, losses = (int(w.strip(",")) for w in out.split("A wins ")[1].split()[:5:2])
    assert wins + draws + losses == finished
    assert "thinking time per move" in out and f"records in {games}" in out


def test_an_engine_in_a_search_is_stopped_with_the_match(tmp_path: Path) -> None:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    mark = tmp_path / "searching"
    engine = f"gtp:'{sys.executable} {script} --hang-genmove --mark {mark}'"
    proc = subprocess.Popen([sys.executable, "-m", "blokus", "match", "greedy", engine,
                             "--games", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: mark.exists() and mark.read_text(), "genmove sent to the engine")
    pid = int(mark.read_text())
    rc, out, err = _stop_match(proc)
    assert rc == 130 and "Traceback" not in err
    assert "greedy vs " in out and ": 0 of 2 games (stopped early)" in out
    with pytest.raises(ProcessLookupError):  # the engine was stopped (and reaped)
        os.kill(pid, 0)


def test_a_partial_match_names_games_without_their_twin() -> None:
    def result(index: int) -> GameResult:
        return GameResult(index, index % 2 == 1, (50, 40), (50.0, 40.0), "", 30)

    summary = MatchSummary("a", "b", "duo", [result(0), result(1)], planned=10)
    assert "2 of 10 games (stopped early)" in summary.report()
    summary.results.append(result(3))
    assert "3 of 10 games (stopped early; some games lack their seat-swapped twin)" in (
        summary.report())
    assert "stopped early" not in MatchSummary("a", "b", "duo", [result(0)]).report()


def test_match_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "greedy", "--variant", "junior", "--games", "2",
                 "--workers", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "random vs greedy, junior: 2 games" in out and "Elo difference" in out
    assert len(list(tmp_path.glob("*.blksgf"))) == 2


def test_python_player_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_policy.py").write_text(
        "from blokus.players import GreedyPlayer\n"
        "def make(seed):\n"
        "    p = GreedyPlayer(seed)\n"
        "    p.name = 'my-policy'\n"
        "    return p\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    summary = run_match("py:my_policy:make", "random", "duo", 2, progress=None)
    assert summary.games == 2 and not summary.errors and summary.wins == 2
    with pytest.raises(PlayerSpecError):
        run_match("py:no_such_module:make", "random", "duo", 2, progress=None)


@pytest.mark.parametrize("variant", ["classic", "classic_2", "classic_3", "duo", "junior",
                                     "trigon", "trigon_2", "trigon_3"])
def test_gtp_engine_plays_every_variant_to_the_end(variant: str) -> None:
    """A complete game driven over GTP: our engine (a separate process) takes
    every other seat, the match runner is the controller."""
    engine = f"gtp:'{sys.executable} -m blokus gtp --level 2 --seed 1'"
    result = play_game(("greedy", engine), variant, 0, seed=3)
    assert result.error is None
    record = sgf.loads(result.sgf)
    game = record.game()
    assert game.is_game_over() and record.variant.id == variant
    assert game.scores("cells") == result.points
