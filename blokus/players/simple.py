"""Players that need no search: uniformly random, and greedy (one-move heuristic)."""

from __future__ import annotations

import random

from blokus.game import Game
from blokus.notation import Move

__all__ = ["RandomPlayer", "GreedyPlayer", "move_features"]


class RandomPlayer:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        indices = game.legal_moves.indices()
        if not indices:
            raise ValueError("no legal move: the game is over")
        return game.table.move(self._rng.choice(indices))


def move_features(game: Game, index: int) -> tuple[int, int, int, int]:
    """Features of placement ``index`` for the colour to move: its size in
    cells, the attach points it creates, the opponents' attach points it
    covers, and its distance from the board centre (in cells, times two)."""
    color = game.turn
    assert color is not None
    t = game.table
    mask = t.mask[index]
    forbidden = game.forbidden(color) | mask | t.adjacent[index]
    created = (t.corners[index] & ~forbidden & ~game.attach_points(color)).bit_count()
    blocked = 0
    for c in range(len(game.colors)):
        if c != color:
            blocked += (mask & game.attach_points(c)).bit_count()
    board = game.board
    cx = (board.width - 1) / 2
    cy = (board.height + 1) / 2
    dist = 0.0
    for cell in t.cells[index]:
        x, row = board.points[cell]
        dist += abs(x - cx) * (0.5 if board.kind == "triangle" else 1.0) + abs(row - cy)
    return len(t.cells[index]), created, blocked, int(2 * dist / len(t.cells[index]))


class GreedyPlayer:
    """Plays the move that looks best one move ahead: big pieces first, then
    the most new attach points and blocked opponent attach points, then
    closeness to the centre; ties broken at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        indices = game.legal_moves.indices()
        if not indices:
            raise ValueError("no legal move: the game is over")
        best: list[int] = []
        best_value = float("-inf")
        for i in indices:
            size, created, blocked, dist = move_features(game, i)
            value = 10.0 * size + 2.0 * created + 3.0 * blocked - 0.3 * dist
            if value > best_value:
                best_value, best = value, [i]
            elif value == best_value:
                best.append(i)
        return game.table.move(self._rng.choice(best))
