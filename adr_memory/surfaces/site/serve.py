"""`adr site --serve`: the built site on localhost, for a look before publishing."""

from __future__ import annotations

import contextlib
import functools
import http.server
import signal
from collections.abc import Callable
from pathlib import Path

# The pages' own policy (templates/base.html), sent with every file: a file opened on its own (a
# record's picture) gets it too. What the records keep beside them is sandboxed besides: a
# document there runs nothing, whatever it holds.
POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'"
KEPT_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Requests are not news at a terminal."""

    def end_headers(self) -> None:
        kept = self.path.split("?", 1)[0].startswith("/files/")
        self.send_header("Content-Security-Policy", KEPT_POLICY if kept else POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()


def serve(folder: Path, port: int, ready: Callable[[str], None]) -> None:
    """Serve `folder` on 127.0.0.1 until interrupted (Ctrl-C or SIGTERM ends it cleanly)."""
    handler = functools.partial(_Quiet, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        ready(f"http://127.0.0.1:{server.server_address[1]}/")
        # A supervisor's stop (SIGTERM) ends it as cleanly as Ctrl-C: a server started in the
        # background of a script ignores SIGINT, so that is how it gets stopped there.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            with contextlib.suppress(KeyboardInterrupt):
                server.serve_forever()
        finally:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt
