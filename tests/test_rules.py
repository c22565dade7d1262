"""Rules facts from RULES.md: piece sets, placement counts, first moves,
error messages, scoring, seatings."""

from __future__ import annotations

import pytest

import blokus
from blokus import CLASSIC, JUNIOR, TRIGON, Game, IllegalMoveError, InvalidMoveError, Move
from blokus.geometry import parse_point, point_name, square_board, triangle_board
from blokus.scoring import places


def test_piece_sets() -> None:
    assert len(CLASSIC) == 21 and CLASSIC.num_orientations == 91 and CLASSIC.total_cells == 89
    assert [p.size for p in CLASSIC].count(5) == 12
    assert CLASSIC.names == "1 2 I3 V3 I4 L4 T4 Z4 O F I5 L5 N P T5 U V5 W X Y Z5".split()
    assert len(TRIGON) == 22 and TRIGON.total_cells == 110
    assert TRIGON.names == "1 2 I3 I4 C4 A4 I5 L5 C5 P5 I6 L6 V S P6 F W A6 G Y X O".split()
    assert sorted(p.size for p in TRIGON) == [1, 2, 3, 4, 4, 4] + [5] * 4 + [6] * 12
    assert len(TRIGON["1"].orientations) == 2  # both triangle parities
    assert len(JUNIOR) == 12 and JUNIOR.total_cells == 88 and all(p.copies == 2 for p in JUNIOR)


@pytest.mark.parametrize(
    "board,pieces,count",
    [
        (square_board(20, 20), CLASSIC, 30433),
        (square_board(14, 14), CLASSIC, 13729),
        (square_board(14, 14), JUNIOR, 7217),
        (triangle_board(9), TRIGON, 32131),
        (triangle_board(8), TRIGON, 24859),
    ],
)
def test_placement_counts(board: blokus.Board, pieces: blokus.PieceSet, count: int) -> None:
    table = blokus.placement_table(board, pieces)
    assert len(table) == count
    assert len(set(table.mask)) == count
    # numbered by lowest cell
    firsts = [cells[0] for cells in table.cells]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize(
    "variant,count", [("classic", 58), ("duo", 414), ("junior", 189), ("trigon", 2478),
                      ("classic_2", 58), ("classic_3", 58), ("trigon_2", 2478)],
)
def test_first_moves(variant: str, count: int) -> None:
    assert len(Game(variant).legal_moves) == count


def test_trigon_first_moves_per_starting_cell() -> None:
    game = Game("trigon")
    board = game.board
    for name in "r15 r4 j12 j7 z12 z7".split():
        cell = board.parse(name)
        covering = [m for m in game.legal_moves if cell in {board.cell(p) for p in m.points}]
        assert len(covering) == 413


def test_boards_and_names() -> None:
    assert square_board(20, 20).size == 400 and square_board(14, 14).size == 196
    assert triangle_board(9).size == 486 and triangle_board(8).size == 384
    b = triangle_board(9)
    assert (b.width, b.height) == (35, 18)
    assert b.has_point(parse_point("ai9")) and not b.has_point(parse_point("a1"))
    assert point_name((26, 3)) == "aa3" and parse_point("AA3") == (26, 3)
    # edge neighbours from RULES.md section 4: an up triangle's third
    # neighbour is below it, a down triangle's above it.
    for cell, (x, row) in enumerate(b.points):
        third = (x, row - 1) if b.is_up((x, row)) else (x, row + 1)
        expected = {p for p in [(x - 1, row), (x + 1, row), third] if b.has_point(p)}
        assert {b.points[n] for n in b.edge_neighbors[cell]} == expected
    s = square_board(14, 14)
    assert len(s.corner_neighbors[s.parse("e10")]) == 4 and len(s.edge_neighbors[0]) == 2


def test_variant_lookup() -> None:
    assert blokus.variant("Blokus Duo").id == "duo"
    assert blokus.variant("blokus trigon three-player").id == "trigon_3"
    assert blokus.variant("CLASSIC_2").name == "Blokus Two-Player"
    with pytest.raises(KeyError, match="unknown variant"):
        blokus.variant("chess")
    v = blokus.variant("duo")
    assert v.color("w") == 1 and v.color("Purple") == 0 and v.color("1") == 0
    with pytest.raises(ValueError, match="not a colour"):
        v.color("green")


def test_move_notation() -> None:
    m = Move.from_str(" A20,c18,B19 ,c19,a19,c20 ")
    assert str(m) == "c18,a19,b19,c19,a20,c20"
    assert Move.from_str("pass") is Move.PASS and not Move.PASS
    assert eval(repr(m)) == m
    for bad in ["", "e", "10", "e0", "e10,,e11", "e10,e10", "e10;e11", "ä1"]:
        with pytest.raises(InvalidMoveError):
            Move.from_str(bad)


def snapshot(game: Game) -> tuple[object, ...]:
    return (game._snapshot(), [str(t) for t in game.history], game.turn)


