"""Boards as SVG and as RGB pictures (Gymnasium's rgb_array) for the
single, PettingZoo and vector environments."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test

import qi_games
from conftest import ALL_SPECS
from qi_games.env import QiEnv
from qi_games.gym import QiGymEnv, QiVectorEnv


def test_the_svg_is_the_drawing_of_qi_render():
    svg = qi_games.Game("jungle", moves=["a3a4"]).svg()
    assert svg.startswith("<svg") and "象" in svg and "Elephant" in svg
    assert 'data-sq="a4"' in svg
    assert qi_games.Game("five-tigers").svg(caption=True).count("<svg") == 1
    assert qi_games.Game("jungle").svg(flip=True) != qi_games.Game("jungle").svg()


def test_rgb_arrays_show_the_board():
    picture = qi_games.Game("jungle").rgb_array()
    assert picture.shape == (572, 452, 3) and picture.dtype == np.uint8
    red, green, blue = picture[338, 114].astype(int)  # the centre of b4: water
    assert blue > red + 50 and blue > green
    red, green, blue = picture[518, 54].astype(int)  # a1: Red's Tiger, a red disc
    assert red > green + 60 and red > blue + 60
    flipped = qi_games.Game("jungle").rgb_array(flip=True)
    red, green, blue = flipped[518, 54].astype(int)  # Blue's Lion seen from below
    assert blue > red + 60
    assert qi_games.Game("five-tigers").rgb_array(scale=0.5).shape == (210, 210, 3)
    for bad in (0.0, -1.0, float("nan"), 100.0):
        with pytest.raises(ValueError, match="scale must be positive"):
            qi_games.Game("jungle").rgb_array(scale=bad)


def test_vec_game_rgb_arrays_match_each_game():
    vec = qi_games.VecGame("five-tigers", 3, seed=2, random_plies=5)
    pictures = vec.rgb_arrays(scale=0.5)
    assert pictures.shape == (3, 210, 210, 3)
    for i in range(3):
        assert np.array_equal(pictures[i], vec.game(i).rgb_array(scale=0.5))


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_gym_env_passes_the_checker_in_rgb_array_mode(spec):
    env = QiGymEnv(spec, render_mode="rgb_array", max_plies=40)
    check_env(env, skip_render_check=False)
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8


def test_pettingzoo_env_renders_rgb_arrays():
    env = QiEnv("jungle", render_mode="rgb_array", max_plies=20)
    render_test(lambda render_mode=None: QiEnv("jungle", render_mode=render_mode, max_plies=20))
    env.reset()
    assert env.render().shape == (572, 452, 3)


def test_vector_env_renders_every_game():
    env = QiVectorEnv("jungle", 4, render_mode="rgb_array", seed=0)
    env.reset(seed=0)
    frames = env.render()
    assert isinstance(frames, tuple) and len(frames) == 4
    assert all(f.shape == (572, 452, 3) for f in frames)
    assert QiVectorEnv("jungle", 2).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        QiVectorEnv("jungle", 2, render_mode="human")
