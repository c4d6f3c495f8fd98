from __future__ import annotations

import subprocess
import sys

import yaml

from adr_memory.surfaces.hook import main
from tests.helpers import adr_text, commit

ROOT = __import__("pathlib").Path(__file__).parents[2]


def test_lint_passes_a_good_adr_and_fails_a_bad_one(repo, capsys):
    commit(
        repo, {"docs/adr/0001-good.md": adr_text("Good"), "docs/adr/0002-bad.md": "---\nstatus: [oops\n---\n# Bad\n"}
    )
    assert main(["lint", "docs/adr/0001-good.md"]) == 0
    assert main(["lint", "docs/adr/0002-bad.md"]) == 1
    assert "0002-bad.md:3: error: yaml" in capsys.readouterr().out


def test_guard_warns_by_default_and_fails_with_strict(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    assert main(["guard", "src/db/a.py"]) == 0
    assert "! src/db/a.py: ADR-0001 DB [accepted, stale]" in capsys.readouterr().out
    assert main(["guard", "--strict", "src/db/a.py"]) == 1


def test_hook_entry_imports_no_typer_rich_or_heavy_modules(repo):
    commit(repo, {"docs/adr/0001-good.md": adr_text("Good")})
    code = (
        "import sys; from adr_memory.surfaces.hook import main; main(['lint', 'docs/adr/0001-good.md']); "
        "print(sorted(m for m in ('typer', 'rich', 'pydantic', 'tantivy', 'fastembed', 'numpy') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True).stdout
    assert out.strip().endswith("[]"), out


def test_pre_commit_hooks_file_names_both_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"]: h["entry"] for h in hooks} == {"adr-lint": "adr-hook lint", "adr-guard": "adr-hook guard"}


def test_a_bad_hook_argument_is_one_error_and_one_hint(repo):
    done = subprocess.run([sys.executable, "-m", "adr_memory.hook", "bogus"], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: argument verb: invalid choice: 'bogus' (choose from 'lint', 'guard', 'pre-commit', "
        "'post-commit', 'post-merge', 'agent-guard', 'session-start', 'prompt')",
        "hint: adr-hook -h shows the usage",
    ]


def test_the_guard_hook_reads_each_decision_s_standing(repo, capsys):
    """A decision whose successor is only proposed still binds: not flagged, and said so; one an
    accepted successor retired is flagged, naming what retired it."""
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
            "src/a.py": "1",
        },
    )
    assert main(["guard", "--strict", "src/a.py"]) == 0
    assert "- src/a.py: ADR-0001 Use MongoDB [accepted; ADR-0002 proposed, fresh]" in capsys.readouterr().out
    commit(repo, {"docs/adr/0002-b.md": adr_text("Use PostgreSQL", extra="supersedes: [ADR-0001]")})
    assert main(["guard", "--strict", "src/a.py"]) == 1
    assert "! src/a.py: ADR-0001 Use MongoDB [superseded by ADR-0002" in capsys.readouterr().out
