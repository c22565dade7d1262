"""Players: every level plays legal moves in every variant, reproducibly;
search beats random; tree reuse."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import VARIANT_IDS

from blokus import Game
from blokus.players import LEVELS, GreedyPlayer, PlayerSpecError, RandomPlayer, make_player

pytest.importorskip("numba")

import numpy as np  # noqa: E402

from blokus.players.mcts import MctsPlayer, SearchParams  # noqa: E402


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
        for seed in (11, -11):  # any integer is a seed (GTP's set_random_seed may give -1)
            a = make_player(spec, seed=seed).choose(game.copy())
            b = make_player(spec, seed=seed).choose(game.copy())
            assert a == b, (spec, seed)


def test_specs() -> None:
    assert len(LEVELS) == 9
    for bad in ["level:0", "level:10", "level:x", "mcts:foo=1", "mcts:sims=0", "minimax",
                "greedy:depth=2", "mcts:seconds=0", "mcts:seconds=nan", "mcts:seconds=inf",
                "level:9,seconds=inf", "mcts:threads=0"]:
        with pytest.raises(PlayerSpecError):
            make_player(bad)
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    p = make_player("mcts:sims=300")
    assert isinstance(p, MctsPlayer) and p.sims == 300


def test_a_bad_spec_says_which_option_is_wrong_and_why() -> None:
    for spec, message in [
        ("mcts:sims=abc", "sims must be a whole number, not 'abc'"),
        ("mcts:sims=1.5", "sims must be a whole number, not '1.5'"),
        ("mcts:seconds=soon", "seconds must be a number, not 'soon'"),
        ("mcts:threads=", "threads must be a whole number, not ''"),
        ("level:5,threads=two", "threads must be a whole number, not 'two'"),
        ("level:9,seconds=x", "seconds must be a number, not 'x'"),
        ("mcts:sims=5,sims=6", "sims given twice"),
        ("level:5,level:6", "level given twice"),
    ]:
        with pytest.raises(PlayerSpecError) as caught:
            make_player(spec)
        assert str(caught.value) == f"bad player spec {spec!r}: {message}"


def test_level_9_takes_pentobi_level_9_time_by_variant() -> None:
    """Level 9's budget is its variant family's (Junior's is Duo's); a
    ``seconds=`` option gives one budget for every variant."""
    from blokus.players.mcts import LEVEL_9_SECONDS

    player = make_player("level:9")
    assert isinstance(player, MctsPlayer) and player.threads == 2
    for variant, family in [("duo", "duo"), ("junior", "duo"), ("classic", "classic"),
                            ("classic_2", "classic"), ("classic_3", "classic"),
                            ("trigon", "trigon"), ("trigon_2", "trigon"),
                            ("trigon_3", "trigon")]:
        assert player.seconds_for(variant) == LEVEL_9_SECONDS[family] > 0
    assert len(set(LEVEL_9_SECONDS.values())) > 1
    fixed = make_player("level:9,seconds=3")
    assert isinstance(fixed, MctsPlayer)
    assert fixed.seconds_for("duo") == fixed.seconds_for("trigon") == 3.0
    level_5 = make_player("level:5")
    assert isinstance(level_5, MctsPlayer) and level_5.seconds_for("duo") is None
    with pytest.raises(ValueError):
        MctsPlayer(sims=None, seconds={"duo": 1.0, "classic": 0.0})


def test_a_budget_by_variant_is_spent_by_variant() -> None:
    """A move with one legal choice banks the budget of its own variant."""
    from blokus.players.mcts import time_share

    forced = position_with_moves("duo", 1, seed=3)
    player = MctsPlayer(sims=None, seconds={"duo": 0.02, "classic": 5.0}, seed=1)
    player.choose(forced)
    assert player._bank == pytest.approx(
        0.02 * time_share(forced.num_placed(forced.turn), "duo"))


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
    assert player._reuse(game, player._moves_since(game))
    assert player._roots[0] == reply and player._trees[0].visits[reply] > 0
    game.push(player.choose(game))
    assert player.last_sims == 2000


def assert_same_position(t: Any, a: Any, b: Any) -> None:
    """Two kernel states of one position: the same legal moves for every
    colour, the same board and pieces, turn and history (a played state
    also remembers the attach points since covered, and reaches their
    placements, none of them legal)."""
    from blokus import kernel

    va, vb = kernel.views(t, a), kernel.views(t, b)
    for c in range(t.num_colors):
        assert np.array_equal(va.free & va.allowed[c] & va.reach[c],
                              vb.free & vb.allowed[c] & vb.reach[c]), c
    for field in ("forbidden", "board", "left", "done", "placed", "last_piece", "last_move",
                  "turn"):
        assert np.array_equal(getattr(va, field), getattr(vb, field)), field
    assert np.array_equal(va.attach & (1 - va.forbidden), vb.attach & (1 - vb.forbidden))


@pytest.mark.parametrize("variant", ["duo", "classic_3", "trigon"])
def test_kernel_state_follows_the_game(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between its moves a player brings its kernel state up to date by
    playing the moves since (passes included) instead of building it from
    the game: the game's state at every move, built only once; after a jump
    to another game, the other game's."""
    from blokus import kernel
    from blokus.players import mcts

    t = kernel.tables(variant)
    builds = []
    build = kernel.state_from_game

    def counted(game: Game) -> kernel.State:
        builds.append(game.ply)
        return build(game)

    monkeypatch.setattr(mcts.k, "state_from_game", counted)
    # (a search at every move, the opening's pieces included)
    player = MctsPlayer(sims=30, seed=3, params=SearchParams(opening_by_prior=0))
    game = Game(variant)
    rand = random.Random(4)
    while not game.is_game_over():
        if game.ply % 3 == 0 and len(game.legal_moves) > 1:
            state = player._state_of(game, t, player._moves_since(game))
            assert_same_position(t, state, build(game))
            game.push(player.choose(game))
        else:
            game.push_index(rand.choice(game.legal_moves.indices()))
    assert builds[:1] == [0] and set(builds) == {0}  # (_state_of and choose at ply 0)
    other = random_position(variant, 9, seed=8)
    assert_same_position(t, player._state_of(other, t, player._moves_since(other)), build(other))
    assert builds[-1] == other.ply


