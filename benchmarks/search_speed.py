"""Microseconds a simulation of our search from positions of recorded games.

    python benchmarks/search_speed.py --variant duo --plies 0 8 20 --sims 20000 --repeat 5

The positions are those before ply N of the first game of the variant in
``tools/data/pentobi-selfplay.tar.gz`` (Pentobi playing itself; ``--record``
picks another).  At each, a new ``MctsPlayer`` (one thread, seed 1) runs
``--sims`` simulations, ``--repeat`` times, after a first search of 300
simulations from the position that is not timed (numba's loading); prints
the move chosen, the nodes of the tree and the fastest time a simulation.
The same search gives the same move and tree size, whatever its speed: a
change meant to make the search faster without changing it is checked by
comparing those two columns.  With ``--seconds S``, a search with that
time budget instead (as ``mcts:seconds=S`` plays, less its early stop),
``--repeat`` times with seeds 0, 1, …: the median of the simulations it
ran and of its time.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from phase_speed import records  # benchmarks/phase_speed.py

from blokus.game import Game
from blokus.players.mcts import MctsPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 8, 20])
    parser.add_argument("--sims", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--record", type=int, default=0,
                        help="which record of the variant (0: the first)")
    parser.add_argument("--seconds", type=float,
                        help="time a search with this budget instead")
    args = parser.parse_args()
    record = records(args.variant, args.record + 1)[args.record]
    if args.seconds is None:
        heading = f"{args.sims} simulations, the fastest of {args.repeat}"
        columns = ("move", "tree nodes", "µs a simulation")
    else:
        heading = f"{args.seconds} s a move, the median of {args.repeat}"
        columns = ("simulations", "seconds")
    print(f"{platform.processor() or platform.machine()}, {args.variant}, record "
          f"{args.record}, {heading}")
    print("| ply | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for ply in args.plies:
        game = record.game(ply)
        MctsPlayer(sims=300, seed=1, threads=1).choose(game)  # (loads the search)
        row = by_sims(args, game) if args.seconds is None else by_time(args, game)
        print(f"| {ply} | " + " | ".join(row) + " |")


def by_sims(args: argparse.Namespace, game: Game) -> list[str]:
    """The move, tree size and fastest µs a simulation of ``--sims`` simulations."""
    best = float("inf")
    for _ in range(args.repeat):
        player = MctsPlayer(sims=args.sims, seed=1, threads=1)
        start = time.perf_counter()
        move = player.choose(game)
        best = min(best, (time.perf_counter() - start) / args.sims * 1e6)
    return [str(move), str(int(player._trees[0].size[0])), f"{best:.2f}"]


def by_time(args: argparse.Namespace, game: Game) -> list[str]:
    """The median simulations and seconds of a search of ``--seconds``."""
    sims, seconds = [], []
    for seed in range(args.repeat):
        player = MctsPlayer(sims=None, seconds=args.seconds, seed=seed, threads=1,
                            stop_early=False)
        start = time.perf_counter()
        player.choose(game)
        seconds.append(time.perf_counter() - start)
        sims.append(player.last_sims)
    return [f"{statistics.median(sims):.0f}", f"{statistics.median(seconds):.4f}"]

if __name__ == "__main__":
    main()
