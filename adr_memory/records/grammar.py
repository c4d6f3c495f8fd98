"""The status grammar: a free-text status (`Proposed → Accepted`, `~~Draft~~ Accepted`,
`Not yet approved`) read as one of our status words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from adr_memory.records import languages

# The leading word of a free-text status, mapped to our vocabulary. Words seen in real folders
# (cloud-platform, cometbft, adr-tools, MADR) are listed; anything else is "unknown".
_STATUS_WORDS = {
    "proposed": "proposed",
    "proposal": "proposed",
    "draft": "proposed",
    "pending": "proposed",
    "review": "proposed",
    "wip": "proposed",
    "incomplete": "proposed",
    "open": "proposed",
    "rfc": "proposed",
    "discussion": "proposed",
    "in": "proposed",  # "In review", "In progress"
    "accepted": "accepted",
    "approved": "accepted",
    "implemented": "accepted",
    "adopted": "accepted",
    "done": "accepted",
    "agreed": "accepted",
    "decided": "accepted",
    "active": "accepted",
    "partially": "accepted",  # "Partially Accepted"/"Partially implemented"
    "rejected": "rejected",
    "declined": "rejected",
    "refused": "rejected",
    "abandoned": "rejected",
    "deprecated": "deprecated",
    "obsolete": "deprecated",
    "retired": "deprecated",
    "reverted": "deprecated",
    "withdrawn": "deprecated",
    "superseded": "superseded",
    "replaced": "superseded",
    "superceded": "superseded",
    "superseeded": "superseded",
    "deferred": "proposed",
    "postponed": "proposed",
    "paused": "proposed",  # not in force, not decided against
    "completed": "accepted",
    "complete": "accepted",
    "final": "accepted",
    "ratified": "accepted",
    "effective": "accepted",
    "accept": "accepted",
    "discarded": "rejected",
    "amended": "accepted",  # "Amended by ADR-9": in force, as amended
    "cancelled": "rejected",
    "canceled": "rejected",
    "dropped": "rejected",
    "archived": "deprecated",
    "revoked": "deprecated",
    "invalidated": "deprecated",
    "outdated": "deprecated",
    "shelved": "proposed",
    "parked": "proposed",
    "tbd": "proposed",
    "idea": "proposed",
    "confirmed": "accepted",
    "finalized": "accepted",
    "finalised": "accepted",
    "implementing": "accepted",
    "retracted": "deprecated",
    "obsoleted": "superseded",  # "Obsoleted by ADR-9", as RFCs say it
    "suggested": "proposed",
    "requested": "proposed",
    "planned": "proposed",
    "candidate": "proposed",
    "preliminary": "proposed",
    "tentative": "proposed",
    "provisional": "proposed",
    "voting": "proposed",
    "awaiting": "proposed",
    "blocked": "proposed",
    "settled": "accepted",
    "enacted": "accepted",
    "enforced": "accepted",
    "signed": "accepted",
    "invalid": "rejected",
    "duplicate": "rejected",
    "wont": "rejected",
    "expired": "deprecated",
    "sunset": "deprecated",
    "sunsetted": "deprecated",
    "decommissioned": "deprecated",
}
# Before a status word, what turns it around: "Not accepted" was rejected, "Not yet approved"
# is still proposed ("won't do" reads as "won", "t", "do"); "Nicht akzeptiert", "No aceptado".
_NEGATIONS = frozenset({"not", "never", "t", "nicht", "non", "no", "niet", "não", "nao"})
# A status whose first word says nothing alone is read by its first two: "In effect" is in
# force, "In review" (the leading word's reading) is not; "Work in progress", "Ready for review".
_STATUS_PHRASES = {
    ("in", "effect"): "accepted",
    ("in", "force"): "accepted",
    ("in", "kraft"): "accepted",
    ("in", "use"): "accepted",
    ("in", "place"): "accepted",
    ("in", "production"): "accepted",
    ("under", "review"): "proposed",
    ("under", "discussion"): "proposed",
    ("under", "consideration"): "proposed",
    ("on", "hold"): "proposed",
    ("work", "in"): "proposed",
    ("ready", "for"): "proposed",
    ("needs", "review"): "proposed",
}
# "Akzeptiert", "Aceptada", ... (ADR-0048); an English reading of a word stands.
_STATUS_WORDS.update({word: status for word, status in languages.STATUS_WORDS.items() if word not in _STATUS_WORDS})


def written(status_text: str, status: str) -> str | None:
    """`status` (or "by": superseded by, "replaces": supersedes) in the language `status_text`
    is written in, when that is one of `languages.SAID`'s; None for English or one not known."""
    words = _WORD.findall(marked(status_text).lower())
    return languages.written(words[0], status) if words else None


# A category's folder below the ADR folder, as an id names it (`backend`, `platform/api`,
# `Team A`); no part starts with a dot or a space (`..` names no category).
_CATEGORY = re.compile(r"[^/.\s][^/]*(?:/[^/.\s][^/]*)*")


