"""Monte Carlo tree search on the compiled kernel, and the nine levels.

The whole simulation loop is compiled (numba, on :mod:`blokus.kernel`):
selection by a PUCT rule blended with RAVE (all-moves-as-first) statistics,
priors from a softmax over features of a move (:func:`move_features`: its
piece, the attach points it takes, gives up and creates, the legal moves it
takes from each side, how it answers the opponents' last pieces, the centre
early on) with weights learned from strong players' games
(``tools/train_prior.py``, ``prior_weights.json``; in Classic and Trigon they change
over a colour's game, see :data:`PHASES`), expansion of one node
per simulation, a playout to the end of the game (a colour plays its last
good reply when it is legal: the move with which it answered the two moves,
or else the one move, before its turn in the last simulation it won; else,
in Duo, Junior and Trigon, and in four-player Classic with a time budget
of at least :data:`ANSWERS_SECONDS`, a move answering the opponents' last
pieces if it has one; else half of the moves are chosen among the largest
pieces available, the others uniformly at random (in Trigon, and where
Classic answers, among the pieces of the early size schedule)),
and the result of every seat backed up along the path.  RAVE counts a move
as played in a simulation when its colour played it, in the tree or in the
playout.  A seat's result is its place against the other groups (1 win, 0 loss,
ties shared) blended with a score-difference term (weight 0.3), so the
search prefers winning by more; in Duo, Junior and ``classic_2`` that
term measures the difference against the search's other playouts (its
z-score), as Pentobi's does.

Nodes keep their children sorted by prior, a node below the root gets
children once it has two visits (four with a time budget, where
expansions' cost counts), and selection widens progressively (the first
``4 + sqrt(visits)`` children).  So that the tree stays small enough for
long searches, a node below the root is made with its best 48 children
only; once its window outgrows them (after about 2,000 visits) it gets
more, twice as many each time, up to all its legal moves, so that a long
search can still find a move the prior ranks low (as can a root reused
from the last move's tree, which was such a node).

Both cores are used by root parallelisation: each thread grows its own tree
from the same position (numba releases the GIL) and the root visit counts are
added up.  Trees are kept between moves: when the new position follows from the
previous root by the moves played since, the search continues in that subtree.

Levels (``level:N``): 1 and 2 play from the priors alone (level 1 sampling them
with a high temperature: plausible but beatable moves), 3 to 8 search a fixed
number of simulations (reproducible with a seed), 9 searches on two threads
for the time Pentobi's level 9 takes (:data:`LEVEL_9_SECONDS`).  A time
budget is the mean time of a move: the search spends more of it on a
colour's first pieces (:data:`TIME_SHARES`; with two colours most of it,
:data:`TIME_SHARES_DUO`; in Classic for two players most on its pieces 3
to 8, :data:`TIME_SHARES_CLASSIC_2`), except in Classic for three or four
players, where it spends more on the later ones
(:data:`TIME_SHARES_CLASSIC`).  A search with a time budget also ends as
soon as its most visited move can no longer change in the time left, and
the game's next moves get the time it saved (:data:`BANK_SPEND`).  In
Classic for three or four players a colour's first three pieces are the
prior's best move, with no search (:attr:`SearchParams.opening_by_prior`),
and in Duo and Classic for two with a short time budget
(:data:`OPENING_BY_PRIOR_SECONDS`) its first two; with a time budget
their time goes to the later moves, as a forced move's does.
"""

from __future__ import annotations

import functools
import json
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numba
import numpy as np
import numpy.typing as npt

from blokus import kernel as k
from blokus.game import Game
from blokus.notation import IllegalMoveError, Move
from blokus.pieces import JUNIOR
from blokus.variants import VARIANTS, Seating, Variant
from blokus.variants import variant as find_variant

__all__ = [
    "MctsPlayer", "PriorPlayer", "SearchParams", "mcts_player", "LEVEL_SETTINGS",
    "LEVEL_9_SECONDS", "warm_up",
    "move_features", "num_features", "base_features", "PHASES", "phase_share", "prior_weights",
    "default_weights", "prior_family",
    "time_share", "time_shares", "TIME_SHARES", "TIME_SHARES_CLASSIC", "TIME_SHARES_CLASSIC_2",
    "TIME_SHARES_DUO", "TIME_SHARES_JUNIOR",
    "WEIGHTS_FILE",
    "default_answers", "default_early_sizes", "default_rave_exploration",
    "default_relative_score", "default_attach_weight", "default_sharpness",
    "default_opening_by_prior", "OPENING_BY_PRIOR_SECONDS", "ANSWERS_SECONDS",
]

F32 = npt.NDArray[np.float32]
I32 = npt.NDArray[np.int32]
I8 = npt.NDArray[np.int8]
F64 = npt.NDArray[np.float64]


class Seats(NamedTuple):
    """Who owns the result of each colour's moves, as arrays for numba."""

    color_seat: I32
    """Seat of each colour; -1 for the shared colour (rotates)."""
    shared_color: int
    num_seats: int
    seat_group: I32
    """Scoring group of each seat; -1 for a neutral seat."""
    num_groups: int
    cell_weight: F32
    """Per cell: 1 at the centre, 0 at the farthest cell (for the prior)."""
    weights: F32
    """The prior's weight of each column of :func:`move_features`."""


class Tree(NamedTuple):
    move: I32
    seat: I8
    color: I8
    first_child: I32
    num_children: I32
    """-1 while the node is not expanded."""
    visits: F32
    value: F32
    prior: F32
    rave_n: F32
    rave_v: F32
    complete: I8
    """1 when the node is to get no more children (see :func:`_expand`); 0
    while the search gives it more as its selection window widens."""
    size: I32
    """``[1]``: nodes in use."""
    reply: I32
    """The playouts' last good replies: per colour and move, the move that
    answered it in the last simulation the colour won (-1: none)."""
    reply2: npt.NDArray[np.int64]
    """The same for pairs of moves (:func:`blokus.kernel.reply2_of`)."""
    stats: npt.NDArray[np.float64]
    """The current search's running statistics of its playouts' results
    (:attr:`SearchParams.relative_score`, :attr:`SearchParams.attach_weight`):
    count, mean and sum of squared deviations of each group's score
    difference, then of each group's difference in free attach points; at
    ``6 * num_colors``, the sum of each seat's results, and at ``7 *
    num_colors`` their count (:attr:`SearchParams.rave_weight`)."""
    mixed: npt.NDArray[np.float64]
    """What the selection reads of a node's statistics, worked out whenever
    they change (:func:`_refresh`): its mean result mixed with its RAVE
    mean (the first-play urgency while it has neither) …"""
    explored: npt.NDArray[np.float64]
    """… and the count that divides its prior term, ``1 + visits +
    rave_exploration * rave_n`` (with :attr:`SearchParams.rave_weight`,
    the mean and count of its visits and weighted RAVE results
    together)."""
    mixed_by: npt.NDArray[np.float64]
    """``[5]``: the first-play urgency, RAVE bias, RAVE exploration, RAVE
    weight and initial count that ``mixed`` and ``explored`` were worked
    out with and new children are made with (NaN before the first
    search)."""
    root_child: I32
    """For the RAVE update at the root: ``root_child[c * num_placements +
    p]`` is the root's child for colour ``c``'s placement ``p`` (-1: none)
    …"""
    root_block: I32
    """… when the root, its first child and its number of children are
    these three (-1: the table is to be made afresh)."""


