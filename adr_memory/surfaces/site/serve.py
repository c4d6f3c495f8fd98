"""`adr site --serve`: the built site on localhost, for a look before publishing."""

from __future__ import annotations

import contextlib
import functools
import http.server
from collections.abc import Callable
from pathlib import Path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Requests are not news at a terminal."""


def serve(folder: Path, port: int, ready: Callable[[str], None]) -> None:
    """Serve `folder` on 127.0.0.1 until interrupted (Ctrl-C ends it cleanly)."""
    handler = functools.partial(_Quiet, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        ready(f"http://127.0.0.1:{server.server_address[1]}/")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
