"""Property tests over random games of every variant: the bitmask engine
against the simple rules of ``simple_rules.py``, and push/pop symmetry."""

from __future__ import annotations

import random

from conftest import VARIANT_IDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simple_rules import simple_is_legal

from blokus import Game


def owner_map(game: Game) -> dict[tuple[int, int], int]:
    owner = {}
    for turn in game.history:
        for p in turn.move.points:
            owner[p] = turn.color
    return owner


def check_position(game: Game) -> None:
    """Generated moves == placements that the simple checker accepts."""
    color = game.turn
    assert color is not None
    owner = owner_map(game)
    table = game.table
    left = [0] * len(game.variant.piece_set)
    for piece in game.pieces_left(color):
        left[piece.index] += 1
    placed = game.num_placed(color) > 0
    generated = set(game.legal_moves.indices())
    for i in range(len(table)):
        cells = {game.board.points[c] for c in table.cells[i]}
        ok = simple_is_legal(game.variant.id, owner, color, placed, left[table.piece[i]] > 0, cells)
        assert ok == (i in generated), (game.variant.id, str(table.move(i)), ok)
        if ok:
            assert game.why_illegal(table.move(i)) is None
        elif i % 7 == 0:
            assert game.why_illegal(table.move(i)) is not None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANT_IDS), seed=st.integers(0, 2**32 - 1),
       checks=st.lists(st.floats(0, 1), min_size=2, max_size=2))
def test_generated_moves_match_simple_rules(variant: str, seed: int, checks: list[float]) -> None:
    rng = random.Random(seed)
    game = Game(variant)
    # play a random game, checking two positions chosen by hypothesis
    plies = [int(c * 60) for c in checks]
    ply = 0
    while not game.is_game_over():
        if ply in plies:
            check_position(game)
        game.push_index(rng.choice(game.legal_moves.indices()))
        ply += 1


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(VARIANT_IDS), seed=st.integers(0, 2**32 - 1))
def test_pop_after_push_restores_exact_state(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(variant)
    states = []
    while not game.is_game_over():
        states.append((game._snapshot(), list(game.history), game.turn))
        game.push_index(rng.choice(game.legal_moves.indices()))
    for state in reversed(states):
        game.pop()
        assert (game._snapshot(), list(game.history), game.turn) == state