@pytest.mark.parametrize("variant", ["duo", "classic_3"])
def test_last_good_reply_table(variant: str) -> None:
    """With last good reply the search fills its reply tables (with
    placements, not for the shared colour), reproducibly; without replies
    to two moves it leaves that table empty, without last good reply both."""
    game = random_position(variant, 3, seed=6)
    on = SearchParams(last_good_reply=True, opening_by_prior=0)  # (searched, ply 3)
    a, b = MctsPlayer(sims=600, seed=2, params=on), MctsPlayer(sims=600, seed=2, params=on)
    assert a.choose(game.copy()) == b.choose(game.copy())
    table = a._trees[0].reply.reshape(game.variant.num_colors, -1)
    assert np.array_equal(table, b._trees[0].reply.reshape(table.shape))
    assert (table >= 0).sum() > 0 and table.max() < table.shape[1]
    if variant == "classic_3":
        assert (table[3] < 0).all()  # the shared colour's moves belong to nobody
    pairs = a._trees[0].reply2
    assert (pairs >= 0).sum() > 0 and ((pairs[pairs >= 0] & 0xFFFFFFFF) < table.shape[1]).all()
    one = MctsPlayer(sims=600, seed=2, params=SearchParams(reply_to_two=False, opening_by_prior=0))
    one.choose(game.copy())
    assert (one._trees[0].reply >= 0).sum() > 0 and (one._trees[0].reply2 < 0).all()
    off = MctsPlayer(sims=600, seed=2,
                     params=SearchParams(last_good_reply=False, opening_by_prior=0))
    off.choose(game.copy())
    assert (off._trees[0].reply < 0).all() and (off._trees[0].reply2 < 0).all()


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon"])
def test_rave_counts_the_moves_of_one_simulation(variant: str) -> None:
    """After each simulation, the root's children whose RAVE count went up
    are moves the colour to move could all have played in one game: the
    child the simulation went through among them, one placement per piece,
    no two overlapping."""
    from blokus import kernel as k
    from blokus.players import mcts

    game = random_position(variant, 4, seed=9)
    t, seats, state = k.tables(variant), mcts.seats_for(game), k.state_from_game(game)
    tree = mcts._new_tree(100_000, int(t.num_placements), int(t.num_colors))
    rng, cfg = k.rng_state(4), SearchParams().array()
    mcts.search(t, seats, tree, 0, state, 1, rng, cfg)
    first, n = int(tree.first_child[0]), int(tree.num_children[0])
    assert n == len(game.legal_moves)
    for _ in range(30):
        visits, rave = tree.visits[first:first + n].copy(), tree.rave_n[first:first + n].copy()
        assert mcts.search(t, seats, tree, 0, state, 1, rng, cfg) == 1
        hit = np.flatnonzero(tree.rave_n[first:first + n] > rave)
        went = np.flatnonzero(tree.visits[first:first + n] > visits)
        assert len(went) == 1 and went[0] in hit
        rows = [t.place[int(tree.move[first + i])] for i in hit]
        assert len({int(r[mcts._PIECE]) for r in rows}) == len(rows)
        cells = [int(c) for r in rows for c in r[mcts._CELLS:mcts._CELLS + r[mcts._SIZE]]]
        assert len(cells) == len(set(cells))


def test_the_selections_values_follow_the_statistics() -> None:
    """``Tree.mixed`` and ``Tree.explored``, kept up to date as the
    statistics change, equal what :func:`mcts._refresh` works out afresh
    for every node after searches on a reused tree, and after a search
    with other selection parameters on the same tree (which works them all
    out again)."""
    from blokus import kernel as k
    from blokus.players import mcts

    game = random_position("duo", 6, seed=4)
    t, seats, state = k.tables("duo"), mcts.seats_for(game), k.state_from_game(game)
    tree = mcts._new_tree(200_000, int(t.num_placements), int(t.num_colors))
    rng = k.rng_state(5)

    def check() -> None:
        size = int(tree.size[0])
        mixed, explored = tree.mixed[:size].copy(), tree.explored[:size].copy()
        for c in range(1, size):
            mcts._refresh(tree.visits, tree.value, tree.rave_n, tree.rave_v, tree.mixed,
                          tree.explored, c, tree.mixed_by)
        assert np.array_equal(mixed[1:], tree.mixed[1:size])
        assert np.array_equal(explored[1:], tree.explored[1:size])
        assert (tree.rave_n[1:size] > 0).any() and (tree.visits[1:size] > 1).any()

    cfg = SearchParams().array("duo")
    assert mcts.search(t, seats, tree, 0, state, 2000, rng, cfg) == 2000
    check()
    assert mcts.search(t, seats, tree, 0, state, 500, rng, cfg) == 500
    check()
    other = SearchParams(first_play_urgency=0.9, rave_bias=0.01, rave_exploration=0.5)
    cfg = other.array("duo")
    assert mcts.search(t, seats, tree, 0, state, 1, rng, cfg) == 1
    assert list(tree.mixed_by) == [0.9, 0.01, 0.5, 0.0, 3.0]
    check()


def test_a_simulation_through_a_node_counts_in_its_rave() -> None:
    """A simulation that goes through a node plays the node's move, so its
    RAVE count is at least its visits, at the root's children (looked up
    in ``Tree.root_child``) and below; after the tree is moved down a move
    and after it is cleared for another game too."""
    from blokus import kernel as k
    from blokus.players import mcts

    t = k.tables("duo")
    tree = mcts._new_tree(300_000, int(t.num_placements), int(t.num_colors))
    rng, cfg = k.rng_state(8), SearchParams().array("duo")

    def check(root: int = 0) -> None:
        size = int(tree.size[0])
        below = np.arange(1, size)
        below = below[below != root]  # (a root's visits are all the search's)
        assert (tree.visits[below] > 0).sum() > 100
        assert (tree.rave_n[below] >= tree.visits[below]).all()

    game = random_position("duo", 5, seed=2)
    state = k.state_from_game(game)
    mcts.search(t, mcts.seats_for(game), tree, 0, state, 1500, rng, cfg)
    check()
    first, n = int(tree.first_child[0]), int(tree.num_children[0])
    child = first + int(np.argmax(tree.visits[first:first + n]))
    game.push(game.table.move(int(tree.move[child])))
    mcts.search(t, mcts.seats_for(game), tree, child, k.state_from_game(game), 1500, rng, cfg)
    check(child)
    mcts._clear(tree, replies=True)
    game = random_position("duo", 9, seed=3)
    mcts.search(t, mcts.seats_for(game), tree, 0, k.state_from_game(game), 1500, rng, cfg)
    check()


def test_rave_results_count_against_exploring_a_move() -> None:
    """With ``rave_exploration``, a child's RAVE results shrink its prior
    term as its visits do: of two children alike but for their RAVE count
    (RAVE mean equal to their value), the selection goes to the one the
    playouts tried less; without it, the first of the two wins the tie."""
    from blokus.players import mcts

    tree = mcts._new_tree(10, 100, 2)
    tree.first_child[0], tree.num_children[0], tree.visits[0] = 1, 2, 3.0
    for c, rave in ((1, 200.0), (2, 0.0)):
        tree.visits[c], tree.value[c], tree.prior[c] = 1.0, 0.5, 0.5
        tree.rave_n[c], tree.rave_v[c] = rave, 0.5 * rave
    sqrt_n = float(np.sqrt(4.0))

    def selected(rave_exploration: float) -> int:
        tree.mixed_by[:] = 0.55, 0.001, rave_exploration, 0.0, 3.0  # (Tree.mixed_by)
        for c in (1, 2):
            mcts._refresh(tree.visits, tree.value, tree.rave_n, tree.rave_v, tree.mixed,
                          tree.explored, c, tree.mixed_by)
        assert tree.mixed[1] == pytest.approx(0.5) and tree.mixed[2] == pytest.approx(0.5)
        return int(mcts._select(tree.first_child, tree.num_children, tree.mixed, tree.explored,
                                tree.prior, 0, 1.1, sqrt_n, 10.0))

    assert selected(0.0) == 1
    assert selected(0.7) == 2