@dataclass(frozen=True)
class SearchParams:
    exploration: float = 1.1
    rave_exploration: float | None = None
    """A child's RAVE results count this much each, beside its visits, in
    the prior term of the selection: ``exploration * prior * sqrt(N) / (1 +
    n + rave_exploration * rave_n)``, so that a move the playouts have
    already tried often is explored less for its prior (Pentobi's selection
    counts RAVE results in a move's count in the same way).  ``None``:
    :func:`default_rave_exploration` of the variant."""
    rave_bias: float = 0.001
    score_weight: float = 0.3
    """The weight of the score difference in a playout's result (the rest
    is the place); 0.3 beat 0.15 against Pentobi in Duo (docs/ladder.md)."""
    score_scale: float = 15.0
    """The score term of a playout's result is ``0.5 + 0.5 * tanh(d /
    score_scale)``, ``d`` the difference to the best other side.  Against
    Pentobi's Duo level 5, 5 scored 48.3% of 1,600 games where 15 scored
    46.1% (not shown better: docs/ladder.md)."""
    first_play_urgency: float = 0.55
    big_pieces: float = 0.5
    """Playout policy: the probability of choosing among the moves of the
    largest piece size available instead of among all legal moves."""
    max_children: float = 48.0
    """Below the root, the priors are over this many legal moves, the best
    (0: all), and a node has no more children than that unless ``regrow``."""
    first_children: float | None = None
    """A node below the root is made with this many children (best prior
    first, at most ``max_children``); whenever its selection window is wider
    than its children, it gets twice as many (:func:`_expand`).  Fewer take
    less memory (8: about 2 nodes a simulation instead of 9), but the
    children made later have missed the RAVE statistics of the simulations
    before them (8 against 48 at 2,000 simulations a move in Duo: 91-9-100,
    not a proven difference; where the tree fills up, 8 wins clearly:
    docs/ladder.md).  ``None``: 48, or 8 in a :class:`MctsPlayer` whose
    budget could fill its tree at 9 nodes a simulation (level 9, time
    budgets of more than about 4 s a move)."""
    widen_base: float = 4.0
    widen_rate: float = 1.0
    """Progressive widening: selection considers the first
    ``widen_base + widen_rate * sqrt(visits)`` children (best priors first)."""
    expand_after: float | None = None
    """A node below the root is expanded once it has this many visits.
    ``None``: 4 in a :class:`MctsPlayer` with a time budget (with or
    without a simulation budget beside it), else 2.  Later expansions are
    cheaper: at Pentobi's level-5 time in Classic, 3, 4 and 6 scored
    38.5–43.2% against that level where 2 scored 33.6–38.6% (400 games a
    run; 10 scored 32.9%), and 4 was within the noise of 2 at other
    levels; at an equal number of simulations neither was shown better (4
    against 2: Duo at 2,000, 44% of 100 games; Classic at 600, 56.5%), so
    the levels that count simulations, whose ladder was measured with 2,
    keep 2 (docs/ladder.md, "Expanding a node later")."""
    sharpness: float | None = None
    """The children's priors are ``softmax(sharpness * logits)``.
    ``None``: :func:`default_sharpness` of the variant."""
    last_good_reply: bool = True
    """Playout policy: a colour answers the move before its turn with the
    move that answered it in the last simulation the colour won, when that is
    legal (:func:`blokus.kernel.guided_playout`); the search keeps one table
    of replies per tree, for the whole game."""
    reply_to_two: bool = True
    """With ``last_good_reply``: a colour first tries its last good reply to
    the two moves before its turn (a hashed table), then its reply to the
    one move before."""
    early_sizes: bool | None = None
    """Playout policy: the moves not chosen among the largest pieces are
    chosen among the pieces the kernel's size schedule allows early in the
    game (``Tables.min_size``; the answers always are).  ``None``:
    :func:`default_early_sizes` of the variant and the time budget."""
    regrow: bool = True
    """A node (below the root, or a root reused from the last move's tree)
    goes on getting more children past the best ``max_children``, up to all
    its legal moves, as its selection window (``widen_base + widen_rate *
    sqrt(visits)``) widens, so that a long search can find a move its prior
    ranks low there too; off, it never has more than ``max_children``."""
    relative_score: bool | None = None
    """The score term measures a playout's score difference against the
    search's other playouts: ``tanh((d - mean) / sd)``, the mean and
    standard deviation of ``d`` over the playouts of the search so far,
    instead of ``tanh(d / score_scale)`` (as Pentobi's quality-based
    reward does).  ``None``: :func:`default_relative_score` of the
    variant."""
    attach_weight: float | None = None
    """The weight of a third term in a playout's result, for the attach
    points left at its end: a side's attach points that are free for the
    colour (no piece on them, none of the colour's pieces next to them),
    summed over its colours, less the most that another side has left,
    as a z-score ``z`` among the search's playouts (as Pentobi's reward
    for two players of two colours each has it).  The result becomes the
    place and score terms plus ``attach_weight * (0.5 + 0.5 * tanh(z))``,
    divided by ``1 + attach_weight``.  ``None``:
    :func:`default_attach_weight` of the variant."""
    answers: float | None = None
    """Playout policy: if positive, a colour without a last good reply
    answers the opponents' last moves when it can, as Pentobi's playouts do
    (:func:`blokus.kernel.guided_playout`: a move covering the most cells
    around their last pieces, one of ``k`` cells drawn with weight
    ``answers ** k``), before a move is drawn by ``big_pieces``.  ``None``:
    :func:`default_answers` of the variant and the time budget."""
    piece_weight: float = 0.0
    """Playout policy: if positive, a random move (among all legal moves,
    or among the largest pieces' with ``big_pieces``) is drawn with a
    weight for its piece, ``piece_weight ** k * attach_factor ** (a - 1)``
    for a piece of ``k`` cells with ``a`` attach points, as Pentobi's
    playouts draw them (:func:`blokus.kernel.work_space`), instead of
    uniformly.  0: off."""
    attach_factor: float = 1.0
    """Playout policy: the factor of each attach point of a piece past the
    first in its weight, among all moves (with ``piece_weight``) and
    among the answers (``answers ** k * attach_factor ** (a - 1)``)."""

    rave_weight: float = 0.0
    """RAVE as Pentobi counts it: if positive, a child's RAVE results are
    counted in its value and its count, each with this weight times ``1 -
    (j - d) / (m - d)`` (its move played ``j - d`` moves after the child's
    node, ``m - d`` moves after it in all), while the child has been
    counted at most ``rave_child_max`` times and its node visited at most
    ``rave_parent_max`` times; and a new child starts as if counted
    ``init_count`` times with the result ``r * sqrt(p / p_max)`` (``r`` the
    search's mean result so far for its seat, ``p / p_max`` its prior over
    the best of its siblings').  ``rave_bias`` and ``rave_exploration``
    then play no part.  0: RAVE kept apart and mixed in by ``rave_bias``."""
    rave_child_max: float = 2000.0
    rave_parent_max: float = 25000.0
    init_count: float = 3.0
    log_exploration: bool = False
    """The prior term of the selection is multiplied by ``log(N + 2)``
    (``N`` the node's visits), as Pentobi's is by ``log(N + 1)``."""

    opening_by_prior: int | None = None
    """A :class:`MctsPlayer` plays a colour's first this many pieces by the
    prior alone (its best move), without a search (with a time budget,
    the time they would have had goes to later moves, as a forced move's
    does: :data:`BANK_SPEND`).  ``None``:
    :func:`default_opening_by_prior` of the variant and the time budget.
    (The compiled search does not read it.)"""

    def opening(self, variant_id: str, seconds: float | None = None) -> int:
        """:attr:`opening_by_prior` as set, or its default in the variant
        for a search of ``seconds`` a move (None: a simulation budget)."""
        if self.opening_by_prior is not None:
            return self.opening_by_prior
        return default_opening_by_prior(variant_id, seconds)

    def array(self, variant_id: str | None = None,
              seconds: float | None = None) -> npt.NDArray[np.float64]:
        """The parameters as the compiled search reads them (defaults that
        depend on the variant for ``variant_id``; without one, off), for a
        search of ``seconds`` a move (None: a simulation budget)."""
        answers = _or_default(self.answers, functools.partial(default_answers, seconds=seconds),
                              variant_id, 0.0)
        early_sizes = _or_default(self.early_sizes,
                                  functools.partial(default_early_sizes, seconds=seconds),
                                  variant_id, False)
        rave_exploration = _or_default(self.rave_exploration, default_rave_exploration,
                                       variant_id, 0.0)
        relative_score = _or_default(self.relative_score, default_relative_score,
                                     variant_id, False)
        attach_weight = _or_default(self.attach_weight, default_attach_weight, variant_id, 0.0)
        sharpness = _or_default(self.sharpness, default_sharpness, variant_id, 1.0)
        return np.array([self.exploration, self.rave_bias, self.score_weight,
                         self.first_play_urgency, self.big_pieces, self.max_children,
                         self.widen_base, self.widen_rate,
                         _EXPAND_AFTER_SIMS if self.expand_after is None
                         else self.expand_after, answers,
                         sharpness, float(self.last_good_reply),
                         float(early_sizes), float(self.reply_to_two),
                         float(self.regrow),
                         _FIRST_CHILDREN_DEFAULT if self.first_children is None
                         else self.first_children, rave_exploration, self.score_scale,
                         float(relative_score), attach_weight, self.piece_weight,
                         self.attach_factor, self.rave_weight, self.rave_child_max,
                         self.rave_parent_max, self.init_count,
                         float(self.log_exploration)],
                        np.float64)


_T = TypeVar("_T")


def _or_default(value: _T | None, default: Callable[[str], _T], variant_id: str | None,
                off: _T) -> _T:
    """A :class:`SearchParams` field as set, or else ``default`` of the
    variant (``off`` without a variant)."""
    if value is not None:
        return value
    return default(variant_id) if variant_id else off


def default_answers(variant_id: str, seconds: float | None = None) -> float:
    """:attr:`SearchParams.answers` by default, for a search of ``seconds``
    a move (None: a simulation budget): 3.0 with two colours (Duo and
    Junior; in Duo it beat the playouts without answers against Pentobi at
    equal time); 5.0 in Trigon, with :func:`default_early_sizes` (at the
    simulation counts of Pentobi's level 4 it turned a loss of 10.9 points a
    game to that level into a win of 0.5); 5.0 in four-player Classic with a
    time budget of at least :data:`ANSWERS_SECONDS` a move, with
    :func:`default_early_sizes` (against Pentobi's level 6 at about equal
    time, 54.1% of 800 games where the playouts without answers scored
    47.2% beside them); off in Classic otherwise, where it has not been shown to
    pay for its cost (at level 5's time, 49.5% of 1,200 and 47.7% of
    1,600 games against 47.3% and 48.1%; not measured in Classic for two
    or three; docs/ladder.md)."""
    v = find_variant(variant_id)
    if v.num_colors == 2:
        return 3.0
    if v.board.kind == "triangle" or _long_enough_to_answer(v, seconds):
        return 5.0
    return 0.0


def default_early_sizes(variant_id: str, seconds: float | None = None) -> bool:
    """:attr:`SearchParams.early_sizes` by default, for a search of
    ``seconds`` a move (None: a simulation budget): on in Trigon and where
    four-player Classic answers (with the answers of
    :func:`default_answers`), off elsewhere."""
    v = find_variant(variant_id)
    return v.board.kind == "triangle" or _long_enough_to_answer(v, seconds)


ANSWERS_SECONDS: dict[str, float] = {"classic": 0.1}
"""By variant, the shortest time budget a move at which the playouts answer
the opponents' last pieces where they otherwise do not
(:func:`default_answers`).  In four-player Classic the answers cost about
half the simulations early in a game; at Pentobi's level-6 time (about
0.12 s a move) they were worth that, at its level-5 time (about 0.022 s)
they only paid for it; budgets between those and longer ones (level 9)
were not measured."""


def _long_enough_to_answer(v: Variant, seconds: float | None) -> bool:
    """Whether a search of ``seconds`` a move answers in ``v`` by
    :data:`ANSWERS_SECONDS`."""
    return seconds is not None and seconds >= ANSWERS_SECONDS.get(v.id, math.inf)


def default_rave_exploration(variant_id: str) -> float:
    """:attr:`SearchParams.rave_exploration` by default: 0.7 in Classic for
    three or four players, a colour each (against Pentobi's level 5 in the
    four-player game it lost about a point a game less than 0 at the same
    time a move, and it beat level 4 at equal time: 56.9% of 400 games;
    in the three-player game it scored 58.5% against level 5 where 0
    scored 52.8%, 400 games each), 0 elsewhere (in ``classic_2``, two colours
    a player, it scored 6 points of score rate less than 0 in one run of
    400 games; in Duo and Trigon no better within the noise; Junior not
    measured; docs/ladder.md)."""
    v = find_variant(variant_id)
    return 0.7 if v.board.kind == "square" and v.num_colors > 2 and _colours_a_seat(v, 1) else 0.0


def default_relative_score(variant_id: str) -> bool:
    """:attr:`SearchParams.relative_score` by default: on in the games of
    two players on a square board (Duo, Junior, ``classic_2``), where
    against Pentobi's level 5 it won by 1.5 to 5 points a game more at
    about the same score rate or better (at Duo's level 6, 45.4% of 600
    games and +1.9 points against 44.6% and +0.1); off with more players (in
    four-player Classic it made no difference) and in ``trigon_2``
    (not measured; docs/ladder.md)."""
    v = find_variant(variant_id)
    return v.board.kind == "square" and _two_players(v)


def default_attach_weight(variant_id: str) -> float:
    """:attr:`SearchParams.attach_weight` by default: 0.1 in ``classic_2``
    (two players of two colours each on the square board; against
    Pentobi's level 5 it scored 53.4% of 2,000 games, where the search
    without it scored about 49.7% of 2,000), 0 elsewhere (not measured;
    docs/ladder.md)."""
    v = find_variant(variant_id)
    return 0.1 if v.board.kind == "square" and _two_players(v) and _colours_a_seat(v, 2) else 0.0


def default_sharpness(variant_id: str) -> float:
    """:attr:`SearchParams.sharpness` by default: 1.3 with Junior's priors
    (against Pentobi's Junior level 6 at equal time it scored 51.4% of 800
    games where 1.0 scored 47.8% on the same seeds, and at level 5 62.3%
    of 400 where 1.0 scored 59.5%), 1.0 elsewhere (in Duo 1.3 was ahead
    at level 5, behind at level 4 and even at level 6; in four-player
    Classic no better at level 5; docs/ladder.md)."""
    return 1.3 if prior_family(variant_id) == "junior" else 1.0


