"""reStructuredText records, as Open edX's repositories keep them (`docs/decisions/0001-x.rst`):
found, read, edited in their own syntax, and written new. Before, such a folder was "No
decisions found." and `adr check` passed it: every decision in it went unseen."""

from __future__ import annotations

import json

import pytest

from adr_memory.records import rst
from adr_memory.surfaces.hook import main as hook
from tests.helpers import commit, git, run

PURPOSE = """.. _openedx-adr-0001:

=======================
1. Purpose of this Repo
=======================

Status
------

Accepted

Context
-------

In April 2022 we proposed a service of its own.

Decision
--------

We will keep it here.

.. code-block:: python

   x = 1
   -----
"""
CELERY = (
    "2. Use Celery\n############\n\nStatus\n******\n\nSuperseded by `3. Use RQ <0003-use-rq.rst>`_\n\n"
    "Context\n*******\n\nWe need background tasks.\n"
)
RQ = "3. Use RQ\n=========\n\nStatus\n------\n\nProposed\n\nContext\n-------\n\nSimpler tasks.\n"
FOLDER = {
    "docs/decisions/0001-purpose-of-this-repo.rst": PURPOSE,
    "docs/decisions/0002-use-celery.rst": CELERY,
    "docs/decisions/0003-use-rq.rst": RQ,
    "docs/decisions/index.rst": "Decisions\n=========\n\n.. toctree::\n",
    "src/tasks.py": "x = 1\n",
}


def _listed(capsys) -> dict[str, dict]:
    return {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}


def test_an_rst_folder_is_found_and_read(repo, capsys):
    commit(repo, FOLDER)
    listed = _listed(capsys)
    assert {k: (v["title"], v["status"]) for k, v in listed.items()} == {
        "ADR-0001": ("Purpose of this Repo", "accepted"),
        "ADR-0002": ("Use Celery", "superseded"),
        "ADR-0003": ("Use RQ", "proposed"),
    }
    assert listed["ADR-0002"]["path"] == "docs/decisions/0002-use-celery.rst"
    shown = json.loads(run(capsys, "show", "2", "--json").out)
    assert shown["superseded_by"] == ["ADR-0003"]
    assert "Superseded by `3. Use RQ <0003-use-rq.rst>`_" in run(capsys, "show", "2").out  # as written, not as markdown
    checked = run(capsys, "check", code=0)  # the folder's one finding: ADR-0003 does not say it supersedes ADR-0002
    assert checked.out.count("warning: supersession") == 1 and "error" not in checked.out
    found = run(capsys, "search", "--mode", "keyword", "background tasks", "--json").out
    assert json.loads(found)["results"][0]["id"] == "ADR-0002"


def test_edits_to_an_rst_record_are_written_in_its_syntax_and_make_no_new_version(repo, capsys):
    commit(repo, FOLDER)
    before = _listed(capsys)
    run(capsys, "accept", "3")
    run(capsys, "supersede", "1", "--by", "3")
    run(capsys, "link", "3", "relates-to", "2")
    rq = (repo / "docs/decisions/0003-use-rq.rst").read_text()
    assert rq == RQ.replace(
        "Proposed\n",
        "Accepted\n\nRelates-to `2. Use Celery <0002-use-celery.rst>`_\n\n"
        "Supersedes `1. Purpose of this Repo <0001-purpose-of-this-repo.rst>`_\n",
    )
    assert (
        "------\n\nSuperseded by `3. Use RQ <0003-use-rq.rst>`_\n\nContext"
        in (repo / "docs/decisions/0001-purpose-of-this-repo.rst").read_text()
    )
    after = _listed(capsys)
    assert after["ADR-0001"]["status"] == "superseded" and after["ADR-0003"]["status"] == "accepted"
    assert {k: v["version_id"] for k, v in after.items()} == {k: v["version_id"] for k, v in before.items()}
    checked = run(capsys, "check", code=0).out  # the folder's own: ADR-0003 does not say it supersedes ADR-0002
    assert checked.count("warning:") == 1 and "ADR-0002 says it is superseded by ADR-0003" in checked
    assert (
        run(capsys, "migrate", "--all", code=1).out.count("no frontmatter: its status stays where its readers see it")
        == 3
    )


