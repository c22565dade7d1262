"""Variants as data, and the seating arrangements played on them.

A :class:`Variant` fixes the board, the piece set, the colours and their
starting cells.  A :class:`Seating` says who moves which colour: one colour per
player, two colours per player, teams of two, or three players sharing the
fourth colour in rotation (or leaving it to a neutral seat).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from blokus.geometry import Board, Cell, Point, parse_point, square_board, triangle_board
from blokus.pieces import CLASSIC, JUNIOR, TRIGON, PieceSet

__all__ = [
    "Color",
    "Seat",
    "Seating",
    "Variant",
    "VARIANTS",
    "variant",
]


@dataclass(frozen=True)
class Color:
    """One colour of a variant."""

    index: int
    """0-based position in the turn order."""
    name: str
    """``"Blue"``, ``"Purple"``, …"""
    sgf: str
    """SGF / GTP colour id: ``B`` / ``W`` in two-colour variants, else ``1`` … ``4``."""

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Seat:
    """A participant: a person, a computer player, or the neutral mover."""

    name: str
    colors: tuple[int, ...]
    """The colours this seat always moves (a shared colour is not listed)."""
    neutral: bool = False
    """A neutral seat moves a colour whose score counts for nobody."""


@dataclass(frozen=True)
class Seating:
    """Who moves which colour, and who scores together."""

    id: str
    description: str
    seats: tuple[Seat, ...]
    shared_color: int | None = None
    """A colour moved in rotation by seats 0, 1, 2, … (by the number of pieces
    it has already placed); its score counts for nobody."""
    teams: tuple[tuple[int, ...], ...] | None = None
    """Seat indices that score together, or ``None`` when every seat is on its own."""

    def seat_of(self, color: int, shared_placed: int = 0) -> int:
        """The seat that moves ``color``; ``shared_placed`` is the number of
        pieces the shared colour has already placed."""
        if color == self.shared_color:
            return shared_placed % len(self.seats)
        for i, seat in enumerate(self.seats):
            if color in seat.colors:
                return i
        raise ValueError(f"no seat moves colour {color}")

    def scoring_colors(self) -> list[int]:
        """Colours whose score counts for a seat (not shared, not neutral)."""
        return [c for seat in self.seats if not seat.neutral for c in seat.colors]

    @property
    def scoring_groups(self) -> tuple[tuple[int, ...], ...]:
        """The seat groups that are ranked against each other: the teams, or
        every non-neutral seat alone."""
        if self.teams is not None:
            return self.teams
        return tuple((i,) for i, s in enumerate(self.seats) if not s.neutral)


@dataclass(frozen=True)
class Variant:
    """A board, a piece set, colours and starting cells."""

    id: str
    """Short id: ``classic``, ``duo``, ``trigon_3``, …"""
    name: str
    """The SGF ``GM`` value, as Pentobi writes it."""
    board_spec: tuple[str, int, int] = field(repr=False)
    piece_set: PieceSet = field(repr=False)
    colors: tuple[Color, ...] = field(repr=False)
    starting_points: tuple[tuple[Point, ...], ...] = field(repr=False)
    """Per colour, the points its first piece may cover."""
    seatings: tuple[Seating, ...] = field(repr=False)
    """The first one is the default."""
    bonus: bool = field(default=True, repr=False)
    """Whether advanced scoring gives +15 / +20 for placing every piece."""

    @property
    def board(self) -> Board:
        kind, a, b = self.board_spec
        return square_board(a, b) if kind == "square" else triangle_board(a)

    @functools.cached_property
    def starting_cells(self) -> tuple[tuple[Cell, ...], ...]:
        """Per colour, the cells its first piece may cover."""
        board = self.board
        return tuple(tuple(board.cell(p) for p in pts) for pts in self.starting_points)

    @property
    def num_colors(self) -> int:
        return len(self.colors)

    @property
    def seating(self) -> Seating:
        """The default seating."""
        return self.seatings[0]

    def get_seating(self, seating_id: str | None) -> Seating:
        """A seating by id (``None``: the default); raises ``KeyError``."""
        if seating_id is None:
            return self.seatings[0]
        for s in self.seatings:
            if s.id == seating_id:
                return s
        known = ", ".join(s.id for s in self.seatings)
        raise KeyError(f"variant {self.id} has no seating {seating_id!r} (known: {known})")

    def color(self, key: str | int) -> int:
        """Colour index from an SGF id (``B``, ``w``, ``1`` … ``4``), a name
        (``blue``), or an index; raises ``ValueError``."""
        if isinstance(key, int):
            if 0 <= key < self.num_colors:
                return key
        else:
            k = key.strip().lower()
            for c in self.colors:
                if k in (c.sgf.lower(), c.name.lower()):
                    return c.index
            # Pentobi also accepts b/w for the first two colours and
            # 1..4 in any variant.
            if k.isdigit() and 1 <= int(k) <= self.num_colors:
                return int(k) - 1
            if k in ("b", "black") and self.num_colors == 2:
                return 0
            if k in ("w", "white") and self.num_colors == 2:
                return 1
        names = ", ".join(f"{c.sgf}/{c.name}" for c in self.colors)
        raise ValueError(f"{key!r} is not a colour of {self.name} (colours: {names})")

    def __str__(self) -> str:
        return self.name


def _colors(*names: str) -> tuple[Color, ...]:
    ids = ("B", "W") if len(names) == 2 else tuple(str(i + 1) for i in range(len(names)))
    return tuple(Color(i, n, ids[i]) for i, n in enumerate(names))


def _points(names: str) -> tuple[Point, ...]:
    return tuple(parse_point(n) for n in names.split())


def _one_each(colors: tuple[Color, ...]) -> Seating:
    return Seating(
        "players",
        "one colour per player",
        tuple(Seat(c.name, (c.index,)) for c in colors),
    )


def _two_each(colors: tuple[Color, ...]) -> Seating:
    a, b, c, d = colors
    return Seating(
        "players",
        "two players, two colours each",
        (Seat(f"{a.name}/{c.name}", (0, 2)), Seat(f"{b.name}/{d.name}", (1, 3))),
    )


def _teams(colors: tuple[Color, ...]) -> Seating:
    return Seating(
        "teams",
        "four players in two teams, scores added",
        tuple(Seat(c.name, (c.index,)) for c in colors),
        teams=((0, 2), (1, 3)),
    )


def _shared(colors: tuple[Color, ...]) -> Seating:
    return Seating(
        "shared",
        "three players, the fourth colour played by each in turn",
        tuple(Seat(c.name, (c.index,)) for c in colors[:3]),
        shared_color=3,
    )


def _neutral(colors: tuple[Color, ...]) -> Seating:
    return Seating(
        "neutral",
        "three players, the fourth colour placed by a neutral random mover",
        tuple(Seat(c.name, (c.index,)) for c in colors[:3])
        + (Seat(f"{colors[3].name} (neutral)", (3,), neutral=True),),
    )


_FOUR = _colors("Blue", "Yellow", "Red", "Green")
_CLASSIC_STARTS = tuple(_points(p) for p in ("a20", "t20", "t1", "a1"))
_DUO_STARTS = (_points("e10"), _points("j5"))
_TRIGON_STARTS = _points("r15 r4 j12 j7 z12 z7")
_TRIGON3_STARTS = _points("p14 p3 h11 h6 x11 x6")

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant(
            "classic", "Blokus", ("square", 20, 20), CLASSIC, _FOUR, _CLASSIC_STARTS,
            (_one_each(_FOUR), _teams(_FOUR)),
        ),
        Variant(
            "classic_2", "Blokus Two-Player", ("square", 20, 20), CLASSIC, _FOUR,
            _CLASSIC_STARTS, (_two_each(_FOUR),),
        ),
        Variant(
            "classic_3", "Blokus Three-Player", ("square", 20, 20), CLASSIC, _FOUR,
            _CLASSIC_STARTS, (_shared(_FOUR), _neutral(_FOUR)),
        ),
        Variant(
            "duo", "Blokus Duo", ("square", 14, 14), CLASSIC, _colors("Purple", "Orange"),
            _DUO_STARTS, (_one_each(_colors("Purple", "Orange")),),
        ),
        Variant(
            "trigon", "Blokus Trigon", ("triangle", 9, 0), TRIGON, _FOUR,
            (_TRIGON_STARTS,) * 4,
            (_one_each(_FOUR), _teams(_FOUR), _shared(_FOUR), _neutral(_FOUR)),
        ),
        Variant(
            "trigon_2", "Blokus Trigon Two-Player", ("triangle", 9, 0), TRIGON, _FOUR,
            (_TRIGON_STARTS,) * 4, (_two_each(_FOUR),),
        ),
        Variant(
            "trigon_3", "Blokus Trigon Three-Player", ("triangle", 8, 0), TRIGON,
            _colors("Blue", "Yellow", "Red"), (_TRIGON3_STARTS,) * 3,
            (_one_each(_colors("Blue", "Yellow", "Red")),),
        ),
        Variant(
            "junior", "Blokus Junior", ("square", 14, 14), JUNIOR, _colors("Green", "Orange"),
            _DUO_STARTS, (_one_each(_colors("Green", "Orange")),), bonus=False,
        ),
    )
}
"""Every variant, by id, in the order of RULES.md."""


def variant(key: str | Variant) -> Variant:
    """A variant by id (``duo``), by SGF ``GM`` name (``Blokus Duo``), or by
    Pentobi's GTP game name; case and ``-``/``_`` do not matter.  Raises
    ``KeyError`` with the list of known variants."""
    if isinstance(key, Variant):
        return key
    k = key.strip().lower().replace("-", "_")
    for v in VARIANTS.values():
        if k in (v.id, v.name.lower().replace("-", "_")):
            return v
    known = ", ".join(VARIANTS)
    raise KeyError(f"unknown variant {key!r} (known: {known})")
