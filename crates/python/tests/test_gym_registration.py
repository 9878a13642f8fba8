"""The Gymnasium ids on `import qi_games`, masks through Gymnasium's
wrappers, `make_vec`, the docs' Gymnasium block as written, and the
environments' refusals (step before reset, bad seeds and options)."""

import re
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import qi_games
from conftest import REPO
from qi_games.env import QiEnv
from qi_games.gym import EngineOpponent, QiGymEnv, QiVectorEnv


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_import_qi_games_registers_the_ids():
    done = run(
        "import sys, gymnasium, qi_games\n"
        "assert 'qi_games.gym' not in sys.modules\n"
        "for name in ('Jungle', 'FiveTigers'):\n"
        "    env = gymnasium.make(f'qi_games/{name}-v1')\n"
        "    env.reset(seed=0)\n"
        "    print(type(env.unwrapped).__name__, env.unwrapped.game.spec)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["QiGymEnv jungle:standard", "QiGymEnv five-tigers:shandong"]


def test_the_docs_gymnasium_block_runs_as_written():
    docs = (REPO / "docs" / "python.md").read_text()
    section = docs[docs.index("### Gymnasium") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    done = run(block.group(1))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ["Jungle", "FiveTigers"])
def test_action_masks_are_reachable_through_gymnasium_make(name):
    env = gymnasium.make(f"qi_games/{name}-v1", max_plies=200)
    _, info = env.reset(seed=0)
    for _ in range(5):
        unwrapped = env.unwrapped.action_masks()
        # What sb3-contrib's DummyVecEnv.env_method("action_masks") calls.
        through = env.get_wrapper_attr("action_masks")()
        assert np.array_equal(unwrapped, info["action_mask"]) and np.array_equal(through, unwrapped)
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(unwrapped)[0]))
        if terminated or truncated:
            break


def test_make_vec_builds_one_batched_env():
    env = gymnasium.make_vec("qi_games/Jungle-v1", num_envs=8, max_plies=50)
    assert isinstance(env, QiVectorEnv) and env.num_envs == 8 and env.opponent == "random"
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == (8, 50, 9, 7)
    masks = obs["action_mask"].astype(bool)
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    env.step(actions)
    engine = gymnasium.make_vec("qi_games/FiveTigers-v1", num_envs=4, opponent=EngineOpponent("five-tigers", depth=2))
    assert isinstance(engine.opponent, qi_games.BatchEngine) and engine.opponent_limits == {"depth": 2}
    selfplay = gymnasium.make_vec("qi_games/FiveTigers-v1", num_envs=4, opponent=None)
    assert selfplay.opponent is None
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make_vec("qi_games/Jungle-v1", num_envs=2, illegal_action="lose")
    with pytest.raises(ValueError, match="opponent"):
        gymnasium.make_vec("qi_games/Jungle-v1", num_envs=2, opponent=lambda game: 0)


def test_step_before_reset_is_refused():
    env = QiGymEnv("jungle")
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(56)
    assert env.game.ply == 0


def test_bad_seeds_and_options_are_named():
    with pytest.raises(TypeError, match="seed must be None or an integer, not str"):
        QiEnv("jungle").reset(seed="x")
    with pytest.raises(ValueError, match="seed must be a non-negative integer, not -1"):
        QiEnv("jungle").reset(seed=-1)
    with pytest.raises(TypeError, match="seed must be None or an integer"):
        QiGymEnv("jungle").reset(seed="x")
    with pytest.raises(TypeError, match="options must be None or a dict"):
        QiGymEnv("jungle").reset(options="x")
    with pytest.raises(TypeError, match="options must be None or a dict"):
        QiEnv("jungle").reset(options="x")
    with pytest.raises(TypeError, match=r"options\['position'\] must be a position text"):
        QiEnv("jungle").reset(options={"position": 3})


def test_vector_reset_uses_every_seed():
    env = QiVectorEnv("jungle", 4, random_plies=8)
    env.reset(seed=[1, 2, 3, 4])
    first = env.vec.positions()
    env.reset(seed=[1, 2, 3, 5])
    second = env.vec.positions()
    assert first[:3] == second[:3] and first[3] != second[3]
    env.reset(seed=[1, 2, 3, 4])
    assert env.vec.positions() == first
    with pytest.raises(ValueError, match="a list of 4 non-negative integers"):
        env.reset(seed=[1, 2])


@pytest.mark.parametrize(
    "module, blocked, extra",
    [("qi_games.env", "pettingzoo", "pettingzoo"), ("qi_games.gym", "gymnasium", "gymnasium")],
)
def test_a_missing_extra_says_the_command_that_works(module, blocked, extra):
    done = run(
        "import sys\n"
        f"sys.modules['{blocked}'] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    assert done.returncode == 0, done.stderr
    assert f'pip install "./crates/python[{extra}]"' in done.stdout
    assert f'once qi-games is published on PyPI, pip install "qi-games[{extra}]"' in done.stdout