def test_a_review_goes_into_a_comment_line_and_moves_the_anchor(repo, capsys):
    commit(
        repo,
        {
            "docs/decisions/0001-tasks.rst": "1. Tasks\n========\n\nDecision\n--------\n\nUse RQ.\n",
            "docs/decisions/0002-x.rst": RQ.replace("3. Use RQ\n=========", "2. X\n===="),
            "src/tasks.py": "x = 1\n",
        },
    )
    path = repo / "docs/decisions/0001-tasks.rst"
    run(capsys, "deprecate", "1", "--reason", "moved to a queue")  # no status stated: a Status section, seen
    assert path.read_text() == (
        "1. Tasks\n========\n\nStatus\n------\n\nDeprecated: moved to a queue\n\nDecision\n--------\n\nUse RQ.\n"
    )
    run(capsys, "accept", "1")
    path.write_text(".. adr-memory: {governs: [src/tasks.py]}\n\n" + path.read_text())
    commit(repo, {})
    commit(repo, {"src/tasks.py": "x = 2\n"})
    assert json.loads(run(capsys, "show", "1", "--json").out)["stale"] is True
    run(capsys, "affirm", "1", "--note", "still holds")
    head = git(repo, "rev-parse", "HEAD")[:12]
    assert path.read_text().startswith(
        f'.. adr-memory: {{"governs": ["src/tasks.py"], "reviewed": {{"commit": "{head}", "date": '
    )
    commit(repo, {})
    assert json.loads(run(capsys, "show", "1", "--json").out)["stale"] is False
    assert hook(["lint", "docs/decisions/0001-tasks.rst"]) == 0


def test_a_hostile_comment_line_is_a_finding_and_is_never_edited(repo, capsys):
    laughs = (
        "{a: &a [x, x, x, x, x, x, x, x, x], "
        + ", ".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi"))
        + "}"
    )
    commit(
        repo,
        {
            "docs/decisions/0001-x.rst": f".. adr-memory: {laughs}\n\n1. X\n====\n\nBody.\n",
            "docs/decisions/0002-y.rst": RQ,
        },
    )
    assert "0001-x.rst:1: error: yaml" in run(capsys, "check", code=1).out
    failed = run(capsys, "affirm", "1", code=2)
    assert failed.code != 0 and failed.err.startswith("error: ") and "Traceback" not in failed.err
    assert "`.. adr-memory:` line" in failed.err and "`---`" not in failed.err  # it names what to fix
    assert (repo / "docs/decisions/0001-x.rst").read_text().startswith(f".. adr-memory: {laughs}\n")


def test_new_records_in_an_rst_folder_are_rst(repo, capsys, tmp_path):
    commit(repo, FOLDER)
    path = run(capsys, "new", "Keep a C# client", "--governs", "src/**", "--context", "Some need it.").out.strip()
    assert path == "docs/decisions/0004-keep-a-c-client.rst"
    text = (repo / path).read_text()
    assert text.startswith(
        '.. adr-memory: {"governs": ["src/**"]}\n\n4. Keep a C# client\n===================\n\nDate: '
    )
    assert "Context\n-------\n\nSome need it.\n\nDecision\n--------\n" in text
    body = tmp_path / "body.rst"
    body.write_text("Context\n-------\n\nWhy.\n")
    written = run(capsys, "new", "From a file", "--status", "proposed", "--body-file", str(body)).out.strip()
    written_text = (repo / written).read_text()
    assert "Status\n------\n\nProposed\n" in written_text
    assert written_text.endswith("\n\nContext\n-------\n\nWhy.\n") and written_text.count("Context") == 1
    listed = _listed(capsys)
    assert (listed["ADR-0004"]["status"], listed["ADR-0005"]["status"]) == ("proposed", "proposed")
    shown = json.loads(run(capsys, "show", "4", "--json").out)
    assert shown["governs"] == ["src/**"] and shown["title"] == "Keep a C# client"
    run(capsys, "accept", "4")  # its Decision and Consequences still hold the template's comments
    checked = run(capsys, "check", code=0).out
    assert checked.count("0004-keep-a-c-client.rst") == 2 and "section 'Decision' still holds" in checked
    assert "section 'Context'" not in checked and "0001-purpose" not in checked  # a code block is no placeholder


@pytest.mark.parametrize(
    "text, titles",
    [
        (
            "Title\n=====\n\nSection\n-------\n\nSub\n~~~\n\nNext\n----\n",
            [(1, "Title"), (2, "Section"), (3, "Sub"), (2, "Next")],
        ),
        ("=====\nTitle\n=====\n\nA much longer section\n----\n", [(1, "Title"), (2, "A much longer section")]),
        # not titles: a paragraph's last line over a rule, an indented line, a transition, a short rule
        (
            "Title\n=====\n\nSome text\nmore text\n---------\n\n   Indented\n   --------\n\n----------\n\nAb\n--\nWord\n==\n",
            [(1, "Title"), (2, "Ab")],
        ),
    ],
)
def test_rst_section_titles(text, titles):
    assert [(h.level, h.text) for h in rst.headings(text.split("\n"))] == titles


