"""The graph: a node per decision linking to its page, each relation drawn once, record text
escaped; the same edges as `adr generate graph`."""

from __future__ import annotations

import re

from adr_memory.history import Workspace
from adr_memory.surfaces.generate import edges
from adr_memory.surfaces.site import graph
from adr_memory.surfaces.site.gather import gather
from tests.helpers import adr_text, commit, run


def test_an_adr_tools_link_written_both_ways_is_drawn_once(repo, capsys, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")}, "two")
    run(capsys, "link", "2", "Amends", "1", "Amended by")
    mermaid = run(capsys, "generate", "graph").out
    assert re.findall(r"-->\|[^|]+\|", mermaid) == ["-->|amends|"]
    assert "n_ADR_0002 -->|amends| n_ADR_0001" in mermaid
    run(capsys, "site", "--out", str(tmp_path / "s"))
    drawn = (tmp_path / "s" / "graph.html").read_text()
    assert drawn.count("marker-end=") == 1 and "<title>amends</title>" in drawn


def test_a_node_per_decision_each_a_link_to_its_page_and_escaped(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use <script>alert(1)</script> & more"),
            "docs/adr/0002-b.md": adr_text("B", extra='supersedes: ["ADR-0001"]'),
            "docs/adr/0003-c.md": adr_text("C", extra='depends-on: ["ADR-0002", "ADR-0099"]'),
        },
        "three",
    )
    ws = Workspace.discover(repo)
    site = gather(ws, "t")
    drawn = graph.svg(site.decisions, edges(ws.catalog), "")
    assert re.findall(r'<a href="([^"]+)" class="node', drawn) == [
        "decisions/ADR-0001.html",
        "decisions/ADR-0002.html",
        "decisions/ADR-0003.html",
    ]
    assert "<script>" not in drawn and "Use &lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in drawn
    kinds = re.findall(r"<title>([a-z ]+)</title></path>", drawn)
    assert sorted(kinds) == ["depends on", "supersedes"]  # ADR-0099 is not in the folder: no line
    assert 'stroke-dasharray="4 3"' in drawn  # depends-on is dashed, supersedes solid


def test_an_empty_folder_draws_an_empty_graph(repo):
    (repo / "docs/adr").mkdir(parents=True)
    drawn = graph.svg([], [], "")
    assert drawn.startswith("<svg") and 'class="node ' not in drawn