def test_rave_folded_in_as_pentobi_counts_it() -> None:
    """With ``rave_weight``, a child starts counted ``init_count`` times at
    the search's mean result for its seat (the first-play urgency before
    any) times ``sqrt(p / p_max)``; its RAVE results add to its value and
    count, each weighing less than ``rave_weight``, only while the child
    has been counted at most ``rave_child_max`` times; the selection's
    values are its value over its count."""
    from blokus import kernel as k
    from blokus.players import mcts

    game = random_position("duo", 6, seed=4)
    t, seats, state = k.tables("duo"), mcts.seats_for(game), k.state_from_game(game)

    def searched(params: SearchParams, sims: int) -> tuple[Any, Any]:
        tree = mcts._new_tree(200_000, int(t.num_placements), int(t.num_colors))
        assert mcts.search(t, seats, tree, 0, state, sims, k.rng_state(5),
                           params.array("duo")) == sims
        return tree, np.arange(1, int(tree.size[0]))

    folded = SearchParams(rave_weight=0.7, log_exploration=True)
    tree, nodes = searched(folded, 1)
    first, n = int(tree.first_child[0]), int(tree.num_children[0])
    children = np.arange(first, first + n)
    untouched = children[tree.rave_n[children] == 3.0]
    assert 0 < untouched.size < n  # (the playout's moves add to some)
    ratio = tree.prior[untouched] / tree.prior[children].max()
    assert tree.rave_v[untouched] == pytest.approx(3.0 * 0.55 * np.sqrt(ratio), rel=1e-5)
    rave = tree.rave_n[children] - 3.0
    assert (rave >= 0.0).all() and (rave < 0.7).all()

    tree, nodes = searched(folded, 3000)
    means = []  # of the children made later, untouched: at the search's mean for their seat
    for node in nodes[tree.num_children[nodes] > 0]:
        block = np.arange(tree.first_child[node], tree.first_child[node] + tree.num_children[node])
        best = tree.prior[block].max()
        for c in block[(tree.rave_n[block] == 3.0) & (tree.visits[block] == 0)]:
            means.append(tree.rave_v[c] / 3.0 / np.sqrt(tree.prior[c] / best))
    assert len(means) > 100 and 0.0 < min(means) and max(means) < 1.0
    assert np.std(means) > 0.01  # (not all at the urgency)
    total = tree.visits[nodes] + tree.rave_n[nodes]
    assert tree.mixed[nodes] == pytest.approx(
        (tree.value[nodes] + tree.rave_v[nodes]) / total, rel=1e-5)
    assert (tree.rave_n[nodes] - 3.0 > 1.0).any()
    capped, _ = searched(dataclasses.replace(folded, rave_child_max=0.0), 3000)
    assert (capped.rave_n[1:int(capped.size[0])] == 3.0).all()


def test_replies_outlive_a_new_tree() -> None:
    """When the tree cannot be reused (the opponent played a move the search
    had not looked at), the new tree keeps the game's reply table; a new
    game starts without one."""
    game = Game("duo")
    player = MctsPlayer(sims=1000, seed=3)
    game.push(player.choose(game))
    tree, root = player._trees[0], player._roots[0]
    first, n = int(tree.first_child[root]), int(tree.num_children[root])
    ours = first + int(np.flatnonzero(tree.move[first:first + n] == game.placement_of(
        game.history[-1].move))[0])
    looked_at = {int(tree.move[c]) for c in range(int(tree.first_child[ours]),
                 int(tree.first_child[ours] + max(0, tree.num_children[ours])))}
    game.push_index(next(i for i in game.legal_moves.indices() if i not in looked_at))
    before = tree.reply.copy()
    player.sims = 1
    player.choose(game)
    tree = player._trees[0]  # a new root (in the same memory): one simulation in it
    assert player._roots == [0] and tree.visits[0] == 1
    assert int(tree.size[0]) == 1 + int(tree.num_children[0]) == 1 + len(game.legal_moves)
    assert (before >= 0).sum() > 100
    assert np.mean(tree.reply == before) > 0.99
    player.choose(Game("duo"))
    assert (player._trees[0].reply >= 0).sum() < 100
    assert player._roots == [0] and player._trees[0].visits[0] == 1


def test_a_cleared_tree_searches_as_a_new_one() -> None:
    """A player moving on to a position of another game empties its tree in
    place; the search then grows exactly the tree a new player grows."""
    searched = SearchParams(opening_by_prior=0)  # (a search at every move)
    used = MctsPlayer(sims=800, seed=5, params=searched)
    used.choose(random_position("classic", 5, seed=1))
    memory = used._trees[0].move
    game = random_position("classic", 7, seed=2)
    new = MctsPlayer(sims=800, seed=5, params=searched)
    assert used.choose(game.copy()) == new.choose(game.copy())
    a, b = used._trees[0], new._trees[0]
    assert a.move is memory
    n = int(b.size[0])
    assert int(a.size[0]) == n > 800
    for field in ("move", "seat", "color", "num_children", "visits", "value", "prior",
                  "rave_n", "rave_v"):
        assert np.array_equal(getattr(a, field)[:n], getattr(b, field)[:n]), field
    expanded = b.num_children[:n] >= 0  # (only their first child is ever read)
    assert np.array_equal(a.first_child[:n][expanded], b.first_child[:n][expanded])
    assert np.array_equal(a.reply, b.reply) and np.array_equal(a.reply2, b.reply2)


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


def readable_features(game: Game, index: int) -> dict[str, float]:
    """Some of a move's prior features, counted from the rules engine."""
    board = game.board
    color = game.turn
    assert color is not None
    cells = set(game.table.cells[index])
    others = [o for o in range(game.variant.num_colors) if o != color]
    own = game.attach_points(color)
    opp = 0
    for o in others:
        opp |= game.attach_points(o)
    adjacent = set(board.cells_of(game.table.adjacent[index]))
    corners = set(board.cells_of(game.table.corners[index]))
    forbidden = game.forbidden(color)
    return {
        "own": sum((own >> x) & 1 for x in cells),
        "opp": sum((opp >> x) & 1 for x in cells),
        "adj_other": sum(game.color_at(x) is not None for x in adjacent),
        "adj_own_attach": sum((own >> x) & 1 for x in adjacent),
        "corners": len(corners),
        "new": sum(not (forbidden >> x) & 1 and not (own >> x) & 1 for x in corners),
    }


