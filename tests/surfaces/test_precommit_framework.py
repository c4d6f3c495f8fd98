"""The pre-commit framework installs both hooks from this checkout, as a user's
`.pre-commit-config.yaml` would name it, and runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import adr_text, commit, git

ROOT = Path(__file__).parents[2]
# What is not the project's source: a virtualenv inside the checkout (CI makes one there: 600 MB
# copied and committed made this the suite's longest test), caches, builds.
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".adr-cache", "__pycache__", "*.egg-info", ".pytest_cache", "build", "dist", ".venv", "venv",
    ".lowest-venv", ".hypothesis", ".mypy_cache", ".ruff_cache", ".tox", "node_modules",
)  # fmt: skip


@pytest.fixture(scope="session")
def hook_source(tmp_path_factory):
    """(PRE_COMMIT_HOME, config file): this checkout's files as they are on disk, committed
    in a repository of their own, named by a config as a user's names a hook repository.
    pre-commit builds the hook environment once per run and every test reuses it
    (`pre-commit try-repo` builds one per call, in a store of its own: ~20 s each)."""
    base = tmp_path_factory.mktemp("pre-commit")
    source = base / "adr-memory"
    shutil.copytree(ROOT, source, ignore=_NOT_SOURCE)
    git(source, "init", "-q", "-b", "main")
    git(source, "add", "-A")
    git(source, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "hooks under test")
    config = base / "pre-commit-config.yaml"
    config.write_text(
        f"repos:\n  - repo: {source}\n    rev: {git(source, 'rev-parse', 'HEAD')}\n"
        "    hooks:\n      - id: adr-lint\n      - id: adr-guard\n"
    )
    return base / "home", config


def _try_repo(repo, hook_source, hook, *files):
    home, config = hook_source
    exe = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run(
        [exe, "run", "--config", str(config), hook, "--files", *files],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def test_adr_lint_passes_a_good_adr_and_fails_a_bad_one(repo, hook_source):
    commit(repo, {"docs/adr/0001-good.md": adr_text("Good"), "docs/adr/0002-bad.md": "---\nstatus: [x\n---\n# Bad\n"})
    good = _try_repo(repo, hook_source, "adr-lint", "docs/adr/0001-good.md")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _try_repo(repo, hook_source, "adr-lint", "docs/adr/0002-bad.md")
    assert bad.returncode == 1 and "0002-bad.md:3: error: yaml" in bad.stdout


def test_adr_guard_names_the_governing_decision(repo, hook_source):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    result = _try_repo(repo, hook_source, "adr-guard", "src/db/a.py")
    assert result.returncode == 0 and "ADR-0001 DB [accepted, stale]" in result.stdout


def test_adr_lint_follows_the_configured_folder(repo, hook_source):
    """cometbft keeps records in docs/references/architecture: `.adr-dir` names it, the hook
    lints the broken record there and leaves other markdown alone."""
    commit(
        repo,
        {
            ".adr-dir": "docs/references/architecture\n",
            "docs/references/architecture/adr-001-bad.md": "---\nstatus: [x\n---\n# Bad\n",
            "docs/references/architecture/README.md": "# Not a record\n",
            "README.md": "---\nstatus: [x\n---\n# Not a record either\n",
        },
    )
    bad = _try_repo(
        repo,
        hook_source,
        "adr-lint",
        "docs/references/architecture/adr-001-bad.md",
        "README.md",
        "docs/references/architecture/README.md",
    )
    assert bad.returncode == 1 and "adr-001-bad.md:3: error: yaml" in bad.stdout
    assert "README.md" not in bad.stdout
    other = _try_repo(repo, hook_source, "adr-lint", "README.md")
    assert other.returncode == 0, other.stdout


def test_adr_lint_lints_restructuredtext_records(repo, hook_source):
    """Open edX keeps its decisions as `.rst`: the hook took markdown files only."""
    commit(
        repo,
        {
            "docs/decisions/0001-good.rst": "1. Good\n=======\n\nStatus\n------\n\nAccepted\n",
            "docs/decisions/0002-bad.rst": ".. adr-memory: {status: [x}\n\n2. Bad\n======\n",
        },
    )
    good = _try_repo(repo, hook_source, "adr-lint", "docs/decisions/0001-good.rst")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _try_repo(repo, hook_source, "adr-lint", "docs/decisions/0002-bad.rst")
    assert bad.returncode == 1 and "0002-bad.rst:1: error: yaml" in bad.stdout, bad.stdout
