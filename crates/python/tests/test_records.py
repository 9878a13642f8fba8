"""Records written by Python read back to the same game; bad records raise."""

import pytest

import qi_games
from conftest import ALL_SPECS, random_game


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_records_round_trip(spec, rng):
    for _ in range(3):
        game = random_game(spec, rng, max_plies=120)
        text = game.record()
        back = qi_games.Game.from_record(text)
        assert back.moves == game.moves
        assert back.position == game.position
        assert back.spec == game.spec
        assert back.record() == text
        if game.is_over():
            assert back.outcome().result == game.outcome().result


def test_a_record_from_a_position():
    game = qi_games.Game("jungle:datou", "7/3L3/7/7/7/7/7/7/6l w 0 1")
    game.play("d8d9")
    back = qi_games.Game.from_record(game.record())
    # The position text names its rules when they are not standard.
    assert back.start == "7/3L3/7/7/7/7/7/7/6l w 0 1 datou"
    assert back.outcome().winner == "first"


@pytest.mark.parametrize(
    "text",
    [
        "",
        '[Game "jungle"]\n\n1. a3a5 *\n',
        '[Game "chess"]\n\n*\n',
        '[Game "jungle"\n\n*\n',
    ],
)
def test_bad_records_raise(text):
    with pytest.raises(ValueError):
        qi_games.Game.from_record(text)
