"""The compiled search kernel: the rules of :mod:`blokus.game` in numba, for
random playouts, Monte-Carlo tree search and batched environments.

Everything here works on numpy arrays, so the hot loops run as machine code
with no Python objects.  The rules are those of :class:`blokus.Game` (and are
tested move for move against it); a move is a placement index of the
variant's :class:`~blokus.placements.PlacementTable`, the stable move index
shared with the RL environments.

Data
----
:class:`Tables` (``t``)
    Built once per variant from the placement table: :func:`tables` caches
    them, so getting them again is free.  Read-only.
:class:`State` (``s``)
    A position: three flat arrays (``words``, ``flags``, ``info``), so that
    a copy is three copies and a compiled call passes three arrays.
    :func:`views` names their parts (``board``, ``left``, ``turn``, …, see
    :class:`Views`).  Copy a state with :func:`copy_state` or, allocating
    nothing, :func:`copy_into`.  Made by :func:`new_state` (the empty board)
    or :func:`state_from_game` (any :class:`blokus.Game`, setup positions
    included).
RNG (``rng``)
    A ``uint64[1]`` array holding a splitmix64 state, from :func:`rng_state`;
    every random choice draws from it, so a seed reproduces games exactly.

Compiled functions (callable from Python and from other numba code)
-------------------------------------------------------------------
``to_move(s)``
    The colour to move, ``-1`` when the game is over.
``ply(s)``
    Turns so far, automatic passes included (``len(game.history)``).
``legal_moves(t, s, color, out) -> int``
    Writes ``color``'s legal placements, ascending, into ``out`` (an integer
    array; ``t.num_placements`` entries are always enough) and returns their
    number.
``legal_words(t, s, color, out) -> int``
    The same set as a bitset: ``out`` (``uint64[t.num_words]``) gets bit
    ``i % 64`` of word ``i // 64`` set for legal placement ``i``; returns
    the count.
``is_legal(t, s, placement) -> bool``
    Whether the colour to move may play ``placement``.
``play(t, s, placement)``
    Plays ``placement`` for the colour to move, then gives the turn to the
    next colour that can move, passing for the others; ``to_move`` becomes
    ``-1`` when none can.  Raises :class:`~blokus.notation.IllegalMoveError`
    (changing nothing) for a placement the colour to move may not play.
``play_moves(t, s, placements[, work])``
    Plays a sequence of placements known to be legal (unchecked), in one
    call: the search's way down its tree.
``random_move(t, s, rng) -> int``
    A uniformly random legal placement of the colour to move (``-1`` when
    the game is over).
``playout(t, s, rng) -> int``
    Plays uniformly random moves to the end of the game; returns the number
    of pieces placed.
``policy_playout(t, s, rng, big_pieces, limit) -> int``
    The same with a playout policy: each move is, with probability
    ``big_pieces``, chosen among the legal moves of the largest piece size
    the colour can play; stops after ``limit`` moves unless ``limit`` is -1.
``smart_playout(t, s, rng, size_factor, limit, played) -> int``
    The same with Pentobi's kind of playout policy: only large pieces in the
    first rounds, a move answering the opponents' last pieces when there is
    one (of ``k`` cells drawn with weight ``size_factor ** k``), else a
    uniformly random move; records the moves played in ``played`` (as in
    ``guided_playout``).
``guided_playout(t, s, rng, big_pieces, early_sizes, reply, reply2, prev2, prev, played,
answers[, work, forced]) -> int``
    The search's playout: ``policy_playout`` to the end, where a colour
    plays its last good reply (from the tables the search keeps) when that
    is legal, else (with ``answers`` positive) an answer to the opponents'
    last pieces as ``smart_playout`` does, and which records the moves it
    plays; ``forced`` moves first (the tree's moves, in the same call).
``points(t, s, out)``
    Each colour's points as Pentobi reports them (``game.scores("cells")``):
    cells placed, plus 15 for placing every piece (20 if the single cell went
    last); Junior has no bonus.
``new_state(t)``, ``copy_state(s)``, ``copy_into(dst, src)``, ``views(t, s)``
    As above; also compiled, so a search written in numba can use them.
``copy_live(t, dst, src)``
    ``copy_into`` less what nothing reads again: the rows of the colours out
    of moves (late in a game, most of the copy), and the scratch words.
``settle(t, s)``
    Flags every colour out of moves as ``done``, as :func:`state_from_game`
    does: a state played move by move then searches as one built from the
    game.
``work_space(t, answers=0, piece_weight=0, attach_factor=1) -> Work``
    The playouts' scratch arrays, made once for many playouts, so that a
    search's loop allocates nothing, with the pieces' weights the playouts
    draw their moves by, if any.

Python helpers: :func:`tables`, :func:`state_from_game`, :func:`rng_state`,
:func:`random_games` (many random games in compiled code, used by
``benchmarks/kernel.py``) and :func:`warm_up`.

Speed, and how
--------------
Each colour's legal moves are ``free & allowed[c] & reach[c]``, bitsets
with one bit per placement (see :class:`Views`).  Placements are numbered by
their lowest cell, so the placements covering a cell fill a few words close
together (about 21 on the Duo board, 23 on the Classic one), kept per cell
in :class:`Tables`; placing a piece clears those words of its cells from
``free`` and of its new edge neighbours from its colour's ``allowed``, and
ORs those of its new attach points into its ``reach``.  A random move is a
count of the legal bitset, a random draw, and a search for the chosen bit.
The count reads only the words that may hold legal moves (a bitset over
words per colour, ``live``), once most of the range of ``reach`` has none
of them any more: from the middle of a Classic game, a tenth of it.
On one core of the 2-core test machine, shared with other work, a
uniformly random complete game takes about 15-20 us in Duo (50,000-70,000
games a second), 45-65 us in Classic (15,000-22,000) and 55-70 us in Trigon
(14,000-18,000): ``python benchmarks/kernel.py``.
The playout policy of the tree search (:func:`policy_playout`) masks the
legal bitset with the bitset of each piece size (``Tables.size_mask``) in the
same loop, so choosing among the largest pieces costs a count per size
tried, not a list of the legal moves: 10-25% over a uniform playout.
The loop calls no compiled function with arrays: numba takes a reference to
every array a function is passed and gives it back on return (two calls
to its runtime an array), which cost a third of a Duo playout's time while
the answers to the opponents' last pieces were a function of their own.

Compilation
-----------
Every function is compiled once, for a signature shared by all variants
(pass ``int32`` arrays as ``out``, as :func:`warm_up` does, or each other
dtype compiles again), with ``cache=True``: the first use in a fresh
install compiles for about 20 seconds on the 2-core test machine; later
processes load the machine code from ``__pycache__`` in about a second.
numba checks a cached function against its own file only, so on import
:func:`drop_stale_caches` drops the caches of every compiled module of the
package (this one, the search's, the batched environments') when any of
them changed.  :func:`warm_up` compiles in a background thread, so that
an interactive program never freezes; a call made meanwhile waits for the
compilation to finish.  The compiled functions release the GIL, so
searches may run in threads (one state per thread).

Example::

    >>> t = tables("duo")
    >>> s = new_state(t)
    >>> out = np.empty(t.num_placements, np.int32)
    >>> legal_moves(t, s, to_move(s), out)
    414
    >>> moves = playout(t, s, rng_state(1))
    >>> to_move(s)
    -1
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

from blokus.game import Game
from blokus.notation import IllegalMoveError
from blokus.placements import placement_table
from blokus.variants import VARIANTS, Variant
from blokus.variants import variant as find_variant

__all__ = [
    "Tables",
    "State",
    "Views",
    "RandomGames",
    "tables",
    "new_state",
    "state_from_game",
    "copy_state",
    "copy_into",
    "copy_live",
    "settle",
    "work_space",
    "Work",
    "views",
    "rng_state",
    "to_move",
    "ply",
    "legal_moves",
    "legal_words",
    "is_legal",
    "play",
    "random_move",
    "playout",
    "policy_playout",
    "smart_playout",
    "points",
    "random_games",
    "warm_up",
    "drop_stale_caches",
]

U64 = npt.NDArray[np.uint64]
U32 = npt.NDArray[np.uint32]
U16 = npt.NDArray[np.uint16]
I32 = npt.NDArray[np.int32]
I16 = npt.NDArray[np.int16]
I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.integer[Any]]

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(f: F) -> F:
    """Compile ``f`` with numba: no Python objects, GIL released, cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(f))


