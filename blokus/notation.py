"""Moves as text, in Pentobi's notation.

A move is the list of cells its piece covers, joined by commas: ``e9,d10,e10``.
Written moves are in canonical order (row ascending, then column ascending);
read moves may be in any order and any case.  A :class:`Move` knows nothing of
boards, so it can be written and parsed without a game; the game checks that
its cells are on the board and form a piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from blokus.geometry import Point, parse_point, point_name

__all__ = ["Move", "InvalidMoveError", "IllegalMoveError"]


class InvalidMoveError(ValueError):
    """A string that is not a move in the notation."""


class IllegalMoveError(ValueError):
    """A move that the rules forbid in the current position."""


@dataclass(frozen=True, order=True)
class Move:
    """The cells of a placed piece, in canonical order, or a pass (no cells).

    >>> Move.from_str("A20,c18,B19,c19,a19,c20")
    Move.from_str('c18,a19,b19,c19,a20,c20')
    >>> str(Move.PASS)
    'pass'
    """

    points: tuple[Point, ...]
    """``(x, row)`` of each cell, in canonical order."""

    PASS: ClassVar[Move]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.points, key=lambda p: (p[1], p[0])))
        if ordered != self.points:
            object.__setattr__(self, "points", ordered)

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse a move (``"pass"`` is the pass); raises :class:`InvalidMoveError`."""
        s = text.strip()
        if not s:
            raise InvalidMoveError("empty move (expected cells like 'e9,d10,e10')")
        if s.lower() == "pass":
            return cls.PASS
        points = []
        for part in s.split(","):
            try:
                points.append(parse_point(part))
            except ValueError as e:
                raise InvalidMoveError(f"{text.strip()!r} is not a move: {e}") from None
        if len(set(points)) != len(points):
            raise InvalidMoveError(f"{text.strip()!r} is not a move: a cell is repeated")
        return cls(tuple(points))

    @property
    def is_pass(self) -> bool:
        return not self.points

    def __str__(self) -> str:
        if not self.points:
            return "pass"
        return ",".join(point_name(p) for p in self.points)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    def __bool__(self) -> bool:
        return bool(self.points)


Move.PASS = Move(())
