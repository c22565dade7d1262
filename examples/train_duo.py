"""Train a small Blokus Duo player on a CPU in a few minutes, with numpy only.

    python examples/train_duo.py [--iterations 5] [--games 100] [--pairs 100] [--seed 1]

The player is a linear *value function* over features of the position right
after one of its own moves: the cells it is ahead in placed pieces, each
side's mobility (legal moves, log scale) and corners (attach points), and
each side's area (the empty cells it reaches before the other, by a flood
fill over the cells it may still cover).  It plays the legal move whose
after-position has the highest value.

Training is Monte Carlo policy iteration: play ``--games`` episodes of the
Gymnasium environment ``blokus/Duo-v0`` (``reward="score"``: the final score
difference, normalised) against the built-in greedy player (three games in
four) and random player, in both seats, exploring with a random move one
time in ten; fit the weights by ridge regression of every after-position's
features on the episode's final reward; repeat ``--iterations`` times.  The
first round starts from zero weights, which is a uniformly random player.

Evaluation: the trained player against the random and the greedy player,
``--pairs`` pairs of games each.  Both games of a pair start from the same
random opening (one random move per colour) with the colours swapped, since
deterministic players would otherwise replay a handful of games.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import gymnasium
import numpy as np
import numpy.typing as npt

import blokus.rl  # noqa: F401  (registers blokus/Duo-v0)
from blokus import Game, Move
from blokus.players import Player, make_player

Array = npt.NDArray[np.float64]

FEATURES = (
    "cells ahead", "my mobility", "their mobility", "my corners", "their corners",
    "my area", "their area", "bias",
)

SIZE = 14
"""The Duo board: cell ``c`` is column ``c % 14`` of row ``c // 14 + 1``."""
_BOARD = (1 << SIZE * SIZE) - 1
_FIRST_COLUMN = sum(1 << (row * SIZE) for row in range(SIZE))
_LAST_COLUMN = _FIRST_COLUMN << (SIZE - 1)


def _grow(cells: int) -> int:
    """The cells and their eight neighbours, as a bitmask over the board."""
    h = cells | ((cells << 1) & ~_FIRST_COLUMN) | ((cells >> 1) & ~_LAST_COLUMN)
    return (h | (h << SIZE) | (h >> SIZE)) & _BOARD


def areas(game: Game, me: int, them: int) -> tuple[int, int]:
    """Empty cells each colour reaches strictly first, growing from its attach
    points through the cells it may still cover."""
    a, b = game.attach_points(me), game.attach_points(them)
    open_a, open_b = _BOARD & ~game.forbidden(me), _BOARD & ~game.forbidden(them)
    mine, theirs, seen = a & ~b, b & ~a, a | b
    for _ in range(SIZE):
        a, b = _grow(a) & open_a, _grow(b) & open_b
        new = (a | b) & ~seen
        if not new:
            break
        mine |= new & a & ~b
        theirs |= new & b & ~a
        seen |= new
    return mine.bit_count(), theirs.bit_count()


def after_features(game: Game, indices: list[int]) -> Array:
    """One row of features per legal placement index: the position after the
    colour to move plays it, from that colour's side."""
    me = game.turn
    assert me is not None and game.board.size == SIZE * SIZE
    them = 1 - me
    trial = game.copy()
    rows = np.empty((len(indices), len(FEATURES)))
    for k, i in enumerate(indices):
        trial.push_index(i)
        my_area, their_area = areas(trial, me, them)
        rows[k] = (
            (trial.remaining_cells(them) - trial.remaining_cells(me)) / 20,
            math.log1p(len(trial.legal_moves_of(me))) / 6,
            math.log1p(len(trial.legal_moves_of(them))) / 6,
            trial.attach_points(me).bit_count() / 20,
            trial.attach_points(them).bit_count() / 20,
            my_area / 50,
            their_area / 50,
            1.0,
        )
        trial.pop()
    return rows


