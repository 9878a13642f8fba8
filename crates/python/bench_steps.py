"""Environment steps per second for random play: single games (the native
Game, and the PettingZoo environment) and the batched VecGame.

    python crates/python/bench_steps.py [SECONDS_PER_CASE]

Random actions are drawn from the legal-action mask in every case, so the
figures include mask building; they are what a self-play loop sees.
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


def batched(spec: str, n: int, rng: np.random.Generator) -> float:
    vec, steps, start = qi_games.VecGame(spec, n), 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        masks = vec.action_masks()
        vec.observations()
        # One random legal action per game: argmax of random keys on the mask.
        keys = rng.random(masks.shape) * masks
        vec.step(keys.argmax(axis=1).astype(np.int64))
        steps += n
    return steps / (time.perf_counter() - start)


def main() -> None:
    rng = np.random.default_rng(0)
    for spec in ("jungle", "five-tigers"):
        print(f"{spec:12} single Game        {single(spec, rng):>12,.0f} steps/s")
        print(f"{spec:12} PettingZoo AEC     {pettingzoo(spec, rng):>12,.0f} steps/s")
        for n in (64, 1024):
            print(f"{spec:12} VecGame n={n:<5}   {batched(spec, n, rng):>12,.0f} steps/s (with observations)")


if __name__ == "__main__":
    main()
