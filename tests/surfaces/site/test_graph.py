"""The graph: a node per decision linking to its page, each relation drawn once, record text
escaped; the same edges as `adr generate graph`."""

from __future__ import annotations

import itertools
import re

from adr_memory.commands.generate import edges
from adr_memory.commands.site import gather
from adr_memory.history import Workspace
from adr_memory.surfaces.site import graph
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


def _boxes(drawn):
    return [tuple(map(float, m)) for m in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)"', drawn)]


def _segments(path):
    points = [tuple(map(float, p.split(","))) for p in re.findall(r"[\d.]+,[\d.]+", path)]
    return list(itertools.pairwise(points))


def test_every_relation_runs_in_the_gutters_and_the_grid_fits_a_1280_px_window(repo):
    """Twenty decisions, each related to three others anywhere on the grid: no line passes
    through a box it does not join (at its ends it touches only its own two)."""
    files = {}
    for n in range(1, 21):
        targets = [f"ADR-{(n * k) % 20 + 1:04d}" for k in (3, 7, 11) if (n * k) % 20 + 1 != n]
        files[f"docs/adr/{n:04d}-d.md"] = adr_text(f"D{n}", extra=f"relates-to: {targets}")
    commit(repo, files, "twenty")
    ws = Workspace.discover(repo)
    drawn = graph.svg(gather(ws, "t").decisions, edges(ws.catalog), "")
    assert int(re.search(r'width="(\d+)"', drawn).group(1)) <= 1200
    boxes = _boxes(drawn)
    paths = re.findall(r'<path d="(M[^"]+)" marker-end', drawn)
    assert len(paths) >= 20
    for path in paths:
        for (x1, y1), (x2, y2) in _segments(path)[1:-1]:  # the first and last leave and enter a box
            for bx, by in boxes:
                inside_x = max(min(x1, x2), bx) < min(max(x1, x2), bx + graph._W)
                inside_y = max(min(y1, y2), by) < min(max(y1, y2), by + graph._H)
                if x1 == x2:
                    inside_x = bx < x1 < bx + graph._W
                if y1 == y2:
                    inside_y = by < y1 < by + graph._H
                assert not (inside_x and inside_y), (path, (bx, by))
