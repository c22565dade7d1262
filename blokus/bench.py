"""``blokus bench``: throughput of the search kernel and of the tree search.

Two figures per thread count, as chess engines report them:

* random games per second: uniformly random complete games from the empty
  board in the compiled kernel, every thread playing its own games;
* MCTS simulations per second: the tree search of ``level:N`` players
  (priors, RAVE, playouts) from a fixed set of positions of the variant (the
  empty board and the positions after 8 and 16 moves of a seeded random game),
  or from the position before move N of a record.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass

from blokus.game import Game

__all__ = ["BenchResult", "bench", "positions_for"]


@dataclass(frozen=True)
class BenchResult:
    variant: str
    threads: int
    random_games_per_s: float
    mcts_sims_per_s: float

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "threads": self.threads,
            "random_games_per_s": round(self.random_games_per_s, 1),
            "mcts_sims_per_s": round(self.mcts_sims_per_s, 1),
        }


def positions_for(variant_id: str) -> list[Game]:
    """The fixed benchmark positions of a variant."""
    rng = random.Random(12345)
    out = []
    game = Game(variant_id)
    for target in (0, 8, 16):
        while len(game.move_stack) < target and not game.is_game_over():
            game.push_index(rng.choice(game.legal_moves.indices()))
        if not game.is_game_over():
            out.append(game.copy())
    return out


def _random_games_rate(variant_id: str, seconds: float, threads: int) -> float:
    from blokus import kernel

    kernel.random_games(variant_id, 10)  # compiled, tables built
    games = [0] * threads
    deadline = time.monotonic() + seconds

    def work(i: int) -> None:
        seed = 1000 * i
        while time.monotonic() < deadline:
            games[i] += kernel.random_games(variant_id, 200, seed).games
            seed += 1

    start = time.monotonic()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(games) / (time.monotonic() - start)


def _mcts_rate(positions: list[Game], seconds: float, threads: int) -> float:
    from blokus.players.mcts import MctsPlayer, SearchParams

    # The search itself, at every position (not the prior's opening moves).
    params = SearchParams(opening_by_prior=0)
    sims = 0
    elapsed = 0.0
    per = seconds / len(positions)
    for game in positions:
        player = MctsPlayer(sims=None, seconds=per, threads=threads, seed=1, params=params)
        player.choose(game.copy())  # the first call may compile; not timed
        player = MctsPlayer(sims=None, seconds=per, threads=threads, seed=2, params=params)
        start = time.monotonic()
        player.choose(game.copy())
        elapsed += time.monotonic() - start
        sims += player.last_sims
    return sims / elapsed if elapsed > 0 else 0.0


def bench(
    variant_id: str, seconds: float, threads: list[int], positions: list[Game] | None = None
) -> list[BenchResult]:
    """Measure both figures for each thread count (``seconds`` per figure)."""
    if not 0 < seconds < math.inf:
        raise ValueError(f"seconds must be positive and finite, not {seconds}")
    positions = positions or positions_for(variant_id)
    positions = [g for g in positions if not g.is_game_over()]
    if not positions:
        raise ValueError("the position is at the end of the game: nothing to search")
    results = []
    for n in threads:
        if n < 1:
            raise ValueError("--threads must be at least 1")
        results.append(BenchResult(
            positions[0].variant.id, n,
            _random_games_rate(positions[0].variant.id, seconds, n),
            _mcts_rate(positions, seconds, n),
        ))
    return results
