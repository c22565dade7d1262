"""Uniformly random complete games per second in the compiled kernel
(prints figures, asserts nothing).

    python benchmarks/kernel.py [--variant ID ...] [--seconds S]

For each variant the games run on one thread, in batches, from the empty
board to the end (every move drawn uniformly among the legal ones, points
counted), for about ``S`` seconds after compilation and table building.
It prints the rate over the whole run and the best batch (the machine's
other work slows some batches down), the pieces placed per game and the
time per move.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from blokus import VARIANTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="variant id (repeat for several; default: all)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per variant (default: 2)")
    args = parser.parse_args(argv)

    try:
        import numba

        from blokus import kernel
    except ImportError as e:
        print(f"the kernel needs numba and numpy: {e}", file=sys.stderr)
        return 1

    print(f"python {platform.python_version()}, numba {numba.__version__}, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    t0 = time.perf_counter()
    kernel.warm_up(background=False)
    print(f"compile or load from cache: {time.perf_counter() - t0:.1f} s\n")
    print(f"{'variant':<10} {'games/s':>9} {'best batch':>11} {'moves/game':>11} "
          f"{'us/move':>8}  tables")
    for variant_id in args.variant or list(VARIANTS):
        t0 = time.perf_counter()
        kernel.tables(variant_id)
        build = time.perf_counter() - t0
        kernel.random_games(variant_id, 20, seed=0)
        batch = 20
        games = moves = 0
        seconds = 0.0
        best = 0.0
        seed = 1
        while seconds < args.seconds:
            r = kernel.random_games(variant_id, batch, seed=seed)
            seed += 1
            games += r.games
            moves += round(r.mean_moves * r.games)
            seconds += r.seconds
            best = max(best, r.games_per_second)
            batch = max(20, int(r.games_per_second * 0.2))  # batches of ~0.2 s
        print(f"{variant_id:<10} {games / seconds:>9.0f} {best:>11.0f} "
              f"{moves / games:>11.1f} {1e6 * seconds / moves:>8.3f}  {build:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
