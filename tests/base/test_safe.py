"""Hostile record text cannot forge CI annotations, drive the terminal or break a report."""

from __future__ import annotations

import json
import re

import pytest

from adr_memory.base import safe
from tests.helpers import commit, git, run

FORGED_ID = "ADR-1\\n::error file=src/evil.py,line=1::forged\\n::add-mask::x"
ESC_TITLE = "Red \x1b[31malert\x1b[0m \x1b]0;owned\x07 and \x9b2J bell\x07 [bold]markup[/bold] \u202eevil"


def _hostile(repo):
    base = commit(repo, {"docs/adr/0001-a.md": "---\nstatus: accepted\n---\n# A\n"}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(
        repo,
        {
            # A duplicate id gives `check` a finding that carries the id into every format.
            "docs/adr/0002-forged.md": f'---\nid: "{FORGED_ID}"\nstatus: accepted\n---\n# Forged | cell <b>x</b>\n',
            "docs/adr/0003-forged.md": f'---\nid: "{FORGED_ID}"\nstatus: accepted\n---\n# Forged too\n',
            "docs/adr/0004-esc.md": f"---\nstatus: accepted\n---\n# {ESC_TITLE}\n\nBody \x1b[2J.\n",
        },
        "hostile",
    )
    return base


def test_github_annotations_cannot_be_forged(repo, capsys):
    _hostile(repo)
    out = run(capsys, "check", "--format", "github", code=1).out
    lines = out.splitlines()
    assert all(line.startswith(("::error file=docs/adr/", "::warning file=docs/adr/")) for line in lines)
    assert not any(line.startswith(("::add-mask", "::error file=src/")) for line in lines)
    assert "%0A::add-mask::x" in out or "%0A%3A%3Aadd-mask%3A%3Ax" in out


@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("show", "4"),
        ("log", "4"),
        ("stale", "--all"),
        ("check",),
        ("search", "Red alert", "--mode", "keyword"),
        ("generate", "toc"),
        ("review", "--base", "main"),
    ],
)
def test_no_escape_sequence_or_markup_reaches_the_terminal(repo, capsys, args):
    _hostile(repo)
    result = run(capsys, *args, code=None)
    assert result.code in (0, 1), result.err
    text = result.out + result.err
    for bad in ("\x1b", "\x9b", "\x07", "\u202e"):
        assert bad not in text, (args, bad)
    if args[0] in ("show", "log"):
        assert "[bold]markup[/bold]" in text  # shown as written, not interpreted


def test_review_markdown_escapes_table_and_html(repo, capsys):
    _hostile(repo)
    out = run(capsys, "review", "--base", "main").out
    assert "<b>x</b>" not in out and "&lt;b&gt;x&lt;/b&gt;" in out
    assert "Forged \\| cell" in out


def test_json_keeps_text_as_data(repo, capsys):
    _hostile(repo)
    rows = json.loads(run(capsys, "list", "--json").out)
    assert any(r["id"] == FORGED_ID.replace("\\n", "\n") for r in rows)


def test_escapes():
    assert safe.terminal("a\x1b[31mb\x1b[0m\tc\nd\x00\x7f") == "ab\tc\nd"
    assert safe.workflow_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert safe.workflow_property("a:b,c") == "a%3Ab%2Cc"
    assert safe.markdown_inline("a|b <i>\n*c*") == "a\\|b &lt;i&gt; \\*c\\*"


# What a record can carry into a workflow command's message or properties: a newline (LF, CR,
# CRLF) followed by a command, a `%` that GitHub would decode, and `::` to end properties early.
_FORGERIES = [
    "\n::add-mask::x",
    "\r::error file=src/evil.py::forged",
    "\r\n::warning::w",
    "%0A::set-output::y",
    " :: a,b%",
]


@pytest.mark.parametrize("field", ["id", "title", "status", "path"])
def test_no_record_text_starts_a_second_workflow_command(repo, capsys, field):
    """Every line of `--format github` is one command that we wrote, whatever the id, title,
    status or file name holds: the message and the properties both come from record text.
    One record per forgery, all in one check."""
    files = {"docs/adr/0001-b.md": "---\nstatus: accepted\n---\n# B\n"}
    for n, forgery in enumerate(_FORGERIES, start=2):
        number = f"{n:04d}"
        name = f"docs/adr/{number}-a.md"
        meta = {"id": f'"ADR-{number}"', "status": "bogus-status", "title": '"A"'}
        if field == "path":
            name = f"docs/adr/{number}-a{forgery.replace('/', '_')}.md"  # a `/` would be a folder
        else:  # a double-quoted YAML string carries the control characters through escapes
            escaped = forgery.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
            meta[field] = f'"{f"ADR-{number}" if field == "id" else "x"}{escaped}"'
        files[name] = "---\n" + "".join(f"{k}: {v}\n" for k, v in meta.items()) + "---\n# A\n"
    commit(repo, files, "hostile")
    out = run(capsys, "check", "--format", "github", code=None).out
    lines = out.splitlines()
    assert lines, out
    for line in lines:
        assert re.fullmatch(
            r"::(error|warning|notice) (file=docs/adr/[^,:]*,line=\d+(,col=\d+)?,)?title=[^:]*::.*", line
        ), line
        assert "\r" not in line
    # One line per finding: the runner reads commands line by line, so a line that is all ours
    # cannot be split into a second command by anything its escaped message decodes to.
    findings = json.loads(run(capsys, "check", "--format", "json", code=None).out)["findings"]
    assert len(lines) == len(findings) + (1 if lines[-1].startswith("::notice") else 0)
    for line in lines:  # `,` and `::` inside a property are escaped: no property ends early
        keys = [kv.split("=", 1)[0] for kv in line.split("::")[1].split(" ", 1)[1].split(",")]
        assert keys in (["file", "line", "title"], ["file", "line", "col", "title"], ["title"]), line
