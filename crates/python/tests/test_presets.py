"""Gymnasium's checker and PettingZoo's API test on every preset."""

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from conftest import ALL_SPECS
from qi_games.env import QiEnv
from qi_games.gym import QiGymEnv


@pytest.mark.parametrize("spec", ALL_SPECS)
@pytest.mark.parametrize("side", ["first", "second"])
def test_check_env_on_every_preset_and_side(spec, side):
    check_env(QiGymEnv(spec, agent_side=side, max_plies=100))


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_api_test_on_every_preset(spec):
    api_test(QiEnv(spec, max_plies=200), num_cycles=100)
