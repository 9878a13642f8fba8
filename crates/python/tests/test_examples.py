"""The Python examples run (quick settings)."""

import subprocess
import sys

from conftest import REPO


def test_alphazero_example_trains_and_reports_before_and_after():
    script = REPO / "examples" / "python" / "alphazero_numpy.py"
    run = subprocess.run(
        [sys.executable, str(script), "five-tigers", "--quick"], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].strip().startswith("before: score") and lines[-1].strip().startswith("after: score")
    assert any(line.startswith("iteration 1:") for line in lines)
