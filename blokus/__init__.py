"""Blokus: every official variant with exact rules, in Python.

The public vocabulary, re-exported here::

    >>> import blokus
    >>> game = blokus.Game("duo")
    >>> game.push("e10,d11,e11,f11,e12")
    >>> len(game.legal_moves)
    414
"""

from blokus.game import Game, LegalMoves, Turn
from blokus.geometry import Board, Cell, Point, SquareBoard, TriangleBoard
from blokus.notation import IllegalMoveError, InvalidMoveError, Move
from blokus.pieces import CLASSIC, JUNIOR, TRIGON, Piece, PieceSet
from blokus.placements import PlacementTable, placement_table
from blokus.scoring import Outcome
from blokus.variants import VARIANTS, Color, Seat, Seating, Variant, variant

__version__ = "0.1.0"

__all__ = [
    "Board", "Cell", "Point", "SquareBoard", "TriangleBoard",
    "IllegalMoveError", "InvalidMoveError", "Move",
    "CLASSIC", "JUNIOR", "TRIGON", "Piece", "PieceSet",
    "PlacementTable", "placement_table",
    "Outcome",
    "VARIANTS", "Color", "Seat", "Seating", "Variant", "variant",
    "Game", "LegalMoves", "Turn",
]
