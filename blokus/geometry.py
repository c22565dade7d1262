"""Boards: the square grid and the triangle grid.

This is the only module that knows squares from triangles.  A board numbers its
on-board cells densely, from 0, in *canonical order* (row ascending, then column
ascending), so that sorting cell indices sorts cells the way move notation
writes them.  Every cell is described by the set of lattice vertices of its
corners; two cells sharing two vertices share an edge, two cells sharing exactly
one vertex touch at a corner only.  Everything else (neighbours, piece shapes,
symmetries) is derived from those vertices, so the rules code never branches on
the board shape.

Coordinates follow Pentobi (see ``docs/notation.md``): a point is
``(x, row)`` with ``x`` the 0-based column and ``row`` counted from 1 at the
bottom; a cell name is column letters (``a`` … ``z``, ``aa`` …) + row number.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

__all__ = [
    "Board",
    "SquareBoard",
    "TriangleBoard",
    "Cell",
    "Point",
    "Vertex",
    "Shape",
    "column_name",
    "parse_point",
    "point_name",
    "square_board",
    "triangle_board",
]

Cell = int
"""Dense index of an on-board cell."""
Point = tuple[int, int]
"""``(x, row)``: 0-based column, row counted from 1 at the bottom."""
Vertex = tuple[int, int]
"""A lattice vertex ``(X, L)`` in the board's integer vertex coordinates."""
Shape = tuple[tuple[Vertex, ...], ...]
"""A normalized set of cells, each given by its sorted vertices; hashable."""

_POINT_RE = re.compile(r"([a-z]+)([0-9]+)")


