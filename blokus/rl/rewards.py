"""Rewards at the end of a game, per seat, by a selectable rule.

Every environment gives 0 on every step but the last; when the game ends each
seat gets the reward of its *group* (its team, or itself), computed from
:meth:`Game.outcome` under a scoring rule (``advanced`` by default).  A neutral
seat always gets 0.

``"score"``
    the group's score minus the best other group's score, divided by the
    largest difference possible, so it lies in [-1, 1].  Per colour the
    scores span ``total_cells + 20`` under ``advanced`` and ``cells`` (the
    cells of a piece set plus the biggest bonus; no bonus in Junior) and
    ``total_cells`` under ``basic``; a group of ``k`` colours spans ``k``
    times that, and the divisor uses the largest group.  Under ``basic``
    (lowest wins) the sign is turned so that more is better.
``"win"``
    +1 for the sole winner, -1 for every group not in first place, 0 for
    groups sharing first place.
``"rank"``
    ``1 - 2 * (p - 1) / (G - 1)`` for ``G`` groups, ``p`` the group's
    position; groups with equal scores share the mean of the positions they
    cover.  Two groups: +1 / -1, a draw 0; four groups: +1, +1/3, -1/3, -1.
    The rewards of all groups add up to 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from blokus.game import Game
from blokus.rl.errors import EnvConfigError
from blokus.scoring import RULES, places
from blokus.variants import Seating, Variant

__all__ = ["REWARDS", "check_reward", "final_rewards", "seat_rewards"]

REWARDS = ("score", "win", "rank")
"""The reward rules, default first."""


def check_reward(reward: str, scoring: str) -> None:
    """Raise :class:`EnvConfigError` if the reward or scoring rule is unknown."""
    if reward not in REWARDS:
        raise EnvConfigError(f"unknown reward rule {reward!r} (known: {', '.join(REWARDS)})")
    if scoring not in RULES:
        raise EnvConfigError(f"unknown scoring rule {scoring!r} (known: {', '.join(RULES)})")


def final_rewards(game: Game, reward: str = "score", scoring: str = "advanced") -> list[float]:
    """The reward of every seat (by seat index) for the position as it stands
    (meant for a finished game); raises :class:`EnvConfigError` for an
    unknown rule."""
    check_reward(reward, scoring)
    outcome = game.outcome(scoring)
    return _rewards(
        game.variant, game.seating, outcome.groups, outcome.group_scores, outcome.places,
        reward, scoring,
    )


def seat_rewards(
    color_scores: Sequence[int],
    variant: Variant,
    seating: Seating,
    reward: str = "score",
    scoring: str = "advanced",
) -> list[float]:
    """:func:`final_rewards` from the colours' scores under ``scoring`` (for
    the batched environment, which has no :class:`Game`); seat and group
    scores and places are added up as :meth:`Game.outcome` does."""
    check_reward(reward, scoring)
    seat_scores = [
        0 if seat.neutral else sum(color_scores[c] for c in seat.colors)
        for seat in seating.seats
    ]
    groups = seating.scoring_groups
    group_scores = [sum(seat_scores[i] for i in g) for g in groups]
    ranks = places(group_scores, lowest_wins=(scoring == "basic"))
    return _rewards(variant, seating, groups, group_scores, ranks, reward, scoring)


def _rewards(
    variant: Variant,
    seating: Seating,
    groups: Sequence[Sequence[int]],
    group_scores: Sequence[int],
    ranks: Sequence[int],
    reward: str,
    scoring: str,
) -> list[float]:
    sign = -1 if scoring == "basic" else 1
    value = [sign * s for s in group_scores]
    per_group: list[float]
    if reward == "score":
        span = variant.piece_set.total_cells
        if scoring != "basic" and variant.bonus:
            span += 20
        width = max(sum(len(seating.seats[i].colors) for i in g) for g in groups)
        per_group = []
        for k, v in enumerate(value):
            best_other = max(o for j, o in enumerate(value) if j != k)
            per_group.append((v - best_other) / (span * width))
    elif reward == "win":
        first = sum(1 for p in ranks if p == 1)
        per_group = [(1.0 if first == 1 else 0.0) if p == 1 else -1.0 for p in ranks]
    else:
        n = len(groups)
        per_group = []
        for p in ranks:
            tied = sum(1 for q in ranks if q == p)
            mean_position = p + (tied - 1) / 2
            per_group.append(1.0 - 2.0 * (mean_position - 1) / (n - 1))
    out = [0.0] * len(seating.seats)
    for g, seats in enumerate(groups):
        for s in seats:
            out[s] = per_group[g]
    return out
