"""Shared helpers of the qi_games tests."""

import pathlib
import random

import pytest

import qi_games

REPO = pathlib.Path(__file__).resolve().parents[3]

JUNGLE_PRESETS = ["standard", "yeshou", "datou", "traditional"]
TIGER_PRESETS = ["shandong", "shandong-shuttle", "ten", "deferred"]
ALL_SPECS = [f"jungle:{p}" for p in JUNGLE_PRESETS] + [f"five-tigers:{p}" for p in TIGER_PRESETS]


def random_game(spec: str, rng: random.Random, max_plies: int = 200) -> qi_games.Game:
    """A game of ``spec`` played by uniformly random legal moves."""
    game = qi_games.Game(spec)
    while not game.is_over() and game.ply < max_plies:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)