def uncounted(f: F) -> F:
    """Compile ``f`` as :func:`_compiled` does, without numba's reference
    counting (its ``_nrt`` option off): for the functions a search calls
    once a simulation or more, which allocate nothing (numba refuses to
    compile an allocation there) and return no array.  A counted function
    counts a reference to every array it is passed, those in tuples
    included (twelve in :class:`Tables`), with two atomic calls each; those
    calls took a quarter of a Duo search's time (docs/speed.md).  The arrays
    a search passes outlive the call, so nothing is lost by not counting."""
    options: dict[str, Any] = {"_nrt": False}  # (numba's typing stubs leave it out)
    return cast(F, numba.njit(cache=True, nogil=True, **options)(f))


PACKAGE = Path(__file__).parent
COMPILED_SOURCES = ("kernel.py", "players/mcts.py", "rl/batched.py")
"""The package's modules with numba-compiled functions, which call each
other across files."""

SOURCES_STAMP = "compiled-sources.sha256"


def drop_stale_caches(package: Path = PACKAGE,
                      sources: tuple[str, ...] = COMPILED_SOURCES) -> bool:
    """Delete numba's cached machine code of ``sources`` (paths under
    ``package``) when any of them changed since the cache was written.

    numba checks only the file of each cached function, not the files of
    the functions it calls, so after an edit of this module (a ``git pull``
    in an editable install, say) the search in ``players/mcts.py`` would
    load machine code with the old kernel inlined.  A hash of all the
    compiled sources, kept in ``package/__pycache__``, tells when to drop
    every cache of them together.  Called on import; returns whether it
    dropped anything.  Caches numba keeps elsewhere (``NUMBA_CACHE_DIR``,
    or a user-wide folder when the package's folder is read-only) are left
    to numba, as are unwritable ones.
    """
    digest = hashlib.sha256()
    try:
        for name in sources:
            digest.update((package / name).read_bytes())
    except OSError:
        return False
    stamp = package / "__pycache__" / SOURCES_STAMP
    try:
        if stamp.read_text().strip() == digest.hexdigest():
            return False
    except OSError:
        pass  # no stamp yet: any cache there is of unknown sources
    dropped = False
    for folder in {(package / name).parent / "__pycache__" for name in sources}:
        stems = {Path(name).stem for name in sources if (package / name).parent == folder.parent}
        for path in folder.glob("*.nb[ic]"):
            if path.name.split(".", 1)[0] in stems:
                try:
                    path.unlink()
                    dropped = True
                except OSError:
                    pass
    try:  # written whole, then renamed: a process starting meanwhile reads all or none
        stamp.parent.mkdir(exist_ok=True)
        fresh = stamp.with_name(f"{SOURCES_STAMP}.{os.getpid()}")
        fresh.write_text(digest.hexdigest() + "\n")
        os.replace(fresh, stamp)
    except OSError:
        pass
    return dropped


drop_stale_caches()


def _ctpop(typingctx: Any, x: Any) -> Any:
    """Number of set bits of a ``uint64`` (one instruction)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def _cttz(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a non-zero ``uint64`` (one instruction)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


def _prefetch_item(typingctx: Any, array: Any, index: Any) -> Any:
    """Start loading ``array[index]`` into the cache (an index past the end
    is harmless: a prefetch never faults)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        name = "llvm.prefetch.p0"
        fn = builder.module.globals.get(name) or ir.Function(builder.module, fnty, name)
        # (a read, kept in every cache level, of data)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


_popcount = cast(Callable[[Any], np.uint64], intrinsic(_ctpop))
_prefetch = cast(Callable[[Any, Any], None], intrinsic(_prefetch_item))
_trailing_zeros = cast(Callable[[Any], np.uint64], intrinsic(_cttz))


# -- tables -------------------------------------------------------------------

# Columns of ``Tables.place``.
_SIZE, _NUM_ADJACENT, _NUM_CORNERS, _PIECE, _CELLS = 0, 1, 2, 3, 4


class Tables(NamedTuple):
    """Everything the kernel knows about a variant: sizes, where each part of
    a :class:`State` lives, and read-only numpy arrays.

    Placements are numbered as in the variant's
    :class:`~blokus.placements.PlacementTable` (by lowest cell), cells as on
    its board, pieces as in its piece set.
    """

    num_colors: int
    num_cells: int
    num_placements: int
    num_words: int
    """Words of a placement bitset: ``ceil(num_placements / 64)`` rounded up
    to a multiple of 8; the bits past the last placement are always zero."""
    num_pieces: int
    live_words: int
    """Words of a colour's ``live`` summary: ``ceil(num_words / 64)``."""
    bonus: int
    """1 if placing every piece earns a bonus (not in Junior)."""
    allowed_at: int
    """Offsets into ``State.words`` (``free`` is at 0) …"""
    reach_at: int
    live_at: int
    counts_at: int
    words_size: int
    attach_at: int
    """… into ``State.flags`` (``forbidden`` is at 0) …"""
    board_at: int
    left_at: int
    done_at: int
    flags_size: int
    hi_at: int
    """… and into ``State.info`` (``lo`` is at 0); see :class:`Views`."""
    placed_at: int
    last_piece_at: int
    last_move_at: int
    turn_at: int
    info_size: int
    place: I16
    """``[placement, :]``: size, number of edge neighbours, number of corner
    neighbours, piece, then the cells (ascending), the cells sharing an edge
    with the placement and the cells touching it at a corner only."""
    cover_start: U32
    """Entries ``cover_start[c]:cover_start[c + 1]`` of ``cover_word`` and
    ``cover_mask`` are the non-zero words of the bitset of placements
    covering cell ``c`` (few and close together, thanks to the numbering),
    ascending, then as many empty masks as make their number a multiple of
    4 (for a loop unrolled four times)."""
    cover_word: U16
    cover_mask: U64
    piece_keep: U64
    """``[piece, word]``: bitset of every placement *not* of this piece."""
    size_mask: U64
    """``[size * num_words + word]``: bitset of the placements of pieces of
    ``size`` cells; size 0 has every placement; ``max_size + m`` (``m`` from
    1) the placements of pieces of at least ``m`` cells."""
    piece_size: I8
    piece_copies: I8
    start_cells: I16
    """``[color, k]``: the starting cells of each colour, padded with -1."""
    neighbors: I16
    """``[cell, k]``: the cells sharing an edge with each cell, padded with -1."""
    max_size: int
    """Cells of the largest piece."""
    min_size: I8
    """Playout policy: while fewer than ``(r + 1) * num_colors`` pieces are
    on the board, only pieces of at least ``min_size[r]`` cells are
    considered (when the colour has one to play); past the end, all."""
    ally: I32
    """``[color]``: bitmask of the colours on the colour's side in the
    variant's default seating (itself included): the playout policy (and the
    search's move features) answer the last moves of the others."""


@functools.cache
def _board_tables(variant_id: str) -> dict[str, Any]:
    """The fields of :class:`Tables` that depend only on the board and the
    piece set."""
    v = find_variant(variant_id)
    board = v.board
    pt = placement_table(board, v.piece_set)
    n = pt.size
    num_words = (n + 511) // 512 * 8
    cells_of = board.cells_of
    rows = []
    for i in range(n):
        adjacent = cells_of(pt.adjacent[i])
        corners = cells_of(pt.corners[i])
        rows.append(
            [len(pt.cells[i]), len(adjacent), len(corners), pt.piece[i],
             *pt.cells[i], *adjacent, *corners]
        )
    place = np.full((n, max(len(r) for r in rows)), -1, np.int16)
    for i, r in enumerate(rows):
        place[i, : len(r)] = r

    def bitset(mask: int) -> U64:
        return np.frombuffer(mask.to_bytes(num_words * 8, "little"), "<u8").astype(np.uint64)

    starts = [0]
    cover_word: list[int] = []
    cover_mask: list[U64] = []
    for c in range(board.size):
        w = bitset(pt.cover[c])
        nonzero = [int(i) for i in np.flatnonzero(w)]
        pad = -len(nonzero) % 4  # repeat the last word with an empty mask
        cover_word.extend(nonzero + nonzero[-1:] * pad)
        cover_mask.append(np.concatenate([w[nonzero], np.zeros(pad, np.uint64)]))
        starts.append(len(cover_word))
    every = bitset(pt.all)
    pieces = v.piece_set.pieces
    max_size = max(p.size for p in pieces)
    degree = max(len(e) for e in board.edge_neighbors)
    neighbors = np.full((board.size, degree), -1, np.int16)
    for x, edge in enumerate(board.edge_neighbors):
        neighbors[x, : len(edge)] = edge
    if max_size == 6:  # Trigon: hexiamonds for four rounds, then smaller ones
        min_size = [6, 6, 6, 6, 5, 5, 4, 4]
    elif board.size > 200:  # Classic
        min_size = [5, 5, 5, 4, 4, 3, 3]
    else:  # Duo and Junior
        min_size = [5, 5, 4, 3, 3]
    return dict(
        num_cells=board.size,
        num_placements=n,
        num_words=num_words,
        num_pieces=len(pieces),
        place=place,
        cover_start=np.array(starts, np.uint32),
        cover_word=np.array(cover_word, np.uint16),
        cover_mask=np.concatenate(cover_mask).astype(np.uint64),
        piece_keep=np.stack([every & ~bitset(m) for m in pt.of_piece]),
        size_mask=np.concatenate([every] + [
            bitset(sum(m for p, m in zip(pieces, pt.of_piece, strict=True) if p.size == size))
            for size in range(1, max_size + 1)
        ] + [
            bitset(sum(m for p, m in zip(pieces, pt.of_piece, strict=True) if p.size >= size))
            for size in range(1, max_size + 1)
        ]),
        piece_size=np.array([p.size for p in pieces], np.int8),
        piece_copies=np.array([p.copies for p in pieces], np.int8),
        neighbors=neighbors,
        max_size=max_size,
        min_size=np.array(min_size, np.int8),
    )


