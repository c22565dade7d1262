"""Blokus Three-Player: the PettingZoo AEC environment ``blokus_classic_3_v0``.

20 x 20 board, four colours; three agents, and Green is moved by each agent in
turn (``seating="neutral"``: by a fourth, neutral agent whose reward is always
0).

    >>> from blokus.rl import blokus_classic_3_v0
    >>> env = blokus_classic_3_v0.env(render_mode=None)

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

VARIANT = "classic_3"

env, raw_env = env_functions(VARIANT)
