"""`adr generate toc` and `adr generate graph`: the folder's decisions, each with its standing
(records/standing.py, worked out here once), and the links between them, for
surfaces/generate.py to draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adr_memory.history import Workspace, folder_at
from adr_memory.records import Catalog, standing


@dataclass(frozen=True)
class Drawn:
    catalog: Catalog
    standings: dict[str, standing.Standing]

    @classmethod
    def of(cls, catalog: Catalog) -> Drawn:
        return cls(catalog, standing.of(catalog.records))

    def nodes(self) -> list[dict[str, Any]]:
        return [
            {
                "id": r.id,
                "title": r.title,
                "status": r.status,
                "path": r.path,
                "standing": self.standings[r.path].to_json(),
            }
            for r in self.catalog
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes(),
            "edges": [{"from": a, "to": b, "relation": rel} for a, b, rel in edges(self.catalog)],
        }


def run(ws: Workspace, at: str | None = None) -> Drawn:
    """The folder's decisions (as they were at commit `at`), each with its standing."""
    return Drawn.of(folder_at(ws, at).catalog if at is not None else ws.catalog)


_EDGE_STYLE = {"supersedes": "supersedes", "depends-on": "depends on", "relates-to": "relates to"}


def edges(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(from, to, relation) of every link between two decisions of the folder, each drawn once:
    a supersession from the superseding side, and a pair that adr-tools writes both ways
    (`Amends` / `Amended by`) from the side whose words do not end in "by"."""
    known = catalog.ids()
    linked = {(rec.id, link.target) for rec in catalog for link in rec.links}
    found: list[tuple[str, str, str]] = []
    for rec in catalog:
        for link in rec.links:
            if link.target not in known or link.rel == "superseded-by":
                continue  # drawn once, from the superseding side
            if link.rel.lower().endswith(" by") and (link.target, rec.id) in linked:
                continue  # the reverse of a link the other record states
            found.append((rec.id, link.target, _EDGE_STYLE.get(link.rel, link.rel)))
        for later in rec.superseded_by:
            edge = (later, rec.id, "supersedes")
            if later in known and edge not in found:
                found.append(edge)
    return list(dict.fromkeys(found))
