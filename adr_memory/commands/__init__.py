"""One module per command, between the surfaces and the core: `run(ws, ...)` returns the answer
(a typed result that knows its JSON shape). The CLI, the MCP server and the hooks call it and only
render, so they give the same answer to the same question; the MCP tools' schemas are read from
these signatures, never restated (docs/architecture.md, ADR-0096).

Other packages import from here only. Names load on first use (PEP 562), as every face's do.
"""

from __future__ import annotations

from adr_memory import lazy_face

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {}

__all__ = [
    "across",
    "check",
    "evaluate",
    "export",
    "facts",
    "feedback",
    "generate",
    "guard",
    "hooks",
    "hub",
    "index",
    "init",
    "lifecycle",
    "listing",
    "log",
    "migrate",
    "new",
    "registry",
    "review",
    "search",
    "serving",
    "show",
    "site",
    "sources",
    "stale",
    "views",
]

__getattr__ = lazy_face(__name__, _OFFERED)
