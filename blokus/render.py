"""Drawings of a position: text for terminals (optionally in ANSI colours) and SVG.

Text
    Square boards are a grid of one glyph per cell, separated by spaces, with
    column letters above and below and row numbers left and right (row 1 at
    the bottom, as in the notation).  Triangle boards draw one character per
    triangle with no separator, which gives the hexagon nearly its true
    proportions; cells off the board are blank.

    ======================  ============================================
    glyph                   meaning
    ======================  ============================================
    ``B Y R G P O``         a cell of Blue, Yellow, Red, Green, Purple,
                            Orange (the colour name's first letter)
    ``b y r g p o``         a cell of the last move (lower case)
    ``+``                   an empty starting cell
    ``.``                   an empty square
    ``^`` / ``v``           an empty triangle pointing up / down
    ======================  ============================================

SVG
    Every cell is one ``<polygon>`` (with ``data-cell="e10"`` and
    ``class="cell"``) drawn from its lattice vertices, so square and triangle
    boards go through the same code; marks (starting cells, last move, attach
    points) are circles and coordinates are ``<text>``.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from blokus.geometry import Board, Cell, Point, TriangleBoard, column_name
from blokus.variants import Color

if TYPE_CHECKING:
    from blokus.game import Game

__all__ = [
    "PALETTE",
    "cells_text",
    "glyph",
    "legend",
    "svg",
    "text",
    "use_color",
]

PALETTE: dict[str, str] = {
    "Blue": "#2f6fd0",
    "Yellow": "#f0c419",
    "Red": "#d64541",
    "Green": "#3a9e4f",
    "Purple": "#8e5cc5",
    "Orange": "#f08a24",
}
"""SVG fill of each colour name."""

_ANSI: dict[str, str] = {
    "Blue": "1;34",
    "Yellow": "1;33",
    "Red": "1;31",
    "Green": "1;32",
    "Purple": "1;35",
    "Orange": "1;38;5;208",
}

_EMPTY_FILL = "#f4f0e6"
_GRID_STROKE = "#b9b09e"
_BACKGROUND = "#e2dbcc"
_LABEL_FILL = "#5d5546"
_NEUTRAL_MARK = "#7d7565"

EMPTY = "."
"""Glyph of an empty square."""
EMPTY_UP = "^"
"""Glyph of an empty triangle pointing up."""
EMPTY_DOWN = "v"
"""Glyph of an empty triangle pointing down."""
START = "+"
"""Glyph of an empty starting cell."""


def glyph(color: Color) -> str:
    """The text glyph of a colour: the first letter of its name, upper case."""
    return color.name[:1].upper() if color.name else str(color.index + 1)


def use_color(stream: TextIO) -> bool:
    """Whether to write ANSI colours to ``stream``.

    ``NO_COLOR`` (any non-empty value) turns colour off; else ``FORCE_COLOR``
    (non-empty, not ``0``) turns it on; else ``TERM=dumb`` turns it off; else
    colour is used iff the stream is a terminal.
    """
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force != "0":
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def _paint(s: str, code: str | None, enabled: bool) -> str:
    if not enabled or not code:
        return s
    return f"\x1b[{code}m{s}\x1b[0m"


def _is_up(board: Board, point: Point) -> bool:
    return isinstance(board, TriangleBoard) and board.is_up(point)


def _empty_glyph(board: Board, point: Point) -> str:
    if board.kind == "square":
        return EMPTY
    return EMPTY_UP if _is_up(board, point) else EMPTY_DOWN


def _grid_lines(
    board: Board,
    chars: Mapping[Point, str],
    columns: range,
    rows: range,
    coordinates: bool,
) -> list[str]:
    """Lay out one visible character per point (``chars`` may hold ANSI codes
    around it); points not in ``chars`` are blank.  Rows are drawn top first."""
    sep = " " if board.kind == "square" else ""
    width = len(str(rows.stop - 1)) if coordinates else 0
    lines: list[str] = []
    header: list[str] = []
    if coordinates:
        names = [column_name(x) for x in columns]
        depth = max(len(n) for n in names)
        for j in range(depth):
            letters = sep.join(n.rjust(depth)[j] for n in names)
            header.append((" " * (width + 1) + letters).rstrip())
    lines.extend(header)
    for row in reversed(rows):
        body = sep.join(chars.get((x, row), " ") for x in columns)
        if coordinates:
            lines.append(f"{row:>{width}} {body} {row}")
        else:
            lines.append(body.rstrip())
    lines.extend(header)
    return lines


def _last_cells(game: Game) -> set[Cell]:
    if not game.move_stack:
        return set()
    board = game.board
    return {board.cell(p) for p in game.peek().points}


def _start_owners(game: Game) -> dict[Cell, int | None]:
    """Each starting cell and the one colour it belongs to (``None`` if shared)."""
    owners: dict[Cell, int | None] = {}
    for color, cells in enumerate(game.variant.starting_cells):
        for c in cells:
            owners[c] = color if c not in owners else None
    return owners


def text(
    game: Game,
    color: bool | None = None,
    coordinates: bool = True,
    last_move: bool = True,
) -> str:
    """The position as text, with a legend line below the board.

    ``color``: ANSI colours on (``True``), off (``False``), or as
    :func:`use_color` decides for ``sys.stdout`` (``None``).
    ``coordinates``: column letters and row numbers around the board.
    ``last_move``: draw the cells of the last move in lower case (and, in
    colour, in reverse video).
    """
    if color is None:
        color = use_color(sys.stdout)
    board = game.board
    colors = game.variant.colors
    last = _last_cells(game) if last_move else set()
    starts = _start_owners(game)
    chars: dict[Point, str] = {}
    for cell, point in enumerate(board.points):
        owner = game.color_at(cell)
        if owner is not None:
            name = colors[owner].name
            g = glyph(colors[owner])
            code = _ANSI.get(name)
            if cell in last:
                g = g.lower()
                code = f"{code};7" if code else "7"
            chars[point] = _paint(g, code, color)
        elif cell in starts:
            start_owner = starts[cell]
            code = _ANSI.get(colors[start_owner].name) if start_owner is not None else None
            chars[point] = _paint(START, code, color)
        else:
            chars[point] = _paint(_empty_glyph(board, point), "2", color)
    lines = _grid_lines(
        board, chars, range(board.width), range(1, board.height + 1), coordinates
    )
    lines.append(legend(game, color))
    return "\n".join(lines)


def legend(game: Game, color: bool = False) -> str:
    """One line: each colour's glyph, the marks, and the colour to move."""
    parts = []
    for c in game.variant.colors:
        parts.append(f"{_paint(glyph(c), _ANSI.get(c.name), color)} {c.name}")
    marks = f"{START} start, lower case: last move"
    turn = game.color_to_move
    status = "game over" if turn is None else f"{turn.name} to move"
    return f"{'  '.join(parts)}  ({marks})  {status}"


