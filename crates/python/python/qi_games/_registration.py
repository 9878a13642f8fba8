"""The Gymnasium ids, registered on ``import qi_games`` when Gymnasium is
installed (Gymnasium 1.x has no plugin entry points), so that
``gymnasium.make("qi_games/Jungle-v1")`` and ``gymnasium.make_vec`` work
without importing :mod:`qi_games.gym` first. The entry points are strings:
nothing of Gymnasium's is imported here beyond its registry."""

from __future__ import annotations

import importlib.util

#: Gymnasium id of each game: (name, spec).
GAMES = (("Jungle", "jungle"), ("FiveTigers", "five-tigers"))


def env_id(name: str) -> str:
    """The Gymnasium id of the game ``name`` (``"Jungle"``, ``"FiveTigers"``)."""
    return f"qi_games/{name}-v1"


def register_gymnasium() -> None:
    """Registers ``qi_games/Jungle-v1`` and ``qi_games/FiveTigers-v1``
    (single environments :class:`qi_games.gym.QiGymEnv`, vector ones
    :func:`qi_games.gym.make_vector_env`), once; nothing without Gymnasium."""
    if importlib.util.find_spec("gymnasium") is None:
        return
    try:
        import gymnasium
    except ImportError:
        return
    for name, spec in GAMES:
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name),
                entry_point="qi_games.gym:QiGymEnv",
                vector_entry_point="qi_games.gym:make_vector_env",
                kwargs={"spec": spec},
            )
