"""A deliberately simple, independent statement of the placement rule.

Written from RULES.md alone (sections 1, 3 and 4), with sets of ``(x, row)``
points and explicit neighbour formulas; it shares no code with the package
except piece identification, so the tests can check the fast bitmask engine
against it.
"""

from __future__ import annotations

Point = tuple[int, int]

CLASSIC_STARTS = {0: {(0, 20)}, 1: {(19, 20)}, 2: {(19, 1)}, 3: {(0, 1)}}
DUO_STARTS = {0: {(4, 10)}, 1: {(9, 5)}}


def _pts(names: str) -> set[Point]:
    out = set()
    for n in names.split():
        col, row = n.rstrip("0123456789"), n[len(n.rstrip("0123456789")):]
        x = 0
        for ch in col:
            x = x * 26 + ord(ch) - 96
        out.add((x - 1, int(row)))
    return out


TRIGON9_STARTS = _pts("r15 r4 j12 j7 z12 z7")
TRIGON8_STARTS = _pts("p14 p3 h11 h6 x11 x6")


class SimpleBoard:
    """On-board test and neighbours by the formulas of RULES.md section 4."""

    def __init__(self, kind: str, size: int) -> None:
        self.kind, self.size = kind, size  # size: width of square board, or hexagon edge

    def on_board(self, p: Point) -> bool:
        x, row = p
        if self.kind == "square":
            return 0 <= x < self.size and 1 <= row <= self.size
        s = self.size
        if not 1 <= row <= 2 * s:
            return False
        y = 2 * s - row
        d = min(y, 2 * s - 1 - y)
        return s - 1 - d <= x <= 3 * s - 1 + d

    def up(self, p: Point) -> bool:
        return (p[0] + p[1] + self.size) % 2 == 1

    def edge(self, p: Point) -> set[Point]:
        x, row = p
        if self.kind == "square":
            cand = {(x - 1, row), (x + 1, row), (x, row - 1), (x, row + 1)}
        elif self.up(p):
            cand = {(x - 1, row), (x + 1, row), (x, row - 1)}
        else:
            cand = {(x - 1, row), (x + 1, row), (x, row + 1)}
        return {q for q in cand if self.on_board(q)}

    def corner(self, p: Point) -> set[Point]:
        x, row = p
        if self.kind == "square":
            cand = {(x + dx, row + dy) for dx in (-1, 1) for dy in (-1, 1)}
        else:
            # An up triangle touches, at a vertex only: x-2 and x+2 in its row,
            # four triangles of the row below (not the one under its base), and
            # three of the row above (at its apex).  A down one mirrored.
            base, apex = (row - 1, row + 1) if self.up(p) else (row + 1, row - 1)
            cand = {(x - 2, row), (x + 2, row)}
            cand |= {(x + dx, base) for dx in (-2, -1, 1, 2)}
            cand |= {(x + dx, apex) for dx in (-1, 0, 1)}
        return {q for q in cand if self.on_board(q)}


def simple_board(variant_id: str) -> SimpleBoard:
    if variant_id.startswith("trigon"):
        return SimpleBoard("triangle", 8 if variant_id == "trigon_3" else 9)
    return SimpleBoard("square", 14 if variant_id in ("duo", "junior") else 20)


def starts(variant_id: str, color: int) -> set[Point]:
    if variant_id.startswith("trigon"):
        return TRIGON8_STARTS if variant_id == "trigon_3" else TRIGON9_STARTS
    if variant_id in ("duo", "junior"):
        return DUO_STARTS[color]
    return CLASSIC_STARTS[color]


def simple_is_legal(
    variant_id: str,
    owner: dict[Point, int],
    color: int,
    placed_before: bool,
    piece_available: bool,
    cells: set[Point],
) -> bool:
    """Whether ``color`` may cover ``cells`` (a piece shape) given the board
    ``owner`` (point -> colour); ``placed_before``: the colour has a piece on
    the board; ``piece_available``: it still owns a piece of this shape."""
    board = simple_board(variant_id)
    if not piece_available:
        return False
    if not all(board.on_board(p) for p in cells):
        return False
    if any(p in owner for p in cells):
        return False
    if any(owner.get(q) == color for p in cells for q in board.edge(p)):
        return False
    if not placed_before:
        return bool(cells & starts(variant_id, color))
    return any(owner.get(q) == color for p in cells for q in board.corner(p))
