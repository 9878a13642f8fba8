"""Objects shared across Python threads: calls wait their turn, never fail
with "Already borrowed"."""

import threading

import numpy as np

import qi_games


def run_together(*targets):
    errors = []

    def guard(target):
        try:
            target()
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=guard, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_vec_game_steps_while_another_thread_reads():
    vec = qi_games.VecGame("jungle", 256, seed=1)
    stop = threading.Event()

    def stepper():
        for _ in range(200):
            vec.step(vec.sample_actions())
        stop.set()

    def reader():
        while not stop.is_set():
            obs = vec.observations()
            masks = vec.action_masks()
            assert obs.shape[0] == masks.shape[0] == 256

    run_together(stepper, reader, reader)


def test_game_plays_while_an_engine_searches_it():
    game = qi_games.Game("jungle")
    engine = qi_games.Engine("jungle")
    results = []

    def search():
        results.append(engine.search(game, depth=6))

    def play():
        rng = np.random.default_rng(0)
        for _ in range(50):
            if game.is_over():
                break
            game.play(str(rng.choice(game.legal_moves())))

    run_together(search, play, search)
    assert len(results) == 2 and all(r.best_move for r in results)


def calls_passed_while_waiting(loop_call, call, most=400):
    """How many calls of another thread's loop on one object complete while
    this thread's one call waits its turn (the loop stops after ``most``)."""
    done = 0
    started, stop = threading.Event(), threading.Event()

    def loop():
        nonlocal done
        while not stop.is_set() and done < most:
            loop_call()
            done += 1
            started.set()

    looper = threading.Thread(target=loop)
    looper.start()
    try:
        assert started.wait(60)
        before = done
        call()
        return done - before
    finally:
        stop.set()
        looper.join()


def test_a_waiting_search_gets_the_next_turn_on_a_busy_engine():
    # Calls on one object are served in the order they came: a thread's
    # search waits for the search in progress, not for the other thread's
    # whole loop (an unfair lock let the loop take it back for seconds).
    engine = qi_games.Engine("jungle", hash_mib=1)
    game = qi_games.Game("jungle")
    passed = calls_passed_while_waiting(lambda: engine.search(game, nodes=20_000), lambda: engine.search(game, nodes=100))
    assert passed <= 2


def test_records_get_the_next_turn_while_another_thread_steps():
    vec = qi_games.VecGame("jungle", 1024, seed=1)
    passed = calls_passed_while_waiting(lambda: vec.step(vec.sample_actions()), vec.records, most=2000)
    # Each loop turn is two calls (sample_actions, step): a step may finish
    # between the record's request and its turn, and one more may be half done.
    assert passed <= 2