@pytest.mark.parametrize("variant", ["duo", "classic", "trigon", "trigon_3"])
def test_move_features_against_the_rules(variant: str) -> None:
    """The prior's features of every legal move agree with counts made from
    the rules engine: the piece, cells on the colour's own and on the
    opponents' attach points, edge neighbours taken by others or on its own
    attach points, new attach points."""
    from blokus import kernel as k
    from blokus.players import mcts

    t = k.tables(variant)
    base = t.num_pieces
    for plies in (0, 5, 13):
        game = random_position(variant, plies, seed=plies)
        seats = mcts.seats_for(game)
        s = k.state_from_game(game)
        moves = np.array(sorted(game.legal_moves.indices()), np.int32)
        out = np.empty((len(moves), mcts.num_features(variant)), np.float32)
        mcts.move_features(t, seats, k.views(t, s), game.turn, moves, len(moves), out)
        for row, index in zip(out, moves, strict=True):
            want = readable_features(game, int(index))
            piece = game.table.piece[int(index)]
            assert row[piece] == 1.0 and row[:base].sum() == 1.0
            assert row[base + mcts._F_OWN_ATTACH] == want["own"]
            if variant in ("duo", "classic", "trigon"):  # no partner colours
                assert row[base + mcts._F_OPP_ATTACH] == want["opp"]
            assert row[base + mcts._F_ADJ_OTHER] == want["adj_other"]
            assert row[base + mcts._F_ADJ_OWN_ATTACH] == want["adj_own_attach"]
            new = row[base + mcts._F_NEW_ATTACH: base + mcts._F_NEW_ATTACH + 5].sum()
            assert new == want["new"]
            assert new + row[base + mcts._F_CORNER_OLD] == want["corners"]


