"""Blokus Trigon, four players: the PettingZoo AEC environment ``blokus_trigon_v0``.

hexagonal board of triangles (edge 9), four colours; seatings ``players``,
``teams``, ``shared``, ``neutral``.

    >>> from blokus.rl import blokus_trigon_v0
    >>> env = blokus_trigon_v0.env(render_mode=None)

``env(**options)`` is the environment with PettingZoo's usual wrappers,
``raw_env(**options)`` the bare :class:`~blokus.rl.aec.BlokusAECEnv`; the
options are those of that class (``render_mode``, ``reward``, ``scoring``,
``seating``), and ``env`` also takes ``illegal_reward``.

Version history:

* v0: first version.
"""

from __future__ import annotations

from blokus.rl.aec import env_functions

__all__ = ["env", "raw_env", "VARIANT"]

VARIANT = "trigon"

env, raw_env = env_functions(VARIANT)
