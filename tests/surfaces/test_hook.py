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