def test_prior_weights_learned_and_fallback(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The shipped weights cover Duo, Junior, Classic and Trigon with the
    right number of columns (the base block, or all of them with the phase
    blocks); a family without weights (or with the wrong number) gets the
    hand-set ones."""
    import json

    from blokus.players import mcts

    shipped = json.loads(mcts.WEIGHTS_FILE.read_text())
    for variant in ("duo", "junior", "classic_2", "trigon_3"):
        width = len(shipped[mcts.prior_family(variant)])
        assert width in (mcts.base_features(variant), mcts.num_features(variant))
        weights = mcts.prior_weights(variant)
        assert len(weights) == mcts.num_features(variant)
        assert not np.array_equal(weights, mcts.default_weights(variant))
        assert not weights[width:].any()  # missing phase blocks count as zero
    path = tmp_path / "weights.json"
    path.write_text(json.dumps({"duo": [1.0, 2.0]}))
    monkeypatch.setattr(mcts, "WEIGHTS_FILE", path)
    mcts.prior_weights.cache_clear()
    try:
        assert np.array_equal(mcts.prior_weights("duo"), mcts.default_weights("duo"))
        assert np.array_equal(mcts.prior_weights("junior"), mcts.default_weights("junior"))
    finally:
        mcts.prior_weights.cache_clear()


@pytest.mark.parametrize("variant", ["duo", "classic_2", "trigon_3"])
def test_prior_logits_are_weights_times_features(variant: str) -> None:
    """The search's prior logits are the variant's weights times the move
    features the training script learns from."""
    from blokus import kernel as k
    from blokus.players import mcts

    t = k.tables(variant)
    rng = np.random.default_rng(5)
    shares = set()
    for plies in (0, 3, 11, 19, 27, 40):
        game = random_position(variant, plies, seed=plies + 1)
        if game.turn is None:
            continue
        shipped = mcts.seats_for(game)
        # Random weights in every column too, the phase blocks included.
        mixed = shipped._replace(weights=rng.normal(
            size=mcts.num_features(variant)).astype(np.float32))
        s = k.state_from_game(game)
        # (Random weights make logits of tens, summed in another order in
        # float32: a relative tolerance for them.)
        for seats, rtol in ((shipped, 0.0), (mixed, 1e-4)):
            moves, logits = mcts.priors_for(t, seats, s)
            out = np.empty((len(moves), mcts.num_features(variant)), np.float32)
            mcts.move_features(t, seats, k.views(t, s), game.turn, moves, len(moves), out)
            assert np.allclose(out @ seats.weights, logits, rtol=rtol, atol=1e-4)
        width = mcts.base_features(variant)
        for phase in range(len(mcts.PHASES)):
            block = out[:, (phase + 1) * width:(phase + 2) * width]
            share = block[0, game.table.piece[int(moves[0])]]  # the piece column times its share
            assert np.allclose(block, share * out[:, :width])
            shares.add((phase, round(float(share), 3)))
    # The positions cover more than one phase, and shares between 0 and 1.
    assert {phase for phase, share in shares if share > 0} >= {0, 1}
    assert any(0 < share < 1 for _, share in shares)


def test_best_children_are_the_largest_logits_in_order() -> None:
    """An expansion below the root keeps the children with the largest
    logits, largest first, and among equal logits the earlier moves (as a
    stable sort of all of them would)."""
    from blokus.players.mcts import _best

    rng = np.random.default_rng(5)
    for n, count in ((10, 3), (414, 48), (60, 59), (200, 1)):
        # Few distinct values, so that ties cross the cut.
        logits = rng.integers(0, 7, size=n + 5).astype(np.float32)
        expected = np.argsort(-logits[:n], kind="stable")[:count]
        assert _best(logits, n, count).tolist() == expected.tolist()
        smooth = rng.normal(size=n).astype(np.float32)
        assert _best(smooth, n, count).tolist() == np.argsort(-smooth)[:count].tolist()


def test_time_shares_average_about_one() -> None:
    """A time budget is a mean: over the pieces a colour places in a typical
    game (13 to 18) the shares average close to 1."""
    from blokus.players.mcts import time_share

    # Duo's steep profile gives short games more than the others do.
    for variant, most in (("duo", 1.2), ("trigon", 1.1), ("classic", 1.1)):
        means = [sum(time_share(m, variant) for m in range(pieces)) / pieces
                 for pieces in range(13, 19)]
        assert all(0.85 <= mean <= most for mean in means)
        assert 0.9 <= sum(means) / len(means) <= 1.1
    # In Classic for two players a colour places more: 17.2 pieces on average
    # in 2,000 games against Pentobi (docs/ladder.md).
    means = [sum(time_share(m, "classic_2") for m in range(pieces)) / pieces
             for pieces in range(16, 20)]
    assert all(0.9 <= mean <= 1.1 for mean in means)
    # A colour places about 20 of Junior's 24 pieces (18 to 22).
    means = [sum(time_share(m, "junior") for m in range(pieces)) / pieces
             for pieces in range(18, 23)]
    assert all(0.85 <= mean <= 1.2 for mean in means)
    assert 0.9 <= sum(means) / len(means) <= 1.1


def test_time_profiles_by_variant() -> None:
    """The first pieces get the most time with two colours (Duo, Junior) and
    in Trigon, pieces 3 to 8 in Classic for two players, the later ones in
    Classic for three or four; Duo's profile is steeper than Trigon's and
    Junior's."""
    from blokus.players.mcts import time_share

    for variant in ("duo", "junior", "trigon", "trigon_3"):
        assert time_share(0, variant) > time_share(6, variant) > time_share(12, variant)
    for variant in ("classic", "classic_3"):
        assert time_share(0, variant) < time_share(6, variant) < time_share(12, variant)
    # Classic for two players as Pentobi: most on pieces 3 to 8, least at the end.
    assert time_share(4, "classic_2") > time_share(7, "classic_2") > time_share(0, "classic_2")
    assert time_share(0, "classic_2") > time_share(12, "classic_2") > time_share(16, "classic_2")
    assert time_share(12, "duo") < time_share(12, "trigon")
    assert time_share(0, "duo") > time_share(0, "trigon")
    # Junior's games are longer than Duo's: its profile falls later.
    assert time_share(0, "junior") < time_share(0, "duo")
    assert time_share(12, "junior") > time_share(12, "duo")


def test_rave_exploration_by_variant() -> None:
    """RAVE results count against exploring a move in Classic for three or
    four players only (a colour each); a value given explicitly wins over
    the default."""
    from blokus.players.mcts import _RAVE_EXPLORATION

    def value(variant: str | None, **params: float) -> float:
        array = SearchParams(**params).array(variant) if variant else SearchParams().array()
        return float(array[_RAVE_EXPLORATION])

    for variant in ("classic", "classic_3"):
        assert value(variant) == 0.7
        assert value(variant, rave_exploration=0.0) == 0.0
    for variant in ("classic_2", "duo", "junior", "trigon", "trigon_3"):
        assert value(variant) == 0.0
        assert value(variant, rave_exploration=0.4) == 0.4
    assert value(None) == 0.0  # no variant: off


def test_playout_defaults_by_variant() -> None:
    """The playouts answer the last pieces in Duo, Junior and Trigon (in
    Trigon weighting big pieces more and following the early size schedule),
    and as in Trigon in four-player Classic with a long enough time budget;
    not in Classic otherwise; a value given explicitly wins over the
    default."""
    from blokus.players.mcts import _ANSWERS, _EARLY_SIZES, ANSWERS_SECONDS

    def playouts(variant: str, seconds: float | None = None,
                 **params: Any) -> tuple[float, float]:
        cfg = SearchParams(**params).array(variant, seconds)
        return float(cfg[_ANSWERS]), float(cfg[_EARLY_SIZES])

    long = ANSWERS_SECONDS["classic"]
    for seconds in (None, 0.01, long, 50.0):
        assert playouts("duo", seconds) == playouts("junior", seconds) == (3.0, 0.0)
        for variant in ("trigon", "trigon_2", "trigon_3"):
            assert playouts(variant, seconds) == (5.0, 1.0)
        for variant in ("classic_2", "classic_3"):
            assert playouts(variant, seconds) == (0.0, 0.0)
    for seconds in (None, 0.01, long / 2):
        assert playouts("classic", seconds) == (0.0, 0.0)
    for seconds in (long, 50.0):
        assert playouts("classic", seconds) == (5.0, 1.0)
        assert playouts("classic", seconds, answers=0.0) == (0.0, 1.0)
        assert playouts("classic", seconds, early_sizes=False) == (5.0, 0.0)
    assert playouts("trigon", answers=0.0, early_sizes=False) == (0.0, 0.0)
    assert playouts("classic", answers=2.0, early_sizes=True) == (2.0, 1.0)
    assert float(SearchParams().array()[_ANSWERS]) == 0.0  # no variant: off
    assert float(SearchParams().array(None, long)[_ANSWERS]) == 0.0
    # A player's search: by its budget.
    for seconds, expected in ((None, 0.0), (0.02, 0.0), (long, 5.0)):
        player = MctsPlayer(sims=None if seconds else 100, seconds=seconds)
        cfg = player._config("classic", seconds, fills_tree=False)
        assert float(cfg[_ANSWERS]) == expected


def position_with_moves(variant: str, count: int, seed: int) -> Game:
    """A position of a random game where the colour to move has exactly
    ``count`` legal moves."""
    rng = random.Random(seed)
    while True:
        game = Game(variant)
        while not game.is_game_over():
            if len(game.legal_moves) == count:
                return game
            game.push_index(rng.choice(game.legal_moves.indices()))


def test_a_search_is_settled_when_the_lead_cannot_be_caught() -> None:
    from blokus.players.mcts import _settled

    game = random_position("duo", 8, seed=2)
    player = MctsPlayer(sims=600, seed=1)
    player.choose(game)
    tree, root = player._trees[0], player._roots[0]
    first, n = int(tree.first_child[root]), int(tree.num_children[root])
    visits = sorted(tree.visits[first:first + n].tolist())
    gap = visits[-1] - visits[-2]
    assert gap >= 1
    assert _settled(tree, root, gap - 0.5)
    assert not _settled(tree, root, gap)
    # A root with one child is settled at once; one without children never.
    tree.num_children[root] = 1
    assert _settled(tree, root, 1e9)
    tree.num_children[root] = -1
    assert not _settled(tree, root, 0.0)


def test_time_saved_is_kept_for_the_next_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a time budget, a move with one legal choice, or a search whose
    choice is settled early, saves its time for the game's next moves; a
    new game starts without savings, and ``stop_early=False`` saves none."""
    from blokus.players import mcts

    forced = position_with_moves("duo", 1, seed=3)
    share = mcts.time_share(forced.num_placed(forced.turn), "duo")
    player = MctsPlayer(sims=None, seconds=0.02, seed=1)
    player.choose(forced)
    assert player._bank == pytest.approx(0.02 * share)
    # A search settled after its first simulations saves most of its time.
    game = position_with_moves("duo", 2, seed=4)
    monkeypatch.setattr(mcts, "_settled", lambda tree, root, left: True)
    player = MctsPlayer(sims=None, seconds=2.0, seed=1)
    player.choose(game)
    planned = 2.0 * mcts.time_share(game.num_placed(game.turn), "duo")
    assert 0.5 * planned < player._bank <= planned
    assert player.last_sims == 64
    # Another game: the savings are gone (and this move's are kept).
    other = position_with_moves("duo", 1, seed=5)
    player.choose(other)
    assert player._bank == pytest.approx(
        2.0 * mcts.time_share(other.num_placed(other.turn), "duo"))
    keep = MctsPlayer(sims=None, seconds=0.02, seed=1, stop_early=False)
    keep.choose(forced)
    assert keep._bank == 0.0


def test_the_opening_by_prior_banks_its_time() -> None:
    """With a time budget, the pieces played by the prior give their time
    to the game's later moves (the bank grows by each one's share, across
    the colours the player moves, and a new game starts again at zero)."""
    from blokus.players import mcts

    player = MctsPlayer(sims=None, seconds=0.5, seed=1)
    game = Game("classic")
    expected = 0.0
    for _ in range(8):  # the first two pieces of each colour
        expected += 0.5 * mcts.time_share(game.num_placed(game.turn), "classic")
        game.push(player.choose(game))
        assert player.last_sims == 0
        assert player._bank == pytest.approx(expected)
    player.choose(Game("classic"))
    assert player._bank == pytest.approx(0.5 * mcts.time_share(0, "classic"))
    unbanked = MctsPlayer(sims=None, seconds=0.5, seed=1, stop_early=False)
    unbanked.choose(Game("classic"))
    assert unbanked._bank == 0.0


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_nodes_get_more_children_as_their_window_widens(variant: str) -> None:
    """A node below the root is made with its best ``first_children``
    children and gets more whenever its selection window outgrows them, in
    prior order, the children it had keeping their visits; past the best
    ``max_children`` only with ``regrow``, and then up to all its legal
    moves."""
    from blokus import kernel as k
    from blokus.players import mcts

    game = random_position(variant, 6, seed=12)
    t, seats, state = k.tables(variant), mcts.seats_for(game), k.state_from_game(game)
    expand_after = 2
    for regrow in (True, False):
        params = SearchParams(first_children=8, max_children=16, regrow=regrow,
                              expand_after=expand_after)
        tree = mcts._new_tree(400_000, int(t.num_placements), int(t.num_colors))
        mcts.search(t, seats, tree, 0, state, 3000, k.rng_state(2), params.array(variant))
        assert int(tree.size[0]) < 400_000  # (not full)
        sizes = []
        stack = [(0, game.copy())]
        while stack:
            node, position = stack.pop()
            first, n = int(tree.first_child[node]), int(tree.num_children[node])
            if n <= 0:
                continue
            legal = len(position.legal_moves)
            visits = float(tree.visits[node])
            below = float(tree.visits[first:first + n].sum())
            priors = tree.prior[first:first + n]
            assert np.all(np.diff(priors) <= 0)
            # Over the best 16 moves, or over all once it has more.
            over = legal if n > 16 else min(legal, 16)
            assert (abs(float(priors.sum()) - 1) < 1e-4) == (n == over)
            # The best n moves by logit, priors a softmax of the logits.
            moves, logits = mcts.priors_for(t, seats, k.state_from_game(position))
            ranked = np.sort(logits)[::-1]
            logit = dict(zip(moves.tolist(), logits.tolist(), strict=True))
            mine = np.array([logit[int(m)] for m in tree.move[first:first + n]])
            assert np.array_equal(mine, ranked[:n])
            pool = np.exp(ranked[:over] - ranked[0])
            assert np.allclose(priors, np.exp(mine - ranked[0]) / pool.sum(), rtol=1e-4)
            if node == 0:
                assert n == legal and tree.complete[node] == 1 and below == visits
            else:
                sizes.append(n)
                # Expanded on the visit after its ``expand_after``-th; each
                # time it got more children, one simulation's playout
                # started from it.
                first_visits = expand_after + 1
                assert visits - first_visits - 8 <= below <= visits - first_visits
                if tree.complete[node]:
                    assert n == (legal if regrow else min(legal, 16))
                else:
                    assert n < legal and 4 + np.sqrt(visits) <= n
                    assert regrow or n < 16
            for c in range(first, first + n):
                if tree.num_children[c] > 0:
                    child = position.copy()
                    child.push_index(int(tree.move[c]))
                    stack.append((c, child))
        assert min(sizes) == 8 and sum(n > 8 for n in sizes) > 10
        assert (max(sizes) > 16) if regrow else (max(sizes) == 16)


def test_a_reused_root_gets_the_children_its_window_needs() -> None:
    """A root reused from the last move's tree was a node below the root,
    with its best 48 children; the new search gives it as many as its
    selection window reaches (without ``regrow``, no more)."""
    for regrow in (True, False):
        game = Game("duo")
        player = MctsPlayer(sims=1500, seed=4, params=SearchParams(regrow=regrow))
        game.push(player.choose(game))
        tree, root = player._trees[0], player._roots[0]
        ours = int(tree.first_child[root]) + int(np.argmax(
            tree.visits[tree.first_child[root]:tree.first_child[root] + tree.num_children[root]]))
        first, n = int(tree.first_child[ours]), int(tree.num_children[ours])
        reply = first + int(np.argmax(tree.visits[first:first + n]))
        assert int(tree.move[ours]) == game.placement_of(game.history[-1].move)
        game.push_index(int(tree.move[reply]))
        assert int(tree.num_children[reply]) == 48 < len(game.legal_moves)
        player.sims = 6000
        player.choose(game)
        assert player._roots == [reply]  # (the tree was reused)
        has, window = int(tree.num_children[reply]), 4 + np.sqrt(tree.visits[reply])
        assert window > 60
        assert has >= window if regrow else has == 48
        # The root's RAVE statistics followed its children (to the new
        # blocks it got with ``regrow``): every simulation through a child
        # counts that child's move.
        first, n = int(tree.first_child[reply]), int(tree.num_children[reply])
        assert (tree.rave_n[first:first + n] >= tree.visits[first:first + n]).all()
        assert tree.visits[first:first + n].sum() > 5000


def test_a_budget_that_could_fill_the_tree_makes_smaller_nodes() -> None:
    """Nodes below the root are made with their best 48 children, or 8 when
    the budget could fill the tree at 9 nodes a simulation."""
    game = random_position("duo", 4, seed=3)
    for capacity, made in ((None, 48), (20_000, 8)):
        player = MctsPlayer(sims=3000, seed=1, capacity=capacity)
        player.choose(game)
        tree = player._trees[0]
        size = int(tree.size[0])
        children = tree.num_children[1:size]
        assert int(np.max(tree.num_children[:size])) > 48  # (the root has all)
        assert np.count_nonzero(children == made) > 5
        assert np.count_nonzero((children > 0) & (children < made)) == 0


def test_a_time_budget_expands_nodes_later() -> None:
    """By default a node below the root gets children on its visit after
    its second with a simulation budget, after its fourth with a time
    budget; a given ``expand_after`` holds for both."""
    from blokus.players.mcts import _EXPAND_AFTER

    assert float(SearchParams().array("duo")[_EXPAND_AFTER]) == 2.0
    assert float(SearchParams(expand_after=3.0).array("duo")[_EXPAND_AFTER]) == 3.0
    game = random_position("duo", 4, seed=5)
    for player, first in ((MctsPlayer(sims=2000, seed=1), 3),
                          (MctsPlayer(sims=None, seconds=0.3, seed=1, stop_early=False), 5),
                          (MctsPlayer(sims=None, seconds=0.3, seed=1, stop_early=False,
                                      params=SearchParams(expand_after=2.0)), 3)):
        player.choose(game)
        tree = player._trees[0]
        size = int(tree.size[0])
        expanded = tree.num_children[1:size] > 0
        assert np.count_nonzero(expanded) > 10
        assert int(np.min(tree.visits[1:size][expanded])) == first


def test_a_budget_that_could_fill_the_tree_makes_nodes_with_fewer_children() -> None:
    """By default a node gets 48 children first, 8 when the expected
    simulations could fill the tree, and expands later with a time budget;
    a given ``first_children`` or ``expand_after`` holds."""
    from blokus.players.mcts import _EXPAND_AFTER, _FIRST_CHILDREN

    plain = MctsPlayer(sims=1000)
    assert float(plain._config("duo", None, fills_tree=False)[_FIRST_CHILDREN]) == 48.0
    assert float(plain._config("duo", None, fills_tree=True)[_FIRST_CHILDREN]) == 8.0
    assert float(plain._config("duo", 0.1, fills_tree=False)[_EXPAND_AFTER]) == 4.0
    given = MctsPlayer(sims=1000, params=SearchParams(first_children=16.0, expand_after=3.0))
    cfg = given._config("duo", 0.1, fills_tree=True)
    assert float(cfg[_FIRST_CHILDREN]) == 16.0 and float(cfg[_EXPAND_AFTER]) == 3.0


def test_score_term_of_a_playout_result() -> None:
    """A playout's result is the place, plus ``score_weight`` times
    ``0.5 + 0.5 * tanh(d / score_scale)`` for a score difference ``d``: a
    winner's result grows with the margin, more steeply on a smaller
    scale, and the two sides' results add up to one."""
    from blokus import kernel as k
    from blokus.players import mcts

    game = random_position("duo", 1000, 3)  # to the end of the game
    assert game.is_game_over()
    t, seats, s = k.tables("duo"), mcts.seats_for(game), k.state_from_game(game)
    pts = np.zeros(2, np.int32)
    k.points(t, s, pts)
    diff = float(pts[0] - pts[1])
    assert diff != 0
    group_score = np.zeros(2 * seats.num_groups, np.float32)
    stats = np.zeros(6, np.float64)
    for weight, scale in ((0.0, 15.0), (0.3, 15.0), (0.3, 5.0), (1.0, 15.0)):
        result = np.zeros(seats.num_seats, np.float32)
        mcts._results(t, seats, s, pts, group_score, result, weight, scale, stats, False, 0.0)
        winner = int(np.argmax(result))
        assert seats.color_seat[0 if diff > 0 else 1] == winner
        expected = (1 - weight) + weight * (0.5 + 0.5 * np.tanh(abs(diff) / scale))
        assert result[winner] == pytest.approx(expected, abs=1e-5)
        assert result.sum() == pytest.approx(1.0, abs=1e-5)


