"""Links between records, wherever a folder states them: frontmatter, status text, header
lists, and prose under the title."""

from __future__ import annotations

import pytest

from adr_memory.records import links, parse


def _links(text: str) -> list[tuple[str, str]]:
    return [(link.rel, link.target) for link in parse(text, "docs/adr/0009-b.md").links]


def test_prose_under_the_title_that_supersedes_a_linked_record_is_a_supersession():
    """tdr: "This decision supersedes decision: [0008 ...](0008-x.md)" is its side of the
    supersession that 0008's "has been superseded by decision" states."""
    text = (
        "# 9. Keycloak admins\n\n**Date:** 2020-01-01\n\n"
        "This decision supersedes decision: [0008 Keycloak admins](0008-keycloak-admins.md)\n\n## Context\n\nc\n"
    )
    assert _links(text) == [("supersedes", "ADR-0008")]


def test_prose_that_names_no_record_file_or_sits_in_a_section_links_nothing():
    assert _links("# 9. B\n\nThis supersedes [the wiki](https://wiki.example/page)\n\n## Context\n\nc\n") == []
    assert _links("# 9. B\n\n## Context\n\nIt supersedes [8. A](0008-a.md) in part.\n") == []


def test_a_supersession_in_frontmatter_and_in_prose_is_one_link():
    text = "---\nsupersedes: [ADR-0008]\n---\n# 9. B\n\nThis decision supersedes [8. A](0008-a.md).\n"
    assert _links(text) == [("supersedes", "ADR-0008")]


def test_any_link_text_round_trips_even_one_ending_in_to(repo, capsys):
    """`adr link 5 "Led to" 2 "Caused by"` read back as relates-to in show, backlinks and the
    timeline, and the graph dropped the reverse edge."""
    import json

    from tests.helpers import adr_text, commit, run

    commit(repo, {"docs/adr/0002-b.md": adr_text("B"), "docs/adr/0005-e.md": adr_text("E")})
    run(capsys, "link", "5", "Led to", "2", "Caused by")
    shown = json.loads(run(capsys, "show", "5", "--json").out)
    assert {(link["rel"], link["id"]) for link in shown["links"]} >= {("led to", "ADR-0002")}
    back = json.loads(run(capsys, "show", "2", "--json").out)
    assert ("caused by", "ADR-0005") in {(link["rel"], link["id"]) for link in back["links"]}
    graph = run(capsys, "generate", "graph").out
    assert "led to" in graph


def _placed(text: str, path: str = "docs/adr/0009-b.md") -> list[tuple[str, str, int, str]]:
    return [(link.rel, link.target, link.line, link.file) for link in parse(text, path).links]


@pytest.mark.parametrize(
    ("text", "links"),
    [
        (  # every spelling of a key, a number or a list, each at its key's line
            "---\nsuperseded_by: ADR-12\nreplaces: [3, 'adr-4']\namended-by: 7\nrelated: ['5']\ndepends_on: 6\n---\n# T\n",
            [
                ("superseded-by", "ADR-0012", 2, ""),
                ("supersedes", "ADR-0003", 3, ""),
                ("supersedes", "ADR-0004", 3, ""),
                ("amended by", "ADR-0007", 4, ""),
                ("relates-to", "ADR-0005", 5, ""),
                ("depends-on", "ADR-0006", 6, ""),
            ],
        ),
        (
            "---\nsupersedes: 'ADR-1, ADR-2'\n---\n# T\n",  # text apart by commas
            [("supersedes", "ADR-0001", 2, ""), ("supersedes", "ADR-0002", 2, "")],
        ),
        (  # `links:` mappings; one without an id, or no mapping, names nothing
            "---\nlinks: [{rel: amends, id: 3}, {id: ADR-4}, {rel: 'Led to', id: 5}, 'bad', {rel: x}]\n---\n# T\n",
            [("amends", "ADR-0003", 2, ""), ("relates-to", "ADR-0004", 2, ""), ("led to", "ADR-0005", 2, "")],
        ),
    ],
)
def test_frontmatter_links(text, links):
    assert _placed(text) == links


