"""`adr check`: every problem of the folder, and with `base` of what a branch changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adr_memory.history import Workspace
from adr_memory.policy import check as checks

KINDS = checks.KINDS  # the finding kinds `--fail-on` names


@dataclass(frozen=True)
class Checked:
    findings: list[Any]
    untouched: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": not any(f.severity == "error" for f in self.findings),
            "findings": [f.to_json() for f in self.findings],
            "untouched": self.untouched,
        }

    def fails(self, kinds: set[str] | None = None) -> bool:
        return checks.fails(self.findings, kinds)


def run(
    ws: Workspace,
    base: str | None = None,
    paths: list[str] | None = None,
    rules_only: bool = False,
    allow_unknown: bool = False,
) -> Checked:
    """Lint the ADR folder, enforce the decisions' rules on the code, and with `base` (a ref)
    judge what the branch changed since its merge-base; `paths` limits the report to those files."""
    only = [ws.relpath(p) for p in paths] if paths else None
    outcome = checks.run(ws, only=only, base=base, rules_only=rules_only)
    findings = [f for f in outcome.findings if not (allow_unknown and f.kind == "unknown")]
    return Checked(findings, outcome.untouched_line())
