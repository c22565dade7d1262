"""Players: every level plays legal moves in every variant, reproducibly;
search beats random; tree reuse."""

from __future__ import annotations

import random

import pytest
from conftest import VARIANT_IDS

from blokus import Game
from blokus.players import LEVELS, GreedyPlayer, PlayerSpecError, RandomPlayer, make_player

pytest.importorskip("numba")

import numpy as np  # noqa: E402

from blokus.players.mcts import MctsPlayer  # noqa: E402


def random_position(variant: str, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while not game.is_game_over() and len(game.move_stack) < plies:
        game.push_index(rng.choice(game.legal_moves.indices()))
    return game


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_players_play_legal_moves(variant: str) -> None:
    game = random_position(variant, 6, seed=1)
    specs = ["random", "greedy", "level:1", "level:2", "level:3", "mcts:sims=200,threads=2"]
    for spec in specs:
        player = make_player(spec, seed=3)
        move = player.choose(game.copy())
        assert game.why_illegal(move) is None, (spec, str(move))


def test_seed_reproduces_moves() -> None:
    game = random_position("classic", 8, seed=2)
    for spec in ["random", "greedy", "level:1", "level:4"]:
        a = make_player(spec, seed=11).choose(game.copy())
        b = make_player(spec, seed=11).choose(game.copy())
        assert a == b, spec


def test_specs() -> None:
    assert len(LEVELS) == 9
    for bad in ["level:0", "level:10", "level:x", "mcts:foo=1", "mcts:sims=0", "minimax",
                "greedy:depth=2"]:
        with pytest.raises(PlayerSpecError):
            make_player(bad)
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    p = make_player("mcts:sims=300")
    assert isinstance(p, MctsPlayer) and p.sims == 300


def test_choose_on_finished_game_is_an_error() -> None:
    game = random_position("duo", 200, seed=4)
    assert game.is_game_over()
    for spec in ["random", "greedy", "level:2", "level:3"]:
        with pytest.raises(ValueError):
            make_player(spec).choose(game)


def test_tree_is_reused_between_moves() -> None:
    game = Game("duo")
    player = MctsPlayer(sims=2000, seed=5)
    move = player.choose(game)
    game.push(move)
    # The opponent answers with the reply the search expects most.
    tree, root = player._trees[0], player._roots[0]
    first, n = int(tree.first_child[root]), int(tree.num_children[root])
    ours = first + int(np.flatnonzero(tree.move[first:first + n] == game.placement_of(move))[0])
    kids = range(int(tree.first_child[ours]), int(tree.first_child[ours] + tree.num_children[ours]))
    reply = max(kids, key=lambda c: tree.visits[c])
    assert tree.visits[reply] >= 2
    game.push_index(int(tree.move[reply]))
    assert player._reuse(game)
    assert player._roots[0] == reply and player._trees[0].visits[reply] > 0
    game.push(player.choose(game))
    assert player.last_sims == 2000


def play_out(players: dict[int, object], variant: str, seed: int) -> tuple[int, ...]:
    game = Game(variant)
    while not game.is_game_over():
        seat = game.seat_to_move
        assert seat is not None
        game.push(players[seat].choose(game))  # type: ignore[attr-defined]
    return game.outcome("advanced").seat_scores


def test_search_beats_random() -> None:
    wins = 0
    for seed in range(4):
        search = MctsPlayer(sims=300, seed=seed)
        rnd = RandomPlayer(seed)
        if seed % 2 == 0:
            a, b = play_out({0: search, 1: rnd}, "duo", seed)
        else:
            b, a = play_out({0: rnd, 1: search}, "duo", seed)
        wins += a > b
    assert wins == 4
