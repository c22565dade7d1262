"""Where in a game our search loses to Pentobi: Pentobi plays our side's first
N plies, then our search takes over.

    python benchmarks/handover.py --engine /path/to/pentobi-gtp --variant classic \\
        --level 5 --seconds 0.028 --plies 0 24 48 --games 200 --workers 2

For each N, side A is Pentobi at ``--level`` for the game's first N plies
(every colour's turns count, passes included) and ``mcts:seconds=S`` after;
side B is Pentobi at that level all game (one thread, no opening book, no
resigning).  If A loses as much with N = 24 as with N = 0, the points are
lost after ply 24; if it stops losing from some N on, they were lost before.
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
"""How the worker processes learn the handover: ``plies|engine command|our spec``."""


class HandoverPlayer:
    """Pentobi for a game's first ``plies`` plies, then ``ours``."""

    def __init__(self, plies: int, engine: str, ours: str, seed: int | None) -> None:
        self.plies = plies
        self.engine_command = engine
        self.ours = load_player(ours, seed)
        self.name = f"pentobi for {plies} plies, then {self.ours.name}"
        self._engine: GtpPlayer | None = None

    def choose(self, game: Game) -> Move:
        if game.ply >= self.plies:
            return self.ours.choose(game)
        if self._engine is None:
            self._engine = GtpPlayer(self.engine_command)
        return self._engine.choose(game)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()


def player(seed: int | None) -> HandoverPlayer:
    """The ``py:handover:player`` factory the match's workers call."""
    plies, engine, ours = os.environ[_ENV].split("|", 2)
    return HandoverPlayer(int(plies), engine, ours, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of pentobi-gtp")
    parser.add_argument("--variant", default="classic",
                        help="a variant id that is also Pentobi's -g name (default: classic)")
    parser.add_argument("--level", type=int, default=5, help="Pentobi's level (default: 5)")
    parser.add_argument("--seconds", type=float, required=True,
                        help="our mcts:seconds after the handover (Pentobi's time a move)")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 24, 48])
    parser.add_argument("--games", type=int, default=100, help="games per handover")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = pentobi_command(args.engine, args.variant, args.level)
    ours = f"mcts:seconds={args.seconds:g}"
    print(f"Handover to {ours} against Pentobi level {args.level}, {args.variant}: "
          f"{args.games} games each, {args.workers} workers, "
          f"Python {platform.python_version()}\n")
    print("| Pentobi plays A's first | games | A's W-D-L | mean score difference A-B "
          "| A's s/move | B's s/move |")
    print("|---|---|---|---|---|---|")
    for plies in args.plies:
        os.environ[_ENV] = f"{plies}|{engine}|{ours}"
        s = run_match("py:handover:player", f"gtp:{engine}", args.variant, args.games,
                      workers=args.workers, seed=args.seed, progress=sys.stderr)
        print_row(f"{plies} plies", s)


if __name__ == "__main__":
    main()
