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
    checked = run(capsys, "check", "--format", "github", code=None)
    out = checked.out
    lines = out.splitlines()
    assert lines, out
    for line in lines:
        assert re.fullmatch(
            r"::(error|warning|notice) (file=docs/adr/[^,:]*,line=\d+(,col=\d+)?,)?title=[^:]*::.*", line
        ), line
        assert "\r" not in line
    # One line per finding: the runner reads commands line by line, so a line that is all ours
    # cannot be split into a second command by anything its escaped message decodes to.
    findings = json.loads(run(capsys, "check", "--format", "json", code=checked.code).out)["findings"]
    assert checked.code == (1 if any(f["severity"] == "error" for f in findings) else 0)
    assert len(lines) == len(findings) + (1 if lines[-1].startswith("::notice") else 0)
    for line in lines:  # `,` and `::` inside a property are escaped: no property ends early
        keys = [kv.split("=", 1)[0] for kv in line.split("::")[1].split(" ", 1)[1].split(",")]
        assert keys in (["file", "line", "title"], ["file", "line", "col", "title"], ["title"]), line


@pytest.mark.parametrize(
    ("text", "safe_text"),
    [
        ("::error::x", ":\u200b:error::x"),
        ("  ::warning::y", "  :\u200b:warning::y"),  # the runner trims leading blanks
        ("\t::add-mask::z", "\t:\u200b:add-mask::z"),
        ("a ::b", "a ::b"),  # not at the start of a line: no command
        ("foo ##[error] z", "foo #\u200b#[error] z"),  # Azure's form is read anywhere in a line
        ("##[stop-commands]", "#\u200b#[stop-commands]"),
        (":x", ":x"),
        ("first\n::second", "first\n:\u200b:second"),  # each line of the text
        ("", ""),
    ],
)
def test_no_line_reads_as_a_workflow_command(text, safe_text):
    assert safe.no_workflow_commands(text) == safe_text
    assert safe.no_workflow_commands(text).replace("\u200b", "") == text  # nothing else changes


def test_ci_is_told_by_either_variable(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert not safe.in_ci()
    monkeypatch.setenv("CI", "")
    assert not safe.in_ci()  # set but empty says nothing
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert safe.in_ci()
    monkeypatch.delenv("GITHUB_ACTIONS")
    monkeypatch.setenv("CI", "1")
    assert safe.in_ci()


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("x\x1b]0;title\x07y", "xy"),  # an OSC (window title) goes whole
        ("x\x1b]8;;http://e\x1b\\link", "xlink"),  # an OSC ended by ST
        ("x\x1b]0;unterminated y", "x0;unterminated y"),  # only the introducer goes: the rest is inert
        ("a\x9b31mb", "ab"),  # the 8-bit CSI
        ("a\x1b[?25lb", "ab"),  # private CSI parameters
        ("\u2066a\u2069 \u202eb", "a b"),  # bidi isolates and overrides
        ("tab\tand\nnewline", "tab\tand\nnewline"),  # kept
        ("cr\rlf", "crlf"),  # a carriage return could overwrite what was shown
        ("caf\u00e9 \u4e2d\u6587 \U0001f600", "caf\u00e9 \u4e2d\u6587 \U0001f600"),  # text of any script stays
    ],
)
def test_the_terminal_gets_no_control_characters(text, shown):
    assert safe.terminal(text) == shown


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("src/a.py", "src/a.py"),
        ("caf\u00e9.md", "caf\u00e9.md"),  # UTF-8 a terminal shows is left as it is
        ("a b.md", "a b.md"),
        ('a"b', '"a\\"b"'),
        ("a\\b", '"a\\\\b"'),
        ("a\tb\nc", '"a\\tb\\nc"'),
        ("a\x1bb", '"a\\033b"'),  # a control character as an octal byte
        ("a\u202eb", '"a\\342\\200\\256b"'),  # a bidi override as its UTF-8 bytes
        ("x\udcff.md", '"x\\377.md"'),  # a byte that is not UTF-8, as git writes it
    ],
)
def test_a_path_is_quoted_as_git_quotes_it_when_it_must_be(path, line):
    assert safe.quoted_path(path) == line


def test_one_line_text_is_terminal_safe_and_collapses_blanks():
    assert safe.one_line("  a\n b\t\x1b[1mc\x1b[0m  ") == "a b c"
    assert safe.one_line("") == ""


def test_markdown_text_mentions_no_one_and_interprets_nothing():
    text = "@alice and bob@example.org [x](y) _a_ `c` & @9 >q"
    assert safe.markdown_inline(text) == (
        "@&#8203;alice and bob@example.org \\[x\\](y) \\_a\\_ \\`c\\` &amp; @&#8203;9 &gt;q"
    )
    assert safe.markdown_inline("a\nb\x1b[31m") == "a b"


def test_html_text_is_escaped_once_and_mentions_no_one():
    assert safe.html_inline('<b>@team</b> & "q" a@b.c') == '&lt;b&gt;@&#8203;team&lt;/b&gt; &amp; "q" a@b.c'
    assert safe.html_inline("&amp;") == "&amp;amp;"  # no entity of its own


def test_a_surrogate_becomes_a_question_mark_only_where_it_must():
    assert safe.encodable("a\udcffb") == "a?b"
    assert safe.encodable("caf\u00e9") == "caf\u00e9"


def test_a_stream_that_cannot_be_reconfigured_is_left_alone():
    import io

    safe.replace_unencodable(io.StringIO())  # no reconfigure: nothing happens, nothing raises
    closed = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    closed.close()
    safe.replace_unencodable(closed)
    stream = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    safe.replace_unencodable(stream)
    stream.write("a\udcffb\u4e2d")
    stream.flush()
    assert stream.buffer.getvalue() == b"a?b?"


def test_a_pattern_re2_cannot_take_is_a_value_error_with_its_reason():
    assert safe.linear("a+b").match("aaab") is not None
    with pytest.raises(ValueError, match=r"^invalid escape sequence: \\1$"):
        safe.linear(r"(a)\1")  # a backreference
    with pytest.raises(ValueError, match=r"^missing \]: \[$"):
        safe.linear("a[")


def test_a_catastrophic_pattern_matches_a_long_text_at_once():
    pattern = safe.linear("(a*)*b")
    assert pattern.match("a" * 100_000) is None  # exponential for a backtracking engine


def test_sets_keep_each_patterns_own_index_and_leave_out_what_re2_cannot_take():
    (found, taken), *rest = safe.linear_sets([(0, "a.*"), (1, "(?<=x)y"), (2, "b")])
    assert rest == [] and taken == [0, 2]
    assert [taken[i] for i in found.Match("abc")] == [0]
    assert [taken[i] for i in found.Match("b")] == [2]


def test_sets_are_split_by_size_and_search_finds_a_pattern_anywhere():
    assert [taken for _, taken in safe.linear_sets([(0, "x"), (1, "y"), (2, "z")], size=2)] == [[0, 1], [2]]
    assert safe.linear_sets([]) == []
    ((anchored, _),) = safe.linear_sets([(0, "bc")])
    ((anywhere, _),) = safe.linear_sets([(0, "bc")], search=True)
    assert anchored.Match("abcd") is None
    assert list(anywhere.Match("abcd")) == [0]