def default_opening_by_prior(variant_id: str, seconds: float | None = None) -> int:
    """:attr:`SearchParams.opening_by_prior` by default, for a search of
    ``seconds`` a move (None: a simulation budget).

    3 in Classic for three or four players (against Pentobi's level 5 at
    about equal time, the search playing each colour's first three pieces
    by its prior scored 49.6% of 2,800 games in Classic for four, the
    search playing them all 46.2% of 4,400; with the first two, four or
    five pieces by the prior, no better than the search, 400 games each; in
    Classic for three 64.2% of 400 where the search scored 55.9% on the same
    seeds).

    2 in Duo with a time budget of at most :data:`OPENING_BY_PRIOR_SECONDS`
    a move (against Pentobi's level 5 at about equal time the first two
    pieces by the prior were ahead of the search in all eight pairs of
    matches on the same seeds, the last three 52.2% of 1,800 games against
    47.2%, and at level 4 54.2% of 1,200 against 50.0%; a time profile
    that searched those pieces on as little time scored 48.1% of 1,200
    where the prior scored 51.8%; the first piece alone 47.5% of 1,200,
    the first three 41.9%), 0 with a longer time (against level 6, 43.9%
    of 400 where the search scored 45.0%) or a simulation budget (at level
    5's 2,000 simulations the prior's first two pieces lost to the search,
    41.8% of 400 games).

    2 in Classic for two with a time budget of at most
    :data:`OPENING_BY_PRIOR_SECONDS` a move (against Pentobi's level 5 at
    equal time, 50.9% of 2,400 games and +3.9 points a game where the
    search scored 48.6% and +3.0 of 1,200 beside them; at level 6's time
    53.4% of 600 and +7.2 against 45.5% and +4.0, ahead in all three
    pairs; at level 4's 54.0% of 800 and +4.7 against 56.4% and +4.0:
    ahead on points at all three, the differences within the noise at
    levels 4 and 5), 0 with a simulation budget (not measured there; the
    first three pieces had scored 48.0% of 200 at level 5's time where the
    search scored 52.8%).

    0 elsewhere (in Trigon the first three pieces scored 36.5% of 200 against
    Pentobi's level 4 where the search scored 47.0%; in Junior the first
    two 41.8% of 1,200 against level 5, the search 52.5%; docs/ladder.md)."""
    v = find_variant(variant_id)
    if v.board.kind == "square" and v.num_colors == 4 and len(v.seating.seats) >= 3:
        return 3
    if seconds is not None and seconds <= OPENING_BY_PRIOR_SECONDS.get(v.id, -1.0):
        return 2
    return 0


OPENING_BY_PRIOR_SECONDS: dict[str, float] = {"duo": 0.02, "classic_2": 0.15}
"""By variant, the longest time budget a move at which a colour's first
two pieces are the prior's (:func:`default_opening_by_prior`).  In Duo
they won more at Pentobi's level-4 and level-5 times (about 0.005 and
0.012 s a move), not at its level-6 time (about 0.07 s); in Classic for
two they scored more points a game at its level-4 to level-6 times
(0.010 to 0.114 s), more games at levels 5 and 6; not measured at longer
times."""


def _two_players(v: Variant) -> bool:
    """Whether the variant is played by two players (in its usual seating)."""
    return len(v.seating.seats) == 2


def _colours_a_seat(v: Variant, n: int) -> bool:
    """Whether every seat of the variant's usual seating plays ``n`` colours."""
    return all(len(seat.colors) == n for seat in v.seating.seats)


# Positions in SearchParams.array().
_EXPLORATION, _RAVE_BIAS, _SCORE_WEIGHT, _FPU, _BIG_PIECES = 0, 1, 2, 3, 4
_MAX_CHILDREN, _WIDEN_BASE, _WIDEN_RATE, _EXPAND_AFTER, _ANSWERS, _SHARPNESS = 5, 6, 7, 8, 9, 10
_LAST_GOOD_REPLY, _EARLY_SIZES, _REPLY2, _REGROW, _FIRST_CHILDREN = 11, 12, 13, 14, 15
_RAVE_EXPLORATION, _SCORE_SCALE, _RELATIVE_SCORE, _ATTACH_WEIGHT = 16, 17, 18, 19
_PIECE_WEIGHT, _ATTACH_FACTOR = 20, 21
_RAVE_WEIGHT, _RAVE_CHILD_MAX, _RAVE_PARENT_MAX, _INIT_COUNT, _LOG_EXPLORATION = 22, 23, 24, 25, 26
# SearchParams.first_children when it is None: in general, and where the
# tree could fill up (_NODES_A_SIMULATION nodes a simulation with the first).
_FIRST_CHILDREN_DEFAULT, _FIRST_CHILDREN_SMALL, _NODES_A_SIMULATION = 48.0, 8.0, 9
# SearchParams.expand_after when it is None: with a simulation budget, and
# in a player with a time budget.
_EXPAND_AFTER_SIMS, _EXPAND_AFTER_TIMED = 2.0, 4.0


def _new_tree(capacity: int, num_placements: int, num_colors: int) -> Tree:
    # Only the root needs values (_clear); every other node is written
    # whole when it is made.
    tree = Tree(
        np.zeros(capacity, np.int32), np.zeros(capacity, np.int8),
        np.zeros(capacity, np.int8), np.zeros(capacity, np.int32),
        np.zeros(capacity, np.int32), np.zeros(capacity, np.float32),
        np.zeros(capacity, np.float32), np.zeros(capacity, np.float32),
        np.zeros(capacity, np.float32), np.zeros(capacity, np.float32),
        np.zeros(capacity, np.int8), np.zeros(1, np.int32),
        np.empty(num_placements * num_colors, np.int32),
        np.empty(k.REPLY2_SIZE * num_colors, np.int64),
        np.zeros(8 * num_colors, np.float64),
        np.zeros(capacity, np.float64), np.zeros(capacity, np.float64),
        np.full(5, np.nan), np.full(num_placements * num_colors, -1, np.int32),
        np.full(3, -1, np.int32),
    )
    _clear(tree, replies=True)
    return tree


def _clear(tree: Tree, replies: bool) -> None:
    """Empty ``tree`` for a new root, keeping its arrays (a child's fields
    are all written when it is made); with ``replies``, forget the
    playouts' replies too."""
    tree.size[0] = 1
    tree.move[0] = -1
    tree.first_child[0] = 0
    tree.num_children[0] = -1
    for field in (tree.seat, tree.color, tree.visits, tree.value, tree.prior, tree.rave_n,
                  tree.rave_v, tree.complete):
        field[0] = 0
    tree.mixed[0], tree.explored[0] = 0.0, 1.0  # (a root's are not read)
    tree.root_block[:] = -1  # (its nodes are to be written anew)
    if replies:
        tree.reply[:] = -1
        tree.reply2[:] = -1


# The layout of a row of the kernel's ``place`` table.
_SIZE, _NUM_ADJACENT, _NUM_CORNERS, _PIECE, _CELLS = 0, 1, 2, 3, 4


@k.uncounted
def _seat_of(seats: Seats, v: k.Views, color: int) -> int:
    seat = seats.color_seat[color]
    if seat < 0:
        return int(v.placed[seats.shared_color]) % seats.num_seats
    return int(seat)


# Features of a move for the prior (after one column per piece, see
# :func:`move_features`).
(_F_OPP_ATTACH, _F_OPP_NEAR, _F_OWN_ATTACH, _F_ALLY_ATTACH, _F_CENTRE, _F_SIZE_EARLY,
 _F_ADJ_OTHER, _F_ADJ_FORBIDDEN, _F_ADJ_OWN_ATTACH, _F_ADJ_FREE, _F_ADJ_OPP_ATTACH,
 _F_NEW_ATTACH, _F_CORNER_OLD, _F_NEW_ON_OPP, _F_LOCAL, _F_OPP_MOVES, _F_OWN_MOVES,
 _F_OWN_MOVES_EDGE) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21)
NUM_MOVE_FEATURES = 22
"""Features of a move besides its piece (``_F_NEW_ATTACH`` takes five
columns: new attach points by their number of free edge neighbours)."""

PHASES = (0.25, 0.5, 0.75)
"""The prior's weights change over a colour's game: besides the base block
of columns, :func:`move_features` repeats them once per phase, times
:func:`phase_share` (a tent around each of these shares of the colour's
pieces placed), so that each weight moves linearly between these points.
Weights without the phase blocks (the base block alone) count as zero
there."""


def base_features(variant_id: str) -> int:
    """Columns of the base block of :func:`move_features`: one per piece,
    then the move features, then one per piece again (early in the game)."""
    return 2 * int(k.tables(variant_id).num_pieces) + NUM_MOVE_FEATURES


def num_features(variant_id: str) -> int:
    """Columns of :func:`move_features` in a variant: the base block, then
    one copy of it per phase (:data:`PHASES`)."""
    return (1 + len(PHASES)) * base_features(variant_id)


_PHASE_CENTRES = np.array(PHASES, np.float32)


@k.uncounted
def _base_width(t: k.Tables) -> int:
    """:func:`base_features` in compiled code."""
    return 2 * t.num_pieces + NUM_MOVE_FEATURES


@k.uncounted
def phase_share(t: k.Tables, v: k.Views, color: int, phase: int) -> float:
    """How much of phase ``phase`` a move of ``color`` counts: 1 at its
    centre (a share of the colour's pieces placed), falling to 0 at the
    neighbouring centres."""
    share: float = v.placed[color] / t.num_pieces
    centre: float = _PHASE_CENTRES[phase]
    return max(0.0, 1.0 - abs(share - centre) / 0.25)


@k.uncounted
def _marks(t: k.Tables, v: k.Views, color: int, mark: I8) -> None:
    """Per cell, for the features of ``color``'s moves, into ``mark``: 1
    an opponent's attach point, 2 next to one (free for that opponent), 4
    an attach point of ``color``, 8 a partner's, 16 around an opponent's
    last piece (one of its attach points or next to one)."""
    nc = t.num_cells
    place = t.place
    forbidden, attach = v.forbidden, v.attach
    ally = t.ally[color]
    mark[:] = 0
    for o in range(t.num_colors):
        mine = (ally >> o) & 1
        for x in range(nc):
            if attach[o, x] and not forbidden[o, x]:
                if o == color:
                    mark[x] |= 4
                elif mine:
                    mark[x] |= 8
                else:
                    mark[x] |= 1
                    for j in range(t.neighbors.shape[1]):
                        y = t.neighbors[x, j]
                        if y >= 0 and not forbidden[o, y]:
                            mark[y] |= 2
        q = v.last_move[o]
        if mine or q < 0:
            continue
        corners = _CELLS + place[q, _SIZE] + place[q, _NUM_ADJACENT]
        for j in range(corners, corners + place[q, _NUM_CORNERS]):
            x = place[q, j]
            if forbidden[o, x]:
                continue
            mark[x] |= 16
            for i in range(t.neighbors.shape[1]):
                y = t.neighbors[x, i]
                if y >= 0 and not forbidden[o, y]:
                    mark[y] |= 16


@k.uncounted
def _moves_at(t: k.Tables, v: k.Views, color: int, own: F32, opp: F32) -> None:
    """Per cell, how many legal moves of ``color`` (into ``own``) and of its
    opponents (into ``opp``) cover it (in tens)."""
    own[:] = 0.0
    opp[:] = 0.0
    ally = t.ally[color]
    one = np.uint64(1)
    for o in range(t.num_colors):
        if ((ally >> o) & 1 and o != color) or v.done[o]:
            continue  # (a colour out of moves has none, whatever its rows hold)
        into = own if o == color else opp
        for i in range(t.live_words):  # the words that may hold legal moves
            y = v.live[o, i]
            while y:
                w = i * 64 + int(k._trailing_zeros(y))
                y &= y - one
                x = v.free[w] & v.allowed[o, w] & v.reach[o, w]
                while x:
                    p = w * 64 + int(k._trailing_zeros(x))
                    x &= x - one
                    for j in range(_CELLS, _CELLS + t.place[p, _SIZE]):
                        into[t.place[p, j]] += 0.1


