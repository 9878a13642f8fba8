"""The Gymnasium environments: the single-agent env against random, the
engine or a callable (Gymnasium's own checker), and the vector env over
VecGame."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import qi_games
from qi_games.gym import EngineOpponent, QiGymEnv, QiVectorEnv
from test_env_fixes import FINISHED, missing_extra_message


def first_legal(env: QiGymEnv) -> int:
    return int(np.flatnonzero(env.action_masks())[0])


@pytest.mark.parametrize(
    "make",
    [
        lambda: QiGymEnv("jungle", max_plies=200),
        lambda: QiGymEnv("five-tigers:ten", agent_side="second", max_plies=200),
        lambda: QiGymEnv("five-tigers", opponent=EngineOpponent("five-tigers", nodes=100), max_plies=100),
        lambda: QiGymEnv("jungle", opponent=lambda game: game.legal_moves()[0], agent_side="random"),
        lambda: QiGymEnv("jungle", render_mode="ansi"),
    ],
)
def test_gymnasium_check_env(make):
    check_env(make(), skip_render_check=False)


@pytest.mark.parametrize("env_id", ["qi_games/Jungle-v1", "qi_games/FiveTigers-v1"])
def test_registered_envs_pass_the_checker_in_every_render_mode(env_id):
    import gymnasium

    env = gymnasium.make(env_id, max_plies=100)
    check_env(env.unwrapped)  # the spec lets the checker try each render mode


def test_a_game_against_random_to_the_end():
    env = QiGymEnv("five-tigers:ten", agent_side="second")
    obs, info = env.reset(seed=3)
    assert env.game.ply >= 1 and env.game.side_to_move == "second"  # the opponent opened
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"].astype(bool), info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert terminated and env.game.is_over()
    winner = env.game.outcome().winner
    assert total == (0 if winner is None else (1 if winner == "second" else -1))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_actions_lose_or_raise():
    env = QiGymEnv("jungle")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(251)
    assert reward == -1 and terminated and info["illegal_action"]
    strict = QiGymEnv("jungle", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not a legal move"):
        strict.step(251)
    assert strict.game.ply == 0


def test_the_engine_opponent_wins_against_a_poor_player():
    # The agent always plays its first legal action; the engine at depth 2
    # punishes it well before the 300th ply.
    env = QiGymEnv("jungle", opponent=EngineOpponent("jungle", depth=2), max_plies=300)
    env.reset(seed=0)
    while True:
        _, reward, terminated, truncated, _ = env.step(first_legal(env))
        if terminated or truncated:
            break
    assert terminated and reward == -1


def test_reset_options_and_refusals():
    env = QiGymEnv("jungle")
    obs, _ = env.reset(options={"position": "7/3L3/7/7/7/7/7/7/6l w 0 1"})
    _, reward, terminated, _, info = env.step(env.game.move_to_action("d8d9"))
    assert reward == 1 and terminated and info["reason"] == "den entered"
    with pytest.raises(ValueError, match="already decided"):
        QiGymEnv("five-tigers", position=FINISHED)
    with pytest.raises(ValueError, match="opponent"):
        QiGymEnv(opponent="engine")
    with pytest.raises(ValueError, match="render_mode"):
        QiGymEnv(render_mode="rgb")


def test_self_play_vector_env():
    env = QiVectorEnv("five-tigers:ten", num_envs=8, seed=1)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    ends = 0
    for _ in range(200):
        actions = env.vec.sample_actions()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert rewards.dtype == np.float32 and rewards.shape == (8,)
        if terminated.any():
            ends += int(terminated.sum())
            assert np.array_equal(info["_final_obs"], terminated | truncated)
            for i in np.flatnonzero(terminated):
                game = qi_games.Game.from_record(info["final_record"][i])
                assert game.is_over()
                assert np.array_equal(info["final_obs"]["observation"][i], game.observation())
    assert ends > 0


def test_vector_env_against_random_and_the_batch_engine():
    for opponent, limits in [("random", None), (qi_games.BatchEngine("five-tigers", threads=2), {"nodes": 100})]:
        env = QiVectorEnv("five-tigers:ten", num_envs=6, opponent=opponent, opponent_limits=limits, agent_side="second", seed=2)
        obs, _ = env.reset(seed=2)
        results = []
        for _ in range(300):
            assert (env.vec.to_move() == 1).all()  # the agent is always to move
            obs, rewards, terminated, truncated, info = env.step(env.vec.sample_actions())
            for i in np.flatnonzero(terminated):
                game = qi_games.Game.from_record(info["final_record"][i])
                winner = game.outcome().winner
                assert rewards[i] == (0 if winner is None else (1 if winner == "second" else -1))
                assert np.array_equal(info["final_obs"]["observation"][i], game.observation("second"))
                results.append(rewards[i])
        assert results
        if opponent != "random":
            assert np.mean(results) < 0  # the engine beats random play


def test_vector_env_is_reproducible():
    def run():
        env = QiVectorEnv("jungle", num_envs=4, opponent="random", max_plies=50)
        env.reset(seed=9)
        for _ in range(60):
            env.step(env.vec.sample_actions())
        return env.vec.records()

    assert run() == run()


def test_missing_gymnasium_names_the_extra():
    message = missing_extra_message("qi_games.gym", "gymnasium")
    assert 'pip install "qi-games[gymnasium]"' in message


def test_opponents_at_a_level():
    env = QiGymEnv("five-tigers", opponent=EngineOpponent("five-tigers", depth=4, level=2, seed=1), max_plies=60)
    check_env(env)
    vec = QiVectorEnv(
        "five-tigers", 4, opponent=qi_games.BatchEngine("five-tigers", threads=2), opponent_limits={"depth": 4, "level": 2}, seed=0
    )
    vec.reset(seed=0)
    for _ in range(20):
        vec.step(vec.vec.sample_actions())
    assert (vec.vec.to_move() == 0).all()


@pytest.mark.parametrize("opponent", [None, "random"])
def test_vector_env_follows_the_vector_api(opponent):
    # Gymnasium 1.x ships no checker for vector envs: these are the checks
    # check_env makes, applied to a batch.
    env = QiVectorEnv("jungle:yeshou", num_envs=5, opponent=opponent, random_plies=2, max_plies=40)
    assert env.metadata["autoreset_mode"].value == "SameStep"
    first, info = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    assert isinstance(info, dict)
    for key in ("observation", "action_mask"):
        assert np.array_equal(first[key], again[key])
    assert env.observation_space.contains(first)
    actions = env.action_space.sample()
    assert env.action_space.contains(actions) and actions.shape == (5,)
    runs = []
    for _ in range(2):
        obs, _ = env.reset(seed=11)
        trace = []
        for _ in range(45):
            legal = env.vec.sample_actions()
            new_obs, rewards, terminated, truncated, info = env.step(legal)
            assert new_obs["observation"] is not obs["observation"]  # fresh arrays each step
            assert env.observation_space.contains(new_obs)
            assert rewards.shape == terminated.shape == truncated.shape == (5,)
            assert rewards.dtype == np.float32 and terminated.dtype == truncated.dtype == np.bool_
            trace.append((new_obs["observation"].copy(), rewards.copy(), terminated.copy(), truncated.copy()))
            obs = new_obs
        runs.append(trace)
    assert any(t[3].any() for t in runs[0])  # max_plies was reached along the way
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_gym_envs_pickle():
    import pickle

    env = QiGymEnv("five-tigers", opponent=EngineOpponent("five-tigers", depth=2), agent_side="second")
    env.reset(seed=4)
    env.step(first_legal(env))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.game.record() == env.game.record() and clone.side == "second"
    a = env.step(first_legal(env))
    b = clone.step(first_legal(clone))
    assert clone.game.record() == env.game.record() and a[1:4] == b[1:4]
    vec = QiVectorEnv("jungle", 3, opponent="random", seed=1)
    vec.reset(seed=1)
    copy_ = pickle.loads(pickle.dumps(vec))
    actions = vec.vec.sample_actions()
    assert np.array_equal(actions, copy_.vec.sample_actions())
    vec.step(actions)
    copy_.step(actions)
    assert copy_.vec.records() == vec.vec.records()
