"""VecGame for training loops: seeds, random openings, truncation,
auto-reset keeping the final state, texts and records, dtypes, the Rust
sampler, and the batched engine."""

import pickle

import numpy as np
import pytest

import qi_games
from conftest import REPO


def test_seed_and_random_openings_are_reproducible():
    a = qi_games.VecGame("jungle", 8, seed=5, random_plies=6)
    b = qi_games.VecGame("jungle", 8, seed=5, random_plies=6)
    c = qi_games.VecGame("jungle", 8, seed=6, random_plies=6)
    assert a.positions() == b.positions() and a.positions() != c.positions()
    assert (a.plies() == 6).all()
    assert len(set(a.positions())) > 1  # the openings differ between games
    for i in range(8):
        game = a.game(i)
        assert game.ply == 6 and not game.is_over()
    a.reset(seed=5)
    assert a.positions() == b.positions()


def test_sampled_actions_are_legal_and_seeded():
    vec = qi_games.VecGame("five-tigers", 64, seed=1)
    for _ in range(100):
        actions = vec.sample_actions()
        masks = vec.action_masks()
        assert actions.dtype == np.int64
        assert masks[np.arange(64), actions].all()
        vec.step(actions)
    again = qi_games.VecGame("five-tigers", 64, seed=1)
    for _ in range(100):
        again.step(again.sample_actions())
    assert again.records() == vec.records()


def test_truncation_at_max_plies_with_the_final_state_kept():
    vec = qi_games.VecGame("jungle", 4, seed=0, max_plies=10)
    for step in range(1, 11):
        rewards, terminated, truncated = vec.step(vec.sample_actions())
        if step < 10:
            assert not truncated.any() and not vec.final_mask().any()
    assert truncated.all() and not terminated.any() and (rewards == 0).all()
    # The games started again; the final observations and records are kept.
    assert (vec.plies() == 0).all()
    assert vec.final_mask().all()
    finals = vec.final_observations()
    records = vec.final_records()
    for i in range(4):
        game = qi_games.Game.from_record(records[i])
        assert game.ply == 10
        assert np.array_equal(finals[i], game.observation())
        assert np.array_equal(vec.final_observations(side="first")[i], game.observation("first"))
        # Ten plies: Blue (second) made the last move.
        assert np.array_equal(vec.final_observations(side="mover")[i], game.observation("second"))
    vec.step(vec.sample_actions())
    assert not vec.final_mask().any() and not vec.final_observations().any()


def test_terminations_and_rewards_match_single_games():
    vec = qi_games.VecGame("five-tigers:ten", 16, seed=2)
    ends = 0
    for _ in range(300):
        movers = vec.to_move()
        rewards, terminated, truncated = vec.step(vec.sample_actions())
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            ends += 1
            game = qi_games.Game.from_record(vec.final_records()[i])
            winner = game.outcome().winner
            side = ("first", "second")[movers[i]]
            assert rewards[i] == (0 if winner is None else (1 if winner == side else -1))
        assert (rewards[~terminated] == 0).all()
    assert ends > 0


def test_observation_dtypes():
    vec = qi_games.VecGame("jungle:standard,no_capture_draw=100", 2, seed=0, random_plies=3)
    floats = vec.observations()
    bytes_ = vec.observations(dtype="uint8")
    bools = vec.observations(dtype=np.bool_)
    assert floats.dtype == np.float32 and bytes_.dtype == np.uint8 and bools.dtype == np.bool_
    assert np.array_equal(bytes_, np.round(floats * 255).astype(np.uint8))
    assert np.array_equal(bools, floats > 0)
    assert (floats[:, 22] > 0).all()  # a fraction survives uint8 as value × 255
    with pytest.raises(ValueError, match="float32, uint8 or bool"):
        vec.observations(dtype="float64")


def test_sizes_and_texts():
    vec = qi_games.VecGame("five-tigers:ten", 3)
    assert vec.num_envs == len(vec) == 3 and vec.num_actions == 150
    assert vec.observation_shape == (17, 5, 5) and vec.spec == "five-tigers:ten"
    assert vec.positions() == [qi_games.Game("five-tigers:ten").position] * 3
    assert all('[Game "five-tigers:ten"]' in r for r in vec.records())
    with pytest.raises(IndexError, match="out of range"):
        vec.game(3)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="larger than random_plies"):
        qi_games.VecGame("jungle", 2, random_plies=10, max_plies=10)
    with pytest.raises(ValueError, match="n must be 1 to 262144, not 0"):
        qi_games.VecGame("jungle", 0)


def test_step_with_active_games_only():
    vec = qi_games.VecGame("jungle", 3)
    actions = np.array([56, -1, 56])  # the inactive game's action is ignored
    vec.step(actions, active=np.array([True, False, True]))
    assert list(vec.plies()) == [1, 0, 1]
    with pytest.raises(TypeError, match="boolean"):
        vec.step(actions, active=[1, 0, 1])