@pytest.mark.parametrize(
    ("status", "links"),
    [
        (
            "Superseded by ADR-5 and ADR-6, ADR-7",
            [("superseded-by", "ADR-0005"), ("superseded-by", "ADR-0006"), ("superseded-by", "ADR-0007")],
        ),
        ("accepted; supersedes ADR-0045", [("supersedes", "ADR-0045")]),
        ("Accepted, amended by ADR-10", [("amended by", "ADR-0010")]),
        ("Accepted (amends ADR 2)", [("amends", "ADR-0002")]),
        ("Superseded (see ADR-5)", [("superseded-by", "ADR-0005")]),  # superseded, naming a record
        ("Deprecated in favour of ADR-9", [("superseded-by", "ADR-0009")]),
        ("Rejected in favour of ADR-9", []),  # never in force: nothing replaced it
        ("Accepted ~~superseded by ADR-3~~", []),  # struck out
        ("Superseded by ADR-1234567890", []),  # no record's number
        ("'Replaced by #12'", [("superseded-by", "ADR-0012")]),  # quoted: `#` after a blank opens a YAML comment
    ],
)
def test_what_a_frontmatter_status_names(status, links):
    text = f"---\nstatus: {status}\n---\n# T\n"
    assert [(rel, target) for rel, target, _, _ in _placed(text)] == links


@pytest.mark.parametrize(
    ("text", "links"),
    [
        (  # adr-tools' link line, and its anchor dropped from the file
            "# T\n\n## Status\n\nSuperseded by [5. X](0005-x.md#decision)\n",
            [("superseded-by", "ADR-0005", 5, "0005-x.md")],
        ),
        (  # a record named by its date is linked by its name, not its digits
            "# T\n\n## Status\n\nSuperseded by [new](2021-06-01-new-thing.md)\n",
            [("superseded-by", "2021-06-01-new-thing", 5, "2021-06-01-new-thing.md")],
        ),
        (  # MADR 2's header
            "# T\n\n* Status: superseded by [ADR-0005](0005-use-x.md)\n* Date: 2020-01-01\n",
            [("superseded-by", "ADR-0005", 3, "0005-use-x.md")],
        ),
        (  # `adr supersede` beside a MADR 2 status
            "# T\n\n* Status: accepted\n* Supersedes [1. Use X](0001-use-x.md)\n",
            [("supersedes", "ADR-0001", 4, "0001-use-x.md")],
        ),
        ("# T\n\n## Status\n\n- [x] Accepted\n- [ ] Superseded by [ADR-3](0003-x.md)\n", []),  # a choice not taken
        (  # a file named by its title, where the line says how it relates
            "# T\n\n## Status\n\nAccepted\n\nDepends on [Use Kafka](use-kafka.md)\n",
            [("depends-on", "use-kafka", 7, "use-kafka.md")],
        ),
        (  # a metadata table's row, each number a link
            "# T\n\n| Status | Accepted |\n| Supersedes | ADR-2, 3 |\n\n## Context\n",
            [("supersedes", "ADR-0002", 4, ""), ("supersedes", "ADR-0003", 4, "")],
        ),
        ("# T\n\n* Status: accepted\n* Updates: ADR-4\n", [("amends", "ADR-0004", 4, "")]),  # log4brains' word
    ],
)
def test_links_in_the_body_with_their_lines(text, links):
    assert _placed(text) == links


def test_a_sphinx_doc_reference_in_a_field_list_names_its_record():
    text = "Title\n=====\n\n:Status: Superseded by :doc:`0027-new-thing`\n"
    assert _placed(text, "docs/decisions/0009-b.rst") == [("superseded-by", "ADR-0027", 4, "0027-new-thing.rst")]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "---\nlinks: {rel: amends}\n---\n# T\n",
            (
                "schema",
                "`links` must be a list of {rel, id} mappings",
                2,
                "write it as links: [{rel: amends, id: ADR-0003}]",
            ),
        ),
        (
            "---\ntitle: T\nsupersedes: {a: 1}\n---\n# T\n",
            ("schema", "`supersedes` must be a list of text values", 3, 'write it as supersedes: ["a", "b"]'),
        ),
        (
            "---\ntags: [[a]]\n---\n# T\n",
            ("schema", "`tags` must be a list of text values", 2, 'write it as tags: ["a", "b"]'),
        ),
    ],
)
def test_a_link_key_of_the_wrong_shape_is_a_problem_on_its_line(text, problem):
    rec = parse(text, "docs/adr/0009-b.md")
    assert rec.links == ()
    assert [(p.kind, p.message, p.line, p.hint) for p in rec.problems] == [problem]


