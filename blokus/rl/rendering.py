"""Drawing a position for the environments: text (``"ansi"``) and an RGB image
(``"rgb_array"``), with numpy only."""

from __future__ import annotations

import functools
import math

import numpy as np
import numpy.typing as npt

from blokus.game import Game
from blokus.geometry import Board
from blokus.rl.errors import EnvConfigError

__all__ = ["RENDER_MODES", "check_render_mode", "ansi", "rgb_array"]

RENDER_MODES = ("ansi", "rgb_array")
"""The render modes every environment supports (besides ``None``)."""

_FALLBACK_PALETTE = {
    "Blue": "#2f6fd0",
    "Yellow": "#f0c419",
    "Red": "#d64541",
    "Green": "#3a9e4f",
    "Purple": "#8e5cc5",
    "Orange": "#f08a24",
}
_EMPTY = (244, 240, 230)
_START = (214, 205, 186)
_GAP = (185, 176, 158)
_BACKGROUND = (226, 219, 204)


def check_render_mode(mode: str | None) -> None:
    """Raise :class:`EnvConfigError` unless ``mode`` is ``None`` or in :data:`RENDER_MODES`."""
    if mode is not None and mode not in RENDER_MODES:
        raise EnvConfigError(
            f"unknown render mode {mode!r} (known: None, {', '.join(RENDER_MODES)})"
        )


def ansi(game: Game) -> str:
    """The position as plain text (no escape codes), as :func:`blokus.render.text` draws it."""
    try:
        from blokus.render import text
    except ImportError:  # pragma: no cover - render.py is part of the package
        return _plain_text(game)
    return text(game, color=False)


def _plain_text(game: Game) -> str:
    board = game.board
    grid = [[" "] * board.width for _ in range(board.height)]
    for cell, (x, row) in enumerate(board.points):
        owner = game.color_at(cell)
        grid[board.height - row][x] = "." if owner is None else str(owner + 1)
    return "\n".join("".join(r).rstrip() for r in grid) + "\n"


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _palette() -> dict[str, str]:
    try:
        from blokus.render import PALETTE
    except ImportError:  # pragma: no cover
        return _FALLBACK_PALETTE
    return PALETTE


@functools.cache
def _cell_image(board: Board, scale: int) -> npt.NDArray[np.int32]:
    """Per pixel, the cell whose polygon (shrunk by half a pixel for the grid
    lines) contains the pixel centre, or -1."""
    tri = board.kind == "triangle"
    sx = 0.5 if tri else 1.0
    sy = math.sqrt(3) / 2 if tri else 1.0
    max_x = max(v[0] for vs in board.vertices for v in vs)
    max_l = max(v[1] for vs in board.vertices for v in vs)
    width = int(math.ceil(max_x * sx * scale)) + 2
    height = int(math.ceil(max_l * sy * scale)) + 2
    image = np.full((height, width), -1, dtype=np.int32)
    margin = 0.6
    for cell, verts in enumerate(board.vertices):
        pts = [(1 + X * sx * scale, 1 + (max_l - L) * sy * scale) for X, L in verts]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        x0 = max(int(min(p[0] for p in pts)), 0)
        x1 = min(int(max(p[0] for p in pts)) + 1, width)
        y0 = max(int(min(p[1] for p in pts)), 0)
        y1 = min(int(max(p[1] for p in pts)) + 1, height)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        px, py = xs + 0.5, ys + 0.5
        inside = np.ones(px.shape, dtype=bool)
        for i, (ax, ay) in enumerate(pts):
            bx, by = pts[(i + 1) % len(pts)]
            length = math.hypot(bx - ax, by - ay)
            # Pixel rows grow downwards, so the sorted order runs clockwise on
            # screen and the interior lies where the cross product is positive.
            cross = ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / length
            inside &= cross >= margin
        region = image[y0:y1, x0:x1]
        region[inside] = cell
    return image


def rgb_array(game: Game, scale: int = 24) -> npt.NDArray[np.uint8]:
    """The position as an ``(height, width, 3)`` ``uint8`` image, ``scale``
    pixels per cell side: the colours' cells in their colours, empty cells
    light, free starting cells a little darker, grid lines between cells."""
    board = game.board
    cells = _cell_image(board, scale)
    palette = _palette()
    fill = np.empty((board.size + 1, 3), dtype=np.uint8)
    fill[:] = _EMPTY
    fill[board.size] = _GAP
    for starts in game.variant.starting_cells:
        for c in starts:
            fill[c] = _START
    for k, color in enumerate(game.variant.colors):
        rgb = _rgb(palette.get(color.name, "#888888"))
        mask = game.cells_of(k)
        while mask:
            low = mask & -mask
            fill[low.bit_length() - 1] = rgb
            mask ^= low
    image = fill[np.where(cells < 0, board.size, cells)]
    if board.kind == "triangle":
        # Outside the hexagon: the plain background instead of grid lines.
        outside = _outside(board, scale)
        image[outside] = _BACKGROUND
    return image


@functools.cache
def _outside(board: Board, scale: int) -> npt.NDArray[np.bool_]:
    """Pixels farther than two pixels from any cell."""
    cells = _cell_image(board, scale) >= 0
    near = cells.copy()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near |= np.roll(np.roll(cells, dy, axis=0), dx, axis=1)
    return ~near