def _allies(v: Variant) -> I32:
    """Per colour, the bitmask of the colours on its side in ``v``'s default
    seating (its own seat, its team)."""
    seating = v.seating
    side = {}
    for i, seat in enumerate(seating.seats):
        for c in seat.colors:
            side[c] = i
    for team in seating.teams or ():
        for i in team:
            for c in seating.seats[i].colors:
                side[c] = -1 - team[0]
    ally = np.zeros(v.num_colors, np.int32)
    for c in range(v.num_colors):
        for o in range(v.num_colors):
            if o == c or (c in side and side.get(o) == side[c]):
                ally[c] |= 1 << o
    return ally


@functools.cache
def tables(variant_id: str) -> Tables:
    """The kernel tables of a variant (by id or any name :func:`blokus.variant`
    accepts), built once per process (about a second for the big boards);
    raises ``KeyError`` for an unknown variant."""
    v = find_variant(variant_id)
    if v.id != variant_id:
        return tables(v.id)
    same = next(  # variants on one board with one piece set share the arrays
        u for u in VARIANTS.values()
        if u.board_spec == v.board_spec and u.piece_set is v.piece_set
    )
    shared = _board_tables(same.id)
    c, n, w, k = v.num_colors, shared["num_cells"], shared["num_words"], shared["num_pieces"]
    width = max(len(s) for s in v.starting_cells)
    start = np.full((c, width), -1, np.int16)
    for color, cells in enumerate(v.starting_cells):
        start[color, : len(cells)] = cells
    board_at = 2 * c * n
    lw = (w + 63) // 64
    t = Tables(
        num_colors=c,
        bonus=int(v.bonus),
        allowed_at=w,
        reach_at=(1 + c) * w,
        live_at=(1 + 2 * c) * w,
        live_words=lw,
        counts_at=(1 + 2 * c) * w + c * lw,
        words_size=(4 + 2 * c) * w + c * lw + 4,
        attach_at=c * n,
        board_at=board_at,
        left_at=board_at + n,
        done_at=board_at + n + c * k,
        flags_size=board_at + n + c * k + c,
        hi_at=c,
        placed_at=2 * c,
        last_piece_at=3 * c,
        last_move_at=4 * c,
        turn_at=5 * c,
        info_size=5 * c + 2,
        start_cells=start,
        ally=_allies(v),
        **shared,
    )
    for a in t:
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    return t


# -- state ------------------------------------------------------------------


class State(NamedTuple):
    """A position: three flat arrays, so that a copy is three copies (and a
    compiled call passes three arrays).  :func:`views` names their parts."""

    words: U64
    """Bitsets over placements: ``free``, ``allowed``, ``reach``, then
    ``live`` (bitsets over words), then ``3 * num_words + 4`` words of
    scratch space for :func:`play` and :func:`playout`."""
    flags: I8
    """``forbidden``, ``attach``, ``board``, ``left`` and ``done``."""
    info: I32
    """``lo``, ``hi``, ``placed``, ``last_piece``, ``last_move`` and ``turn``."""


class Views(NamedTuple):
    """Named views into a :class:`State` (``C`` colours, ``N`` cells, ``W``
    words, ``P`` pieces).  A placement is legal for colour ``c`` iff it is
    in ``free & allowed[c] & reach[c]`` (:mod:`blokus.game`'s ``possible``
    is ``free & allowed[c]``: the occupied cells are kept once for all
    colours)."""

    free: U64
    """``[W]``: placements covering no occupied cell."""
    allowed: U64
    """``[C, W]``: placements covering no cell next to the colour's own
    pieces, of a piece it still has."""
    reach: U64
    """``[C, W]``: placements covering one of the colour's attach points."""
    live: U64
    """``[C, ceil(W / 64)]``: bit ``w`` is set for every word ``w`` that
    holds a legal placement of the colour (and maybe for a few more: a
    move's draw clears the bits of the words it finds empty), so that the
    draws scan only these words of ``reach``'s range."""
    forbidden: I8
    """``[C, N]``: 1 where the colour may not play (occupied, or next to its own piece)."""
    attach: I8
    """``[C, N]``: 1 at the cells that are or were attach points (the
    starting cells before the colour's first piece)."""
    board: I8
    """``[N]``: the colour covering each cell, -1 where empty."""
    left: I8
    """``[C, P]``: copies of each piece not yet placed."""
    done: I8
    """``[C]``: 1 once the colour is known to have no legal move (for good:
    its legal set grows only through its own moves)."""
    lo: I32
    """``[C]``: the words of ``reach`` that may be non-zero start here …"""
    hi: I32
    """``[C]``: … and end before this word."""
    placed: I32
    """``[C]``: pieces placed."""
    last_piece: I32
    """``[C]``: the piece placed last, -1 before the first."""
    last_move: I32
    """``[C]``: the placement played last, -1 before the first."""
    turn: I32
    """``[2]``: the colour to move (-1 when the game is over) and the ply."""


@_compiled
def views(t: Tables, s: State) -> Views:
    """The named parts of ``s`` (views: writing to them changes ``s``)."""
    c, n, w, k = t.num_colors, t.num_cells, t.num_words, t.num_pieces
    words, flags, info = s.words, s.flags, s.info
    return Views(
        words[0:w],
        words[t.allowed_at:t.reach_at].reshape(c, w),
        words[t.reach_at:t.live_at].reshape(c, w),
        words[t.live_at:t.counts_at].reshape(c, t.live_words),
        flags[0:t.attach_at].reshape(c, n),
        flags[t.attach_at:t.board_at].reshape(c, n),
        flags[t.board_at:t.left_at],
        flags[t.left_at:t.done_at].reshape(c, k),
        flags[t.done_at:t.flags_size],
        info[0:t.hi_at],
        info[t.hi_at:t.placed_at],
        info[t.placed_at:t.last_piece_at],
        info[t.last_piece_at:t.last_move_at],
        info[t.last_move_at:t.turn_at],
        info[t.turn_at:t.info_size],
    )


@_compiled
def _has_moves(t: Tables, s: State, color: int) -> bool:
    words = s.words
    allowed = t.allowed_at + color * t.num_words
    reach = t.reach_at + color * t.num_words
    for w in range(s.info[color], s.info[t.hi_at + color]):
        if words[w] & words[allowed + w] & words[reach + w]:
            return True
    return False


@_compiled
def settle(t: Tables, s: State) -> None:
    """Flag every colour without a legal move as out of moves (``done``), as
    :func:`state_from_game` leaves a state (:func:`play` flags a colour when
    its turn comes)."""
    for c in range(t.num_colors):
        if s.flags[t.done_at + c] == 0 and not _has_moves(t, s, c):
            s.flags[t.done_at + c] = 1


@_compiled
def _rebuild(t: Tables, s: State) -> None:
    """Recompute the bitsets, ``lo``, ``hi`` and ``done`` from ``board``,
    ``forbidden``, ``attach`` and ``left``."""
    v = views(t, s)
    one = np.uint64(1)
    v.free[:] = 0
    v.allowed[:] = 0
    v.reach[:] = 0
    for i in range(t.num_placements):
        bit = one << np.uint64(i & 63)
        w = i >> 6
        cells = t.place[i, _CELLS:_CELLS + t.place[i, _SIZE]]
        empty = True
        for x in cells:
            if v.board[x] >= 0:
                empty = False
        if empty:
            v.free[w] |= bit
        for c in range(t.num_colors):
            ok = v.left[c, t.place[i, _PIECE]] > 0
            for x in cells:
                if v.forbidden[c, x]:
                    ok = False
            if ok:
                v.allowed[c, w] |= bit
    for c in range(t.num_colors):
        v.lo[c] = t.num_words
        v.hi[c] = 0
        for x in range(t.num_cells):
            if v.attach[c, x]:
                a, b = t.cover_start[x], t.cover_start[x + 1]
                for e in range(a, b):
                    v.reach[c, t.cover_word[e]] |= t.cover_mask[e]
                if b > a:
                    v.lo[c] = min(v.lo[c], t.cover_word[a])
                    v.hi[c] = max(v.hi[c], t.cover_word[b - 1] + 1)
        v.live[c, :] = 0
        for w in range(v.lo[c], v.hi[c]):
            if v.free[w] & v.allowed[c, w] & v.reach[c, w]:
                v.live[c, w >> 6] |= one << np.uint64(w & 63)
        v.done[c] = 0 if _has_moves(t, s, c) else 1


