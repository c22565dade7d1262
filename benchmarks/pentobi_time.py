"""Pentobi's thinking time a move at one level, over whole games.

    python benchmarks/pentobi_time.py --engine /path/to/pentobi-gtp \\
        --variant duo --level 9 --games 1

Plays Pentobi's engine against itself as a match does (one process a side,
each keeping its own tree; one thread, no opening book, no resigning) and
prints, per game and over all games, the mean time a move and its profile
by the number of pieces the colour to move had placed (in ranges of three),
as shares of that mean; ``--moves N`` times only the first N moves of a
game (for the slowest levels).  The figure to give ``mcts:seconds=T`` or a
level for equal thinking time.  Asserts nothing.  Pentobi is not part of this
project: build its engine from Pentobi's source and pass its path.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import defaultdict

from pentobi import pentobi_command  # benchmarks/pentobi.py

from blokus.game import Game
from blokus.match import GtpEngineError, GtpPlayer
from blokus.players import PlayerSpecError
from blokus.variants import VARIANTS


def play(command: str, variant: str, times: dict[int, list[float]],
         limit: int | None) -> tuple[float, int]:
    """One game of two engine processes (its first ``limit`` moves, or all);
    adds each move's time to ``times[pieces placed]``; returns the seconds
    and moves."""
    game = Game(variant)
    sides = [GtpPlayer(command), GtpPlayer(command)]
    total, moves = 0.0, 0
    try:
        while not game.is_game_over() and moves != limit:
            seat = game.seat_to_move
            color = game.turn
            assert seat is not None and color is not None
            placed = game.num_placed(color)
            start = time.perf_counter()
            move = sides[seat % 2].choose(game)
            spent = time.perf_counter() - start
            game.push(move)
            times[placed].append(spent)
            total += spent
            moves += 1
            print(f"  move {moves}: {spent:.2f} s", file=sys.stderr, flush=True)
    finally:
        for side in sides:
            side.close()
    return total, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of pentobi-gtp")
    parser.add_argument("--variant", default="duo", choices=list(VARIANTS),
                        help="a variant id that is also Pentobi's -g name (default: duo)")
    parser.add_argument("--level", type=int, default=9, help="Pentobi's level (default: 9)")
    parser.add_argument("--games", type=int, default=1, help="games (default: 1)")
    parser.add_argument("--moves", type=int, default=None,
                        help="only the first N moves of each game (default: all)")
    args = parser.parse_args()
    if not 1 <= args.level <= 9 or args.games < 1 or (args.moves or 1) < 1:
        parser.error("the level must be 1 to 9, the games and moves at least 1")
    command = pentobi_command(args.engine, args.variant, args.level)
    print(f"Pentobi level {args.level} against itself, {args.variant}, "
          f"Python {platform.python_version()}, {platform.machine()}")
    times: dict[int, list[float]] = defaultdict(list)
    all_seconds, all_moves = 0.0, 0
    for index in range(args.games):
        try:
            seconds, moves = play(command, args.variant, times, args.moves)
        except (GtpEngineError, PlayerSpecError) as e:
            sys.exit(f"pentobi_time.py: {e}")
        all_seconds += seconds
        all_moves += moves
        print(f"game {index + 1}: {moves} moves, {seconds / moves:.2f} s a move", flush=True)
    mean = all_seconds / all_moves
    print(f"all: {all_moves} moves, {mean:.2f} s a move")
    print("| pieces placed | moves | s/move | share of the mean |")
    print("|---|---:|---:|---:|")
    top = max(times)
    for first in range(0, top + 1, 3):
        spent = [s for i in range(first, first + 3) for s in times.get(i, [])]
        if spent:
            average = sum(spent) / len(spent)
            print(f"| {first}–{min(first + 2, top)} | {len(spent)} | {average:.2f} "
                  f"| {average / mean:.2f} |")


if __name__ == "__main__":
    main()
