"""A strength ladder: each player against the next, with the match runner.

    python benchmarks/ladder.py --variant duo --games 20 --workers 2 \\
        --players random greedy level:1 level:2 level:3 level:4 level:5

Prints a Markdown table (one row per adjacent pair: games, score rate of the
stronger side with its 95% confidence interval, Elo difference, cumulative Elo
over the first player) and the machine it ran on.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

from blokus.match import elo, format_elo, run_match


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", nargs="+",
                        default=["random", "greedy"] + [f"level:{n}" for n in range(1, 8)])
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="save every game as .blksgf, a folder per pair in DIR")
    args = parser.parse_args()
    print(f"Ladder, {args.variant}: {args.games} games per pair, {args.workers} workers, "
          f"Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs\n")
    print("| weaker | stronger | games | stronger's score | 95% CI | Elo diff | cumulative |")
    print("|---|---|---|---|---|---|---|")
    total = 0.0
    for weak, strong in zip(args.players, args.players[1:], strict=False):
        start = time.monotonic()
        out = None
        if args.out is not None:
            out = args.out / f"{weak}-{strong}".replace(":", "")
        s = run_match(strong, weak, args.variant, args.games, workers=args.workers,
                      out=out, seed=args.seed, progress=sys.stderr)
        lo, hi = s.interval()
        diff = elo(s.score)
        total += diff if not math.isinf(diff) else (800.0 if diff > 0 else -800.0)
        print(f"| {weak} | {strong} | {s.games} | {100 * s.score:.0f}% | "
              f"{100 * lo:.0f}%–{100 * hi:.0f}% | {format_elo(diff)} | {total:+.0f} |"
              f"  <!-- {time.monotonic() - start:.0f} s -->", flush=True)
    print("\nCumulative Elo counts an unbeaten pair as +800.")


if __name__ == "__main__":
    main()
