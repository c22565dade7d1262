"""Matches between players: built-in players and external GTP engines.

``blokus match A B --variant duo --games 100 --workers 2 --out games/`` plays A
against B.  A player is a built-in spec (``random``, ``greedy``, ``level:5``,
``mcts:sims=2000``) or ``gtp:COMMAND`` for an external engine that speaks GTP
as Pentobi does (``gtp:'pentobi-gtp --level 5'``).

Fairness: games come in pairs with the same seed, the second with the seats
swapped.  With more than two seats, A and B take the seats alternately (A, B,
A, B …; with three seats A, B, A and then B, A, B).  A game is won by the
side whose seats have the higher mean score (cells placed + bonus, as Pentobi
counts points; the ranking equals the official advanced scoring); equal means
are a draw.

``blokus tally games/ more-games/`` summarises the records that matches saved,
one run's or several pooled (:func:`tally`).

A match stopped early (Ctrl-C, or ``SIGTERM`` to ``blokus match``) ends with
the summary of the games finished so far; the games in progress are dropped
and their engines stopped (killed when the games ran in this process; with
worker processes, the workers are stopped and an engine ends when its input
closes, after the move it may be searching).
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from blokus.game import Game
from blokus.gtp import final_score
from blokus.notation import Move
from blokus.players import Player, PlayerSpecError, make_player, runs_search
from blokus.variants import Variant, variant

__all__ = [
    "GtpPlayer", "GtpEngineError", "GameResult", "MatchSummary", "load_player",
    "play_game", "record_files", "run_match", "seat_sides", "tally",
]


class GtpEngineError(RuntimeError):
    """An external engine failed: it died, answered an error, or played an illegal move."""


class GtpPlayer:
    """A player backed by an external GTP engine process."""

    def __init__(self, command: str, log: TextIO | None = None) -> None:
        """Start ``command``; what the engine writes to its standard error
        goes to ``log`` (a file), or nowhere."""
        argv = _engine_argv(command)
        self.name = os.path.basename(argv[0])
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if log is None else log, text=True, bufsize=1,
            )
        except OSError as e:
            raise PlayerSpecError(f"cannot start engine {command!r}: {e.strerror}") from None
        self._sent: list[tuple[int, Move]] = []
        self._variant: Variant | None = None
        try:
            self.name = self.send("name", self.setup_timeout) or self.name
        except GtpEngineError:
            if self._proc.poll() is not None:  # it ended or hung
                self._proc.wait()
                raise
            # an engine that only lacks `name` goes on

    #: Seconds an engine has to answer a command that does not search
    #: (``name``, ``set_game``, ``clear_board``, ``play``) before it is
    #: stopped: an engine that hangs fails the match instead of stalling it.
    setup_timeout = 60.0

    #: Seconds an engine has to answer ``genmove`` (None: no limit).  A search
    #: can be long, so there is none by default; ``blokus match
    #: --move-timeout`` sets one, so that an engine hanging in a search loses
    #: its game (ended with an error) instead of stalling the match.
    move_timeout: float | None = None

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command; returns the answer text or raises
        :class:`GtpEngineError`, also when ``timeout`` (seconds) passes
        without an answer, which stops the engine."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            self._proc.stdin.write(command + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise GtpEngineError(f"engine {self.name} is not running") from None
        watchdog = None
        expired = threading.Event()
        if timeout is not None:
            def stop() -> None:
                expired.set()
                self._proc.kill()
            watchdog = threading.Timer(timeout, stop)
            watchdog.start()
        try:
            return self._answer(command)
        except GtpEngineError:
            if expired.is_set():
                raise GtpEngineError(f"engine {self.name} did not answer {command!r} "
                                     f"within {timeout:g} s") from None
            raise
        finally:
            if watchdog is not None:
                watchdog.cancel()

    def _answer(self, command: str) -> str:
        assert self._proc.stdout is not None
        lines: list[str] = []
        while True:
            line = self._proc.stdout.readline()
            if not line:
                raise GtpEngineError(f"engine {self.name} ended while answering {command!r}")
            line = line.rstrip("\r\n")
            if not line and lines:
                break
            if line or lines:
                lines.append(line)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise GtpEngineError(f"engine {self.name}: {command!r} failed: {answer[1:].strip()}")
        if not answer.startswith("="):
            raise GtpEngineError(f"engine {self.name}: malformed answer {answer!r}")
        return answer[1:].strip()

    def sync(self, game: Game) -> None:
        """Bring the engine's board to ``game`` (its variant, then the moves
        it has not been sent)."""
        moves = [(t.color, t.move) for t in game.history if not t.move.is_pass]
        wait = self.setup_timeout
        if game.variant is not self._variant:
            self.send(f"set_game {game.variant.name}", wait)
            self._variant = game.variant
            self._sent = []
            self.send("clear_board", wait)
        if moves[: len(self._sent)] != self._sent:
            self.send("clear_board", wait)
            self._sent = []
        for color, move in moves[len(self._sent):]:
            self.send(f"play {game.colors[color].sgf} {move}", wait)
            self._sent.append((color, move))

    def choose(self, game: Game) -> Move:
        color = game.turn
        if color is None:
            raise ValueError("no legal move: the game is over")
        self.sync(game)
        answer = self.send(f"genmove {game.colors[color].sgf}", self.move_timeout)
        try:
            move = game.parse_move(answer)
        except ValueError as e:
            raise GtpEngineError(f"engine {self.name} answered {answer!r}: {e}") from None
        reason = game.why_illegal(move)
        if reason is not None:
            raise GtpEngineError(f"engine {self.name} played {answer!r}: {reason}")
        self._sent.append((color, move))
        return move

    def kill(self) -> None:
        """Stop the engine at once, in a search or not (a match stopped early)."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self.send("quit", self.setup_timeout)
            except GtpEngineError:
                pass
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()


