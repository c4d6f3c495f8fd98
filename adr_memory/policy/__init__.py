"""What the repository must hold to: `check` and its rules and conflicts, the branch checks
of a pull request, and the lifecycle transitions that edit records (new, accept, supersede,
link, affirm, migrate, init).

Other packages import from here only. Names load on first use (PEP 562): importing the face
costs nothing, so a light command never pays for a heavy module it does not touch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adr_memory import lazy_face

if TYPE_CHECKING:
    from adr_memory.policy.bootstrap import init
    from adr_memory.policy.linking import LinkSpec
    from adr_memory.policy.new import Key, create
    from adr_memory.policy.transaction import Transaction

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {
    "Key": "new",
    "LinkSpec": "linking",
    "Transaction": "transaction",
    "create": "new",
    "init": "bootstrap",
}

__all__ = [
    "Key",
    "LinkSpec",
    "Transaction",
    "bootstrap",
    "branch",
    "check",
    "conflicts",
    "create",
    "init",
    "lifecycle",
    "migrate",
    "rules",
    "sourcing",
]

__getattr__ = lazy_face(__name__, _OFFERED)
