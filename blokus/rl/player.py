"""A trained policy as a :class:`blokus.players.Player`.

Wrap any function from an observation (:mod:`blokus.rl.observation`) to a
placement index; the result plays wherever a player object is accepted (a
game loop, the single-agent environment's ``opponent``)::

    >>> import numpy as np
    >>> from blokus import Game
    >>> from blokus.rl import PolicyPlayer
    >>> first_legal = PolicyPlayer(lambda obs: int(np.argmax(obs["action_mask"])), "first")
    >>> game = Game("duo")
    >>> game.push(first_legal.choose(game))
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from blokus.game import Game
from blokus.notation import Move
from blokus.rl.errors import IllegalActionError
from blokus.rl.observation import Observation, encoding

__all__ = ["PolicyPlayer", "Policy"]

Policy = Callable[[Observation], "int | np.integer"]
"""A function from an observation to a placement index."""


class PolicyPlayer:
    """A player that asks ``policy`` for a placement index, seeing the game as
    the seat to move sees it."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def choose(self, game: Game) -> Move:
        """The policy's move; raises ``ValueError`` when the game is over and
        :class:`IllegalActionError` when the policy picks an illegal placement."""
        seat = game.seat_to_move
        if seat is None:
            raise ValueError("no legal move: the game is over")
        obs = encoding(game.variant, game.seating).observe(game, seat)
        index = int(self.policy(obs))
        if not 0 <= index < len(obs["action_mask"]) or not obs["action_mask"][index]:
            raise IllegalActionError(f"policy {self.name!r} chose illegal action {index}")
        return game.table.move(index)

    def __repr__(self) -> str:
        return f"<PolicyPlayer {self.name}>"
