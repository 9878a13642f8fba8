"""The PettingZoo environment as a user meets it: finished starts, seeding,
options, render modes, the end of the agent list, names, max_plies, and the
message when an extra is missing."""

import subprocess
import sys

import numpy as np
import pytest

import qi_games
from qi_games.env import QiEnv

FINISHED = "5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0"


def test_a_finished_start_is_refused_clearly():
    assert qi_games.Game("five-tigers", FINISHED).is_over()
    with pytest.raises(ValueError, match=r"already decided \(1-0, no legal move\)"):
        QiEnv("five-tigers", position=FINISHED)
    with pytest.raises(ValueError, match="already decided"):
        qi_games.VecGame("five-tigers", 4, FINISHED)
    env = QiEnv("five-tigers")
    with pytest.raises(ValueError, match="already decided"):
        env.reset(options={"position": FINISHED})


def test_reset_seed_seeds_the_action_spaces():
    env = QiEnv()
    env.reset(seed=7)
    first = [env.action_space(a).sample() for a in ("first", "second") for _ in range(5)]
    env.reset(seed=7)
    again = [env.action_space(a).sample() for a in ("first", "second") for _ in range(5)]
    assert first == again


def test_reset_options_position():
    text = "7/3L3/7/7/7/7/7/7/6l w 0 1"
    env = QiEnv()
    env.reset(options={"position": text})
    assert env.game.position == text
    env.reset()
    assert env.game.ply == 0 and env.game.position == qi_games.Game().position
    with pytest.warns(UserWarning, match="unknown option"):
        env.reset(options={"postion": text})


def test_render_modes(capsys):
    with pytest.raises(ValueError, match="render_mode 'rgb' is not supported"):
        QiEnv(render_mode="rgb")
    env = QiEnv(render_mode="ansi")
    env.reset()
    env.step(env.game.move_to_action("a3a4"))
    assert capsys.readouterr().out == ""  # stepping prints nothing
    board = env.render()
    assert board.count("\n") >= 9 and "a  b  c" in board
    human = QiEnv(render_mode="human")
    human.reset()
    assert human.render() is None
    assert "a  b  c" in capsys.readouterr().out
    assert QiEnv().render() is None


def test_after_every_agent_is_done():
    env = QiEnv("jungle", position="7/3L3/7/7/7/7/7/7/6l w 0 1")
    env.reset()
    env.step(env.game.move_to_action("d8d9"))  # den entered
    for agent in env.agent_iter(max_iter=10):
        _, _, termination, _, _ = env.last()
        assert termination
        env.step(None)
    assert env.agents == []
    obs, reward, termination, truncation, info = env.last()
    assert termination and not truncation and info["reason"] == "den entered"
    assert reward in (1.0, -1.0)
    env.step(None)  # still harmless
    with pytest.raises(ValueError, match="only action is None"):
        env.step(0)


def test_names_differ_by_game():
    assert QiEnv("jungle").metadata["name"] == "qi_jungle_v1"
    assert QiEnv("five-tigers:ten").metadata["name"] == "qi_five_tigers_v1"


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_max_plies_must_be_positive(bad):
    with pytest.raises(ValueError, match="max_plies"):
        QiEnv(max_plies=bad)


def test_max_plies_one_stops_after_one_move():
    env = QiEnv(max_plies=1)
    env.reset()
    env.step(int(np.flatnonzero(env.observe("first")["action_mask"])[0]))
    assert all(env.truncations.values()) and env.game.ply == 1


def missing_extra_message(module: str, missing: str) -> str:
    """What importing ``module`` prints when ``missing`` is not installed."""
    script = f"import sys; sys.modules[{missing!r}] = None\nimport {module}"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode != 0
    return run.stderr


def test_missing_extras_name_the_extra():
    message = missing_extra_message("qi_games.env", "pettingzoo")
    assert "ImportError" in message and 'pip install "qi-games[pettingzoo]"' in message
