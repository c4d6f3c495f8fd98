"""`adr generate toc` and `adr generate graph`: the catalog as a markdown index and as a
mermaid or dot graph, record text unable to break out of either."""

from __future__ import annotations

from adr_memory.commands import generate as drawing
from adr_memory.records import catalog
from adr_memory.surfaces import generate
from tests.helpers import adr_text, write


def _catalog(root, files):
    write(root, files)
    return catalog.read_worktree(root, "docs/adr")


def test_the_toc_links_each_record_from_where_it_is_written_with_its_status(tmp_path):
    cat = _catalog(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# 1. Use [brackets] here\n\n## Status\n\nSuperseded by [2. B](0002-b.md)\n",
            "docs/adr/0002-b.md": adr_text("B"),
        },
    )
    assert generate.toc(cat).splitlines()[2:] == [
        "* [ADR-0001: Use \\[brackets\\] here](0001-a.md) (Superseded by [2. B](0002-b.md))",
        "* [ADR-0002: B](0002-b.md) (accepted)",
    ]
    moved = generate.toc(cat, relative_to="")  # written at the repository's root
    assert "(docs/adr/0001-a.md) (Superseded by [2. B](docs/adr/0002-b.md))" in moved


def test_graph_edges_are_drawn_once_and_record_text_stays_a_label(tmp_path):
    cat = _catalog(
        tmp_path,
        {
            "docs/adr/0001-a.md": adr_text(
                'A "quoted"\\ title', status="superseded", extra='superseded-by: ["ADR-0002"]'
            ),
            "docs/adr/0002-b.md": adr_text("B", extra='supersedes: ["ADR-0001"]\ndepends-on: ["ADR-0003"]'),
            "docs/adr/0003-c.md": adr_text("C"),
        },
    )
    assert drawing.edges(cat) == [("ADR-0002", "ADR-0001", "supersedes"), ("ADR-0002", "ADR-0003", "depends on")]
    mermaid = generate.graph(cat)
    assert "n_ADR_0001[\"ADR-0001: A 'quoted'\\ title (superseded)\"]" in mermaid
    dot = generate.graph(cat, "dot")
    assert '"ADR-0001" [label="ADR-0001\\nA \'quoted\'\\\\ title", style=dashed];' in dot
    assert dot.count("->") == 2


def test_the_toc_and_the_graph_say_what_holds_when_the_files_say_otherwise(tmp_path):
    """ADR-0001's file says superseded, but its successor is only proposed: it is in force.
    ADR-0003's file says accepted, but an accepted successor replaced it: it is not."""
    cat = _catalog(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# 1. A\n\n## Status\n\nSuperseded by [2. B](0002-b.md)\n",
            "docs/adr/0002-b.md": "# 2. B\n\n## Status\n\nProposed\n\nSupersedes [1. A](0001-a.md)\n",
            "docs/adr/0003-c.md": adr_text("C"),
            "docs/adr/0004-d.md": adr_text("D", extra="supersedes: [ADR-0003]"),
        },
    )
    assert generate.toc(cat).splitlines()[2:] == [
        "* [ADR-0001: A](0001-a.md) (in force; successor proposed: ADR-0002)",
        "* [ADR-0002: B](0002-b.md) (Proposed)",
        "* [ADR-0003: C](0003-c.md) (superseded by ADR-0004)",
        "* [ADR-0004: D](0004-d.md) (accepted)",
    ]
    mermaid = generate.graph(cat)
    assert '["ADR-0001: A (accepted)"]' in mermaid and '["ADR-0003: C (superseded)"]' in mermaid
    dot = generate.graph(cat, "dot")
    assert '"ADR-0001" [label="ADR-0001\\nA"];' in dot  # in force: drawn solid
    assert '"ADR-0003" [label="ADR-0003\\nC", style=dashed];' in dot
