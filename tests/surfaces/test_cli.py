from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import adr_text, commit, git, run, write


def test_fresh_repo_scenario(repo, capsys):
    run(capsys, "init")
    assert (repo / "docs/adr/0001-record-architecture-decisions.md").exists()
    assert ".adr-cache/" in (repo / ".gitignore").read_text()
    assert (repo / ".adr-memory.toml").exists()
    assert (
        run(capsys, "new", "Use", "PostgreSQL", "--governs", "src/db/**", "--tag", "storage").out
        == "docs/adr/0002-use-postgresql.md\n"
    )
    run(capsys, "new", "Use MySQL")
    assert run(capsys, "new", "-s", "2", "Use SQLite").out == "docs/adr/0004-use-sqlite.md\n"
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["status"]) for r in listed] == [
        ("ADR-0001", "accepted"),
        ("ADR-0002", "proposed"),  # its successor is only proposed: nothing retired yet
        ("ADR-0003", "proposed"),
        ("ADR-0004", "proposed"),
    ]
    keys = {
        "id",
        "number",
        "title",
        "status",
        "status_text",
        "path",
        "date",
        "tags",
        "governs",
        "supersedes",
        "superseded_by",
        "version_id",
        "stale",
    }
    assert keys <= set(listed[0])
    assert listed[1]["superseded_by"] == [] and listed[3]["supersedes"] == ["ADR-0002"]
    assert listed[1]["standing"]["proposed_successors"] == ["ADR-0004"]
    assert listed[1]["governs"] == ["src/db/**"] and listed[1]["tags"] == ["storage"]
    shown = json.loads(run(capsys, "show", "ADR-4", "--json").out)
    assert shown["title"] == "Use SQLite" and {"sections", "rules", "links"} <= set(shown)
    assert "Use SQLite" in run(capsys, "show", "4").out
    toc = run(capsys, "generate", "toc").out
    assert "* [ADR-0002: Use PostgreSQL](0002-use-postgresql.md) (proposed)" in toc
    assert "n_ADR_0004 -->|supersedes| n_ADR_0002" in run(capsys, "generate", "graph").out
    assert '"ADR-0004" -> "ADR-0002"' in run(capsys, "generate", "graph", "--format", "dot").out
    assert run(capsys, "check").out == ""
    run(capsys, "accept", "3")
    assert json.loads(run(capsys, "list", "--json", "--status", "accepted").out)[1]["id"] == "ADR-0003"


def test_list_filters_by_tag(repo, capsys):
    run(capsys, "init")
    run(capsys, "new", "A", "--tag", "x")
    run(capsys, "new", "B")
    assert [r["title"] for r in json.loads(run(capsys, "list", "--tag", "x", "--json").out)] == ["A"]


def test_user_errors_are_one_line_with_a_hint_and_exit_2(repo, capsys, tmp_path, monkeypatch):
    run(capsys, "init")
    result = run(capsys, "show", "42", code=2)
    assert result.err == "error: no decision '42' in docs/adr\nhint: the nearest: ADR-0001; `adr list` shows them all\n"
    assert run(capsys, "new", "X", "--governs", "/etc/**", code=2).err.startswith("error: governs glob")
    assert run(capsys, "new", "X", "-l", "nonsense", code=2).err.startswith("error: cannot read link")
    write(repo, {".adr-memory.toml": "colour = 'blue'\n"})
    assert run(capsys, "list", code=2).err.startswith("error: unknown setting 'colour'")
    write(repo, {".adr-memory.toml": "this is not toml\n"})
    assert run(capsys, "list", code=2).err.startswith("error: cannot read .adr-memory.toml")
    outside = tmp_path / "nowhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    result = run(capsys, "list", code=2)
    assert "is not inside a git repository" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    "args",
    [("check",), ("list",), ("stale",), ("search", "x"), ("show", "1"), ("export",), ("review", "--base", "HEAD")],
)
def test_every_command_without_an_adr_folder_gives_the_same_error(repo, capsys, args):
    result = run(capsys, *args, code=2)
    assert result.err == (
        "error: no ADR folder: docs/adr does not exist and no folder of ADRs was found\n"
        "hint: run `adr init`, or name the folder: echo path/to/adrs > .adr-dir\n"
    )


