"""Blokus Duo: the PettingZoo AEC environment ``blokus_duo_v0``.

14 x 14 board, two colours (Purple moves first from e10, Orange from j5).

    >>> from blokus.rl import blokus_duo_v0
    >>> env = blokus_duo_v0.env(render_mode=None)

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

VARIANT = "duo"

env, raw_env = env_functions(VARIANT)
