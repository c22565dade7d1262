"""PettingZoo AEC environments: one agent per seat, one environment per variant.

Use the versioned modules (``from blokus.rl import blokus_duo_v0``;
``blokus_duo_v0.env()``); this module holds the class they share.

Agents are named ``player_0``, ``player_1``, … by seat index in the seating
(``game.seating.seats``): in Duo ``player_0`` moves Purple; in Classic
Two-Player ``player_0`` moves Blue and Red; in Classic Three-Player the shared
Green rotates between the three agents, and the agent to move is always the
one whose seat moves the colour to move (``game.seat_to_move``).  A colour
that cannot move is passed by the game, so the agent to move always has a
legal action.  Observations, actions and rewards: see
:mod:`blokus.rl.observation` and :mod:`blokus.rl.rewards`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from blokus.game import Game
from blokus.rl.errors import IllegalActionError
from blokus.rl.observation import Observation, encoding
from blokus.rl.rendering import ansi, check_render_mode, rgb_array
from blokus.rl.rewards import check_reward, final_rewards
from blokus.variants import Seating, Variant

__all__ = ["BlokusAECEnv", "wrap", "check_action"]

VERSION = 0
"""The version suffix of the environment names (``blokus_duo_v0``)."""


def check_action(game: Game, action: object) -> int:
    """The action as a placement index if it is legal for the colour to move;
    raises :class:`IllegalActionError` otherwise."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        index = int(action)
    elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        index = int(action)
    else:
        raise IllegalActionError(f"action {action!r} is not an integer placement index")
    n = len(game.table)
    if not 0 <= index < n:
        raise IllegalActionError(f"action {index} is not a placement index (0..{n - 1})")
    if game.turn is None:
        raise IllegalActionError("the game is over")
    if not game.legal_moves.mask() >> index & 1:
        move = game.table.move(index)
        reason = game.why_illegal(move) or "it is not legal"
        raise IllegalActionError(f"action {index} ({move}) is illegal: {reason}")
    return index


class BlokusAECEnv(AECEnv):  # type: ignore[misc]
    """The turn-based environment of one variant (PettingZoo's ``raw_env``).

    ``variant``: a variant id or name; ``seating``: a seating id of the
    variant (default: its first); ``reward``: ``"score"``, ``"win"`` or
    ``"rank"``; ``scoring``: the scoring rule the reward is computed under
    (``"advanced"``, ``"basic"``, ``"cells"``); ``render_mode``: ``None``,
    ``"ansi"`` or ``"rgb_array"``.  Raises :class:`EnvConfigError` for an
    unknown option.  ``step`` raises :class:`IllegalActionError` for an
    action that is not legal (nothing changes then).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "blokus_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str | Variant = "duo",
        render_mode: str | None = None,
        reward: str = "score",
        scoring: str = "advanced",
        seating: str | Seating | None = None,
    ) -> None:
        super().__init__()
        self.encoding = encoding(variant, seating)
        check_reward(reward, scoring)
        check_render_mode(render_mode)
        self.variant: Variant = self.encoding.variant
        self.seating: Seating = self.encoding.seating
        self.reward_rule = reward
        self.scoring = scoring
        self.render_mode = render_mode
        self.metadata = dict(type(self).metadata, name=f"blokus_{self.variant.id}_v{VERSION}")
        self.possible_agents: list[str] = [f"player_{i}" for i in range(len(self.seating.seats))]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: self.encoding.observation_space() for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: self.encoding.action_space() for a in self.possible_agents
        }
        self.game = Game(self.variant, self.seating)
        """The game being played (read it, don't push to it)."""
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents: list[str] = self.possible_agents[:]
        self.rewards: dict[str, float] = {a: 0.0 for a in self.agents}
        self._cumulative_rewards: dict[str, float] = {a: 0.0 for a in self.agents}
        self.terminations: dict[str, bool] = {a: False for a in self.agents}
        self.truncations: dict[str, bool] = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection: str | None = None
        seat = self.game.seat_to_move
        self.agent_selection: str = self.possible_agents[0 if seat is None else seat]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the rules have no chance: ``seed`` changes nothing)."""
        self.game = Game(self.variant, self.seating)
        self._reset_state()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (see :mod:`blokus.rl.observation`)."""
        return self.encoding.observe(self.game, self._seat[agent])

    def state(self) -> npt.NDArray[np.int8]:
        """The board planes in plain colour order (colour 0 first)."""
        return self.encoding.board(self.game, tuple(range(self.encoding.num_colors)))

    def step(self, action: Any) -> None:
        """Play ``action`` (a placement index) for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = check_action(self.game, action)
        self._cumulative_rewards[agent] = 0.0
        self.game.push_index(index)
        for a in self.agents:
            self.rewards[a] = 0.0
        seat = self.game.seat_to_move
        if seat is None:
            values = final_rewards(self.game, self.reward_rule, self.scoring)
            for a in self.agents:
                self.rewards[a] = values[self._seat[a]]
                self.terminations[a] = True
            order = self.possible_agents
            self.agent_selection = order[(order.index(agent) + 1) % len(order)]
        else:
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The position as text (``"ansi"``) or an image (``"rgb_array"``);
        ``None`` without a render mode."""
        if self.render_mode == "ansi":
            return ansi(self.game)
        if self.render_mode == "rgb_array":
            return rgb_array(self.game)
        return None

    def close(self) -> None:
        pass


def wrap(env: BlokusAECEnv, illegal_reward: float | None = None) -> Any:
    """PettingZoo's usual wrappers around a raw environment: bounds and order
    checks, and with ``illegal_reward`` an illegal action ends the game with
    that reward for the offender (instead of raising)."""
    out: Any = env
    if illegal_reward is not None:
        out = wrappers.TerminateIllegalWrapper(out, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


def env_functions(variant_id: str) -> tuple[Callable[..., Any], Callable[..., BlokusAECEnv]]:
    """``(env, raw_env)`` of a variant, for its versioned module."""

    def raw_env(**options: Any) -> BlokusAECEnv:
        """The bare environment; raises :class:`~blokus.rl.errors.EnvConfigError`
        for a bad option."""
        return BlokusAECEnv(variant_id, **options)

    def env(illegal_reward: float | None = None, **options: Any) -> Any:
        """The wrapped environment (see :func:`blokus.rl.aec.wrap`)."""
        return wrap(raw_env(**options), illegal_reward)

    return env, raw_env
