"""Reinforcement-learning environments for every variant (needs the ``rl``
extra: ``pettingzoo``, ``gymnasium``, ``numpy``).

* PettingZoo AEC environments, one per variant id, versioned like
  PettingZoo's own games: ``from blokus.rl import blokus_duo_v0``;
  ``blokus_duo_v0.env()`` (see :mod:`blokus.rl.aec`).
* A Gymnasium single-agent environment against built-in players,
  registered **when this package is imported** under the ids in
  :data:`GYM_IDS` (``gymnasium.make("blokus/Duo-v0", opponent="greedy")``;
  without importing it first, ``gymnasium.make("blokus.rl:blokus/Duo-v0")``
  imports it for you).  See :mod:`blokus.rl.gym_env`.
* A batched environment stepping many games at once for self-play:
  :class:`blokus.rl.batched.BatchedEnv`.
* :class:`PolicyPlayer`: a trained policy as a player.

The observation and action encoding is in :mod:`blokus.rl.observation`, the
reward rules in :mod:`blokus.rl.rewards`; docs/rl.md has the whole story.
"""

from __future__ import annotations

import gymnasium

from blokus.rl import (
    blokus_classic_2_v0,
    blokus_classic_3_v0,
    blokus_classic_v0,
    blokus_duo_v0,
    blokus_junior_v0,
    blokus_trigon_2_v0,
    blokus_trigon_3_v0,
    blokus_trigon_v0,
)
from blokus.rl.aec import BlokusAECEnv
from blokus.rl.errors import EnvConfigError, IllegalActionError
from blokus.rl.gym_env import BlokusEnv
from blokus.rl.observation import Encoding, encoding
from blokus.rl.player import PolicyPlayer
from blokus.rl.rewards import REWARDS, final_rewards

__all__ = [
    "blokus_classic_v0", "blokus_classic_2_v0", "blokus_classic_3_v0", "blokus_duo_v0",
    "blokus_junior_v0", "blokus_trigon_v0", "blokus_trigon_2_v0", "blokus_trigon_3_v0",
    "AEC_ENVS", "GYM_IDS", "BlokusAECEnv", "BlokusEnv", "PolicyPlayer",
    "EnvConfigError", "IllegalActionError", "Encoding", "encoding", "REWARDS", "final_rewards",
]

AEC_ENVS = {
    m.VARIANT: m
    for m in (
        blokus_classic_v0, blokus_classic_2_v0, blokus_classic_3_v0, blokus_duo_v0,
        blokus_junior_v0, blokus_trigon_v0, blokus_trigon_2_v0, blokus_trigon_3_v0,
    )
}
"""The versioned AEC environment module of each variant id."""

GYM_IDS = {
    "classic": "blokus/Classic-v0",
    "classic_2": "blokus/Classic2-v0",
    "classic_3": "blokus/Classic3-v0",
    "duo": "blokus/Duo-v0",
    "junior": "blokus/Junior-v0",
    "trigon": "blokus/Trigon-v0",
    "trigon_2": "blokus/Trigon2-v0",
    "trigon_3": "blokus/Trigon3-v0",
}
"""The Gymnasium id of each variant id."""

for _variant, _env_id in GYM_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(
            id=_env_id, entry_point="blokus.rl.gym_env:BlokusEnv", kwargs={"variant": _variant}
        )