def column_name(x: int) -> str:
    """Column letters of a 0-based column: ``0 -> 'a'``, ``25 -> 'z'``, ``26 -> 'aa'``."""
    if x < 26:
        return chr(97 + x)
    return column_name(x // 26 - 1) + chr(97 + x % 26)


def point_name(point: Point) -> str:
    """Name of a point: ``(0, 1) -> 'a1'``."""
    return f"{column_name(point[0])}{point[1]}"


def parse_point(name: str) -> Point:
    """Parse a cell name (any case) into a point; raises ``ValueError``."""
    match = _POINT_RE.fullmatch(name.strip().lower())
    if match is None or match.group(2).startswith("0"):
        raise ValueError(f"{name!r} is not a cell name (expected letters + row, like 'e10')")
    x = 0
    for ch in match.group(1):
        x = x * 26 + (ord(ch) - 96)
    return x - 1, int(match.group(2))


class Board:
    """Cells, names, neighbours and symmetries of one board.

    Boards are created through :func:`square_board` and :func:`triangle_board`,
    which cache them; two boards of the same size are the same object.
    """

    kind: str
    """``"square"`` or ``"triangle"``."""
    width: int
    """Number of columns of the bounding box."""
    height: int
    """Number of rows of the bounding box."""
    points: tuple[Point, ...]
    """The point of every cell, by cell index."""
    vertices: tuple[tuple[Vertex, ...], ...]
    """The corner vertices of every cell, sorted."""
    edge_neighbors: tuple[tuple[Cell, ...], ...]
    """Cells sharing an edge with each cell."""
    corner_neighbors: tuple[tuple[Cell, ...], ...]
    """Cells touching each cell at a corner only."""
    edge_masks: tuple[int, ...]
    """``edge_neighbors`` as bitmasks over cells."""
    corner_masks: tuple[int, ...]
    """``corner_neighbors`` as bitmasks over cells."""
    symmetries: tuple[Callable[[Vertex], Vertex], ...]
    """The maps of the lattice onto itself that fix a vertex (rotations, reflections)."""

    def __init__(self, kind: str, width: int, height: int, points: Iterable[Point]) -> None:
        self.kind = kind
        self.width = width
        self.height = height
        self.points = tuple(sorted(points, key=lambda p: (p[1], p[0])))
        self._index = {p: i for i, p in enumerate(self.points)}
        self.vertices = tuple(tuple(sorted(self.point_vertices(p))) for p in self.points)
        self._cell_of_vertices = {v: i for i, v in enumerate(self.vertices)}
        touching: dict[Vertex, list[Cell]] = {}
        for i, verts in enumerate(self.vertices):
            for v in verts:
                touching.setdefault(v, []).append(i)
        edge: list[tuple[Cell, ...]] = []
        corner: list[tuple[Cell, ...]] = []
        for i, verts in enumerate(self.vertices):
            shared: dict[Cell, int] = {}
            for v in verts:
                for j in touching[v]:
                    if j != i:
                        shared[j] = shared.get(j, 0) + 1
            edge.append(tuple(sorted(j for j, n in shared.items() if n >= 2)))
            corner.append(tuple(sorted(j for j, n in shared.items() if n == 1)))
        self.edge_neighbors = tuple(edge)
        self.corner_neighbors = tuple(corner)
        self.edge_masks = tuple(_mask(n) for n in edge)
        self.corner_masks = tuple(_mask(n) for n in corner)
        self.symmetries = self._symmetries()
        self.all_cells_mask = (1 << len(self.points)) - 1

    # -- subclass hooks -------------------------------------------------

    def point_vertices(self, point: Point) -> list[Vertex]:
        """The lattice vertices of the corners of the cell at ``point``."""
        raise NotImplementedError

    def _symmetries(self) -> tuple[Callable[[Vertex], Vertex], ...]:
        raise NotImplementedError

    def _normalize_offset(self, min_x: int, min_l: int, parity: int) -> tuple[int, int]:
        """The lattice translation that moves a shape with these minima to the origin.

        ``parity`` is ``(X + L) % 2`` of the shape's vertices."""
        raise NotImplementedError

    # -- cells and names --------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cells on the board."""
        return len(self.points)

    def __len__(self) -> int:
        return len(self.points)

    def cell(self, point: Point) -> Cell:
        """Index of the cell at ``point``; raises ``ValueError`` if it is off the board."""
        try:
            return self._index[point]
        except KeyError:
            raise ValueError(f"{point_name(point)} is not on the board") from None

    def has_point(self, point: Point) -> bool:
        """Whether ``point`` is on the board."""
        return point in self._index

    def name(self, cell: Cell) -> str:
        """Name of a cell, such as ``"e10"``."""
        return point_name(self.points[cell])

    def parse(self, name: str) -> Cell:
        """Cell index from a name (any case); raises ``ValueError``."""
        return self.cell(parse_point(name))

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of a bitmask, ascending."""
        cells = []
        while mask:
            low = mask & -mask
            cells.append(low.bit_length() - 1)
            mask ^= low
        return cells

    def mask_of(self, cells: Iterable[Cell]) -> int:
        """Bitmask of a collection of cells."""
        return _mask(cells)

    # -- shapes -----------------------------------------------------------

    def normalize(self, cells: Iterable[Sequence[Vertex]]) -> Shape:
        """Translate cells given by their vertices to a canonical position."""
        cells = list(cells)
        min_x = min(v[0] for c in cells for v in c)
        min_l = min(v[1] for c in cells for v in c)
        parity = (cells[0][0][0] + cells[0][0][1]) % 2
        dx, dl = self._normalize_offset(min_x, min_l, parity)
        return tuple(sorted(tuple(sorted((x + dx, y + dl) for x, y in c)) for c in cells))

    def shape(self, cells: Iterable[Cell]) -> Shape:
        """Normalized shape of a set of board cells (translation removed)."""
        return self.normalize(self.vertices[c] for c in cells)

    def art_shape(self, art: Sequence[str]) -> Shape:
        """Normalized shape from a drawing: one string per row, top row first,
        ``X`` for a cell.  On the triangle grid the first character of the top
        row is an upward triangle and they alternate from there."""
        cells = [
            self._art_vertices(x, i)
            for i, line in enumerate(art)
            for x, ch in enumerate(line)
            if ch == "X"
        ]
        if not cells:
            raise ValueError("a shape needs at least one cell")
        return self.normalize(cells)

    def _art_vertices(self, x: int, i: int) -> list[Vertex]:
        raise NotImplementedError

    def orientations(self, shape: Shape) -> list[Shape]:
        """All distinct images of ``shape`` under the board's symmetries."""
        seen: dict[Shape, None] = {}
        for sym in self.symmetries:
            seen.setdefault(self.normalize([sym(v) for v in c] for c in shape), None)
        return list(seen)

    def placements_of(self, shape: Shape) -> list[tuple[Cell, ...]]:
        """Every position of ``shape`` (one orientation) on the board, as sorted cells."""
        # Try every translation that takes the shape's first vertex onto the
        # first vertex of some cell; on the triangle grid one translation can
        # be found from two cells, hence the dictionary.
        anchor = shape[0][0]
        result: dict[tuple[Cell, ...], None] = {}
        for verts in self.vertices:
            dx, dl = verts[0][0] - anchor[0], verts[0][1] - anchor[1]
            cells = []
            for c in shape:
                key = tuple((x + dx, y + dl) for x, y in c)
                cell = self._cell_of_vertices.get(key)
                if cell is None:
                    break
                cells.append(cell)
            else:
                result[tuple(sorted(cells))] = None
        return list(result)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.width}x{self.height}, {self.size} cells>"