def _engine_argv(command: str) -> list[str]:
    """The words of an engine command line, checked before it is started:
    raises :class:`PlayerSpecError` if it is empty, does not parse, or names
    a program that is not there."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise PlayerSpecError(f"engine command {command!r}: {e}") from None
    if not argv:
        raise PlayerSpecError("gtp: needs an engine command line")
    if shutil.which(argv[0]) is None:
        raise PlayerSpecError(f"cannot start engine {command!r}: "
                              f"{argv[0]!r} is not an executable program")
    return argv


def _try_engine(command: str, v: Variant) -> None:
    """Start the engine once and set up ``v`` on it, so that an engine that
    dies on its arguments, hangs, or does not play the variant stops a match
    before its first game; raises :class:`PlayerSpecError` with the last line the
    engine wrote to its standard error, if any."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        engine = None
        try:
            engine = GtpPlayer(command, log)
            engine.sync(Game(v.id))
        except GtpEngineError as e:
            log.seek(0)
            said = next((line.strip() for line in reversed(log.readlines()) if line.strip()), "")
            raise PlayerSpecError(f"engine {command!r} failed before the first game of {v.id}: {e}"
                                  + (f" (it said: {said})" if said else "")) from None
        finally:
            if engine is not None:
                engine.close()


def _engine_command(spec: str) -> str:
    """The command line of a ``gtp:COMMAND`` spec (quotes around it dropped)."""
    command = spec[4:].strip()
    if len(command) >= 2 and command[0] == command[-1] and command[0] in "'\"":
        command = command[1:-1]
    return command


def load_player(spec: str, seed: int | None = None) -> Player:
    """A player from a spec; ``gtp:COMMAND`` starts an external engine and
    ``py:MODULE:FUNCTION`` calls ``FUNCTION(seed)`` of an importable module
    (a trained policy, for instance) to make the player."""
    if spec.startswith("py:"):
        module_name, _, function = spec[3:].rpartition(":")
        if not module_name or not function:
            raise PlayerSpecError(f"{spec!r}: write py:MODULE:FUNCTION")
        try:
            module = importlib.import_module(module_name)
            factory = getattr(module, function)
        except (ImportError, AttributeError) as e:
            raise PlayerSpecError(f"{spec!r}: {e}") from None
        player: Player = factory(seed)
        return player
    if spec.startswith("gtp:"):
        return GtpPlayer(_engine_command(spec))
    return make_player(spec, seed)


def seat_sides(num_seats: int, swapped: bool) -> list[int]:
    """Which side (0 = A, 1 = B) takes each seat."""
    return [(i + swapped) % 2 for i in range(num_seats)]


@dataclass
class GameResult:
    index: int
    swapped: bool
    points: tuple[int, ...]
    """Per colour: cells placed + bonus."""
    side_means: tuple[float, float]
    """Mean seat score of A and of B."""
    sgf: str
    moves: int
    error: str | None = None
    thinking: tuple[float, float] = (0.0, 0.0)
    """Seconds A and B spent choosing their moves."""
    side_moves: tuple[int, int] = (0, 0)
    """Moves A and B chose."""
    forfeit: int | None = None
    """The side (0 for A, 1 for B) whose player failed over a move (an
    engine's error, illegal move or move timeout): the game is its loss."""

    @property
    def a_result(self) -> float:
        """1 if A won, 0.5 for a draw, 0 if B won (or forfeited)."""
        if self.forfeit is not None:
            return float(self.forfeit == 1)
        a, b = self.side_means
        return 1.0 if a > b else 0.5 if a == b else 0.0