def cells_text(board: Board, cells: Iterable[Cell], first: Cell | None = None) -> list[str]:
    """Draw a few cells of ``board`` (a piece) in their bounding box: ``#`` per
    cell, ``@`` for ``first``, empty glyphs elsewhere, no coordinates."""
    points = [board.points[c] for c in cells]
    if not points:
        return []
    xs = range(min(p[0] for p in points), max(p[0] for p in points) + 1)
    rows = range(min(p[1] for p in points), max(p[1] for p in points) + 1)
    marked = set(points)
    first_point = board.points[first] if first is not None else None
    chars: dict[Point, str] = {}
    for row in rows:
        for x in xs:
            p = (x, row)
            if p == first_point:
                chars[p] = "@"
            elif p in marked:
                chars[p] = "#"
            else:
                chars[p] = _empty_glyph(board, p)
    return _grid_lines(board, chars, xs, rows, coordinates=False)


# -- SVG -----------------------------------------------------------------------


def _scale(board: Board) -> tuple[float, float]:
    """Real length of one lattice step in X and in L (cell side = 1)."""
    if board.kind == "triangle":
        return 0.5, math.sqrt(3) / 2
    return 1.0, 1.0


def _fmt(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svg(
    game: Game,
    size: int = 480,
    coordinates: bool = True,
    attach_points: bool = False,
    last_move: bool = True,
) -> str:
    """The position as a self-contained SVG document, ``size`` pixels along
    its longer side.

    One ``<polygon class="cell" data-cell="NAME">`` per board cell, filled
    with :data:`PALETTE` for placed cells; rings on empty starting cells
    (in the owner's colour, grey when shared); a white dot on each cell of the
    last move (``last_move``); a dot of the colour to move's colour on each of
    its attach points (``attach_points``); column letters and row numbers
    (``coordinates``).  Raises ``ValueError`` if ``size`` is not positive.
    """
    if size <= 0:
        raise ValueError(f"SVG size must be positive, not {size}")
    board = game.board
    colors = game.variant.colors
    sx, sy = _scale(board)
    all_x = [v[0] * sx for verts in board.vertices for v in verts]
    all_y = [v[1] * sy for verts in board.vertices for v in verts]
    min_x, max_x, min_y, max_y = min(all_x), max(all_x), min(all_y), max(all_y)
    margin = 1.0 if coordinates else 0.25
    span = max(max_x - min_x, max_y - min_y) + 2 * margin
    k = size / span
    width = (max_x - min_x + 2 * margin) * k
    height = (max_y - min_y + 2 * margin) * k

    def px(x: float) -> float:
        return (x - min_x + margin) * k

    def py(y: float) -> float:
        return (max_y - y + margin) * k

    centers: list[tuple[float, float]] = []
    outlines: list[list[tuple[float, float]]] = []
    for verts in board.vertices:
        pts = [(v[0] * sx, v[1] * sy) for v in verts]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        centers.append((px(cx), py(cy)))
        outlines.append([(px(x), py(y)) for x, y in pts])

    out: list[str] = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
            f'width="{_fmt(width)}" height="{_fmt(height)}" '
            f'viewBox="0 0 {_fmt(width)} {_fmt(height)}">'
        ),
        f"<title>{_escape(game.variant.name)}, move {game.move_number}</title>",
        f'<rect width="{_fmt(width)}" height="{_fmt(height)}" fill="{_BACKGROUND}"/>',
    ]
    stroke = _fmt(max(0.5, k * 0.04))
    for cell, outline in enumerate(outlines):
        owner = game.color_at(cell)
        fill = _EMPTY_FILL if owner is None else PALETTE.get(colors[owner].name, "#888888")
        corners = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in outline)
        out.append(
            f'<polygon class="cell" data-cell="{board.name(cell)}" points="{corners}" '
            f'fill="{fill}" stroke="{_GRID_STROKE}" stroke-width="{stroke}"/>'
        )
    # Inner radius of a cell, for marks: half side for squares, side/(2*sqrt 3) for triangles.
    radius = k * (0.5 if board.kind == "square" else 0.5 / math.sqrt(3))
    occupied = game.occupied
    for cell, owner_color in _start_owners(game).items():
        if occupied >> cell & 1:
            continue
        ring = _NEUTRAL_MARK if owner_color is None else PALETTE.get(
            colors[owner_color].name, _NEUTRAL_MARK
        )
        cx, cy = centers[cell]
        out.append(
            f'<circle class="start" cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(radius * 0.55)}" '
            f'fill="none" stroke="{ring}" stroke-width="{_fmt(radius * 0.18)}"/>'
        )
    if last_move:
        for cell in sorted(_last_cells(game)):
            cx, cy = centers[cell]
            out.append(
                f'<circle class="last-move" cx="{_fmt(cx)}" cy="{_fmt(cy)}" '
                f'r="{_fmt(radius * 0.3)}" fill="#ffffff" fill-opacity="0.85"/>'
            )
    turn = game.turn
    if attach_points and turn is not None:
        dot = PALETTE.get(colors[turn].name, "#888888")
        for cell in board.cells_of(game.attach_points(turn) & ~occupied):
            cx, cy = centers[cell]
            out.append(
                f'<circle class="attach" cx="{_fmt(cx)}" cy="{_fmt(cy)}" '
                f'r="{_fmt(radius * 0.3)}" fill="{dot}" stroke="#ffffff" '
                f'stroke-width="{_fmt(radius * 0.08)}"/>'
            )
    if coordinates:
        out.extend(_svg_labels(board, centers, px(min_x), px(max_x), py(min_y), py(max_y), k))
    out.append("</svg>")
    return "\n".join(out)


