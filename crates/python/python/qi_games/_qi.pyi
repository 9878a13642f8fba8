"""Type stubs of the native module (the classes qi_games re-exports)."""

from typing import Optional

import numpy as np
import numpy.typing as npt

class Outcome:
    """How a game ended."""

    result: str
    """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
    winner: Optional[str]
    """``"first"``, ``"second"``, or None for a draw."""
    reason: str
    """Why, in words (``den entered``, ``no legal move``, ...)."""

class Game:
    """A game of Jungle or Five Tigers: position, record and every rule."""

    def __init__(self, spec: str = "jungle", position: Optional[str] = None) -> None:
        """A game of ``spec`` (``"jungle:datou"``, ``"five-tigers:ten"``) from
        ``position`` text or the start. Raises ValueError for a bad spec or text."""
    @staticmethod
    def from_record(text: str) -> "Game":
        """The game a record holds, every move checked (ValueError if not)."""
    @property
    def spec(self) -> str:
        """The rules as a canonical spec."""
    @property
    def position(self) -> str:
        """The current position's text."""
    @property
    def start(self) -> str:
        """The start position's text."""
    @property
    def side_to_move(self) -> str:
        """``"first"`` or ``"second"``."""
    @property
    def moves(self) -> list[str]:
        """The moves played."""
    @property
    def ply(self) -> int:
        """The number of moves played."""
    @property
    def occurrences(self) -> int:
        """How many times the current position has occurred."""
    @property
    def num_actions(self) -> int:
        """The size of the action space (Jungle 252, Five Tigers 150)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """(planes, ranks, files) of :meth:`observation`."""
    def legal_moves(self) -> list[str]:
        """The moves the side to move may play now, every rule applied."""
    def play(self, move: str) -> None:
        """Plays ``move``; ValueError with the reason if it is not legal."""
    def undo(self) -> Optional[str]:
        """Takes back the last move and returns it (None at the start)."""
    def outcome(self) -> Optional[Outcome]:
        """The outcome, or None while the game goes on."""
    def is_over(self) -> bool:
        """Whether the game is over."""
    def record(self) -> str:
        """The game as a record (PGN-like text)."""
    def perft(self, depth: int) -> int:
        """Board move sequences of ``depth`` plies from the current position."""
    def copy(self) -> "Game":
        """An independent copy."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """True for every legal action."""
    def observation(self, side: Optional[str] = None) -> npt.NDArray[np.float32]:
        """The planes seen by ``side`` (default: the side to move)."""
    def action_to_move(self, action: int) -> str:
        """The legal move of ``action`` (ValueError if not legal now)."""
    def move_to_action(self, move: str) -> int:
        """The action of legal move ``move``."""
    def play_action(self, action: int) -> None:
        """Plays ``action`` (ValueError if not legal now)."""

class SearchResult:
    """What a search found."""

    best_move: Optional[str]
    score: int
    """Centi-units for the side to move, or ±(1000000 − plies) for a forced result."""
    score_text: str
    """``cp 35`` or ``mate 3``."""
    depth: int
    nodes: int
    pv: list[str]
    seconds: float

class Engine:
    """The qi search for one game kind; its hash table is kept between searches."""

    def __init__(self, spec: str = "jungle", hash_mib: int = 16) -> None: ...
    @property
    def game(self) -> str:
        """``"jungle"`` or ``"five-tigers"``."""
    def search(
        self,
        game: Game,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
    ) -> SearchResult:
        """Searches ``game``'s position within the limits (the GIL is released)."""
    def clear(self) -> None:
        """Forgets what earlier searches learned."""

class VecGame:
    """``n`` games of one spec stepped together; ended games restart."""

    def __init__(self, spec: str, n: int, position: Optional[str] = None) -> None: ...
    def __len__(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def reset(self) -> None: ...
    def to_move(self) -> npt.NDArray[np.int8]:
        """0 where first is to move, 1 where second is."""
    def observations(self) -> npt.NDArray[np.float32]:
        """(n, planes, ranks, files), each seen by its side to move."""
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(n, num_actions)."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Plays one action per game: (reward of the side that played, ended)."""

def perft(spec: str, depth: int, position: Optional[str] = None) -> int:
    """Board move sequences of ``depth`` plies from ``position`` or the start."""

def presets() -> list[str]:
    """Every game spec with a preset."""