@pytest.mark.parametrize(
    "corpus,folder",
    [
        ("cloud-platform", "architecture-decision-record"),
        ("tdr", "architecture-decision-records"),
        ("cometbft", "docs/references/architecture"),
    ],
)
def test_a_folder_of_adrs_under_another_name_is_discovered_and_named(repo, capsys, corpus, folder):
    import shutil

    from tests.helpers import CORPORA, commit

    shutil.copytree(CORPORA / corpus, repo / folder)
    (repo / "docs/guide.md").parent.mkdir(parents=True, exist_ok=True)
    (repo / "docs/guide.md").write_text("# Guide\n")
    commit(repo, {}, "corpus")
    result = run(capsys, "list", "--json")
    rows = json.loads(result.out)
    assert len(rows) >= 39 and all(r["path"].startswith(folder + "/") for r in rows)
    assert f"warning: using {folder}" in result.err and f"echo {folder} > .adr-dir" in result.err


def test_a_folder_named_like_adrs_whose_records_are_named_by_title_is_discovered(repo, capsys):
    from tests.helpers import commit

    adr = "# {}\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n"
    commit(
        repo,
        {
            "architecture/decision-log/use-x.md": adr.format("Use X"),
            "architecture/decision-log/use-y.md": adr.format("Use Y"),
            "design/a.md": adr.format("A"),
            "design/b.md": adr.format("B"),
            "design/c.md": adr.format("C"),
        },
    )
    result = run(capsys, "list", "--json")
    assert [r["id"] for r in json.loads(result.out)] == ["use-x", "use-y"]
    assert "warning: using architecture/decision-log" in result.err
    commit(repo, {"notes/0001-a.md": adr.format("A"), "notes/0002-b.md": adr.format("B")})
    assert [r["id"] for r in json.loads(run(capsys, "list", "--json").out)] == ["ADR-0001", "ADR-0002"]


def test_records_at_the_root_are_found_when_no_folder_below_holds_any(repo, capsys):
    from tests.helpers import adr_text, commit

    commit(
        repo,
        {
            "0001-db.md": adr_text("Use Postgres"),
            "0002-queue.md": adr_text("Use SQS"),
            "docs/guide.md": "# Guide\n\n## Context\n\n## Decision\n",
        },
        "a repository of decisions",
    )
    result = run(capsys, "list", "--json")
    assert [r["path"] for r in json.loads(result.out)] == ["0001-db.md", "0002-queue.md"]
    assert "using the repository's root" in result.err and "echo . > .adr-dir" in result.err


def test_adr_dir_file_is_honoured(repo, capsys):
    write(repo, {".adr-dir": "architecture\n", "architecture/0001-x.md": "# 1. X\n\n## Status\n\nAccepted\n"})
    assert json.loads(run(capsys, "list", "--json").out)[0]["path"] == "architecture/0001-x.md"


def test_a_log4brains_folder_is_read_and_written_where_its_settings_say(repo, capsys):
    """A log4brains project keeps records named by date under the folder its settings name;
    an empty docs/adr beside it must not win."""
    write(
        repo,
        {
            ".log4brains.yml": "project:\n  name: shop\n  tz: UTC\n  adrFolder: ./design/adr\n",
            "docs/adr/.gitkeep": "",
            "design/adr/20240115-use-postgres.md": "# Use Postgres\n\n- Status: accepted\n\n"
            "## Context and Problem Statement\n\nc\n",
        },
    )
    rows = json.loads(run(capsys, "list", "--json").out)
    assert [(r["path"], r["status"]) for r in rows] == [("design/adr/20240115-use-postgres.md", "accepted")]
    created = run(capsys, "new", "Use Redis").out.strip()
    assert created.startswith("design/adr/") and (repo / created).is_file()


