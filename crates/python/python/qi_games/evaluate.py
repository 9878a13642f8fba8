"""Playing a policy against an engine level, random play or another
policy: N games with the sides alternated, W/D/L and an Elo estimate.

A policy is any callable taking a batch of observations (float32,
``(n, planes, ranks, files)``, each seen by its side to move) and of masks
(bool, ``(n, num_actions)``) and returning one legal action per row::

    from qi_games.evaluate import evaluate

    def greedy(obs, masks):
        return np.where(masks, my_net(obs), -np.inf).argmax(axis=1)

    result = evaluate("jungle", greedy, opponent=1, games=100)    # engine level 1
    result = evaluate("jungle", greedy, opponent="random", games=100)
    result = evaluate("jungle", greedy, opponent=other_policy, games=100)
    print(result)   # for 60 wins, 20 draws, 20 losses: "100 games: +60 =20 -20, score 0.700, Elo +147 ± 65 (95 %)"

Every game is played at once on one :class:`qi_games.VecGame` (so a
policy sees batches, and the engine searches them on all its threads);
game ``i`` has the policy as the first side when ``i`` is even. A game
still going after ``max_plies`` plies counts as a draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional, Union

import numpy as np

from ._qi import BatchEngine, VecGame

#: A policy: (observations, masks) → actions.
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Result:
    """The outcome of a match, from the policy's side."""

    wins: int
    draws: int
    losses: int
    #: Each game's record, in game order (even games: the policy played first).
    records: list[str] = field(repr=False, default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def elo(self) -> float:
        """The Elo difference the score stands for (±inf for a clean sweep)."""
        s = self.score
        if s <= 0.0:
            return -math.inf
        if s >= 1.0:
            return math.inf
        return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # no -0

    @property
    def elo_error(self) -> float:
        """The half-width of the 95 % interval of :attr:`elo`: the score's
        standard error over the games' outcomes (1, ½, 0), carried to Elo
        through the slope of the logistic curve (inf for a clean sweep)."""
        s, n = self.score, self.games
        if s <= 0.0 or s >= 1.0:
            return math.inf
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        standard_error = math.sqrt(variance / n)
        slope = 400.0 / (math.log(10) * s * (1 - s))
        return 1.96 * standard_error * slope

    def __str__(self) -> str:
        return (
            f"{self.games} games: +{self.wins} ={self.draws} -{self.losses}, score {self.score:.3f}, "
            f"Elo {self.elo:+.0f} ± {self.elo_error:.0f} (95 %)"
        )


def _check_games(games: object) -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 1 <= games <= 1 << 18:
        raise ValueError(f"games must be an integer from 1 to {1 << 18}, not {games!r}")
    return int(games)


def evaluate(
    spec: str,
    policy: Policy,
    opponent: Union[int, str, Policy] = 1,
    games: int = 100,
    *,
    opponent_limits: Optional[dict[str, int]] = None,
    max_plies: int = 400,
    seed: int = 0,
    random_plies: int = 0,
) -> Result:
    """Plays ``policy`` against ``opponent`` for ``games`` games of ``spec``,
    the policy first in the even games and second in the odd ones.

    ``opponent``: an engine level (1 the weakest to 10 the full engine;
    searched within ``opponent_limits``, by default ``{"nodes": 1000}``,
    its choices drawn from ``seed``), ``"random"`` (uniform legal moves),
    or another policy. ``random_plies`` opens every game with that many
    random plies (from ``seed``), for variety between deterministic
    players. Returns the policy's wins, draws and losses."""
    n = _check_games(games)
    engine: Optional[BatchEngine] = None
    if isinstance(opponent, (int, np.integer)) and not isinstance(opponent, bool):
        engine = BatchEngine(spec, seed=seed)
        limits = dict(opponent_limits or {"nodes": 1000})
    elif not (opponent == "random" or callable(opponent)):
        raise ValueError(f"opponent is an engine level (1 to 10), 'random' or a policy, not {opponent!r}")
    vec = VecGame(spec, n, seed=seed, random_plies=random_plies, max_plies=max_plies)
    policy_side = np.arange(n) % 2  # 0: the policy plays first
    going = np.ones(n, dtype=bool)
    result = np.zeros(n, dtype=np.int8)  # the policy's: 1 win, 0 draw, -1 loss
    records: list[Optional[str]] = [None] * n
    while going.any():
        mine = going & (vec.to_move() == policy_side)
        theirs = going & ~mine
        actions = np.zeros(n, dtype=np.int64)
        if mine.any():
            actions[mine] = _ask(policy, vec, mine)
        if theirs.any():
            if engine is not None:
                found, _ = engine.search(vec, active=theirs, level=int(opponent), **limits)  # type: ignore[arg-type]
                actions[theirs] = found[theirs]
            elif opponent == "random":
                actions[theirs] = vec.sample_actions()[theirs]
            else:
                actions[theirs] = _ask(opponent, vec, theirs)  # type: ignore[arg-type]
        rewards, terminated, truncated = vec.step(actions, active=going)
        ended = going & (terminated | truncated)
        if ended.any():
            finals = vec.final_records()
            for i in np.flatnonzero(ended):
                # The reward is the mover's; the mover was the policy in its games.
                sign = 1 if mine[i] else -1
                result[i] = int(np.sign(rewards[i])) * sign if terminated[i] else 0
                records[i] = finals[i]
            going &= ~ended
    return Result(
        wins=int((result == 1).sum()),
        draws=int((result == 0).sum()),
        losses=int((result == -1).sum()),
        records=[r or "" for r in records],
    )


def _ask(policy: Policy, vec: VecGame, rows: np.ndarray) -> np.ndarray:
    """The policy's actions in the games ``rows`` marks, checked for shape."""
    obs = vec.observations()[rows]
    masks = vec.action_masks()[rows]
    actions = np.asarray(policy(obs, masks))
    if actions.shape != (int(rows.sum()),):
        raise ValueError(f"a policy returns one action per row: shape {(int(rows.sum()),)}, not {actions.shape}")
    return actions
