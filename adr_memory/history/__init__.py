"""Every read of git (through dulwich in `repo`): the workspace a command runs in, the folder of records history reads (its work tree, a commit, a source's pin), the walk of
first-parent history and its cache, versions, anchors and staleness, git hook installation,
and the local feedback kept beside the history.

Other packages import from here only. Names load on first use (PEP 562): importing the face
costs nothing, so a light command never pays for a heavy module it does not touch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adr_memory import lazy_face

if TYPE_CHECKING:
    from adr_memory.history.anchors import events, first_recorded
    from adr_memory.history.folder import AtCommit, Folder, folder_at
    from adr_memory.history.ranges import BranchRange, branch_range
    from adr_memory.history.repo import Repo
    from adr_memory.history.versions import digest
    from adr_memory.history.workspace import Workspace

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {
    "AtCommit": "folder",
    "BranchRange": "ranges",
    "Folder": "folder",
    "Repo": "repo",
    "Workspace": "workspace",
    "branch_range": "ranges",
    "digest": "versions",
    "events": "anchors",
    "first_recorded": "anchors",
    "folder_at": "folder",
}

__all__ = [
    "AtCommit",
    "BranchRange",
    "Folder",
    "Repo",
    "Workspace",
    "branch_range",
    "digest",
    "events",
    "feedback",
    "first_recorded",
    "folder",
    "folder_at",
    "gitwalk",
    "hooks",
    "sources",
    "staleness",
    "versions",
    "walk",
]

__getattr__ = lazy_face(__name__, _OFFERED)