@_compiled
def _blank(t: Tables) -> State:
    """A state with an empty board and nothing else set: no pieces left, no
    attach points, no legal moves."""
    s = State(
        np.zeros(t.words_size, np.uint64),
        np.zeros(t.flags_size, np.int8),
        np.zeros(t.info_size, np.int32),
    )
    v = views(t, s)
    v.board[:] = -1
    v.last_piece[:] = -1
    v.last_move[:] = -1
    return s


@_compiled
def new_state(t: Tables) -> State:
    """The empty board, first colour to move (built from scratch in a
    millisecond or two: to start many games, copy one)."""
    s = _blank(t)
    v = views(t, s)
    for c in range(t.num_colors):
        v.left[c, :] = t.piece_copies
        for x in t.start_cells[c]:
            if x >= 0:
                v.attach[c, x] = 1
    _rebuild(t, s)
    return s


@_compiled
def copy_state(s: State) -> State:
    """An independent copy of ``s``."""
    return State(s.words.copy(), s.flags.copy(), s.info.copy())


@_compiled
def copy_into(dst: State, src: State) -> None:
    """Overwrite ``dst`` with ``src`` (of the same variant), allocating nothing."""
    a, b = dst.words, src.words
    for i in range(a.size):
        a[i] = b[i]
    _copy_flags_and_info(dst, src)


@uncounted
def _copy_flags_and_info(dst: State, src: State) -> None:
    """The flags and info of ``src`` into ``dst``."""
    f, g = dst.flags, src.flags
    for i in range(f.size):
        f[i] = g[i]
    m, n = dst.info, src.info
    for i in range(m.size):
        m[i] = n[i]


@uncounted
def copy_live(t: Tables, dst: State, src: State) -> None:
    """Overwrite ``dst`` with what a search reads of ``src``: :func:`copy_into`
    less the rows of the colours out of moves (``done``), which nothing reads
    again, and the scratch words; allocating nothing."""
    w = t.num_words
    a, b = dst.words[:w], src.words[:w]  # free (views: loops that vectorise)
    for i in range(w):
        a[i] = b[i]
    for c in range(t.num_colors):
        if src.flags[t.done_at + c]:
            continue
        start = t.allowed_at + c * w
        a, b = dst.words[start:start + w], src.words[start:start + w]
        for i in range(w):
            a[i] = b[i]
        start = t.reach_at + c * w
        a, b = dst.words[start:start + w], src.words[start:start + w]
        for i in range(w):
            a[i] = b[i]
        start = t.live_at + c * t.live_words
        for i in range(start, start + t.live_words):
            dst.words[i] = src.words[i]
    _copy_flags_and_info(dst, src)


def state_from_game(game: Game) -> State:
    """The kernel state of ``game``'s current position (setup pieces, pieces
    left, colour to move and ply included)."""
    t = tables(game.variant.id)
    s = _blank(t)  # everything below is set, then the bitsets are rebuilt once
    v = views(t, s)
    cells_of = game.board.cells_of
    for c in range(t.num_colors):
        for x in cells_of(game.cells_of(c)):
            v.board[x] = c
        for x in cells_of(game.forbidden(c)):
            v.forbidden[c, x] = 1
        if game.num_placed(c) == 0:
            for x in game.variant.starting_cells[c]:
                v.attach[c, x] = 1
        else:
            for x in cells_of(game.attach_points(c)):
                v.attach[c, x] = 1
        v.left[c, :] = 0
        for p in game.pieces_left(c):
            v.left[c, p.index] += 1
        v.placed[c] = game.num_placed(c)
        last = game.last_piece(c)
        v.last_piece[c] = -1 if last is None else last.index
    for turn in game.history:
        index = game.placement_of(turn.move)
        if index is not None:
            v.last_move[turn.color] = index
    _rebuild(t, s)
    v.turn[0] = -1 if game.turn is None else game.turn
    v.turn[1] = game.ply
    return s


# -- random numbers -----------------------------------------------------------


def rng_state(seed: int) -> U64:
    """A fresh random-number state (``uint64[1]``) from an integer seed."""
    return np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)