def normalise_status(text: str) -> str:
    """Our status word for a free-text status, from its leading word (emoji and markup skipped,
    and what it strikes out: `~~Proposed~~ Accepted`)."""
    text = html_text(marked(text))
    if text.startswith("[ ]"):  # a checklist with nothing ticked (`_ticked`): no status chosen yet
        return "unknown"
    if (moved := transition(text)) is not None:
        return normalise_status(moved[1])
    words = _WORD.findall(text.lower())
    if not words or "|" in text:  # "{Deprecated|Proposed|Accepted}": an unfilled template
        return "unknown"
    if words[:2] == ["won", "t"]:  # "Won't do", "Won't fix"
        return "rejected"
    if words[0] in _NEGATIONS:
        return _negated(words[1:])
    if tuple(words[:2]) in _STATUS_PHRASES:
        return _STATUS_PHRASES[tuple(words[:2])]
    if words[0] in _STATUS_WORDS:
        return _STATUS_WORDS[words[0]]
    if re.fullmatch(r"\[[^\]]*\]", text.strip()):  # a template's "[change when approved]": no status yet
        return "unknown"
    # A sentence ("The two points above have been implemented; ..."): the first status word
    # of its first clause, participles only, so "in" or "open" in passing do not count.
    clause = _WORD.findall(re.split(r"[.;:\n]", text.lower(), maxsplit=1)[0])
    for n, word in enumerate(clause):
        if word.endswith("ed") and word in _STATUS_WORDS:
            negated = n > 0 and clause[n - 1] in _NEGATIONS  # "The proposal was not accepted."
            return _negated(clause[n:]) if negated else _STATUS_WORDS[word]
    return "unknown"


def _negated(words: Sequence[str]) -> str:
    """The status of a status word turned around (`not accepted`: rejected; `not yet
    accepted`: proposed); unknown when nothing plain is left (`not deprecated`)."""
    waiting = bool(words) and words[0] == "yet"
    rest = words[1:] if waiting else words
    if rest and _STATUS_WORDS.get(rest[0]) == "accepted":
        return "proposed" if waiting else "rejected"
    return "unknown"


# Between the statuses a record went through: `Proposed → Accepted`, `Proposed -> Accepted`,
# `Proposed, then Accepted`.
_TRANSITION = re.compile(r"\u2192|->|=>|\u21d2|\u2794|\u27f6|\bthen\b", re.IGNORECASE)


def transition(text: str) -> tuple[str, str] | None:
    """(the mark before it, with its blanks, and the status it went to) when `text` is a chain
    of statuses, oldest first (`Proposed → Accepted`); None otherwise (`Superseded -> ADR-5`
    names a record)."""
    marks = list(_TRANSITION.finditer(text))
    if not marks:
        return None
    before, after = text[: marks[-1].start()], text[marks[-1].end() :]
    last = after.strip()
    if not _WORD.match(last) or _leading_status(last) is None or _leading_status(text[: marks[0].start()]) is None:
        return None
    mark = before[len(before.rstrip(" \t,")) :] + marks[-1].group(0) + after[: len(after) - len(after.lstrip(" \t"))]
    return mark, last


def _leading_status(text: str) -> str | None:
    words = _WORD.findall(text.lower())
    return _STATUS_WORDS.get(words[0]) if words else None


_WORD = re.compile(r"[^\W\d_]+")  # letters of any script: "Accepté" is one word
_TAG = re.compile(r"<[^<>\n]*>")


def html_text(text: str) -> str:
    """`text` without its HTML tags: `<span style="color:red">Rejected</span>` states Rejected."""
    return " ".join(_TAG.sub(" ", text).split()) if "<" in text else text


_STRUCK = re.compile(r"~~[^~\n]*~~")
# A status ticked in a checklist of the statuses (`- [x] Accepted` among `- [ ] Proposed`).
# The item's words end at its last non-space: `(.*?)[ \t]*$` rescans a run of spaces from
# each place in it (seconds on one long line).
TASK = re.compile(r"^[ \t]*[*+-][ \t]+\[([ xX])\][ \t]*((?:\S(?:.*\S)?)?)")


def marked(text: str) -> str:
    """A status without what it strikes out: the status it replaced, kept struck
    (`~~Proposed~~ **Accepted**`), or the choices not taken (`~~Proposed~~ | **Accepted** |
    ~~Deprecated~~`). Both state Accepted."""
    if "~~" not in text:
        return text
    kept = [c.strip() for c in _STRUCK.sub(" ", text).split("|") if c.strip(" *_\t")]
    return kept[0] if len(kept) == 1 else " | ".join(kept)


def unstruck(line: str) -> str:
    """`line` with its struck text blanked, every other character where it was."""
    return _STRUCK.sub(lambda m: " " * len(m.group(0)), line) if "~~" in line else line


def _ticked(lines: list[str]) -> tuple[int, str] | None:
    """The item a checklist of statuses ticks, and where it is in `lines`; with none ticked,
    the first item, its `[ ]` kept (no status is chosen yet). None when `lines` do not open
    with a checklist: under a status written out, a checklist is the work's progress."""
    items: list[tuple[int, re.Match[str]]] = []
    for i, line in enumerate(lines):
        if (m := TASK.match(line)) is not None:
            items.append((i, m))
        elif line.strip():
            break
    if not items:
        return None
    at, item = next(((i, m) for i, m in items if m.group(1) != " "), items[0])
    return at, item.group(2) if item.group(1) != " " else f"[ ] {item.group(2)}"


# A status log, a dated line per change, as phodal's `adr status` appends them
# (`2018-10-16 proposed`, then `2018-10-20 accepted`), or a list of them (`- 2018-10-20:
# Accepted`): the last is the status. The match ends where the status starts; its groups are
# the bullet (with its indent) and what parts the date from the status, for the next entry.
STATUS_LOG = re.compile(r"^([ \t]*(?:[*+-][ \t]+)?)\d{4}-\d{1,2}-\d{1,2}([ \t:\u2013\u2014-]+)(?=[^\W\d_])")
