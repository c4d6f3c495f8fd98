"""The served benchmark's question without the model: every question is one topic's vector (the
file ADR_BENCH_VECTOR names), in the server's process and in each of its search processes."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

VECTOR = "ADR_BENCH_VECTOR"


class Fixed:
    def __init__(self, vector: np.ndarray) -> None:
        self.vector = vector

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.tile(self.vector, (len(texts), 1))


_started: Any = None  # the search process's own start, which ours runs after installing


def install() -> None:
    """The question's embedding left out of this process's searches, and its search processes'."""
    global _started
    from adr_memory.commands import across
    from adr_memory.surfaces import searchers

    fixed = Fixed(np.load(os.environ[VECTOR]))
    across._model = lambda cache: fixed
    if searchers._serve is not _serve:  # the search process installs it before it opens the store
        _started, searchers._serve = searchers._serve, _serve


def _serve(url: str, threads: int, pipe: Any) -> None:
    install()
    _started(url, threads, pipe)
