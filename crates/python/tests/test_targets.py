"""BatchEngine.targets: AlphaZero-style policy and value targets from the
search, batched."""

import numpy as np
import pytest

import qi_games


def test_targets_are_a_distribution_over_legal_moves_and_a_bounded_value():
    vec = qi_games.VecGame("jungle", 6, seed=1, random_plies=6)
    engine = qi_games.BatchEngine("jungle", threads=2)
    policy, value, actions, scores = engine.targets(vec, depth=3)
    assert policy.shape == (6, 252) and policy.dtype == np.float32
    assert value.dtype == np.float32 and actions.dtype == np.int64 and scores.dtype == np.int32
    masks = vec.action_masks()
    assert np.allclose(policy.sum(axis=1), 1.0, atol=1e-5)
    assert (policy[~masks] == 0).all() and (policy[masks] > 0).all()  # every legal move searched
    assert ((value >= -1) & (value <= 1)).all()
    assert np.allclose(value, np.tanh(scores / 400.0), atol=1e-6)
    rows = np.arange(6)
    assert np.allclose(policy[rows, actions], policy.max(axis=1))  # the best move is the likeliest
    # The best action and score are the search's own (a new Engine's, at the same depth).
    for i in range(6):
        found = qi_games.Engine("jungle", hash_mib=1).search(vec.game(i), depth=3, multipv=256)
        assert vec.game(i).move_to_action(found.best_move) == actions[i] and found.score == scores[i]
        by_action = {vec.game(i).move_to_action(line.pv[0]): line.score for line in found.lines}
        expected = np.zeros(252)
        keys = np.array(list(by_action))
        weights = np.exp((np.array(list(by_action.values())) - max(by_action.values())) / 100.0)
        expected[keys] = weights / weights.sum()
        assert np.allclose(policy[i], expected, atol=1e-6)


def test_a_forced_win_takes_the_whole_policy():
    # Red's Lion next to Blue's den: entering it wins at once.
    vec = qi_games.VecGame("jungle", 1, position="7/3L3/7/7/7/7/7/7/6l w 0 1")
    policy, value, actions, scores = qi_games.BatchEngine("jungle", threads=1).targets(vec, depth=3)
    assert vec.game(0).action_to_move(int(actions[0])) == "d8d9"
    assert value[0] == 1.0 and policy[0, actions[0]] == pytest.approx(1.0)


def test_temperature_flattens_the_policy_and_inactive_games_get_nothing():
    vec = qi_games.VecGame("five-tigers", 3, seed=4, random_plies=4)
    engine = qi_games.BatchEngine("five-tigers", threads=1)

    def entropy(p):
        p = p[p > 0]
        return float(-(p * np.log(p)).sum())

    sharp, _, _, _ = engine.targets(vec, depth=2, temperature=10.0)
    flat, _, _, _ = engine.targets(vec, depth=2, temperature=1000.0)
    assert entropy(flat[0]) > entropy(sharp[0])
    policy, value, actions, scores = engine.targets(vec, depth=2, active=np.array([True, False, True]))
    assert (policy[1] == 0).all() and value[1] == 0 and actions[1] == -1 and scores[1] == 0
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="temperature must be a positive number"):
            engine.targets(vec, depth=1, temperature=bad)
        with pytest.raises(ValueError, match="value_scale must be a positive number"):
            engine.targets(vec, depth=1, value_scale=bad)
