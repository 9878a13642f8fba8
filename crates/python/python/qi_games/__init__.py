"""Exact rules, search and reinforcement-learning environments for Jungle
(斗兽棋, Dou Shou Qi) and Five Tigers (五虎棋, Wu Hu Qi), on the qi Rust crates.

>>> import qi_games
>>> game = qi_games.Game("jungle")
>>> len(game.legal_moves())
24
>>> game.play("a3a4")
>>> game.position
'l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1'

See ``docs/python.md`` in the repository for the tour, the action and
observation encodings and self-play generation. The PettingZoo environment
is in :mod:`qi_games.env` (needs the ``pettingzoo`` extra), the Gymnasium
single-agent and vector environments in :mod:`qi_games.gym` (needs the
``gymnasium`` extra; with Gymnasium installed, importing ``qi_games``
registers ``qi_games/Jungle-v1`` and ``qi_games/FiveTigers-v1``).
"""

from ._qi import BatchEngine, Engine, Game, Line, Outcome, SearchResult, VecGame, __version__, perft, presets
from ._registration import register_gymnasium

register_gymnasium()

__all__ = [
    "BatchEngine",
    "Engine",
    "Game",
    "Outcome",
    "Line",
    "SearchResult",
    "VecGame",
    "__version__",
    "perft",
    "presets",
]
