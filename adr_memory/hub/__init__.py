"""The hub: one place for an organisation's decisions (ARCHITECTURE.md §8, ADR-0098). Each
repository's CI publishes its catalog at HEAD (records, states, keys, sections and their vectors,
embedded there, built by commands/hub.py); readers list across every repository (search across
them is commands/across.py's, scored by search/fusion.py). It stands beside search and policy and imports no command. One store interface, two
stores: a folder (nothing to run) and PostgreSQL with pgvector (the only importer of psycopg,
loaded on first use).

Other packages import from here only. Names load on first use (PEP 562), as every face's do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adr_memory import lazy_face

if TYPE_CHECKING:
    from adr_memory.hub.snapshot import Snapshot, exceptions, named, web_url

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {
    "Snapshot": "snapshot",
    "exceptions": "snapshot",
    "named": "snapshot",
    "web_url": "snapshot",
}

__all__ = [
    "Snapshot",
    "exceptions",
    "folder",
    "named",
    "postgres",
    "reading",
    "snapshot",
    "store",
    "tokens",
    "web_url",
    "wording",
]

__getattr__ = lazy_face(__name__, _OFFERED)
