"""The compiled kernel, move for move against :class:`blokus.Game` and Pentobi."""

from __future__ import annotations

import hashlib
import random
import threading
from pathlib import Path

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402
from conftest import VARIANT_IDS, reference_games  # noqa: E402

from blokus import Game, IllegalMoveError, Move, kernel  # noqa: E402
from blokus.kernel import State, Tables  # noqa: E402
from blokus.placements import PlacementTable  # noqa: E402

RANDOM_GAMES = 100
NO_MOVES = np.empty(0, np.int32)  # a "played" buffer that records nothing


def mask(t: Tables, s: State, color: int) -> int:
    """The kernel's legal placements of ``color`` as a Python bitmask."""
    out = np.empty(t.num_words, np.uint64)
    n = kernel.legal_words(t, s, color, out)
    m = int.from_bytes(out.astype("<u8").tobytes(), "little")
    assert m.bit_count() == n
    return m


def assert_same(t: Tables, s: State, game: Game, where: str) -> None:
    """The kernel state and the game agree on the turn, the ply and every
    colour's legal moves."""
    assert kernel.to_move(s) == (-1 if game.turn is None else game.turn), where
    assert kernel.ply(s) == game.ply, where
    for c in range(t.num_colors):
        assert mask(t, s, c) == game.legal_moves_of(c).mask(), f"{where}, colour {c}"


def same(a: State, b: State) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in ((a.words, b.words), (a.flags, b.flags), (a.info, b.info))
    )


