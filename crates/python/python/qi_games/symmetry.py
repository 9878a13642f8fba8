"""The board symmetries of each game, acting on observations, action masks
and actions, for data augmentation.

Jungle's board is symmetric left to right (the river, the traps and the
dens are), so each position has a mirror image with the same value: two
symmetries, the identity and the mirror. Five Tigers' 5 × 5 board and
rules are symmetric under the eight symmetries of the square (four
rotations, each with or without a reflection). A symmetry maps a position
to another position of the same game and value, with the legal moves
mapped alike; the tests check this against the rules by playing every
move of random games through each symmetry.

Everything is vectorised NumPy on any leading batch shape: observations
``(..., planes, ranks, files)``, masks ``(..., num_actions)`` and actions
``(...)`` of integers::

    from qi_games.symmetry import symmetries

    for sym in symmetries("five-tigers"):         # the identity first
        obs_t = sym.observations(obs)             # (n, 17, 5, 5)
        mask_t = sym.masks(mask)                  # (n, 150)
        policy_t = sym.masks(policy)              # any per-action array
        actions_t = sym.actions(actions)          # (n,)
        assert (sym.inverse.actions(actions_t) == actions).all()

Jungle's observations and actions are in the mover's frame (turned half
round for the second side); the mirror is the same in either frame, so it
applies to any observation whatever side sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._qi import Game

#: The step directions of the action encodings, as (rank, file) offsets:
#: 0 up, 1 right, 2 down, 3 left.
DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))

#: A transformation of the last two axes of an array (ranks, files).
Transform = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Symmetry:
    """One board symmetry of a game: ``observations``, ``masks`` and
    ``actions`` map what a position gives to what its image gives."""

    name: str
    #: The image of each cell: a cell ``c`` (rank × files + file) goes to ``cells[c]``.
    cells: np.ndarray
    #: The image of each action: action ``a`` goes to ``action_map[a]``.
    action_map: np.ndarray

    def observations(self, obs: np.ndarray) -> np.ndarray:
        """The image of observations shaped ``(..., planes, ranks, files)``."""
        obs = np.asarray(obs)
        ranks, files = obs.shape[-2:]
        flat = obs.reshape(*obs.shape[:-2], ranks * files)
        out = np.empty_like(flat)
        out[..., self.cells] = flat
        return out.reshape(obs.shape)

    def masks(self, values: np.ndarray) -> np.ndarray:
        """The image of any per-action array ``(..., num_actions)``: a mask,
        a policy, visit counts."""
        values = np.asarray(values)
        out = np.empty_like(values)
        out[..., self.action_map] = values
        return out

    def actions(self, actions: np.ndarray) -> np.ndarray:
        """The image of integer actions of any shape."""
        return self.action_map[np.asarray(actions)]

    @property
    def inverse(self) -> "Symmetry":
        """The symmetry that undoes this one."""
        return Symmetry(f"inverse of {self.name}", np.argsort(self.cells), np.argsort(self.action_map))


def _cell_images(ranks: int, files: int, transform: Transform) -> np.ndarray:
    """Where ``transform`` (on the last two axes) sends each cell."""
    index = np.arange(ranks * files).reshape(ranks, files)
    source = transform(index).ravel()  # the new cell i holds the old cell source[i]
    cells = np.empty_like(source)
    cells[source] = np.arange(ranks * files)
    return cells


def _direction_images(ranks: int, files: int, cells: np.ndarray) -> list[int]:
    """Where each step direction goes, read at the centre cell (the map is
    the same everywhere: the symmetries are linear about the centre)."""
    r, f = ranks // 2, files // 2
    image = divmod(int(cells[r * files + f]), files)
    out = []
    for dr, df in DIRECTIONS:
        to = divmod(int(cells[(r + dr) * files + f + df]), files)
        out.append(DIRECTIONS.index((to[0] - image[0], to[1] - image[1])))
    return out


def _action_images(spec: str, ranks: int, files: int, cells: np.ndarray) -> np.ndarray:
    """Where each action goes, from the encodings of docs/python.md."""
    dirs = _direction_images(ranks, files, cells)
    n = ranks * files
    if spec.startswith("jungle"):
        # square * 4 + direction
        return np.array([cells[a // 4] * 4 + dirs[a % 4] for a in range(n * 4)])
    # Five Tigers: place p; 25 + p * 4 + direction; 125 + p (remove).
    place = list(cells)
    step = [n + cells[p] * 4 + dirs[d] for p in range(n) for d in range(4)]
    remove = [n * 5 + c for c in cells]
    return np.array(place + step + remove)


def _rotation(quarter_turns: int, mirror: bool) -> Transform:
    """Turns the board ``quarter_turns`` quarter turns, then mirrors it left
    to right when ``mirror``."""

    def transform(a: np.ndarray) -> np.ndarray:
        turned = np.rot90(a, quarter_turns, axes=(-2, -1))
        return turned[..., ::-1] if mirror else turned

    return transform


def symmetries(spec: str) -> list[Symmetry]:
    """The symmetries of the game ``spec`` names (any preset or rule string),
    the identity first: Jungle's two, Five Tigers' eight."""
    game = Game(spec)
    _, ranks, files = game.observation_shape
    name = game.spec.split(":")[0]
    transforms: list[tuple[str, Transform]]
    if name == "jungle":
        transforms = [("identity", lambda a: a), ("mirror", lambda a: a[..., ::-1])]
    else:
        transforms = [(f"rot{90 * k}", _rotation(k, False)) for k in range(4)]
        transforms += [(f"rot{90 * k}-mirror", _rotation(k, True)) for k in range(4)]
    out = []
    for sym_name, transform in transforms:
        cells = _cell_images(ranks, files, transform)
        out.append(Symmetry(sym_name, cells, _action_images(name, ranks, files, cells)))
    return out
