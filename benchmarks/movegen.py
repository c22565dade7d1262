"""Speed of the pure-Python rules core (prints figures, asserts nothing).

    python benchmarks/movegen.py [--seconds S] [--variant ID ...]

For each variant: legal-move generations per second at mid-game positions
(``list(game.legal_moves)``: every legal move as a Move), pushes+pops per
second, and uniformly random complete games per second from the empty board
(through the public API: a uniformly random set bit of
``legal_moves.mask()``, then ``push_index``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import blokus
from blokus import Game
from blokus.game import random_bit


def midgame_positions(variant: str, count: int, plies: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game(variant)
        while not game.is_game_over() and len(game.move_stack) < plies:
            game.push_index(rng.choice(game.legal_moves.indices()))
        if not game.is_game_over():
            out.append(game)
    return out


def rate(fn, seconds: float) -> float:  # type: ignore[no-untyped-def]
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        fn()
        n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def random_game(variant: str, rng: random.Random) -> Game:
    game = Game(variant)
    while game.turn is not None:
        game.push_index(random_bit(game.legal_moves.mask(), rng))
    return game


def bench_variant(variant: str, seconds: float) -> None:
    t0 = time.perf_counter()
    Game(variant)
    build = time.perf_counter() - t0
    plies = {"duo": 10, "junior": 10}.get(variant, 24 if "trigon" in variant else 20)
    positions = midgame_positions(variant, 20, plies, seed=1)
    avg_legal = sum(len(g.legal_moves) for g in positions) / len(positions)
    counter = iter(range(1 << 62))

    def generate() -> None:
        list(positions[next(counter) % len(positions)].legal_moves)

    moves = [(g, g.legal_moves.indices()) for g in positions]
    rng = random.Random(2)

    def push_pop() -> None:
        g, legal = moves[next(counter) % len(moves)]
        g.push_index(rng.choice(legal))
        g.pop()

    gen_rate = rate(generate, seconds)
    pp_rate = rate(push_pop, seconds)
    games_rate = rate(lambda: random_game(variant, rng), seconds)
    print(f"{variant:10} {gen_rate:17,.0f} {avg_legal:10.0f} {pp_rate:11,.0f} "
          f"{games_rate:15,.0f}   (tables built in {build:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--variant", nargs="*", default=["duo", "classic", "trigon"])
    args = parser.parse_args()
    print(f"blokus {blokus.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs")
    print(f"{'variant':10} {'legal-move gen/s':>17} {'legal/pos':>10} {'push+pop/s':>11} "
          f"{'random games/s':>15}")
    for variant in args.variant:
        bench_variant(variant, args.seconds)


if __name__ == "__main__":
    main()
