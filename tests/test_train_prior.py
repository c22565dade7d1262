"""tools/train_prior.py: the samples it reads, its gradient, its training."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402

from blokus import Game, sgf  # noqa: E402
from blokus.players import GreedyPlayer  # noqa: E402


def load_tool() -> ModuleType:
    path = Path(__file__).parent.parent / "tools" / "train_prior.py"
    spec = importlib.util.spec_from_file_location("train_prior", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_prior"] = module
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def greedy_records(tmp_path: Path, games: int) -> list[Path]:
    paths = []
    for seed in range(games):
        game = Game("duo")
        players = [GreedyPlayer(seed), GreedyPlayer(seed + 100)]
        while not game.is_game_over():
            assert game.seat_to_move is not None
            game.push(players[game.seat_to_move].choose(game))
        path = tmp_path / f"g{seed}.blksgf"
        sgf.dump(game, path)
        paths.append(path)
    return paths


def test_samples_and_gradient(tmp_path: Path) -> None:
    """Every placed piece with a choice is a sample whose chosen row is the
    move played; the gradient matches finite differences of the loss."""
    paths = greedy_records(tmp_path, 1)
    data = tool.samples_of(paths, "duo")
    record = sgf.load(paths[0])
    assert 0 < data.size <= len(record.moves)
    assert np.all((data.chosen >= data.start[:-1]) & (data.chosen < data.start[1:]))
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.3, data.width).astype(np.float64)
    data.features = data.features.astype(np.float64)
    data.coef = data.coef.astype(np.float64)
    _, grad, _ = tool.loss_and_gradient(w, data, 0.01)
    for j in rng.choice(len(w), 6, replace=False):
        e = np.zeros_like(w)
        e[j] = 1e-5
        plus, _, _ = tool.loss_and_gradient(w + e, data, 0.01)
        minus, _, _ = tool.loss_and_gradient(w - e, data, 0.01)
        assert abs((plus - minus) / 2e-5 - grad[j]) < 1e-4


def test_samples_give_the_logits_of_every_column(tmp_path: Path) -> None:
    """The samples keep the base block and each phase's share, so their
    logits are those of ``weights @ move_features(...)`` over every column
    (the phase blocks included), position by position, and the loss is that
    of a softmax over them; the base block alone gives the loss of every
    column with the phase blocks zero."""
    from blokus.players import mcts

    paths = greedy_records(tmp_path, 1)
    data = tool.samples_of(paths, "duo")
    assert data.width == mcts.num_features("duo")
    assert len(np.unique(data.coef, axis=0)) > 2  # the positions span several phases
    rng = np.random.default_rng(1)
    w = rng.normal(0, 0.3, data.width)
    # The same positions, every column of move_features.
    expected = []
    nll = []
    for x, _, played in tool.positions(paths, "duo"):
        logits = x.astype(np.float64) @ w
        expected.append(logits)
        nll.append(np.log(np.exp(logits - logits.max()).sum()) + logits.max() - logits[played])
    blocks = w.reshape(data.coef.shape[1], -1)
    got = ((data.features.astype(np.float64) @ blocks.T) * data.coef).sum(axis=1)
    assert np.allclose(got, np.concatenate(expected), rtol=1e-5, atol=1e-5)
    loss, _, _ = tool.loss_and_gradient(w, data, 0.0)
    assert abs(loss - float(np.mean(nll))) < 1e-4
    # The base block alone: the loss of every column with the phase blocks zero.
    zero_phases = w.copy()
    zero_phases[mcts.base_features("duo"):] = 0.0
    full, _, _ = tool.loss_and_gradient(zero_phases, data, 0.0)
    data.base_only()
    assert data.width == mcts.base_features("duo")
    alone, _, _ = tool.loss_and_gradient(w[:data.width], data, 0.0)
    assert abs(full - alone) < 1e-9


def test_training_learns_the_greedy_player(tmp_path: Path) -> None:
    """Trained on a greedy player's games, the prior predicts its moves far
    better than uniform (zero) weights, on held-out games too."""
    paths = greedy_records(tmp_path, 6)
    train = tool.samples_of(paths[:4], "duo")
    test = tool.samples_of(paths[4:], "duo")
    zero = np.zeros(train.width, np.float32)
    w = tool.train(train, zero, 200, 0.05, 1e-4)
    before, _, _ = tool.loss_and_gradient(zero, test, 0.0)
    after, _, hits = tool.loss_and_gradient(w, test, 0.0)
    assert after < before - 1.0
    assert hits > 0.3


def test_main_writes_weights_with_or_without_phases(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The script writes the variant family's weights: every column, or with
    ``--no-phases`` the base block alone; the search reads both."""
    from blokus.players import mcts

    paths = greedy_records(tmp_path, 2)
    out = tmp_path / "weights.json"
    for flags, width in (([], mcts.num_features("duo")),
                         (["--no-phases"], mcts.base_features("duo"))):
        argv = ["train_prior.py", "--variant", "duo", "--steps", "3", "--out", str(out),
                *flags, *map(str, paths)]
        monkeypatch.setattr(sys, "argv", argv)
        tool.main()
        written = json.loads(out.read_text())["duo"]
        assert len(written) == width
        monkeypatch.setattr(mcts, "WEIGHTS_FILE", out)
        mcts.prior_weights.cache_clear()
        try:
            loaded = mcts.prior_weights("duo")
            assert len(loaded) == mcts.num_features("duo")
            assert np.allclose(loaded[:width], written, atol=1e-4)
            assert not loaded[width:].any()
        finally:
            mcts.prior_weights.cache_clear()
