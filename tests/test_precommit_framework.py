"""The pre-commit framework runs both hooks from this checkout (`pre-commit try-repo`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import adr_text, commit

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory):
    return tmp_path_factory.mktemp("pre-commit-home")  # the hook env is built once per run


def _try_repo(repo, home, hook, *files):
    exe = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run([exe, "try-repo", str(ROOT), hook, "--files", *files], cwd=repo,
                          capture_output=True, text=True, env=env, timeout=900)


def test_adr_lint_passes_a_good_adr_and_fails_a_bad_one(repo, pre_commit_home):
    commit(repo, {"docs/adr/0001-good.md": adr_text("Good"),
                  "docs/adr/0002-bad.md": "---\nstatus: [x\n---\n# Bad\n"})
    good = _try_repo(repo, pre_commit_home, "adr-lint", "docs/adr/0001-good.md")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _try_repo(repo, pre_commit_home, "adr-lint", "docs/adr/0002-bad.md")
    assert bad.returncode == 1 and "0002-bad.md:3: error: yaml" in bad.stdout


def test_adr_guard_names_the_governing_decision(repo, pre_commit_home):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    result = _try_repo(repo, pre_commit_home, "adr-guard", "src/db/a.py")
    assert result.returncode == 0 and "ADR-0001 DB [accepted, stale]" in result.stdout


def test_adr_lint_follows_the_configured_folder(repo, pre_commit_home):
    """cometbft keeps records in docs/references/architecture: `.adr-dir` names it, the hook
    lints the broken record there and leaves other markdown alone."""
    commit(repo, {".adr-dir": "docs/references/architecture\n",
                  "docs/references/architecture/adr-001-bad.md": "---\nstatus: [x\n---\n# Bad\n",
                  "docs/references/architecture/README.md": "# Not a record\n",
                  "README.md": "---\nstatus: [x\n---\n# Not a record either\n"})
    bad = _try_repo(repo, pre_commit_home, "adr-lint", "docs/references/architecture/adr-001-bad.md",
                    "README.md", "docs/references/architecture/README.md")
    assert bad.returncode == 1 and "adr-001-bad.md:3: error: yaml" in bad.stdout
    assert "README.md" not in bad.stdout
    other = _try_repo(repo, pre_commit_home, "adr-lint", "README.md")
    assert other.returncode == 0, other.stdout