@k.uncounted
def _early(t: k.Tables, v: k.Views) -> float:
    """1 at the start of the game, falling to 0 once every colour has placed
    four pieces."""
    placed = 0
    for c in range(t.num_colors):
        placed += v.placed[c]
    return max(0.0, 1.0 - placed / (4.0 * t.num_colors))


@numba.njit(cache=True, nogil=True)
def move_features(t: k.Tables, seats: Seats, v: k.Views, color: int, moves: I32, n: int,
                  out: F32) -> None:
    """The features of the legal moves ``moves[:n]`` of ``color`` into
    ``out[:n]``: its piece (one-hot), then counts over its cells (on
    opponents' attach points, next to them, on its own or a partner's, how
    central early in the game), over its edge neighbours (the cells it makes
    forbidden to its colour: taken by others, already forbidden, its own
    attach points, free cells), over its corner neighbours (new attach points
    by how free they are, ones already there, ones an opponent also has) and
    the cells that answer the opponents' last moves (attach points of those
    pieces and their neighbours), the legal moves of the opponents and of
    its own colour that cover its cells and (its own) its edge neighbours
    (in tens: the moves it takes away), then its piece again (one-hot times
    :func:`_early`): the base block, of :func:`base_features` columns.  Then
    the base block again for each of :data:`PHASES`, times that phase's
    share (:func:`phase_share`)."""
    early = _early(t, v)
    sc = scratch(t)
    _per_cell(t, v, color, sc)
    mark, own, opp, edge_column, corner_column = (sc.mark, sc.own, sc.opp, sc.edge_column,
                                                  sc.corner_column)
    place = t.place
    base = t.num_pieces
    out[:n] = 0.0
    for i in range(n):
        p = moves[i]
        f = out[i, base:base + NUM_MOVE_FEATURES]
        size = place[p, _SIZE]
        adjacent = _CELLS + size
        corners = adjacent + place[p, _NUM_ADJACENT]
        centre = 0.0
        for j in range(_CELLS, adjacent):
            x = place[p, j]
            m = mark[x]
            f[_F_OPP_ATTACH] += m & 1
            f[_F_OPP_NEAR] += ((m >> 1) & 1) * (1 - (m & 1))
            f[_F_OWN_ATTACH] += (m >> 2) & 1
            f[_F_ALLY_ATTACH] += (m >> 3) & 1
            f[_F_LOCAL] += (m >> 4) & 1
            f[_F_OPP_MOVES] += opp[x]
            f[_F_OWN_MOVES] += own[x]
            centre += seats.cell_weight[x]
        for j in range(adjacent, corners):
            x = place[p, j]
            f[edge_column[x]] += 1.0
            f[_F_ADJ_OPP_ATTACH] += mark[x] & 1
            f[_F_OWN_MOVES_EDGE] += own[x]
        for j in range(corners, corners + place[p, _NUM_CORNERS]):
            x = place[p, j]
            column = corner_column[x]
            f[column] += 1.0
            if column != _F_CORNER_OLD:
                f[_F_NEW_ON_OPP] += mark[x] & 1
        f[_F_CENTRE] = early * centre / size
        f[_F_SIZE_EARLY] = early * size
        out[i, place[p, _PIECE]] = 1.0
        out[i, base + NUM_MOVE_FEATURES + place[p, _PIECE]] = early
    width = _base_width(t)
    for phase in range(_PHASE_CENTRES.size):
        share = phase_share(t, v, color, phase)
        block = (phase + 1) * width
        for i in range(n):
            for j in range(width):
                out[i, block + j] = share * out[i, j]


@k.uncounted
def _cell_columns(t: k.Tables, v: k.Views, color: int, mark: I8, edge_column: I8,
                  corner_column: I8) -> None:
    """Per cell, the feature column it counts in when a move of ``color``
    shares an edge with it (into ``edge_column``), and when it touches the
    move at a corner only (into ``corner_column``), given its ``mark``
    (:func:`_marks`)."""
    forbidden = v.forbidden
    for x in range(t.num_cells):
        m = mark[x]
        if v.board[x] >= 0:
            edge_column[x] = _F_ADJ_OTHER
        elif forbidden[color, x]:
            edge_column[x] = _F_ADJ_FORBIDDEN
        elif m & 4:
            edge_column[x] = _F_ADJ_OWN_ATTACH
        else:
            edge_column[x] = _F_ADJ_FREE
        if forbidden[color, x] or m & 4:
            corner_column[x] = _F_CORNER_OLD
        else:
            free = 0
            for i in range(t.neighbors.shape[1]):
                y = t.neighbors[x, i]
                if y >= 0 and not forbidden[color, y]:
                    free += 1
            corner_column[x] = _F_NEW_ATTACH + min(free, 4)


class Scratch(NamedTuple):
    """Arrays the prior fills in as it works (:func:`scratch`), so that
    working out the priors of a node's moves allocates nothing."""

    mark: I8
    """Per cell: :func:`_marks`."""
    own: F32
    """Per cell: :func:`_moves_at` …"""
    opp: F32
    edge_column: I8
    """Per cell: :func:`_cell_columns` …"""
    corner_column: I8
    cover: F32
    """Per cell: what :func:`_prior_logits` adds up for a move's cells …"""
    edge: F32
    """… for its edge neighbours …"""
    corner: F32
    """… and its corner neighbours; …"""
    centre: F32
    """… the weighted centre column of its cells."""
    weights: F32
    """The weights of the base block of columns in the colour's phase."""
    by_piece: F32
    """Per piece: its weights."""


@numba.njit(cache=True, nogil=True)
def scratch(t: k.Tables) -> Scratch:
    """A :class:`Scratch` for the variant of ``t``."""
    nc = t.num_cells
    return Scratch(np.zeros(nc, np.int8), np.zeros(nc, np.float32), np.zeros(nc, np.float32),
                   np.zeros(nc, np.int8), np.zeros(nc, np.int8), np.zeros(nc, np.float32),
                   np.zeros(nc, np.float32), np.zeros(nc, np.float32), np.zeros(nc, np.float32),
                   np.zeros(_base_width(t), np.float32), np.zeros(t.num_pieces, np.float32))


@k.uncounted
def _per_cell(t: k.Tables, v: k.Views, color: int, sc: Scratch) -> None:
    """What the features of ``color``'s moves read per cell, into ``sc``:
    the marks, the legal moves of its own and of the opponents covering
    each cell, and the edge and corner columns."""
    _marks(t, v, color, sc.mark)
    _moves_at(t, v, color, sc.own, sc.opp)
    _cell_columns(t, v, color, sc.mark, sc.edge_column, sc.corner_column)


@k.uncounted
def _prior_logits(t: k.Tables, seats: Seats, v: k.Views, color: int, moves: I32, n: int,
                  out: F32, sc: Scratch) -> None:
    """Logits of the legal moves ``moves[:n]`` of ``color``, into ``out``:
    the prior weights of the variant's family times the features of each
    move (``sc``: scratch space, :func:`scratch`).

    The same sum as ``weights @ move_features(...)``, taken in another
    order: the phase blocks are folded into the base block's weights first
    (the phase is the same for every move), then every column but the
    centre is a sum over a move's cells, edge neighbours or corner
    neighbours, so each cell's weighted contribution in each of those three
    roles is worked out once, and a move's logit adds up its cells' values
    (the expansions' main cost)."""
    base = t.num_pieces
    late = base + NUM_MOVE_FEATURES  # where the early piece columns start
    # The weights of this colour's phase: the base block plus each phase
    # block times its share.
    width = _base_width(t)
    w = sc.weights
    for j in range(width):
        w[j] = seats.weights[j]
    for phase in range(_PHASE_CENTRES.size):
        share = phase_share(t, v, color, phase)
        if share > 0.0:
            block = (phase + 1) * width
            for j in range(width):
                w[j] += share * seats.weights[block + j]
    f = w[base:late]
    early = _early(t, v)
    _per_cell(t, v, color, sc)
    mark, own, opp, edge_column, corner_column = (sc.mark, sc.own, sc.opp, sc.edge_column,
                                                  sc.corner_column)
    nc = t.num_cells
    cover, edge, corner, centre = sc.cover, sc.edge, sc.corner, sc.centre
    for x in range(nc):
        m = mark[x]
        opp_attach = m & 1
        cover[x] = (f[_F_OPP_ATTACH] * opp_attach
                    + f[_F_OPP_NEAR] * (((m >> 1) & 1) * (1 - opp_attach))
                    + f[_F_OWN_ATTACH] * ((m >> 2) & 1)
                    + f[_F_ALLY_ATTACH] * ((m >> 3) & 1)
                    + f[_F_LOCAL] * ((m >> 4) & 1)
                    + f[_F_OPP_MOVES] * opp[x] + f[_F_OWN_MOVES] * own[x])
        centre[x] = early * f[_F_CENTRE] * seats.cell_weight[x]
        edge[x] = (f[edge_column[x]] + f[_F_ADJ_OPP_ATTACH] * opp_attach
                   + f[_F_OWN_MOVES_EDGE] * own[x])
        column = corner_column[x]
        corner[x] = f[column]
        if column != _F_CORNER_OLD:
            corner[x] += f[_F_NEW_ON_OPP] * opp_attach
    by_piece = sc.by_piece
    for piece in range(base):
        by_piece[piece] = w[piece] + early * w[late + piece]
    place = t.place
    size_early = early * f[_F_SIZE_EARLY]
    for i in range(n):
        p = moves[i]
        size = place[p, _SIZE]
        adjacent = _CELLS + size
        corners = adjacent + place[p, _NUM_ADJACENT]
        total = by_piece[place[p, _PIECE]] + size_early * size
        middle = 0.0
        for j in range(_CELLS, adjacent):
            x = place[p, j]
            total += cover[x]
            middle += centre[x]
        for j in range(adjacent, corners):
            total += edge[place[p, j]]
        for j in range(corners, corners + place[p, _NUM_CORNERS]):
            total += corner[place[p, j]]
        out[i] = total + middle / size


@numba.njit(cache=True, nogil=True)
def _best(logits: F32, n: int, count: int) -> I32:
    """The indices of the ``count`` largest of ``logits[:n]``, largest first
    (``count < n``; among equal logits, lower indices first)."""
    threshold = np.partition(logits[:n], n - count)[n - count]
    chosen = np.empty(count, np.int32)
    found = 0
    for i in range(n):
        if logits[i] > threshold:
            chosen[found] = i
            found += 1
    for i in range(n):
        if found == count:
            break
        if logits[i] == threshold:
            chosen[found] = i
            found += 1
    order = np.argsort(-logits[chosen], kind="mergesort")
    return chosen[order]


