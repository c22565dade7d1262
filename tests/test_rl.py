"""The RL environments: PettingZoo and Gymnasium conformance, the observation
encoding, the reward rules, rendering, the policy player, and the batched
environment checked step for step against :class:`blokus.Game`."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import blokus.rl  # noqa: E402
from blokus import VARIANTS, Game  # noqa: E402
from blokus.rl import (  # noqa: E402
    AEC_ENVS,
    GYM_IDS,
    BlokusEnv,
    EnvConfigError,
    IllegalActionError,
    PolicyPlayer,
    blokus_duo_v0,
    encoding,
    final_rewards,
)
from blokus.rl.rewards import seat_rewards  # noqa: E402

ALL = list(VARIANTS)


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # api_test warns that a dict observation is "not a NumPy array" and that
    # the mask of a finished game is all zeros: both are by design.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def random_game(variant: str, seed: int, seating: str | None = None) -> Game:
    game = Game(variant, seating)
    rng = random.Random(seed)
    while not game.is_game_over():
        game.push_index(rng.choice(game.legal_moves.indices()))
    return game


# -- PettingZoo --------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL)
def test_pettingzoo_api_and_seed(variant: str) -> None:
    module = AEC_ENVS[variant]
    assert module.VARIANT == variant
    env = module.env(render_mode=None)
    assert str(env.unwrapped) == f"blokus_{variant}_v0"
    api_test(env, num_cycles=8)
    seed_test(module.env, num_cycles=4)


@pytest.mark.parametrize("variant", ["duo", "junior"])
def test_pettingzoo_api_whole_games(variant: str) -> None:
    api_test(AEC_ENVS[variant].env(), num_cycles=60)


def test_versioned_names() -> None:
    for v in ALL:
        module = getattr(blokus.rl, f"blokus_{v}_v0")
        assert "Version history" in (module.__doc__ or "")
        raw = module.raw_env()
        assert raw.metadata["name"] == f"blokus_{v}_v0"
        assert raw.variant.id == v


def play_aec(env: Any, seed: int) -> tuple[dict[str, float], list[int]]:
    """Random legal actions to the end; the final reward of every agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        a = int(rng.choice(legal))
        actions.append(a)
        env.step(a)
    return final, actions


@pytest.mark.parametrize("variant,seating", [("duo", None), ("classic_3", None),
                                             ("classic_3", "neutral"), ("classic", "teams")])
def test_aec_agents_follow_the_game(variant: str, seating: str | None) -> None:
    env = AEC_ENVS[variant].raw_env(seating=seating, reward="rank")
    env.reset()
    game = Game(variant, seating)
    rng = np.random.default_rng(5)
    while not game.is_game_over():
        agent = env.agent_selection
        assert agent == f"player_{game.seat_to_move}"
        mask = env.observe(agent)["action_mask"]
        assert list(np.flatnonzero(mask)) == game.legal_moves.indices()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        a = int(rng.choice(np.flatnonzero(mask)))
        env.step(a)
        game.push_index(a)
    assert all(env.terminations.values())
    expected = final_rewards(game, "rank")
    assert [env.rewards[f"player_{i}"] for i in range(len(expected))] == expected
    assert env.game.history == game.history


def test_aec_final_rewards_reach_every_agent() -> None:
    env = blokus_duo_v0.env(reward="win")
    final, actions = play_aec(env, 3)
    game = Game("duo")
    for a in actions:
        game.push_index(a)
    assert game.is_game_over()
    assert final == {"player_0": final_rewards(game, "win")[0],
                     "player_1": final_rewards(game, "win")[1]}
    assert env.agents == []


def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    env = blokus_duo_v0.raw_env()
    env.reset()
    game = env.game
    bad = next(i for i in range(len(game.table)) if not game.legal_moves.mask() >> i & 1)
    with pytest.raises(IllegalActionError, match="first piece must cover e10"):
        env.step(bad)
    with pytest.raises(IllegalActionError, match="not a placement index"):
        env.step(len(game.table))
    with pytest.raises(IllegalActionError, match="not an integer"):
        env.step("e10")
    assert env.game.ply == 0 and env.agent_selection == "player_0"
    env.step(np.int32(game.legal_moves.indices()[0]))
    assert env.game.ply == 1


def test_aec_illegal_reward_wrapper_ends_the_game() -> None:
    env = blokus_duo_v0.env(illegal_reward=-1)
    env.reset()
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1


