"""Gymnasium environments for Jungle and Five Tigers.

* :class:`QiGymEnv`: one game against an opponent (uniformly random legal
  moves, the engine at fixed nodes or depth, or any callable), for
  single-agent libraries; it passes ``gymnasium.utils.env_checker.check_env``.
* :class:`QiVectorEnv`: a :class:`gymnasium.vector.VectorEnv` over
  :class:`qi_games.VecGame`, either self-play (each action plays for its
  game's side to move) or against an opponent, with same-step auto-reset.

Observations are dicts: ``"observation"`` (float32 planes, the encodings of
``docs/python.md``) and ``"action_mask"`` (int8 over the action space).
Needs ``gymnasium`` (the ``gymnasium`` extra: ``pip install
"./crates/python[gymnasium]"`` from a checkout). With Gymnasium installed,
``import qi_games`` registers ``qi_games/Jungle-v1`` and
``qi_games/FiveTigers-v1`` for ``gymnasium.make`` (a :class:`QiGymEnv`) and
``gymnasium.make_vec`` (a :class:`QiVectorEnv`, through
:func:`make_vector_env`).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import numpy as np

from ._extras import require

_gymnasium = require("gymnasium", "gymnasium", "qi_games.gym (the Gymnasium environments)")

import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from ._qi import BatchEngine, Engine, Game, VecGame  # noqa: E402
from ._registration import register_gymnasium  # noqa: E402
from .env import (  # noqa: E402
    RENDER_MODES,
    check_max_plies,
    check_render_mode,
    check_seed,
    env_name,
    position_option,
    start_game,
)

SIDES = ("first", "second")

#: A callable opponent: given the game (a copy), returns an action or a move text.
OpponentFn = Callable[[Game], Union[int, str]]


class EngineOpponent:
    """The qi search as an opponent, at a fixed ``depth`` or ``nodes`` (or
    ``movetime_ms``) per move, at strength ``level`` (1 to 10, None: the
    full engine; the weaker levels' choices come from ``seed``);
    deterministic for fixed depth or nodes."""

    def __init__(
        self,
        spec: str = "jungle",
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        level: Optional[int] = None,
        seed: int = 0,
        hash_mib: int = 16,
    ) -> None:
        if depth is None and nodes is None and movetime_ms is None:
            raise ValueError("give depth, nodes or movetime_ms")
        self.engine = Engine(spec, hash_mib=hash_mib, seed=seed)
        self.seed = seed
        self.limits = {"depth": depth, "nodes": nodes, "movetime_ms": movetime_ms, "level": level}

    def __call__(self, game: Game) -> str:
        found = self.engine.search(game, **self.limits)
        assert found.best_move is not None, "the opponent is asked to move only in a game that goes on"
        return found.best_move

    def reset(self) -> None:
        """Forgets the previous game (called at every reset)."""
        self.engine.clear()


def observation_space(game: Game) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=1.0, shape=game.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
    )


class QiGymEnv(gymnasium.Env):
    """One game of ``spec`` for the agent playing ``agent_side`` (``"first"``,
    ``"second"`` or ``"random"``, drawn at each reset) against ``opponent``:
    ``"random"`` (uniform legal moves from the env's seeded generator), an
    :class:`EngineOpponent`, or a callable taking the game and returning an
    action or a move text.

    Rewards are the agent's: +1 win, -1 loss, 0 otherwise. An illegal action
    loses the game at once (reward -1, ``info["illegal_action"]``) with
    ``illegal_action="lose"``, the default, so that unmasked exploration
    works; with ``"raise"`` it raises ``ValueError`` and nothing changes.
    ``info["action_mask"]`` and :meth:`action_masks` give the legal actions
    (through ``gymnasium.make``'s wrappers: ``env.unwrapped.action_masks()``
    or ``env.get_wrapper_attr("action_masks")()``, which sb3-contrib's
    vector envs call).
    ``max_plies`` truncates (plies of the whole game, both sides').
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        spec: str = "jungle",
        opponent: Union[str, EngineOpponent, OpponentFn] = "random",
        agent_side: str = "first",
        position: Optional[str] = None,
        max_plies: Optional[int] = None,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
    ) -> None:
        check_render_mode(render_mode)
        check_max_plies(max_plies)
        if agent_side not in (*SIDES, "random"):
            raise ValueError(f"agent_side must be 'first', 'second' or 'random', not {agent_side!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if not (opponent == "random" or callable(opponent)):
            raise ValueError("opponent must be 'random', an EngineOpponent or a callable")
        self._spec = spec
        self._position = position
        self._game = start_game(spec, position)
        self.metadata = dict(type(self).metadata, name=env_name(self._game.spec))
        self.opponent = opponent
        self.agent_side = agent_side
        self.max_plies = max_plies
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self._game)
        self.action_space = spaces.Discrete(self._game.num_actions)
        self._side = "first" if agent_side == "random" else agent_side
        self._over = False
        self._started = False

    @property
    def game(self) -> Game:
        """The game (read it, do not play on it)."""
        return self._game

    @property
    def side(self) -> str:
        """The side the agent plays this episode."""
        return self._side

    def action_masks(self) -> np.ndarray:
        """The legal actions now (bool), as maskable-policy libraries ask."""
        if self._over or self._game.side_to_move != self._side:
            return np.zeros(self._game.num_actions, dtype=bool)
        return self._game.action_mask()

    def _observation(self) -> dict[str, np.ndarray]:
        return {
            "observation": self._game.observation(self._side),
            "action_mask": self.action_masks().astype(np.int8),
        }

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        outcome = self._game.outcome()
        if outcome is not None:
            info["result"] = outcome.result
            info["reason"] = outcome.reason
        info.update(extra)
        return info

    def _reward(self) -> float:
        outcome = self._game.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self._side else -1.0

    def _opponent_moves(self) -> None:
        """The opponent plays until the agent is to move or the game ends."""
        while not self._game.is_over() and self._game.side_to_move != self._side:
            if self.max_plies is not None and self._game.ply >= self.max_plies:
                return
            if self.opponent == "random":
                legal = np.flatnonzero(self._game.action_mask())
                self._game.play_action(int(self.np_random.choice(legal)))
                continue
            choice = self.opponent(self._game.copy())  # type: ignore[operator]
            if isinstance(choice, str):
                self._game.play(choice)
            else:
                self._game.play_action(choice)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        check_seed(seed)
        position = position_option(options)
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        self._game = start_game(self._spec, position if position is not None else self._position)
        if self.agent_side == "random":
            self._side = SIDES[int(self.np_random.integers(2))]
        reset_opponent = getattr(self.opponent, "reset", None)
        if callable(reset_opponent):
            reset_opponent()
        self._over = False
        self._started = True
        self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before the first step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            self._game.play_action(action)
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._observation(), -1.0, True, False, self._info(illegal_action=True)
        self._opponent_moves()
        terminated = self._game.is_over()
        truncated = not terminated and self.max_plies is not None and self._game.ply >= self.max_plies
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._reward(), terminated, truncated, self._info()

    def render(self) -> Union[str, np.ndarray, None]:
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self._game.rgb_array()
        board = self._game.board()
        if self.render_mode == "human":
            print(board)
            return None
        return board


class QiVectorEnv(VectorEnv):
    """``num_envs`` games of ``spec`` on one :class:`qi_games.VecGame`.

    With ``opponent=None`` (self-play) every action plays for its game's side
    to move, observations are seen by the side to move and rewards go to the
    side that played (the other side's is the negation). With ``opponent``
    (``"random"``, sampled in Rust, or a :class:`qi_games.BatchEngine` with
    ``opponent_limits`` such as ``{"nodes": 200}`` or ``{"depth": 8,
    "level": 3}``) the agent plays
    ``agent_side`` in every game and the opponent answers inside ``step``.

    Auto-reset is same-step (``metadata["autoreset_mode"]``): a game that
    ends starts again at once; its final observation is in
    ``info["final_obs"]`` and its record in ``info["final_record"]``, with
    ``info["_final_obs"]`` marking those games. ``seed``, ``random_plies``
    and ``max_plies`` are those of :class:`qi_games.VecGame`.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        spec: str = "jungle",
        num_envs: int = 16,
        opponent: Union[None, str, BatchEngine] = None,
        opponent_limits: Optional[dict[str, int]] = None,
        agent_side: str = "first",
        position: Optional[str] = None,
        random_plies: int = 0,
        max_plies: Optional[int] = None,
        seed: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        check_max_plies(max_plies)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"a vector environment's render_mode is None or 'rgb_array', not {render_mode!r}")
        if agent_side not in SIDES:
            raise ValueError(f"agent_side must be 'first' or 'second', not {agent_side!r}")
        if not (opponent is None or opponent == "random" or isinstance(opponent, BatchEngine)):
            raise ValueError("opponent must be None (self-play), 'random' or a BatchEngine")
        if isinstance(opponent, BatchEngine) and not opponent_limits:
            raise ValueError("a BatchEngine opponent needs opponent_limits, e.g. {'nodes': 200}")
        self.vec = VecGame(spec, num_envs, position, seed=seed, random_plies=random_plies, max_plies=max_plies)
        self.num_envs = num_envs
        self.opponent = opponent
        self.opponent_limits = dict(opponent_limits or {})
        self.agent_index = SIDES.index(agent_side)
        self.metadata = dict(type(self).metadata, name=env_name(self.vec.spec))
        single = observation_space(Game(spec, position))
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(self.vec.num_actions)
        self.observation_space = batch_space(single, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = render_mode

    def _observations(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.vec.observations(),
            "action_mask": self.vec.action_masks().astype(np.int8),
        }

    def _finals(self) -> tuple[np.ndarray, list[Optional[str]]]:
        """The final observations (seen by the agent's side, or by the side
        to move in self-play) and records of the games the last step ended."""
        side = None if self.opponent is None else SIDES[self.agent_index]
        return self.vec.final_observations(side=side), self.vec.final_records()

    def _opponent_turns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[Optional[str]]]:
        """The opponent moves wherever it is to move. Returns, per game, its
        reward and whether its moves ended the game (terminated, truncated),
        with the final observations and records of those games."""
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        final_obs = np.zeros((n, *self.vec.observation_shape), dtype=np.float32)
        final_records: list[Optional[str]] = [None] * n
        if self.opponent is None:
            return rewards, terminated, truncated, final_obs, final_records
        while True:
            waiting = self.vec.to_move() != self.agent_index
            if not waiting.any():
                return rewards, terminated, truncated, final_obs, final_records
            if self.opponent == "random":
                actions = self.vec.sample_actions()
            else:
                actions, _ = self.opponent.search(self.vec, active=waiting, **self.opponent_limits)  # type: ignore[union-attr]
            r, te, tr = self.vec.step(actions, active=waiting)
            # A game restarted by an earlier pass of this loop has already
            # reported its end; the opponent's opening moves of the new game
            # belong to no reported step.
            fresh = waiting & ~(terminated | truncated)
            ended = (te | tr) & fresh
            rewards[fresh] += r[fresh]
            terminated |= te & fresh
            truncated |= tr & fresh
            if ended.any():
                obs, records = self._finals()
                final_obs[ended] = obs[ended]
                for i in np.flatnonzero(ended):
                    final_records[i] = records[i]

    def reset(
        self, *, seed: Optional[Union[int, list[int]]] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Every game back to its start. ``seed`` is one integer (the games'
        generators are seeded from it as :class:`qi_games.VecGame` seeds them)
        or a list of one integer per game (game ``i`` from ``seed[i]``)."""
        if options:
            raise ValueError(f"QiVectorEnv.reset takes no options, not {options!r}")
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = [int(s) for s in seed] if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in seed) else None
            if seeds is None or len(seeds) != self.num_envs or min(seeds) < 0:
                raise ValueError(f"seed must be an integer or a list of {self.num_envs} non-negative integers, not {seed!r}")
            self.vec.reset(seed=seeds)
            # One seed for the env's own generators from all of them.
            seed = int(np.random.SeedSequence(seeds).generate_state(1, np.uint64)[0] >> np.uint64(1))
            super().reset(seed=seed)
        else:
            check_seed(seed)
            super().reset(seed=seed)
            self.vec.reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        self._opponent_turns()
        return self._observations(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        rewards, terminated, truncated = self.vec.step(actions)
        ended = terminated | truncated
        final_obs, final_records = self._finals()
        if self.opponent is not None:
            opp_rewards, opp_terminated, opp_truncated, opp_obs, opp_records = self._opponent_turns()
            # Only the games the agent's move left going on continue with the
            # opponent's answer; its win is the agent's loss.
            later = (opp_terminated | opp_truncated) & ~ended
            rewards = np.where(ended, rewards, -opp_rewards).astype(np.float32)
            terminated = terminated | (opp_terminated & ~ended)
            truncated = truncated | (opp_truncated & ~ended)
            final_obs[later] = opp_obs[later]
            for i in np.flatnonzero(later):
                final_records[i] = opp_records[i]
            ended = terminated | truncated
        info: dict[str, Any] = {}
        if ended.any():
            masks = np.zeros((self.num_envs, self.vec.num_actions), dtype=np.int8)
            info["final_obs"] = {"observation": final_obs, "action_mask": masks}
            info["_final_obs"] = ended
            info["final_record"] = np.array(final_records, dtype=object)
        return self._observations(), rewards, terminated, truncated, info

    def render(self) -> Optional[tuple[np.ndarray, ...]]:
        """With ``render_mode="rgb_array"``, each game's board as a uint8
        ``(height, width, 3)`` picture (views of one array, rasterised in
        Rust with the GIL released); None otherwise."""
        if self.render_mode is None:
            return None
        return tuple(self.vec.rgb_arrays())

    def close_extras(self, **kwargs: Any) -> None:
        pass


def make_vector_env(
    num_envs: int = 1,
    spec: str = "jungle",
    opponent: Union[None, str, EngineOpponent, BatchEngine] = "random",
    agent_side: str = "first",
    position: Optional[str] = None,
    max_plies: Optional[int] = None,
    illegal_action: str = "raise",
    **kwargs: Any,
) -> QiVectorEnv:
    """The vector entry point of the registered ids: ``gymnasium.make_vec(
    "qi_games/Jungle-v1", num_envs=64)`` is one :class:`QiVectorEnv` over a
    :class:`qi_games.VecGame`, not a loop of single environments. It takes
    :class:`QiGymEnv`'s keyword arguments where they mean the same: an
    :class:`EngineOpponent` becomes a :class:`qi_games.BatchEngine` with its
    limits, ``opponent=None`` is self-play; a callable opponent, ``agent_side
    ="random"`` and ``illegal_action="lose"`` have no batched form and are
    refused. Other keyword arguments go to :class:`QiVectorEnv`
    (``random_plies``, ``seed``)."""
    if illegal_action != "raise":
        raise ValueError(
            "the vector environment raises ValueError on an illegal action (illegal_action='raise'); "
            f"illegal_action={illegal_action!r} has no batched form"
        )
    opponent_limits = kwargs.pop("opponent_limits", None)
    if isinstance(opponent, EngineOpponent):
        opponent_limits = {k: v for k, v in opponent.limits.items() if v is not None}
        opponent = BatchEngine(spec, seed=opponent.seed)
    elif not (opponent is None or opponent == "random" or isinstance(opponent, BatchEngine)):
        raise ValueError("a vector environment's opponent is None (self-play), 'random', an EngineOpponent or a BatchEngine")
    return QiVectorEnv(
        spec,
        num_envs,
        opponent=opponent,
        opponent_limits=opponent_limits,
        agent_side=agent_side,
        position=position,
        max_plies=max_plies,
        **kwargs,
    )


register_gymnasium()
