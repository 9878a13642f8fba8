"""Feeds every public call of the native module bad values and random ones.

Run by ``test_bad_inputs.py`` in a subprocess, so that an input that
aborts the interpreter (a Rust panic under ``panic = "abort"``, a failed
allocation) fails that test instead of killing pytest. Exits 0 when every
call either returned or raised one of the expected exceptions, with the
argument's name in the message where one argument was bad; otherwise
prints each offending call and exits 1.

    python bad_inputs.py [SEED] [RANDOM_CALLS]
"""

from __future__ import annotations

import random
import sys
import traceback
from typing import Any, Callable

import numpy as np

import qi_games
from qi_games import BatchEngine, Engine, Game, Line, Outcome, SearchResult, VecGame

#: What a bad input may raise. Anything else (PanicException above all,
#: which derives from BaseException, or an OverflowError without the
#: argument's name) is a failure.
EXPECTED = (ValueError, TypeError, IndexError, MemoryError)

#: Integers no size, count, depth or seed accepts, with the wrong types.
BAD_INTEGERS: list[Any] = [
    -1,
    -(2**63),
    2**63,
    2**64 - 1,
    2**64,
    2**200,
    10**12,
    np.int8(-1),
    np.uint64(2**64 - 1),
    True,
    1.5,
    float("nan"),
    "3",
    [],
    object(),
]

failures: list[str] = []


def attempt(label: str, call: Callable[[], Any], name: str | None = None) -> None:
    """Runs ``call``; a failure unless it returns or raises an expected
    exception naming ``name`` (when given) in its message."""
    try:
        call()
    except EXPECTED as error:
        # PyO3 names the argument of a failed conversion in a note
        # ("while processing 'depth'", Python 3.11 and later).
        said = " ".join([str(error), *getattr(error, "__notes__", [])])
        if name is not None and name not in said and sys.version_info >= (3, 11):
            failures.append(f"{label}: {type(error).__name__}({error}) does not name {name!r}")
    except BaseException as error:  # noqa: BLE001 - PanicException is a BaseException
        failures.append(f"{label}: {type(error).__module__}.{type(error).__name__}: {error}")


def integer_arguments(vec: VecGame, game: Game, engine: Engine, batch: BatchEngine) -> None:
    """Each integer argument of each call given each bad value."""
    calls: list[tuple[str, Callable[[Any], Any]]] = [
        ("depth", lambda v: qi_games.perft("jungle", v)),
        ("depth", lambda v: game.perft(v)),
        ("hash_mib", lambda v: Engine("jungle", hash_mib=v)),
        ("seed", lambda v: Engine("jungle", seed=v)),
        ("depth", lambda v: engine.search(game, depth=v)),
        ("nodes", lambda v: engine.search(game, depth=1, nodes=v)),
        ("movetime_ms", lambda v: engine.search(game, depth=1, movetime_ms=v)),
        ("level", lambda v: engine.search(game, depth=1, level=v)),
        ("multipv", lambda v: engine.search(game, depth=1, multipv=v)),
        ("n", lambda v: VecGame("jungle", v)),
        ("seed", lambda v: VecGame("jungle", 2, seed=v)),
        ("random_plies", lambda v: VecGame("jungle", 2, random_plies=v)),
        ("max_plies", lambda v: VecGame("jungle", 2, max_plies=v)),
        ("seed", lambda v: vec.reset(seed=v)),
        ("index", lambda v: vec.game(v)),
        ("threads", lambda v: BatchEngine("jungle", threads=v)),
        ("hash_mib", lambda v: BatchEngine("jungle", hash_mib=v)),
        ("seed", lambda v: BatchEngine("jungle", seed=v)),
        ("depth", lambda v: batch.search(vec, depth=v)),
        ("nodes", lambda v: batch.search(vec, depth=1, nodes=v)),
        ("movetime_ms", lambda v: batch.search(vec, depth=1, movetime_ms=v)),
        ("level", lambda v: batch.search(vec, depth=1, level=v)),
        ("action", lambda v: game.copy().play_action(v)),
        ("action", lambda v: game.action_to_move(v)),
        ("depth", lambda v: Line(1, "cp 1", v, [])),
        ("score", lambda v: Line(v, "cp 1", 1, [])),
        ("nodes", lambda v: SearchResult(None, 0, "cp 0", 1, v, [], 0.0)),
        ("depth", lambda v: SearchResult(None, 0, "cp 0", v, 1, [], 0.0)),
        ("score", lambda v: SearchResult(None, v, "cp 0", 1, 1, [], 0.0)),
    ]
    for name, call in calls:
        for value in BAD_INTEGERS:
            attempt(f"{name}={value!r}", lambda: call(value), name)


