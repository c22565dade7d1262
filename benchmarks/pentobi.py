"""Our search against Pentobi's GTP engine at equal thinking time.

    python benchmarks/pentobi.py --engine /path/to/pentobi-gtp --variant duo \\
        --levels 5 6 7 --games 40 --workers 2

For each Pentobi level: games of Pentobi against itself, as many at a time as
the match runs (``--workers``), measure its mean time per move T; then
``mcts:seconds=T`` (one thread, T as its mean time per move) plays Pentobi at
that level (one thread, no opening book, no resigning) with the match runner.
Prints a Markdown table: games, our wins-draws-losses, mean score difference,
and the thinking time per move each side actually used.
Asserts nothing.  Pentobi is not part of this project: build its engine from
Pentobi's source (``pentobi-gtp``) and pass its path.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys

from blokus.match import MatchSummary, run_match


def pentobi_command(engine: str, variant: str, level: int, quiet: bool = True) -> str:
    """Pentobi's engine at ``level``: one thread, no opening book, no
    resigning, and (``quiet``) no log."""
    return (f"{shlex.quote(engine)} -g {variant} -l {level} "
            f"--nobook --noresign{' -q' if quiet else ''} --threads 1")


def print_row(first: str, s: MatchSummary) -> None:
    """A Markdown table row: ``first`` (the row's own columns), then games,
    A's wins-draws-losses, mean score difference and each side's time a
    move; the games that ended in an error follow as comments."""
    mine, theirs = s.seconds_per_move()
    print(f"| {first} | {s.games} | {s.wins}-{s.draws}-{s.losses} | "
          f"{s.mean_difference:+.1f} | {mine:.3g} | {theirs:.3g} |", flush=True)
    for error in s.errors:
        print(f"<!-- {error} -->")


def seconds_per_move(command: str, variant: str, workers: int) -> float:
    """Pentobi's mean time per move playing itself, ``workers`` games at a
    time (so that the machine is as loaded as in the match); exits with the
    engine's error if a game cannot be played."""
    spec = f"gtp:{command}"
    games = max(2, workers + workers % 2)
    s = run_match(spec, spec, variant, games, workers=workers)
    if s.errors:
        sys.exit(f"pentobi.py: {s.errors[0]}")
    return sum(s.seconds_per_move()) / 2


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
        seconds = seconds_per_move(command, args.variant, args.workers)
        ours = f"mcts:seconds={seconds:.3g}"
        s = run_match(ours, f"gtp:{command}", args.variant, args.games,
                      workers=args.workers, progress=sys.stderr)
        print_row(f"{ours} | level {level}", s)


if __name__ == "__main__":
    main()
