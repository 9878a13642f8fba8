"""No input aborts the interpreter: bad sizes, integers and arrays are
ValueError, TypeError, IndexError or MemoryError naming the argument.

Each check runs in a subprocess, so that an abort (rc 134 from a Rust
panic, a failed allocation) fails the test instead of killing pytest."""

import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_every_public_call_survives_bad_and_random_values():
    done = subprocess.run(
        [sys.executable, str(HERE / "bad_inputs.py"), "20261205", "300"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert done.stdout.strip().endswith("0 failures")


@pytest.mark.parametrize("method", ["observations", "final_observations"])
@pytest.mark.parametrize("dtype", ["float32", "uint8", "bool"])
def test_a_read_only_out_array_is_a_value_error(method, dtype):
    done = run(
        "import numpy as np, qi_games\n"
        "vec = qi_games.VecGame('jungle', 4)\n"
        f"a = np.zeros((4, 50, 9, 7), np.{dtype} if '{dtype}' != 'bool' else bool)\n"
        "a.setflags(write=False)\n"
        "try:\n"
        f"    vec.{method}(dtype='{dtype}', out=a)\n"
        "except ValueError as e:\n"
        "    print('ValueError:', e)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "ValueError: out is read-only" in done.stdout


@pytest.mark.parametrize(
    "call, words",
    [
        ("qi_games.VecGame('jungle', 10**12)", "n must be 1 to 262144, not 1000000000000"),
        ("qi_games.VecGame('jungle', 2**64)", "n must be 1 to 262144"),
        ("qi_games.VecGame('jungle', 2, random_plies=10**9)", "random_plies must be 0 to 1000"),
        ("qi_games.BatchEngine('jungle', threads=10**9)", "threads must be 1 to 64, not 1000000000"),
        ("qi_games.BatchEngine('jungle', threads=64, hash_mib=4096)", "threads × hash_mib is 64 × 4096 MiB"),
        ("qi_games.Engine('jungle', hash_mib=10**9)", "hash_mib must be 1 to 4096"),
        ("qi_games.Engine().search(qi_games.Game(), depth=1, movetime_ms=2**64 - 1)", "movetime_ms must be 0 to"),
    ],
)
def test_huge_sizes_are_value_errors_naming_the_argument(call, words):
    done = run(
        "import qi_games\n"
        "try:\n"
        f"    {call}\n"
        "except ValueError as e:\n"
        "    print('ValueError:', e)\n"
    )
    assert done.returncode == 0, done.stderr
    assert words in done.stdout
