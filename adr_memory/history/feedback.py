"""Feedback on decisions from the people and agents who used them: `used`, `not_applicable`,
`wrong`. Kept in the local cache only (`.adr-cache/feedback.jsonl`), never committed: it is a
signal for a person to review a decision, not a fact of the repository. A decision with `wrong`
verdicts since its anchor (its last review) shows as `disputed` in `adr stale` and `adr review`;
search never hides a decision because of feedback.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from adr_memory.base import cache, locked
from adr_memory.errors import UsageError

VERDICTS = ("used", "not_applicable", "wrong")
FILE = "feedback.jsonl"
MAX_NOTE = 500


@dataclass(frozen=True)
class Verdict:
    id: str
    verdict: str
    note: str
    at: float  # unix time
    source: str
    head: str = ""  # HEAD when it was given: orders it against the decision's anchor


def record(
    cache_dir: Path,
    ident: str,
    verdict: str,
    note: str = "",
    *,
    source: str = "cli",
    head: str | None = None,
    now: float | None = None,
) -> Verdict:
    """Append one verdict (under a lock, so concurrent agents lose none)."""
    if verdict not in VERDICTS:
        raise UsageError(f"unknown verdict {verdict!r}", hint="choose from: " + ", ".join(VERDICTS))
    from adr_memory.records import credentials

    credentials.refuse_in(note, "note")  # kept on disk, shown to agents and in `adr stale`
    entry = Verdict(
        ident,
        verdict,
        " ".join(note.split())[:MAX_NOTE],
        now if now is not None else dt.datetime.now(dt.UTC).timestamp(),
        source,
        head or "",
    )
    folder = cache.ensure(cache_dir)
    line = json.dumps(entry.__dict__, ensure_ascii=False) + "\n"
    with locked(cache.entry(folder, "feedback.lock")), open(cache.entry(folder, FILE), "a", encoding="utf-8") as handle:
        handle.write(line)
    return entry


def read(cache_dir: Path) -> list[Verdict]:
    """Every verdict recorded here; lines of the wrong shape are skipped (the cache heals)."""
    try:
        lines = (cache_dir / FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in lines:
        try:
            data = json.loads(line)
            out.append(
                Verdict(
                    str(data["id"]),
                    str(data["verdict"]),
                    str(data.get("note", "")),
                    float(data["at"]),
                    str(data.get("source", "")),
                    str(data.get("head", "")),
                )
            )
        except (ValueError, KeyError, TypeError, RecursionError):
            continue
    return out


def wrong_since(
    verdicts: Iterable[Verdict], ident: str, anchor: str | None, anchor_time: float, chain: Sequence[str]
) -> list[Verdict]:
    """The `wrong` verdicts on a decision given since its anchor (its last review): the HEAD
    they were given at has the anchor in its history (`chain` is HEAD's first parents, newest
    first). A verdict from a HEAD this history does not hold falls back to the clock."""
    position = {sha: i for i, sha in enumerate(chain)}
    limit = position.get(anchor or "", len(chain))

    def after(v: Verdict) -> bool:
        if v.head in position:
            return position[v.head] <= limit
        return v.at > anchor_time + 1

    return [v for v in verdicts if v.id == ident and v.verdict == "wrong" and after(v)]
