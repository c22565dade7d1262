"""Piece sets: the shapes, their names and their orientations.

A shape is drawn once, in one orientation; every other orientation is generated
from it by the symmetries of the grid (:meth:`Board.orientations`).  Names are
the ones Pentobi and the player community use.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from blokus.geometry import Board, Cell, Shape, square_board, triangle_board

__all__ = ["Piece", "PieceSet", "CLASSIC", "TRIGON", "JUNIOR", "piece_set"]


@dataclass(frozen=True)
class Piece:
    """One piece of a set: its name, its size and all its orientations."""

    name: str
    index: int
    """Position in the piece set."""
    size: int
    """Number of unit cells."""
    orientations: tuple[Shape, ...] = field(repr=False, compare=False)
    copies: int = 1
    """How many of this piece each colour owns (2 in Junior)."""

    def __str__(self) -> str:
        return self.name


class PieceSet:
    """The pieces of one colour, for one kind of grid."""

    def __init__(
        self, name: str, kind: str, drawings: Mapping[str, Sequence[str]], copies: int = 1
    ) -> None:
        self.name = name
        self.kind = kind
        board = _prototype(kind)
        pieces = []
        for index, (piece_name, art) in enumerate(drawings.items()):
            shape = board.art_shape(art)
            pieces.append(
                Piece(piece_name, index, len(shape), tuple(board.orientations(shape)), copies)
            )
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self._by_name = {p.name.lower(): p for p in pieces}
        self._by_shape = {o: p for p in pieces for o in p.orientations}
        self.total_cells = sum(p.size * p.copies for p in pieces)
        """Unit cells in one colour's full set."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    def __getitem__(self, key: int | str) -> Piece:
        """A piece by index or by name (any case); raises ``KeyError``."""
        if isinstance(key, int):
            return self.pieces[key]
        try:
            return self._by_name[key.lower()]
        except KeyError:
            names = " ".join(p.name for p in self.pieces)
            raise KeyError(f"no piece named {key!r} in the {self.name} set ({names})") from None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.pieces]

    @property
    def num_orientations(self) -> int:
        return sum(len(p.orientations) for p in self.pieces)

    def identify(self, board: Board, cells: Iterable[Cell]) -> Piece | None:
        """The piece whose shape the cells form, or ``None``."""
        cells = list(cells)
        if not cells or board.kind != self.kind:
            return None
        return self._by_shape.get(board.shape(cells))

    def __repr__(self) -> str:
        return f"<PieceSet {self.name}: {len(self.pieces)} pieces>"


@functools.cache
def _prototype(kind: str) -> Board:
    return square_board(1, 1) if kind == "square" else triangle_board(1)


# Polyominoes.  Order and names as Pentobi.
_CLASSIC = {
    "1": ["X"],
    "2": ["XX"],
    "I3": ["XXX"],
    "V3": ["X.", "XX"],
    "I4": ["XXXX"],
    "L4": ["X..", "XXX"],
    "T4": [".X.", "XXX"],
    "Z4": [".XX", "XX."],
    "O": ["XX", "XX"],
    "F": [".XX", "XX.", ".X."],
    "I5": ["XXXXX"],
    "L5": ["X...", "XXXX"],
    "N": [".XXX", "XX.."],
    "P": ["XX", "XX", "X."],
    "T5": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V5": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": [".X..", "XXXX"],
    "Z5": ["XX.", ".X.", ".XX"],
}

_JUNIOR_NAMES = ["1", "2", "I3", "V3", "I4", "L4", "T4", "Z4", "O", "L5", "P", "I5"]

# Polyiamonds.  In a drawing the first character of the top row is an upward
# triangle; triangles alternate up and down along a row and between rows.
_TRIGON = {
    "1": ["X"],
    "2": ["XX"],
    "I3": ["XXX"],
    "I4": ["X.", "XX", ".X"],
    "C4": ["XXX", "X.."],
    "A4": ["..X.", ".XXX"],
    "I5": ["..XX", ".XX.", ".X.."],
    "L5": ["....X", ".XXXX"],
    "C5": ["X.X", "XXX"],
    "P5": ["X..", "XXX", ".X."],
    "I6": [".XX..", "..XX.", "...XX"],
    "L6": ["X....", "XXXXX"],
    "V": ["..X", ".XX", ".XX", "..X"],
    "S": ["XX", "XX", "XX"],
    "P6": ["..X..", ".XXX.", "...XX"],
    "F": ["XX.", "XXX", ".X."],
    "W": ["X..", "XXX", ".XX"],
    "A6": ["XXXX", ".XX."],
    "G": ["XXX.", "X.XX"],
    "Y": ["..X..", ".XXXX", ".X..."],
    "X": [".XXX", ".XXX"],
    "O": ["XXX", "XXX"],
}

CLASSIC = PieceSet("classic", "square", _CLASSIC)
"""21 polyominoes of 1 to 5 squares (Classic and Duo)."""
TRIGON = PieceSet("trigon", "triangle", _TRIGON)
"""22 polyiamonds of 1 to 6 triangles (Trigon)."""
JUNIOR = PieceSet("junior", "square", {n: _CLASSIC[n] for n in _JUNIOR_NAMES}, copies=2)
"""12 polyominoes, two copies of each (Junior)."""

_SETS = {s.name: s for s in (CLASSIC, TRIGON, JUNIOR)}


def piece_set(name: str) -> PieceSet:
    """A piece set by name: ``classic``, ``trigon`` or ``junior``."""
    try:
        return _SETS[name]
    except KeyError:
        raise KeyError(f"unknown piece set {name!r} (known: {', '.join(_SETS)})") from None