def test_batch_engine_finds_the_den_entry_in_every_game():
    # Red's Lion one step from the den; the engine must play it.
    position = "7/3L3/7/7/7/7/7/7/6l w 0 1"
    vec = qi_games.VecGame("jungle", 6, position)
    engine = qi_games.BatchEngine("jungle", threads=2, hash_mib=1)
    actions, scores = engine.search(vec, depth=2)
    game = qi_games.Game("jungle", position)
    assert list(actions) == [game.move_to_action("d8d9")] * 6
    assert (scores == qi_games.Engine("jungle", hash_mib=1).search(game, depth=2).score).all()
    _, terminated, _ = vec.step(actions)
    assert terminated.all()


def test_batch_engine_agrees_with_the_single_engine():
    # Each position is searched from a cleared table, so the answers do not
    # depend on which thread searched what before: they are those of a new
    # single engine with the same table size, run after run.
    vec = qi_games.VecGame("five-tigers", 8, seed=4, random_plies=5)
    engine = qi_games.BatchEngine("five-tigers", threads=2, hash_mib=1)
    batch, batch_scores = engine.search(vec, depth=3)
    again, _ = engine.search(vec, depth=3)
    assert np.array_equal(batch, again)
    for i in range(8):
        game = vec.game(i)
        found = qi_games.Engine("five-tigers", hash_mib=1).search(game, depth=3)
        assert batch[i] == game.move_to_action(found.best_move)
        assert batch_scores[i] == found.score
    active = np.arange(8) % 2 == 0
    some, scores = qi_games.BatchEngine("five-tigers", threads=1).search(vec, nodes=200, active=active)
    assert (some[~active] == -1).all() and (some[active] >= 0).all() and (scores[~active] == 0).all()


def test_observations_into_a_given_buffer():
    vec = qi_games.VecGame("jungle:yeshou", 4, seed=0, random_plies=8)
    for dtype in ("float32", "uint8", "bool"):
        buf = np.full((4, *vec.observation_shape), 7, dtype=dtype)
        returned = vec.observations(dtype=dtype, out=buf)
        assert returned is buf
        assert np.array_equal(buf, vec.observations(dtype=dtype))
    vec.step(vec.sample_actions())
    finals = np.ones((4, *vec.observation_shape), dtype=np.float32)
    vec.final_observations(out=finals)
    assert not finals.any()  # nothing ended: zeros are written, not left
    with pytest.raises(TypeError, match="dtype float64"):
        vec.observations(out=np.zeros((4, *vec.observation_shape)))
    with pytest.raises(ValueError, match="shape"):
        vec.observations(out=np.zeros((3, *vec.observation_shape), dtype=np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        vec.observations(out=np.zeros((8, *vec.observation_shape), dtype=np.float32)[::2])


def test_observations_of_vec_game_and_game_agree_for_every_dtype():
    vec = qi_games.VecGame("jungle:yeshou", 8, seed=3, random_plies=30)
    floats = vec.observations()
    for i in range(8):
        assert np.array_equal(floats[i], vec.game(i).observation())
    assert np.array_equal(vec.observations(dtype="uint8"), np.round(floats * 255).astype(np.uint8))


def suite(game: str) -> list[str]:
    path = REPO / "crates" / "engine" / "openings" / f"{game}.txt"
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def test_builtin_openings():
    texts = set(suite("jungle"))
    vec = qi_games.VecGame("jungle", 32, seed=1, openings="builtin")
    starts = {vec.game(i).start for i in range(32)}
    assert starts <= texts and len(starts) > 5  # drawn from the suite, not all alike
    assert (vec.plies() == 0).all()
    again = qi_games.VecGame("jungle", 32, seed=1, openings="builtin")
    assert again.positions() == vec.positions()
    # The restarted games draw again from the suite.
    vec2 = qi_games.VecGame("jungle", 4, seed=2, openings="builtin", max_plies=3, random_plies=1)
    for _ in range(2):  # the opening ply and two more: truncated
        _, _, truncated = vec2.step(vec2.sample_actions())
    assert truncated.all()
    assert all(qi_games.Game.from_record(r).start in texts for r in vec2.final_records())
    assert {vec2.game(i).start for i in range(4)} <= texts
    assert (vec2.plies() == 1).all()


def test_openings_from_a_list_and_pickling_them():
    texts = suite("five-tigers")[:3]
    vec = qi_games.VecGame("five-tigers", 6, seed=0, openings=texts, random_plies=2)
    assert {vec.game(i).start for i in range(6)} <= set(texts)
    for _ in range(5):
        vec.step(vec.sample_actions())
    clone = pickle.loads(pickle.dumps(vec))
    assert clone.records() == vec.records()
    for _ in range(60):
        a = vec.sample_actions()
        assert np.array_equal(a, clone.sample_actions())
        vec.step(a)
        clone.step(a)
    assert clone.records() == vec.records()
    with pytest.raises(ValueError, match="builtin"):
        qi_games.VecGame("jungle", 2, openings="mine")
    with pytest.raises(ValueError, match="opening 1"):
        qi_games.VecGame("jungle", 2, openings=[qi_games.Game().position, "not a position"])
    with pytest.raises(ValueError, match="already decided"):
        qi_games.VecGame("five-tigers", 2, openings=["5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0"])