@numba.njit(cache=True, nogil=True)
def _expand(t: k.Tables, seats: Seats, tree: Tree, node: int, s: k.State, v: k.Views,
            moves: I32, logits: F32, sc: Scratch, max_children: int, count: int, regrow: bool,
            sharpness: float) -> None:
    """Give ``node`` (at position ``s``) its best ``count`` children (0: all),
    best prior first, in a new block of the tree; children it had keep their
    statistics and subtrees (its old block is left unused).

    The priors are a softmax over the best ``max_children`` legal moves (0:
    all) while the node has no more children than that; with ``regrow`` it
    may get more, and then they are a softmax over all.  A node that is to
    get no more children is marked complete: it has all its legal moves, or
    the best ``max_children`` without ``regrow``, or the tree is full."""
    color = k.to_move(s)
    n = k.legal_moves(t, s, color, moves)
    _prior_logits(t, seats, v, color, moves, n, logits, sc)
    pool = n  # the moves the priors are over
    if 0 < max_children < n and (count <= max_children or not regrow):
        pool = max_children
    count = pool if count <= 0 else min(count, pool)
    had, first = max(0, int(tree.num_children[node])), tree.first_child[node]
    start = tree.size[0]
    if count <= had or start + count > tree.move.shape[0]:
        if had > 0:
            tree.complete[node] = 1  # (nothing more to give, or the tree is full)
        return  # (a node without children stays a leaf)
    if pool < n:
        order = _best(logits, n, pool)
    else:
        order = np.argsort(-logits[:n]).astype(np.int32)
    top = logits[order[0]]
    total = 0.0
    for i in range(pool):
        total += math.exp((logits[order[i]] - top) * sharpness)
    seat = _seat_of(seats, v, color)
    init = tree.mixed_by[4] if tree.mixed_by[3] > 0.0 else 0.0
    mean = 0.0
    if init > 0.0:  # SearchParams.rave_weight: the search's mean result for the seat
        at = 6 * t.num_colors
        runs = tree.stats[at + t.num_colors]
        mean = tree.stats[at + seat] / runs if runs > 0 else tree.mixed_by[0]
    for i in range(count):
        c = start + i
        j = order[i]
        old = -1
        for o in range(first, first + had):
            if tree.move[o] == moves[j]:
                old = o
                break
        if old >= 0:
            tree.move[c] = tree.move[old]
            tree.seat[c] = tree.seat[old]
            tree.color[c] = tree.color[old]
            tree.first_child[c] = tree.first_child[old]
            tree.num_children[c] = tree.num_children[old]
            tree.visits[c] = tree.visits[old]
            tree.value[c] = tree.value[old]
            tree.rave_n[c] = tree.rave_n[old]
            tree.rave_v[c] = tree.rave_v[old]
            tree.complete[c] = tree.complete[old]
            tree.mixed[c] = tree.mixed[old]
            tree.explored[c] = tree.explored[old]
        else:
            tree.move[c] = moves[j]
            tree.seat[c] = seat
            tree.color[c] = color
            tree.num_children[c] = -1
            tree.visits[c] = 0.0
            tree.value[c] = 0.0
            tree.rave_n[c] = 0.0
            tree.rave_v[c] = 0.0
            if init > 0.0:
                tree.rave_n[c] = init
                tree.rave_v[c] = init * mean * math.exp(0.5 * (logits[j] - top) * sharpness)
            tree.complete[c] = 0
            _refresh(tree.visits, tree.value, tree.rave_n, tree.rave_v, tree.mixed, tree.explored,
                     c, tree.mixed_by)
        tree.prior[c] = math.exp((logits[j] - top) * sharpness) / total
    tree.first_child[node] = start
    tree.num_children[node] = count
    tree.complete[node] = 1 if count == n or (count == pool and not regrow) else 0
    tree.size[0] = start + count


@k.uncounted
def _refresh(visits: F32, value: F32, rave_n: F32, rave_v: F32, mixed: F64, explored: F64,
             c: int, mixed_by: F64) -> None:
    """Work out node ``c``'s ``mixed`` and ``explored`` (:class:`Tree`) from
    its statistics, with the parameters in ``mixed_by``."""
    fpu, rave_bias, rave_exploration = mixed_by[0], mixed_by[1], mixed_by[2]
    n = visits[c]
    rn = rave_n[c]
    if mixed_by[3] > 0.0:
        # SearchParams.rave_weight: the RAVE results and the initial value
        # are counted in with the visits.
        total = n + rn
        mixed[c] = (value[c] + rave_v[c]) / total if total > 0 else fpu
        explored[c] = max(1.0, total)
        return
    q = value[c] / n if n > 0 else fpu
    if rn > 0:
        beta = rn / (rn + n + rave_bias * rn * n + 1e-9)
        q = (1.0 - beta) * q + beta * rave_v[c] / rn
    mixed[c] = q
    explored[c] = 1.0 + n + rave_exploration * rn


@k.uncounted
def _select(first_child: I32, num_children: I32, mixed: F64, explored: F64, prior: F32,
            node: int, exploration: float, sqrt_n: float, window: float) -> int:
    """The child of ``node`` to visit among the first ``window`` (``sqrt_n``:
    the square root of its visits plus one), the one with the highest
    ``mixed + exploration * prior * sqrt_n / explored``, given the tree's
    arrays of those names (:class:`Tree`)."""
    first = first_child[node]
    width = min(float(num_children[node]), window)
    best = -1
    best_value = -1e30
    for c in range(first, first + max(1, int(width))):
        u = mixed[c] + exploration * prior[c] * sqrt_n / explored[c]
        if u > best_value:
            best_value = u
            best = c
    return best


@k.uncounted
def _z_score(stats: npt.NDArray[np.float64], at: int, x: float) -> float:
    """Add ``x`` to the running statistics at ``stats[at:at + 3]`` (count,
    mean, sum of squared deviations); its distance from their mean in
    standard deviations (0 while they have none)."""
    n = stats[at] + 1.0
    delta = x - stats[at + 1]
    stats[at] = n
    stats[at + 1] += delta / n
    stats[at + 2] += delta * (x - stats[at + 1])
    var = stats[at + 2] / n
    return (x - stats[at + 1]) / math.sqrt(var) if var > 0.0 else 0.0


@k.uncounted
def _results(t: k.Tables, seats: Seats, s: k.State, pts: I32, group_score: F32,
             result: F32, score_weight: float, score_scale: float,
             stats: npt.NDArray[np.float64], relative: bool, attach_weight: float) -> None:
    """Each seat's result in [0, 1] at the end of a playout;
    ``group_score`` is scratch space for three values a group."""
    k.points(t, s, pts)
    group_score[:] = 0.0
    for c in range(t.num_colors):
        seat = seats.color_seat[c]
        if seat >= 0 and seats.seat_group[seat] >= 0:
            group_score[seats.seat_group[seat]] += pts[c]
    g = seats.num_groups
    for grp in range(g):
        mine = group_score[grp]
        wins = 0.0
        best_other = -1e30
        for o in range(g):
            if o != grp:
                other = group_score[o]
                best_other = max(best_other, other)
                if mine > other:
                    wins += 1.0
                elif mine == other:
                    wins += 0.5
        place = wins / (g - 1) if g > 1 else 0.5
        diff = mine - best_other
        if relative:
            score = math.tanh(_z_score(stats, 3 * grp, diff))
        else:
            score = math.tanh(diff / score_scale)
        group_score[g + grp] = (1.0 - score_weight) * place + score_weight * (0.5 + 0.5 * score)
    if attach_weight > 0.0 and g > 1:
        _add_attach_term(t, seats, s, group_score, stats, attach_weight)
    for seat in range(seats.num_seats):
        grp = seats.seat_group[seat]
        result[seat] = 0.5 if grp < 0 else group_score[g + grp]


@k.uncounted
def _add_attach_term(t: k.Tables, seats: Seats, s: k.State, group_score: F32,
                     stats: npt.NDArray[np.float64], weight: float) -> None:
    """Fold :attr:`SearchParams.attach_weight`'s term into the groups'
    results at ``group_score[g:2 * g]``; ``group_score[2 * g:]`` is
    scratch for the groups' free attach points."""
    g = seats.num_groups
    free = group_score[2 * g:3 * g]
    free[:] = 0.0
    flags = s.flags
    for c in range(t.num_colors):
        seat = seats.color_seat[c]
        if seat < 0 or seats.seat_group[seat] < 0:
            continue
        n = 0
        forbidden = c * t.num_cells  # (the rows of the colour's flags)
        attach = t.attach_at + forbidden
        for x in range(t.num_cells):
            n += flags[attach + x] & (1 - flags[forbidden + x])
        free[seats.seat_group[seat]] += n
    for grp in range(g):
        best_other = -1e30
        for o in range(g):
            if o != grp:
                best_other = max(best_other, free[o])
        z = _z_score(stats, 3 * (g + grp), free[grp] - best_other)
        group_score[g + grp] = ((group_score[g + grp] + weight * (0.5 + 0.5 * math.tanh(z)))
                                / (1.0 + weight))


