"""The observation and action encoding shared by every environment.

An observation is what one seat sees (every seat sees the whole board), as a
dict of three arrays:

``board``: ``int8``, shape ``(P, H, W)``
    one 0/1 plane per colour, ``H`` x ``W`` the board's bounding box (Duo and
    Junior 14 x 14, Classic 20 x 20, Trigon 18 x 35, Trigon Three-Player
    16 x 31).  Row 0 is the top row of the board (``row = H``), column ``x``
    is the cell's column (``a`` = 0).  A triangle cell ``(x, row)`` fills one
    entry; on triangle boards a last plane (``P = colours + 1``) marks the
    entries that are on the board.  The colour planes come from the seat's
    point of view (see :meth:`Encoding.plane_colors`): the colour to move
    first when the seat is to move, then the seat's other colours, then the
    others in turn order.
``pieces``: ``int8``, shape ``(colours, pieces)``
    how many copies of each piece (piece-set order) each colour has left,
    colours in the same order as the planes.
``action_mask``: ``int8``, shape ``(placements,)``
    1 for the legal placements of the colour to move if this seat is to move,
    all 0 otherwise.  An action is a placement index: the numbering of
    ``game.table`` (``Game.push_index``), the same for every environment and
    the search kernel.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from blokus.game import Game
from blokus.rl.errors import EnvConfigError
from blokus.variants import Seating, Variant
from blokus.variants import variant as find_variant

__all__ = ["Encoding", "encoding", "resolve", "bits", "Observation"]

Observation = dict[str, npt.NDArray[np.int8]]
"""An observation: ``board``, ``pieces`` and ``action_mask``."""


def resolve(
    variant: str | Variant, seating: str | Seating | None = None
) -> tuple[Variant, Seating]:
    """The variant and seating named; raises :class:`EnvConfigError`."""
    try:
        v = find_variant(variant)
    except KeyError as e:
        raise EnvConfigError(e.args[0]) from None
    if isinstance(seating, Seating):
        return v, seating
    try:
        return v, v.get_seating(seating)
    except KeyError as e:
        raise EnvConfigError(e.args[0]) from None


def bits(mask: int, count: int) -> npt.NDArray[np.uint8]:
    """The low ``count`` bits of ``mask`` as a 0/1 array (bit ``i`` at index ``i``)."""
    raw = np.frombuffer(mask.to_bytes((count + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=count, bitorder="little")


class Encoding:
    """The arrays of one variant and seating: shapes, spaces and encoders."""

    def __init__(self, variant: Variant, seating: Seating) -> None:
        self.variant = variant
        self.seating = seating
        board = variant.board
        self.height: int = board.height
        self.width: int = board.width
        self.num_colors: int = variant.num_colors
        self.num_cells: int = board.size
        self.num_planes: int = self.num_colors + (1 if board.kind == "triangle" else 0)
        self.num_pieces: int = len(variant.piece_set)
        self.max_copies: int = max(p.copies for p in variant.piece_set.pieces)
        game = Game(variant, seating)
        self.num_actions: int = len(game.table)
        self.flat: npt.NDArray[np.intp] = np.array(
            [(self.height - row) * self.width + x for x, row in board.points], dtype=np.intp
        )
        """Per cell, its index in a flattened ``H x W`` plane."""
        on_board = np.zeros(self.height * self.width, dtype=np.int8)
        on_board[self.flat] = 1
        self.on_board: npt.NDArray[np.int8] = on_board.reshape(self.height, self.width)
        self.board_shape = (self.num_planes, self.height, self.width)
        self.pieces_shape = (self.num_colors, self.num_pieces)

    def observation_space(self) -> spaces.Dict:
        """A new ``Dict`` space of ``board``, ``pieces`` and ``action_mask``."""
        return spaces.Dict(
            {
                "board": spaces.Box(0, 1, self.board_shape, dtype=np.int8),
                "pieces": spaces.Box(0, self.max_copies, self.pieces_shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            }
        )

    def action_space(self) -> spaces.Discrete:
        """A new ``Discrete`` space over the placement indices."""
        return spaces.Discrete(self.num_actions)

    def plane_colors(self, game: Game, seat: int) -> tuple[int, ...]:
        """The colour of each plane as ``seat`` sees the game.

        ``c0`` is the colour to move if ``seat`` is to move, else the seat's
        first colour.  The order is ``c0``, then the seat's other colours in
        turn order after ``c0``, then the remaining colours in turn order
        after ``c0``.  (In a shared-colour seating the shared colour counts as
        the seat's own while the seat moves it.)
        """
        n = self.num_colors
        own = self.seating.seats[seat].colors
        c0 = game.turn if game.turn is not None and game.seat_to_move == seat else own[0]
        order = [(c0 + k) % n for k in range(n)]
        mine = [c for c in order if c == c0 or c in own]
        return tuple(mine + [c for c in order if c not in mine])

    def board(self, game: Game, colors: tuple[int, ...]) -> npt.NDArray[np.int8]:
        """The board planes for this colour order."""
        out = np.zeros((self.num_planes, self.height * self.width), dtype=np.int8)
        for k, c in enumerate(colors):
            out[k, self.flat] = bits(game.cells_of(c), self.num_cells)
        if self.num_planes > self.num_colors:
            out[-1] = self.on_board.reshape(-1)
        return out.reshape(self.board_shape)

    def pieces(self, game: Game, colors: tuple[int, ...]) -> npt.NDArray[np.int8]:
        """Copies of each piece left, per colour in this order."""
        out = np.zeros(self.pieces_shape, dtype=np.int8)
        for k, c in enumerate(colors):
            for piece in game.pieces_left(c):
                out[k, piece.index] += 1
        return out

    def action_mask(self, game: Game, seat: int) -> npt.NDArray[np.int8]:
        """The legal placements of the colour to move if ``seat`` moves it, else zeros."""
        if game.turn is None or game.seat_to_move != seat:
            return np.zeros(self.num_actions, dtype=np.int8)
        return bits(game.legal_moves.mask(), self.num_actions).view(np.int8)

    def observe(self, game: Game, seat: int) -> Observation:
        """The observation of ``seat`` (see the module docstring)."""
        colors = self.plane_colors(game, seat)
        return {
            "board": self.board(game, colors),
            "pieces": self.pieces(game, colors),
            "action_mask": self.action_mask(game, seat),
        }


@functools.cache
def _encoding(variant_id: str, seating_id: str) -> Encoding:
    v, s = resolve(variant_id, seating_id)
    return Encoding(v, s)


def encoding(variant: str | Variant, seating: str | Seating | None = None) -> Encoding:
    """The (cached) encoding of a variant and seating; raises :class:`EnvConfigError`."""
    v, s = resolve(variant, seating)
    if s in v.seatings:
        return _encoding(v.id, s.id)
    return Encoding(v, s)
