"""Text that looks like a credential: found by `adr check`, never indexed, never printed.

Patterns are deliberately specific (key formats, private key blocks, a password word followed
by a real-looking value) so ordinary prose about passwords is not flagged.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass

from adr_memory.record import Record, Section

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA|AROA|AIDA)[0-9A-Z]{16}\b")),
    ("a private key block", re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b")),
    ("a Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b")),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("an API secret key", re.compile(r"\bsk-(?:live|test|proj)?[-_]?[A-Za-z0-9]{20,}\b")),
    ("a password", re.compile(
        r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token)\b[\"']?\s*(?:[:=]|\bis\b)"
        r"\s*[\"'`]?(?P<value>[^\s\"'`]{8,})")),
)
# Values that are plainly placeholders, not secrets.
_PLACEHOLDER = re.compile(r"(?i)^(?:<.*>|\$\{?.*\}?|\{\{.*\}\}|x{4,}.*|\*{4,}|changeme|example\w*|"
                          r"password\w*|secret\w*|redacted|none|null|true|false|required|optional)$")


@dataclass(frozen=True)
class Hit:
    line: int  # 1-based, within the text scanned
    what: str


def _real(match: re.Match[str]) -> bool:
    value = match.groupdict().get("value")
    if value is None:
        return True
    value = value.rstrip(".,;)")
    has_digit, has_alpha = any(c.isdigit() for c in value), any(c.isalpha() for c in value)
    return not _PLACEHOLDER.match(value) and has_digit and has_alpha and len(value) >= 8


def scan(text: str) -> Iterator[Hit]:
    if not any(pattern.search(text) for _what, pattern in _PATTERNS):
        return  # the common case, decided by a few regex passes over the whole text
    for number, line in enumerate(text.split("\n"), start=1):
        for what, pattern in _PATTERNS:
            if any(_real(m) for m in pattern.finditer(line)):
                yield Hit(number, what)
                break


_KEY_BLOCK = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?"
                        r"(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.S)


def scrub(text: str) -> str:
    """The text with every credential-looking value replaced by [REDACTED]."""
    text = _KEY_BLOCK.sub("[REDACTED]", text)
    for _what, pattern in _PATTERNS:
        text = pattern.sub(lambda m: "[REDACTED]" if _real(m) else m.group(0), text)
    return text


def redacted(rec: Record) -> Record:
    """The record with each section that holds a credential replaced, and the rest scrubbed."""
    if not any(True for _ in scan(rec.body)) and not any(True for _ in scan(rec.title)):
        return rec
    sections = tuple(_section(s) for s in rec.sections)
    return dataclasses.replace(rec, title=scrub(rec.title), heading=scrub(rec.heading),
                               body=scrub(rec.body), sections=sections)


def _section(section: Section) -> Section:
    hits = list(scan(section.text))
    if not hits:
        return section
    return dataclasses.replace(section, text=f"[REDACTED: this section contains {hits[0].what}]")
