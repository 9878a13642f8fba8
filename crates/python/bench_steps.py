"""Environment steps per second for random play, with the legal-action mask
and the observation built at every step (what a self-play loop pays):

* single games: the native ``Game`` and the PettingZoo AEC environment;
* ``VecGame`` at n = 64 and 1,024: observations into a reused buffer,
  masks, actions drawn in Rust (``sample_actions``), ``step``;
* OpenSpiel's random play with the mask and the observation tensor on
  breakthrough and checkers, when ``pyspiel`` is installed
  (``pip install open_spiel``), for a side-by-side figure.

    python crates/python/bench_steps.py [SECONDS_PER_CASE]

Everything runs on one thread (one core).
"""

import sys
import time

import numpy as np

import qi_games

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


def single(spec: str, rng: np.random.Generator) -> float:
    game, steps, start = qi_games.Game(spec), 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        for _ in range(1000):
            if game.is_over():
                game = qi_games.Game(spec)
            game.observation()
            game.play_action(int(rng.choice(np.flatnonzero(game.action_mask()))))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo(spec: str, rng: np.random.Generator) -> float:
    from qi_games.env import QiEnv

    env, steps, start = QiEnv(spec), 0, time.perf_counter()
    env.reset()
    while time.perf_counter() - start < SECONDS:
        for _ in range(1000):
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def batched(spec: str, n: int, dtype: str) -> float:
    vec = qi_games.VecGame(spec, n, seed=0)
    obs = np.zeros((n, *vec.observation_shape), dtype=dtype)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        vec.observations(dtype=dtype, out=obs)
        vec.action_masks()
        vec.step(vec.sample_actions())
        steps += n
    return steps / (time.perf_counter() - start)


def openspiel(name: str, rng: np.random.Generator) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    state, steps, start = game.new_initial_state(), 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            np.asarray(state.observation_tensor(), dtype=np.float32)
            mask = np.asarray(state.legal_actions_mask(), dtype=bool)
            state.apply_action(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    rng = np.random.default_rng(0)
    for spec in ("jungle", "five-tigers"):
        print(f"{spec:12} single Game          {single(spec, rng):>12,.0f} steps/s")
        print(f"{spec:12} PettingZoo AEC       {pettingzoo(spec, rng):>12,.0f} steps/s")
        for n in (64, 1024):
            for dtype in ("float32", "uint8"):
                rate = batched(spec, n, dtype)
                print(f"{spec:12} VecGame n={n:<5} {dtype:7} {rate:>12,.0f} steps/s")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel not installed (pip install open_spiel): skipped")
        return
    for name in ("breakthrough", "checkers"):
        print(f"{name:12} OpenSpiel            {openspiel(name, rng):>12,.0f} steps/s")


if __name__ == "__main__":
    main()
