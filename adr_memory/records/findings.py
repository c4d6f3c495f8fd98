"""The finding: one problem at a file and line, with a hint. Below check, rules, branch and
conflicts, so each of them can report findings without importing another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    kind: str
    severity: str
    id: str
    message: str
    hint: str | None = None
    col: int = 0
    rule_id: str | None = None

    def text_lines(self) -> list[str]:
        """The compiler-style lines a terminal or CI log shows (editors and log parsers read
        `path:line:`); the printer removes escape sequences, the text may hold any."""
        if self.rule_id:
            return [f"{self.path}:{self.line}:{self.col}: {self.id} {self.rule_id} {self.message}"]
        head = f"{self.path}:{self.line}: {self.severity}: {self.kind}: {self.message}"
        return [head, f"    hint: {self.hint}"] if self.hint else [head]

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        keys = ("kind", "severity", "id", "path", "line", "message", "hint", "col", "rule_id")
        return {k: data[k] for k in keys}


def first_few(items: Sequence[str], shown: int = 5) -> str:
    """The first few items of a list for a message, and how many more: a record may govern
    thousands of files or list thousands of globs."""
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" and {more:,} more" if more > 0 else "")
