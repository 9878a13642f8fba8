"""The qi engine (first) plays a random agent (second), through the
PettingZoo environment; prints the moves and the result.

    pip install "./crates/python[pettingzoo]"
    python examples/python/engine_vs_random.py [SPEC] [MOVETIME_MS]
"""

import random
import sys

import numpy as np

import qi_games
from qi_games.env import QiEnv


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else "jungle"
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    env = QiEnv(spec)
    env.reset(seed=0)
    engine = qi_games.Engine(spec)
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if agent == "first":
            found = engine.search(env.game, movetime_ms=movetime)
            action = env.game.move_to_action(found.best_move)
            note = f"{found.score_text} depth {found.depth}"
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            note = "random"
        move = env.game.action_to_move(action)
        print(f"{env.game.ply + 1:3} {agent:6} {move:7} {note}")
        env.step(action)
    outcome = env.game.outcome()
    print(f"result {outcome.result} ({outcome.reason})" if outcome else "truncated")


if __name__ == "__main__":
    main()
