"""What a search move costs besides its simulations (prints figures, asserts nothing).

    python benchmarks/move_overhead.py [--repeat N] [--variant ID ...]

For each variant: the mean time of ``MctsPlayer(sims=1).choose`` at positions
after 0, 12 and 24 random moves, a fresh tree each time (the kernel state
built from the game, the tree made or cleared, one simulation, the move
chosen); then the mean over the moves of one colour in random games, as a
player in a game makes them (its kernel state brought up to date with the
moves since its last one).  With a time budget this cost comes on top of
the budget, so at Pentobi's fast levels (about 0.03 s a move in Classic) it
is a share of the time a side spends.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from blokus import Game
from blokus.players.mcts import MctsPlayer


def position(variant: str, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while not game.is_game_over() and game.ply < plies:
        game.push_index(rng.choice(game.legal_moves.indices()))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100, help="moves timed per position")
    parser.add_argument("--variant", nargs="*", default=["duo", "classic", "trigon"])
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"{'variant':>8} {'plies':>5} {'ms a move':>9}")
    for variant in args.variant:
        for plies in (0, 12, 24):
            game = position(variant, plies, seed=plies)
            player = MctsPlayer(sims=1, seed=1)
            player.choose(game)  # compiles or loads the search
            start = time.perf_counter()
            for _ in range(args.repeat):
                player._root_history = None  # no tree reuse: the full cost
                player.choose(game)
            ms = (time.perf_counter() - start) / args.repeat * 1000
            print(f"{variant:>8} {plies:>5} {ms:>9.2f}")
        print(f"{variant:>8} {'game':>5} {in_games(variant, args.repeat):>9.2f}")


def in_games(variant: str, moves: int) -> float:
    """Milliseconds a move of colour 0, over random games (at least
    ``moves`` moves in all), the player's choice timed and a random move
    played instead."""
    player = MctsPlayer(sims=1, seed=1)
    player.choose(Game(variant))  # compiles or loads the search
    rng = random.Random(0)
    spent, timed = 0.0, 0
    while timed < moves:
        game = Game(variant)
        while not game.is_game_over():
            if game.turn == 0 and len(game.legal_moves) > 1:
                start = time.perf_counter()
                player.choose(game)
                spent += time.perf_counter() - start
                timed += 1
            game.push_index(rng.choice(game.legal_moves.indices()))
    return spent / timed * 1000


if __name__ == "__main__":
    main()
