"""The served hub's searches, answered in a process of its own (ADR-0112). A search embeds the
question and ranks passages: CPU work that, in the server's process, holds Python's lock while
the pages and lists beside it wait. In a search process at a lower priority, the system gives
the server's own requests the cores first: a search never blocks the server.

One process, its searches in threads, as the server's were: its searches share one copy of the
model, which stays in the processor's cache (two processes, each with its own copy, made a
search a third slower even one at a time)."""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from adr_memory.errors import AdrError, UsageError

NICE = 10  # how much a search yields: a page must not wait behind one

Outcome = tuple[str, Any, str | None]  # ("answer", the answer, None), or an error's kind, message and hint
LOST: Outcome = ("lost", "the hub's search process ended", "try again")  # asked again once, of a new one


class Searchers:
    """A search process answering `commands.hub.search` over the hub `url`, `threads` at once;
    called as that function is (the same arguments, the same answer, the same errors)."""

    def __init__(self, url: str, threads: int) -> None:
        self.url, self.threads = url, threads
        self._lock = threading.Lock()  # one sender at a time; the process and its pipe replaced whole
        self._numbers = itertools.count()
        self._started()

    def _started(self) -> None:
        import multiprocessing

        # spawn: a fork of a server holding threads, a pool's connections and the model is unsafe
        context = multiprocessing.get_context("spawn")
        self._pipe, theirs = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(self.url, self.threads, theirs), name="adr-hub-search", daemon=True
        )
        self._process.start()
        theirs.close()  # the process holds its end: when the server's end closes (or the server dies), it ends
        self._waiting: dict[int, Future[Outcome]] = {}  # this process's searches: lost with it
        self._ended = threading.Event()  # its pipe closed: it is gone, or going
        answers = threading.Thread(
            target=_read, args=(self._pipe, self._waiting, self._ended), name="adr-hub-search-answers"
        )
        answers.daemon = True
        answers.start()

    def __call__(self, query: str, **asked: Any) -> dict[str, Any]:
        outcome = self._asked(query, asked)
        if outcome[0] == "lost":  # killed (out of memory, by hand) while it held this search: a new one answers
            outcome = self._asked(query, asked)
        kind, answer, hint = outcome
        if kind == "usage":
            raise UsageError(answer, hint=hint)
        if kind in ("error", "lost"):
            raise AdrError(answer, hint=hint)
        return dict(answer)

    def _asked(self, query: str, asked: dict[str, Any]) -> Outcome:
        future: Future[Outcome] = Future()
        with self._lock:
            if self._ended.is_set() or not self._process.is_alive():
                self._started()
            number = next(self._numbers)
            self._waiting[number] = future
            try:
                self._pipe.send((number, query, asked))
            except OSError:  # it ended between the look and the send
                self._waiting.pop(number, None)
                self._ended.set()
                future.set_result(LOST)
        return future.result()

    def close(self) -> None:
        """End the search process: told to, it finishes the searches it holds and ends."""
        with self._lock, contextlib.suppress(OSError):  # already gone
            self._pipe.send(None)
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
        self._pipe.close()


def _read(pipe: Any, waiting: dict[int, Future[Outcome]], ended: threading.Event) -> None:
    """Hand each answer of one search process to the request waiting for it; when the process
    is gone, say so and tell those still waiting (each asks once more, of a new one)."""
    while True:
        try:
            number, outcome = pipe.recv()
        except (EOFError, OSError):
            break
        asker = waiting.pop(number, None)
        if asker is not None:
            asker.set_result(outcome)
    ended.set()  # before the askers hear: the one that asks again must find it gone
    while waiting:
        waiting.popitem()[1].set_result(LOST)


def _serve(url: str, threads: int, pipe: Any) -> None:
    """The search process: a lower priority, the store opened and the question's model loaded
    once, then each question asked answered in one of `threads` threads, until the server says
    it ends or its end of the pipe closes (a server that was killed closes it too)."""
    from adr_memory.commands import across
    from adr_memory.commands import hub as commands
    from adr_memory.surfaces import boundary

    os.nice(NICE)
    store = commands.open_hub(url)
    with contextlib.suppress(Exception):  # a model that cannot load is said by the first search, as in one process
        across._model(commands.model_cache())
    sending = threading.Lock()

    def send(number: int, outcome: Outcome) -> None:
        with sending, contextlib.suppress(OSError):  # the server is gone: nobody to tell
            pipe.send((number, outcome))

    def sent(number: int) -> Any:
        def done(search: Future[Outcome]) -> None:  # a bug raised whole (ADR_DEBUG=1): its asker still hears
            failed = search.exception()
            send(number, search.result() if failed is None else ("error", repr(failed), boundary.BUG_HINT))

        return done

    with ThreadPoolExecutor(threads, thread_name_prefix="search") as pool:
        while True:
            try:
                asking = pipe.recv()
            except (EOFError, OSError):  # the server was killed: its end closed with it
                break
            if asking is None:  # the server ends
                break
            number, query, asked = asking
            pool.submit(_search, store, query, asked).add_done_callback(sent(number))


def _search(store: Any, query: str, asked: dict[str, Any]) -> Outcome:
    """One search, its answer or its error as data: an error's class and hint cross back whole,
    a bug as the boundary tells one (the server logs it and answers 500, as in one process)."""
    from adr_memory.commands import hub as commands
    from adr_memory.surfaces import boundary

    def told(exc: AdrError) -> Outcome:
        return ("usage" if isinstance(exc, UsageError) else "error"), exc.message, exc.hint

    return boundary.guarded(lambda: ("answer", commands.search(store, query, **asked), None), told)
