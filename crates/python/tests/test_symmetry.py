"""Board symmetries: round trips, and against the rules (every move of
random games played through each symmetry is legal in the image game,
with the image's observations and masks)."""

import random

import numpy as np
import pytest

import qi_games
from conftest import ALL_SPECS
from qi_games.symmetry import symmetries


def mirror_jungle_text(text: str) -> str:
    """A JFEN position mirrored left to right."""
    board, rest = text.split(" ", 1)
    ranks = []
    for rank in board.split("/"):
        cells = "".join("." * int(c) if c.isdigit() else c for c in rank)[::-1]
        packed, run = "", 0
        for c in cells:
            if c == ".":
                run += 1
                continue
            packed += (str(run) if run else "") + c
            run = 0
        ranks.append(packed + (str(run) if run else ""))
    return "/".join(ranks) + " " + rest


def image_start(spec: str, name: str) -> qi_games.Game:
    start = qi_games.Game(spec)
    if spec.startswith("jungle") and name == "mirror":
        return qi_games.Game(spec, mirror_jungle_text(start.position))
    return start  # Five Tigers starts on an empty board, its own image


def test_each_game_has_its_group():
    assert [s.name for s in symmetries("jungle:datou")] == ["identity", "mirror"]
    assert len(symmetries("five-tigers:ten")) == 8
    for spec in ("jungle", "five-tigers"):
        group = symmetries(spec)
        assert np.array_equal(group[0].action_map, np.arange(len(group[0].action_map)))
        maps = {tuple(s.action_map) for s in group}
        assert len(maps) == len(group)  # distinct
        for s in group:
            # Permutations of the action space and of the cells.
            assert sorted(s.action_map) == list(range(len(s.action_map)))
            assert sorted(s.cells) == list(range(len(s.cells)))


@pytest.mark.parametrize("spec", ["jungle", "five-tigers"])
def test_round_trips_on_batches(spec):
    rng = np.random.default_rng(0)
    game = qi_games.Game(spec)
    obs = rng.random((6, *game.observation_shape)).astype(np.float32)
    masks = rng.random((6, game.num_actions)) < 0.3
    actions = rng.integers(0, game.num_actions, size=(2, 3))
    for s in symmetries(spec):
        assert np.array_equal(s.inverse.observations(s.observations(obs)), obs)
        assert np.array_equal(s.inverse.masks(s.masks(masks)), masks)
        assert np.array_equal(s.inverse.actions(s.actions(actions)), actions)
        # An action is in a mask exactly when its image is in the image mask.
        image = s.masks(masks)
        rows = np.arange(6)[:, None]
        cols = np.arange(game.num_actions)[None, :]
        assert np.array_equal(image[rows, s.actions(cols)], masks)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_symmetries_agree_with_the_rules(spec):
    rng = random.Random(7)
    for sym in symmetries(spec):
        for _ in range(3):
            game = qi_games.Game(spec)
            image = image_start(spec, sym.name)
            for _ in range(120):
                if game.is_over():
                    break
                assert np.array_equal(sym.masks(game.action_mask()), image.action_mask()), (sym.name, game.record())
                for side in ("first", "second"):
                    assert np.array_equal(sym.observations(game.observation(side)), image.observation(side)), (
                        sym.name,
                        game.record(),
                    )
                action = rng.choice(np.flatnonzero(game.action_mask()).tolist())
                game.play_action(action)
                image.play_action(int(sym.actions(action)))  # legal in the image
            assert (game.outcome() is None) == (image.outcome() is None)
            if game.outcome() is not None:
                assert game.outcome().result == image.outcome().result