def _side_means(
    game: Game, points: Sequence[int], sides: Sequence[int]
) -> tuple[float, float]:
    """The mean seat score of A and of B from ``points`` per colour (cells
    placed + bonus), seat ``i`` being side ``sides[i]``'s (a neutral seat
    counts for neither)."""
    sums = [0.0, 0.0]
    counts = [0, 0]
    for i, s in enumerate(game.seating.seats):
        if s.neutral:
            continue
        sums[sides[i]] += sum(points[c] for c in s.colors)
        counts[sides[i]] += 1
    return sums[0] / max(counts[0], 1), sums[1] / max(counts[1], 1)


_ERROR_MARK = "ended by an error: "
"""The start of the ``GC`` of a match record whose game an error ended."""


def play_game(
    specs: tuple[str, str], variant_id: str, index: int, seed: int, seating: str | None = None,
    move_timeout: float | None = None,
) -> GameResult:
    """Play game ``index`` of a match (odd indices have the seats swapped);
    an engine's moves get ``move_timeout`` seconds each, if given."""
    swapped = index % 2 == 1
    game = Game(variant_id, seating)
    sides = seat_sides(len(game.seating.seats), swapped)
    game_seed = seed + index // 2
    players: list[Player] = []
    error = None
    forfeit = None
    thinking = [0.0, 0.0]
    side_moves = [0, 0]
    try:
        players = [load_player(specs[0], game_seed), load_player(specs[1], game_seed + 7919)]
        for p in players:
            if isinstance(p, GtpPlayer):
                p.move_timeout = move_timeout
        while not game.is_game_over():
            seat = game.seat_to_move
            assert seat is not None
            if game.seating.seats[seat].neutral:
                move = make_player("random", game_seed).choose(game)
            else:
                side = sides[seat]
                start = time.perf_counter()
                forfeit = side  # until the move comes back
                move = players[side].choose(game)
                forfeit = None
                thinking[side] += time.perf_counter() - start
                side_moves[side] += 1
            game.push(move)
    except (GtpEngineError, PlayerSpecError, ValueError) as e:
        error = str(e)
    except BaseException:  # stopped early (KeyboardInterrupt): no quit handshake
        for p in players:
            if isinstance(p, GtpPlayer):
                p.kill()
        raise
    finally:
        for p in players:
            close = getattr(p, "close", None)
            if close is not None:
                close()
    points = game.scores("cells")
    means = _side_means(game, points, sides)
    # (PB and PW in two-player variants, classic_2 too; none for a neutral seat)
    names = ["" if s.neutral else specs[sides[i]] for i, s in enumerate(game.seating.seats)]
    from blokus import sgf

    info = {"RE": final_score(game)} if error is None else {"GC": _ERROR_MARK + error}
    return GameResult(index, swapped, points, means, sgf.dumps(game, info, names),
                      len(game.move_stack), error, (thinking[0], thinking[1]),
                      (side_moves[0], side_moves[1]), forfeit)


