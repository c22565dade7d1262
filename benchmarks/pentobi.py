"""Our search against Pentobi's GTP engine at equal thinking time.

    python benchmarks/pentobi.py --engine /path/to/pentobi-gtp --variant duo \\
        --levels 5 6 7 --games 40 --workers 2

For each Pentobi level: one game of Pentobi against itself, alone, measures its
mean time per move; then ``mcts:seconds=T`` (one thread, T that time as its
mean time per move) plays
Pentobi at that level (one thread, no opening book, no resigning) with the
match runner.  Prints a Markdown table: games, our wins-draws-losses, mean
score difference, and the thinking time per move each side actually used.
Asserts nothing.  Pentobi is not part of this project: build its engine from
Pentobi's source (``pentobi-gtp``) and pass its path.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys

from blokus.match import play_game, run_match


def pentobi_command(engine: str, variant: str, level: int) -> str:
    return (f"{shlex.quote(engine)} -g {variant} -l {level} "
            "--nobook --noresign -q --threads 1")


def seconds_per_move(command: str, variant: str) -> float:
    """Pentobi's mean time per move in one game against itself; exits with
    the engine's error if the game cannot be played."""
    spec = f"gtp:{command}"
    result = play_game((spec, spec), variant, 0, seed=1)
    if result.error is not None:
        sys.exit(f"pentobi.py: {result.error}")
    return sum(result.thinking) / max(1, sum(result.side_moves))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of pentobi-gtp")
    parser.add_argument("--variant", default="duo",
                        help="a variant id that is also Pentobi's -g name (default: duo)")
    parser.add_argument("--levels", type=int, nargs="+", default=[5, 6, 7])
    parser.add_argument("--games", type=int, default=20, help="games per level")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"Against Pentobi, {args.variant}: {args.games} games per level, "
          f"{args.workers} workers, Python {platform.python_version()}\n")
    print("| ours | Pentobi | games | our W-D-L | mean score difference "
          "| our s/move | Pentobi's s/move |")
    print("|---|---|---|---|---|---|---|")
    for level in args.levels:
        command = pentobi_command(args.engine, args.variant, level)
        seconds = seconds_per_move(command, args.variant)
        ours = f"mcts:seconds={seconds:.3g}"
        s = run_match(ours, f"gtp:{command}", args.variant, args.games,
                      workers=args.workers, progress=sys.stderr)
        mine, theirs = s.seconds_per_move()
        print(f"| {ours} | level {level} | {s.games} | {s.wins}-{s.draws}-{s.losses} | "
              f"{s.mean_difference:+.1f} | {mine:.3f} | {theirs:.3f} |", flush=True)
        for error in s.errors:
            print(f"<!-- {error} -->")


if __name__ == "__main__":
    main()