def test_illegal_moves_say_why_and_change_nothing() -> None:
    game = Game("classic")
    before = snapshot(game)
    cases = [
        ("a1", "Blue's first piece must cover a20"),
        ("z1", "z1 is not on the board"),
        ("a20,c20", "do not form a piece"),
    ]
    for text, reason in cases:
        with pytest.raises(IllegalMoveError, match=reason):
            game.push(text)
        assert snapshot(game) == before
    game.push("a20")          # Blue: the single cell
    game.push("t20,t19")      # Yellow
    game.push("t1,s1")        # Red
    game.push("a1,a2,a3")     # Green
    before = snapshot(game)
    for text, reason in [
        ("b19", "piece 1 is already placed"),
        ("a20,a19", "a20 is occupied"),
        ("a19,a18", "a19 shares an edge with your piece at a20"),
        ("c18,c17", "must touch one of your pieces at a corner"),
        ("pass", "has a legal move and cannot pass"),
    ]:
        with pytest.raises(IllegalMoveError, match=reason):
            game.push(text)
        assert snapshot(game) == before
    with pytest.raises(InvalidMoveError):
        game.push("b19,")
    game.push("b19,c19")
    assert game.color_to_move is not None and game.color_to_move.name == "Yellow"


def test_trigon_first_move_any_free_starting_cell() -> None:
    game = Game("trigon")
    game.push("r15")
    with pytest.raises(IllegalMoveError, match="r15 is occupied"):
        game.push("r15")
    with pytest.raises(IllegalMoveError, match="first piece must cover a free starting cell"):
        game.push("a10,b10")
    game.push("r4,r5")


def test_pop_restores_and_copy_is_independent() -> None:
    game = Game("duo")
    start = snapshot(game)
    game.push("e10,d11,e11,f11,e12")
    after_one = snapshot(game)
    other = game.copy()
    game.push("j5,i6,j6,k6,j7")
    assert other.turn == 1 and len(other.history) == 1
    assert game.pop() == Move.from_str("j5,i6,j6,k6,j7")
    assert snapshot(game) == after_one
    game.pop()
    assert snapshot(game) == start
    with pytest.raises(IndexError):
        game.pop()


def test_automatic_passes_are_in_the_history() -> None:
    # Purple fills its corner so that Orange gets stuck quickly: play a
    # reference-free game until a pass happens and check its record.
    import random

    rng = random.Random(3)
    game = Game("duo")
    while not game.is_game_over():
        game.push_index(rng.choice(game.legal_moves.indices()))
    passes = [t for t in game.history if t.move.is_pass]
    assert passes, "a finished game ends with every colour passing"
    # the last turns are one pass per colour
    assert [t.color for t in game.history[-2:]] in ([0, 1], [1, 0])
    assert all(t.move.is_pass for t in game.history[-2:])


def test_scores_and_bonus() -> None:
    game = Game("duo")
    assert game.scores("advanced") == (-89, -89)
    assert game.scores("basic") == (89, 89)
    assert game.scores("cells") == (0, 0)
    # Put every piece of Purple on the board via setup, the single cell last.
    game2 = Game("duo")
    table = game2.table
    # choose non-overlapping placements greedily for each piece, 1 last
    used = 0
    chosen: list[Move] = []
    for piece in list(range(1, 21)) + [0]:
        for i in range(len(table)):
            if table.piece[i] == piece and not table.mask[i] & used:
                used |= table.mask[i]
                chosen.append(table.move(i))
                break
    assert len(chosen) == 21
    game2.setup({0: chosen})
    assert game2.score(0, "advanced") == 20
    assert game2.score(0, "cells") == 89 + 20
    assert game2.score(0, "basic") == 0
    game3 = Game("duo")
    game3.setup({0: chosen[-1:] + chosen[:-1]})
    assert game3.score(0, "advanced") == 15
    junior = Game("junior")
    assert junior.score(0, "advanced") == -88


def test_outcome_groups_and_places() -> None:
    assert places([5, 5, 1]) == (1, 1, 3)
    assert places([5, 5, 1], lowest_wins=True) == (2, 2, 1)
    game = Game("classic_2")
    game.push("a20")
    out = game.outcome("cells")
    assert out.groups == ((0,), (1,)) and out.seat_scores == (1, 0) and out.places == (1, 2)
    teams = Game("classic", seating="teams")
    teams.push("a20")
    teams.push("t20,t19")
    out = teams.outcome("cells")
    assert out.groups == ((0, 2), (1, 3)) and out.group_scores == (1, 2) and out.winners == (1,)
    shared = Game("classic_3")
    assert shared.seating.shared_color == 3
    for text in ["a20", "t20", "t1", "a1"]:
        shared.push(text)
    out = shared.outcome("cells")
    assert out.color_scores == (1, 1, 1, 1) and out.seat_scores == (1, 1, 1)
    # the shared colour rotates: its next move belongs to seat 1
    assert shared.seat_of(3) == 1
    neutral = Game("classic_3", seating="neutral")
    assert neutral.seating.seats[3].neutral and neutral.outcome().groups == ((0,), (1,), (2,))
    with pytest.raises(ValueError, match="unknown scoring rule"):
        game.outcome("golf")
    with pytest.raises(KeyError, match="no seating"):
        Game("duo", seating="teams")


def test_setup_rejects_overlap_and_changes_nothing() -> None:
    game = Game("duo")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="overlaps"):
        game.setup({0: [Move.from_str("a1,a2")], 1: [Move.from_str("a2,a3")]})
    assert snapshot(game) == before
    game.setup({0: [Move.from_str("a1,a2")], 1: [Move.from_str("n14")]}, to_move=1)
    assert game.turn == 1 and game.history == []
