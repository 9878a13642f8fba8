"""Training an agent to beat the engine's level 1 on 2 cores, in NumPy alone.

    python examples/python/train_vs_level.py [SPEC] [--minutes M] [--depth D] [--quick]

Distillation of a full-strength search into a policy network. Each round
plays a batch of games in which every move is made by one of four
players drawn at random: the full engine at depth D (default 3; 30 % of
the moves), level 1 (30 %), the network itself (greedy, 20 %) and a
uniformly random mover (20 %), so that the positions cover good play,
level 1's play, the network's own mistakes and the blunders it must
punish. Every position, whichever side is to move, is labelled by
``BatchEngine.targets`` at depth D: the policy target is the softmax of
every root move's score at 5 centi-units (a sharp target: shallow scores
differ by tens of centi-units), the value target ``tanh(score / 200)``.
Each position is also mirrored by the game's symmetries, for twice
(Jungle) or eight times (Five Tigers) the data. The network
(``alphazero_numpy.Net``: one hidden layer of 256 units, softmax policy
over the legal actions, tanh value) trains by Adam on a replay buffer of
the last 200,000 positions, four samples per fresh position.

Training stops after M minutes (default 25); then ``qi_games.evaluate``
plays the network, greedy (the most probable legal action, no search),
against level 1 for 100 games, the sides alternated.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the search threads use the cores

import numpy as np  # noqa: E402

import qi_games  # noqa: E402
from alphazero_numpy import Net  # noqa: E402
from qi_games.evaluate import evaluate  # noqa: E402
from qi_games.symmetry import symmetries  # noqa: E402

LEVEL = 1
#: Level 1's search budget, as `evaluate` gives it by default.
LEVEL_LIMITS = {"nodes": 1000}
#: Positions kept in the replay buffer (stored as uint8 planes).
BUFFER = 200_000
#: Of the targets: the policy's temperature and the value's scale, in centi-units.
TEMPERATURE, VALUE_SCALE = 5.0, 200.0
#: The share of the moves each player makes while collecting: the engine,
#: level 1, the network; the rest are random.
ENGINE, LEVEL_SHARE, NETWORK = 0.3, 0.3, 0.2


def planes(obs: np.ndarray) -> np.ndarray:
    """The network's input: observations (float32 or uint8 × 255) flattened."""
    x = obs.reshape(len(obs), int(np.prod(obs.shape[1:])))
    return x.astype(np.float32) / 255 if x.dtype == np.uint8 else x


def collect(net, spec, engine, level, games, plies, depth, rng, seed):
    """The positions of one round of games, each with the search's policy
    and value targets."""
    vec = qi_games.VecGame(spec, games, seed=seed, random_plies=4, max_plies=plies)
    xs, masks, policies, values = [], [], [], []
    for _ in range(plies):
        obs, mask = vec.observations(dtype="uint8"), vec.action_masks()
        policy, value, best, _ = engine.targets(vec, depth=depth, temperature=TEMPERATURE, value_scale=VALUE_SCALE)
        xs.append(obs)
        masks.append(mask)
        policies.append(policy)
        values.append(value)
        player = rng.random(games)
        actions = vec.sample_actions()
        from_level = player < ENGINE + LEVEL_SHARE
        if from_level.any():
            found, _ = level.search(vec, active=from_level, level=LEVEL, **LEVEL_LIMITS)
            actions[from_level] = found[from_level]
        actions = np.where(player < ENGINE, best, actions)
        from_net = (player >= ENGINE + LEVEL_SHARE) & (player < ENGINE + LEVEL_SHARE + NETWORK)
        if from_net.any():
            actions[from_net] = net.policy(planes(obs[from_net]), mask[from_net]).argmax(axis=1)
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
    parser.add_argument("--depth", type=int, default=3, help="of the searches that label positions (default 3)")
    parser.add_argument("--quick", action="store_true", help="one tiny round and 4 games (the tests run it)")
    options = parser.parse_args()
    spec, minutes, quick = options.spec, options.minutes, options.quick
    games, plies, depth, eval_games, hidden = (8, 16, 1, 4, 32) if quick else (64, 120, options.depth, 100, 256)
    rng = np.random.default_rng(0)
    probe = qi_games.Game(spec)
    net = Net(int(np.prod(probe.observation_shape)), probe.num_actions, hidden, rng)
    engine = qi_games.BatchEngine(spec)
    level = qi_games.BatchEngine(spec, seed=1)
    start = time.perf_counter()
    buffer = None
    rounds = 0
    while rounds == 0 or (not quick and time.perf_counter() - start < minutes * 60):
        fresh = augment(spec, collect(net, spec, engine, level, games, plies, depth, rng, seed=rounds))
        # How often the network, before training on them, already chose the search's best move.
        agreement = (net.policy(planes(fresh[0]), fresh[1]).argmax(axis=1) == fresh[2].argmax(axis=1)).mean()
        buffer = fresh if buffer is None else tuple(np.concatenate([b, f])[-BUFFER:] for b, f in zip(buffer, fresh))
        x, m, p, v = buffer
        for _ in range(max(1, 4 * len(fresh[0]) // 256)):
            idx = rng.integers(0, len(x), 256)
            pl, vl = net.train_step(planes(x[idx]), m[idx], p[idx], v[idx])
        rounds += 1
        print(f"round {rounds}: {len(x)} positions, agreement {agreement:.2f}, policy loss {pl:.3f}, "
              f"value loss {vl:.3f} ({time.perf_counter() - start:.0f} s)", flush=True)

    def greedy(obs, masks):
        return net.policy(planes(obs), masks).argmax(axis=1)

    result = evaluate(spec, greedy, opponent=LEVEL, games=eval_games, opponent_limits=LEVEL_LIMITS,
                      random_plies=4, seed=12345)
    print(f"against level {LEVEL}: {result} ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