def test_an_rst_record_without_a_title_is_told_how_rst_writes_one(repo, capsys):
    commit(repo, {"docs/decisions/0001-x.rst": "We decided.\n", "docs/decisions/0002-y.rst": RQ})
    out = run(capsys, "check", code=0).out
    assert "0001-x.rst:1: warning: title: no title (no section title before the first section)" in out
    assert "over a line of `=`" in out


def test_a_field_list_under_the_title_states_the_status_date_and_links(repo, capsys):
    """`:Status: Proposed` under an rst title was not read: the decision was taken as accepted."""
    text = (
        "=========================================\nADR-153: A run's uuid is its correlation id\n"
        "=========================================\n\n:Status: Proposed\n:Date: 2026-08-11\n"
        ":Amends: :ref:`ADR-2 <adr-2>` (telemetry rows)\n:Authors: Ann\n\nContext\n=======\n\nWhy.\n"
    )
    commit(
        repo, {"docs/decisions/0153-run-uuid.rst": text, "docs/decisions/0002-x.rst": RQ.replace("3. Use RQ", "2. X  ")}
    )
    shown = json.loads(run(capsys, "show", "153", "--json").out)
    assert (shown["title"], shown["status"], shown["date"]) == (
        "A run's uuid is its correlation id",
        "proposed",
        "2026-08-11",
    )
    assert {"rel": "amends", "id": "ADR-0002"} in shown["links"]
    run(capsys, "accept", "153")
    assert (repo / "docs/decisions/0153-run-uuid.rst").read_text() == text.replace(
        ":Status: Proposed", ":Status: Accepted"
    )
    assert json.loads(run(capsys, "show", "153", "--json").out)["version_id"] == shown["version_id"]


@pytest.mark.parametrize(
    "stated", [":Status: Superseded by :doc:`0002-x`", "Status\n------\n\nSuperseded by :doc:`the registry <0002-x>`"]
)
def test_a_sphinx_doc_reference_names_the_successor(repo, capsys, stated):
    commit(
        repo,
        {
            "docs/decisions/0001-old.rst": f"1. Old\n======\n\n{stated}\n\nContext\n-------\n\nc\n",
            "docs/decisions/0002-x.rst": "2. X\n====\n\nStatus\n------\n\nAccepted\n\nSupersedes :doc:`0001-old`\n",
        },
    )
    assert json.loads(run(capsys, "show", "1", "--json").out)["superseded_by"] == ["ADR-0002"]
    assert run(capsys, "check").err.strip() == "adr check: no problems"


def test_a_status_written_as_a_section_title_is_lifecycle_and_its_section_content(repo, capsys):
    text = "1. X\n====\n\nStatus: Proposed\n----------------\n\nWe will use X.\n"
    commit(repo, {"docs/decisions/0001-x.rst": text, "docs/decisions/0002-y.rst": RQ})
    before = json.loads(run(capsys, "show", "1", "--json").out)
    run(capsys, "deprecate", "1")
    after = json.loads(run(capsys, "show", "1", "--json").out)
    assert (before["status"], after["status"]) == ("proposed", "deprecated")
    assert (repo / "docs/decisions/0001-x.rst").read_text() == text.replace("Proposed", "Deprecated")
    assert after["version_id"] == before["version_id"]
    (repo / "docs/decisions/0001-x.rst").write_text(text.replace("use X", "use Y"))
    assert json.loads(run(capsys, "show", "1", "--json").out)["version_id"] != before["version_id"]


def _titles(text: str) -> list[tuple[int, int, int, int, str]]:
    return [(h.first, h.text_at, h.end, h.level, h.text) for h in rst.headings(text.split("\n"))]


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        (  # the styles' order makes the levels, whatever the characters
            "=====\nTitle\n=====\n\nSection\n-------\n\nSub\n~~~\n\nOther\n-------\n",
            [(0, 1, 3, 1, "Title"), (4, 4, 6, 2, "Section"), (7, 7, 9, 3, "Sub"), (10, 10, 12, 2, "Other")],
        ),
        ("Hi\n==\n", [(0, 0, 2, 1, "Hi")]),  # a rule as long as a short title
        ("Long title here\n====\n", [(0, 0, 2, 1, "Long title here")]),  # four characters suffice
        ("Title\n==\n", []),  # shorter than both
        ("para\nTitle\n=====\n", []),  # a paragraph's last line
        ("  Indented\n========\n", []),
        ("====\n====\n====\n", []),  # rules all three
        ("Title\n=====\nNext\n-----\n", [(0, 0, 2, 1, "Title"), (2, 2, 4, 2, "Next")]),  # one right after another
    ],
)
def test_more_rst_section_titles(text, titles):
    assert _titles(text) == titles


