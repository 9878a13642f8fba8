"""The reinforcement-learning interface: actions, masks, observations,
the batched games and the PettingZoo environment."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import qi_games
from qi_games.env import QiEnv, five_tigers_env, jungle_env
from conftest import ALL_SPECS


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_mask_matches_the_legal_moves_on_random_games(spec, rng):
    for _ in range(3):
        game = qi_games.Game(spec)
        while not game.is_over() and game.ply < 150:
            mask = game.action_mask()
            legal = game.legal_moves()
            actions = sorted(game.move_to_action(mv) for mv in legal)
            assert len(set(actions)) == len(legal)  # one action per move
            assert actions == list(np.flatnonzero(mask))
            for mv in legal:
                assert game.action_to_move(game.move_to_action(mv)) == mv
            game.play_action(rng.choice(actions))
        if game.is_over():
            assert not game.action_mask().any()


def test_action_spaces():
    assert qi_games.Game("jungle").num_actions == 252
    assert qi_games.Game("five-tigers").num_actions == 150
    ft = qi_games.Game("five-tigers")
    assert ft.move_to_action("c3") == 12
    ft.play("c3")
    with pytest.raises(ValueError, match="not a legal move"):
        ft.play_action(12)
    with pytest.raises(ValueError, match="outside the action space"):
        ft.play_action(150)


def test_jungle_actions_are_seen_from_the_mover():
    # The start is symmetric under a half turn, so both sides have the
    # same actions there.
    red = np.flatnonzero(qi_games.Game("jungle").action_mask())
    start_blue = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
    blue = np.flatnonzero(qi_games.Game("jungle", start_blue).action_mask())
    assert list(red) == list(blue)
    # Red's Elephant a3 steps up: square 14, direction 0.
    assert qi_games.Game("jungle").move_to_action("a3a4") == 14 * 4 + 0


def test_jungle_observation_planes():
    game = qi_games.Game("jungle")
    obs = game.observation()
    assert obs.shape == (50, 9, 7) and obs.dtype == np.float32
    assert obs[0:8].sum() == 8 and obs[8:16].sum() == 8  # own, opponent
    assert obs[16].sum() == 12  # water
    assert obs[6, 0, 6] == 1  # own Lion at g1
    assert obs[21].all()  # to move
    second = game.observation("second")
    assert np.array_equal(second[:21], obs[:21])  # the start is symmetric
    assert not second[21].any()


def test_five_tigers_observation_planes():
    game = qi_games.Game("five-tigers")
    game.play("c3")
    obs = game.observation()  # the second side to move
    assert obs.shape == (17, 5, 5)
    assert obs[1, 2, 2] == 1 and obs[0].sum() == 0
    assert obs[2].all()  # placement


def test_vec_game_matches_single_games(rng):
    n = 8
    vec = qi_games.VecGame("five-tigers:ten", n)
    singles = [qi_games.Game("five-tigers:ten") for _ in range(n)]
    ends = 0
    for _ in range(400):
        masks = vec.action_masks()
        obs = vec.observations()
        actions = np.zeros(n, dtype=np.int64)
        for i, game in enumerate(singles):
            assert np.array_equal(masks[i], game.action_mask())
            assert np.array_equal(obs[i], game.observation())
            actions[i] = rng.choice(list(np.flatnonzero(masks[i])))
        rewards, terminated, truncated = vec.step(actions)
        dones = terminated | truncated
        for i, game in enumerate(singles):
            mover = game.side_to_move
            game.play_action(int(actions[i]))
            assert dones[i] == game.is_over()
            if game.is_over():
                ends += 1
                winner = game.outcome().winner
                assert rewards[i] == (0 if winner is None else (1 if winner == mover else -1))
                singles[i] = qi_games.Game("five-tigers:ten")
    assert ends > 0


def test_vec_game_refuses_illegal_actions_and_changes_nothing():
    vec = qi_games.VecGame("jungle", 2)
    before = vec.observations()
    with pytest.raises(ValueError, match="game 1"):
        vec.step(np.array([14 * 4, 251], dtype=np.int64))
    assert np.array_equal(vec.observations(), before)
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        vec.step(np.zeros(3, dtype=np.int64))


@pytest.mark.parametrize("make", [jungle_env, five_tigers_env])
def test_pettingzoo_api(make):
    api_test(make(max_plies=300), num_cycles=300)


def test_pettingzoo_game_to_the_end(rng):
    env = QiEnv("five-tigers:ten")
    env.reset(seed=1)
    final = {}
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        assert agent == env.game.side_to_move
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert env.game.is_over()
    winner = env.game.outcome().winner
    expected = {a: 0.0 if winner is None else (1.0 if a == winner else -1.0) for a in ("first", "second")}
    assert final == expected