@_compiled
def _splitmix(seed: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next state and 64 random bits of a splitmix64 generator."""
    seed += np.uint64(0x9E3779B97F4A7C15)
    z = (seed ^ (seed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return seed, z ^ (z >> np.uint64(31))


@_compiled
def _below(bits: np.uint64, n: np.uint64) -> np.uint64:
    """An integer in ``[0, n)`` from 64 random bits, for ``n < 2**32``
    (bias below ``n / 2**32``)."""
    return ((bits >> np.uint64(32)) * n) >> np.uint64(32)


# -- moves ------------------------------------------------------------------


@uncounted
def to_move(s: State) -> int:
    """The colour to move, -1 when the game is over."""
    return int(s.info[-2])


@_compiled
def ply(s: State) -> int:
    """Turns so far, automatic passes included."""
    return int(s.info[-1])


@_compiled
def legal_words(t: Tables, s: State, color: int, out: U64) -> int:
    """Fill ``out`` with ``color``'s legal placements as a bitset; return their number."""
    words = s.words
    allowed = t.allowed_at + color * t.num_words
    reach = t.reach_at + color * t.num_words
    out[:] = 0
    n = 0
    for w in range(s.info[color], s.info[t.hi_at + color]):
        x = words[w] & words[allowed + w] & words[reach + w]
        out[w] = x
        n += int(_popcount(x))
    return n


@uncounted
def legal_moves(t: Tables, s: State, color: int, out: IntArray) -> int:
    """Write ``color``'s legal placements, ascending, into ``out``; return their number."""
    words = s.words
    allowed = t.allowed_at + color * t.num_words
    reach = t.reach_at + color * t.num_words
    one = np.uint64(1)
    n = 0
    for w in range(s.info[color], s.info[t.hi_at + color]):
        x = words[w] & words[allowed + w] & words[reach + w]
        while x:
            out[n] = w * 64 + int(_trailing_zeros(x))
            n += 1
            x &= x - one
    return n


@_compiled
def is_legal(t: Tables, s: State, placement: int) -> bool:
    """Whether the colour to move may play ``placement``."""
    c = s.info[t.turn_at]
    if c < 0 or placement < 0 or placement >= t.num_placements:
        return False
    w = placement >> 6
    x = s.words[w] & s.words[t.allowed_at + c * t.num_words + w]
    x &= s.words[t.reach_at + c * t.num_words + w]
    return bool(x >> np.uint64(placement & 63) & np.uint64(1))


@_compiled
def random_move(t: Tables, s: State, rng: U64) -> int:
    """A uniformly random legal placement of the colour to move, -1 if the game is over."""
    color = s.info[t.turn_at]
    if color < 0:
        return -1
    words = s.words
    allowed = t.allowed_at + color * t.num_words
    reach = t.reach_at + color * t.num_words
    lo, hi = s.info[color], s.info[t.hi_at + color]
    total = np.uint64(0)
    for w in range(lo, hi):
        total += _popcount(words[w] & words[allowed + w] & words[reach + w])
    rng[0], bits = _splitmix(rng[0])
    r = _below(bits, total)
    one = np.uint64(1)
    for w in range(lo, hi):
        x = words[w] & words[allowed + w] & words[reach + w]
        k = _popcount(x)
        if r < k:
            while r:
                x &= x - one
                r -= one
            return w * 64 + int(_trailing_zeros(x))
        r -= k
    return -1  # unreachable: the colour to move has a legal move


_KEPT = 1024
"""Room for the moves the playout policy keeps to draw from."""
_REDRAWS = 64
"""How many times a playout may draw a move again for its piece's weight."""


class Work(NamedTuple):
    """Scratch arrays of the playouts (their answers', and empty ones for
    the arguments not used), made once by :func:`work_space` for many
    playouts: the search's hot loop allocates nothing."""

    weight: F64
    value: I8
    """All zero between uses (as ``cand``)."""
    local: I32
    cand: U64
    kept: I32
    cumulative: F64
    none: I32
    none64: I64
    draw_weight: F64
    """Empty, or each piece's weight among all legal moves (:func:`work_space`)."""
    answer_weight: F64
    """Empty, or each piece's weight among the answers (:func:`work_space`)."""


@_compiled
def _idle_work() -> Work:
    """Empty scratch arrays, for playouts without answers."""
    return Work(np.empty(0, np.float64), np.empty(0, np.int8), np.empty(0, np.int32),
                np.empty(0, np.uint64), np.empty(0, np.int32), np.empty(0, np.float64),
                np.empty(0, np.int32), np.empty(0, np.int64), np.empty(0, np.float64),
                np.empty(0, np.float64))


@_compiled
def _piece_weights(t: Tables, size_factor: float, attach_factor: float) -> F64:
    """Each piece's weight ``size_factor ** k * attach_factor ** (a - 1)``,
    ``k`` its cells and ``a`` its attach points (the diagonal neighbours of
    its cells that touch none of them by an edge, counted as in the middle
    of the board), as Pentobi's playouts weight their moves."""
    most = np.zeros(t.num_pieces, np.int64)
    for q in range(t.num_placements):
        piece = t.place[q, _PIECE]
        most[piece] = max(most[piece], t.place[q, _NUM_CORNERS])
    weights = np.empty(t.num_pieces, np.float64)
    for piece in range(t.num_pieces):
        weights[piece] = size_factor ** t.piece_size[piece] * attach_factor ** (most[piece] - 1)
    return weights


@_compiled
def work_space(t: Tables, answers: float = 0.0, piece_weight: float = 0.0,
               attach_factor: float = 1.0) -> Work:
    """Fresh scratch arrays for the playouts of ``t``'s variant.  With
    ``piece_weight`` positive, a random move is drawn with its piece's
    weight (:func:`_piece_weights` of ``piece_weight`` and
    ``attach_factor``) instead of uniformly; with ``attach_factor`` other
    than 1 and ``answers`` positive, an answer is drawn with its piece's
    weight (of ``answers`` and ``attach_factor``) instead of ``answers **
    k`` (:func:`_run`)."""
    draw_weight = np.empty(0, np.float64)
    if piece_weight > 0.0:
        draw_weight = _piece_weights(t, piece_weight, attach_factor)
    answer_weight = np.empty(0, np.float64)
    if answers > 0.0 and attach_factor != 1.0:
        answer_weight = _piece_weights(t, answers, attach_factor)
    return Work(np.empty(t.max_size + 1, np.float64), np.zeros(t.num_cells, np.int8),
                np.empty(t.num_cells, np.int32), np.zeros(5 * t.num_words, np.uint64),
                np.empty(_KEPT, np.int32), np.empty(_KEPT, np.float64),
                np.empty(0, np.int32), np.empty(0, np.int64), draw_weight, answer_weight)


@uncounted
def _run(t: Tables, s: State, seed: np.uint64, forced: I32, big: np.uint64,
         limit: int, answers: float, reply: I32, played: I32, prev: int,
         early: bool, reply2: I64, prev2: int, work: Work) -> tuple[int, np.uint64]:
    """Play the placements ``forced`` (unchecked), then random moves drawn
    with the splitmix64 state ``seed``, each followed by the automatic
    passes, until the game is over or ``limit`` moves are played (-1: no
    limit; at least one move); return the number of moves played and the
    new ``seed``.

    With a non-empty ``reply`` table (last good reply, see
    :func:`guided_playout`), a colour whose entry for the move before its turn
    (``prev`` at the start) is a legal move plays it instead of drawing one;
    before that, with a non-empty ``reply2``, its entry for the two moves
    before its turn (``prev2``, ``prev`` at the start); a non-empty
    ``played`` records the moves as ``colour, placement`` pairs.
    Then, with ``answers`` positive, a colour plays an answer to the
    opponents' last moves if it has one (a move of ``k`` cells weighted
    ``answers ** k``, among those covering the most cells around those
    moves; see the comment where it is drawn).  With ``early``, a move not drawn among
    the largest pieces is drawn among the pieces the size schedule allows
    (``t.min_size``) while it allows some.

    A random move is uniform among the legal moves, except that with
    probability ``big / 2**32`` it is uniform among the legal moves of the
    largest piece size the colour can play; with ``work.draw_weight``, it
    is drawn with its piece's weight instead of uniformly (and with
    ``work.answer_weight``, an answer is weighted by its piece rather than
    its size).  With no limit, the turn passes
    lazily after the moves not forced: to the next colour not known to be
    out of moves (a colour found with none passes when its turn comes); the
    rules played are the same.  ``work``: scratch arrays (:func:`work_space`,
    or :func:`_idle_work` without answers).

    The body of :func:`play`, :func:`playout` and :func:`policy_playout`, one
    loop written for speed.  It is compiled :func:`uncounted` (a counted
    function pays two atomic calls for every array it receives, those in
    its tuples included); it works on the state's three flat arrays and
    calls nothing with array arguments, and indexes with unsigned integers,
    which skips numba's negative-index handling.
    """
    u0, u1, u2, u3, u4 = np.uint64(0), np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    num_colors = t.num_colors
    num_words = np.uint64(t.num_words)
    num_cells = np.uint64(t.num_cells)
    place, piece_keep, start_cells = t.place, t.piece_keep, t.start_cells
    cover_start, cover_word, cover_mask = t.cover_start, t.cover_word, t.cover_mask
    words, flags, info = s.words, s.flags, s.info
    allowed_at, reach_at = np.uint64(t.allowed_at), np.uint64(t.reach_at)
    # Scratch space: the indices of a colour's words with legal moves, then
    # those moves, then how many of them a draw counts.
    counts = np.uint64(t.counts_at)
    legal = counts + num_words
    per_word = legal + num_words
    live_at, live_words = np.uint64(t.live_at), np.uint64(t.live_words)
    attach_at, board_at = np.uint64(t.attach_at), np.uint64(t.board_at)
    left_at, done_at, hi_at = t.left_at, t.done_at, t.hi_at
    placed_at, last_piece_at, turn_at = t.placed_at, t.last_piece_at, t.turn_at
    size_mask, piece_size, num_pieces = t.size_mask, t.piece_size, t.num_pieces
    min_size, max_size = t.min_size, t.max_size
    num_forced = forced.size
    lazy = limit < 0  # (after the moves not forced)
    # Scratch space of the answers (below): ``value`` and ``cand`` all
    # zero, and left so.
    policy = answers > 0.0
    weight, value, local = work.weight, work.value, work.local
    cand, kept, cumulative = work.cand, work.kept, work.cumulative
    draw_weight = work.draw_weight
    weighted = draw_weight.size > 0
    answer_weight = work.answer_weight
    by_piece = answer_weight.size > 0
    num_kept = kept.size
    ally, neighbors, last_move_at = t.ally, t.neighbors, t.last_move_at
    num_neighbors = neighbors.shape[1]
    if policy:
        for cells_in_piece in range(weight.size):
            weight[cells_in_piece] = answers ** cells_in_piece
    num_placements = t.num_placements
    replies = reply.size > 0
    replies2 = reply2.size > 0
    room = played.size // 2
    moves = 0
    while info[turn_at] >= 0:
        color = info[turn_at]
        # Offsets of this colour's rows: ``allowed`` and ``reach`` in
        # ``words``, ``forbidden`` (at 0) and ``attach`` in ``flags``.
        allowed = allowed_at + np.uint64(color) * num_words
        reach = reach_at + np.uint64(color) * num_words
        forbidden = np.uint64(color) * num_cells
        attach = attach_at + forbidden
        lo, hi = np.uint64(info[color]), np.uint64(info[hi_at + color])

        is_forced = moves < num_forced
        p = int(forced[moves]) if is_forced else -1
        # Last good replies, when legal: to the two moves before, then to the one.
        if replies2 and p < 0 and prev2 >= 0 and prev >= 0:
            slot, key = _reply2_slot(color, prev2, prev, num_placements)
            answer = _reply2_move(reply2[slot], key)
            if answer >= 0:
                aw = np.uint64(answer >> 6)
                x = words[aw] & words[allowed + aw] & words[reach + aw]
                if (x >> np.uint64(answer & 63)) & u1:
                    p = answer
        if replies and p < 0 and prev >= 0:
            answer = int(reply[color * num_placements + prev])
            if answer >= 0:
                aw = np.uint64(answer >> 6)
                x = words[aw] & words[allowed + aw] & words[reach + aw]
                if (x >> np.uint64(answer & 63)) & u1:
                    p = answer
        if p < 0 and policy:
            # An answer to the opponents' last moves, as Pentobi's playouts
            # play: every free cell that is an attach point of an opponent's
            # last piece, or next to one, is worth 1 (2 if it is also an
            # attach point of ``color``); the legal moves covering the most
            # worth are kept (the first ``kept.size``, by placement) and a
            # move of ``k`` cells is drawn among them with weight
            # ``weight[k]``.  Early in the game only pieces of at least
            # ``min_size`` cells count (all if the colour has none of those
            # to play).  The moves are found from the cells, through the
            # cover lists, so that no legal move is counted, and their worth
            # is summed at once, bit-sliced: ``cand`` holds their bitset,
            # then four bit planes of their worth (at most 12: six cells
            # worth 2), so that no candidate's cells are read.  (Written out
            # here rather than in a function of its own: a call takes a
            # reference to each array it is passed and gives it back, 42
            # calls to numba's runtime a move for this one's 21 arrays,
            # which cost a third of the playout's time.)
            on_board = 0
            for o in range(num_colors):
                on_board += info[placed_at + o]
            rounds = on_board // num_colors
            at_least = u0  # the row of sizes >= the smallest that counts
            if rounds < min_size.size:
                at_least = np.uint64(max_size + int(min_size[rounds])) * num_words
                found = False
                for w in range(lo, hi):
                    if words[w] & words[allowed + w] & words[reach + w] & size_mask[at_least + w]:
                        found = True
                        break
                if not found:
                    at_least = u0
            # The worth of the cells around the opponents' last pieces.
            num_local = 0
            for o in range(num_colors):
                their = info[last_move_at + o]
                if (ally[color] >> o) & 1 or their < 0:
                    continue
                around = _CELLS + place[their, _SIZE] + place[their, _NUM_ADJACENT]
                for j in range(around, around + place[their, _NUM_CORNERS]):
                    point = place[their, j]
                    if flags[np.uint64(o) * num_cells + np.uint64(point)]:
                        continue  # no longer an attach point of o
                    for side in range(-1, num_neighbors):
                        near = point if side < 0 else neighbors[point, side]
                        if near < 0:
                            break
                        spot = np.uint64(near)
                        # (A cell forbidden to ``color`` is in none of its
                        # legal moves: its cover list is not read.)
                        if (value[near] == 0 and flags[np.uint64(o) * num_cells + spot] == 0
                                and flags[forbidden + spot] == 0):
                            value[near] = 2 if flags[attach + spot] else 1
                            local[num_local] = near
                            num_local += 1
            # The legal moves covering those cells, and their worth: a cell's
            # moves added to the bit planes (from plane 1 for a cell worth 2).
            first_word, last_word = num_words, u0
            for li in range(num_local):
                cell = np.uint64(local[li])
                plane0 = num_words * np.uint64(value[cell])
                for e in range(np.uint64(cover_start[cell]), np.uint64(cover_start[cell + u1])):
                    cw = np.uint64(cover_word[e])
                    m = cover_mask[e] & words[cw] & words[allowed + cw] & words[reach + cw]
                    if m:
                        cand[cw] |= m
                        carry = m
                        plane = plane0 + cw
                        while carry:
                            plane_bits = cand[plane]
                            cand[plane] = plane_bits ^ carry
                            carry &= plane_bits
                            plane += num_words
                        first_word = min(first_word, cw)
                        last_word = max(last_word, cw)
            for li in range(num_local):
                value[local[li]] = 0
            if first_word <= last_word:
                # The most worth, from the top plane down: keep the
                # candidates with the plane's bit whenever one has it.
                if at_least:
                    for w in range(first_word, last_word + u1):
                        cand[w] &= size_mask[at_least + w]
                for level in range(4, 0, -1):
                    plane = np.uint64(level) * num_words
                    for w in range(first_word, last_word + u1):
                        if cand[w] & cand[plane + w]:
                            for w2 in range(first_word, last_word + u1):
                                cand[w2] &= cand[plane + w2]
                            break
                n = 0
                worth = 0.0
                for w in range(first_word, last_word + u1):
                    y = cand[w]
                    cand[w] = u0
                    for level in range(1, 5):
                        cand[np.uint64(level) * num_words + w] = u0
                    while y and n < num_kept:  # (with more, the last have no chance)
                        q = int(np.int64(w * np.uint64(64) + _trailing_zeros(y)))
                        y &= y - u1
                        if by_piece:
                            worth += answer_weight[place[q, _PIECE]]
                        else:
                            worth += weight[place[q, _SIZE]]
                        kept[n] = q
                        cumulative[n] = worth
                        n += 1
                if n > 0:
                    seed, bits = _splitmix(seed)
                    drawn = (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0) * worth
                    p = int(kept[n - 1])
                    for li in range(n - 1):
                        if drawn < cumulative[li]:
                            p = int(kept[li])
                            break
        if p < 0:
            # A random legal move: count (keeping the count of each word),
            # draw, then find the word and the bit.  (-1 stays for a pass.)
            # ``want`` 0 counts every move, a larger one the moves of pieces
            # of that size (from the largest piece left down to the first
            # size with a legal move).  With ``big``, the low half of the
            # random bits picks it and the high half the move; without, the
            # bits are drawn only for a move, as random_move draws them.
            want = 0
            floor = 1
            bits = u0
            if big:
                seed, bits = _splitmix(seed)
                if (bits & np.uint64(0xFFFFFFFF)) < big:
                    for q in range(num_pieces):
                        if flags[left_at + color * num_pieces + q]:
                            want = max(want, int(piece_size[q]))
            if early and want == 0:
                # Early in the game, the pieces of at least min_size cells
                # (rows past max_size: sizes from ``want - max_size`` up).
                on_board = 0
                for o in range(num_colors):
                    on_board += info[placed_at + o]
                rounds = on_board // num_colors
                if rounds < min_size.size:
                    want = max_size + int(min_size[rounds])
                    floor = max_size + 1
            # The words that may hold legal moves, in order.  Mostly, when
            # few of reach's range are live: from the live bits (clearing
            # those of the words found empty), their indices at ``counts``
            # and their legal moves after them.  Else the whole range.
            num_live = u0
            row_live = live_at + np.uint64(color) * live_words
            for j in range(live_words):
                num_live += _popcount(words[row_live + j])
            dense = num_live + num_live > hi - lo
            if dense:
                num_live = hi - lo
            else:
                num_live = u0
                for j in range(live_words):
                    y = words[row_live + j]
                    kept_bits = y
                    while y:
                        b = _trailing_zeros(y)
                        y &= y - u1
                        word = j * np.uint64(64) + b
                        x = words[word] & words[allowed + word] & words[reach + word]
                        if x:
                            words[counts + num_live] = word
                            words[legal + num_live] = x
                            num_live += u1
                        else:
                            kept_bits &= ~(u1 << b)
                    words[row_live + j] = kept_bits
            while True:  # the moves of each word (of the size wanted)
                row = np.uint64(want) * num_words
                total = u0
                if dense:
                    for w in range(lo, hi):
                        k = _popcount(words[w] & words[allowed + w] & words[reach + w]
                                      & size_mask[row + w])
                        words[per_word + w - lo] = k
                        total += k
                else:
                    for i in range(num_live):
                        k = _popcount(words[legal + i] & size_mask[row + words[counts + i]])
                        words[per_word + i] = k
                        total += k
                if total != u0 or want <= floor:
                    break
                want -= 1
            if total == u0:
                # No legal move left: a playout finds this out here rather
                # than when the turn comes to the colour.
                flags[done_at + color] = 1
            else:
                for i in range(num_live, num_live + u4):
                    words[per_word + i] = u0
                # With piece weights, a drawn move is kept with probability
                # its weight over the most a piece left to the colour weighs
                # (the low half of its random bits decides), else drawn
                # again: at most _REDRAWS times, then the last is kept.
                # The counts become running totals, searched by halving.
                heaviest = 0.0
                if weighted:
                    for q in range(num_pieces):
                        if flags[left_at + color * num_pieces + q]:
                            heaviest = max(heaviest, draw_weight[q])
                    running = u0
                    for i in range(num_live):
                        running += words[per_word + i]
                        words[per_word + i] = running
                for attempt in range(_REDRAWS + 1):
                    if weighted or (attempt == 0 and not big):
                        seed, bits = _splitmix(seed)
                    r = _below(bits, total)
                    if weighted:
                        first, last = u0, num_live - u1
                        while first < last:
                            middle = (first + last) >> u1
                            if words[per_word + middle] > r:
                                last = middle
                            else:
                                first = middle + u1
                        if first:
                            r -= words[per_word + first - u1]
                        entry = first
                    else:
                        at = per_word
                        while True:  # four words at a time (it stops before the end)
                            k = words[at] + words[at + u1] + words[at + u2] + words[at + u3]
                            if r < k:
                                break
                            r -= k
                            at += u4
                        while r >= words[at]:
                            r -= words[at]
                            at += u1
                        entry = at - per_word
                    at = lo + entry if dense else words[counts + entry]
                    x = words[at] & words[allowed + at] & words[reach + at] & size_mask[row + at]
                    # The r-th lowest set bit of x: halve the search three times.
                    bit = u0
                    for half in (np.uint64(32), np.uint64(16), np.uint64(8)):
                        k = _popcount(x & ((u1 << half) - u1))
                        skip = np.uint64(r >= k)
                        r -= k * skip
                        x >>= half * skip
                        bit += half * skip
                    while r > u0:
                        x &= x - u1
                        r -= u1
                    p = int(np.int64(at * np.uint64(64) + bit + _trailing_zeros(x)))
                    if not weighted:
                        break
                    chance = (bits & np.uint64(0xFFFFFFFF)) * (1.0 / 4294967296.0)
                    if chance * heaviest < draw_weight[place[p, _PIECE]]:
                        break

        if p >= 0:
            # The next colour's replies, fetched while this move is played.
            following = (color + 1) % num_colors
            if replies:
                _prefetch(reply, following * num_placements + p)
            if replies2 and prev >= 0:
                _prefetch(reply2, _reply2_slot(following, prev, p, num_placements)[0])
            size = np.uint64(place[p, _SIZE])
            num_adjacent = np.uint64(place[p, _NUM_ADJACENT])
            num_corners = np.uint64(place[p, _NUM_CORNERS])
            piece = place[p, _PIECE]
            cells = np.uint64(_CELLS)
            adjacent = cells + size
            corners = adjacent + num_adjacent

            # The piece's cells leave ``free`` and become forbidden to everyone.
            for j in range(cells, adjacent):
                x = np.uint64(place[p, j])
                flags[board_at + x] = color
                for o in range(num_colors):
                    flags[np.uint64(o) * num_cells + x] = 1
                for e in range(np.uint64(cover_start[x]), np.uint64(cover_start[x + u1]), u4):
                    words[cover_word[e]] &= ~cover_mask[e]
                    words[cover_word[e + u1]] &= ~cover_mask[e + u1]
                    words[cover_word[e + u2]] &= ~cover_mask[e + u2]
                    words[cover_word[e + u3]] &= ~cover_mask[e + u3]
            # Its edge neighbours become forbidden to its colour.  (The new
            # ones are listed first, without branches, in the scratch words.)
            new = counts
            for j in range(adjacent, corners):
                x = np.uint64(place[p, j])
                words[new] = x
                new += np.uint64(flags[forbidden + x] == 0)
                flags[forbidden + x] = 1
            for i in range(counts, new):
                x = words[i]
                for e in range(np.uint64(cover_start[x]), np.uint64(cover_start[x + u1]), u4):
                    words[allowed + cover_word[e]] &= ~cover_mask[e]
                    words[allowed + cover_word[e + u1]] &= ~cover_mask[e + u1]
                    words[allowed + cover_word[e + u2]] &= ~cover_mask[e + u2]
                    words[allowed + cover_word[e + u3]] &= ~cover_mask[e + u3]

            # Its free corner neighbours are new attach points: the placements
            # covering them join ``reach``.  The first piece replaces the
            # starting cells.
            row_live = live_at + np.uint64(color) * live_words
            if info[placed_at + color] == 0:
                for w in range(reach + lo, reach + hi):
                    words[w] = u0
                for j in range(live_words):
                    words[row_live + j] = u0
                lo, hi = num_words, u0
                for x in start_cells[color]:
                    if x >= 0:
                        flags[attach + np.uint64(x)] = 0
            new = counts
            for j in range(corners, corners + num_corners):
                x = np.uint64(place[p, j])
                words[new] = x
                fresh = (flags[forbidden + x] == 0) & (flags[attach + x] == 0)
                flags[attach + x] |= fresh
                new += np.uint64(fresh)
            first_word, last_word = num_words, u0
            for i in range(counts, new):
                x = words[i]
                e0, e1 = np.uint64(cover_start[x]), np.uint64(cover_start[x + u1])
                for e in range(e0, e1, u4):
                    words[reach + cover_word[e]] |= cover_mask[e]
                    words[reach + cover_word[e + u1]] |= cover_mask[e + u1]
                    words[reach + cover_word[e + u2]] |= cover_mask[e + u2]
                    words[reach + cover_word[e + u3]] |= cover_mask[e + u3]
                first_word = min(first_word, np.uint64(cover_word[e0]))
                last_word = max(last_word, np.uint64(cover_word[e1 - u1]))
            if new > counts:
                lo = min(lo, first_word)
                hi = max(hi, last_word + u1)
                # The live bits of the words first_word to last_word (the
                # words between the new attach points' too: a few more).
                ja, jb = first_word >> np.uint64(6), last_word >> np.uint64(6)
                for j in range(ja, jb + u1):
                    bits_on = ~u0
                    if j == ja:
                        bits_on <<= first_word & np.uint64(63)
                    if j == jb:
                        bits_on &= ~u0 >> (np.uint64(63) - (last_word & np.uint64(63)))
                    words[row_live + j] |= bits_on
            info[color] = lo
            info[hi_at + color] = hi

            # One copy of the piece fewer; with none left, its placements leave
            # ``allowed``.
            left = left_at + color * t.num_pieces + piece
            flags[left] -= 1
            if flags[left] == 0:
                keep = np.uint64(piece)
                for w in range(num_words):
                    words[allowed + w] &= piece_keep[keep, w]
            info[placed_at + color] += 1
            info[t.last_move_at + color] = p
            info[last_piece_at + color] = piece
            if moves < room:
                played[2 * moves] = color
                played[2 * moves + 1] = p
            prev2 = prev
            prev = p
            moves += 1

        # The turn goes to the next colour with a legal move; the others pass.
        # (A playout skips only the colours known to have no move, and finds
        # out about the others when it counts their moves.)
        c = color
        turns = info[turn_at + 1] + 1
        info[turn_at] = -1
        checks = num_colors
        if p < 0:  # after a pass found by a playout, the game may be over
            checks = 0
            for o in range(num_colors):
                checks += 1 - flags[done_at + o]
            checks = num_colors if checks else 0
        for _ in range(checks):
            c = (c + 1) % num_colors
            if flags[done_at + c] == 0:
                if lazy and not is_forced:
                    info[turn_at] = c
                    break
                row_allowed = allowed_at + np.uint64(c) * num_words
                row_reach = reach_at + np.uint64(c) * num_words
                row_live = live_at + np.uint64(c) * live_words
                found = False
                for j in range(live_words):
                    y = words[row_live + j]
                    while y:
                        b = _trailing_zeros(y)
                        word = j * np.uint64(64) + b
                        if words[word] & words[row_allowed + word] & words[row_reach + word]:
                            found = True
                            break
                        y &= y - u1
                        words[row_live + j] &= ~(u1 << b)
                    if found:
                        break
                if found:
                    info[turn_at] = c
                    break
                flags[done_at + c] = 1
            turns += 1
        info[turn_at + 1] = turns
        if moves == limit:
            break
    return moves, seed


@_compiled
def _big_share(big_pieces: float) -> np.uint64:
    """The playout loop's ``big``: the share ``big_pieces`` of the random
    moves drawn among the largest pieces (clipped to 0..1), in 2**-32ths."""
    return np.uint64(min(max(big_pieces, 0.0), 1.0) * 4294967296.0)


@_compiled
def play(t: Tables, s: State, placement: int) -> None:
    """Play ``placement`` for the colour to move, then pass for every
    following colour that cannot move; raises
    :class:`~blokus.notation.IllegalMoveError` (and changes nothing) if it is
    not a legal move of the colour to move."""
    if not is_legal(t, s, placement):
        raise IllegalMoveError("the placement is not a legal move of the colour to move")
    forced = np.empty(1, np.int32)
    forced[0] = placement
    w = _idle_work()
    _run(t, s, np.uint64(0), forced, np.uint64(0), 1, 0.0, w.none, w.none, -1, False,
         w.none64, -1, w)


@_compiled
def play_moves(t: Tables, s: State, placements: I32, work: Work | None = None) -> None:
    """Play ``placements`` in order, each for the colour to move, with the
    automatic passes: :func:`play` in one call (cheaper per move), for moves
    known to be legal, as the search's moves down its tree are; nothing
    checks them.  ``work``: scratch arrays to use (:func:`work_space`)."""
    if work is None:
        work = _idle_work()
    play_known(t, s, placements, work)


@uncounted
def play_known(t: Tables, s: State, placements: I32, work: Work) -> None:
    """:func:`play_moves` with scratch arrays, without counting references
    (the search's call before it expands a node)."""
    if placements.size > 0:
        _run(t, s, np.uint64(0), placements, np.uint64(0), placements.size, 0.0, work.none,
             work.none, -1, False, work.none64, -1, work)


@_compiled
def playout(t: Tables, s: State, rng: U64) -> int:
    """Play uniformly random moves until the game is over; return the number played."""
    w = _idle_work()
    moves, rng[0] = _run(t, s, rng[0], w.none, np.uint64(0), -1, 0.0, w.none, w.none, -1, False,
                         w.none64, -1, w)
    return moves


@_compiled
def policy_playout(t: Tables, s: State, rng: U64, big_pieces: float, limit: int) -> int:
    """Play random moves until the game is over or ``limit`` moves are played
    (-1: no limit); return the number played.  Each move is, with
    probability ``big_pieces``, uniformly random among the legal moves of the
    largest piece size the colour to move can play, else uniformly random."""
    big = _big_share(big_pieces)
    w = _idle_work()
    moves, rng[0] = _run(t, s, rng[0], w.none, big, limit, 0.0, w.none, w.none, -1, False,
                         w.none64, -1, w)
    return moves


@_compiled
def smart_playout(t: Tables, s: State, rng: U64, size_factor: float, limit: int,
                  played: I32) -> int:
    """Play moves chosen as Pentobi's playouts choose them until the game is
    over or ``limit`` moves are played (-1: no limit); return the number
    played: an answer to the opponents' last moves (:func:`_run`, a move
    of ``k`` cells weighted ``size_factor ** k``) if the colour has one,
    else a uniformly random move, early in the game among the pieces the
    size schedule allows (``t.min_size``).  The moves played are written to
    ``played`` as ``colour, placement`` pairs (as many as fit; it may be
    empty)."""
    w = work_space(t)
    moves, rng[0] = _run(t, s, rng[0], w.none, np.uint64(0), limit, max(size_factor, 1e-9),
                         w.none, played, -1, True, w.none64, -1, w)
    return moves


REPLY2_SIZE = 1 << 16
"""Entries per colour of the hashed table of replies to two moves."""


@_compiled
def _reply2_slot(color: int, first: int, second: int, num_placements: int) -> tuple[int, int]:
    """Where the reply of ``color`` to the moves ``first``, ``second`` lives
    in a table of :data:`REPLY2_SIZE` entries per colour, and its key."""
    key = first * num_placements + second
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)
    return color * REPLY2_SIZE + int(h), key


