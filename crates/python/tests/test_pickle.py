"""Everything a user holds pickles and copies, keeping the whole history."""

import copy
import multiprocessing
import pickle

import numpy as np

import qi_games
from qi_games.env import QiEnv

REPEATING = ["a3a4", "g7g6", "a4a3", "g6g7"]


def repeated_game() -> qi_games.Game:
    game = qi_games.Game("jungle:standard")
    for mv in REPEATING * 2:
        game.play(mv)
    return game


def same_game(a: qi_games.Game, b: qi_games.Game) -> None:
    assert a.spec == b.spec and a.start == b.start and a.position == b.position
    assert a.moves == b.moves and a.occurrences == b.occurrences
    assert np.array_equal(a.action_mask(), b.action_mask())
    assert np.array_equal(a.observation(), b.observation())
    assert a.record() == b.record()


def test_game_round_trips_with_its_history():
    game = repeated_game()
    assert game.occurrences == 3 and game.is_over()  # threefold: the history counts
    for clone in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game)):
        same_game(game, clone)
        assert clone.outcome() == game.outcome()
    custom = qi_games.Game("jungle:standard,rank_order=dog_over_wolf", "7/3L3/7/7/7/7/7/7/6l w 0 1")
    custom.play("d8d7")
    same_game(custom, pickle.loads(pickle.dumps(custom)))


def test_a_recorded_result_survives_pickling():
    game = qi_games.Game()
    game.play("a3a4")
    resigned = qi_games.Game.from_record(game.record().replace("*", "0-1"))
    assert resigned.outcome().reason == "resignation"
    for clone in (pickle.loads(pickle.dumps(resigned)), copy.deepcopy(resigned)):
        assert clone.outcome() == resigned.outcome() and clone.moves == ["a3a4"]


def test_value_objects_round_trip():
    game = repeated_game()
    outcome = game.outcome()
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    result = qi_games.Engine("five-tigers").search(qi_games.Game("five-tigers"), depth=2)
    for clone in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result)):
        assert clone == result and repr(clone) == repr(result)


def test_engines_round_trip_as_their_settings():
    engine = qi_games.Engine("five-tigers:ten", hash_mib=2, seed=9)
    for clone in (pickle.loads(pickle.dumps(engine)), copy.copy(engine), copy.deepcopy(engine)):
        assert clone.game == "five-tigers" and clone.hash_mib == 2 and clone.seed == 9
        assert clone.search(qi_games.Game("five-tigers"), depth=2).best_move is not None
    batch = qi_games.BatchEngine("jungle", threads=2, hash_mib=1)
    clone = pickle.loads(pickle.dumps(batch))
    assert clone.game == "jungle" and clone.threads == 2


def test_vec_game_round_trips_mid_stream():
    vec = qi_games.VecGame("five-tigers:ten", 6, seed=3, random_plies=4, max_plies=60)
    for _ in range(25):
        vec.step(vec.sample_actions())
    for clone in (pickle.loads(pickle.dumps(vec)), copy.copy(vec), copy.deepcopy(vec)):
        assert clone.records() == vec.records() and clone.max_plies == 60
        assert np.array_equal(clone.observations(), vec.observations())
    # The random stream continues where it was: both copies play the same.
    clone = pickle.loads(pickle.dumps(vec))
    for _ in range(40):
        a, b = vec.sample_actions(), clone.sample_actions()
        assert np.array_equal(a, b)
        for x, y in zip(vec.step(a), clone.step(b)):
            assert np.array_equal(x, y)
    assert clone.positions() == vec.positions()


def test_env_round_trips():
    env = QiEnv("jungle:yeshou")
    env.reset(seed=0)
    for mv in REPEATING:
        env.step(env.game.move_to_action(mv))
    clone = pickle.loads(pickle.dumps(env))
    same_game(env.game, clone.game)
    assert clone.agent_selection == env.agent_selection
    same_game(copy.deepcopy(env).game, env.game)


def _play_out(seed: int) -> qi_games.Game:
    vec = qi_games.VecGame("five-tigers", 1, seed=seed, random_plies=6)
    return vec.game(0)


def test_games_come_back_from_a_process_pool():
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        games = pool.map(_play_out, [1, 2, 3])
    for seed, game in zip([1, 2, 3], games):
        same_game(game, _play_out(seed))
        assert game.ply == 6
