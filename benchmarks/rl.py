"""Throughput of the RL environments (prints figures, asserts nothing).

    python benchmarks/rl.py [--seconds S] [--variant ID ...] [--num-envs N ...]

For each variant:

* ``AEC``: one PettingZoo game (``blokus_<id>_v0.env()``, wrappers
  included) stepped with uniformly random legal actions, an observation
  (board planes, pieces, action mask) built for every step, as a training
  loop would;
* ``Game``: the same random games through :class:`blokus.Game` alone
  (``legal_moves`` as a mask, ``push_index``), no observation;
* ``batched xN``: :class:`blokus.rl.batched.BatchedEnv` with ``N`` games,
  random legal actions drawn in compiled code, observations for every game
  at every step (one thread).

Steps are moves (placements); automatic passes are not counted.  Compilation
and table building happen before the clock starts.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings

import numpy as np

from blokus import Game
from blokus.rl import AEC_ENVS
from blokus.rl.observation import bits

PUBLISHED = 10_000
"""Order of magnitude, in moves per second on one thread, of the fastest
published Python Blokus environment we know of (not measured here)."""


def aec_steps_per_second(variant: str, seconds: float, seed: int = 0) -> float:
    env = AEC_ENVS[variant].env()
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def game_steps_per_second(variant: str, seconds: float, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    n = len(Game(variant).table)
    while time.perf_counter() - start < seconds:
        game = Game(variant)
        while not game.is_game_over():
            legal = np.flatnonzero(bits(game.legal_moves.mask(), n))
            game.push_index(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def batched_steps_per_second(variant: str, num_envs: int, seconds: float) -> float:
    from blokus.rl.batched import BatchedEnv

    env = BatchedEnv(variant, num_envs, seed=0)
    env.reset()
    env.step(env.random_actions())  # compile / load the compiled code
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.random_actions())
        steps += num_envs
    return steps / (time.perf_counter() - start)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} logical CPUs, Python {sys.version.split()[0]}, "
            f"numpy {np.__version__}, {platform.system()} {platform.release()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Throughput of the RL environments.")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variant", nargs="*", default=["duo", "classic", "trigon"])
    parser.add_argument("--num-envs", nargs="*", type=int, default=[1, 64, 256])
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    print(machine())
    print(f"reference: fastest published Python Blokus environment ~{PUBLISHED:,} moves/s "
          "single-threaded (order of magnitude, not measured here)")
    print(f"{'variant':10s} {'environment':14s} {'moves/s':>10s}")
    for variant in args.variant:
        for name, rate in (
            ("AEC", aec_steps_per_second(variant, args.seconds)),
            ("Game", game_steps_per_second(variant, args.seconds)),
        ):
            print(f"{variant:10s} {name:14s} {rate:10,.0f}", flush=True)
        for n in args.num_envs:
            rate = batched_steps_per_second(variant, n, args.seconds)
            print(f"{variant:10s} {f'batched x{n}':14s} {rate:10,.0f}", flush=True)


if __name__ == "__main__":
    main()