def arrays(vec: VecGame) -> None:
    """Bad arrays: read-only, wrong dtype, shape, order; actions and masks."""
    n = len(vec)
    shape = (n, *vec.observation_shape)
    read_only = np.zeros(shape, np.float32)
    read_only.setflags(write=False)
    outs: list[Any] = [
        read_only,
        np.zeros(shape, np.float64),
        np.zeros((n + 1, *shape[1:]), np.float32),
        np.zeros(shape, np.float32, order="F"),
        np.zeros(shape, np.float32)[::1, ::1, ::-1],
        np.zeros(0, np.float32),
        [0.0],
        "out",
    ]
    for out in outs:
        attempt("observations(out=...)", lambda: vec.observations(out=out), "out")
        attempt("final_observations(out=...)", lambda: vec.final_observations(out=out), "out")
    u8 = np.zeros(shape, np.uint8)
    u8.setflags(write=False)
    attempt("observations(uint8, read-only out)", lambda: vec.observations(dtype="uint8", out=u8), "out")
    for dtype in ("float64", "int32", "x", 3, object):
        attempt(f"observations(dtype={dtype!r})", lambda: vec.observations(dtype=dtype), "dtype")
    actions: list[Any] = [
        np.full(n, 2**64 - 1, np.uint64),
        np.full(n, -1, np.int64),
        np.full(n, 2**63 - 1, np.int64),
        np.zeros(n + 1, np.int64),
        np.zeros((n, 1), np.int64),
        np.zeros(n, np.float32),
        np.zeros(n, bool),
        [2**70] * n,
        ["a"] * n,
        None,
        5,
    ]
    for acts in actions:
        attempt(f"step({acts!r:.40})", lambda: vec.step(acts), "action")
    for active in (np.ones(n + 1, bool), [1] * n, "x", np.ones((n, 1), bool)):
        attempt(f"step(active={active!r:.40})", lambda: vec.step(vec.sample_actions(), active=active), "active")
    for side in ("third", 3, None, "mover", ""):
        attempt(f"final_observations(side={side!r})", lambda: vec.final_observations(side=side))


def random_calls(rng: random.Random, count: int) -> None:
    """Calls with random arguments: integers of every size and sign, texts,
    arrays of random dtypes and shapes."""

    def integer() -> Any:
        kind = rng.randrange(4)
        if kind == 0:
            return rng.randrange(-5, 70)
        if kind == 1:
            return rng.randrange(-(2**70), 2**70)
        if kind == 2:
            return np.array(rng.randrange(0, 2**64), dtype=np.uint64)[()]
        return rng.choice(BAD_INTEGERS)

    def text() -> str:
        alphabet = "abcdefgh123456789/ wbLlTtEeRr:-,=\x00\x1b\u4e94"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))

    def array() -> Any:
        dtype = rng.choice([np.int64, np.uint64, np.int8, np.float32, bool, np.uint8])
        shape = tuple(rng.randrange(0, 4) for _ in range(rng.randrange(0, 3)))
        values = np.array([rng.randrange(-300, 300) for _ in range(int(np.prod(shape)))])
        return values.astype(dtype).reshape(shape)

    specs = qi_games.presets() + ["jungle", "five-tigers", "chess", ""]
    for _ in range(count):
        spec = rng.choice(specs)
        choice = rng.randrange(9)
        if choice == 0:
            attempt("Game(text)", lambda: Game(spec, text()))
        elif choice == 1:
            attempt("Game(moves)", lambda: Game(spec, moves=[text() for _ in range(3)]))
        elif choice == 2:
            attempt("Game.from_record", lambda: Game.from_record(text()))
        elif choice == 3:
            attempt("perft", lambda: qi_games.perft(spec, rng.randrange(-3, 3)))
        elif choice == 4:
            attempt("VecGame", lambda: VecGame(spec, integer(), seed=integer(), random_plies=rng.randrange(0, 9)))
        elif choice == 5:
            vec = VecGame("five-tigers", 3, seed=rng.randrange(100))
            attempt("VecGame.step(array)", lambda: vec.step(array()))
            attempt("VecGame.step(active)", lambda: vec.step(vec.sample_actions(), active=array()))
            attempt("VecGame.observations(out)", lambda: vec.observations(out=array()))
        elif choice == 6:
            game = Game("jungle")
            attempt("play_action", lambda: game.play_action(integer()))
            attempt("play", lambda: game.play(text()))
            attempt("move_to_action", lambda: game.move_to_action(text()))
        elif choice == 7:
            attempt("Engine", lambda: Engine(spec, hash_mib=rng.randrange(-2, 4), seed=integer()))
        else:
            attempt("Outcome", lambda: Outcome(text(), rng.choice([None, text(), 3]), text()))


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    vec = VecGame("jungle", 4, seed=1)
    game = Game("jungle")
    engine = Engine("jungle", hash_mib=1)
    batch = BatchEngine("jungle", threads=1)
    try:
        integer_arguments(vec, game, engine, batch)
        arrays(vec)
        random_calls(random.Random(seed), count)
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(2)
    for failure in failures:
        print(failure)
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
