from __future__ import annotations

import os

# rich reads COLUMNS when a console is made, and render's consoles are made when it is first
# imported: before any fixture runs. The width every test reads tables at is set here, first.
os.environ["COLUMNS"] = "200"

# Under pytest-xdist each worker (and every process it starts) keeps to a core of its own: two
# workers whose model sessions each spread over both cores only spin against each other.
if os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw") and hasattr(os, "sched_setaffinity"):
    _cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {_cores[int(os.environ["PYTEST_XDIST_WORKER"][2:]) % len(_cores)]})

import shutil
from pathlib import Path

import pytest

from adr_memory.history.workspace import Workspace
from adr_memory.search import embed, search
from tests.helpers import CORPORA, commit, git


@pytest.fixture(autouse=True)
def sealed(tmp_path_factory, monkeypatch):
    """No test touches the real HOME, git config, clock-dependent identity or the CI it runs in."""
    home = tmp_path_factory.mktemp("home")
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Ada Author")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "ada@example.com")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("ADR_DEBUG", raising=False)
    # The suite runs inside CI too: output is judged as a terminal shows it unless a test says CI.
    for var in ("CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """An empty git repository as the current directory."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    monkeypatch.chdir(root)
    return root


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory):
    """The bundled model, assembled and loaded once for the whole run."""
    cache = tmp_path_factory.mktemp("model-cache")
    embed.load(cache)
    return cache


@pytest.fixture(scope="session")
def built_cache(tmp_path_factory, model_cache):
    """A cache with the model folder and a full index of cloud-platform, embedded once for the
    whole run: the first worker to need it builds it, under a lock, where every worker finds it."""
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    root = shared / "built-cloud-platform"
    with open(shared / "built-cloud-platform.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / ".built").exists():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir()
            git(root, "init", "-q")
            shutil.copytree(CORPORA / "cloud-platform", root / "docs/adr")
            (root / "docs/adr/SOURCE.md").unlink()
            search.prepare(Workspace.discover(root), mode="hybrid")
            (root / ".built").touch()
    return root / ".adr-cache"


@pytest.fixture
def corpus(repo, built_cache):
    """cloud-platform in a fresh repo; its cache holds vectors to reuse (tantivy rebuilds)."""
    shutil.copytree(CORPORA / "cloud-platform", repo / "docs/adr")
    (repo / "docs/adr/SOURCE.md").unlink()
    shutil.copytree(built_cache, repo / ".adr-cache")
    commit(repo, {}, "corpus")
    return repo


@pytest.fixture
def few(repo, model_cache):
    """The first ten cloud-platform records in a fresh repo, no cache: for tests of what a
    build does (rebuilds, races, damage), which a whole corpus only makes slower."""
    (repo / "docs/adr").mkdir(parents=True)
    for path in sorted((CORPORA / "cloud-platform").glob("00*.md")):
        shutil.copy(path, repo / "docs/adr" / path.name)
    commit(repo, {}, "a few records")
    return repo


def pytest_collection_modifyitems(items):
    """The evaluation over six folders is the longest module by far: handed out first, it runs
    beside the rest of the suite instead of after it."""
    items.sort(key=lambda item: 0 if item.nodeid.startswith("tests/search/test_evaluation.py") else 1)