def test_a_folder_named_in_another_tools_settings_that_is_missing_names_the_settings(repo, capsys):
    write(repo, {".adr": "[adr]\nrecords_dir = docs/records\n"})
    result = run(capsys, "list", code=2)
    assert result.err == (
        "error: no ADR folder: docs/records, named in .adr, does not exist\n"
        "hint: run `adr init` to create it, or correct .adr\n"
    )
    run(capsys, "init")
    assert (repo / "docs/records").is_dir() and not (repo / "docs/adr").exists()


def test_a_successor_named_in_a_folders_own_words_is_listed_checked_and_linked_back(repo, capsys):
    from tests.helpers import commit

    old = "# 2. Old\n\nDate: 2020-01-01\n\n## Status\n\nSuperseded (see ADR-5)\n\n## Context\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0002-old.md": old,
            "docs/adr/0005-new.md": "# 5. New\n\nDate: 2020-01-02\n\n## Status\n\nAccepted\n",
        },
    )
    rows = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert rows["ADR-0002"]["status"] == "superseded" and rows["ADR-0002"]["superseded_by"] == ["ADR-0005"]
    warned = run(capsys, "check").out
    assert "ADR-0002 says it is superseded by ADR-0005, but ADR-0005 does not say it supersedes" in warned
    assert "hint: adr supersede ADR-0002 --by ADR-0005" in warned
    run(capsys, "supersede", "ADR-0002", "--by", "ADR-0005")
    assert "supersession" not in run(capsys, "check").out
    assert (repo / "docs/adr/0002-old.md").read_text() == old  # it said so already: left as written


def test_a_numbered_status_section_is_read_edited_and_kept_out_of_the_content(repo, capsys):
    from tests.helpers import commit

    text = "# 2. Use X\n\n## 1. Status\n\nProposed\n\n## 2. Context\n\nc\n\n## 3. Decision\n\nd\n"
    commit(repo, {"docs/adr/0002-use-x.md": text, "docs/adr/0003-use-y.md": text.replace("Proposed", "Rejected")})
    rows = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert (rows["ADR-0002"]["status"], rows["ADR-0003"]["status"]) == ("proposed", "rejected")
    run(capsys, "accept", "ADR-0002")
    assert (repo / "docs/adr/0002-use-x.md").read_text() == text.replace("Proposed", "Accepted")
    commit(repo, {}, "accept")
    versions = json.loads(run(capsys, "log", "ADR-0002", "--json").out)["versions"]
    assert len(versions) == 1  # a status change is no new version