def _z_of_last(values: list[float]) -> float:
    """The last value's distance from the mean of all, in population
    standard deviations (0 while they are all equal): what the search's
    running z-score should give."""
    seen = np.array(values)
    return 0.0 if seen.std() == 0 else float((seen[-1] - seen.mean()) / seen.std())


def test_running_z_score() -> None:
    """``_z_score`` keeps a count, mean and sum of squared deviations, and
    gives each value's distance from the mean of all so far (itself
    included) in population standard deviations; 0 while they are all
    equal."""
    from blokus.players import mcts

    stats = np.zeros(6, np.float64)
    values = [4.0, 4.0, -2.0, 7.5, 30.0, -11.0]
    for i, x in enumerate(values):
        z = mcts._z_score(stats, 3, x)
        seen = np.array(values[:i + 1])
        assert z == pytest.approx(_z_of_last(values[:i + 1]), abs=1e-9)
        assert stats[3] == i + 1 and stats[4] == pytest.approx(seen.mean())
    assert list(stats[:3]) == [0.0, 0.0, 0.0]


def test_relative_score_term_of_a_playout_result() -> None:
    """With ``relative_score`` the score term is ``tanh`` of the score
    difference's z-score among the search's playouts so far, and the two
    sides' results still add up to one."""
    from blokus import kernel as k
    from blokus.players import mcts

    t = k.tables("duo")
    stats = np.zeros(6, np.float64)
    group_score = np.zeros(4, np.float32)
    diffs: list[float] = []
    for seed in range(6):
        game = random_position("duo", 1000, seed)  # to the end of the game
        assert game.is_game_over()
        seats, s = mcts.seats_for(game), k.state_from_game(game)
        pts = np.zeros(2, np.int32)
        k.points(t, s, pts)
        diffs.append(float(pts[0] - pts[1]))
        result = np.zeros(seats.num_seats, np.float32)
        mcts._results(t, seats, s, pts, group_score, result, 0.3, 15.0, stats, True, 0.0)
        z = _z_of_last(diffs)
        place = 1.0 if diffs[-1] > 0 else 0.0 if diffs[-1] < 0 else 0.5
        expected = 0.7 * place + 0.3 * (0.5 + 0.5 * np.tanh(z))
        assert result[seats.color_seat[0]] == pytest.approx(expected, abs=1e-5)
        assert result.sum() == pytest.approx(1.0, abs=1e-5)
    assert len(set(diffs)) > 2
    assert stats[0] == len(diffs) and stats[4] == pytest.approx(-np.mean(diffs))


