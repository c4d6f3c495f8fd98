"""search.swap: one builder at a time, builds swapped in whole, and a question that would wait for
a long first build (or for another process's) answered from keywords at once."""

from __future__ import annotations

import json
import time

import pytest

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
        said.append(swap.meaning_on_its_way(Workspace.discover(few)))

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


@pytest.mark.parametrize(
    ("sections", "cores", "said"),
    [
        (100, 1, "10 s"),  # 7 s: never said as less than ten seconds
        (1000, 1, "70 s"),  # 70.6 s, to the nearest ten
        (1300, 1, "2 min"),  # 92 s: a minute and a half or more is said in minutes
        (1558, 4, "30 s"),  # 27.5 s on four cores
        (1558, 16, "30 s"),  # more than four cores are counted as four
        (30000, 2, "18 min"),
        (1000, None, "70 s"),  # a machine that cannot say its cores is counted as one
    ],
)
def test_a_first_build_s_length_is_said_in_round_words_for_this_machine(monkeypatch, sections, cores, said):
    monkeypatch.setattr(swap.os, "cpu_count", lambda: cores)
    assert swap._how_long(sections) == said


@pytest.mark.parametrize(
    ("meta", "built"),
    [
        ({"started": 100.0}, True),  # began at the moment asked
        ({"started": 100}, True),
        ({"started": 150.5}, True),
        ({"started": 99.9}, False),  # began before: it may have read the records as they were
        ({}, False),
        ({"started": "150"}, False),  # a damaged meta says nothing
        ({"started": None}, False),
    ],
)
def test_an_index_serves_a_caller_only_when_its_build_began_after_the_caller_asked(meta, built):
    assert swap.built_since(meta, 100.0) is built


def _cache(tmp_path):
    from adr_memory.base import cache

    root = cache.ensure(tmp_path / ".adr-cache")
    (root / "index").mkdir()
    return root


@pytest.mark.parametrize(
    ("meta", "has"),
    [
        ('{"vectors": {"rows": 3}}', True),
        ('{"vectors": null}', False),
        ('{"vectors": {}}', False),
        ("{}", False),
        ('["vectors"]', False),  # no object
        ("{not json", False),
        ("[" * 100_000, False),  # nested past Python's recursion limit
    ],
)
def test_whether_the_current_index_holds_vectors_is_read_from_its_meta_alone(tmp_path, meta, has):
    root = _cache(tmp_path)
    assert swap._has_vectors(root) is False  # no current index at all
    (root / "index" / "current").mkdir()
    (root / "index" / "current" / "meta.json").write_text(meta)
    assert swap._has_vectors(root) is has


def test_a_start_marker_is_fresh_for_its_time_and_a_stale_one_is_claimed_again(tmp_path):
    import os

    root = _cache(tmp_path)
    assert not swap._fresh_marker(root)
    assert swap._starting(root) is True  # the first caller starts the builder
    assert swap._fresh_marker(root)
    assert swap._starting(root) is False  # the next finds it on its way
    marker = root / swap.STARTING
    long_ago = time.time() - swap.STARTING_FOR - 1
    os.utime(marker, (long_ago, long_ago))  # its builder died before it took the lock
    assert not swap._fresh_marker(root)
    assert swap._starting(root) is True
    swap.started(root)
    assert not marker.exists()
    swap.started(root)  # a builder with no marker to remove goes on


def test_a_marker_claimed_while_an_index_with_vectors_is_already_there_starts_nothing(tmp_path):
    root = _cache(tmp_path)
    (root / "index" / "current").mkdir()
    (root / "index" / "current" / "meta.json").write_text('{"vectors": {"rows": 1}}')
    assert swap._starting(root) is False
    assert not (root / swap.STARTING).exists()  # the marker it took is given back


def test_a_build_is_swapped_in_whole_and_the_one_before_goes(tmp_path):
    root = _cache(tmp_path)
    folder = root / "index"
    (folder / "current").mkdir()
    (folder / "current" / "old.txt").write_text("old")
    (folder / "build-9-9").mkdir()  # what a killed build left
    (folder / "old-9-9").mkdir()

    def build(target):
        target.mkdir()
        (target / "new.txt").write_text("new")

    swap.swap_in(root, build)
    assert sorted(p.name for p in folder.iterdir()) == ["current"]
    assert sorted(p.name for p in (folder / "current").iterdir()) == ["new.txt"]


@pytest.mark.parametrize("error", [OSError("No space left on device"), ValueError("IoError: disk full")])
def test_a_build_that_cannot_be_written_leaves_the_current_index_and_no_leftovers(tmp_path, error):
    from adr_memory.base import cache

    root = _cache(tmp_path)
    folder = root / "index"
    (folder / "current").mkdir()

    def build(target):
        target.mkdir()
        raise error

    with pytest.raises(cache.CacheUnavailable) as told:
        swap.swap_in(root, build)
    assert told.value.message == f"the index cannot be written: {error}"
    assert sorted(p.name for p in folder.iterdir()) == ["current"]


def test_a_sweep_removes_what_killed_builds_left_but_not_while_a_build_runs(tmp_path):
    root = _cache(tmp_path)
    folder = root / "index"
    for name in ("current", "build-1-2", "old-3-4"):
        (folder / name).mkdir()
    with swap.build_lock(root, wait=0):
        swap.sweep(root)
        assert sorted(p.name for p in folder.iterdir()) == ["build-1-2", "current", "old-3-4"]
    swap.sweep(root)
    assert sorted(p.name for p in folder.iterdir()) == ["current"]
    swap.sweep(tmp_path / "nothing-here")  # no index folder: nothing to do


def test_a_second_builder_that_may_not_wait_is_told_busy(tmp_path):
    root = _cache(tmp_path)
    with swap.build_lock(root, wait=0), pytest.raises(swap.Busy), swap.build_lock(root, wait=0):
        pass
    with swap.build_lock(root, wait=0):  # released: the next takes it
        pass
