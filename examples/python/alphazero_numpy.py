"""An AlphaZero-style training loop in NumPy alone, on 2 cores in minutes.

    python examples/python/alphazero_numpy.py [SPEC] [ITERATIONS] [--quick]

Each iteration:

1. self-play: ``VecGame`` games played by the current network (moves
   sampled from its masked policy, random openings for variety);
2. search as the policy-improvement operator: every position is searched
   by ``BatchEngine`` at a small node budget, as AlphaZero searches with
   MCTS, and the searched move is the policy target (the value target is
   the game's result for the side to move);
3. training: a small policy/value network (one hidden layer, ReLU; softmax
   policy over the legal actions, tanh value) by Adam on the cross-entropy
   and squared errors.

Before and after, the network (greedy over the legal actions) plays 2×N
games on ``QiVectorEnv`` against uniformly random play and against the
engine at the same node budget, half with each side; the score is
(wins + draws / 2) / games. The figures of a run are in docs/python.md.
"""

from __future__ import annotations

import os
import sys
import time

# One BLAS thread: the search threads use the cores, and OpenBLAS's
# spinning workers slowed the small matrix products a hundredfold on a
# loaded machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import qi_games  # noqa: E402
from qi_games.gym import QiVectorEnv  # noqa: E402


class Net:
    """Observation → (policy logits over actions, value), one hidden layer."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "wp": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
            "bp": np.zeros(actions, np.float32),
            "wv": rng.normal(0, 0.01, (hidden, 1)).astype(np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0)
        return h @ p["wp"] + p["bp"], np.tanh(h @ p["wv"] + p["bv"])[:, 0], h

    def policy(self, x: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits, _, _ = self.forward(x)
        logits = np.where(masks, logits, -1e9)
        e = np.exp(logits - logits.max(axis=1, keepdims=True)) * masks
        return e / e.sum(axis=1, keepdims=True)

    def train_step(self, x, masks, targets, values, lr: float = 1e-3) -> tuple[float, float]:
        """One Adam step on a batch; ``targets`` are actions (one per row)
        or distributions over the actions (one row each)."""
        p = self.params
        logits, v, h = self.forward(x)
        logits = np.where(masks, logits, -1e9)
        e = np.exp(logits - logits.max(axis=1, keepdims=True)) * masks
        probs = e / e.sum(axis=1, keepdims=True)
        n = len(x)
        value_loss = ((v - values) ** 2).mean()
        d_logits = probs.copy()
        if targets.ndim == 1:
            policy_loss = -np.log(probs[np.arange(n), targets] + 1e-9).mean()
            d_logits[np.arange(n), targets] -= 1
        else:
            policy_loss = -(targets * np.log(probs + 1e-9)).sum(axis=1).mean()
            d_logits -= targets
        d_logits /= n
        d_v = (2 * (v - values) / n * (1 - v**2))[:, None]
        grads = {
            "wp": h.T @ d_logits,
            "bp": d_logits.sum(0),
            "wv": h.T @ d_v,
            "bv": d_v.sum(0),
        }
        d_h = (d_logits @ p["wp"].T + d_v @ p["wv"].T) * (h > 0)
        grads["w1"] = x.T @ d_h
        grads["b1"] = d_h.sum(0)
        self.steps += 1
        for k, g in grads.items():
            m, s = self.moments[k]
            m[:] = 0.9 * m + 0.1 * g
            s[:] = 0.999 * s + 0.001 * g * g
            m_hat = m / (1 - 0.9**self.steps)
            s_hat = s / (1 - 0.999**self.steps)
            p[k] -= lr * m_hat / (np.sqrt(s_hat) + 1e-8)
        return float(policy_loss), float(value_loss)


def flat(obs: np.ndarray) -> np.ndarray:
    return obs.reshape(len(obs), -1)


def self_play(net, spec, engine, nodes, games, plies, rng, seed):
    """Positions of self-play games, each with the searched move and the
    game's result for the side to move."""
    vec = qi_games.VecGame(spec, games, seed=seed, random_plies=4, max_plies=plies)
    xs, masks, targets, movers, game_ids, episode = [], [], [], [], [], np.zeros(games, dtype=np.int64)
    results: dict[tuple[int, int], np.ndarray] = {}
    for _ in range(plies):
        obs, mask = flat(vec.observations()), vec.action_masks()
        searched, _ = engine.search(vec, nodes=nodes)
        probs = net.policy(obs, mask)
        keys = rng.random(probs.shape)
        actions = (probs.cumsum(axis=1) > keys[:, :1]).argmax(axis=1)  # one sample per row
        actions = np.where(mask[np.arange(games), actions], actions, searched)
        xs.append(obs)
        masks.append(mask)
        targets.append(searched)
        movers.append(vec.to_move().copy())
        game_ids.append(np.stack([np.arange(games), episode.copy()], axis=1))
        rewards, terminated, truncated = vec.step(actions)
        sides = movers[-1]
        for i in np.flatnonzero(terminated | truncated):
            # The result for the first side, from the mover's reward.
            first = rewards[i] if sides[i] == 0 else -rewards[i]
            results[(i, episode[i])] = first
            episode[i] += 1
    values = []
    for ids, sides in zip(game_ids, movers):
        first = np.array([results.get((i, e), 0.0) for i, e in ids], dtype=np.float32)
        values.append(np.where(sides == 0, first, -first))
    return (np.concatenate(xs), np.concatenate(masks), np.concatenate(targets), np.concatenate(values))


