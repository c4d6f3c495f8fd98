"""Status badges: a shields.io badge under a record's title that shows its status, read and
rewritten in place (ADR-0059)."""

from __future__ import annotations

import re
import urllib.parse

from adr_memory.records.languages import cased_as

# `![Status](https://img.shields.io/badge/status-Accepted-brightgreen)`, `<img src="https://
# img.shields.io/badge/Status-Draft-grey">`: a static badge's path is `label-message-colour`,
# with `--` a dash, `_` a space and `__` an underscore in each part.
_URL = re.compile(r"https?://img\.shields\.io/badge/([^)\"'\s?#]+)", re.IGNORECASE)
_PART = re.compile(r"(?:[^-]++|--)++")  # possessive: a long part keeps no backtracking state


def status_badge(line: str) -> re.Match[str] | None:
    """A line's first status badge (the match of its URL), if it has one."""
    for match in _URL.finditer(line):
        parts = _PART.findall(match.group(1))
        if len(parts) == 3 and _text(parts[0]).strip().lower() == "status":
            return match
    return None


def message(badge: re.Match[str]) -> str:
    return _text(_PART.findall(badge.group(1))[1])


def with_message(line: str, badge: re.Match[str], word: str) -> str:
    """The line with the badge showing `word`, and its alt text too where that said the old
    one (`![Accepted](.../status-accepted-green)`); its label and colour stay."""
    old = message(badge)
    label, _, colour = _PART.findall(badge.group(1))
    written = word.replace("_", "__").replace("-", "--").replace(" ", "_")
    line = line[: badge.start(1)] + f"{label}-{written}-{colour}" + line[badge.end(1) :]
    alt = re.compile(r"(!\[|\balt=[\"'])(" + re.escape(old) + r")([\]\"'])", re.IGNORECASE)
    return alt.sub(lambda m: m.group(1) + cased_as(m.group(2), word) + m.group(3), line, count=1)


def _text(part: str) -> str:
    return urllib.parse.unquote(part.replace("__", "\0").replace("_", " ").replace("\0", "_").replace("--", "-"))
