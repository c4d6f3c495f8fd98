"""What people and tools meet: the CLI, the hook entry points, the MCP server, rendering,
the views, review, export and generated pages, and the one error boundary. This face imports
nothing: the pre-commit hook reaches `surfaces.hook` without loading typer or rich.

Other packages import from here only. Names load on first use (PEP 562): importing the face
costs nothing, so a light command never pays for a heavy module it does not touch.
"""

from __future__ import annotations

from adr_memory import lazy_face

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {}

__all__ = []

__getattr__ = lazy_face(__name__, _OFFERED)
