"""The evaluation helper: a policy against a level, random play or another
policy, sides alternated, W/D/L and Elo."""

import math

import numpy as np
import pytest

from qi_games.evaluate import Result, evaluate


def random_policy(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, masks: np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_random_play_loses_to_the_weakest_level():
    result = evaluate("five-tigers", random_policy(0), opponent=1, games=20, opponent_limits={"nodes": 200})
    assert result.games == 20 and result.wins == 0 and result.losses >= 15
    assert result.elo < -200 or math.isinf(result.elo)


def test_sides_alternate_and_runs_replay():
    calls = []

    def first_legal(obs, masks):
        # Every observation is seen by the side to move (plane 3: to move).
        assert (obs[:, 3] == 1).all()
        calls.append(len(obs))
        return masks.argmax(axis=1)

    result = evaluate("five-tigers:ten", first_legal, opponent="random", games=6, max_plies=60, seed=3)
    assert calls[0] == 3  # the policy moves first in games 0, 2 and 4
    assert len(result.records) == 6 and all('[Game "five-tigers:ten"]' in r for r in result.records)
    again = evaluate("five-tigers:ten", lambda o, m: m.argmax(axis=1), opponent="random", games=6, max_plies=60, seed=3)
    assert again == result
    both = evaluate("jungle", random_policy(1), opponent=random_policy(2), games=4, max_plies=30)
    assert both.draws == 4  # 30 random plies decide nothing


def test_elo_and_its_error():
    r = Result(60, 20, 20)
    assert r.score == pytest.approx(0.7)
    assert r.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    per_game = np.array([1.0] * 60 + [0.5] * 20 + [0.0] * 20)
    se = per_game.std() / math.sqrt(100)
    slope = 400 / (math.log(10) * 0.7 * 0.3)
    assert r.elo_error == pytest.approx(1.96 * se * slope)
    assert str(r) == "100 games: +60 =20 -20, score 0.700, Elo +147 ± 65 (95 %)"
    assert Result(10, 0, 0).elo == math.inf and Result(0, 0, 3).elo == -math.inf
    assert Result(0, 5, 0).elo == 0.0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="games must be an integer"):
        evaluate("jungle", random_policy(0), games=0)
    with pytest.raises(ValueError, match="opponent is an engine level"):
        evaluate("jungle", random_policy(0), opponent="strong")
    with pytest.raises(ValueError, match="one action per row"):
        evaluate("jungle", lambda obs, masks: np.zeros(1, dtype=np.int64), opponent="random", games=4)
    with pytest.raises(ValueError, match="level must be 1 to 10"):
        evaluate("jungle", random_policy(0), opponent=11, games=2)


def test_observations_cross_dlpack_without_a_copy():
    import qi_games

    vec = qi_games.VecGame("jungle", 4)
    obs = vec.observations()
    assert obs.flags.c_contiguous and np.shares_memory(np.from_dlpack(obs), obs)
    buffer = np.empty_like(obs)
    assert vec.observations(out=buffer) is buffer
    masks = vec.action_masks()
    assert masks.flags.c_contiguous and np.shares_memory(np.from_dlpack(masks), masks)
