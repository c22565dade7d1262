"""Every Pentobi reference game, turn by turn: legal moves, turn, seat, points."""

from __future__ import annotations

import hashlib

import pytest
from conftest import VARIANT_IDS, reference_games

from blokus import Game, Move


def legal_sha1(moves: list[str]) -> str:
    return hashlib.sha1("\n".join(sorted(moves)).encode()).hexdigest()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_reference_games(variant: str) -> None:
    games = 0
    for start, positions, end in reference_games(variant):
        game = Game(variant)
        assert [c.sgf for c in game.colors] == start["colors"]
        assert len(game.seating.seats) == start["nu_players"]
        for pos in positions:
            color = game.variant.color(pos["color"])
            where = f"{pos['game']} ply {pos['ply']}"
            if pos["move"] == "pass":
                # Passes are automatic: the game has recorded it already.
                turn = game.history[pos["ply"]]
                assert turn.move.is_pass and turn.color == color, where
                assert not game.legal_moves_of(color), where
                assert game.seat_of(color) == pos["player"], where
                continue
            assert len(game.history) == pos["ply"], where
            assert game.turn == color, where
            assert game.seat_to_move == pos["player"], where
            assert game.move_number == pos["move_number"], where
            moves = [str(m) for m in game.legal_moves]
            assert len(moves) == pos["num_legal"], where
            assert legal_sha1(moves) == pos["legal_sha1"], where
            move = Move.from_str(pos["move"])
            assert game.is_legal(move), where
            index = game.placement_of(move)
            assert index is not None
            assert game.variant.piece_set[game.table.piece[index]].name == pos["piece"], where
            game.push(move)
        assert game.is_game_over(), end["game"]
        assert len(game.history) == len(positions), end["game"]
        assert list(game.scores("cells")) == end["points"], end["game"]
        assert [game.num_placed(c) for c in range(len(game.colors))] == end["pieces_placed"]
        assert [15 if b == 15 else b for b in end["bonus"]] == [
            game.score(c, "cells") - (game.variant.piece_set.total_cells - game.remaining_cells(c))
            for c in range(len(game.colors))
        ]
        games += 1
    assert games == 8
