"""Links between records, wherever a folder states them: frontmatter, status text, header
lists, and prose under the title."""

from __future__ import annotations

from adr_memory.records import parse


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
