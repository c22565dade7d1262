"""How many points each player gave away in the last moves of saved games,
found by exact search.

    python benchmarks/endgame.py games/ more-games/ [--nodes 300000] [--list]

For the records of two-sided games (Duo, Junior, Classic and Trigon for
two), walking back from each game's end: the position before each move is
solved exactly (alpha-beta over every legal move to the end of the game, the
value being the first side's score minus the second's under the advanced
rules), and so is the position after the move played; the difference is what
that move gave away.  The walk stops at the first position whose search
needs more than ``--nodes`` positions (in Duo with 300,000 that is the last
4 to 13 plies, 9 in most games).  Prints, per player (by the names in the
records), the positions solved, the moves that gave points away and the
points; ``--list`` also prints every such move.  A move that wins by less
than it could counts as giving points away: the value is the margin, not
only the result.  Asserts nothing; slow (the rules engine, not the kernel):
a Duo record takes 5 to 30 seconds.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import sys
from collections import defaultdict

from blokus import sgf
from blokus.game import Game
from blokus.match import record_files
from blokus.placements import PlacementTable


class _OutOfNodes(Exception):
    pass


def _value(game: Game) -> int:
    """The first side's score minus the second's (advanced scoring)."""
    seats = game.outcome().seat_scores
    return seats[0] - seats[1]


@functools.cache
def _sizes(table: PlacementTable) -> list[int]:
    """Each placement's number of cells, by table index."""
    return [len(m.points) for m in table.moves]


def solve(game: Game, nodes: int) -> int:
    """The exact value (:func:`_value` at the end, both sides playing
    their best) of ``game``'s position; raises ``_OutOfNodes`` past
    ``nodes`` positions.  The first side maximises; larger pieces are tried
    first."""
    left = [nodes]
    size = _sizes(game.table)

    def search(alpha: int, beta: int) -> int:
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfNodes
        if game.is_game_over():
            return _value(game)
        maximise = game.seat_to_move == 0
        best = -10**9 if maximise else 10**9
        for index in sorted(game.legal_moves.indices(), key=lambda i: -size[i]):
            game.push_index(index)
            try:
                v = search(alpha, beta)
            finally:
                game.pop()
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    return search(-10**9, 10**9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", metavar="RECORD_OR_FOLDER",
                        help=".blksgf files, or folders of them")
    parser.add_argument("--nodes", type=int, default=300_000,
                        help="the most positions one exact search may visit (default 300000)")
    parser.add_argument("--list", action="store_true", help="print every move that gave "
                        "points away")
    args = parser.parse_args()
    try:
        files = record_files(args.records)
    except ValueError as e:
        parser.error(str(e))
    solved: dict[str, int] = defaultdict(int)
    errors: dict[str, int] = defaultdict(int)
    given: dict[str, int] = defaultdict(int)
    plies: list[int] = []
    for number, path in enumerate(files, 1):
        rec = sgf.load(path)
        game = rec.game()  # at the end, then taken back a move at a time
        seats = game.seating.seats
        if len(seats) != 2 or any(s.neutral for s in seats):
            parser.error(f"{path}: not a game between two sides")
        moves = game.move_stack
        back = 0
        while back < len(moves):
            move = game.pop()
            side = game.seat_to_move
            assert side is not None
            name = rec.player_name(seats[side].colors[0]) or f"seat {side + 1}"
            try:
                best = solve(game, args.nodes)
                game.push(move)
                played = solve(game, args.nodes)
            except _OutOfNodes:
                break
            game.pop()
            back += 1
            lost = best - played if side == 0 else played - best
            solved[name] += 1
            if lost:
                errors[name] += 1
                given[name] += lost
                if args.list:
                    print(f"{path}: move {len(moves) - back + 1} ({name}) gave away {lost} "
                          f"points (best {best:+d}, played {played:+d} for the first side)")
        plies.append(back)
        print(f"\r{number}/{len(files)} records", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    plies.sort()
    print(f"{len(files)} records; plies solved from the end: {plies[0]} to {plies[-1]}, "
          f"median {plies[len(plies) // 2]} (at most {args.nodes:,} positions a search; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores)")
    print("| player | positions solved | moves that gave points away | points given away |")
    print("|---|---:|---:|---:|")
    for name in sorted(solved):
        print(f"| {name} | {solved[name]} | {errors[name]} | {given[name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