class ValuePlayer:
    """A player (``name`` and ``choose(game)``): the move with the best
    after-position value, ties broken at random; with ``explore``, a random
    move that often instead."""

    def __init__(self, weights: Array, name: str = "value", explore: float = 0.0,
                 seed: int | None = None) -> None:
        self.weights = weights
        self.name = name
        self.explore = explore
        self._rng = random.Random(seed)

    def pick(self, game: Game, indices: list[int]) -> tuple[int, Array]:
        """The position in ``indices`` of the chosen move, and its features."""
        phi = after_features(game, indices)
        if self.explore and self._rng.random() < self.explore:
            k = self._rng.randrange(len(indices))
        else:
            value = phi @ self.weights
            best = np.flatnonzero(value >= value.max() - 1e-12)
            k = int(best[self._rng.randrange(len(best))])
        return k, phi[k]

    def choose(self, game: Game) -> Move:
        indices = game.legal_moves.indices()
        if not indices:
            raise ValueError("no legal move: the game is over")
        k, _ = self.pick(game, indices)
        return game.table.move(indices[k])


def train(iterations: int, games: int, seed: int) -> Array:
    """Monte Carlo policy iteration from zero weights; returns the weights."""
    rng = np.random.default_rng(seed)
    envs = {
        (opponent, seat): gymnasium.make(
            "blokus/Duo-v0", opponent=opponent, seat=seat, reward="score"
        )
        for opponent in ("random", "greedy") for seat in (0, 1)
    }
    weights = np.zeros(len(FEATURES))
    xs: list[Array] = []
    ys: list[float] = []
    start = time.perf_counter()
    for iteration in range(iterations):
        agent = ValuePlayer(weights, explore=0.1, seed=seed + iteration)
        rewards = []
        for g in range(games):
            env = envs[("random" if g % 4 == 0 else "greedy", g % 2)]
            obs, _ = env.reset(seed=int(rng.integers(2**31)))
            seen: list[Array] = []
            done, total = False, 0.0
            while not done:
                indices = [int(i) for i in np.flatnonzero(obs["action_mask"])]
                k, phi = agent.pick(env.unwrapped.game, indices)  # type: ignore[attr-defined]
                seen.append(phi)
                obs, reward, done, _, _ = env.step(indices[k])
                total += float(reward)
            xs.extend(seen)
            ys.extend([total] * len(seen))
            rewards.append(total)
        a, y = np.array(xs), np.array(ys)
        weights = np.linalg.solve(a.T @ a + 1e-3 * np.eye(len(FEATURES)), a.T @ y)
        print(f"round {iteration + 1}: mean reward {np.mean(rewards):+.3f} over {games} games,"
              f" {time.perf_counter() - start:.0f} s", flush=True)
    return weights


def match(a: Player, b: Player, pairs: int, seed: int) -> tuple[int, int, int]:
    """Wins, draws and losses of ``a`` against ``b`` over ``pairs`` pairs of
    games from random openings, colours swapped within a pair."""
    rng = random.Random(seed)
    results = [0, 0, 0]
    for _ in range(pairs):
        opening = Game("duo")
        for _ in range(2):
            opening.push_index(rng.choice(opening.legal_moves.indices()))
        for a_seat in (0, 1):
            game = opening.copy()
            players = (a, b) if a_seat == 0 else (b, a)
            while not game.is_game_over():
                seat = game.seat_to_move
                assert seat is not None
                game.push(players[seat].choose(game))
            scores = game.outcome().seat_scores
            mine, theirs = scores[a_seat], scores[1 - a_seat]
            results[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    return results[0], results[1], results[2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=5, help="rounds of play and fit")
    parser.add_argument("--games", type=int, default=100, help="training games per round")
    parser.add_argument("--pairs", type=int, default=100, help="pairs of evaluation games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    weights = train(args.iterations, args.games, args.seed)
    t1 = time.perf_counter()
    print(f"trained on {args.iterations * args.games} games in {t1 - t0:.0f} s")
    print("weights:", ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, weights, strict=True)))
    agent = ValuePlayer(weights, seed=args.seed)
    for opponent in ("random", "greedy"):
        won, drawn, lost = match(agent, make_player(opponent, seed=args.seed + 1),
                                 args.pairs, seed=args.seed + 2)
        n = won + drawn + lost
        print(f"against {opponent}: {won} won, {drawn} drawn, {lost} lost of {n} games, "
              f"win rate {100 * (won + drawn / 2) / n:.1f}% (a draw counts half)", flush=True)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
