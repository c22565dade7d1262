"""Blokus Junior: the PettingZoo AEC environment ``blokus_junior_v0``.

14 x 14 board, two colours (Green, Orange), the Junior piece set (two copies
of each piece), no bonus.

    >>> from blokus.rl import blokus_junior_v0
    >>> env = blokus_junior_v0.env(render_mode=None)

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

VARIANT = "junior"

env, raw_env = env_functions(VARIANT)
