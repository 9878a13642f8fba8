"""Actions of any integer type are taken; other types are refused clearly."""

import numpy as np
import pytest

import qi_games
from qi_games.env import QiEnv

RED_ELEPHANT_UP = 14 * 4  # a3a4


@pytest.mark.parametrize(
    "make",
    [
        lambda a: np.array(a, dtype=np.int32),
        lambda a: np.array(a, dtype=np.uint8),
        lambda a: np.array(a, dtype=np.int16),
        lambda a: np.array(a, dtype=np.uint64),
        list,
        tuple,
        lambda a: np.repeat(np.array(a, dtype=np.int64), 2)[::2],  # a strided view
    ],
)
def test_vec_game_step_takes_any_integer_array_like(make):
    vec = qi_games.VecGame("jungle", 3)
    before = vec.positions()
    vec.step(make([RED_ELEPHANT_UP] * 3))
    assert all(p != b for p, b in zip(vec.positions(), before))
    assert vec.game(0).moves == ["a3a4"]


@pytest.mark.parametrize(
    "actions, dtype",
    [
        (np.array([56.0, 56.0]), "float64"),
        (np.array([56.0, 56.0], dtype=np.float32), "float32"),
        (np.array([True, False]), "bool"),
        ([56.5, 56], "float64"),
    ],
)
def test_vec_game_step_refuses_floats_and_bools_naming_the_dtype(actions, dtype):
    vec = qi_games.VecGame("jungle", 2)
    with pytest.raises(TypeError, match=f"dtype {dtype}"):
        vec.step(actions)
    assert vec.game(0).ply == 0


def test_vec_game_step_refuses_arrays_of_another_shape():
    vec = qi_games.VecGame("jungle", 2)
    with pytest.raises(ValueError, match="1-D"):
        vec.step(np.zeros((2, 1), dtype=np.int64))


def test_negative_actions_are_value_errors():
    game = qi_games.Game()
    with pytest.raises(ValueError, match="action -1 is outside the action space"):
        game.play_action(-1)
    with pytest.raises(ValueError, match="outside the action space"):
        game.action_to_move(-5)
    env = QiEnv()
    env.reset()
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(-1)
    vec = qi_games.VecGame("jungle", 2)
    with pytest.raises(ValueError, match="game 0: action -1"):
        vec.step([-1, RED_ELEPHANT_UP])


@pytest.mark.parametrize("bad", [56.7, 56.0, "56", True, np.bool_(True), None, [56]])
def test_actions_that_are_not_integers_are_type_errors(bad):
    game = qi_games.Game()
    with pytest.raises(TypeError, match="an action is an integer"):
        game.play_action(bad)
    env = QiEnv()
    env.reset()
    with pytest.raises(TypeError, match="an action is an integer"):
        env.step(bad)
    assert env.game.ply == 0


def test_numpy_integer_scalars_are_actions():
    game = qi_games.Game()
    game.play_action(np.int32(RED_ELEPHANT_UP))
    assert game.moves == ["a3a4"]
    game.undo()
    game.play_action(np.uint8(RED_ELEPHANT_UP))
    assert game.moves == ["a3a4"]