def test_attach_term_of_a_playout_result() -> None:
    """With ``attach_weight`` a playout's result adds ``tanh`` of the
    z-score of a side's free attach points at the end (the rules engine's
    ``attach_points`` of its colours) less the other side's, among the
    playouts so far, and divides by ``1 + attach_weight``; the two sides'
    results still add up to one."""
    from blokus import kernel as k
    from blokus.players import mcts

    t = k.tables("classic_2")
    stats = np.zeros(12, np.float64)
    group_score = np.zeros(6, np.float32)
    diffs: list[float] = []
    free: list[float] = []
    for seed in range(6):
        game = random_position("classic_2", 1000, seed)
        assert game.is_game_over()
        seats, s = mcts.seats_for(game), k.state_from_game(game)
        pts = np.zeros(4, np.int32)
        k.points(t, s, pts)
        diffs.append(float(pts[0] + pts[2] - pts[1] - pts[3]))
        left = [game.attach_points(c).bit_count() for c in range(4)]
        free.append(float(left[0] + left[2] - left[1] - left[3]))
        result = np.zeros(seats.num_seats, np.float32)
        mcts._results(t, seats, s, pts, group_score, result, 0.3, 15.0, stats, True, 0.1)
        terms = []
        for values in (diffs, free):
            terms.append(0.5 + 0.5 * np.tanh(_z_of_last(values)))
        place = 1.0 if diffs[-1] > 0 else 0.0 if diffs[-1] < 0 else 0.5
        expected = (0.7 * place + 0.3 * terms[0] + 0.1 * terms[1]) / 1.1
        assert result[seats.color_seat[0]] == pytest.approx(expected, abs=1e-5)
        assert result.sum() == pytest.approx(1.0, abs=1e-5)
    assert len(set(free)) > 2
    assert stats[6] == len(free) and stats[7] == pytest.approx(np.mean(free))