@_compiled
def _reply2_move(entry: np.int64, key: int) -> int:
    """The reply in a two-move reply table's ``entry`` for ``key``, -1 if none."""
    if entry >= 0 and entry >> 32 == key:
        return int(entry & 0xFFFFFFFF)
    return -1


@_compiled
def reply2_of(reply2: I64, color: int, first: int, second: int, num_placements: int) -> int:
    """The reply of ``color`` to the moves ``first``, ``second`` in a
    two-move reply table (entries ``key << 32 | reply``, -1 empty), -1 if none."""
    slot, key = _reply2_slot(color, first, second, num_placements)
    return _reply2_move(reply2[slot], key)


@_compiled
def set_reply2(reply2: I64, color: int, first: int, second: int, num_placements: int,
               move: int, good: bool) -> None:
    """Record (``good``) or forget (if it is there) ``move`` as the reply of
    ``color`` to the moves ``first``, ``second``."""
    slot, key = _reply2_slot(color, first, second, num_placements)
    reply2[slot] = _reply2_updated(reply2[slot], key, move, good)


@_compiled
def _reply2_updated(entry: np.int64, key: int, move: int, good: bool) -> np.int64:
    """A two-move reply table's ``entry`` after recording (``good``) or
    forgetting (if it is there) ``move`` as the reply for ``key``."""
    mine = (np.int64(key) << 32) | move
    if good:
        return mine
    return np.int64(-1) if entry == mine else entry