@numba.njit(cache=True, nogil=True)
def search(t: k.Tables, seats: Seats, tree: Tree, root: int, root_state: k.State,
           sims: int, rng: Any, cfg: npt.NDArray[np.float64]) -> int:
    """Run ``sims`` simulations from ``root``; returns how many ran (fewer
    when the tree is full and the root cannot be expanded)."""
    exploration, rave_bias, fpu = cfg[_EXPLORATION], cfg[_RAVE_BIAS], cfg[_FPU]
    rave_exploration = cfg[_RAVE_EXPLORATION]
    rave_weight, init_count = cfg[_RAVE_WEIGHT], cfg[_INIT_COUNT]
    folded = rave_weight > 0.0  # RAVE counted in the values (SearchParams.rave_weight)
    child_max, parent_max = cfg[_RAVE_CHILD_MAX], cfg[_RAVE_PARENT_MAX]
    log_exploration = cfg[_LOG_EXPLORATION] > 0.0
    score_weight, big_pieces = cfg[_SCORE_WEIGHT], cfg[_BIG_PIECES]
    score_scale = cfg[_SCORE_SCALE]
    relative = cfg[_RELATIVE_SCORE] > 0.0
    attach_weight = cfg[_ATTACH_WEIGHT]
    max_children, expand_after = int(cfg[_MAX_CHILDREN]), cfg[_EXPAND_AFTER]
    widen_base, widen_rate = cfg[_WIDEN_BASE], cfg[_WIDEN_RATE]
    answers, sharpness = cfg[_ANSWERS], cfg[_SHARPNESS]
    replies = cfg[_LAST_GOOD_REPLY] > 0.0
    early_sizes = cfg[_EARLY_SIZES] > 0.0
    replies2 = replies and cfg[_REPLY2] > 0.0
    regrow = cfg[_REGROW] > 0.0
    first_children = int(cfg[_FIRST_CHILDREN])
    reply, reply2 = tree.reply, tree.reply2
    # The tree's arrays, taken out of it once: in the loop, an array taken
    # out of a tuple, or passed to a function not compiled k.uncounted,
    # costs two calls to count its references.
    move_of, seat_of, color_of = tree.move, tree.seat, tree.color
    first_child, num_children, complete = tree.first_child, tree.num_children, tree.complete
    visits, value, prior = tree.visits, tree.value, tree.prior
    rave_n, rave_v, stats = tree.rave_n, tree.rave_v, tree.stats
    mixed, explored, mixed_by = tree.mixed, tree.explored, tree.mixed_by
    if (mixed_by[0] != fpu or mixed_by[1] != rave_bias or mixed_by[2] != rave_exploration
            or mixed_by[3] != rave_weight or mixed_by[4] != init_count):
        mixed_by[0], mixed_by[1], mixed_by[2] = fpu, rave_bias, rave_exploration
        mixed_by[3], mixed_by[4] = rave_weight, init_count
        for c in range(tree.size[0]):
            _refresh(visits, value, rave_n, rave_v, mixed, explored, c, mixed_by)
    color_seat = seats.color_seat
    answers = max(answers, 0.0)
    work = k.work_space(t, answers, cfg[_PIECE_WEIGHT],
                        cfg[_ATTACH_FACTOR])  # the playouts' scratch arrays
    # The playouts are k.guided_playout's: k._run, called as it calls it but
    # without that call in between (each array passed to a function costs
    # two calls to count its references).
    big = k._big_share(big_pieces)
    # The playouts' reply tables (empty ones when the replies are off).
    reply_in = reply if replies else work.none
    reply2_in = reply2 if replies2 else work.none64
    num_placements = t.num_placements
    played = np.empty(1024, np.int32)  # colour, placement pairs
    # RAVE below the root: while a simulation's update runs, bit
    # c * num_placements + p of was_played is set if colour c played
    # placement p in it (a few kilobytes: it stays in the fastest cache).
    was_played = np.zeros((t.num_colors * num_placements + 63) // 64, np.uint64)
    one = np.uint64(1)
    # With RAVE folded in: where in the simulation a set bit's move was played.
    played_at = np.empty(t.num_colors * num_placements if folded else 0, np.int16)
    runs_at = 6 * t.num_colors  # (folded) the mean results by seat (Tree.stats)
    # The root's RAVE goes the other way round (Tree.root_child): a
    # simulation looks up its few moves instead of checking the root's many
    # children (all its legal moves).
    root_child, root_block = tree.root_child, tree.root_block
    s = k.copy_state(root_state)
    v = k.views(t, s)
    info, turn_at = s.info, t.turn_at  # (info[turn_at] is k.to_move(s))
    moves = np.empty(t.num_placements, np.int32)
    logits = np.empty(t.num_placements, np.float32)
    sc = scratch(t)
    path = np.empty(512, np.int32)  # the nodes from the root
    line = np.empty(512, np.int32)  # and their moves
    pts = np.zeros(t.num_colors, np.int32)
    group_score = np.zeros(3 * max(seats.num_groups, 1), np.float32)  # scores, results, scratch
    result = np.zeros(seats.num_seats, np.float32)
    done = 0
    for _ in range(sims):
        k.copy_live(t, s, root_state)
        if info[turn_at] < 0:
            break
        if num_children[root] < 0:
            _expand(t, seats, tree, root, s, v, moves, logits, sc, 0, 0, regrow, sharpness)
            if num_children[root] < 0:
                break  # the tree is full
        # Down the tree by its statistics alone, to a child never visited or
        # one without children yet; then its moves are played in one go.
        node = root
        depth = 0
        path[0] = root
        grow = 0
        while num_children[node] > 0 and depth < 511:
            # Progressive widening: the first ``window`` children.
            sqrt_n = math.sqrt(visits[node] + 1.0)
            window = widen_base + widen_rate * sqrt_n
            if complete[node] == 0 and window > num_children[node]:
                # More children (this simulation's playout starts from it).
                grow = max(2 * int(num_children[node]), int(window) + 1)
                break
            scale = sqrt_n * math.log(visits[node] + 2.0) if log_exploration else sqrt_n
            node = _select(first_child, num_children, mixed, explored, prior, node, exploration,
                           scale, window)
            depth += 1
            path[depth] = node
            line[depth - 1] = move_of[node]
            # The tree's moves, then the playout's, for RAVE and the replies.
            played[2 * depth - 2] = color_of[node]
            played[2 * depth - 1] = move_of[node]
            if visits[node] == 0:
                break
        # A node below the root gets its children on its ``expand_after``-th
        # visit (unless the game is over there); the playout starts from it.
        # Without an expansion, the tree's moves and the playout are one call.
        if grow or (num_children[node] < 0 and visits[node] >= expand_after):
            k.play_known(t, s, line[:depth], work)
            if grow:
                _expand(t, seats, tree, node, s, v, moves, logits, sc, max_children, grow,
                        regrow, sharpness)
            elif info[turn_at] >= 0:
                _expand(t, seats, tree, node, s, v, moves, logits, sc, max_children,
                        first_children, regrow, sharpness)
            prev = move_of[path[depth]] if depth > 0 else -1
            prev2 = move_of[path[depth - 1]] if depth > 1 else -1
            n_played, rng[0] = k._run(t, s, rng[0], work.none, big, -1, answers, reply_in,
                                      played[2 * depth:], prev, early_sizes, reply2_in, prev2,
                                      work)
            n_played += depth
        else:
            n_played, rng[0] = k._run(t, s, rng[0], line[:depth], big, -1, answers, reply_in,
                                      played, -1, early_sizes, reply2_in, -1, work)
        _results(t, seats, s, pts, group_score, result, score_weight, score_scale,
                 stats, relative, attach_weight)
        recorded = min(n_played, played.size // 2)
        if folded:
            for seat in range(seats.num_seats):
                stats[runs_at + seat] += result[seat]
            stats[runs_at + t.num_colors] += 1.0
        if replies:
            # Last good reply: a winner's answers are kept, a loser's forgotten.
            for i in range(1, recorded):
                color = played[2 * i]
                seat = color_seat[color]
                if seat < 0:
                    continue
                key = color * num_placements + played[2 * i - 1]
                move = played[2 * i + 1]
                if result[seat] > 0.5:
                    reply[key] = move
                elif result[seat] < 0.5 and reply[key] == move:
                    reply[key] = -1
                if replies2 and i >= 2 and result[seat] != 0.5:
                    # (k.set_reply2 without passing it the table: a call
                    # with an array costs more here.)
                    slot, pair = k._reply2_slot(color, played[2 * i - 3], played[2 * i - 1],
                                                num_placements)
                    reply2[slot] = k._reply2_updated(reply2[slot], pair, move,
                                                     result[seat] > 0.5)
        visits[root] += 1.0
        _refresh(visits, value, rave_n, rave_v, mixed, explored, root, mixed_by)
        # RAVE at the root: every child whose colour played its move.
        if (root_block[0] != root or root_block[1] != first_child[root]
                or root_block[2] != num_children[root]):
            root_child[:] = -1
            root_block[0], root_block[1], root_block[2] = (root, first_child[root],
                                                           num_children[root])
            for c in range(first_child[root], first_child[root] + max(0, num_children[root])):
                root_child[color_of[c] * num_placements + move_of[c]] = c
        if not folded or visits[root] <= parent_max:
            # Folded in, Pentobi's weights: less for a move played later,
            # none for the child visited (the first move, when it is the tree's).
            for i in range(1 if folded and depth > 0 else 0, recorded):
                c = root_child[played[2 * i] * num_placements + played[2 * i + 1]]
                if c < 0:
                    continue
                w = 1.0
                if folded:
                    if visits[c] + rave_n[c] > child_max:
                        continue
                    w = rave_weight * (1.0 - i / recorded)
                rave_n[c] += w
                rave_v[c] += w * result[seat_of[c]]
                _refresh(visits, value, rave_n, rave_v, mixed, explored, c, mixed_by)
        for i in range(recorded):
            key = played[2 * i] * num_placements + played[2 * i + 1]
            was_played[key >> 6] |= one << np.uint64(key & 63)
            if folded:
                played_at[key] = i
        for d in range(1, depth + 1):
            n = path[d]
            visits[n] += 1.0
            value[n] += result[seat_of[n]]
            _refresh(visits, value, rave_n, rave_v, mixed, explored, n, mixed_by)
            # RAVE: every child whose colour played its move (a node's
            # children are all moves of one colour).
            if num_children[n] > 0 and (not folded or visits[n] <= parent_max):
                first = first_child[n]
                row = color_of[first] * num_placements
                for c in range(first, first + num_children[n]):
                    key = row + move_of[c]
                    if not (was_played[key >> 6] >> np.uint64(key & 63)) & one:
                        continue
                    w = 1.0
                    if folded:
                        j = int(played_at[key])
                        # (j == d < depth: the child visited)
                        if (j == d and d < depth) or visits[c] + rave_n[c] > child_max:
                            continue
                        w = rave_weight * (1.0 - (j - d) / (recorded - d))
                    rave_n[c] += w
                    rave_v[c] += w * result[seat_of[c]]
                    _refresh(visits, value, rave_n, rave_v, mixed, explored, c, mixed_by)
        for i in range(recorded):
            was_played[(played[2 * i] * num_placements + played[2 * i + 1]) >> 6] = 0
        done += 1
    return done


@numba.njit(cache=True, nogil=True)
def priors_for(t: k.Tables, seats: Seats, s: k.State) -> tuple[I32, F32]:
    """The legal moves of the colour to move and their prior logits."""
    moves = np.empty(t.num_placements, np.int32)
    logits = np.empty(t.num_placements, np.float32)
    color = k.to_move(s)
    n = k.legal_moves(t, s, color, moves)
    _prior_logits(t, seats, k.views(t, s), color, moves, n, logits, scratch(t))
    return moves[:n].copy(), logits[:n].copy()


def seats_for(game: Game) -> Seats:
    """The seat and board arrays the compiled search needs for ``game``."""
    return _seats(game.variant.id, game.seating)


@functools.cache
def _seats(variant_id: str, seating: Seating) -> Seats:
    v = find_variant(variant_id)
    color_seat = np.full(v.num_colors, -1, np.int32)
    for i, seat in enumerate(seating.seats):
        for c in seat.colors:
            color_seat[c] = i
    shared = -1 if seating.shared_color is None else seating.shared_color
    if shared >= 0:
        color_seat[shared] = -1
    groups = seating.scoring_groups
    seat_group = np.full(len(seating.seats), -1, np.int32)
    for g, members in enumerate(groups):
        for i in members:
            seat_group[i] = g
    board = v.board
    corners = [v for vs in board.vertices for v in vs]
    cx = sum(v[0] for v in corners) / len(corners)
    cy = sum(v[1] for v in corners) / len(corners)
    scale = 0.5 if board.kind == "triangle" else 1.0
    dist = []
    for vs in board.vertices:
        x = sum(v[0] for v in vs) / len(vs)
        y = sum(v[1] for v in vs) / len(vs)
        dist.append(math.hypot((x - cx) * scale, (y - cy) * (0.866 if scale < 1 else 1.0)))
    far = max(dist) or 1.0
    weight = np.array([1.0 - d / far for d in dist], np.float32)
    weights = prior_weights(variant_id)
    for a in (color_seat, seat_group, weight, weights):
        a.setflags(write=False)  # shared by every search of this variant
    return Seats(color_seat, shared, len(seating.seats), seat_group, len(groups), weight,
                 weights)


WEIGHTS_FILE = Path(__file__).with_name("prior_weights.json")
"""Learned prior weights, by family (see :func:`prior_family`); written by
``tools/train_prior.py``."""


def prior_family(variant_id: str) -> str:
    """The name under which a variant's prior weights are kept: variants
    with the same pieces on the same board share them (all Trigon boards
    count as one)."""
    v = find_variant(variant_id)
    return next(u.id for u in VARIANTS.values()
                if u.piece_set is v.piece_set and u.board.kind == v.board.kind
                and (u.board_spec == v.board_spec or v.board.kind == "triangle"))


def default_weights(variant_id: str) -> npt.NDArray[np.float32]:
    """Hand-set prior weights: large pieces, new attach points, cells taken
    from the opponents, the centre early on."""
    t = k.tables(variant_id)
    w = np.zeros(num_features(variant_id), np.float32)
    w[: t.num_pieces] = 1.3 * t.piece_size
    base = t.num_pieces
    w[base + _F_OPP_ATTACH] = 0.45
    w[base + _F_CENTRE] = 2.5
    w[base + _F_NEW_ATTACH: base + _F_NEW_ATTACH + 5] = 0.35
    return w


@functools.cache
def prior_weights(variant_id: str) -> npt.NDArray[np.float32]:
    """The prior weights of a variant: learned ones from ``WEIGHTS_FILE`` if
    it has them for the variant's family (the base block alone, or with the
    phase blocks), else :func:`default_weights`."""
    try:
        learned = json.loads(WEIGHTS_FILE.read_text())
    except (OSError, ValueError):  # missing or unreadable: the hand-set weights
        learned = {}
    w = learned.get(prior_family(variant_id))
    if w is None or len(w) not in (base_features(variant_id), num_features(variant_id)):
        return default_weights(variant_id)
    full = np.zeros(num_features(variant_id), np.float32)
    full[:len(w)] = w  # the base block alone: no change over the game
    return full


def _best_prior(game: Game, rng: np.random.Generator) -> Move:
    """The legal move with the highest prior (one of equals drawn by
    ``rng``: in a symmetric position, its mirror images)."""
    moves, logits = priors_for(k.tables(game.variant.id), seats_for(game),
                               k.state_from_game(game))
    best = np.flatnonzero(logits >= logits.max() - 1e-6)
    return game.table.move(int(moves[int(rng.choice(best))]))


class PriorPlayer:
    """Plays from the move priors alone: the best one (``temperature=0``) or
    one sampled from ``softmax(logits / temperature)``."""

    def __init__(self, temperature: float = 0.0, seed: int | None = None,
                 name: str = "prior") -> None:
        self.name = name
        self.temperature = temperature
        # (numpy's generators take no negative seeds; any integer is one here)
        self._rng = np.random.default_rng(None if seed is None else seed % 2**64)

    def choose(self, game: Game) -> Move:
        if game.turn is None:
            raise ValueError("no legal move: the game is over")
        if self.temperature <= 0:
            return _best_prior(game, self._rng)
        t = k.tables(game.variant.id)
        moves, logits = priors_for(t, seats_for(game), k.state_from_game(game))
        w = np.exp((logits - logits.max()) / self.temperature).astype(np.float64)
        return game.table.move(int(self._rng.choice(moves, p=w / w.sum())))


TIME_SHARES = ((5, 1.6), (9, 1.0), (1000, 0.4))
"""With a time budget, a colour's pieces up to the first number of a pair
get the second times the budget: a colour's first pieces decide most."""

TIME_SHARES_DUO = ((3, 2.0), (6, 1.6), (9, 1.0), (12, 0.45), (1000, 0.12))
"""The same in Duo, shaped as Pentobi's own time a move over a Duo game (it
spends most on the first pieces and almost nothing after the twelfth).
Against Pentobi's levels 4, 5 and 6 in Duo at their time a move it scored
49.0% of 800 games, 47.7% of 1,600 and 47.5% of 600 where
:data:`TIME_SHARES` scored 47.9%, 46.1% and 42.2% (docs/ladder.md)."""

TIME_SHARES_JUNIOR = ((3, 1.6), (9, 1.55), (12, 1.1), (15, 0.6), (18, 0.3), (1000, 0.1))
"""The same in Junior, shaped as Pentobi's time a move over a Junior game at
its level 6: a colour places about 20 pieces there, and spends more than
in Duo on pieces 6 to 17.  (:data:`TIME_SHARES_DUO` averages 0.8 over a
Junior game; against level 6 at equal time it scored 43.2% of 400 games,
this profile 47.1%; against level 5, 48.7% and 52.9% of 1,600:
docs/ladder.md.)"""

TIME_SHARES_CLASSIC = ((5, 0.6), (9, 1.0), (1000, 1.2))
"""The same in Classic for three or four players: there the later pieces
get more.  Against Pentobi's level 5 at equal time this lost 2.5 points a
game where :data:`TIME_SHARES` lost 4.6; in Trigon it did worse than
:data:`TIME_SHARES` (docs/ladder.md)."""

TIME_SHARES_CLASSIC_2 = ((3, 1.2), (6, 2.1), (9, 1.4), (12, 0.7), (15, 0.3), (1000, 0.1))
"""The same in Classic for two players (``classic_2``), shaped as
Pentobi's own time a move over a ``classic_2`` game at its level 5 (1.20
/ 2.11 / 1.40 / 0.72 / 0.31 / 0.10 of its mean for pieces 0-2 / 3-5 /
6-8 / 9-11 / 12-14 / 15-17).  Against that level at about equal time it
scored 49.5% of 2,400 games and lost 1.8 points of a side's two colours
a game, where :data:`TIME_SHARES_CLASSIC` scored about 45.5% of 2,000 and
lost 3.6; letting Pentobi's search play a colour's first five pieces had
shown that most points were lost there (docs/ladder.md)."""


_MAX_SIMS_PER_SECOND = 100_000
"""A generous bound on one thread's simulations a second, which sizes the
tree for a time budget (a tree that fills up only stops growing)."""


def time_shares(variant_id: str) -> tuple[tuple[int, float], ...]:
    """The time profile of a variant: :data:`TIME_SHARES_JUNIOR` in Junior,
    :data:`TIME_SHARES_DUO` in Duo, :data:`TIME_SHARES_CLASSIC_2` in
    Classic for two players, :data:`TIME_SHARES_CLASSIC` in Classic for
    three or four, else (Trigon) :data:`TIME_SHARES`."""
    v = find_variant(variant_id)
    if v.num_colors == 2:
        return TIME_SHARES_JUNIOR if v.piece_set is JUNIOR else TIME_SHARES_DUO
    if v.board.kind != "square":
        return TIME_SHARES
    return TIME_SHARES_CLASSIC_2 if _two_players(v) else TIME_SHARES_CLASSIC


def time_share(placed: int, variant_id: str = "duo") -> float:
    """The share of the time budget a move gets in ``variant_id`` when its
    colour has placed ``placed`` pieces (about 1 on average over a game)."""
    return next(share for below, share in time_shares(variant_id) if placed < below)


class MctsPlayer:
    """Monte Carlo tree search with a simulation and/or time budget (with a
    time budget, the mean time of a move over a game: see
    :data:`TIME_SHARES` and :data:`TIME_SHARES_CLASSIC`)."""

    def __init__(self, sims: int | None = 1000,
                 seconds: float | Mapping[str, float] | None = None,
                 threads: int = 1, seed: int | None = None,
                 params: SearchParams | None = None, capacity: int | None = None,
                 name: str | None = None, stop_early: bool = True) -> None:
        """``seconds``: the mean time of a move, or one per variant family
        (:func:`prior_family`, as :data:`LEVEL_9_SECONDS`)."""
        if sims is None and seconds is None:
            raise ValueError("give a simulation budget, a time budget, or both")
        if sims is not None and sims < 1:
            raise ValueError("sims must be at least 1")
        if seconds is not None:
            budgets = list(seconds.values()) if isinstance(seconds, Mapping) else [seconds]
            if not all(0 < b < math.inf for b in budgets):
                raise ValueError("seconds must be positive and finite")
        if threads < 1:
            raise ValueError("threads must be at least 1")
        self.sims = sims
        self.seconds = seconds
        self.threads = threads
        self.params = params or SearchParams()
        self.capacity = capacity
        self.name = name or (f"mcts:sims={sims}" if sims else f"mcts:seconds={seconds}")
        self._seed = seed if seed is not None else int(np.random.default_rng().integers(2**62))
        self._prior_rng = np.random.default_rng(self._seed % 2**64)
        """Draws among moves of equal prior (:attr:`SearchParams.opening_by_prior`)."""
        self._trees: list[Tree] = []
        self._tree_game: tuple[str, list[Move]] | None = None
        """The variant and the moves (passes left out) of the game of the
        last search: the trees' roots and ``_state`` are its position."""
        self._roots: list[int] = []
        self._state: k.State | None = None
        """The kernel state at the roots."""
        self.stop_early = stop_early
        """With a time budget: end a search once its most visited move can
        no longer change in the time left, and keep the time saved for the
        next moves of the game (:data:`BANK_SPEND`)."""
        self._bank = 0.0
        """Seconds saved by earlier moves of the game, not yet spent."""
        self._bank_game: tuple[str, list[Move]] | None = None
        """The variant and the moves (passes left out) of the game of this
        player's last move: the bank holds for the game that continues it."""
        self.last_sims = 0
        """Simulations of the last search (all threads)."""

    def seconds_for(self, variant_id: str) -> float | None:
        """The mean time of a move in ``variant_id`` (None: no time budget)."""
        if isinstance(self.seconds, Mapping):
            return self.seconds[prior_family(variant_id)]
        return self.seconds

    def _moves_since(self, game: Game, moves: list[Move] | None = None) -> list[Move] | None:
        """The moves played since the last search (passes left out); None
        when ``game`` does not continue the game of the last search.
        ``moves``: :func:`_placed_moves` of ``game``, if already made."""
        return _moves_after(self._tree_game, game, _placed_moves(game) if moves is None else moves)

    def _reuse(self, game: Game, since: list[Move] | None) -> bool:
        """Move the roots down the trees along ``since``, the moves played
        since the last search (:meth:`_moves_since`); False when the trees do
        not fit the game."""
        if since is None:
            return False
        new_roots = []
        for tree, root in zip(self._trees, self._roots, strict=True):
            node = root
            for move in since:
                index = game.placement_of(move)
                n = int(tree.num_children[node])
                if n <= 0:
                    return False
                first = int(tree.first_child[node])
                kids = np.flatnonzero(tree.move[first:first + n] == index)
                if len(kids) == 0:
                    return False
                node = first + int(kids[0])
            if int(tree.num_children[node]) < 0:
                return False
            new_roots.append(node)
        self._roots = new_roots
        return True

    def _state_of(self, game: Game, t: k.Tables, since: list[Move] | None) -> k.State:
        """The kernel state of ``game``: the last search's, with ``since``
        played on it (microseconds), when ``game`` continues that search's
        game (``since`` not None, :meth:`_moves_since`); else built from the
        game (milliseconds in Classic)."""
        if since is not None and self._state is not None:
            state = k.copy_state(self._state)
            try:
                for move in since:
                    index = game.placement_of(move)
                    if index is None:
                        raise IllegalMoveError(f"not a placement of {game.variant.id}")
                    k.play(t, state, index)
            except IllegalMoveError:
                pass
            else:
                if (k.to_move(state) == (-1 if game.turn is None else game.turn)
                        and k.ply(state) == game.ply):
                    k.settle(t, state)  # (as built: the same searches)
                    return state
        return k.state_from_game(game)

    def _config(self, variant_id: str, seconds: float | None,
                fills_tree: bool) -> npt.NDArray[np.float64]:
        """The parameters of a search of ``seconds`` a move (None: a
        simulation budget), with the defaults that depend on the budget:
        nodes made with fewer children when the expected simulations could
        fill the tree (:attr:`SearchParams.first_children`), later expansion
        with a time budget (:attr:`SearchParams.expand_after`), the playouts'
        answers (:func:`default_answers`)."""
        cfg = self.params.array(variant_id, seconds)
        if self.params.first_children is None and fills_tree:
            cfg[_FIRST_CHILDREN] = _FIRST_CHILDREN_SMALL
        if self.params.expand_after is None and seconds is not None:
            cfg[_EXPAND_AFTER] = _EXPAND_AFTER_TIMED
        return cfg

    def choose(self, game: Game) -> Move:
        if game.turn is None:
            raise ValueError("no legal move: the game is over")
        t = k.tables(game.variant.id)
        seats = seats_for(game)
        moves = _placed_moves(game)
        if _moves_after(self._bank_game, game, moves) is None:
            self._bank = 0.0  # another game
        self._bank_game = (game.variant.id, moves)
        since = self._moves_since(game, moves)  # (None: another game)
        placed = game.num_placed(game.turn)
        share = time_share(placed, game.variant.id)
        seconds = self.seconds_for(game.variant.id)
        by_prior = placed < self.params.opening(game.variant.id, seconds)
        if by_prior or len(game.legal_moves) == 1:
            # No search: the move's time goes to the bank, for later moves.
            if seconds is not None and self.stop_early:
                self._bank += seconds * share
            if by_prior:
                self.last_sims = 0
                return _best_prior(game, self._prior_rng)
            return next(iter(game.legal_moves))
        state = self._state_of(game, t, since)
        # Room for 40 nodes a simulation: a search makes about 9 (measured
        # on the benchmark positions: 48 children, expanded at two visits;
        # about 5 at four, as with a time budget), and a reused tree keeps
        # the nodes of earlier searches; a full tree just stops growing.  A
        # budget that could fill the tree even so (level 9) makes nodes
        # with 8 children first: about 1.5 to 2 nodes a simulation.
        if self.sims is not None:
            expected = self.sims // self.threads
        else:  # a time budget
            most = max(share for _, share in time_shares(game.variant.id))
            expected = math.ceil((seconds or 0.0) * most * _MAX_SIMS_PER_SECOND)
        capacity = self.capacity or max(200_000, min(6_000_000, 40 * expected))
        reused = self._reuse(game, since)
        if not reused or any(int(tr.size[0]) > capacity * 0.8 for tr in self._trees):
            # The playouts' replies hold for the whole game.
            same_game = since is not None
            if len(self._trees) == self.threads and all(
                    tr.move.size == capacity and tr.reply.size == t.num_placements * t.num_colors
                    for tr in self._trees):
                for tree in self._trees:  # a new root in the same memory
                    _clear(tree, replies=not same_game)
            else:
                old = self._trees
                self._trees = [_new_tree(capacity, int(t.num_placements), int(t.num_colors))
                               for _ in range(self.threads)]
                if same_game:
                    for new, tree in zip(self._trees, old, strict=False):
                        new.reply[:] = tree.reply
                        new.reply2[:] = tree.reply2
            self._roots = [0] * self.threads
        for tree in self._trees:
            tree.stats[:] = 0.0  # each search measures its own playouts
        self._tree_game = None  # (until this search ends)
        cfg = self._config(game.variant.id, seconds,
                           fills_tree=_NODES_A_SIMULATION * expected > capacity)
        deadline = None
        start = planned = 0.0
        if seconds is not None:
            # Load the compiled search (from numba's cache, or compile it)
            # before the clock starts.
            search(t, seats, self._trees[0], self._roots[0], state, 0, k.rng_state(0), cfg)
            planned = seconds * share
            start = time.monotonic()
            deadline = start + planned + BANK_SPEND * self._bank
        per_thread = None if self.sims is None else math.ceil(self.sims / self.threads)
        counts = [0] * self.threads

        def work(i: int) -> None:
            rng = k.rng_state(self._seed + 1000003 * i + game.ply)
            tree, root = self._trees[i], self._roots[i]
            chunk = 64 if deadline is not None else (per_thread or 1)
            while True:
                n = chunk if per_thread is None else min(chunk, per_thread - counts[i])
                if n <= 0:
                    break
                ran = search(t, seats, tree, root, state, n, rng, cfg)
                counts[i] += ran
                if ran < n:
                    break
                if deadline is not None:
                    now = time.monotonic()
                    if now >= deadline:
                        break
                    # The simulations the time left allows, at this rate.
                    left = counts[i] * (deadline - now) / max(now - start, 1e-9)
                    if self.stop_early and _settled(tree, root, left):
                        break
                    # Longer calls while much time is left (a call costs
                    # tens of microseconds to start: its arguments hold
                    # about sixty arrays), down to 64 simulations near the
                    # deadline, which they overrun by little.
                    chunk = int(min(max(left / 8.0, 64.0), 4096.0))

        if self.threads == 1:
            work(0)
        else:
            threads = [threading.Thread(target=work, args=(i,)) for i in range(self.threads)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        self.last_sims = sum(counts)
        if seconds is not None and self.stop_early:
            self._bank = max(0.0, self._bank + planned - (time.monotonic() - start))
        best = _most_visited(self._trees, self._roots)
        if best is None:
            return next(iter(game.legal_moves))
        self._tree_game = (game.variant.id, moves)
        self._state = state
        return game.table.move(best)


BANK_SPEND = 0.5
"""With a time budget and ``stop_early``, the share of the time saved so
far in a game that the next move may spend on top of its own."""


def _placed_moves(game: Game) -> list[Move]:
    """The moves of ``game`` so far, passes left out."""
    return [h.move for h in game.history if not h.move.is_pass]


def _moves_after(
    done: tuple[str, list[Move]] | None, game: Game, moves: list[Move]
) -> list[Move] | None:
    """The moves of ``game`` (``moves``, its :func:`_placed_moves`) after
    those of ``done`` (a variant and its moves so far); None when ``game``
    does not continue that game (or ``done`` is None)."""
    if done is None or done[0] != game.variant.id:
        return None
    return moves[len(done[1]):] if moves[:len(done[1])] == done[1] else None


def _settled(tree: Tree, root: int, left: float) -> bool:
    """Whether no child of ``root`` could overtake the most visited one in
    ``left`` more simulations (so more search would choose the same move)."""
    n = int(tree.num_children[root])
    if n < 2:
        return n == 1
    first = int(tree.first_child[root])
    visits = tree.visits[first:first + n]
    top = np.partition(visits, n - 2)[n - 2:]
    return float(top[1] - top[0]) > left


def _most_visited(trees: list[Tree], roots: list[int]) -> int | None:
    """The placement most visited at the roots, visits added up over the
    trees (a thousandth of the prior breaks ties; among equals, the first
    in the first tree's order); None when no root has children."""
    totals: dict[int, float] = {}
    for tree, root in zip(trees, roots, strict=True):
        n = int(tree.num_children[root])
        if n <= 0:
            continue
        first = int(tree.first_child[root])
        kids = slice(first, first + n)
        value = tree.visits[kids].astype(np.float64) + 1e-3 * tree.prior[kids].astype(np.float64)
        if len(trees) == 1:  # (a root can have a thousand children: no loop)
            return int(tree.move[first + int(np.argmax(value))])
        for move, val in zip(tree.move[kids].tolist(), value.tolist(), strict=True):
            totals[move] = totals.get(move, 0.0) + val
    return max(totals, key=totals.__getitem__) if totals else None


LEVEL_9_SECONDS: dict[str, float] = {"duo": 44.0, "junior": 44.0, "classic": 47.0, "trigon": 47.0}
"""Level 9's mean time a move by variant family (:func:`prior_family`):
Pentobi's level 9's on one thread of the development machine, playing
itself (``benchmarks/pentobi_time.py``): over a whole game in Duo (Junior
as Duo); in Classic and Trigon level 8's whole-game mean times level 9's
ratio to it over the first 16 moves (docs/ladder.md)."""

LEVEL_SETTINGS: dict[int, dict[str, Any]] = {
    1: {"prior_temperature": 1.6},
    2: {"prior_temperature": 0.0},
    3: {"sims": 200},
    4: {"sims": 600},
    5: {"sims": 2_000},
    6: {"sims": 6_000},
    7: {"sims": 20_000},
    8: {"sims": 80_000, "threads": 2},
    9: {"seconds": LEVEL_9_SECONDS, "threads": 2},
}
"""What each level does (see the module docstring)."""


def mcts_player(kind: str, options: dict[str, str], seed: int | None) -> Any:
    """A player from a ``level:N`` or ``mcts:key=value,...`` spec's options;
    raises ``ValueError`` / ``KeyError`` for bad options."""
    if kind == "level":
        raw = options.pop("level", None)
        if raw is None or not raw.isdigit() or not 1 <= int(raw) <= 9:
            raise ValueError("the level must be a number from 1 to 9")
        level = int(raw)
        settings = dict(LEVEL_SETTINGS[level])
        if "threads" in options:
            settings["threads"] = _option(options.pop("threads"), "threads", int)
        if "seconds" in options and level == 9:
            settings["seconds"] = _option(options.pop("seconds"), "seconds", float)
        if options:
            raise ValueError(f"unknown option {next(iter(options))!r}")
        if "prior_temperature" in settings:
            return PriorPlayer(settings["prior_temperature"], seed, name=f"level:{level}")
        return MctsPlayer(settings.get("sims"), settings.get("seconds"),
                          settings.get("threads", 1), seed, name=f"level:{level}")
    known = {"sims", "seconds", "threads"}
    for key in options:
        if key not in known:
            raise ValueError(f"unknown option {key!r} (known: {', '.join(sorted(known))})")
    sims = _option(options["sims"], "sims", int) if "sims" in options else None
    seconds = _option(options["seconds"], "seconds", float) if "seconds" in options else None
    if sims is None and seconds is None:
        sims = 1000
    threads = _option(options.get("threads", "1"), "threads", int)
    name = "mcts:" + ",".join(f"{k_}={v}" for k_, v in options.items()) if options else None
    return MctsPlayer(sims, seconds, threads, seed, name=name)


_Number = TypeVar("_Number", int, float)


def _option(raw: str, key: str, kind: type[_Number]) -> _Number:
    """A spec option's number; ``ValueError`` saying which option and what
    it needs if ``raw`` is not one."""
    try:
        return kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{key} must be {what}, not {raw!r}") from None


def warm_up(variant_id: str = "duo") -> None:
    """Compile (or load from numba's cache) the kernel and the search by
    searching a few simulations; the first time in a fresh install this takes
    about half a minute, later about a second.  Two moves are searched (none
    by the prior, whatever the variant), so that the second one also loads
    what continuing a game and its tree calls."""
    game = Game(variant_id)
    PriorPlayer(seed=0).choose(game)
    player = MctsPlayer(sims=8, seed=0, params=SearchParams(opening_by_prior=0))
    for _ in range(2):
        game.push(player.choose(game))