@dataclass
class MatchSummary:
    """Results from A's point of view."""

    a: str
    b: str
    variant: str
    results: list[GameResult] = field(default_factory=list)
    planned: int | None = None
    """The games the match was to play, when it stopped before them all
    (None: it played them all, or this is a tally of records)."""

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.a_result == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r.a_result == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.results if r.a_result == 0.0)

    @property
    def errors(self) -> list[str]:
        return [f"game {r.index + 1}: {r.error}" for r in self.results if r.error]

    @property
    def score(self) -> float:
        """A's score rate: wins + draws/2 over games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def finished(self) -> list[GameResult]:
        """The games played to their end (not ended by an error)."""
        return [r for r in self.results if not r.error]

    @property
    def mean_difference(self) -> float:
        """Mean of (A's mean seat score - B's) over the finished games: the
        points of a game ended by an error are those of an unfinished board."""
        finished = self.finished
        if not finished:
            return 0.0
        return sum(r.side_means[0] - r.side_means[1] for r in finished) / len(finished)

    def seconds_per_move(self) -> tuple[float, float]:
        """Mean thinking time per move of A and of B."""
        def mean(side: int) -> float:
            moves = sum(r.side_moves[side] for r in self.results)
            return sum(r.thinking[side] for r in self.results) / max(1, moves)

        return mean(0), mean(1)

    def interval(self) -> tuple[float, float]:
        """95% confidence interval of the score rate: the normal
        approximation with the observed per-game variance, clipped to [0, 1];
        when every game had the same result (no variance to observe, as in
        a short match won throughout), Wilson's score interval instead."""
        n = self.games
        if n < 2:
            return 0.0, 1.0
        mean = self.score
        var = sum((r.a_result - mean) ** 2 for r in self.results) / (n - 1)
        z = 1.96
        if var == 0.0:
            centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        else:
            half = z * math.sqrt(var / n)
            centre = mean
        return max(0.0, centre - half), min(1.0, centre + half)

    def report(self, times: bool = True) -> str:
        """The summary in words; ``times=False`` leaves out the thinking
        times (a :func:`tally` of records does not know them)."""
        lo, hi = self.interval()
        played = f"{self.games} games"
        if self.planned is not None:
            played = f"{self.games} of {self.planned} games (stopped early"
            indices = {r.index for r in self.results}
            if any(i ^ 1 not in indices for i in indices):  # (games 2k and 2k + 1 are twins)
                played += "; some games lack their seat-swapped twin"
            played += ")"
        lines = [
            f"{self.a} vs {self.b}, {self.variant}: {played}",
            f"  A wins {self.wins}, draws {self.draws}, losses {self.losses}",
            f"  A score rate {100 * self.score:.1f}% (95% CI {100 * lo:.1f}% .. {100 * hi:.1f}%)",
            f"  Elo difference A-B {format_elo(elo(self.score))} "
            f"(95% CI {format_elo(elo(lo))} .. {format_elo(elo(hi))})",
            f"  mean score difference A-B {self.mean_difference:+.2f} points"
            + (f" (of the {len(self.finished)} finished games)" if self.errors else ""),
        ]
        if times:
            lines.append("  thinking time per move: A {:.3g} s, B {:.3g} s".format(
                *self.seconds_per_move()))
        if self.errors:
            lines.append(f"  {len(self.errors)} games ended by an error (a loss for a side "
                         "whose player failed over a move):")
            lines.extend(f"    {e}" for e in self.errors[:10])
        return "\n".join(lines)


def record_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The files given and every ``.blksgf`` in the folders given (sorted),
    in order; ``ValueError`` for a path that is not there or a folder
    without records."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.glob("*.blksgf"))
            if not found:
                raise ValueError(f"{path}: no .blksgf records in this folder")
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            raise ValueError(f"{path}: no such file or folder")
    return files


def tally(
    paths: Sequence[str | os.PathLike[str]], a: str | Sequence[str] | None = None,
    seating: str | None = None,
) -> tuple[MatchSummary, list[str]]:
    """Summarise the records a match saved (``--out``), of one run or of
    several pooled: the files given and every ``.blksgf`` in the folders
    given, in order.  The two sides are told apart by the players' names in
    the records; A is ``a``, or else the name on the first seat of the first
    record (A's seat in a match's first game).  ``a`` may also be several
    names, to pool runs in which side A was set up differently (say
    ``mcts:seconds=5.8`` and ``mcts:seconds=6.0`` against one engine): every
    game is then between one of them and B, the same player in all.
    Returns the summary (without thinking times, which records do not keep)
    and the records left out: games that an error ended, whose forfeits the
    records do not say.  Raises ``ValueError`` (an ``SgfError`` for a bad
    record) naming the file for a record that is not a finished game between
    the two sides, and for a name of ``a`` that plays in none of them."""
    from blokus import sgf

    a_names = [a] if isinstance(a, str) else list(dict.fromkeys(a or []))  # (once each)
    results: list[GameResult] = []
    left_out: list[str] = []
    b: str | None = None
    seen: set[str] = set()
    v: Variant | None = None
    for path in record_files(paths):
        rec = sgf.load(path, seating)
        if v is None:
            v = rec.variant
        elif rec.variant != v:
            raise ValueError(f"{path}: a game of {rec.variant.name}, not of {v.name} "
                             "as the records before it")
        comment = rec.info.get("GC", "")
        if comment.startswith(_ERROR_MARK):
            left_out.append(f"{path}: {comment}")
            continue
        game = rec.game()
        if not game.is_game_over():
            raise ValueError(f"{path}: the game is not over")
        seats = game.seating.seats
        seat_names: list[str | None] = []
        for s in seats:
            name = None if s.neutral else rec.player_name(s.colors[0])
            if name is None and not s.neutral:
                raise ValueError(f"{path}: a seat without a player's name")
            seat_names.append(name)
        players = {n for n in seat_names if n is not None}
        if not a_names:
            a_names = [str(seat_names[0])]
        ours = players.intersection(a_names)
        if len(players) != 2 or len(ours) != 1 or (b is not None and b not in players):
            wanted = " or ".join(map(repr, a_names))
            other = "one other player" if b is None else repr(b)
            raise ValueError(f"{path}: not a game between {wanted} and {other} "
                             f"(its players: {', '.join(map(repr, sorted(players)))})")
        if b is None:
            b = (players - ours).pop()
        seen |= ours
        sides = [0 if n is None or n in ours else 1 for n in seat_names]
        points = game.scores("cells")
        results.append(GameResult(len(results), sides[0] == 1, points,
                                  _side_means(game, points, sides), "", len(game.move_stack)))
    if v is None:
        raise ValueError("no records given")
    if b is None:
        raise ValueError("every record given is of a game ended by an error")
    missing = [n for n in a_names if n not in seen]
    if missing:
        raise ValueError(f"no game of {' or '.join(map(repr, missing))} among the records")
    return MatchSummary(" or ".join(a_names), b, v.id, results), left_out


