"""The placement table: every piece, in every orientation, at every position.

A *placement* is a set of board cells that one piece covers.  The table of a
board and piece set is computed once and cached.  Placements are numbered by
their lowest cell (then by piece and orientation), so that all placements
covering a given cell lie in a narrow range of indices; this numbering is the
stable move index used by the search kernel and the RL environments.

Bitmasks are plain Python ints: over cells (bit ``c`` = cell ``c``) and over
placements (bit ``i`` = placement ``i``).
"""

from __future__ import annotations

import functools

from blokus.geometry import Board, Cell
from blokus.notation import Move
from blokus.pieces import PieceSet

__all__ = ["PlacementTable", "placement_table"]


class PlacementTable:
    """All placements of one piece set on one board."""

    def __init__(self, board: Board, piece_set: PieceSet) -> None:
        self.board = board
        self.piece_set = piece_set
        found: list[tuple[Cell, int, int, tuple[Cell, ...]]] = []
        for piece in piece_set:
            for o, orientation in enumerate(piece.orientations):
                for cells in board.placements_of(orientation):
                    found.append((cells[0], piece.index, o, cells))
        found.sort()
        n = len(found)
        self.size = n
        """Number of placements."""
        self.cells: tuple[tuple[Cell, ...], ...] = tuple(f[3] for f in found)
        """Cells of each placement, ascending (canonical order)."""
        self.piece: tuple[int, ...] = tuple(f[1] for f in found)
        """Piece index of each placement."""
        self.orientation: tuple[int, ...] = tuple(f[2] for f in found)
        """Orientation index (within its piece) of each placement."""
        masks = []
        adjacent = []
        corners = []
        edge_masks, corner_masks = board.edge_masks, board.corner_masks
        for cells in self.cells:
            m = e = k = 0
            for c in cells:
                m |= 1 << c
                e |= edge_masks[c]
                k |= corner_masks[c]
            masks.append(m)
            adjacent.append(e & ~m)
            corners.append(k & ~m & ~e)
        self.mask: tuple[int, ...] = tuple(masks)
        """Cell bitmask of each placement."""
        self.adjacent: tuple[int, ...] = tuple(adjacent)
        """Cells sharing an edge with each placement (outside it)."""
        self.corners: tuple[int, ...] = tuple(corners)
        """Cells touching each placement at a corner only."""
        self.by_mask: dict[int, int] = {m: i for i, m in enumerate(masks)}
        """Placement index from a cell bitmask."""
        cover = [0] * board.size
        for i, cells in enumerate(self.cells):
            bit = 1 << i
            for c in cells:
                cover[c] |= bit
        self.cover: tuple[int, ...] = tuple(cover)
        """Per cell, the bitmask of placements covering it."""
        pieces = [0] * len(piece_set)
        for i, p in enumerate(self.piece):
            pieces[p] |= 1 << i
        self.of_piece: tuple[int, ...] = tuple(pieces)
        """Per piece, the bitmask of its placements."""
        self.all = (1 << n) - 1
        """Bitmask of every placement."""
        self._moves: list[Move] | None = None

    @property
    def moves(self) -> list[Move]:
        """The :class:`~blokus.notation.Move` of every placement (made on first use)."""
        if self._moves is None:
            points = self.board.points
            new = Move.__new__
            moves = []
            for cells in self.cells:
                # Cells are ascending, which is canonical order already.
                m = new(Move)
                object.__setattr__(m, "points", tuple(points[c] for c in cells))
                moves.append(m)
            self._moves = moves
        return self._moves

    def move(self, index: int) -> Move:
        """The :class:`~blokus.notation.Move` of a placement."""
        return self.moves[index]

    def index(self, cells_mask: int) -> int | None:
        """The placement covering exactly these cells, or ``None``."""
        return self.by_mask.get(cells_mask)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<PlacementTable {self.piece_set.name} on {self.board!r}: {self.size}>"


@functools.cache
def placement_table(board: Board, piece_set: PieceSet) -> PlacementTable:
    """The table of ``piece_set`` on ``board`` (computed once per process)."""
    return PlacementTable(board, piece_set)
