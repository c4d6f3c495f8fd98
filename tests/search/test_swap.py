"""search.swap: one builder at a time, builds swapped in whole, and a question that would wait for
a long first build (or for another process's) answered from keywords at once."""

from __future__ import annotations

import json
import time

from adr_memory.search import index as idx
from adr_memory.search import swap
from tests.helpers import run


def test_a_question_during_another_build_is_answered_from_keywords_at_once(few, capsys):
    """Eight cold searches at once built eight indexes in memory: one builds, the rest answer
    from keywords and say why."""
    from adr_memory.base import cache

    root = few / ".adr-cache"
    cache.ensure(root)
    with swap.build_lock(root, wait=0):
        answer = json.loads(run(capsys, "search", "Concourse", "--json").out)
    assert answer["mode"] == "keyword" and "another process is building" in answer["fallback"]
    assert answer["results"][0]["id"] == "ADR-0003"


def test_a_long_first_build_runs_in_the_background_while_keywords_answer(few, capsys, monkeypatch):

    monkeypatch.setattr(swap, "FIRST_BUILD_SECTIONS", 5)  # the ten records hold more than five
    answer = json.loads(run(capsys, "search", "Why did we replace Jenkins with Concourse?", "--json").out)
    assert answer["mode"] == "keyword" and "being built in the background" in answer["fallback"]
    assert answer["results"][0]["id"] == "ADR-0003"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        current = idx.open_current(few / ".adr-cache", vectors=True)
        if current is not None and current.meta.get("vectors") and not swap.building(few / ".adr-cache"):
            break
        time.sleep(0.5)
    whole = json.loads(run(capsys, "search", "Why did we replace Jenkins with Concourse?", "--json").out)
    assert (whole["mode"], whole["fallback"]) == ("hybrid", None)


def test_a_look_at_the_lock_takes_nothing_and_sees_a_builder(tmp_path):
    from adr_memory.base import cache

    root = cache.ensure(tmp_path / ".adr-cache")
    assert swap.building(root) is False
    with swap.build_lock(root, wait=0):
        assert swap.building(root) is True
    assert swap.building(root) is False
    assert swap.building(tmp_path / "no-cache-here") is False


def test_eight_cold_searches_at_once_start_one_builder(few, monkeypatch):
    """Each saw no lock held (a builder takes a second to take it) and started eight."""
    import subprocess
    import threading

    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda args, **_kw: started.append(args))
    monkeypatch.setattr(swap, "FIRST_BUILD_SECTIONS", 5)
    from adr_memory.history import Workspace

    said: list[str | None] = []

    def ask() -> None:
        said.append(swap.meaning_on_its_way(Workspace.discover(few), lambda _rec: False))

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for t in askers:
        t.start()
    for t in askers:
        t.join()
    assert len(started) == 1 and all(s and s.startswith("keyword-only") for s in said), (started, said)
    root = few / ".adr-cache"
    swap.started(root)  # the builder took the lock: the marker goes, and a stale one is claimed again
    assert swap._starting(root) and not swap._starting(root)


def test_a_rebuild_asked_during_another_uses_it_and_leftovers_are_swept(few):
    from adr_memory.commands import index
    from adr_memory.history import Workspace

    asked = time.time()
    first = index.run(Workspace.discover(few), rebuild=True)
    current = idx.open_current(few / ".adr-cache", vectors=True)
    assert first["built"] and swap.built_since(current.meta, asked)
    assert not swap.built_since(current.meta, time.time() + 60)
    again = index.run(Workspace.discover(few))
    assert (again["built"], again["embedded"], again["reused"]) == (False, 0, first["vectors"])
    leftover = few / ".adr-cache" / "index" / "build-1-2"
    leftover.mkdir()
    index.run(Workspace.discover(few))  # nothing to build: what a killed build left goes
    assert not leftover.exists()
