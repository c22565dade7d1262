"""Many games stepped together in compiled code, for self-play at scale.

:class:`BatchedEnv` keeps ``num_envs`` games of one variant as states of the
search kernel (:mod:`blokus.kernel`, numba) and steps them all in one
compiled call, through the kernel's public functions.  Every game is seen by
the seat to move, with the observation encoding of the other environments
(:mod:`blokus.rl.observation`), stacked along a first axis of length ``num_envs``::

    >>> import numpy as np
    >>> from blokus.rl.batched import BatchedEnv
    >>> env = BatchedEnv("duo", num_envs=4, seed=1)
    >>> batch = env.reset()
    >>> batch.board.shape, batch.action_mask.shape
    ((4, 2, 14, 14), (4, 13729))
    >>> batch = env.step(env.random_actions())
    >>> batch.seat.tolist()
    [1, 1, 1, 1]

A game that ends in a step is started again at once (*auto-reset*): that
step's ``dones`` is true, its ``rewards`` row holds the final reward of every
seat (:mod:`blokus.rl.rewards`), its ``scores`` row the colours' final scores,
and its observation is already the new game's first position.  ``rewards`` is
0 for the other games.  Needs numba (the ``search`` extra); the first use
compiles for some seconds, later processes load the compiled code from disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from blokus import kernel
from blokus.kernel import State, Tables
from blokus.rl.errors import EnvConfigError, IllegalActionError
from blokus.rl.observation import encoding
from blokus.rl.rewards import check_reward, seat_rewards
from blokus.variants import Seating, Variant

__all__ = ["BatchedEnv", "Batch"]


class Batch(NamedTuple):
    """What :meth:`BatchedEnv.reset` and :meth:`BatchedEnv.step` return (new
    arrays every call), ``N`` = ``num_envs``."""

    board: npt.NDArray[np.int8]
    """``(N, P, H, W)``: board planes as the seat to move sees them."""
    pieces: npt.NDArray[np.int8]
    """``(N, colours, pieces)``: copies left, colours in plane order."""
    action_mask: npt.NDArray[np.int8]
    """``(N, placements)``: the legal placements of the colour to move."""
    seat: npt.NDArray[np.int32]
    """``(N,)``: the seat to move (whose point of view the observation is)."""
    color: npt.NDArray[np.int32]
    """``(N,)``: the colour to move."""
    rewards: npt.NDArray[np.float32]
    """``(N, seats)``: the final rewards of a game that ended in this step, else 0."""
    dones: npt.NDArray[np.bool_]
    """``(N,)``: whether a game ended in this step (and was started again)."""
    scores: npt.NDArray[np.int32]
    """``(N, colours)``: the final scores (under the scoring rule) of a game
    that ended in this step, else 0."""


F = TypeVar("F", bound=Callable[..., Any])


def _jit(f: F) -> F:
    """Compile ``f`` with numba (cached on disk, GIL released)."""
    return cast(F, numba.njit(cache=True, nogil=True)(f))


@_jit
def _first_illegal(t: Tables, states: Any, actions: Any) -> int:
    for i in range(actions.shape[0]):
        if not kernel.is_legal(t, states[i], actions[i]):
            return i
    return -1


@_jit
def _step(
    t: Tables, states: Any, start: State, actions: Any, total_cells: int, scoring: int,
    dones: Any, scores: Any,
) -> None:
    """Play ``actions``; for each game that ends, record its scores (0:
    advanced, 1: basic, 2: cells) and start it again."""
    pts = np.zeros(t.num_colors, np.int32)
    for i in range(actions.shape[0]):
        s = states[i]
        kernel.play(t, s, actions[i])
        if kernel.to_move(s) < 0:
            dones[i] = True
            kernel.points(t, s, pts)
            for c in range(t.num_colors):
                if scoring == 0:
                    scores[i, c] = pts[c] - total_cells
                elif scoring == 2:
                    scores[i, c] = pts[c]
                else:
                    left = kernel.views(t, s).left
                    remaining = 0
                    for p in range(t.num_pieces):
                        remaining += left[c, p] * t.piece_size[p]
                    scores[i, c] = remaining
            kernel.copy_into(s, start)


@_jit
def _observe(
    t: Tables, states: Any, flat: Any, color_seat: Any, shared: int, own: Any,
    board: Any, pieces: Any, mask: Any, seat: Any, color: Any,
) -> None:
    """Fill the observation arrays of every game (see :class:`Batch`)."""
    n = t.num_colors
    num_seats = own.shape[0]
    order = np.empty(n, np.int64)
    plane = np.empty(n, np.int64)
    legal = np.empty(t.num_placements, np.int32)
    for i in range(len(states)):
        s = states[i]
        v = kernel.views(t, s)
        c0 = kernel.to_move(s)
        st = v.placed[shared] % num_seats if c0 == shared else color_seat[c0]
        seat[i] = st
        color[i] = c0
        k = 0
        order[k] = c0
        k += 1
        for j in range(1, n):
            c = (c0 + j) % n
            if own[st, c]:
                order[k] = c
                k += 1
        for j in range(1, n):
            c = (c0 + j) % n
            if not own[st, c]:
                order[k] = c
                k += 1
        for k in range(n):
            plane[order[k]] = k
            pieces[i, k, :] = v.left[order[k], :]
        for x in range(t.num_cells):
            c = v.board[x]
            if c >= 0:
                board[i, plane[c], flat[x]] = 1
        for k in range(kernel.legal_moves(t, s, c0, legal)):
            mask[i, legal[k]] = 1


@_jit
def _reset_all(states: Any, start: State) -> None:
    for i in range(len(states)):
        kernel.copy_into(states[i], start)


@_jit
def _random_actions(t: Tables, states: Any, rng: Any, out: Any) -> None:
    for i in range(out.shape[0]):
        out[i] = kernel.random_move(t, states[i], rng)


def _seed64(seed: int | None) -> int:
    """64 random bits from ``seed`` (fresh entropy for ``None``)."""
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


_SCORING = {"advanced": 0, "basic": 1, "cells": 2}


class BatchedEnv:
    """``num_envs`` games of ``variant`` (and ``seating``), stepped together.

    ``reward`` and ``scoring`` choose the reward rule (:mod:`blokus.rl.rewards`);
    ``seed`` seeds :meth:`random_actions` (the rules have no chance).  Raises
    :class:`EnvConfigError` for a bad option.
    """

    def __init__(
        self,
        variant: str | Variant = "duo",
        num_envs: int = 64,
        seed: int | None = None,
        reward: str = "score",
        scoring: str = "advanced",
        seating: str | Seating | None = None,
    ) -> None:
        self.encoding = encoding(variant, seating)
        check_reward(reward, scoring)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvConfigError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.variant: Variant = self.encoding.variant
        self.seating: Seating = self.encoding.seating
        self.num_envs = num_envs
        self.reward_rule = reward
        self.scoring = scoring
        self.num_actions: int = self.encoding.num_actions
        self.num_seats: int = len(self.seating.seats)
        self._t: Tables = kernel.tables(self.variant.id)
        self._start: State = kernel.new_state(self._t)
        self._states: Any = numba.typed.List(
            [kernel.copy_state(self._start) for _ in range(num_envs)]
        )
        self._rng = kernel.rng_state(_seed64(seed))
        n = self.variant.num_colors
        shared = self.seating.shared_color
        self._shared = -1 if shared is None else shared
        self._color_seat = np.array(
            [-1 if c == shared else self.seating.seat_of(c) for c in range(n)], np.int64
        )
        own = np.zeros((self.num_seats, n), np.bool_)
        for i, s in enumerate(self.seating.seats):
            own[i, list(s.colors)] = True
        self._own = own

    @property
    def board_shape(self) -> tuple[int, int, int]:
        """``(P, H, W)`` of one game's board planes."""
        return self.encoding.board_shape

    def reset(self, seed: int | None = None) -> Batch:
        """Start every game again (and reseed :meth:`random_actions` if ``seed`` is given)."""
        if seed is not None:
            self._rng = kernel.rng_state(_seed64(seed))
        _reset_all(self._states, self._start)
        n = self.num_envs
        return self._observe(
            np.zeros((n, self.num_seats), np.float32), np.zeros(n, np.bool_),
            np.zeros((n, self.variant.num_colors), np.int32),
        )

    def step(self, actions: npt.ArrayLike) -> Batch:
        """Play one placement index per game for its colour to move.  Raises
        :class:`IllegalActionError` (and changes nothing) if any is illegal
        or ``actions`` has the wrong shape."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be {self.num_envs} integers, got shape {a.shape} of {a.dtype}"
            )
        a = a.astype(np.int64)
        bad = _first_illegal(self._t, self._states, a)
        if bad >= 0:
            raise IllegalActionError(
                f"action {int(a[bad])} is not legal in game {bad} (see Batch.action_mask)"
            )
        n = self.num_envs
        dones = np.zeros(n, np.bool_)
        scores = np.zeros((n, self.variant.num_colors), np.int32)
        _step(
            self._t, self._states, self._start, a, self.variant.piece_set.total_cells,
            _SCORING[self.scoring], dones, scores,
        )
        rewards = np.zeros((n, self.num_seats), np.float32)
        for i in np.flatnonzero(dones):
            rewards[i] = seat_rewards(
                scores[i].tolist(), self.variant, self.seating, self.reward_rule, self.scoring
            )
        return self._observe(rewards, dones, scores)

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every game (compiled, seeded)."""
        out = np.empty(self.num_envs, np.int64)
        _random_actions(self._t, self._states, self._rng, out)
        return out

    def _observe(
        self, rewards: npt.NDArray[np.float32], dones: npt.NDArray[np.bool_],
        scores: npt.NDArray[np.int32],
    ) -> Batch:
        enc = self.encoding
        n = self.num_envs
        board = np.zeros((n, enc.num_planes, enc.height * enc.width), np.int8)
        pieces = np.empty((n,) + enc.pieces_shape, np.int8)
        mask = np.zeros((n, self.num_actions), np.int8)
        seat = np.empty(n, np.int32)
        color = np.empty(n, np.int32)
        _observe(
            self._t, self._states, enc.flat, self._color_seat, self._shared, self._own,
            board, pieces, mask, seat, color,
        )
        if enc.num_planes > enc.num_colors:
            board[:, -1] = enc.on_board.reshape(-1)
        return Batch(
            board.reshape((n,) + enc.board_shape), pieces, mask, seat, color, rewards, dones,
            scores,
        )