@_compiled
def guided_playout(t: Tables, s: State, rng: U64, big_pieces: float, early_sizes: bool,
                   reply: I32, reply2: I64, prev2: int, prev: int, played: I32,
                   answers: float, work: Work | None = None,
                   forced: I32 | None = None) -> int:
    """The search's playout: :func:`policy_playout` to the end of the game,
    with more rules.  With ``early_sizes``, a move not drawn among the
    largest pieces is drawn among the pieces of at least ``t.min_size[r]``
    cells in the ``r``-th round (all pieces once none of those is legal, or
    past the schedule).  With non-empty reply tables, last good reply: a
    colour plays its reply to the two moves before its turn
    (:func:`reply2_of` in ``reply2``) if it has one and it is legal, else
    its reply to the move before its turn, ``reply[c * t.num_placements +
    q]`` (-1 for none), if that is legal.  Without a reply, and with
    ``answers`` positive, a colour plays an answer to the opponents' last
    moves if it has one, as :func:`smart_playout` does (a move of ``k``
    cells weighted ``answers ** k``); only then is a move drawn.  ``prev2``,
    ``prev``: the two moves before the first turn (-1 if unknown).  The
    moves played are written to ``played`` as ``colour, placement`` pairs
    (as many as fit); returns the number played.  The search fills in the
    reply tables from the simulations' results.  ``work``: scratch arrays
    to use (:func:`work_space`; by default, new ones).  ``forced``: moves
    to play first, as :func:`play_moves` plays them (they are recorded and
    counted, and the replies start from them)."""
    if work is None:
        work = work_space(t)
    if forced is None:
        forced = work.none
    big = _big_share(big_pieces)
    moves, rng[0] = _run(t, s, rng[0], forced, big, -1, max(answers, 0.0), reply, played,
                         prev, early_sizes, reply2, prev2, work)
    return moves