def test_the_title_is_the_first_heading_only_when_of_the_first_style():
    found = rst.headings(["Title", "=====", "", "Sec", "---", ""])
    assert rst.split_title(found) == (found[0], found[1:])
    assert rst.split_title([]) == (None, [])
    sections = [rst.Heading(0, 0, 2, 2, "Sec")]
    assert rst.split_title(sections) == (None, sections)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("a\n.. comment\n   continued\n\nb", "a\nb"),  # a comment and its indented lines
        ("..\n  gone\nc", "c"),  # an empty comment's block
        ("..\tx\nend", "end"),
        (".. code-block:: python\n\n   x", ".. code-block:: python\n\n   x"),  # a directive is content
        (".. _target:\n.. |sub| image:: x\n.. [1] note", ".. _target:\n.. |sub| image:: x\n.. [1] note"),
        ("...not a comment", "...not a comment"),
    ],
)
def test_rst_comments_are_set_aside(text, kept):
    assert rst.without_comments(text) == kept


@pytest.mark.parametrize(
    ("line", "meta"),
    [
        (".. adr-memory: {a: 1}", "{a: 1}"),
        (".. adr-memory:{a: 1}", "{a: 1}"),
        (".. adr-memory:   {x}  \t", "{x}"),  # blanks an editor left around it
        (".. adr-memory:", None),
        ("..adr-memory: {}", "no match"),
        (" .. adr-memory: {}", "no match"),  # the comment starts the line
    ],
)
def test_the_comment_line_that_holds_a_records_keys(line, meta):
    match = rst.META.fullmatch(line)
    assert (match.group(1) if match else "no match") == meta


def test_a_comment_line_with_blanks_after_it_is_read_and_edited_in_place():
    from adr_memory.records import parse, set_keys

    text = '.. adr-memory: {"status": "rejected"}  \n\nUse X\n=====\n'
    rec = parse(text, "docs/decisions/0001-x.rst")
    assert (rec.status, rec.status_stated, rec.body_line) == ("rejected", True, 2)
    assert set_keys(text, {"reviewed": {"commit": "abc"}}, "docs/decisions/0001-x.rst") == (
        '.. adr-memory: {"status": "rejected", "reviewed": {"commit": "abc"}}\n\nUse X\n=====\n'
    )


@pytest.mark.parametrize(
    ("line", "links", "docs"),
    [
        ("see `Use X <0003-x.rst>`_", [("Use X ", "0003-x.rst")], []),
        ("`anon <0003-x.rst>`__", [("anon ", "0003-x.rst")], []),  # an anonymous link
        ("`bad<a b>`_", [], []),
        (":doc:`0027-x`", [], [(None, "0027-x")]),
        (":doc:`Title <0027-x>`", [], [("Title ", "0027-x")]),
        (":doc:`../decisions/0027-x`", [], [(None, "../decisions/0027-x")]),
    ],
)
def test_rst_links_and_doc_references(line, links, docs):
    assert [m.groups() for m in rst.LINK.finditer(line)] == links
    assert [m.groups() for m in rst.DOC.finditer(line)] == docs


def test_a_link_is_written_without_what_would_break_it():
    assert rst.link("A `b` <c>", "0002-x.rst") == "`A b c <0002-x.rst>`_"
    written = rst.link("Use <X>", "0004-use-x.rst")
    assert [m.groups() for m in rst.LINK.finditer(written)] == [("Use X ", "0004-use-x.rst")]


@pytest.mark.parametrize(
    ("text", "fitted"),
    [
        ("Hi\n==========\n", "Hi\n===\n"),  # at least three
        ("=\nA title\n=\n", "=\nA title\n=\n"),  # rules too short are no title: left as they are
        ("=====\nA title\n=====\n\nText\n", "=======\nA title\n=======\n\nText\n"),
        ("Use PostgreSQL\n====\n", "Use PostgreSQL\n==============\n"),
        ("no title\n", "no title\n"),
    ],
)
def test_a_titles_rules_are_fitted_to_it(text, fitted):
    assert rst.fit_title(text) == fitted