def test_bad_options() -> None:
    with pytest.raises(EnvConfigError, match="unknown variant"):
        blokus.rl.BlokusAECEnv("chess")
    with pytest.raises(EnvConfigError, match="reward rule"):
        blokus_duo_v0.raw_env(reward="money")
    with pytest.raises(EnvConfigError, match="scoring rule"):
        blokus_duo_v0.raw_env(scoring="golf")
    with pytest.raises(EnvConfigError, match="render mode"):
        blokus_duo_v0.raw_env(render_mode="human")
    with pytest.raises(EnvConfigError, match="no seating"):
        blokus_duo_v0.raw_env(seating="teams")
    with pytest.raises(EnvConfigError, match="unknown player"):
        BlokusEnv("duo", opponent="grandmaster")
    with pytest.raises(EnvConfigError, match="not a playable seat"):
        BlokusEnv("classic_3", seat=3, seating="neutral")
    with pytest.raises(EnvConfigError, match="needs 3 opponents"):
        BlokusEnv("classic", opponent=["random", "greedy"])


# -- the observation -----------------------------------------------------------


def test_observation_layout_duo() -> None:
    env = blokus_duo_v0.raw_env()
    env.reset()
    obs = env.observe("player_0")
    assert obs["board"].shape == (2, 14, 14) and obs["board"].dtype == np.int8
    assert obs["pieces"].shape == (2, 21) and (obs["pieces"] == 1).all()
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].sum() == 414
    game = env.game
    move = game.parse_move("e10,d11,e11,f11,e12")
    env.step(game.placement_of(move))
    purple = env.observe("player_1")  # Orange to move: Orange first, then Purple
    assert purple["board"][0].sum() == 0
    cells = {(r, c) for r, c in zip(*np.nonzero(purple["board"][1]), strict=True)}
    assert cells == {(14 - row, x) for x, row in move.points}
    assert (4, 4) in cells  # e10: column e = 4, row 10 -> 14 - 10
    x_piece = next(p for p in game.variant.piece_set.pieces if p.size == 5
                   and game.table.piece[game.placement_of(move)] == p.index)
    assert purple["pieces"][1, x_piece.index] == 0 and purple["pieces"][0].sum() == 21
    # Purple sees its own colour first, and has no legal action now.
    mine = env.observe("player_0")
    assert (mine["board"][0] == purple["board"][1]).all()
    assert not mine["action_mask"].any()
    assert env.observation_space("player_0").contains(mine)


def test_plane_order_two_colours_per_seat() -> None:
    game = Game("classic_2")
    enc = encoding("classic_2")
    assert enc.plane_colors(game, 0) == (0, 2, 1, 3)
    assert enc.plane_colors(game, 1) == (1, 3, 2, 0)  # others in turn order after Yellow
    rng = random.Random(1)
    for _ in range(2):
        game.push_index(rng.choice(game.legal_moves.indices()))
    assert game.turn == 2 and game.seat_to_move == 0
    assert enc.plane_colors(game, 0) == (2, 0, 3, 1)
    obs = enc.observe(game, 0)
    assert obs["board"][0].sum() == 0 and obs["board"][1].sum() > 0


def test_plane_order_shared_colour() -> None:
    game = Game("classic_3")
    enc = encoding("classic_3")
    rng = random.Random(2)
    seen = set()
    while len(seen) < 2:
        if game.turn == 3:
            seat = game.seat_to_move
            assert seat is not None
            seen.add(seat)
            assert enc.plane_colors(game, seat)[:2] == (3, seat)
            assert enc.observe(game, seat)["action_mask"].sum() == len(game.legal_moves)
        game.push_index(rng.choice(game.legal_moves.indices()))


def test_observation_triangle_board() -> None:
    for v, shape in (("trigon", (5, 18, 35)), ("trigon_3", (4, 16, 31))):
        enc = encoding(v)
        game = Game(v)
        obs = enc.observe(game, 0)
        assert obs["board"].shape == shape
        assert obs["board"][-1].sum() == game.board.size
        assert obs["board"][:-1].sum() == 0
        rng = random.Random(0)
        for _ in range(6):
            game.push_index(rng.choice(game.legal_moves.indices()))
        board = enc.observe(game, 0)["board"]
        # Every covered cell lies on the board, and no two colours share one.
        assert (board[:-1].sum(axis=0) <= board[-1]).all()
        assert board[:-1].sum() == bin(game.occupied).count("1")


# -- rewards -------------------------------------------------------------------