@pytest.mark.parametrize(
    ("before", "rel"),
    [
        ("Superseded by", "superseded-by"),
        ("superseded (see", "superseded-by"),
        ("Superseded ->", "superseded-by"),
        ("Obsoleted by", "superseded-by"),
        ("Superseeded by", "superseded-by"),  # as folders misspell it
        ("Ersetzt durch", "superseded-by"),
        ("Supersedes", "supersedes"),
        ("Replaces", "supersedes"),
        ("Depends on", "depends-on"),
        ("Amended by", "amended by"),
        ("", "relates-to"),
        ("See also", "relates-to"),
        ("Related to", "relates-to"),
        ("Accepted", "relates-to"),  # a status word before a link says no relation
        ("Led to", "led to"),  # any other words are their own relation
        ("Caused by", "caused by"),
    ],
)
def test_the_words_before_a_link_name_its_relation(before, rel):
    assert links._rel(before) == rel


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        ("See **[A](a.md)** and ![img](x.png) <!-- hidden -->\n\n  text", "See A and img text"),
        ("[a](b) [c](d)", "a c"),
        ("no links", "no links"),
        ("[" * 50_000, "[" * 50_000),  # read at once, kept as written
    ],
)
def test_plain_text_of_markdown(markdown, shown):
    assert links.plain(markdown) == shown


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("---\nstatus: accepted\n---\n# T\n", "frontmatter"),
        ("# T\n\n* Status: accepted\n", "madr"),
        ("# ADR 12: PeerTransport\n\nText.\n", "tendermint"),
        ("# ADR-012: X\n\n## Status\n\nAccepted\n", "tendermint"),
        ("# 1. T\n\n## Status\n\nAccepted\n", "nygard"),
        ("# T\n\nJust text.\n", "plain"),
    ],
)
def test_the_format_a_record_is_written_in(text, fmt):
    assert parse(text, "docs/adr/0012-b.md").format == fmt


def test_a_long_run_of_blanks_after_a_relation_is_read_at_once():
    status = "Superseded by ADR-5" + " " * 50_000 + "and ADR-6"
    assert [
        (link.rel, link.target) for link in parse(f"---\nstatus: '{status}'\n---\n# T\n", "docs/adr/0009-b.md").links
    ] == [
        ("superseded-by", "ADR-0005"),
        ("superseded-by", "ADR-0006"),
    ]


@pytest.mark.parametrize("link", ["[a](0001-x.md) ", ":doc:`0001-x` "])
def test_the_words_before_each_link_of_a_long_line_are_read_in_linear_work(monkeypatch, link):
    """Counted, not timed: the characters `_rel` is given to read grow as the line does, not
    as its square (each link's whole prefix was read: a 1 MB line of links took an hour)."""
    read = []
    original = links._rel
    monkeypatch.setattr(links, "_rel", lambda text: read.append(len(text)) or original(text))

    def chars_read(count: int) -> int:
        read.clear()
        rec = parse(f"# T\n\n## Status\n\nSuperseded by {link * count}\n", "docs/adr/0009-t.md")
        assert [(item.rel, item.target) for item in rec.links] == [("superseded-by", "ADR-0001")]
        return sum(read)

    assert chars_read(2400) < 2.2 * chars_read(1200)  # twice the links: twice the reading, not four times


def test_a_link_written_in_frontmatter_points_at_its_key_s_line():
    text = (
        "---\nstatus: accepted\ntitle: Use X\nsupersedes: [ADR-0009]\nlinks:\n"
        "  - {rel: amends, id: ADR-0042}\n---\n# Use X\n\n## Status\n\nAmends [ADR-3](0003-y.md)\n"
    )
    rec = parse(text, "docs/adr/0001-use-x.md")
    assert sorted((link.rel, link.target, link.line) for link in rec.links) == [
        ("amends", "ADR-0003", 12),  # a body link: its own line
        ("amends", "ADR-0042", 5),  # `links:` is the fifth line
        ("supersedes", "ADR-0009", 4),
    ]
