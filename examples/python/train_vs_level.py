"""Training an agent to beat the engine's level 1 on 2 cores, in NumPy alone.

    python examples/python/train_vs_level.py [SPEC] [--minutes M] [--temperature T] [--quick]

Imitation of the search where the agent plays (DAgger): each round the
network, sampling from its policy, plays a batch of games against level 1
(sides alternated, random openings); every position where it is to move
is labelled by ``BatchEngine.targets`` (the softmax of every root move's
score at depth 2, at T centi-units (default 100), as the policy target,
the search's value as the value target), and mirrored by the game's symmetries for twice (Jungle) or eight
times (Five Tigers) the data. The network (``alphazero_numpy.Net``: one
hidden layer, softmax policy over the legal actions, tanh value) trains
by Adam on a replay buffer of the last rounds. Training stops after M
minutes (default 25); then ``qi_games.evaluate`` plays the greedy network
against level 1 for 100 games, the sides alternated.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the search threads use the cores

import numpy as np  # noqa: E402

import qi_games  # noqa: E402
from alphazero_numpy import Net, flat  # noqa: E402
from qi_games.evaluate import evaluate  # noqa: E402
from qi_games.symmetry import symmetries  # noqa: E402

LEVEL = 1
#: Level 1's search budget, as `evaluate` gives it by default.
LEVEL_LIMITS = {"nodes": 1000}


def collect(net, spec, engine, opponent, games, plies, depth, temperature, rng, seed):
    """The agent's positions of one round of games against the level, each
    with the search's policy and value targets."""
    vec = qi_games.VecGame(spec, games, seed=seed, random_plies=4, max_plies=plies)
    agent_side = np.arange(games) % 2
    xs, masks, policies, values = [], [], [], []
    for _ in range(plies):
        mine = vec.to_move() == agent_side
        obs, mask = vec.observations(), vec.action_masks()
        actions = np.zeros(games, dtype=np.int64)
        if mine.any():
            policy, value, _, _ = engine.targets(vec, depth=depth, active=mine, temperature=temperature)
            xs.append(obs[mine])
            masks.append(mask[mine])
            policies.append(policy[mine])
            values.append(value[mine])
            probs = net.policy(flat(obs[mine]), mask[mine])
            keys = rng.random(len(probs))
            actions[mine] = (probs.cumsum(axis=1) > keys[:, None]).argmax(axis=1)
        if (~mine).any():
            found, _ = opponent.search(vec, active=~mine, level=LEVEL, **LEVEL_LIMITS)
            actions[~mine] = found[~mine]
        vec.step(actions)
    return tuple(np.concatenate(part) for part in (xs, masks, policies, values))


def augment(spec, data):
    """Each position under each of the game's symmetries."""
    x, m, p, v = data
    out = [(s.observations(x), s.masks(m), s.masks(p), v) for s in symmetries(spec)]
    return tuple(np.concatenate(part) for part in zip(*out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("spec", nargs="?", default="jungle")
    parser.add_argument("--minutes", type=float, default=25.0, help="training time (default 25)")
    parser.add_argument("--temperature", type=float, default=100.0, help="of the policy targets (default 100)")
    parser.add_argument("--quick", action="store_true", help="one tiny round and 4 games (the tests run it)")
    options = parser.parse_args()
    spec, minutes, temperature, quick = options.spec, options.minutes, options.temperature, options.quick
    games, plies, depth, eval_games, hidden = (8, 16, 1, 4, 32) if quick else (64, 120, 2, 100, 256)
    rng = np.random.default_rng(0)
    probe = qi_games.Game(spec)
    net = Net(int(np.prod(probe.observation_shape)), probe.num_actions, hidden, rng)
    engine = qi_games.BatchEngine(spec)
    opponent = qi_games.BatchEngine(spec, seed=1)
    start = time.perf_counter()
    buffer = None
    rounds = 0
    while rounds == 0 or (not quick and time.perf_counter() - start < minutes * 60):
        fresh = augment(spec, collect(net, spec, engine, opponent, games, plies, depth, temperature, rng, seed=rounds))
        keep = 6 * len(fresh[0])  # the last six rounds or so
        buffer = fresh if buffer is None else tuple(np.concatenate([b, f])[-keep:] for b, f in zip(buffer, fresh))
        x, m, p, v = buffer
        for _ in range(2):  # epochs
            order = rng.permutation(len(x))
            for b in range(0, len(x), 256):
                idx = order[b : b + 256]
                pl, vl = net.train_step(flat(x[idx]), m[idx], p[idx], v[idx])
        rounds += 1
        print(f"round {rounds}: {len(x)} positions, policy loss {pl:.3f}, value loss {vl:.3f} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)

    def greedy(obs, masks):
        return net.policy(flat(obs), masks).argmax(axis=1)

    result = evaluate(spec, greedy, opponent=LEVEL, games=eval_games, opponent_limits=LEVEL_LIMITS,
                      random_plies=4, seed=12345)
    print(f"against level {LEVEL}: {result} ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