class SquareBoard(Board):
    """A rectangle of squares; ``(x, row)`` has corners ``(x, row-1)`` … ``(x+1, row)``."""

    def __init__(self, width: int, height: int) -> None:
        points = [(x, row) for row in range(1, height + 1) for x in range(width)]
        super().__init__("square", width, height, points)

    def point_vertices(self, point: Point) -> list[Vertex]:
        x, row = point
        return [(x, row - 1), (x + 1, row - 1), (x, row), (x + 1, row)]

    def _art_vertices(self, x: int, i: int) -> list[Vertex]:
        return [(x, -i - 1), (x + 1, -i - 1), (x, -i), (x + 1, -i)]

    def _symmetries(self) -> tuple[Callable[[Vertex], Vertex], ...]:
        return (
            lambda v: (v[0], v[1]),
            lambda v: (-v[1], v[0]),
            lambda v: (-v[0], -v[1]),
            lambda v: (v[1], -v[0]),
            lambda v: (-v[0], v[1]),
            lambda v: (v[1], v[0]),
            lambda v: (v[0], -v[1]),
            lambda v: (-v[1], -v[0]),
        )

    def _normalize_offset(self, min_x: int, min_l: int, parity: int) -> tuple[int, int]:
        return -min_x, -min_l

    def __repr__(self) -> str:
        return f"square_board({self.width}, {self.height})"


class TriangleBoard(Board):
    """A hexagon of triangles with ``edge`` triangles per side (Pentobi's layout).

    The hexagon sits in a box of ``4*edge - 1`` columns and ``2*edge`` rows.
    Vertices are ``(X, L)``: ``L`` the horizontal line (0 = bottom edge of row 1)
    and ``X`` in half side lengths, so neighbouring triangles of a row step by one.
    A vertex lies on the lattice iff ``X + L + edge`` is even.
    """

    def __init__(self, edge: int) -> None:
        self.edge = edge
        width, height = 4 * edge - 1, 2 * edge
        points = []
        for row in range(1, height + 1):
            y = height - row
            d = min(y, height - 1 - y)
            for x in range(width):
                if edge - 1 - d <= x <= 3 * edge - 1 + d:
                    points.append((x, row))
        super().__init__("triangle", width, height, points)

    def is_up(self, point: Point) -> bool:
        """Whether the triangle at ``point`` points up (its base at the bottom)."""
        x, row = point
        return (x + row + self.edge) % 2 == 1

    def point_vertices(self, point: Point) -> list[Vertex]:
        x, row = point
        if self.is_up(point):
            return [(x, row - 1), (x + 2, row - 1), (x + 1, row)]
        return [(x, row), (x + 2, row), (x + 1, row - 1)]

    def _art_vertices(self, x: int, i: int) -> list[Vertex]:
        if (x + i) % 2 == 0:
            return [(x, -i - 1), (x + 2, -i - 1), (x + 1, -i)]
        return [(x, -i), (x + 2, -i), (x + 1, -i - 1)]

    def _symmetries(self) -> tuple[Callable[[Vertex], Vertex], ...]:
        # A rotation by 60 degrees about the origin in (X, L) coordinates, where
        # the real position is (X/2, L*sqrt(3)/2): X' = (X - 3L)/2, L' = (X + L)/2.
        # Shapes are normalized so that X + L is even, which keeps these integral.
        def rotate(v: Vertex) -> Vertex:
            return (v[0] - 3 * v[1]) // 2, (v[0] + v[1]) // 2

        maps: list[Callable[[Vertex], Vertex]] = []
        for turns in range(6):
            for mirror in (False, True):
                maps.append(functools.partial(_turn, rotate, turns, mirror))
        return tuple(maps)

    def _normalize_offset(self, min_x: int, min_l: int, parity: int) -> tuple[int, int]:
        # Move the lowest line to 0 and the leftmost vertex to X = 0 or 1,
        # keeping X + L even so that the symmetries stay integral.
        dl = -min_l
        dx = -min_x
        if (parity + dx + dl) % 2:
            dx += 1
        return dx, dl

    def __repr__(self) -> str:
        return f"triangle_board({self.edge})"


def _turn(rotate: Callable[[Vertex], Vertex], turns: int, mirror: bool, v: Vertex) -> Vertex:
    if mirror:
        v = (-v[0], v[1])
    for _ in range(turns):
        v = rotate(v)
    return v


def _mask(cells: Iterable[int]) -> int:
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


@functools.cache
def square_board(width: int, height: int) -> SquareBoard:
    """The square board of this size (cached)."""
    return SquareBoard(width, height)


@functools.cache
def triangle_board(edge: int) -> TriangleBoard:
    """The hexagonal triangle board with this edge length (cached)."""
    return TriangleBoard(edge)