def test_help_imports_no_heavy_modules():
    code = (
        "import sys; from adr_memory.surfaces.cli import main; "
        "rc = main(['--help']); heavy = [m for m in ('tantivy', 'fastembed', 'numpy', "
        "'onnxruntime', 'dulwich', 'jinja2', 'markdown_it') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("[]"), out


def test_check_imports_no_heavy_modules(repo):
    write(repo, {"docs/adr/0001-x.md": "---\nstatus: accepted\n---\n# X\n"})
    code = (
        "import sys; from adr_memory.surfaces.cli import main; rc = main(['check']); "
        "print([m for m in ('tantivy', 'fastembed', 'numpy', 'onnxruntime', 'jinja2', 'markdown_it') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo).stdout
    assert out.strip().endswith("[]"), out


def test_version_and_module_entry_point(repo):
    out = subprocess.run([sys.executable, "-m", "adr_memory", "--version"], capture_output=True, text=True).stdout
    assert out.startswith("adr-memory ")


@pytest.mark.parametrize(
    "link, content",
    [
        (".gitignore", "-----BEGIN OPENSSH PRIVATE KEY-----\n"),
        (".adr-memory.toml", 'adr-dir = "docs/adr"\n# token = "s3cr3t"\n'),
    ],
)
def test_init_never_copies_a_file_linked_out_of_the_repository_into_it(repo, tmp_path, capsys, link, content):
    """A clone whose `.gitignore` links to `~/.ssh/id_rsa`: appending our line would copy the
    key into a file the user then commits (git itself does not follow a linked .gitignore);
    moving the folder in a linked config would do the same. Nothing is written."""
    secret = tmp_path / "outside"
    secret.write_text(content)
    (repo / link).symlink_to(secret)
    err = run(capsys, "init", "--dir", "decisions", code=2).err
    assert err.startswith(f"error: the file '{link}' points outside the repository")
    assert (repo / link).is_symlink() and secret.read_text() == content
    assert not (repo / "decisions").exists() or link != ".gitignore"


def test_init_dir_in_a_set_up_repository_moves_the_config(repo, capsys):
    run(capsys, "init")
    before = (repo / ".adr-memory.toml").read_text()
    out = run(capsys, "init", "--dir", "decisions").out
    assert "updated .adr-memory.toml (adr-dir = decisions)" in out
    assert (repo / ".adr-memory.toml").read_text() == before.replace('"docs/adr"', '"decisions"')
    assert json.loads(run(capsys, "list", "--json").out)[0]["path"].startswith("decisions/")


@pytest.mark.parametrize(
    "args,valid", [(("check", "--fail-on", "stael"), "stale"), (("list", "--status", "bogus"), "accepted")]
)
def test_enumerated_options_are_validated(repo, capsys, args, valid):
    run(capsys, "init")
    result = run(capsys, *args, code=2)
    assert result.err.startswith("error: unknown ") and valid in result.err.split("hint: ")[1]


def test_tables_are_readable_at_80_columns(repo, capsys, monkeypatch):
    from tests.helpers import adr_text, commit

    monkeypatch.setenv("COLUMNS", "80")
    commit(
        repo,
        {"docs/adr/0001-a.md": adr_text("Use PostgreSQL for the primary store of orders")},
        "A commit message that says why the decision was recorded in some detail",
    )
    import adr_memory.surfaces.render as render

    monkeypatch.setattr(render, "out", render._SafeConsole(highlight=False, soft_wrap=False, markup=False, width=80))
    log = run(capsys, "log", "1").out.splitlines()
    assert all(len(line) <= 80 for line in log)
    assert any(line.rstrip().endswith("A commit message that") or "A commit message" in line for line in log)
    first_row = next(line for line in log if line.lstrip().startswith("v"))
    assert len(first_row.split("accepted", 1)[1].strip()) >= 16  # the message column is wide enough
    listed = run(capsys, "list").out.splitlines()
    assert any("Use PostgreSQL for the" in line for line in listed)


def test_no_table_loses_a_word_at_80_columns(repo, capsys, monkeypatch):
    """Rich gives up on column widths it cannot meet by drawing the table wider than the
    terminal, and the terminal cuts the last column: text lost, silently. A title cut to fit
    says so with an ellipsis (tests/surfaces/test_tables.py); nothing else is cut."""
    import adr_memory.surfaces.render as render
    from tests.helpers import adr_text, commit, git

    monkeypatch.setattr(render, "out", render._SafeConsole(highlight=False, soft_wrap=False, markup=False, width=80))
    title = "Keep order history in the primary relational store"
    message = "Record the store after the capacity review of the ordering team"
    commit(
        repo,
        {"docs/adr/0001-a.md": adr_text(title, status="proposed", governs=["src/**"]), "src/orders.py": "1"},
        message,
    )
    reason = "the staging load test held for a week without any regression"
    run(capsys, "accept", "1", "--reason", reason)
    git(repo, "commit", "-qam", "Accept the order history decision after the staging week")
    commit(repo, {"src/orders.py": "2"}, "Change the orders module")
    outputs = {
        "log 1": (run(capsys, "log", "1").out, [message, reason]),
        "stale": (run(capsys, "stale").out, [title, "governed file(s) changed since the anchor"]),
        "log": (run(capsys, "log").out, [title]),
        "list": (run(capsys, "list").out, [title]),
    }
    for command, (out, texts) in outputs.items():
        assert all(len(line) <= 80 for line in out.splitlines()), out
        for text in texts:
            lost = [w for w in text.split() if w not in out]
            cut = text == title and text[:20] in out and "…" in out
            assert not lost or cut, f"adr {command} lost {lost}:\n{out}"


@pytest.mark.parametrize(
    "args, first, hint",
    [
        (("show",), "error: missing argument 'ID'", "hint: adr show -h shows the usage"),
        (("bogus",), "error: no such command 'bogus'", "hint: adr -h shows the usage"),
        (
            ("search", "x", "--limit", "0"),
            "error: invalid value for '--limit': ",  # then typer's words for the range, whichever release
            "hint: adr search -h shows the usage",
        ),
        (("list", "--bogus"), "error: no such option", "hint: adr list -h shows the usage"),
        (("hooks", "bogus"), "error: no such command 'bogus'", "hint: adr hooks -h shows the usage"),
    ],
)
def test_a_bad_argument_is_one_error_and_one_hint_like_every_other(repo, capsys, args, first, hint):
    """Our promise is the shape: one `error:` line naming what was wrong, one `hint:`, exit 2."""
    result = run(capsys, *args, code=2)
    lines = result.err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(first) and lines[1] == hint and result.out == ""
    assert "--bogus" in lines[0] or "--bogus" not in args  # the option is named, however click words it


def test_adr_alone_prints_the_help_on_stderr(repo, capsys):
    result = run(capsys, code=2)
    assert result.err.startswith("Usage: adr [OPTIONS] COMMAND") and "migrate" in result.err and result.out == ""


def test_list_paths_prints_what_adr_tools_list_prints(repo, capsys):
    from tests.helpers import adr_text, commit

    commit(
        repo,
        {
            "doc/adr/0001-record.md": "# 1. Record\n\n## Status\n\nAccepted\n",
            "doc/adr/0002-old.md": adr_text("Old", status="superseded"),
            ".adr-dir": "doc/adr\n",
        },
    )
    assert run(capsys, "list", "--paths").out == "doc/adr/0001-record.md\ndoc/adr/0002-old.md\n"
    assert run(capsys, "list", "--paths", "--status", "superseded").out == "doc/adr/0002-old.md\n"


def test_list_paths_quotes_a_name_a_line_cannot_hold_and_z_ends_each_with_nul(repo):
    """A clone's file name may hold a newline (`0001-a` + newline + `passwd.md` reads as two
    paths to `xargs`) or an escape the terminal would drop: such a name is quoted as
    `git ls-files` quotes it, and `-z` gives every name's own bytes, NUL-ended."""
    names = [
        "docs/adr/0001-a\npasswd.md",
        "docs/adr/0002-t\tab.md",
        "docs/adr/0003-\x1b[31mred.md",
        "docs/adr/0004-plain.md",
    ]
    commit(repo, {name: f"# {n}. X\n\n## Status\n\nAccepted\n" for n, name in enumerate(names, 1)})
    listed = subprocess.run(
        [sys.executable, "-m", "adr_memory", "list", "--paths"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert listed.splitlines() == git(repo, "ls-files", "docs/adr").splitlines()
    nul = subprocess.run(
        [sys.executable, "-m", "adr_memory", "list", "--paths", "-z"], cwd=repo, capture_output=True, check=True
    ).stdout
    assert nul.split(b"\0")[:-1] == [n.encode() for n in names] and nul.endswith(b"\0")


def test_a_docusaurus_folder_of_decisions_reads_by_its_file_numbers(repo, capsys):
    """Backstage's `docs/architecture-decisions`: Docusaurus frontmatter (`id` is the page's,
    the title carries the number), a status table with a Created column, an index page."""
    from tests.helpers import commit

    folder = "docs/architecture-decisions"
    commit(
        repo,
        {
            f"{folder}/index.md": "---\nid: adrs-overview\ntitle: Architecture Decision Records (ADR)\n---\n\n"
            "The decisions made in the project.\n",
            f"{folder}/adr002-default-catalog-file-format.md": "---\nid: adrs-adr002\ntitle: 'ADR002: Default Software Catalog File Format'\nsidebar_label: ADR002\n---\n\n"
            "| Created    | Status |\n| ---------- | ------ |\n| 2020-05-17 | Open   |\n\n## Background\n\nb\n",
            f"{folder}/adr013-use-node-fetch.md": "---\nid: adrs-adr013\ntitle: 'ADR013: Use node-fetch'\n---\n\n"
            "## Context\n\nc\n\n## Decision\n\nd\n",
            f"{folder}/adr014-use-fetch.md": "---\nid: adrs-adr014\ntitle: 'ADR014: Proper use of HTTP fetching libraries'\n"
            "description: The proper use of fetch.\n---\n\n## Context\n\nc\n\n## Decision\n\nd\n",
        },
    )
    rows = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["title"], r["status"], r["date"]) for r in rows] == [
        ("ADR-0002", "Default Software Catalog File Format", "proposed", "2020-05-17"),
        ("ADR-0013", "Use node-fetch", "accepted", None),
        ("ADR-0014", "Proper use of HTTP fetching libraries", "accepted", None),
    ]
    assert run(capsys, "show", "14").out.startswith("ADR-0014: Proper use of HTTP fetching libraries")
    assert run(capsys, "new", "Use zod").out == f"{folder}/adr015-use-zod.md\n"
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]


def test_no_decision_governs_a_path_outside_the_repository(repo, tmp_path, capsys):
    """A decision that governs `**` governs the repository's files, not /etc/passwd or a file an
    agent writes in /tmp (the agent guard asks about any path an edit names)."""
    commit(repo, {"docs/adr/0001-all.md": adr_text("Everything", governs=["**"]), "src/a.py": "1"})
    outside = tmp_path / "elsewhere.py"
    answer = json.loads(run(capsys, "guard", "src/a.py", str(outside), "../x.py", "--json").out)
    assert [[d["id"] for d in p["decisions"]] for p in answer["paths"]] == [["ADR-0001"], [], []]
    assert [p["outside"] for p in answer["paths"]] == [False, True, True]
    said = run(capsys, "why", "../x.py", "src/a.py").out
    assert "outside the repository: no decision governs it" in said and "ADR-0001 Everything" in said


@pytest.mark.parametrize(
    "args",
    [
        ["show", "1"],
        ["list"],
        ["list", "--json"],
        ["log", "1"],
        ["search", "queue", "--mode", "keyword"],
        ["why", "src/a.py"],
    ],
)
def test_a_reader_that_leaves_ends_the_command_quietly_with_exit_0(repo, args):
    """`adr show 1 | head -1`: rich's console exited 1 (which reads as findings) when the pipe
    closed under it; every command now ends as `adr list | head` did: exit 0, nothing on stderr."""
    commit(repo, {"docs/adr/0001-queue.md": adr_text("Use a queue", governs=["src/**"]), "src/a.py": "1"})
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first write: deterministic
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", *args],
        cwd=repo,
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    os.close(write)
    assert (done.returncode, done.stderr) == (0, ""), args


@pytest.mark.parametrize("args", [["show", "1"], ["list"], ["log", "1"]])
def test_a_reader_that_leaves_a_merged_stream_ends_quietly_with_exit_0(repo, tmp_path, args):
    """`adr show 1 2>&1 | head -2` in a shallow clone: the warning said after the command went to
    the closed pipe too, and click's answer to that is exit 1."""
    commit(repo, {"docs/adr/0001-queue.md": adr_text("Use a queue", governs=["src/**"]), "src/a.py": "1"})
    commit(repo, {"src/a.py": "2"})
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    read, write = os.pipe()
    os.close(read)
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", *args], cwd=shallow, stdout=write, stderr=write, timeout=60
    )
    os.close(write)
    assert done.returncode == 0, args


def test_help_shows_words_not_python_types(capsys):
    """`--status STATUS`, `TITLE...`, `[ID]`: not `<str>`, `<list[str]>`, `{title}` or `[[ID]]`."""
    import re

    from adr_memory.surfaces import cli

    def commands(group, path):
        for name, sub in group.commands.items():
            if hasattr(sub, "commands"):
                yield from commands(sub, [*path, name])
            else:
                yield [*path, name]

    seen = 0
    for words in commands(cli._command(), []):
        text = run(capsys, *words, "--help").out
        usage = text.splitlines()[0]
        assert not re.search(r"<(?:str|int|float|bool|path|list\[[^\]]*\])>", text), (words, text)
        assert "[[" not in usage and "{" not in usage, (words, usage)
        seen += 1
    assert seen > 25
    assert run(capsys, "new", "--help").out.startswith("Usage: adr new [OPTIONS] TITLE...")
