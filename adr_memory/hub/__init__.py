"""The hub: one place for an organisation's decisions (ARCHITECTURE.md §8, ADR-0098). Each
repository's CI publishes its catalog at HEAD (records, states, keys, sections and their vectors,
embedded there); readers search and list across every repository. One store interface, two
stores: a folder (nothing to run) and PostgreSQL with pgvector (the only importer of psycopg,
loaded on first use).

Other packages import from here only. Names load on first use (PEP 562), as every face's do.
"""

from __future__ import annotations

from adr_memory import lazy_face

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {}

__all__ = ["folder", "postgres", "reading", "snapshot", "store"]

__getattr__ = lazy_face(__name__, _OFFERED)
