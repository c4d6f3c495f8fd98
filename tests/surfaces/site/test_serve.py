"""`adr site --serve`: builds, serves the site on localhost, and ends cleanly on Ctrl-C or SIGTERM."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request

import pytest

from tests.helpers import adr_text, commit


def _as_at_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it: a test run started in the background of a shell
    ignores SIGINT, and its children inherit that (Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_builds_then_serves_until_interrupted(repo, stop):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use queues")}, "a")
    proc = subprocess.Popen(
        [sys.executable, "-m", "adr_memory", "site", "--serve", "--port", "0"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_at_a_terminal,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        url = re.search(r"serving (http://127\.0\.0\.1:\d+/)", lines[-1]).group(1)
        with urllib.request.urlopen(url + "decisions/ADR-0001.html", timeout=60) as page:
            assert "Use queues" in page.read().decode()
            assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        with urllib.request.urlopen(url + "assets/icon.svg", timeout=60) as icon:  # every file, not only pages
            assert icon.headers["Content-Security-Policy"] and icon.headers["X-Content-Type-Options"] == "nosniff"
        proc.send_signal(stop)
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    assert "Traceback" not in proc.stderr.read()
    assert lines[0].startswith("wrote 1 decision,")
