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