def assert_points(t: Tables, s: State, game: Game, where: str) -> None:
    out = np.zeros(t.num_colors, np.int64)
    kernel.points(t, s, out)
    assert tuple(out) == game.scores("cells"), where


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_random_games_against_game(variant: str) -> None:
    """Random games played in both: the same legal moves for every colour at
    every turn, the same passes and turn order, the same points."""
    t = kernel.tables(variant)
    rng = random.Random(variant)
    out = np.empty(t.num_placements, np.int32)
    words = np.empty(t.num_words, np.uint64)
    start = kernel.new_state(t)
    for g in range(RANDOM_GAMES):
        game = Game(variant)
        s = kernel.copy_state(start)
        while True:
            where = f"{variant} game {g} ply {game.ply}"
            assert_same(t, s, game, where)
            color = kernel.to_move(s)
            if color < 0:
                break
            n = kernel.legal_moves(t, s, color, out)
            kernel.legal_words(t, s, color, words)
            bits = np.unpackbits(words.view(np.uint8), bitorder="little")
            assert np.array_equal(out[:n], np.flatnonzero(bits)), where
            index = int(out[rng.randrange(n)])
            assert kernel.is_legal(t, s, index), where
            game.push_index(index)
            kernel.play(t, s, index)
        assert game.is_game_over()
        assert_points(t, s, game, f"{variant} game {g}")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_state_from_game(variant: str) -> None:
    """A kernel state built from a game in progress (or a setup position)
    continues exactly like the game."""
    t = kernel.tables(variant)
    rng = random.Random(variant)
    for g in range(10):
        game = Game(variant)
        plies = rng.randrange(40)
        while game.turn is not None and game.ply < plies:
            game.push_index(rng.choice(game.legal_moves.indices()))
        if g % 2:
            # The same pieces as a setup position, with a colour chosen to move.
            pieces = {c: [m.move for m in game.history if m.color == c and not m.move.is_pass]
                      for c in range(t.num_colors)}
            game = Game(variant)
            game.setup(pieces, to_move=rng.randrange(t.num_colors))
        s = kernel.state_from_game(game)
        while True:
            assert_same(t, s, game, f"{variant} game {g} ply {game.ply}")
            if game.turn is None:
                break
            index = rng.choice(game.legal_moves.indices())
            game.push_index(index)
            kernel.play(t, s, index)
        assert_points(t, s, game, f"{variant} game {g}")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_playout_is_random_moves(variant: str) -> None:
    """A playout plays the moves random_move draws with the same seed (so it
    follows the rules too), ends the game and is reproducible."""
    t = kernel.tables(variant)
    for seed in range(20):
        a = kernel.new_state(t)
        moves = kernel.playout(t, a, kernel.rng_state(seed))
        b = kernel.new_state(t)
        rng = kernel.rng_state(seed)
        game = Game(variant)
        while kernel.to_move(b) >= 0:
            index = kernel.random_move(t, b, rng)
            game.push_index(index)
            kernel.play(t, b, index)
        assert kernel.to_move(a) == kernel.random_move(t, a, rng) == -1
        assert moves == len(game.move_stack)
        assert kernel.ply(a) == game.ply
        assert np.array_equal(a.flags, b.flags) and np.array_equal(a.info, b.info)
        # (the live bits aside: draws clear them, random_move does not)
        assert np.array_equal(a.words[: t.live_at], b.words[: t.live_at])
        assert_points(t, a, game, f"{variant} seed {seed}")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_policy_playout_plays_the_largest_pieces(variant: str) -> None:
    """One move at a time (``limit`` 1), the big-piece playout plays a legal
    move, of the largest size the colour can play when ``big_pieces`` is 1,
    passes as the rules engine does, and with ``big_pieces`` 0 plays what
    random_move draws with the same seed."""
    t = kernel.tables(variant)
    out = np.empty(t.num_placements, np.int32)
    sizes = t.place[:, 0]
    for seed in range(4):
        big = [1.0, 0.0, 0.5, 1.0][seed]
        s = kernel.new_state(t)
        rng = kernel.rng_state(seed)
        game = Game(variant)
        while kernel.to_move(s) >= 0:
            color = kernel.to_move(s)
            legal = out[: kernel.legal_moves(t, s, color, out)].copy()
            board = kernel.views(t, s).board
            before = board.copy()
            expected = kernel.random_move(t, s, kernel.rng_state(int(rng[0])))
            assert kernel.policy_playout(t, s, rng, big, 1) == 1
            new = set(np.flatnonzero((before < 0) & (board == color)).tolist())
            played = [int(p) for p in legal if set(t.place[p, 4:4 + sizes[p]].tolist()) == new]
            assert len(played) == 1, f"{variant} ply {game.ply}"
            if big == 1.0:
                assert sizes[played[0]] == sizes[legal].max()
            if big == 0.0:
                assert played[0] == expected
            game.push_index(played[0])
            assert_same(t, s, game, f"{variant} seed {seed} ply {game.ply}")
        assert game.turn is None
        assert_points(t, s, game, f"{variant} seed {seed}")


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_policy_playout_to_the_end(variant: str) -> None:
    """Without a limit the big-piece playout ends the game, places more
    cells than uniform playouts on average, and is reproducible."""
    t = kernel.tables(variant)
    pts = np.zeros(t.num_colors, np.int32)

    def cells(big: float, seed: int) -> tuple[int, int]:
        s = kernel.new_state(t)
        moves = kernel.policy_playout(t, s, kernel.rng_state(seed), big, -1)
        assert kernel.to_move(s) == -1 and moves > 0
        kernel.points(t, s, pts)
        return moves, int((kernel.views(t, s).board >= 0).sum())

    assert cells(0.5, 7) == cells(0.5, 7)
    uniform = sum(cells(0.0, seed)[1] for seed in range(30))
    biased = sum(cells(1.0, seed)[1] for seed in range(30))
    assert biased > uniform


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_guided_playout_records_its_moves_and_plays_the_replies(variant: str) -> None:
    """With an empty reply table the last-good-reply playout plays exactly
    what the big-piece playout plays with the same seed, and records those
    moves with their colours (the rules engine replays them); a reply that
    is legal is played instead of a drawn move, one that is not is ignored."""
    t = kernel.tables(variant)
    table = np.full(t.num_colors * t.num_placements, -1, np.int32)
    none2 = np.empty(0, np.int64)
    played = np.empty(512, np.int32)
    for seed in range(3):
        a, b = kernel.new_state(t), kernel.new_state(t)
        n = kernel.guided_playout(t, a, kernel.rng_state(seed), 0.5, False, table, none2,
                                  -1, -1, played, 0.0)
        assert n == kernel.policy_playout(t, b, kernel.rng_state(seed), 0.5, -1)
        assert np.array_equal(kernel.views(t, a).board, kernel.views(t, b).board)
        game = Game(variant)
        for i in range(n):
            assert game.turn == played[2 * i], f"{variant} seed {seed} move {i}"
            game.push_index(int(played[2 * i + 1]))
        assert game.turn is None

    out = np.empty(t.num_placements, np.int32)
    s = kernel.new_state(t)
    kernel.policy_playout(t, s, kernel.rng_state(1), 0.5, 2 * t.num_colors)
    color = kernel.to_move(s)
    legal = out[: kernel.legal_moves(t, s, color, out)]
    prev = int(kernel.views(t, s).last_move[(color - 1) % t.num_colors])
    illegal = int(np.setdiff1d(np.arange(t.num_placements), legal)[0])
    for answer, expect_it in ((int(legal[len(legal) // 2]), True), (illegal, False)):
        table[:] = -1
        table[color * t.num_placements + prev] = answer
        first = []
        for seed in range(5):
            c = kernel.copy_state(s)
            kernel.guided_playout(t, c, kernel.rng_state(seed), 0.5, False, table, none2,
                                  -1, prev, played, 3.0)
            assert played[0] == color
            first.append(int(played[1]))
        assert (set(first) == {answer}) == expect_it, variant

    # A legal reply to the two moves before comes first, then the one-move reply.
    prev2 = int(kernel.views(t, s).last_move[(color - 2) % t.num_colors])
    table[:] = -1
    table[color * t.num_placements + prev] = int(legal[0])
    pairs = np.full(kernel.REPLY2_SIZE * t.num_colors, -1, np.int64)
    for answer, expected in ((int(legal[-1]), int(legal[-1])), (illegal, int(legal[0]))):
        kernel.set_reply2(pairs, color, prev2, prev, t.num_placements, answer, True)
        c = kernel.copy_state(s)
        kernel.guided_playout(t, c, kernel.rng_state(0), 0.5, False, table, pairs,
                              prev2, prev, played, 0.0)
        assert played[1] == expected, variant


def test_two_move_replies_are_recorded_found_and_forgotten() -> None:
    """The hashed table of replies to two moves: a reply is found for its own
    pair of moves only, replaced by a newer one, forgotten only by a loss of
    the same reply."""
    n = kernel.tables("duo").num_placements
    table = np.full(kernel.REPLY2_SIZE * 2, -1, np.int64)
    assert kernel.reply2_of(table, 1, 10, 20, n) == -1
    kernel.set_reply2(table, 1, 10, 20, n, 77, True)
    assert kernel.reply2_of(table, 1, 10, 20, n) == 77
    assert kernel.reply2_of(table, 0, 10, 20, n) == -1
    assert kernel.reply2_of(table, 1, 20, 10, n) == -1
    kernel.set_reply2(table, 1, 10, 20, n, 78, False)  # another move lost: kept
    assert kernel.reply2_of(table, 1, 10, 20, n) == 77
    kernel.set_reply2(table, 1, 10, 20, n, 79, True)
    assert kernel.reply2_of(table, 1, 10, 20, n) == 79
    kernel.set_reply2(table, 1, 10, 20, n, 79, False)
    assert kernel.reply2_of(table, 1, 10, 20, n) == -1
    # Pairs that share a slot do not read each other's replies.
    slots: dict[int, tuple[int, int]] = {}
    rng = random.Random(1)
    for _ in range(100_000):
        pair = (rng.randrange(n), rng.randrange(n))
        slot, _ = kernel._reply2_slot(1, pair[0], pair[1], n)
        if slot in slots and slots[slot] != pair:
            other = slots[slot]
            kernel.set_reply2(table, 1, other[0], other[1], n, 33, True)
            assert kernel.reply2_of(table, 1, pair[0], pair[1], n) == -1
            assert kernel.reply2_of(table, 1, other[0], other[1], n) == 33
            break
        slots[slot] = pair
    else:
        pytest.fail("no two pairs share a slot")


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon_3"])
def test_guided_playout_keeps_to_the_size_schedule(variant: str) -> None:
    """With ``early_sizes``, every move in the schedule's rounds is of a
    piece the schedule allows whenever the colour has one to play (checked
    on the rules engine); without, small pieces come early too."""
    t = kernel.tables(variant)
    table = np.empty(0, np.int32)
    played = np.empty(512, np.int32)
    sizes = t.place[:, 0]
    early_small = 0
    for early in (True, False):
        for seed in range(6):
            s = kernel.new_state(t)
            n = kernel.guided_playout(t, s, kernel.rng_state(seed), 0.0, early, table,
                                      np.empty(0, np.int64), -1, -1, played, 0.0)
            game = Game(variant)
            for i in range(n):
                color, p = int(played[2 * i]), int(played[2 * i + 1])
                assert game.turn == color
                rounds = sum(game.num_placed(c) for c in range(t.num_colors)) // t.num_colors
                if rounds < len(t.min_size):
                    smallest = int(t.min_size[rounds])
                    can = any(sizes[q] >= smallest for q in game.legal_moves.indices())
                    if early:
                        assert sizes[p] >= smallest or not can, f"{variant} seed {seed} move {i}"
                    elif can and sizes[p] < smallest:
                        early_small += 1
                game.push_index(p)
    assert early_small > 0


def local_cells(game: Game, color: int) -> set[int]:
    """The cells the playout policy answers, from the rules engine: every
    attach point of an opponent's last piece, and its edge neighbours, free
    for that opponent."""
    t = kernel.tables(game.variant.id)
    last: dict[int, Move] = {}
    for turn in game.history:
        if not turn.move.is_pass:
            last[turn.color] = turn.move
    board = game.board
    cells: set[int] = set()
    for o, move in last.items():
        if (int(t.ally[color]) >> o) & 1:
            continue
        forbidden = game.forbidden(o)
        placed = board.mask_of(board.cell(p) for p in move.points)
        for x in board.cells_of(game.attach_points(o)):
            touches = any((placed >> y) & 1 for y in board.corner_neighbors[x])
            if touches:
                cells.add(x)
                cells.update(y for y in board.edge_neighbors[x] if not (forbidden >> y) & 1)
    return cells


def best_answers(game: Game, color: int, allowed: list[int]) -> list[int]:
    """The moves the playout policy may answer with, from the rules engine:
    of the ``allowed`` moves covering a cell of :func:`local_cells`, those
    covering the most worth, a cell being worth 2 where it is an attach
    point of ``color`` (before its first piece, a free starting cell:
    :meth:`Game.attach_points` gives those then) and 1 elsewhere."""
    t = kernel.tables(game.variant.id)
    local = local_cells(game, color)
    own = set(game.board.cells_of(game.attach_points(color)))
    worth: dict[int, int] = {}
    for p in allowed:
        covered = local.intersection(t.place[p, 4:4 + t.place[p, 0]].tolist())
        if covered:
            worth[p] = sum(2 if x in own else 1 for x in covered)
    most = max(worth.values(), default=0)
    return [p for p, w in worth.items() if w == most]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_smart_playout_answers_and_plays_large_pieces(variant: str) -> None:
    """One move at a time, the smart playout plays a legal move (the rules
    engine agrees on every colour's moves after it); early on it plays only
    the pieces its size schedule allows when it can; and when a legal move
    covers a cell around an opponent's last piece, it plays one of those
    covering the most worth there (:func:`best_answers`)."""
    t = kernel.tables(variant)
    out = np.empty(t.num_placements, np.int32)
    sizes = t.place[:, 0]
    answered = 0
    for seed in range(3):
        s = kernel.new_state(t)
        rng = kernel.rng_state(seed)
        game = Game(variant)
        while kernel.to_move(s) >= 0:
            color = kernel.to_move(s)
            legal = out[: kernel.legal_moves(t, s, color, out)].copy()
            rounds = sum(game.num_placed(c) for c in range(t.num_colors)) // t.num_colors
            smallest = int(t.min_size[rounds]) if rounds < len(t.min_size) else 1
            allowed = [int(p) for p in legal if sizes[p] >= smallest] or [int(p) for p in legal]
            answers = best_answers(game, color, allowed)
            assert kernel.smart_playout(t, s, rng, 3.0, 1, NO_MOVES) == 1
            played = int(kernel.views(t, s).last_move[color])
            assert played in allowed, f"{variant} ply {game.ply}"
            if answers:
                assert played in answers, f"{variant} ply {game.ply}"
                answered += 1
            game.push_index(played)
            assert_same(t, s, game, f"{variant} seed {seed} ply {game.ply}")
        assert game.turn is None
        assert_points(t, s, game, f"{variant} seed {seed}")
    assert answered > 0


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_guided_playout_answers_the_last_moves(variant: str) -> None:
    """With ``answers`` on and no replies, every move of the search's
    playout is one of the best answers to the opponents' last pieces
    (:func:`best_answers`, on the rules engine) whenever a legal move of an
    allowed size covers a cell around them, and the playout is
    reproducible."""
    t = kernel.tables(variant)
    sizes = t.place[:, 0]
    played = np.empty(512, np.int32)
    answered = 0
    for seed in range(3):
        s = kernel.new_state(t)
        n = kernel.guided_playout(t, s, kernel.rng_state(seed), 0.5, False, NO_MOVES,
                                  np.empty(0, np.int64), -1, -1, played, 3.0)
        again = np.empty(512, np.int32)
        assert kernel.guided_playout(t, kernel.new_state(t), kernel.rng_state(seed), 0.5, False,
                                     NO_MOVES, np.empty(0, np.int64), -1, -1, again, 3.0) == n
        assert np.array_equal(played[:2 * n], again[:2 * n])
        game = Game(variant)
        for i in range(n):
            color, p = int(played[2 * i]), int(played[2 * i + 1])
            assert game.turn == color
            legal = list(game.legal_moves.indices())
            rounds = sum(game.num_placed(c) for c in range(t.num_colors)) // t.num_colors
            smallest = int(t.min_size[rounds]) if rounds < len(t.min_size) else 1
            allowed = [q for q in legal if sizes[q] >= smallest] or legal
            answers = best_answers(game, color, allowed)
            if answers:
                assert p in answers, f"{variant} seed {seed} ply {game.ply}"
                answered += 1
            game.push_index(p)
        assert game.turn is None
    assert answered > 0


def test_piece_weights_count_attach_points() -> None:
    """A piece's weight in the playouts is ``size_factor ** k *
    attach_factor ** (a - 1)``, ``a`` its attach points as in the middle
    of the board; the answers' weights use ``answers`` as the size factor;
    the weights are off (empty) by default."""
    attach_points = {"1": 4, "O": 4, "I5": 4, "T4": 6, "X": 8}  # counted by hand
    for variant in ("duo", "classic"):
        t = kernel.tables(variant)
        pieces = Game(variant).variant.piece_set
        work = kernel.work_space(t, 5.0, 2.0, 3.0)
        for name, a in attach_points.items():
            piece = pieces[name]
            assert work.draw_weight[piece.index] == pytest.approx(
                2.0 ** piece.size * 3.0 ** (a - 1))
            assert work.answer_weight[piece.index] == pytest.approx(
                5.0 ** piece.size * 3.0 ** (a - 1))
        plain = kernel.work_space(t)
        assert plain.draw_weight.size == 0 and plain.answer_weight.size == 0
        assert kernel.work_space(t, 3.0).answer_weight.size == 0  # (attach_factor 1)


def first_moves(variant: str, work: kernel.Work, seeds: int) -> list[int]:
    """The first move of ``seeds`` guided playouts from the start, without
    answers or replies (so drawn among all legal moves)."""
    t = kernel.tables(variant)
    played = np.empty(2, np.int32)
    moves = []
    for seed in range(seeds):
        kernel.guided_playout(t, kernel.new_state(t), kernel.rng_state(seed), 0.0, False,
                              NO_MOVES, np.empty(0, np.int64), -1, -1, played, 0.0, work)
        moves.append(int(played[1]))
    return moves


def test_piece_weights_draw_the_heavy_pieces() -> None:
    """With piece weights, a playout's random move favours the heavy pieces:
    in Duo's first move, a weight of 50 a cell plays pentominoes almost
    always where the uniform draw often does not, and with a weight of 3 an
    attach point, X (the one piece with 8) is played as often as its
    weight says, several times as often as uniformly; the games stay legal
    (the rules engine replays them)."""
    t = kernel.tables("duo")
    x = Game("duo").variant.piece_set["X"].index
    sizes, pieces = t.place[:, 0], t.place[:, 3]
    uniform = first_moves("duo", kernel.work_space(t), 400)
    by_size = first_moves("duo", kernel.work_space(t, 0.0, 50.0, 1.0), 400)
    work = kernel.work_space(t, 0.0, 1.0, 3.0)
    by_attach = first_moves("duo", work, 400)
    out = np.empty(t.num_placements, np.int32)
    legal = out[:kernel.legal_moves(t, kernel.new_state(t), 0, out)]
    weights = work.draw_weight[pieces[legal]]
    expected = weights[pieces[legal] == x].sum() / weights.sum()
    assert np.mean(sizes[uniform] == 5) < 0.9
    assert np.mean(sizes[by_size] == 5) > 0.97
    assert np.mean(pieces[uniform] == x) < expected / 3
    assert abs(np.mean(pieces[by_attach] == x) - expected) < 0.06
    played = np.empty(512, np.int32)
    for variant in ("duo", "classic", "trigon"):
        tv = kernel.tables(variant)
        work = kernel.work_space(tv, 3.0, 3.0, 1.8)
        for seed in range(3):
            n = kernel.guided_playout(tv, kernel.new_state(tv), kernel.rng_state(seed), 0.5,
                                      True, NO_MOVES, np.empty(0, np.int64), -1, -1, played,
                                      3.0, work)
            game = Game(variant)
            for i in range(n):
                p = int(played[2 * i + 1])
                assert game.turn == played[2 * i]
                assert p in set(game.legal_moves.indices()), f"{variant} ply {game.ply}"
                game.push_index(p)
            assert game.turn is None


def test_smart_playout_to_the_end() -> None:
    """Without a limit the smart playout ends the game, reproducibly; the
    first two rounds of Duo are played with five-cell pieces."""
    t = kernel.tables("duo")

    def board(seed: int) -> list[int]:
        s = kernel.new_state(t)
        kernel.smart_playout(t, s, kernel.rng_state(seed), 3.0, -1, NO_MOVES)
        assert kernel.to_move(s) == -1
        return kernel.views(t, s).board.tolist()

    assert board(3) == board(3)
    for seed in range(10):
        s = kernel.new_state(t)
        assert kernel.smart_playout(t, s, kernel.rng_state(seed), 3.0, 4, NO_MOVES) == 4
        assert (kernel.views(t, s).board >= 0).sum() == 20
    # The moves it records are the moves it played.
    s = kernel.new_state(t)
    played = np.empty(2 * 42, np.int32)  # room for every piece of both colours
    n = kernel.smart_playout(t, s, kernel.rng_state(5), 3.0, -1, played)
    assert n > 4
    game = Game("duo")
    for i in range(n):
        assert game.turn == played[2 * i]
        game.push_index(int(played[2 * i + 1]))
    assert game.turn is None
    assert kernel.views(t, s).board.tolist() == kernel.views(
        t, kernel.state_from_game(game)).board.tolist()


@pytest.mark.parametrize("variant", ["duo", "classic_2", "trigon_3"])
def test_last_move_from_game(variant: str) -> None:
    """``state_from_game`` and ``play`` agree on each colour's last placement."""
    t = kernel.tables(variant)
    game = Game(variant)
    s = kernel.new_state(t)
    rng = random.Random(variant)
    for _ in range(12):
        index = rng.choice(game.legal_moves.indices())
        game.push_index(index)
        kernel.play(t, s, index)
        assert np.array_equal(kernel.views(t, s).last_move,
                              kernel.views(t, kernel.state_from_game(game)).last_move)
    assert kernel.views(t, s).last_move[game.history[-1].color] == index


def legal_sha1(moves: list[str]) -> str:
    return hashlib.sha1("\n".join(sorted(moves)).encode()).hexdigest()


def placement(table: PlacementTable, move: str) -> int:
    """The placement index of a move in notation."""
    cells = table.board.mask_of(table.board.cell(p) for p in Move.from_str(move).points)
    return table.by_mask[cells]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_reference_games(variant: str) -> None:
    """Every Pentobi reference game through the kernel: turn, ply, number of
    legal moves and their SHA-1, points."""
    t = kernel.tables(variant)
    table = Game(variant).table
    names: dict[int, str] = {}
    out = np.empty(t.num_placements, np.int32)
    games = 0
    for _start, positions, end in reference_games(variant):
        s = kernel.new_state(t)
        for pos in positions:
            color = pos["color_index"]
            where = f"{pos['game']} ply {pos['ply']}"
            n = kernel.legal_moves(t, s, color, out)
            if pos["move"] == "pass":
                assert n == 0 and kernel.to_move(s) != color, where
                continue
            assert kernel.to_move(s) == color and kernel.ply(s) == pos["ply"], where
            assert n == pos["num_legal"], where
            moves = [names.get(int(i)) or names.setdefault(int(i), str(table.move(int(i))))
                     for i in out[:n]]
            assert legal_sha1(moves) == pos["legal_sha1"], where
            index = placement(table, pos["move"])
            assert kernel.is_legal(t, s, index), where
            kernel.play(t, s, index)
        assert kernel.to_move(s) == -1 and kernel.ply(s) == len(positions), end["game"]
        pts = np.zeros(t.num_colors, np.int64)
        kernel.points(t, s, pts)
        assert list(pts) == end["points"], end["game"]
        games += 1
    assert games == 8


def test_tables_are_cached() -> None:
    assert kernel.tables("duo") is kernel.tables("duo")
    assert kernel.tables("Blokus Duo") is kernel.tables("duo")
    t = kernel.tables("classic_2")
    assert t.place is kernel.tables("classic").place  # same board, same pieces
    assert (t.num_colors, t.num_placements) == (4, 30433)
    assert kernel.tables("trigon").num_placements == 32131
    assert not t.place.flags.writeable
    with pytest.raises(KeyError, match="unknown variant"):
        kernel.tables("chess")


def test_tables_match_the_placement_table() -> None:
    t = kernel.tables("trigon_3")
    table = Game("trigon_3").table
    for i in range(0, table.size, 97):
        size = t.place[i, 0]
        assert tuple(t.place[i, 4:4 + size]) == table.cells[i]
        assert t.place[i, 3] == table.piece[i]


def test_copies_are_independent() -> None:
    t = kernel.tables("duo")
    s = kernel.new_state(t)
    c = kernel.copy_state(s)
    kernel.playout(t, c, kernel.rng_state(3))
    assert kernel.to_move(s) == 0 and kernel.to_move(c) == -1
    kernel.copy_into(c, s)
    assert same(c, s)
    v = kernel.views(t, s)
    assert v.board.shape == (t.num_cells,) and (v.board == -1).all()
    assert v.left.shape == (2, t.num_pieces) and (v.left == 1).all()
    assert tuple(v.turn) == (0, 0)


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon"])
def test_play_moves_is_play_one_by_one(variant: str) -> None:
    """A random game's moves played in one call leave the state that playing
    them one at a time leaves (passes included), from the start and from
    the middle of the game."""
    t = kernel.tables(variant)
    for seed in range(3):
        s = kernel.new_state(t)
        played = np.empty(2 * 100, np.int32)
        n = kernel.guided_playout(t, s, kernel.rng_state(seed), 0.5, False, NO_MOVES,
                                  np.empty(0, np.int64), -1, -1, played, 0.0)
        line = played[1:2 * n:2].copy()
        for start in (0, n // 2):
            one, many = kernel.new_state(t), kernel.new_state(t)
            for p in line[:start]:
                kernel.play(t, one, int(p))
                kernel.play(t, many, int(p))
            kernel.play_moves(t, many, line[start:start])  # nothing
            assert same(one, many)
            for p in line[start:]:
                kernel.play(t, one, int(p))
            kernel.play_moves(t, many, line[start:])
            assert same(one, many) and kernel.to_move(many) == -1
            assert np.array_equal(kernel.views(t, many).board, kernel.views(t, s).board)


def assert_live_covers_legal(t: Tables, s: State, where: str) -> None:
    """Every word holding a legal move of a colour has its live bit set."""
    v = kernel.views(t, s)
    for c in range(t.num_colors):
        legal = v.free & v.allowed[c] & v.reach[c]
        for w in np.flatnonzero(legal):
            assert int(v.live[c, w >> 6]) >> int(w & 63) & 1, f"{where}, colour {c}, word {w}"


@pytest.mark.parametrize("variant", ["duo", "classic", "classic_3", "trigon"])
def test_live_words_cover_the_legal_moves(variant: str) -> None:
    """The live bits: exact from a game, a superset of the words with legal
    moves after every move of playouts (whose draws clear some), and what
    the draws read: a playout's moves are the moves of random_move, which
    scans the whole range."""
    t = kernel.tables(variant)
    for seed in range(4):
        s = kernel.new_state(t)
        rng = kernel.rng_state(seed)
        while kernel.to_move(s) >= 0:
            kernel.policy_playout(t, s, rng, 0.5, 1)
            assert_live_covers_legal(t, s, f"{variant} seed {seed} ply {kernel.ply(s)}")
    game = Game(variant)
    rand = random.Random(7)
    for _ in range(3 * t.num_colors):
        game.push_index(rand.choice(game.legal_moves.indices()))
    s = kernel.state_from_game(game)
    v = kernel.views(t, s)
    for c in range(t.num_colors):
        legal = v.free & v.allowed[c] & v.reach[c]
        bits = np.unpackbits(v.live[c].view(np.uint8), bitorder="little")[: t.num_words]
        assert np.array_equal(bits.astype(bool), legal != 0)


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_copy_live_is_a_copy_for_the_search(variant: str) -> None:
    """copy_live over a state of another game gives every colour still in
    the game the legal moves of the source, and playouts from it play what
    they play from a full copy."""
    t = kernel.tables(variant)
    for seed in range(6):
        src = kernel.new_state(t)
        kernel.policy_playout(t, src, kernel.rng_state(seed), 0.5, 10 * (seed + 2))
        dirty = kernel.new_state(t)
        kernel.policy_playout(t, dirty, kernel.rng_state(seed + 100), 0.5, -1)
        kernel.copy_live(t, dirty, src)
        full = kernel.copy_state(src)
        done = kernel.views(t, src).done
        for c in range(t.num_colors):
            if not done[c]:
                assert mask(t, dirty, c) == mask(t, src, c)
        assert kernel.to_move(dirty) == kernel.to_move(src)
        a, b = np.empty(400, np.int32), np.empty(400, np.int32)
        n = kernel.guided_playout(t, dirty, kernel.rng_state(seed), 0.5, False, NO_MOVES,
                                  np.empty(0, np.int64), -1, -1, a, 0.0)
        m = kernel.guided_playout(t, full, kernel.rng_state(seed), 0.5, False, NO_MOVES,
                                  np.empty(0, np.int64), -1, -1, b, 0.0)
        assert n == m and np.array_equal(a[:2 * n], b[:2 * n])
        assert np.array_equal(dirty.flags, full.flags) and np.array_equal(dirty.info, full.info)


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_forced_moves_then_playout_in_one_call(variant: str) -> None:
    """guided_playout with forced moves (the search's tree moves) plays,
    records and continues exactly as play_moves and then guided_playout
    from the moves' end, with the replies starting from the last two."""
    t = kernel.tables(variant)
    answers = 3.0 if t.num_colors == 2 else 0.0
    for seed in range(4):
        s = kernel.new_state(t)
        kernel.policy_playout(t, s, kernel.rng_state(seed), 0.5, 4 * seed)
        line_buffer = np.empty(2 * 6, np.int32)
        probe = kernel.copy_state(s)
        k = kernel.guided_playout(t, probe, kernel.rng_state(50 + seed), 0.5, False, NO_MOVES,
                                  np.empty(0, np.int64), -1, -1, line_buffer, 0.0)
        line = line_buffer[1:2 * min(k, 6):2].copy()
        table = np.full(t.num_colors * t.num_placements, -1, np.int32)
        table[: t.num_placements] = np.arange(t.num_placements)[::-1]  # mostly illegal
        pairs = np.full(kernel.REPLY2_SIZE * t.num_colors, -1, np.int64)
        one, two = kernel.copy_state(s), kernel.copy_state(s)
        work = kernel.work_space(t)
        a, b = np.empty(400, np.int32), np.empty(400, np.int32)
        n = kernel.guided_playout(t, one, kernel.rng_state(seed), 0.5, False, table, pairs,
                                  -1, -1, a, answers, work, line)
        kernel.play_moves(t, two, line, work)
        d = len(line)
        prev = int(line[-1]) if d > 0 else -1
        prev2 = int(line[-2]) if d > 1 else -1
        b[: 2 * d] = a[: 2 * d]
        m = d + kernel.guided_playout(t, two, kernel.rng_state(seed), 0.5, False, table, pairs,
                                      prev2, prev, b[2 * d:], answers, work)
        assert n == m and np.array_equal(a[:2 * n], b[:2 * n])
        assert np.array_equal(a[1:2 * d:2], line)
        assert np.array_equal(one.flags, two.flags) and np.array_equal(one.info, two.info)


def test_views_name_the_state() -> None:
    t = kernel.tables("junior")
    game = Game("junior")
    for _ in range(6):
        game.push_index(game.legal_moves.indices()[0])
    s = kernel.state_from_game(game)
    v = kernel.views(t, s)
    for c in range(t.num_colors):
        assert list(v.left[c]) == [
            sum(1 for p in game.pieces_left(c) if p.index == k) for k in range(t.num_pieces)
        ]
        assert v.placed[c] == game.num_placed(c) == 3
        assert {int(x) for x in np.flatnonzero(v.board == c)} == set(
            game.board.cells_of(game.cells_of(c))
        )
        assert {int(x) for x in np.flatnonzero(v.forbidden[c])} == set(
            game.board.cells_of(game.forbidden(c))
        )


def test_random_games_is_reproducible() -> None:
    a = kernel.random_games("duo", 50, seed=7)
    b = kernel.random_games("duo", 50, seed=7)
    c = kernel.random_games("duo", 50, seed=8)
    assert (a.mean_moves, a.mean_points) == (b.mean_moves, b.mean_points)
    assert (a.mean_moves, a.mean_points) != (c.mean_moves, c.mean_points)
    assert a.variant == "duo" and a.games == 50 and a.games_per_second > 0
    assert 10 < a.mean_moves <= 42
    with pytest.raises(ValueError, match="at least 0"):
        kernel.random_games("duo", -1)


def test_illegal_placements_are_refused() -> None:
    t = kernel.tables("duo")
    s = kernel.new_state(t)
    game = Game("duo")
    illegal = next(i for i in range(t.num_placements) if i not in game.legal_moves.indices())
    before = kernel.copy_state(s)
    for index in (-1, t.num_placements, illegal):
        assert not kernel.is_legal(t, s, index)
        with pytest.raises(IllegalMoveError, match="not a legal move"):
            kernel.play(t, s, index)
    assert same(s, before)
    kernel.playout(t, s, kernel.rng_state(0))
    assert not kernel.is_legal(t, s, 0)
    with pytest.raises(IllegalMoveError):
        kernel.play(t, s, 0)


def test_warm_up() -> None:
    thread = kernel.warm_up("junior")
    assert isinstance(thread, threading.Thread)
    thread.join()
    assert kernel.warm_up("junior", background=False) is None
    with pytest.raises(KeyError):
        kernel.warm_up("nonsense")


def test_stale_caches_of_every_compiled_module_are_dropped_together(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub" / "__pycache__").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "core.py").write_text("a = 1\n")
    (package / "sub" / "search.py").write_text("b = 1\n")
    sources = ("core.py", "sub/search.py")
    caches = [package / "__pycache__" / "core.play-10.py311.nbi",
              package / "__pycache__" / "core.play-10.py311.0.nbc",
              package / "sub" / "__pycache__" / "search.search-99.py311.nbi"]
    other = package / "__pycache__" / "other.f-1.py311.nbi"  # not a compiled source's
    pyc = package / "__pycache__" / "core.cpython-311.pyc"

    def fill() -> None:
        for path in (*caches, other, pyc):
            path.write_text("cached")

    fill()  # caches of unknown sources (no stamp yet) go
    assert kernel.drop_stale_caches(package, sources)
    assert not any(path.exists() for path in caches) and other.exists() and pyc.exists()
    fill()  # the same sources: kept
    assert not kernel.drop_stale_caches(package, sources)
    assert all(path.exists() for path in caches)
    (package / "core.py").write_text("a = 2\n")  # one module changes: every cache goes
    assert kernel.drop_stale_caches(package, sources)
    assert not any(path.exists() for path in caches) and other.exists()
    assert not list(package.glob("**/*.sha256.*"))  # no temporary stamp left behind
    fill()
    assert not kernel.drop_stale_caches(package, sources)
    assert not kernel.drop_stale_caches(tmp_path / "missing", sources)


def test_the_stamp_covers_the_package_s_compiled_sources() -> None:
    digest = hashlib.sha256()
    for name in kernel.COMPILED_SOURCES:
        digest.update((kernel.PACKAGE / name).read_bytes())
    stamp = kernel.PACKAGE / "__pycache__" / kernel.SOURCES_STAMP
    assert stamp.read_text().strip() == digest.hexdigest()
    compiled = {p.relative_to(kernel.PACKAGE).as_posix()
                for p in kernel.PACKAGE.rglob("*.py") if "njit" in p.read_text()}
    assert compiled == set(kernel.COMPILED_SOURCES)


def test_the_makefile_recompiles_when_a_compiled_source_changes() -> None:
    # ``make`` warms the search up again when one of these files is newer
    # than its stamp; the list is written out in the Makefile (make runs
    # before the package can be imported), so it must match the kernel's.
    makefile = (kernel.PACKAGE.parent / "Makefile").read_text()
    line = next(x for x in makefile.splitlines() if x.startswith("COMPILED_SOURCES"))
    listed = line.split(":=", 1)[1].split()
    assert sorted(listed) == sorted(f"blokus/{name}" for name in kernel.COMPILED_SOURCES)