@uncounted
def points(t: Tables, s: State, out: IntArray) -> None:
    """Write each colour's points (cells placed + bonus) into ``out``."""
    flags = s.flags
    for c in range(t.num_colors):
        cells = 0
        remaining = 0
        for p in range(t.num_pieces):
            left = flags[t.left_at + c * t.num_pieces + p]
            remaining += left
            cells += (t.piece_copies[p] - left) * t.piece_size[p]
        bonus = 0
        if t.bonus and remaining == 0:
            bonus = 20 if t.piece_size[s.info[t.last_piece_at + c]] == 1 else 15
        out[c] = cells + bonus


# -- batches ------------------------------------------------------------------


@_compiled
def _random_games(t: Tables, n: int, rng: U64, total_points: I32) -> int:
    """Play ``n`` random games; add their points to ``total_points``; return
    the number of moves played."""
    start = new_state(t)
    s = copy_state(start)
    pts = np.zeros(t.num_colors, np.int32)
    moves = 0
    for _ in range(n):
        copy_into(s, start)
        moves += playout(t, s, rng)
        points(t, s, pts)
        total_points += pts
    return moves


@dataclass(frozen=True)
class RandomGames:
    """What :func:`random_games` measured."""

    variant: str
    games: int
    seconds: float
    """Wall-clock time of the compiled loop."""
    mean_moves: float
    """Pieces placed per game."""
    mean_points: tuple[float, ...]
    """Per colour, as :func:`points` counts them."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def random_games(variant_id: str, n: int, seed: int = 0) -> RandomGames:
    """Play ``n`` uniformly random games from the empty board in compiled code
    (the same games for the same seed); raises ``KeyError`` for an unknown
    variant and ``ValueError`` if ``n`` is negative."""
    if n < 0:
        raise ValueError(f"the number of games must be at least 0, not {n}")
    t = tables(variant_id)
    total = np.zeros(t.num_colors, np.int32)
    rng = rng_state(seed)
    t0 = time.perf_counter()
    moves = _random_games(t, n, rng, total)
    seconds = time.perf_counter() - t0
    d = max(n, 1)
    return RandomGames(
        find_variant(variant_id).id, n, seconds, moves / d, tuple(float(x) / d for x in total)
    )


def warm_up(variant_id: str | None = None, background: bool = True) -> threading.Thread | None:
    """Compile (or load from the cache) every kernel function, and build the
    tables of ``variant_id`` (default: Duo).  With ``background`` this runs in
    a daemon thread, which is returned; otherwise it returns ``None`` when
    done.  Raises ``KeyError`` for an unknown variant (at once, in the caller)."""
    find_variant(variant_id or "duo")

    def work() -> None:
        t = tables(variant_id or "duo")
        s = new_state(t)
        views(t, s)
        out = np.empty(t.num_placements, np.int32)
        legal_moves(t, s, to_move(s), out)
        legal_words(t, s, to_move(s), np.empty(t.num_words, np.uint64))
        is_legal(t, s, 0)
        ply(s)
        c = copy_state(s)
        play(t, c, random_move(t, c, rng_state(0)))
        copy_into(c, s)
        policy_playout(t, c, rng_state(0), 0.5, 1)
        playout(t, s, rng_state(0))
        points(t, s, out)
        _random_games(t, 1, rng_state(0), np.zeros(t.num_colors, np.int32))

    if not background:
        work()
        return None
    thread = threading.Thread(target=work, name="blokus-kernel-warm-up", daemon=True)
    thread.start()
    return thread
