"""Computer players behind one small interface.

A player is given the game state and returns a move for the colour to move::

    >>> from blokus import Game
    >>> from blokus.players import make_player
    >>> game = Game("duo")
    >>> player = make_player("greedy", seed=1)
    >>> move = player.choose(game)
    >>> game.is_legal(move)
    True

Specs understood by :func:`make_player`: ``random``, ``greedy`` and (with the
search extra installed) ``level:N`` for N in 1..9 and ``mcts:sims=N`` /
``mcts:seconds=S``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from blokus.game import Game
from blokus.notation import Move
from blokus.players.simple import GreedyPlayer, RandomPlayer

__all__ = [
    "Player", "RandomPlayer", "GreedyPlayer", "make_player", "PlayerSpecError", "LEVELS",
    "LEVEL_NOTES", "runs_search",
]

LEVELS: tuple[str, ...] = tuple(f"level:{n}" for n in range(1, 10))
"""The specs of the nine computer levels, weakest first."""

LEVEL_NOTES: dict[str, str] = {"level:9": "slow: about a minute a move"}
"""What a person should know before choosing a level: level 9 thinks as
long as Pentobi's level 9 (``blokus.players.mcts.LEVEL_9_SECONDS``)."""


class PlayerSpecError(ValueError):
    """A player spec that names no known player or has bad options."""


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move for the colour to move."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal move for ``game``'s colour to move (the game is not over)."""
        ...


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``kind:key=value,key=value`` (``level:5`` means ``level:level=5``);
    raises :class:`PlayerSpecError` for an option given twice."""
    kind, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq:
                key, value = kind, key
            key = key.strip()
            if key in options:
                raise PlayerSpecError(f"bad player spec {spec!r}: {key} given twice")
            options[key] = value.strip()
    return kind.strip().lower(), options


def runs_search(player: Player) -> bool:
    """Whether a player may run the compiled search (any player but the
    random and the greedy one), so that warming the search up first
    (``blokus.players.mcts.warm_up``) is worth it."""
    return not isinstance(player, (RandomPlayer, GreedyPlayer))


def make_player(spec: str, seed: int | None = None) -> Player:
    """A built-in player from a spec; raises :class:`PlayerSpecError`."""
    kind, options = parse_spec(spec)
    if kind == "random" and not options:
        return RandomPlayer(seed)
    if kind == "greedy" and not options:
        return GreedyPlayer(seed)
    if kind in ("level", "mcts"):
        try:
            from blokus.players.mcts import mcts_player
        except ImportError as e:  # numba missing
            raise PlayerSpecError(f"{spec!r} needs the search kernel: {e}") from None
        try:
            player: Player = mcts_player(kind, options, seed)
            return player
        except (KeyError, ValueError) as e:
            raise PlayerSpecError(f"bad player spec {spec!r}: {e}") from None
    raise PlayerSpecError(
        f"unknown player {spec!r} (known: random, greedy, level:1..9, mcts:sims=N)"
    )
