"""The observation is Markov: it carries the no-capture count, the
repetition counts and the anti-chase state, so equal observations come with
equal legal actions and equal ends, whatever history led to them."""

import numpy as np
import pytest

import qi_games

# Jungle planes of the board alone (what the observation held before the
# history planes were added).
JUNGLE_BOARD_PLANES = 22


def collect(spec: str, games: int, max_plies: int, rng: np.random.Generator, planes=None):
    """Maps each observation (bytes) to the masks and ends seen with it."""
    seen: dict[bytes, set[tuple[bytes, bool]]] = {}
    for _ in range(games):
        game = qi_games.Game(spec)
        while True:
            obs = game.observation()
            if planes is not None:
                obs = obs[:planes]
            key = (obs.tobytes(), game.side_to_move)
            seen.setdefault(key, set()).add((game.action_mask().tobytes(), game.is_over()))
            if game.is_over() or game.ply >= max_plies:
                break
            game.play_action(int(rng.choice(np.flatnonzero(game.action_mask()))))
    return seen


def clashes(seen) -> int:
    return sum(1 for variants in seen.values() if len(variants) > 1)


@pytest.mark.parametrize(
    "spec, games",
    [
        ("jungle:yeshou", 100),
        ("jungle:standard", 100),
        ("jungle:datou", 30),
        ("five-tigers:shandong", 80),
        ("five-tigers:ten", 80),
    ],
)
def test_equal_observations_have_equal_masks_and_ends(spec, games):
    seen = collect(spec, games, 2000, np.random.default_rng(1))
    assert clashes(seen) == 0


def test_the_board_planes_alone_are_not_markov():
    # The check above has teeth: on the same games, the board planes alone
    # (the observation before it carried the history rules' state) meet
    # positions with equal planes and different masks.
    seen = collect("jungle:yeshou", 100, 2000, np.random.default_rng(1), planes=JUNGLE_BOARD_PLANES)
    assert clashes(seen) > 0


def test_history_planes_of_jungle():
    game = qi_games.Game("jungle:yeshou")
    for mv in ["a3a4", "g7g6", "a4a3", "g6g7"] * 3:
        game.play(mv)
    obs = game.observation()
    # Red's Elephant entered a4 three times in its last seven moves: the
    # 7-3 rule forbids it a4 now (plane 26 + Elephant 7), seen from Red.
    assert obs[26 + 7, 3, 0] == 1 and obs[26:34].sum() == 1
    assert "a3a4" not in game.legal_moves()
    # Its last move entered a3 (rank 2, file a), the Elephant: (7 + 1) / 8.
    assert obs[34, 2, 0] == 1.0
    # Its run of twelve... six moves by the Elephant: 6 / 17 on a3 and a4.
    assert obs[48, 2, 0] == pytest.approx(6 / 17) and obs[48, 3, 0] == pytest.approx(6 / 17)


def test_no_capture_plane():
    game = qi_games.Game("jungle:standard,no_capture_draw=100")
    for mv in ["a3a4", "g7g6", "a4a3", "g6g7"]:
        game.play(mv)
    assert np.all(game.observation()[22] == pytest.approx(4 / 100))
    tigers = qi_games.Game("five-tigers:shandong", "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0")
    tigers.play("c3-c4")
    assert tigers.observation()[14].max() > 0


def test_repetition_planes():
    game = qi_games.Game("jungle:standard")
    for mv in ["a3a4", "g7g6", "a4a3", "g6g7"]:
        game.play(mv)
    obs = game.observation()
    assert game.occurrences == 2 and obs[23].all() and not obs[24].any()
    tigers = qi_games.Game("five-tigers")
    assert not tigers.observation()[15].any()
