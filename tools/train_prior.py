"""Learn the search's move prior from game records.

    python tools/train_prior.py --variant duo GAMES/*.blksgf

Every position of the records is a sample: the features of every legal move
of the colour to move (:func:`blokus.players.mcts.move_features`) and the
move that was played.  The prior is a softmax over ``weights . features``;
the weights that make the played moves most likely (with a small L2 penalty)
are found by gradient descent (Adam).  A fifth of the games is held out:
the script prints the held-out log-loss and how often the prior's best move
is the move played, for the hand-set weights and for the learned ones, then
writes the learned weights into ``blokus/players/prior_weights.json`` under
the variant's family (``--out`` for another file, ``--dry-run`` for none).
The weights have a block per phase of a colour's game (``mcts.PHASES``);
``--no-phases`` learns the base block alone, one weight a feature for the
whole game, as the shipped Duo and Junior weights are (the Classic and Trigon
ones have the phases: in games they beat the base block alone, docs/ladder.md).

The samples keep the base block of the features and each position's
share of each phase, not every column: the same model in a quarter of the
memory (about 1 GB for 100 Classic games).

The records should come from strong play (a strong engine playing itself):
the prior learns to guess what such a player does.  The shipped weights were
learned from ``tools/data/pentobi-selfplay.tar.gz``: Pentobi's GTP engine
playing itself without its opening book, 120 Duo games at its level 6, 120
Junior games at level 6, 100 Classic games at level 5 and 190 Trigon games at
level 4 (70 from one build of the engine, ``c-trigon-*`` from another),
recorded with

    blokus match "gtp:pentobi-gtp -g duo -l 6 --nobook --noresign -q --threads 1" \
        "gtp:pentobi-gtp -g duo -l 6 --nobook --noresign -q --threads 1" \
        --variant duo --games 120 --out duo

(``-g junior``, ``-g classic -l 5`` and ``-g trigon -l 4`` for the others);
to redo them:

    tar xzf tools/data/pentobi-selfplay.tar.gz -C /tmp
    python tools/train_prior.py --variant duo --no-phases /tmp/duo/*.blksgf
    python tools/train_prior.py --variant trigon /tmp/trigon/*.blksgf
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from blokus import kernel as k
from blokus import sgf
from blokus.game import Game
from blokus.players import mcts

F32 = npt.NDArray[np.float32]


class Samples:
    """Positions as one feature matrix: rows ``start[i]:start[i + 1]`` are
    the legal moves of position ``i``, ``chosen[i]`` the row played.

    Only the base block of :func:`~blokus.players.mcts.move_features` is
    kept (``features``); the phase blocks are that block times the
    position's share of each phase, so ``coef`` holds, per row, the factor
    of each block (1 for the base block, then the shares).  The full matrix
    would be four times the memory; the logits and the gradient are the
    same.  A model of the base block alone keeps the first column of
    ``coef``."""

    def __init__(self, features: F32, coef: F32, start: npt.NDArray[np.int64],
                 chosen: npt.NDArray[np.int64]) -> None:
        self.features = features
        self.coef = coef
        self.start = start
        self.chosen = chosen

    @property
    def size(self) -> int:
        return len(self.chosen)

    @property
    def width(self) -> int:
        """The number of weights of the model."""
        return int(self.features.shape[1] * self.coef.shape[1])

    def base_only(self) -> None:
        """Drop the phase blocks: one weight a feature for the whole game."""
        self.coef = np.ascontiguousarray(self.coef[:, :1])


def positions(paths: list[Path], variant_id: str) -> Iterator[tuple[F32, list[float], int]]:
    """The positions of the records with two legal moves or more: for each,
    the features of every legal move (every column of
    :func:`~blokus.players.mcts.move_features`), the factor of each block
    (1 for the base block, then the share of each phase) and the row of the
    move played."""
    t = k.tables(variant_id)
    game = Game(variant_id)
    seats = mcts.seats_for(game)
    width = mcts.num_features(variant_id)
    phases = len(mcts.PHASES)
    moves = np.empty(t.num_placements, np.int32)
    for path in paths:
        record = sgf.load(path)
        if record.game(0).variant.id != game.variant.id:
            raise SystemExit(f"{path}: not a {variant_id} record")
        s = k.new_state(t)
        for turn in record.moves:
            index = game.placement_of(turn.move)
            if index is None:
                continue  # a pass
            color = k.to_move(s)
            n = k.legal_moves(t, s, color, moves)
            if n >= 2:
                x = np.empty((n, width), np.float32)
                v = k.views(t, s)
                mcts.move_features(t, seats, v, color, moves, n, x)
                where = np.flatnonzero(moves[:n] == index)
                if len(where) != 1:
                    raise SystemExit(f"{path}: move {turn.move} is not legal")
                coef = [1.0] + [mcts.phase_share(t, v, color, j) for j in range(phases)]
                yield x, coef, int(where[0])
            k.play(t, s, index)


def samples_of(paths: list[Path], variant_id: str) -> Samples:
    """The positions of the records (with two legal moves or more)."""
    base = mcts.base_features(variant_id)
    rows: list[F32] = []
    coefs: list[F32] = []
    start = [0]
    chosen: list[int] = []
    for x, coef, played in positions(paths, variant_id):
        n = len(x)
        rows.append(x[:, :base].copy())
        coefs.append(np.tile(np.array(coef, np.float32), (n, 1)))
        chosen.append(start[-1] + played)
        start.append(start[-1] + n)
    return Samples(np.concatenate(rows), np.concatenate(coefs), np.array(start),
                   np.array(chosen))


def loss_and_gradient(w: F32, data: Samples, l2: float) -> tuple[float, F32, float]:
    """Mean negative log-likelihood of the played moves (plus the L2
    penalty), its gradient, and the share of positions where the played
    move has the highest logit.  ``w``: ``data.width`` weights, block by
    block (the base block first)."""
    blocks = w.reshape(data.coef.shape[1], data.features.shape[1])
    logits = ((data.features @ blocks.T) * data.coef).sum(axis=1)
    heads = data.start[:-1]
    top = np.maximum.reduceat(logits, heads)
    sizes = np.diff(data.start)
    e = np.exp(logits - np.repeat(top, sizes))
    total = np.add.reduceat(e, heads)
    p = e / np.repeat(total, sizes)
    nll = float(np.mean(np.log(total) + top - logits[data.chosen]))
    p[data.chosen] -= 1.0  # the gradient of the loss by the logits
    grad = (data.features.T @ (p[:, None] * data.coef)).T.ravel()
    grad = grad / data.size + 2 * l2 * w
    hits = float(np.mean(logits[data.chosen] >= top))
    return nll + l2 * float(w @ w), grad.astype(np.float32), hits


def train(data: Samples, w0: F32, steps: int, rate: float, l2: float) -> F32:
    """Adam on the full batch, from ``w0``."""
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2 = 0.9, 0.999
    for step in range(1, steps + 1):
        loss, g, _ = loss_and_gradient(w, data, l2)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= rate * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + 1e-8)
        if step % 100 == 0 or step == steps:
            print(f"  step {step}: training loss {loss:.4f}", file=sys.stderr, flush=True)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help=".blksgf game records")
    parser.add_argument("--variant", required=True, help="variant of the records")
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--out", type=Path, default=mcts.WEIGHTS_FILE)
    parser.add_argument("--dry-run", action="store_true", help="write nothing")
    parser.add_argument("--no-phases", action="store_true",
                        help="one weight a feature for the whole game (no phase blocks)")
    args = parser.parse_args()
    paths = sorted(args.records)
    held = paths[::5]
    kept = [p for p in paths if p not in held]
    if not held or not kept:
        raise SystemExit("give at least two records")
    print(f"reading {len(paths)} records ({len(held)} held out)", file=sys.stderr)
    train_set = samples_of(kept, args.variant)
    test_set = samples_of(held, args.variant)
    default = mcts.default_weights(args.variant)
    if args.no_phases:
        for data in (train_set, test_set):
            data.base_only()
        default = default[:train_set.width]
    print(f"{train_set.size} training positions, {test_set.size} held out", file=sys.stderr)
    w = train(train_set, np.zeros_like(default), args.steps, args.rate, args.l2)
    for name, weights in (("hand-set", default), ("learned", w)):
        loss, _, hits = loss_and_gradient(weights, test_set, 0.0)
        print(f"{name:>8} weights: held-out log-loss {loss:.3f}, best move played {hits:.1%}")
    if args.dry_run:
        return
    table = json.loads(args.out.read_text()) if args.out.exists() else {}
    table[mcts.prior_family(args.variant)] = [round(float(x), 4) for x in w]
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote the {mcts.prior_family(args.variant)} weights to {args.out}")


if __name__ == "__main__":
    main()
