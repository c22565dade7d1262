"""Scores, places and the outcome of a game (RULES.md section 5).

Three rules:

``basic``
    each colour scores the unit cells of its unplaced pieces; lowest wins.
``advanced``
    the official rule: -1 per remaining cell, +15 for placing every piece,
    +20 instead when the last piece placed was the single cell.  Highest wins.
``cells``
    +1 per placed cell with the same bonuses (how Pentobi reports points).
    It ranks colours exactly as ``advanced`` does.

Junior has no bonus.  A seat with several colours adds their scores, a team
adds its seats' scores, and a shared or neutral colour counts for nobody.
Equal scores share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["RULES", "Outcome", "color_score", "bonus", "places"]

RULES = ("advanced", "basic", "cells")
"""The scoring rules, default first."""


def bonus(all_placed: bool, last_was_single: bool) -> int:
    """The bonus for placing every piece: 15, or 20 if the single cell went last."""
    if not all_placed:
        return 0
    return 20 if last_was_single else 15


def color_score(
    rule: str,
    remaining: int,
    placed: int,
    all_placed: bool,
    last_was_single: bool,
    has_bonus: bool = True,
) -> int:
    """One colour's score under ``rule``; raises ``ValueError`` for an unknown rule."""
    b = bonus(all_placed, last_was_single) if has_bonus else 0
    if rule == "advanced":
        return b - remaining
    if rule == "basic":
        return remaining
    if rule == "cells":
        return placed + b
    raise ValueError(f"unknown scoring rule {rule!r} (known: {', '.join(RULES)})")


def places(scores: Sequence[int], lowest_wins: bool = False) -> tuple[int, ...]:
    """1-based places; equal scores share a place (1, 1, 3 …).

    >>> places([10, 30, 10])
    (2, 1, 2)
    >>> places([10, 30, 10], lowest_wins=True)
    (1, 3, 1)
    """
    sign = 1 if lowest_wins else -1
    keys = [sign * s for s in scores]
    return tuple(1 + sum(1 for k in keys if k < mine) for mine in keys)


@dataclass(frozen=True)
class Outcome:
    """Scores under one rule, and who won.

    ``groups`` are the units that are ranked: the teams if the seating has
    teams, else every scoring seat alone (as tuples of seat indices).
    """

    rule: str
    color_scores: tuple[int, ...]
    seat_scores: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    group_scores: tuple[int, ...]
    places: tuple[int, ...]
    """The place of each group (1 = first)."""
    finished: bool
    """Whether the game is over (else these are the scores so far)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Indices of the groups in first place (several when tied)."""
        return tuple(i for i, p in enumerate(self.places) if p == 1)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1