@pytest.mark.parametrize(("field", "variant", "value", "plain"), [
    ("attach_weight", "classic_2", 0.1, 0.0),  # the attach term: classic_2 only
    ("sharpness", "junior", 1.3, 1.0),  # sharper priors: Junior's only
])
def test_default_by_variant(field: str, variant: str, value: float, plain: float) -> None:
    """A :class:`SearchParams` field left ``None`` takes ``value`` in one
    variant and ``plain`` in the others; set, it holds there too."""
    from blokus.players import mcts

    column = getattr(mcts, "_" + field.upper())  # its position in SearchParams.array()
    assert SearchParams().array(variant)[column] == pytest.approx(value)
    for other in VARIANT_IDS:
        if other != variant:
            assert SearchParams().array(other)[column] == plain
    assert SearchParams(**{field: plain}).array(variant)[column] == plain


def test_sharpness_raises_the_prior_odds_to_its_power() -> None:
    """A root's children have priors ``softmax(sharpness * logits)``: the
    same children, each one's odds against the best raised to the power
    ``sharpness``."""
    game = random_position("duo", 4, seed=2)
    priors = []
    for sharpness in (1.0, 2.0):
        player = MctsPlayer(sims=1, seed=1, params=SearchParams(sharpness=sharpness))
        player.choose(game)
        tree = player._trees[0]
        first, n = int(tree.first_child[0]), int(tree.num_children[0])
        priors.append(dict(zip(tree.move[first:first + n].tolist(),
                               tree.prior[first:first + n].tolist(), strict=True)))
    plain, sharp = priors
    assert plain.keys() == sharp.keys() and len(plain) > 10
    best = max(plain, key=plain.__getitem__)
    assert max(sharp, key=sharp.__getitem__) == best
    odds = [plain[m] / plain[best] for m in plain]
    assert min(odds) < 0.5  # (not all alike, so the power shows)
    for m in plain:
        assert sharp[m] / sharp[best] == pytest.approx((plain[m] / plain[best]) ** 2, rel=1e-3)


def test_each_search_measures_its_own_playouts() -> None:
    """The relative score term is on by default in two-player games on a
    square board only, and its statistics start afresh with every move's
    search: after a move they count that search's simulations (the tree
    is reused)."""
    from blokus.players.mcts import _RELATIVE_SCORE

    assert SearchParams().array("duo")[_RELATIVE_SCORE] == 1.0
    assert SearchParams().array("classic_2")[_RELATIVE_SCORE] == 1.0
    assert SearchParams().array("classic")[_RELATIVE_SCORE] == 0.0
    assert SearchParams().array("trigon_2")[_RELATIVE_SCORE] == 0.0
    assert SearchParams(relative_score=False).array("duo")[_RELATIVE_SCORE] == 0.0
    player = MctsPlayer(sims=300, seed=5)
    game = Game("duo")
    for _ in range(3):
        game.push(player.choose(game))
        stats = player._trees[0].stats
        assert stats[0] == stats[3] == player.last_sims == 300


def test_opening_by_prior_by_variant() -> None:
    """Classic for three and four players plays each colour's first three
    pieces by the prior; Duo and Classic for two their first two with a
    short time budget (not with a simulation budget or a long time); other
    variants search every move; a set value wins."""
    from blokus.players.mcts import OPENING_BY_PRIOR_SECONDS, default_opening_by_prior

    for seconds in (None, 0.01, 50.0):
        assert default_opening_by_prior("classic", seconds) == 3
        assert default_opening_by_prior("classic_3", seconds) == 3
    for variant in ("classic_2", "duo", "junior", "trigon", "trigon_2", "trigon_3"):
        assert default_opening_by_prior(variant) == 0, variant
        assert SearchParams().opening(variant) == 0
        assert SearchParams(opening_by_prior=2).opening(variant) == 2
        assert SearchParams(opening_by_prior=1).opening(variant, 0.01) == 1
    for variant in ("duo", "classic_2"):
        bound = OPENING_BY_PRIOR_SECONDS[variant]
        assert default_opening_by_prior(variant, 0.0125) == 2
        assert SearchParams().opening(variant, bound) == 2
        assert SearchParams().opening(variant, 2 * bound) == 0
        assert SearchParams(opening_by_prior=0).opening(variant, 0.0125) == 0
    for variant in ("junior", "trigon", "trigon_2", "trigon_3"):
        assert default_opening_by_prior(variant, 0.0125) == 0, variant
    assert SearchParams().opening("classic") == 3
    assert SearchParams(opening_by_prior=0).opening("classic") == 0


@pytest.mark.parametrize("variant", ["duo", "classic_2"])
def test_a_short_time_budget_plays_the_opening_by_prior(variant: str) -> None:
    """With a short time budget, in Duo and in Classic for two, a colour's
    first two pieces are the prior's (no search, their time banked); the
    third is searched.  With a simulation budget every move is searched."""
    timed = MctsPlayer(sims=None, seconds=0.01, seed=4)
    game = Game(variant)
    for _ in range(2 * game.variant.num_colors):
        game.push(timed.choose(game))
        assert timed.last_sims == 0 and timed._bank > 0.0
    timed.choose(game)
    assert timed.last_sims > 0
    counted = MctsPlayer(sims=40, seed=4)
    counted.choose(Game(variant))
    assert counted.last_sims == 40


def test_the_opening_by_prior_is_the_best_prior() -> None:
    """In Classic a colour's first three pieces are a move of the highest
    prior, with no search (the same ones for the same seed); the fourth is
    searched; with ``opening_by_prior`` 0 the first is searched too."""
    from blokus import kernel as k
    from blokus.players import mcts

    player, twin = MctsPlayer(sims=200, seed=1), MctsPlayer(sims=200, seed=1)
    game = Game("classic")
    while game.num_placed(game.turn) < 3:
        move = player.choose(game.copy())
        assert twin.choose(game.copy()) == move
        assert player.last_sims == 0 and not player._trees
        moves, logits = mcts.priors_for(k.tables("classic"), mcts.seats_for(game),
                                        k.state_from_game(game))
        chosen = logits[int(np.flatnonzero(moves == game.placement_of(move))[0])]
        assert chosen >= logits.max() - 1e-6
        game.push(move)
    move = player.choose(game.copy())
    assert game.why_illegal(move) is None and player.last_sims == 200
    searched = MctsPlayer(sims=50, seed=1, params=SearchParams(opening_by_prior=0))
    searched.choose(Game("classic"))
    assert searched.last_sims == 50
