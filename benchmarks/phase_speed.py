"""How fast our search and Pentobi's run, by phase of the game.

    python benchmarks/phase_speed.py --engine /path/to/pentobi-gtp --variant classic \\
        --level 5 --plies 0 20 40 60 72 --positions 4

The positions are those before ply N of the first ``--positions`` games of
the variant in ``tools/data/pentobi-selfplay.tar.gz`` (Pentobi playing
itself).  At each, a fresh Pentobi process (one thread, no opening book) is
given the game's moves and times one ``genmove`` at ``--level``, after a
first search at the empty board that is not timed and not kept (so that its
start-up costs are left out); its log says how many simulations it ran.
Then our search runs the same number of simulations from the same position,
a new ``MctsPlayer`` (one thread) after a first move of its own at the empty
board, timed the same way: the time of the whole move.  Prints a Markdown
table of the means.  Asserts nothing.  Pentobi is not part of this
project: build its engine from Pentobi's source and pass its path.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from pentobi import pentobi_command  # benchmarks/pentobi.py

from blokus import sgf
from blokus.game import Game
from blokus.match import GtpEngineError, GtpPlayer
from blokus.players import PlayerSpecError
from blokus.players.mcts import MctsPlayer

RECORDS = Path(__file__).resolve().parent.parent / "tools" / "data" / "pentobi-selfplay.tar.gz"


def records(variant: str, count: int) -> list[sgf.GameRecord]:
    """The first ``count`` records of ``variant`` in the self-play archive."""
    with tarfile.open(RECORDS) as archive:
        members = sorted((m for m in archive.getmembers()
                          if m.name.startswith(f"{variant}/") and m.name.endswith(".blksgf")),
                         key=lambda m: m.name)[:count]
        if not members:
            sys.exit(f"phase_speed.py: no {variant} records in {RECORDS}")
        return [sgf.loads(archive.extractfile(m).read())  # type: ignore[union-attr]
                for m in members]


def pentobi_move(engine: str, level: int, game: Game) -> tuple[int, float]:
    """Pentobi's simulations and seconds for one move at ``game``."""
    with tempfile.TemporaryFile("w+") as log:
        try:
            pentobi = GtpPlayer(pentobi_command(engine, game.variant.id, level, quiet=False),
                                log=log)
        except PlayerSpecError as e:
            sys.exit(f"phase_speed.py: {e}")
        try:
            # A first search, not timed, at the empty board, and none of it kept.
            pentobi.sync(Game(game.variant.id))
            pentobi.send("param reuse_subtree 0")
            pentobi.send(f"reg_genmove {game.colors[0].sgf}")
            pentobi.sync(game)
            start = time.perf_counter()
            pentobi.send(f"genmove {game.colors[game.turn or 0].sgf}")
            seconds = time.perf_counter() - start
        except GtpEngineError as e:
            sys.exit(f"phase_speed.py: {e}")
        finally:
            pentobi.close()
        log.seek(0)
        found = re.findall(r"\bSim (\d+)", log.read())
    if not found:
        sys.exit("phase_speed.py: Pentobi's log gives no simulation count")
    return int(found[-1]), seconds


def our_move(game: Game, sims: int) -> float:
    """Our seconds for ``sims`` simulations at ``game``: a new player's
    second move (its first, not timed, at the empty board, or after one
    move when ``game`` is the empty board: nothing of its tree is reused)."""
    player = MctsPlayer(sims=sims, seed=1)
    first = Game(game.variant.id)
    if not game.history:
        first.push_index(first.legal_moves.indices()[0])
    player.choose(first)
    start = time.perf_counter()
    player.choose(game)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of pentobi-gtp")
    parser.add_argument("--variant", default="classic",
                        help="duo, classic or trigon, the archive's variants (default: classic)")
    parser.add_argument("--level", type=int, default=5, help="Pentobi's level (default: 5)")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 20, 40, 60],
                        help="the plies of the positions (default: 0 20 40 60)")
    parser.add_argument("--positions", type=int, default=4,
                        help="records, so positions per ply (default: 4)")
    args = parser.parse_args()
    if args.positions < 1 or min(args.plies) < 0:
        parser.error("--positions must be at least 1 and the plies at least 0")
    games = records(args.variant, args.positions)
    MctsPlayer(sims=10, seed=1).choose(games[0].game(0))  # compiled before timing
    print(f"Simulations per second by ply, {args.variant}, Pentobi level {args.level}, "
          f"one thread each, Python {platform.python_version()}\n")
    print("| ply | positions | Pentobi's simulations | Pentobi s/move | Pentobi sims/s "
          "| our s/move (same simulations) | our sims/s |")
    print("|---|---|---|---|---|---|---|")
    for ply in args.plies:
        positions = [r.game(ply) for r in games if r.num_moves > ply]
        positions = [g for g in positions if g.turn is not None]
        if not positions:
            print(f"| {ply} | 0 | | | | | |")
            continue
        sims = theirs = ours = 0.0
        for game in positions:
            n, seconds = pentobi_move(args.engine, args.level, game)
            sims += n
            theirs += seconds
            ours += our_move(game, n)
        k = len(positions)
        print(f"| {ply} | {k} | {sims / k:,.0f} | {theirs / k:.4f} | {sims / theirs:,.0f} "
              f"| {ours / k:.4f} | {sims / ours:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