def elo(score: float) -> float:
    """Elo difference for a score rate (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


_Job = tuple[tuple[str, str], str, int, int, str | None, float | None]


def _job(args: _Job) -> GameResult:
    return play_game(*args)


def run_match(
    a: str,
    b: str,
    variant_id: str,
    games: int,
    workers: int = 1,
    out: Path | None = None,
    seed: int = 1,
    seating: str | None = None,
    progress: TextIO | None = sys.stderr,
    move_timeout: float | None = None,
) -> MatchSummary:
    """Play ``games`` games (rounded up to an even number) and summarise them.
    Specs are checked before anything starts (an engine's command line must
    parse and name a program that is there, and the engine, started once,
    must accept the variant); raises ``PlayerSpecError``.  With
    ``move_timeout``, an external engine that takes longer than that many
    seconds over a move is stopped and loses its game (ended with an error).
    A ``KeyboardInterrupt`` while the games run stops the match: the summary
    then holds the games finished (``MatchSummary.planned`` says how many
    were to be played) and the games in progress are dropped."""
    v = variant(variant_id)
    warm = None
    for spec in (a, b):
        if spec.startswith("gtp:"):
            _try_engine(_engine_command(spec), v)
        elif runs_search(load_player(spec, 0)):
            warm = v.id
    games += games % 2
    summary = MatchSummary(a, b, v.id)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    jobs = [((a, b), v.id, i, seed, seating, move_timeout) for i in range(games)]
    start = time.monotonic()
    results = _results(jobs, workers, warm)

    def save(result: GameResult) -> None:
        if out is not None:
            (out / f"{v.id}-{result.index + 1:04d}.blksgf").write_text(result.sgf, "utf-8")

    try:
        for result in results:
            summary.results.append(result)
            save(result)
            if progress is not None:
                _progress(progress, summary, games, time.monotonic() - start)
    except KeyboardInterrupt:
        summary.planned = games
        # Every game counted is saved, the one the interrupt may have come
        # between counting and saving included (the others' files are
        # written again, the same).
        for result in summary.results:
            save(result)
    finally:
        results.close()  # (the worker processes, if any, are stopped)
    if progress is not None:
        progress.write("\n")
    summary.results.sort(key=lambda r: r.index)
    return summary


def _warm_up(variant_id: str | None) -> None:
    """Load the compiled search and the variant's tables in this process, so
    that the first game's thinking times do not count them."""
    if variant_id is not None:
        from blokus.players.mcts import warm_up
        warm_up(variant_id)


def _start_worker(variant_id: str | None) -> None:
    """A worker process's start: Ctrl-C stops the match in the main process,
    which then stops the workers (each with a traceback otherwise); then
    :func:`_warm_up`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _warm_up(variant_id)


def _results(
    jobs: list[_Job], workers: int, warm: str | None = None
) -> Generator[GameResult, None, None]:
    """The games' results as they finish; each process that plays them first
    warms up the search in variant ``warm`` (None: not needed)."""
    if workers <= 1:
        _warm_up(warm)
        for job in jobs:
            yield _job(job)
        return
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=_start_worker, initargs=(warm,)) as pool:
        yield from pool.imap_unordered(_job, jobs)


def _progress(stream: TextIO, s: MatchSummary, total: int, elapsed: float) -> None:
    done = s.games
    width = 24
    filled = int(width * done / total)
    bar = "#" * filled + "-" * (width - filled)
    eta = elapsed / done * (total - done) if done else 0.0
    stream.write(
        f"\r[{bar}] {done}/{total}  A {s.wins}-{s.draws}-{s.losses} B  "
        f"({100 * s.score:.0f}%)  {elapsed:.0f}s elapsed, ~{eta:.0f}s left "
    )
    stream.flush()
