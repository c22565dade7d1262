"""Where in a game our search loses to Pentobi: Pentobi plays part of our
side's moves, our search the rest.

    python benchmarks/handover.py --engine /path/to/pentobi-gtp --variant classic \\
        --level 5 --seconds 0.028 --plies 0 24 48 --games 200 --workers 2
    python benchmarks/handover.py --engine /path/to/pentobi-gtp --variant classic \\
        --level 5 --seconds 0.0211 --pieces 0-5 5-12 12- --games 400 --workers 1

With ``--plies``, for each N, side A is Pentobi at ``--level`` for the
game's first N plies (every colour's turns count, passes included) and
``mcts:seconds=S`` after.  With ``--pieces``, for each range LO-HI, side A
is ``mcts:seconds=S`` while the colour to move has placed LO to HI - 1
pieces (no HI: to the end) and Pentobi otherwise.  Side B is Pentobi at that
level all game (one thread, no opening book, no resigning).  If A loses as
much with N = 24 as with N = 0, the points are lost after ply 24; if it
stops losing from some N on, they were lost before; a range of pieces in
which A loses as much as our search does all game is where they are lost.
Prints a Markdown table: games, A's wins-draws-losses, mean score difference
and each side's thinking time per move (A's mixes both engines).  Asserts
nothing.  Pentobi is not part of this project: build its engine from its
source and pass its path.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

from pentobi import pentobi_command, print_row  # benchmarks/pentobi.py

from blokus.game import Game
from blokus.match import GtpPlayer, load_player, run_match
from blokus.notation import Move

_ENV = "BLOKUS_HANDOVER"
"""How the worker processes learn the handover: ``kind|lo|hi|engine command|our
spec`` (kind ``plies``: ours from ply ``lo`` on; ``pieces``: ours while the
colour to move has placed ``lo`` to ``hi`` - 1 pieces)."""

_TO_THE_END = 1000
"""``hi`` of a range of pieces without an end (``LO-``)."""


def pieces_label(lo: int, hi: int) -> str:
    """A range of pieces as the table and a player's name show it."""
    return f"pieces {lo}–{hi - 1}" if hi < _TO_THE_END else f"pieces {lo} on"


class HandoverPlayer:
    """``ours`` from ply ``lo`` on (``kind`` "plies"), or while the colour to
    move has placed ``lo`` to ``hi`` - 1 pieces (``kind`` "pieces"); Pentobi
    otherwise."""

    def __init__(self, kind: str, lo: int, hi: int, engine: str, ours: str,
                 seed: int | None) -> None:
        if kind not in ("plies", "pieces"):
            raise ValueError(f"unknown handover {kind!r}")
        self.kind, self.lo, self.hi = kind, lo, hi
        self.engine_command = engine
        self.ours = load_player(ours, seed)
        if kind == "plies":
            self.name = f"pentobi for {lo} plies, then {self.ours.name}"
        else:
            self.name = f"{self.ours.name} for {pieces_label(lo, hi)}, else pentobi"
        self._engine: GtpPlayer | None = None

    def ours_to_move(self, game: Game) -> bool:
        """Whether our search plays the move of ``game``'s colour to move."""
        if self.kind == "plies":
            return game.ply >= self.lo
        assert game.turn is not None
        return self.lo <= game.num_placed(game.turn) < self.hi

    def choose(self, game: Game) -> Move:
        if self.ours_to_move(game):
            return self.ours.choose(game)
        if self._engine is None:
            self._engine = GtpPlayer(self.engine_command)
        return self._engine.choose(game)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()


def player(seed: int | None) -> HandoverPlayer:
    """The ``py:handover:player`` factory the match's workers call."""
    kind, lo, hi, engine, ours = os.environ[_ENV].split("|", 4)
    return HandoverPlayer(kind, int(lo), int(hi), engine, ours, seed)


def piece_range(text: str) -> tuple[int, int]:
    """``LO-HI`` (HI excluded) or ``LO-`` (to the end) as a pair."""
    lo, sep, hi = text.partition("-")
    try:
        if not sep:
            raise ValueError
        pair = int(lo), int(hi) if hi else _TO_THE_END
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write LO-HI or LO-, as 0-5 or 12-") from None
    if not 0 <= pair[0] < pair[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: LO must be at least 0 and below HI")
    return pair


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of pentobi-gtp")
    parser.add_argument("--variant", default="classic",
                        help="a variant id that is also Pentobi's -g name (default: classic)")
    parser.add_argument("--level", type=int, default=5, help="Pentobi's level (default: 5)")
    parser.add_argument("--seconds", type=float, required=True,
                        help="our mcts:seconds where our search plays (Pentobi's time a move)")
    split = parser.add_mutually_exclusive_group()
    split.add_argument("--plies", type=int, nargs="+",
                       help="handovers: Pentobi plays A's first N plies (default: 0 24 48)")
    split.add_argument("--pieces", type=piece_range, nargs="+", metavar="LO-HI",
                       help="our search plays A's moves while the colour has placed LO to "
                            "HI - 1 pieces (12-: from 12 on), Pentobi the others")
    parser.add_argument("--games", type=int, default=100, help="games per handover")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = pentobi_command(args.engine, args.variant, args.level)
    ours = f"mcts:seconds={args.seconds:g}"
    print(f"Handover to {ours} against Pentobi level {args.level}, {args.variant}: "
          f"{args.games} games each, {args.workers} workers, "
          f"Python {platform.python_version()}\n")
    if args.pieces:
        rows = [("pieces", lo, hi, pieces_label(lo, hi)) for lo, hi in args.pieces]
        first = "our search plays A's"
    else:
        rows = [("plies", n, 0, f"{n} plies") for n in args.plies or [0, 24, 48]]
        first = "Pentobi plays A's first"
    print(f"| {first} | games | A's W-D-L | mean score difference A-B "
          "| A's s/move | B's s/move |")
    print("|---|---|---|---|---|---|")
    for kind, lo, hi, label in rows:
        os.environ[_ENV] = f"{kind}|{lo}|{hi}|{engine}|{ours}"
        s = run_match("py:handover:player", f"gtp:{engine}", args.variant, args.games,
                      workers=args.workers, seed=args.seed, progress=sys.stderr)
        print_row(label, s)


if __name__ == "__main__":
    main()
