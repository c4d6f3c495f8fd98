"""Where the index lives on disk: one builder at a time (a lock in the cache), each build made
in a folder of its own beside `current` and swapped in whole, leftovers of killed builds removed
only inside the cache folder we marked."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from adr_memory.base import cache
from adr_memory.errors import AdrError
from adr_memory.history import Workspace


class Busy(Exception):
    """Another process is building the index and did not finish in time."""


@contextlib.contextmanager
def build_lock(cache_root: Path, wait: float) -> Iterator[None]:
    """One builder per index: wait up to `wait` seconds for the lock, else raise Busy."""
    deadline = time.monotonic() + wait
    with open(cache.entry(cache_root, "index.lock"), "a+b") as handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy() from None
                time.sleep(0.1)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def building(cache_root: Path) -> bool:
    """Whether another process holds the build lock now (a look, not a wait)."""
    try:
        with build_lock(cache_root, wait=0):
            return False
    except Busy:
        return True
    except OSError:  # no cache folder to look in: nobody builds there
        return False


def swap_in(cache_root: Path, build_fn: Callable[[Path], Any]) -> None:
    """Build into a temp dir beside `current`, then replace it atomically. Call under
    `build_lock`. Leftovers of killed builds are removed, only inside our marked cache."""
    folder = cache.entry(cache_root, "index")
    folder.mkdir(exist_ok=True)
    for leftover in (*folder.glob("build-*"), *folder.glob("old-*")):  # under the lock: a killed build's
        cache.remove(cache_root, leftover)
    tmp = folder / f"build-{os.getpid()}-{time.monotonic_ns()}"
    old = folder / f"old-{os.getpid()}-{time.monotonic_ns()}"
    try:
        build_fn(tmp)
        current = folder / "current"
        if current.exists():
            os.replace(current, old)
        os.replace(tmp, current)
    except (OSError, ValueError) as exc:  # tantivy reports a full disk as a ValueError
        raise cache.CacheUnavailable(f"the index cannot be written: {exc}") from None
    finally:
        for leftover in (tmp, old, *folder.glob("build-*"), *folder.glob("old-*")):
            cache.remove(cache_root, leftover)


def built_since(meta: dict[str, Any], moment: float) -> bool:
    """Whether the index `meta` describes began to be built after `moment` (Unix seconds): then
    it read the records as they were when a caller asked at `moment`, or later."""
    started = meta.get("started")
    return isinstance(started, (int, float)) and started >= moment


def sweep(cache_root: Path) -> None:
    """Remove what killed builds left (`build-*`, `old-*`), when no build runs now."""
    folder = cache.entry(cache_root, "index")
    if not folder.is_dir():
        return
    try:
        with build_lock(cache_root, wait=0):
            for leftover in (*folder.glob("build-*"), *folder.glob("old-*")):
                cache.remove(cache_root, leftover)
    except (Busy, OSError):
        pass  # a build runs (it sweeps when it starts), or the cache is not ours to write


FIRST_BUILD_SECTIONS = 300  # sections to embed before a question stops waiting for them (~10 s on two cores)


def meaning_on_its_way(ws: Workspace) -> str | None:
    """Why a hybrid question is answered from keywords at once, or None to answer it whole:
    another process is building the index (eight cold searches at once built eight indexes in
    memory, 312 s), or this is a first build long enough to run in the background (cometbft's
    took minutes on a busy machine, a question waiting for all of it)."""
    root = ws.cache_path
    # The marker first: a builder takes the lock before it drops the marker, so one of the two
    # is always there while a build is on its way.
    if _fresh_marker(root) or building(root):
        return "keyword-only: another process is building the index's meaning leg; ask again when it is done"
    if _has_vectors(root):
        return None  # a refresh embeds what changed, which is short
    sections = sum(1 + len(rec.sections) for rec in ws.catalog if not rec.unread)
    if sections <= FIRST_BUILD_SECTIONS or not _build_in_background(ws.cache_path, ws.root):
        return None
    return (
        f"keyword-only: the index's meaning leg ({sections:,} sections) is being built in the background "
        f"(`adr index`), about {_how_long(sections)} on this machine when idle; ask again then"
    )


PASSAGES_A_CORE_SECOND = 17.0  # the bundled model, measured (benchmarks/bench_first_build.py: 1,558 in 89 CPU s)


def _how_long(sections: int) -> str:
    """How long a first build of `sections` takes here, in words: the model's measured pace on
    this machine's cores (1.15-1.2 passages a section on cometbft and tdr: long ones make more)."""
    seconds = 1.2 * sections / (PASSAGES_A_CORE_SECOND * min(os.cpu_count() or 1, 4))
    return f"{max(1, round(seconds / 60))} min" if seconds >= 90 else f"{max(10, round(seconds, -1)):.0f} s"


def _build_in_background(cache_path: Path, root: Path) -> bool:
    """Start `adr index` in a process of its own, detached from this one; False when it cannot
    start (no writable cache, no interpreter to run it)."""
    import subprocess
    import sys

    try:
        if not _starting(cache.ensure(cache_path)):
            return True  # another search started one a moment ago: it is on its way
        subprocess.Popen(
            [sys.executable, "-m", "adr_memory", "index"],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C of this search does not stop the build
        )
    except (OSError, AdrError):
        return False
    return True


STARTING = "index.starting"  # a builder started and not yet holding the lock (Python's start-up)
STARTING_FOR = 120.0  # seconds after which a marker no builder took is stale


def _fresh_marker(cache_root: Path) -> bool:
    try:
        return time.time() - cache.entry(cache_root, STARTING).stat().st_mtime < STARTING_FOR
    except (OSError, AdrError):
        return False


def _starting(cache_root: Path) -> bool:
    """Claim the start of the one background builder: True for the caller that should start it.
    Eight cold searches at once each saw no lock held (a builder takes a second to take it) and
    started eight."""
    marker = cache.entry(cache_root, STARTING)
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        try:
            if time.time() - marker.stat().st_mtime < STARTING_FOR:
                return False
            marker.unlink()  # stale: its builder died before it built anything
        except OSError:
            return False
        return _starting(cache_root)
    os.close(fd)
    if building(cache_root) or _has_vectors(cache_root):  # one started and built between the looks
        started(cache_root)
        return False
    return True


def started(cache_root: Path) -> None:
    """A builder holds the lock now: the next cold search finds it building, not starting."""
    with contextlib.suppress(OSError):
        cache.entry(cache_root, STARTING).unlink()


def _has_vectors(root: Path) -> bool:
    """Whether the current index holds vectors (its meta names them), read without opening it."""
    import json

    try:
        meta = json.loads((cache.entry(root, "index") / "current" / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(meta, dict) and bool(meta.get("vectors"))
