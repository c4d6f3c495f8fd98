"""The served hub's searches, answered in processes of their own (ADR-0112). A search embeds the
question and ranks passages: CPU work that, in the server's process, holds Python's lock while
the pages and lists beside it wait. In worker processes at a lower priority, the system gives
the server's own requests the cores first: a search never blocks the server."""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from adr_memory.errors import AdrError, UsageError

NICE = 10  # how much a search yields: a page must not wait behind one
WATCH = 0.5  # seconds between a worker's looks at whether the server that started it is gone

_store: Any = None  # a worker's store, opened once when it starts


class Searchers:
    """`count` worker processes answering `commands.hub.search` over the hub `url`; called as it is
    (the same arguments, the same answer, the same errors)."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self._lock = threading.Lock()
        self._pool = self._started()

    def _started(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn: a fork of a server holding threads, a pool's connections and the model is unsafe
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(self.count, mp_context=context, initializer=_start, initargs=(self.url, os.getpid()))
        for _ in range(self.count):  # each worker opens the store and loads the model now, not on a first question
            pool.submit(_ready)
        return pool

    def __call__(self, query: str, **asked: Any) -> dict[str, Any]:
        from concurrent.futures.process import BrokenProcessPool

        pool = self._pool
        try:
            outcome = pool.submit(_search, query, asked).result()
        except BrokenProcessPool:  # a worker was killed (out of memory, by hand): new ones answer
            with self._lock:
                if self._pool is pool:
                    self._pool = self._started()
            outcome = self._pool.submit(_search, query, asked).result()
        kind, answer, hint = outcome
        if kind == "usage":
            raise UsageError(answer, hint=hint)
        if kind == "error":
            raise AdrError(answer, hint=hint)
        return dict(answer)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)  # a worker mid-search ends it first


def _start(url: str, server: int) -> None:
    """A worker's start: a lower priority, the store opened, the question's model loaded, and a
    watch that ends the worker when the server that started it is gone (killed, it could not say)."""
    global _store
    import time

    os.nice(NICE)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="server-watch").start()
    from adr_memory.commands import across
    from adr_memory.commands import hub as commands

    _store = commands.open_hub(url)
    with contextlib.suppress(Exception):  # a model that cannot load is said by the first search, as in one process
        across._model(commands.model_cache())


def _ready() -> bool:
    return _store is not None


def _search(query: str, asked: dict[str, Any]) -> tuple[str, Any, str | None]:
    """One search, its answer or its error as data: an error's class and hint cross back whole."""
    from adr_memory.commands import hub as commands

    try:
        return "answer", commands.search(_store, query, **asked), None
    except UsageError as exc:
        return "usage", exc.message, exc.hint
    except AdrError as exc:
        return "error", exc.message, exc.hint
