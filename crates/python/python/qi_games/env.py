"""PettingZoo AEC environments for Jungle and Five Tigers.

Two agents, ``"first"`` and ``"second"``; ``agent_selection`` is always the
side to move, so Five Tigers' repeated turns while removals are owed need
nothing special. An observation is a dict: ``"observation"``, float32 planes
seen by the observing agent, and ``"action_mask"``, int8 over the fixed
action space (all zero for the agent not to move). Rewards are +1 / -1 for
the winner / loser, 0 for a draw. Illegal actions raise ``ValueError``.

The encodings are in ``docs/python.md``. Needs ``pettingzoo`` and
``gymnasium`` (``pip install "qi-games[pettingzoo]"``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._qi import Game

AGENTS = ["first", "second"]


class QiEnv(AECEnv):
    """A game of ``spec`` (``"jungle"``, ``"jungle:datou"``, ``"five-tigers:ten"``).

    ``max_plies`` truncates a game that runs longer (None: the game's own
    draw rules end it).
    """

    metadata = {"name": "qi_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        spec: str = "jungle",
        position: Optional[str] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self._spec = spec
        self._position = position
        self._game = Game(spec, position)
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
        self._game = Game(self._spec, self._position)
        self._clear_state()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._game.play_action(int(action))
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
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        return f"{self._game.spec} ply {self._game.ply}: {self._game.position}"

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