def test_reward_rules_by_hand() -> None:
    duo, seating = VARIANTS["duo"], VARIANTS["duo"].seating
    assert seat_rewards([10, -5], duo, seating, "score") == [15 / 109, -15 / 109]
    assert seat_rewards([10, -5], duo, seating, "win") == [1.0, -1.0]
    assert seat_rewards([10, -5], duo, seating, "rank") == [1.0, -1.0]
    assert seat_rewards([-7, -7], duo, seating, "win") == [0.0, 0.0]
    assert seat_rewards([-7, -7], duo, seating, "rank") == [0.0, 0.0]
    # basic: lowest wins, the sign is turned so that more reward is better.
    assert seat_rewards([3, 10], duo, seating, "score", "basic") == [7 / 89, -7 / 89]
    classic = VARIANTS["classic"]
    four = classic.seating
    assert seat_rewards([5, 20, 5, -10], classic, four, "rank") == [0.0, 1.0, 0.0, -1.0]
    assert seat_rewards([5, 20, 5, -10], classic, four, "win") == [-1.0, 1.0, -1.0, -1.0]
    assert seat_rewards([20, 20, 5, -10], classic, four, "win") == [0.0, 0.0, -1.0, -1.0]
    teams = classic.get_seating("teams")
    # Blue+Red 10 against Yellow+Green 10: a draw; a team of two colours
    # spans twice the score range.
    assert seat_rewards([5, 20, 5, -10], classic, teams, "rank") == [0.0] * 4
    assert seat_rewards([20, 0, 20, 0], classic, teams, "score") == [
        40 / 218, -40 / 218, 40 / 218, -40 / 218]
    neutral = VARIANTS["classic_3"].get_seating("neutral")
    assert seat_rewards([1, 2, 3, 50], VARIANTS["classic_3"], neutral, "rank") == [
        -1.0, 0.0, 1.0, 0.0]
    junior = VARIANTS["junior"]
    assert seat_rewards([0, -88], junior, junior.seating, "score") == [1.0, -1.0]


@pytest.mark.parametrize("variant", ALL)
def test_final_rewards_agree_with_outcome(variant: str) -> None:
    v = VARIANTS[variant]
    for seating in v.seatings:
        game = random_game(variant, hash((variant, seating.id)) % 1000, seating.id)
        for scoring in ("advanced", "basic", "cells"):
            for reward in ("score", "win", "rank"):
                r = final_rewards(game, reward, scoring)
                assert r == seat_rewards(game.scores(scoring), v, seating, reward, scoring)
                assert all(-1.0 <= x <= 1.0 for x in r)
            outcome = game.outcome(scoring)
            rank = final_rewards(game, "rank", scoring)
            assert sum(rank[g[0]] for g in outcome.groups) == pytest.approx(0.0)
            win = final_rewards(game, "win", scoring)
            for g, place in zip(outcome.groups, outcome.places, strict=True):
                if place > 1:
                    assert win[g[0]] == -1.0


# -- Gymnasium -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL)
def test_gymnasium_check_env(variant: str) -> None:
    env = gymnasium.make(GYM_IDS[variant], opponent="random")
    assert isinstance(env.unwrapped, BlokusEnv) and env.unwrapped.variant.id == variant
    check_env(env.unwrapped)


def test_gymnasium_against_greedy() -> None:
    env = gymnasium.make("blokus/Duo-v0", opponent="greedy", seat=1, reward="win")
    obs, info = env.reset(seed=7)
    assert info["seat"] == 1 and obs["board"][1].sum() > 0  # Purple has moved
    again, _ = env.reset(seed=7)
    assert (again["board"] == obs["board"]).all()
    rng = np.random.default_rng(0)
    done, total, steps = False, 0.0, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not truncated
    game = env.unwrapped.game
    assert game.is_game_over()
    assert total == final_rewards(game, "win")[1]
    assert info["seat_scores"] == game.outcome().seat_scores
    assert steps == sum(1 for t in game.history if t.color == 1 and not t.move.is_pass)


def test_gymnasium_seats_and_illegal_actions() -> None:
    env = BlokusEnv("classic_2", opponent="random", seat=None)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(8)}
    assert seats == {0, 1}
    env = BlokusEnv("duo", illegal_reward=None)
    obs, _ = env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.game.ply == 0
    env = BlokusEnv("duo")
    obs, _ = env.reset(seed=1)
    obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_gymnasium_player_objects_as_opponents() -> None:
    from blokus.players import RandomPlayer

    env = BlokusEnv("classic", opponent=[RandomPlayer(1), "greedy", "random"], seat=2)
    obs, _ = env.reset(seed=0)
    assert env.game.turn == 2 and env.game.ply == 2
    assert obs["action_mask"].sum() == len(env.game.legal_moves)


# -- rendering and players -------------------------------------------------------


def test_render_modes() -> None:
    env = blokus_duo_v0.raw_env(render_mode="ansi")
    env.reset()
    env.step(env.game.legal_moves.indices()[0])
    text = env.render()
    assert isinstance(text, str) and "\x1b" not in text
    for variant in ("duo", "trigon_3"):
        env = AEC_ENVS[variant].raw_env(render_mode="rgb_array")
        env.reset()
        for _ in range(len(env.possible_agents)):
            env.step(env.game.legal_moves.indices()[0])
        image = env.render()
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        palette = {"Purple": (142, 92, 197), "Orange": (240, 138, 36), "Blue": (47, 111, 208),
                   "Yellow": (240, 196, 25), "Red": (214, 69, 65)}
        for color in env.variant.colors:
            assert (image == palette[color.name]).all(axis=2).sum() > 100
    assert blokus_duo_v0.raw_env().render() is None


