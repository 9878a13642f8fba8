"""PettingZoo AEC environments for Jungle and Five Tigers.

Two agents, ``"first"`` and ``"second"``; ``agent_selection`` is always the
side to move, so Five Tigers' repeated turns while removals are owed need
nothing special. An observation is a dict: ``"observation"``, float32 planes
seen by the observing agent, and ``"action_mask"``, int8 over the fixed
action space (all zero for the agent not to move). Rewards are +1 / -1 for
the winner / loser, 0 for a draw. An illegal or negative action raises
``ValueError``; an action that is not an integer raises ``TypeError``.

The encodings are in ``docs/python.md``. Needs ``pettingzoo`` and
``gymnasium`` (the ``pettingzoo`` extra: ``pip install
"./crates/python[pettingzoo]"`` from a checkout).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Union

import numpy as np

from ._extras import require

_pettingzoo = require("pettingzoo", "pettingzoo", "qi_games.env (the PettingZoo environment)")
_gymnasium = require("gymnasium", "pettingzoo", "qi_games.env (the PettingZoo environment)")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from ._qi import Game  # noqa: E402

AGENTS = ["first", "second"]

RENDER_MODES = ["ansi", "human", "rgb_array"]


def env_name(spec: str) -> str:
    """The environment's name for ``spec``: ``qi_jungle_v1``, ``qi_five_tigers_v1``."""
    game = spec.split(":")[0].split(",")[0].strip().replace("-", "_")
    return f"qi_{game}_v1"


def check_render_mode(render_mode: Optional[str]) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not supported (None, 'ansi', 'human' or 'rgb_array')")


def check_max_plies(max_plies: Optional[int]) -> None:
    if max_plies is not None and (isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1):
        raise ValueError(f"max_plies must be None or an integer of at least 1, not {max_plies!r}")


def start_game(spec: str, position: Optional[str]) -> Game:
    """The game from ``position``, refused if it is already over."""
    game = Game(spec, position)
    outcome = game.outcome()
    if outcome is not None:
        raise ValueError(
            f"the start position is already decided ({outcome.result}, {outcome.reason}): "
            "an episode from it would have no move to play"
        )
    return game


def check_seed(seed: Any) -> None:
    """Refuses a ``reset`` seed that is neither None nor a non-negative integer."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be None or an integer, not {type(seed).__name__} ({seed!r})")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed}")


def position_option(options: Any) -> Optional[str]:
    """The ``position`` of reset's options; other keys are ignored with a
    warning (PettingZoo's own API test passes a made-up one)."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be None or a dict such as {{'position': text}}, not {options!r}")
    position = options.get("position")
    if position is not None and not isinstance(position, str):
        raise TypeError(f"options['position'] must be a position text, not {position!r}")
    if not options:
        return None
    unknown = sorted(map(str, set(options) - {"position"}))
    if unknown:
        warnings.warn(f"reset ignores the unknown option(s) {unknown}; the only option is 'position'", stacklevel=3)
    return position


class QiEnv(AECEnv):
    """A game of ``spec`` (``"jungle"``, ``"jungle:datou"``, ``"five-tigers:ten"``).

    ``max_plies`` (at least 1) truncates a game that runs longer (None: the
    game's own draw rules end it). ``render_mode``: None, ``"ansi"``
    (``render()`` returns the board as text), ``"rgb_array"`` (a uint8
    ``(height, width, 3)`` picture of the drawing ``qi render`` makes) or
    ``"human"`` (``render()``
    prints it). ``reset(options={"position": text})`` starts that episode
    from ``text``.
    """

    metadata = {"name": "qi_v1", "render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(
        self,
        spec: str = "jungle",
        position: Optional[str] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        check_max_plies(max_plies)
        self._spec = spec
        self._position = position
        self._game = start_game(spec, position)
        self.metadata = dict(type(self).metadata, name=env_name(self._game.spec))
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self._game.num_actions
        shape = self._game.observation_shape
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self._clear_state()

    def _clear_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = self._game.side_to_move
        self._final: dict[str, tuple[float, bool, bool, dict[str, Any]]] = {}

    @property
    def game(self) -> Game:
        """The underlying game (read it, do not play on it)."""
        return self._game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self._game.num_actions, dtype=np.int8)
        if agent == self._game.side_to_move and not self._game.is_over():
            mask[:] = self._game.action_mask()
        return {"observation": self._game.observation(agent), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        check_seed(seed)
        position = position_option(options)
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self._game = start_game(self._spec, position if position is not None else self._position)
        self._clear_state()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.agents:
            # Every agent is done: the final state stays readable.
            agent = self.agent_selection
            reward, termination, truncation, info = self._final[agent]
            return (self.observe(agent) if observe else None, reward, termination, truncation, info)
        return super().last(observe)

    def step(self, action: Any) -> None:
        if not self.agents:
            if action is not None:
                raise ValueError("the game is over and every agent is done: the only action is None (or reset())")
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._final[agent] = (
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._game.play_action(action)
        outcome = self._game.outcome()
        if outcome is not None:
            for a in AGENTS:
                self.terminations[a] = True
                self.rewards[a] = 0.0 if outcome.winner is None else (1.0 if outcome.winner == a else -1.0)
                self.infos[a] = {"result": outcome.result, "reason": outcome.reason}
        elif self.max_plies is not None and self._game.ply >= self.max_plies:
            for a in AGENTS:
                self.truncations[a] = True
        self.agent_selection = self._game.side_to_move
        self._accumulate_rewards()

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

    def close(self) -> None:
        pass


def env(spec: str = "jungle", **kwargs: Any) -> QiEnv:
    """A PettingZoo AEC environment for ``spec``."""
    return QiEnv(spec, **kwargs)


def jungle_env(preset: str = "standard", **kwargs: Any) -> QiEnv:
    """Jungle under ``preset``."""
    return QiEnv(f"jungle:{preset}", **kwargs)


def five_tigers_env(preset: str = "shandong", **kwargs: Any) -> QiEnv:
    """Five Tigers under ``preset``."""
    return QiEnv(f"five-tigers:{preset}", **kwargs)