def _svg_labels(
    board: Board,
    centers: Sequence[tuple[float, float]],
    left: float,
    right: float,
    bottom: float,
    top: float,
    k: float,
) -> list[str]:
    """Column letters above and below the board, row numbers left and right."""
    column_x: dict[int, list[float]] = {}
    row_y: dict[int, list[float]] = {}
    for cell, (x, row) in enumerate(board.points):
        column_x.setdefault(x, []).append(centers[cell][0])
        row_y.setdefault(row, []).append(centers[cell][1])
    font = k * (0.45 if board.kind == "square" else 0.32)
    style = (
        f'font-family="sans-serif" font-size="{_fmt(font)}" fill="{_LABEL_FILL}" '
        f'text-anchor="middle" dominant-baseline="central"'
    )
    out = [f'<g class="coordinates" {style}>']
    for x, values in sorted(column_x.items()):
        cx = sum(values) / len(values)
        name = column_name(x)
        for y in (top - k * 0.5, bottom + k * 0.5):
            out.append(f'<text x="{_fmt(cx)}" y="{_fmt(y)}">{name}</text>')
    for row, values in sorted(row_y.items()):
        cy = sum(values) / len(values)
        for lx in (left - k * 0.5, right + k * 0.5):
            out.append(f'<text x="{_fmt(lx)}" y="{_fmt(cy)}">{row}</text>')
    out.append("</g>")
    return out