def test_policy_player() -> None:
    from blokus.players import Player, RandomPlayer

    def first_legal(obs: dict[str, Any]) -> int:
        return int(np.argmax(obs["action_mask"]))

    player = PolicyPlayer(first_legal, name="first")
    assert isinstance(player, Player)
    game = Game("junior")
    other = RandomPlayer(3)
    while not game.is_game_over():
        mover = player if game.seat_to_move == 0 else other
        move = mover.choose(game)
        if mover is player:
            assert game.placement_of(move) == game.legal_moves.indices()[0]
        game.push(move)
    with pytest.raises(ValueError, match="over"):
        player.choose(game)
    with pytest.raises(IllegalActionError):
        PolicyPlayer(lambda obs: int(np.argmin(obs["action_mask"]))).choose(Game("duo"))


# -- the batched environment -------------------------------------------------------

CASES = [
    ("duo", None, "score", "advanced"),
    ("junior", None, "rank", "basic"),
    ("classic_3", None, "win", "cells"),
    ("classic_2", None, "score", "basic"),
    ("classic", "teams", "rank", "advanced"),
    ("trigon_3", None, "score", "advanced"),
]


@pytest.mark.parametrize("variant,seating,reward,scoring", CASES)
def test_batched_matches_game(variant: str, seating: str | None, reward: str, scoring: str) -> None:
    batched = pytest.importorskip("blokus.rl.batched")
    n = 3
    env = batched.BatchedEnv(variant, n, seed=4, reward=reward, scoring=scoring, seating=seating)
    enc = encoding(variant, seating)
    batch = env.reset()
    games = [Game(variant, seating) for _ in range(n)]
    finished = 0
    while finished < n:
        for i, game in enumerate(games):
            seat = game.seat_to_move
            assert seat is not None
            obs = enc.observe(game, seat)
            assert batch.seat[i] == seat and batch.color[i] == game.turn
            assert (batch.board[i] == obs["board"]).all()
            assert (batch.pieces[i] == obs["pieces"]).all()
            assert (batch.action_mask[i] == obs["action_mask"]).all()
        actions = env.random_actions()
        batch = env.step(actions)
        for i, game in enumerate(games):
            game.push_index(int(actions[i]))
            assert batch.dones[i] == game.is_game_over()
            if game.is_game_over():
                finished += 1
                assert batch.rewards[i].tolist() == pytest.approx(
                    final_rewards(game, reward, scoring))
                assert tuple(batch.scores[i]) == game.scores(scoring)
                games[i] = Game(variant, seating)
            else:
                assert not batch.rewards[i].any() and not batch.scores[i].any()


def test_batched_rejects_illegal_actions() -> None:
    batched = pytest.importorskip("blokus.rl.batched")
    env = batched.BatchedEnv("duo", 2, seed=0)
    batch = env.reset()
    good = np.flatnonzero(batch.action_mask[0])[0]
    bad = np.flatnonzero(batch.action_mask[1] == 0)[0]
    with pytest.raises(IllegalActionError, match="game 1"):
        env.step([good, bad])
    with pytest.raises(IllegalActionError, match="2 integers"):
        env.step([good])
    with pytest.raises(EnvConfigError, match="num_envs"):
        batched.BatchedEnv("duo", 0)
    batch = env.step([good, good])
    assert batch.seat.tolist() == [1, 1] and (batch.board[:, 1].sum(axis=(1, 2)) == 5).all()
    a, b = batched.BatchedEnv("duo", 4, seed=9), batched.BatchedEnv("duo", 4, seed=9)
    a.reset()
    b.reset()
    assert (a.random_actions() == b.random_actions()).all()


# -- the training example --------------------------------------------------------


def test_training_example_runs() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "examples" / "train_duo.py"
    spec = importlib.util.spec_from_file_location("train_duo", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    game = Game("duo")
    mine, theirs = example.areas(game, 0, 1)
    assert mine == theirs and 0 < mine + theirs <= game.board.size  # the board is symmetric
    indices = game.legal_moves.indices()
    phi = example.after_features(game, indices)
    assert phi.shape == (len(indices), len(example.FEATURES))
    sizes = np.array([len(game.table.cells[i]) for i in indices])
    assert (phi[:, 0] == sizes / 20).all()  # cells ahead after the first move
    weights = example.train(iterations=1, games=2, seed=0)
    assert weights.shape == (len(example.FEATURES),) and np.isfinite(weights).all()
    from blokus.players import RandomPlayer

    won, drawn, lost = example.match(example.ValuePlayer(weights, seed=0), RandomPlayer(0),
                                     pairs=1, seed=0)
    assert won + drawn + lost == 2
