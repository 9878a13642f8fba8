"""Error messages name what was wrong, and the small promises of the API
(a version, every seed used, the docs' example output)."""

import importlib.metadata
import re

import numpy as np
import pytest

import qi_games
from conftest import REPO


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: qi_games.Engine(seed=-1), "seed"),
        (lambda: qi_games.VecGame("jungle", 2, seed=-1), "seed"),
        (lambda: qi_games.BatchEngine("jungle", seed=-1), "seed"),
        (lambda: qi_games.VecGame("jungle", 2).reset(seed=-1), "seed"),
        (lambda: qi_games.Engine().search(qi_games.Game(), depth=-1), "depth"),
        (lambda: qi_games.perft("jungle", -1), "depth"),
        (lambda: qi_games.Game().perft(-1), "depth"),
        (lambda: qi_games.VecGame("jungle", 2, random_plies=-1), "random_plies"),
        (lambda: qi_games.VecGame("jungle", 2, max_plies=-1), "max_plies"),
        (lambda: qi_games.VecGame("jungle", -1), "n"),
        (lambda: qi_games.Engine(hash_mib=-1), "hash_mib"),
        (lambda: qi_games.Engine().search(qi_games.Game(), nodes=-1), "nodes"),
        (lambda: qi_games.Engine().search(qi_games.Game(), depth=1, level=-1), "level"),
        (lambda: qi_games.BatchEngine("jungle", threads=-1), "threads"),
    ],
)
def test_a_negative_integer_is_a_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be .*, not -1$"):
        call()


def test_a_negative_game_index_is_an_index_error():
    with pytest.raises(IndexError, match=r"game index -1 is out of range \(0\.\.2\)"):
        qi_games.VecGame("jungle", 2).game(-1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: qi_games.Engine().search(qi_games.Game(), depth=True),
        lambda: qi_games.perft("jungle", True),
        lambda: qi_games.VecGame("jungle", True),
        lambda: qi_games.Engine().search(qi_games.Game(), depth=2.0),
    ],
)
def test_a_bool_or_float_is_not_an_integer(call):
    with pytest.raises(TypeError, match="expected an integer, not (bool|float)"):
        call()


def test_a_uint64_action_is_reported_by_its_value():
    vec = qi_games.VecGame("jungle", 3)
    before = vec.positions()
    actions = np.full(3, 2**64 - 1, dtype=np.uint64)
    with pytest.raises(ValueError, match=r"game 0: action 18446744073709551615 is outside the action space \(0\.\.252\)"):
        vec.step(actions)
    assert vec.positions() == before
    with pytest.raises(ValueError, match="action 18446744073709551615 is outside"):
        qi_games.Game().play_action(np.uint64(2**64 - 1))
    with pytest.raises(ValueError, match=r"game 1: action -1 is outside the action space"):
        vec.step(np.array([56, -1, 56]))


def test_the_package_has_a_version():
    assert qi_games.__version__ == importlib.metadata.version("qi-games")
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", qi_games.__version__)


def test_reset_with_a_seed_per_game_uses_every_seed():
    vec = qi_games.VecGame("jungle", 4, random_plies=8)
    vec.reset(seed=[1, 2, 3, 4])
    first = vec.positions()
    vec.reset(seed=[1, 2, 3, 5])
    second = vec.positions()
    assert first[:3] == second[:3] and first[3] != second[3]
    # Game i goes as the one game of a VecGame made with seed[i].
    for i, seed in enumerate([1, 2, 3, 5]):
        assert qi_games.VecGame("jungle", 1, seed=seed, random_plies=8).positions() == [second[i]]
    with pytest.raises(ValueError, match="seed is a sequence of 3 seeds for 4 games"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(TypeError, match="seed is None, an integer or a sequence"):
        vec.reset(seed="x")


def test_the_docs_example_move_list_is_the_real_order():
    docs = (REPO / "docs" / "python.md").read_text()
    shown = re.search(r"game\.legal_moves\(\)\s+# \[(.*?), \.\.\.\]", docs)
    assert shown, "docs/python.md shows the start of a legal move list"
    moves = [m.strip().strip("'") for m in shown.group(1).split(",")]
    assert qi_games.Game("jungle:datou").legal_moves()[: len(moves)] == moves