def evaluate(net, spec, opponent, limits, games, plies, seed) -> float:
    """The network's score against ``opponent``, half its games with each side."""
    score = 0.0
    for side in ("first", "second"):
        env = QiVectorEnv(spec, games, opponent=opponent, opponent_limits=limits, agent_side=side,
                          random_plies=2, max_plies=plies, seed=seed)
        obs, _ = env.reset(seed=seed)
        done = np.zeros(games, dtype=bool)
        while not done.all():
            probs = net.policy(flat(obs["observation"]), obs["action_mask"].astype(bool))
            obs, rewards, terminated, truncated, _ = env.step(probs.argmax(axis=1))
            ended = (terminated | truncated) & ~done
            score += float(((rewards[ended] + 1) / 2).sum())
            done |= ended
    return score / (2 * games)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    spec = args[0] if args else "jungle"
    iterations = int(args[1]) if len(args) > 1 else (1 if quick else 6)
    games, plies, nodes, eval_games = (16, 20, 16, 8) if quick else (128, 60, 64, 100)
    rng = np.random.default_rng(0)
    probe = qi_games.Game(spec)
    net = Net(int(np.prod(probe.observation_shape)), probe.num_actions, 128, rng)
    engine = qi_games.BatchEngine(spec)
    start = time.perf_counter()

    def report(label: str) -> None:
        vs_random = evaluate(net, spec, "random", None, eval_games, 200, seed=1000)
        vs_engine = evaluate(net, spec, engine, {"nodes": nodes}, eval_games, 200, seed=2000)
        print(f"{label:>9}: score {vs_random:.3f} against random, {vs_engine:.3f} against "
              f"the engine at {nodes} nodes ({time.perf_counter() - start:.0f} s)", flush=True)

    report("before")
    data = None
    for it in range(iterations):
        fresh = self_play(net, spec, engine, nodes, games, plies, rng, seed=it)
        # A replay buffer of the last three iterations.
        data = fresh if data is None else tuple(np.concatenate([d[-2 * len(f):], f]) for d, f in zip(data, fresh))
        x, m, t, v = data
        for _ in range(3 if quick else 4):  # epochs
            order = rng.permutation(len(x))
            for b in range(0, len(x), 256):
                idx = order[b : b + 256]
                pl, vl = net.train_step(x[idx], m[idx], t[idx], v[idx])
        print(f"iteration {it + 1}: {len(x)} positions, policy loss {pl:.3f}, value loss {vl:.3f}", flush=True)
    report("after")


if __name__ == "__main__":
    main()
