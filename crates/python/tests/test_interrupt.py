"""Ctrl-C (SIGINT) stops long searches and perft with KeyboardInterrupt."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

CALLS = {
    "search": "qi_games.Engine().search(qi_games.Game(), depth=40)",
    "perft": "qi_games.perft('jungle', 9)",
    "game perft": "qi_games.Game('five-tigers').perft(12)",
    "batch search": "qi_games.BatchEngine(threads=1).search(qi_games.VecGame('jungle', 4), depth=40)",
}


@pytest.mark.parametrize("name", list(CALLS))
def test_sigint_stops_the_call_within_a_fraction_of_a_second(name):
    script = textwrap.dedent(
        f"""
        import sys, time
        import qi_games
        print("ready", flush=True)
        try:
            {CALLS[name]}
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            sys.exit(0)
        print("finished", flush=True)
        sys.exit(1)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # well inside the call, which runs for minutes
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail(f"{name} ignored SIGINT")
    word, stamp = out.split()
    assert word == "interrupted" and child.returncode == 0
    # The worker is polled every 20 ms; allow for a loaded machine.
    assert float(stamp) - sent < 0.5, f"{name} took {float(stamp) - sent:.3f} s to stop"
