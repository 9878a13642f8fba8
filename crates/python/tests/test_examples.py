"""The Python examples run (quick settings)."""

import subprocess
import sys

import pytest

from conftest import REPO


def run_quick(example: str, spec: str) -> list[str]:
    """The lines `examples/python/EXAMPLE --quick` prints for `spec`."""
    script = REPO / "examples" / "python" / example
    run = subprocess.run([sys.executable, str(script), spec, "--quick"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_alphazero_example_trains_and_reports_before_and_after():
    lines = run_quick("alphazero_numpy.py", "five-tigers")
    assert lines[0].strip().startswith("before: score") and lines[-1].strip().startswith("after: score")
    assert any(line.startswith("iteration 1:") for line in lines)


@pytest.mark.parametrize("spec", ["jungle", "five-tigers"])
def test_training_example_trains_a_policy_that_plays_legal_moves(spec):
    # A tiny round, then 4 games against level 1 through `evaluate`, whose
    # `VecGame.step` refuses an illegal action (the run would fail).
    lines = run_quick("train_vs_level.py", spec)
    assert lines[0].startswith("round 1:") and lines[-1].startswith("against level 1: 4 games:")
