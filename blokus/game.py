"""The game state: push, pop, legal moves, passes, turn, scores.

Per colour the state is a handful of bitmasks:

* ``cells``: the cells of its placed pieces;
* ``forbidden``: cells it may never cover (occupied, or sharing an edge with
  its own pieces);
* ``attach``: the attach points, empty cells touching its pieces at a corner
  (before its first piece: its starting cells);
* ``possible``: placements (bits over the placement table) that cover no
  forbidden cell and use a piece it still has;
* ``reach``: placements covering one of its attach points, ever.

A placement is legal for a colour iff it is in ``possible & reach``.  Both are
updated incrementally by :meth:`Game.push`; :meth:`Game.pop` restores a
snapshot.  :meth:`Game.why_illegal` checks a move cell by cell and says which
rule it breaks.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import NamedTuple

from blokus.geometry import Board, Cell
from blokus.notation import IllegalMoveError, InvalidMoveError, Move
from blokus.pieces import Piece
from blokus.placements import PlacementTable, placement_table
from blokus.scoring import RULES, Outcome, color_score, places
from blokus.variants import Color, Seating, Variant
from blokus.variants import variant as find_variant

__all__ = ["Game", "Turn", "LegalMoves", "bit_indices", "nth_bit", "random_bit"]

_ONE = re.compile("1")


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of a non-negative int, ascending."""
    # The binary string is built and scanned in C; for the long placement
    # bitmasks this is several times faster than peeling off low bits.
    s = bin(mask)
    top = len(s) - 1
    out = [top - m.start() for m in _ONE.finditer(s)]
    out.reverse()
    return out


_LOW_MASKS = [(1 << (1 << k)) - 1 for k in range(17)]


def nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th (0-based, from the low end) set bit of ``mask``."""
    base = 0
    k = (mask.bit_length() - 1).bit_length()
    # Halve the range (a power of two wide) until it is small, counting the
    # bits of the low half.
    while k > 6:
        k -= 1
        if k >= len(_LOW_MASKS):
            low = mask & ((1 << (1 << k)) - 1)
        else:
            low = mask & _LOW_MASKS[k]
        c = low.bit_count()
        if n < c:
            mask = low
        else:
            n -= c
            mask >>= 1 << k
            base += 1 << k
    for _ in range(n):
        mask &= mask - 1
    return base + (mask & -mask).bit_length() - 1


def random_bit(mask: int, rng: random.Random) -> int:
    """The index of a uniformly random set bit of ``mask`` (which is not 0)."""
    return nth_bit(mask, int(rng.random() * mask.bit_count()))


class Turn(NamedTuple):
    """One entry of the history: a colour and its move (or its pass)."""

    color: int
    move: Move

    def __str__(self) -> str:
        return f"{self.color + 1}:{self.move}"


class LegalMoves:
    """A live view of the legal moves of one colour: iterate, ``len``,
    ``in``, ``bool``.  Moves come in placement-table order."""

    def __init__(self, game: Game, color: int | None) -> None:
        self._game = game
        self._color = color

    def mask(self) -> int:
        """The legal placements as a bitmask over the placement table."""
        if self._color is None:
            return 0
        return self._game._legal_mask(self._color)

    def indices(self) -> list[int]:
        """The placement indices of the legal moves, ascending."""
        return bit_indices(self.mask())

    def __iter__(self) -> Iterator[Move]:
        return map(self._game.table.moves.__getitem__, self.indices())

    def __len__(self) -> int:
        return self.mask().bit_count()

    count = __len__

    def __bool__(self) -> bool:
        return self.mask() != 0

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move) or self._color is None:
            return False
        index = self._game.placement_of(move)
        return index is not None and bool(self.mask() >> index & 1)

    def __repr__(self) -> str:
        moves = ", ".join(str(m) for m in self)
        return f"<LegalMoves ({moves})>"


class Game:
    """A game of one variant, from the empty board (or a setup position).

    >>> game = Game("duo")
    >>> len(game.legal_moves)
    414
    >>> game.push(Move.from_str("e10,d11,e11,f11,e12"))
    >>> game.color_to_move.name
    'Orange'
    """

    def __init__(self, variant: str | Variant = "classic", seating: str | Seating | None = None):
        self.variant: Variant = find_variant(variant)
        if isinstance(seating, Seating):
            self.seating: Seating = seating
        else:
            self.seating = self.variant.get_seating(seating)
        self.board: Board = self.variant.board
        self.table: PlacementTable = placement_table(self.board, self.variant.piece_set)
        self._pieces = self.variant.piece_set.pieces
        n = self.variant.num_colors
        self._n = n
        self._cells = [0] * n
        self._forbidden = [0] * n
        starts = self.variant.starting_cells
        self._attach = [self.board.mask_of(s) for s in starts]
        self._possible = [self.table.all] * n
        cover = self.table.cover
        self._reach = []
        for s in starts:
            r = 0
            for c in s:
                r |= cover[c]
            self._reach.append(r)
        self._left = [tuple(p.copies for p in self._pieces)] * n
        self._placed = [0] * n
        self._last_piece: list[int | None] = [None] * n
        self._turn: int | None = 0
        self.history: list[Turn] = []
        """Every turn so far, passes included."""
        self._stack: list[tuple] = []  # type: ignore[type-arg]

    # -- the position ----------------------------------------------------

    @property
    def turn(self) -> int | None:
        """Index of the colour to move, or ``None`` when the game is over."""
        return self._turn

    @property
    def color_to_move(self) -> Color | None:
        return None if self._turn is None else self.variant.colors[self._turn]

    @property
    def seat_to_move(self) -> int | None:
        """Index (in :attr:`seating`) of the seat to move, or ``None``."""
        if self._turn is None:
            return None
        return self.seat_of(self._turn)

    def seat_of(self, color: int) -> int:
        """The seat that moves ``color`` now (a shared colour rotates)."""
        shared = self.seating.shared_color
        return self.seating.seat_of(color, self._placed[shared] if shared is not None else 0)

    @property
    def colors(self) -> tuple[Color, ...]:
        return self.variant.colors

    def is_game_over(self) -> bool:
        """Whether no colour can move."""
        return self._turn is None

    @property
    def move_stack(self) -> list[Move]:
        """The pushed moves, in order (passes excluded)."""
        return [t.move for t in self.history if not t.move.is_pass]

    @property
    def ply(self) -> int:
        """Number of turns so far, passes included."""
        return len(self.history)

    @property
    def move_number(self) -> int:
        """Pieces placed so far + 1, as SGF counts moves."""
        return sum(self._placed) + 1

    def cells_of(self, color: int) -> int:
        """Bitmask of the cells covered by ``color``."""
        return self._cells[color]

    def forbidden(self, color: int) -> int:
        """Bitmask of the cells ``color`` may not cover."""
        return self._forbidden[color]

    def attach_points(self, color: int) -> int:
        """Bitmask of the cells where ``color``'s next piece may touch its own."""
        return self._attach[color] & ~self._forbidden[color]

    @property
    def occupied(self) -> int:
        """Bitmask of all covered cells."""
        m = 0
        for c in self._cells:
            m |= c
        return m

    def color_at(self, cell: Cell) -> int | None:
        """The colour covering ``cell``, or ``None``."""
        bit = 1 << cell
        for i, m in enumerate(self._cells):
            if m & bit:
                return i
        return None

    def pieces_left(self, color: int) -> list[Piece]:
        """The pieces ``color`` can still place (a piece twice if both copies are left)."""
        return [p for p, k in zip(self._pieces, self._left[color], strict=True) for _ in range(k)]

    def num_placed(self, color: int) -> int:
        """Number of pieces ``color`` has placed."""
        return self._placed[color]

    def remaining_cells(self, color: int) -> int:
        """Unit cells in ``color``'s unplaced pieces."""
        return sum(p.size * k for p, k in zip(self._pieces, self._left[color], strict=True))

    def last_piece(self, color: int) -> Piece | None:
        """The piece ``color`` placed last."""
        p = self._last_piece[color]
        return None if p is None else self._pieces[p]

    def peek(self) -> Move:
        """The last pushed move; raises ``IndexError`` if there is none."""
        if not self._stack:
            raise IndexError("no move to peek at")
        move: Move = self._stack[-1][0]
        return move

    # -- legal moves -------------------------------------------------------

    def _legal_mask(self, color: int) -> int:
        return self._possible[color] & self._reach[color]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the colour to move (none when the game is over)."""
        return LegalMoves(self, self._turn)

    def legal_moves_of(self, color: int) -> LegalMoves:
        """The moves ``color`` could play now if it were its turn."""
        return LegalMoves(self, color)

    def has_moves(self, color: int) -> bool:
        return self._legal_mask(color) != 0

    def placement_of(self, move: Move) -> int | None:
        """The placement-table index of a move, or ``None`` if it is not one
        (a pass, a cell off the board, not a piece of this game)."""
        mask = 0
        index = self.board._index
        for p in move.points:
            c = index.get(p)
            if c is None:
                return None
            mask |= 1 << c
        return self.table.by_mask.get(mask)

    def parse_move(self, text: str) -> Move:
        """Parse a move and check that it names cells of this board forming a
        piece of this game; raises :class:`InvalidMoveError`."""
        move = Move.from_str(text)
        if move.is_pass:
            return move
        for p in move.points:
            if not self.board.has_point(p):
                raise InvalidMoveError(f"{Move((p,))} is not on the board")
        if self.placement_of(move) is None:
            raise InvalidMoveError(f"the cells {move} do not form a piece of {self.variant.name}")
        return move

    def is_legal(self, move: Move) -> bool:
        """Whether the colour to move may play ``move``."""
        if self._turn is None or move.is_pass:
            return False
        return move in self.legal_moves

    def why_illegal(self, move: Move, color: int | None = None) -> str | None:
        """Why ``color`` (default: the colour to move) may not play ``move``,
        in words, or ``None`` if it may."""
        if color is None:
            if self._turn is None:
                return "the game is over"
            color = self._turn
        name = self.variant.colors[color].name
        if move.is_pass:
            if self.has_moves(color):
                return f"{name} has a legal move and cannot pass"
            return None
        board = self.board
        for p in move.points:
            if not board.has_point(p):
                return f"{Move((p,))} is not on the board"
        cells = [board.cell(p) for p in move.points]
        index = self.placement_of(move)
        if index is None:
            return f"the cells {move} do not form a piece of {self.variant.name}"
        piece = self._pieces[self.table.piece[index]]
        if self._left[color][piece.index] == 0:
            if piece.copies > 1:
                return f"both pieces {piece.name} are already placed"
            return f"piece {piece.name} is already placed"
        occupied = self.occupied
        for c in cells:
            if occupied >> c & 1:
                return f"{board.name(c)} is occupied"
        own = self._cells[color]
        for c in cells:
            for nb in board.edge_neighbors[c]:
                if own >> nb & 1:
                    return f"{board.name(c)} shares an edge with your piece at {board.name(nb)}"
        mask = self.table.mask[index]
        if not mask & self.attach_points(color):
            if self._placed[color] == 0:
                starts = [board.name(c) for c in self.variant.starting_cells[color]]
                if len(starts) == 1:
                    return f"{name}'s first piece must cover {starts[0]}"
                free = [s for s in starts if not occupied >> board.parse(s) & 1]
                return f"{name}'s first piece must cover a free starting cell ({', '.join(free)})"
            return "the piece must touch one of your pieces at a corner"
        return None

    # -- making moves --------------------------------------------------------

    def push(self, move: Move | str) -> None:
        """Play ``move`` (a :class:`Move` or its notation) for the colour to move,
        then pass automatically for every colour that cannot move.

        Raises :class:`InvalidMoveError` for text that is not a move and
        :class:`IllegalMoveError` (with the rule broken) for a move the rules
        forbid; nothing changes then.
        """
        if isinstance(move, str):
            move = Move.from_str(move)
        color = self._turn
        if color is None:
            raise IllegalMoveError("the game is over")
        index = self.placement_of(move)
        if index is None or not (self._legal_mask(color) >> index & 1):
            reason = self.why_illegal(move, color)
            if reason is None:  # pragma: no cover - the two checks must agree
                raise AssertionError(f"{move} is legal by the rules but not generated")
            raise IllegalMoveError(reason)
        self.push_index(index)

    def push_index(self, index: int) -> None:
        """Play the placement with this table index for the colour to move,
        without checking that it is legal (for players and search)."""
        color = self._turn
        assert color is not None, "the game is over"
        move = self.table.move(index)
        self._stack.append((move, self._snapshot()))
        self.history.append(Turn(color, move))
        self._place(color, index)
        self._advance(color)

    def pop(self) -> Move:
        """Take back the last pushed move (and the passes that followed it);
        raises ``IndexError`` if there is none."""
        if not self._stack:
            raise IndexError("no move to take back")
        move, snapshot = self._stack.pop()
        self._restore(snapshot)
        popped: Move = move
        return popped

    def _snapshot(self) -> tuple:  # type: ignore[type-arg]
        return (
            self._cells[:], self._forbidden[:], self._attach[:], self._possible[:],
            self._reach[:], self._left[:], self._placed[:], self._last_piece[:],
            self._turn, len(self.history),
        )

    def _restore(self, s: tuple) -> None:  # type: ignore[type-arg]
        (self._cells, self._forbidden, self._attach, self._possible, self._reach,
         self._left, self._placed, self._last_piece, self._turn, h) = s
        del self.history[h:]

    def _place(self, color: int, index: int) -> None:
        """Put placement ``index`` on the board for ``color`` (no checks)."""
        t = self.table
        cover = t.cover
        mask = t.mask[index]
        forbidden = self._forbidden
        possible = self._possible
        # Placements overlapping the new piece are gone for every colour.
        kill = 0
        for c in t.cells[index]:
            kill |= cover[c]
        for o in range(self._n):
            if o != color:
                forbidden[o] |= mask
                p = possible[o]
                possible[o] = p ^ (p & kill)
        # The mover also loses placements sharing an edge with it.
        f = forbidden[color]
        new = t.adjacent[index] & ~f
        while new:
            low = new & -new
            kill |= cover[low.bit_length() - 1]
            new ^= low
        f |= mask | t.adjacent[index]
        forbidden[color] = f
        p = possible[color]
        possible[color] = p ^ (p & kill)
        self._cells[color] |= mask
        if self._placed[color] == 0:
            old_attach = 0
            reach = 0
        else:
            old_attach = self._attach[color] & ~f
            reach = self._reach[color]
        attach = (old_attach | t.corners[index]) & ~f
        self._attach[color] = attach
        new = attach & ~old_attach
        while new:
            low = new & -new
            reach |= cover[low.bit_length() - 1]
            new ^= low
        self._reach[color] = reach
        piece = t.piece[index]
        left = self._left[color]
        k = left[piece] - 1
        self._left[color] = left[:piece] + (k,) + left[piece + 1:]
        if k == 0:
            p = possible[color]
            possible[color] = p ^ (p & t.of_piece[piece])
        self._placed[color] += 1
        self._last_piece[color] = piece

    def _advance(self, color: int) -> None:
        """Give the turn to the next colour that can move, recording passes."""
        n = self._n
        c = color
        for _ in range(n):
            c = (c + 1) % n
            if self._possible[c] & self._reach[c]:
                self._turn = c
                return
            self.history.append(Turn(c, Move.PASS))
        self._turn = None

    # -- setup -------------------------------------------------------------

    def setup(self, placements: dict[int, list[Move]], to_move: int | None = None) -> None:
        """Place pieces without the placement rules (SGF setup: ``AB``, ``A1`` …),
        then give the turn to ``to_move`` (default: the colour to move), passing
        for colours that cannot move.  The history restarts here: setup cannot
        be popped.  Raises :class:`IllegalMoveError` if a piece overlaps another
        or is not available, and then nothing is changed."""
        trial = self.copy()
        for color, moves in placements.items():
            for move in moves:
                index = trial.placement_of(move)
                if index is None:
                    raise IllegalMoveError(
                        f"the cells {move} do not form a piece of {self.variant.name}"
                    )
                if trial.occupied & trial.table.mask[index]:
                    raise IllegalMoveError(f"setup piece {move} overlaps another piece")
                piece = trial.table.piece[index]
                if trial._left[color][piece] == 0:
                    raise IllegalMoveError(f"piece {self._pieces[piece].name} is already placed")
                trial._place(color, index)
        start = self._turn if to_move is None else to_move
        if start is None:
            start = 0
        trial._advance((start - 1) % self._n)
        trial.history = []
        trial._stack = []
        self.__dict__.update(trial.__dict__)

    def copy(self) -> Game:
        """An independent copy (history and move stack included)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        s = self._snapshot()
        (g._cells, g._forbidden, g._attach, g._possible, g._reach, g._left, g._placed,
         g._last_piece) = s[:8]
        g.history = self.history[:]
        g._stack = self._stack[:]
        return g

    # -- scores ------------------------------------------------------------

    def score(self, color: int, rule: str = "advanced") -> int:
        """The score of one colour under ``rule`` (see :mod:`blokus.scoring`)."""
        total = self.variant.piece_set.total_cells
        remaining = self.remaining_cells(color)
        all_placed = not any(self._left[color])
        last = self._last_piece[color]
        single = last is not None and self._pieces[last].size == 1
        return color_score(
            rule, remaining, total - remaining, all_placed, single, self.variant.bonus
        )

    def scores(self, rule: str = "advanced") -> tuple[int, ...]:
        """The score of every colour under ``rule``."""
        return tuple(self.score(c, rule) for c in range(self._n))

    def outcome(self, rule: str = "advanced") -> Outcome:
        """Scores per colour, seat and team, and places (also before the end)."""
        if rule not in RULES:
            raise ValueError(f"unknown scoring rule {rule!r} (known: {', '.join(RULES)})")
        cs = self.scores(rule)
        seating = self.seating
        seat_scores = tuple(
            0 if s.neutral else sum(cs[c] for c in s.colors) for s in seating.seats
        )
        groups = seating.scoring_groups
        group_scores = tuple(sum(seat_scores[i] for i in g) for g in groups)
        return Outcome(
            rule, cs, seat_scores, groups, group_scores,
            places(group_scores, lowest_wins=(rule == "basic")), self.is_game_over(),
        )

    # -- display -----------------------------------------------------------

    def __str__(self) -> str:
        from blokus.render import text

        return text(self, color=False)

    def _repr_svg_(self) -> str:
        from blokus.render import svg

        return svg(self)

    def __repr__(self) -> str:
        turn = "over" if self._turn is None else self.variant.colors[self._turn].name
        return f"<Game {self.variant.id} move {self.move_number}, {turn}>"
