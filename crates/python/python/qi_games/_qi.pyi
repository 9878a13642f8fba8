"""Type stubs of the native module (the classes qi_games re-exports)."""

from typing import Any, Optional, Sequence, Union

from typing_extensions import Self, final

import numpy as np
import numpy.typing as npt

__all__ = ["BatchEngine", "Engine", "Game", "Line", "Outcome", "SearchResult", "VecGame", "__version__", "perft", "presets"]

#: The package's version (the Rust crates' version).
__version__: str

#: An action: a Python int or a NumPy integer (bools and floats are refused).
_Action = Union[int, np.integer[Any]]
#: A dtype observations come in: float32 (the default), uint8 or bool.
_ObservationDtype = Union[str, type, np.dtype[Any], None]

@final
class Outcome:
    """How a game ended."""

    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
    @property
    def winner(self) -> Optional[str]:
        """``"first"``, ``"second"``, or None for a draw."""
    @property
    def reason(self) -> str:
        """Why, in words (``den entered``, ``no legal move``, ...)."""
    def __new__(
        cls, result: str, winner: Optional[str], reason: str) -> Self: ...
    def __reduce__(self) -> tuple[Any, tuple[str, Optional[str], str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class Game:
    """A game of Jungle or Five Tigers: position, record and every rule."""

    def __new__(
        cls, spec: str = "jungle", position: Optional[str] = None, moves: Optional[list[str]] = None
    ) -> Self:
        """A game of ``spec`` (``"jungle:datou"``, ``"five-tigers:ten"``) from
        ``position`` text or the start, then ``moves``, each checked. Raises
        ValueError for a bad spec, text or move."""
    @staticmethod
    def from_record(text: str) -> "Game":
        """The game a record holds, every move checked (ValueError if not)."""
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickles as its record (the whole history and a recorded result)."""
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
        """(planes, ranks, files) of :meth:`observation`: Jungle (50, 9, 7),
        Five Tigers (17, 5, 5)."""
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
    def board(self) -> str:
        """The board drawn as text (several lines, ANSI colours)."""
    def svg(self, flip: bool = False, caption: bool = False) -> str:
        """The board as SVG (the drawing of ``qi render``), the last move
        highlighted; ``flip``: from the second side's point of view."""
    def rgb_array(self, scale: float = 1.0, flip: bool = False) -> npt.NDArray[np.uint8]:
        """That drawing rasterised: uint8 (height, width, 3)."""
    def perft(self, depth: int) -> int:
        """Board move sequences of ``depth`` plies from the current position;
        Ctrl-C interrupts it (KeyboardInterrupt)."""
    def copy(self) -> "Game":
        """An independent copy."""
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """True for every legal action."""
    def observation(self, side: Optional[str] = None) -> npt.NDArray[np.float32]:
        """The planes seen by ``side`` (default: the side to move)."""
    def action_to_move(self, action: _Action) -> str:
        """The legal move of ``action`` (ValueError if not legal now)."""
    def move_to_action(self, move: str) -> int:
        """The action of legal move ``move``."""
    def play_action(self, action: _Action) -> None:
        """Plays ``action``: ValueError if not legal now or negative,
        TypeError if not an integer."""

@final
class Line:
    """One root move's line of a search (MultiPV)."""

    @property
    def score(self) -> int: ...
    @property
    def score_text(self) -> str: ...
    @property
    def depth(self) -> int: ...
    @property
    def pv(self) -> list[str]: ...
    def __new__(cls, score: int, score_text: str, depth: int, pv: list[str]) -> Self: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class SearchResult:
    """What a search found."""

    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def score(self) -> int:
        """Centi-units for the side to move, or ±(30000 − plies) for a forced result."""
    @property
    def score_text(self) -> str:
        """``cp 35`` or ``mate 3``."""
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def pv(self) -> list[str]: ...
    @property
    def seconds(self) -> float: ...
    @property
    def lines(self) -> list[Line]:
        """The best root moves' lines, best first (``multipv`` of them)."""
    def __new__(
        cls,
        best_move: Optional[str],
        score: int,
        score_text: str,
        depth: int,
        nodes: int,
        pv: list[str],
        seconds: float,
        lines: list[Line] = ...,
    ) -> Self: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class Engine:
    """The qi search for one game kind; its hash table is kept between searches."""

    def __new__(cls, spec: str = "jungle", hash_mib: int = 16, seed: int = 0, eval_profile: str = "default") -> Self:
        """``seed`` starts the weaker levels' random choices; ``eval_profile``
        is ``"default"`` (the game's strongest: Jungle's ``"hybrid"``, Five
        Tigers' ``"hand"``), ``"hand"`` (the hand-written evaluation),
        ``"material"``, ``"nnue"`` (Jungle's learned evaluation) or
        ``"hybrid"`` (Jungle's learned and hand-written evaluations mixed)."""
    def __reduce__(self) -> tuple[Any, tuple[str, int, int, str]]:
        """Pickles as its game, table size, seed and profile (the table starts empty)."""
    def __copy__(self) -> "Engine": ...
    def __deepcopy__(self, memo: Any) -> "Engine": ...
    @property
    def eval_profile(self) -> str:
        """``"default"``, ``"hand"``, ``"material"``, ``"nnue"`` or ``"hybrid"``."""
    @property
    def game(self) -> str:
        """``"jungle"`` or ``"five-tigers"``."""
    @property
    def hash_mib(self) -> int: ...
    @property
    def seed(self) -> int: ...
    def search(
        self,
        game: Game,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        level: Optional[int] = None,
        multipv: int = 1,
    ) -> SearchResult:
        """Searches ``game``'s position within the limits at strength
        ``level`` (1 to 10, None: full), the best ``multipv`` root moves as
        lines of their own (``SearchResult.lines``); the GIL is released
        and Ctrl-C stops it with KeyboardInterrupt."""
    def clear(self) -> None:
        """Forgets what earlier searches learned; the levels' choices restart from the seed."""

@final
class VecGame:
    """``n`` games of one spec stepped together; ended games restart at once."""

    def __new__(
        cls,
        spec: str,
        n: int,
        position: Optional[str] = None,
        *,
        seed: Optional[int] = None,
        random_plies: int = 0,
        max_plies: Optional[int] = None,
        openings: Union[str, list[str], None] = None,
    ) -> Self:
        """``openings``: ``"builtin"`` (the game's opening suite) or a list of
        position texts; each (re)start draws one, then ``random_plies``."""
    def __reduce__(self) -> Any: ...
    @staticmethod
    def _restore(args: tuple[Any, ...], state: tuple[Any, ...]) -> "VecGame": ...
    def __copy__(self) -> "VecGame": ...
    def __deepcopy__(self, memo: Any) -> "VecGame": ...
    def __len__(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def spec(self) -> str: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...
    @property
    def max_plies(self) -> Optional[int]: ...
    @property
    def random_plies(self) -> int: ...
    def reset(self, seed: Union[int, Sequence[int], None] = None) -> None:
        """Every game back to its start and random opening, the generators
        reseeded first: from one ``seed``, or game ``i`` from ``seed[i]``."""
    def to_move(self) -> npt.NDArray[np.int8]:
        """0 where first is to move, 1 where second is."""
    def plies(self) -> npt.NDArray[np.int64]:
        """The plies each game has played from the start."""
    def observations(
        self, dtype: _ObservationDtype = None, out: Optional[npt.NDArray[Any]] = None
    ) -> npt.NDArray[Any]:
        """(n, planes, ranks, files), each seen by its side to move: float32,
        or uint8 (value × 255) or bool (value > 0); written into ``out``
        (C-contiguous, that dtype and shape) when given."""
    def final_observations(
        self,
        dtype: _ObservationDtype = None,
        side: Optional[str] = None,
        out: Optional[npt.NDArray[Any]] = None,
    ) -> npt.NDArray[Any]:
        """The final observations of the games the last step ended (zeros
        elsewhere), seen by ``side`` (``"first"``, ``"second"``, ``"mover"``,
        or None for the final side to move)."""
    def final_records(self) -> list[Optional[str]]:
        """The records of the games the last step ended (None elsewhere)."""
    def final_mask(self) -> npt.NDArray[np.bool_]:
        """Which games the last step ended."""
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(n, num_actions)."""
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game, drawn in Rust."""
    def rgb_arrays(self, scale: float = 1.0) -> npt.NDArray[np.uint8]:
        """Every game's board rasterised: uint8 (n, height, width, 3)."""
    def positions(self) -> list[str]: ...
    def records(self) -> list[str]: ...
    def game(self, index: int) -> Game:
        """A copy of game ``index`` with its whole history."""
    def step(
        self, actions: npt.ArrayLike, active: Optional[npt.ArrayLike] = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Plays one action per game (only where ``active``): (reward of the
        side that played, terminated, truncated)."""

@final
class BatchEngine:
    """Searches every game of a VecGame at once, one searcher thread per core."""

    def __new__(
        cls, spec: str = "jungle", threads: Optional[int] = None, hash_mib: int = 1, seed: int = 0
    ) -> Self: ...
    def __reduce__(self) -> tuple[Any, tuple[str, int, int, int]]: ...
    @property
    def game(self) -> str: ...
    @property
    def threads(self) -> int: ...
    def search(
        self,
        games: VecGame,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        active: Optional[npt.ArrayLike] = None,
        level: Optional[int] = None,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """(best action, score) per game (-1 and 0 where not ``active``), at
        strength ``level`` (1 to 10, None: full)."""
    def targets(
        self,
        games: VecGame,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        active: Optional[npt.ArrayLike] = None,
        temperature: float = 100.0,
        value_scale: float = 400.0,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """AlphaZero-style targets per game: (policy: softmax of the root
        moves' MultiPV scores at ``temperature``, value: tanh(score /
        ``value_scale``), best action, score)."""
    def clear(self) -> None: ...

def perft(spec: str, depth: int, position: Optional[str] = None) -> int:
    """Board move sequences of ``depth`` plies from ``position`` or the start
    (Ctrl-C interrupts it)."""

def presets() -> list[str]:
    """Every game spec with a preset."""
