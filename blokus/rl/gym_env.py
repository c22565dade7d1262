"""A Gymnasium single-agent environment: one seat is the agent, the other
seats are played by built-in (or your own) players.

Registered on ``import blokus.rl`` as ``blokus/Duo-v0`` and the like (see
:data:`blokus.rl.GYM_IDS`)::

    >>> import gymnasium, blokus.rl
    >>> env = gymnasium.make("blokus/Duo-v0", opponent="greedy")
    >>> obs, info = env.reset(seed=1)
    >>> int(obs["action_mask"].sum())
    414

Observation, action and reward are those of the AEC environments
(:mod:`blokus.rl.observation`, :mod:`blokus.rl.rewards`) for the agent's seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from blokus.game import Game
from blokus.players import Player, PlayerSpecError, make_player
from blokus.rl.aec import check_action
from blokus.rl.errors import EnvConfigError, IllegalActionError
from blokus.rl.observation import Observation, encoding
from blokus.rl.rendering import ansi, check_render_mode, rgb_array
from blokus.rl.rewards import check_reward, final_rewards
from blokus.variants import Seating, Variant

__all__ = ["BlokusEnv", "Opponent"]

Opponent = str | Player
"""A player spec for :func:`blokus.players.make_player` (``"random"``,
``"greedy"``, ``"level:3"``) or a player object."""


class BlokusEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a variant against fixed opponents.

    ``opponent``: one :data:`Opponent` for every other seat, or a sequence
    with one per other seat in seat order.  Specs become players anew on
    every ``reset``, seeded from the environment's generator, so a seeded
    reset replays the same opponents.  ``seat``: the agent's seat index, or
    ``None`` for a seat drawn at every reset.  ``reward``, ``scoring``,
    ``seating``, ``render_mode``: as for :class:`blokus.rl.aec.BlokusAECEnv`.
    Raises :class:`EnvConfigError` for a bad option; ``step`` raises
    :class:`IllegalActionError` for an illegal action (nothing changes then).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str | Variant = "duo",
        opponent: Opponent | Sequence[Opponent] = "random",
        seat: int | None = 0,
        reward: str = "score",
        scoring: str = "advanced",
        seating: str | Seating | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = -1.0,
    ) -> None:
        self.encoding = encoding(variant, seating)
        check_reward(reward, scoring)
        check_render_mode(render_mode)
        self.variant: Variant = self.encoding.variant
        self.seating: Seating = self.encoding.seating
        self.reward_rule = reward
        self.scoring = scoring
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self._ended = False
        seats = self.seating.seats
        self._playable = [i for i, s in enumerate(seats) if not s.neutral]
        if seat is not None and seat not in self._playable:
            raise EnvConfigError(
                f"seat {seat!r} is not a playable seat of {self.variant.id} "
                f"(seats: {', '.join(str(i) for i in self._playable)})"
            )
        self._fixed_seat = seat
        if isinstance(opponent, str) or isinstance(opponent, Player):
            self._opponents: list[Opponent] = [opponent] * (len(seats) - 1)
        else:
            self._opponents = list(opponent)
            if len(self._opponents) != len(seats) - 1:
                need, got = len(seats) - 1, len(self._opponents)
                raise EnvConfigError(f"{self.variant.id} needs {need} opponents, got {got}")
        for spec in self._opponents:
            if isinstance(spec, str):
                try:
                    make_player(spec, 0)
                except PlayerSpecError as e:
                    raise EnvConfigError(str(e)) from None
            elif not isinstance(spec, Player):
                raise EnvConfigError(f"opponent {spec!r} is neither a player spec nor a player")
        self.observation_space = self.encoding.observation_space()
        self.action_space = self.encoding.action_space()
        self.game = Game(self.variant, self.seating)
        """The game being played (read it, don't push to it)."""
        self.seat: int = self._playable[0] if seat is None else seat
        """The agent's seat in the current game."""
        self._players: dict[int, Player] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game and let the opponents move until the agent's turn."""
        super().reset(seed=seed)
        rng = self.np_random
        if self._fixed_seat is None:
            self.seat = self._playable[int(rng.integers(len(self._playable)))]
        else:
            self.seat = self._fixed_seat
        others = [i for i in range(len(self.seating.seats)) if i != self.seat]
        self._players = {}
        for i, spec in zip(others, self._opponents, strict=True):
            if isinstance(spec, str):
                self._players[i] = make_player(spec, int(rng.integers(2**31)))
            else:
                self._players[i] = spec
        self.game = Game(self.variant, self.seating)
        self._ended = False
        self._play_opponents()
        return self._obs(), self._info()

    def _play_opponents(self) -> None:
        game = self.game
        while game.seat_to_move is not None and game.seat_to_move != self.seat:
            game.push(self._players[game.seat_to_move].choose(game))

    def _obs(self) -> Observation:
        return self.encoding.observe(self.game, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat}
        if self.game.is_game_over():
            info["seat_scores"] = self.game.outcome(self.scoring).seat_scores
        return info

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (a placement index), then the opponents' moves;
        the reward is 0 until the game ends.  Raises
        :class:`IllegalActionError` after the end of an episode."""
        if self._ended:
            raise IllegalActionError("the episode is over: call reset()")
        try:
            index = check_action(self.game, action)
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), float(self.illegal_reward), True, False, info
        self.game.push_index(index)
        self._play_opponents()
        over = self.game.is_game_over()
        self._ended = over
        reward = 0.0
        if over:
            reward = final_rewards(self.game, self.reward_rule, self.scoring)[self.seat]
        return self._obs(), reward, over, False, self._info()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The position as text (``"ansi"``) or an image (``"rgb_array"``)."""
        if self.render_mode == "ansi":
            return ansi(self.game)
        if self.render_mode == "rgb_array":
            return rgb_array(self.game)
        return None
