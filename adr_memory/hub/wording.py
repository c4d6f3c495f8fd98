"""The words of the hub's passages, one way for every store: what a question's word matches (so
both stores lift and flag the same words, and answer alike)."""

from __future__ import annotations

import re
from collections.abc import Collection

_WORD = re.compile(r"[a-z0-9]+")
_SUFFIXES = ("ing", "ed", "es", "s")


def words_in(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _stems(word: str) -> set[str]:
    """The word and what it is without each ending it may carry ("lives": live, liv)."""
    return {word} | {word[: -len(x)] for x in _SUFFIXES if word.endswith(x) and len(word) - len(x) >= 3}


def uses(vocabulary: Collection[str], word: str) -> bool:
    """Whether passages of `vocabulary` use `word`: itself, a form of it ("payments", "payment";
    "lives", "live"), or as the start of a longer word of at least four letters ("postgres" in
    "postgresql")."""
    w = word.lower()
    return w in vocabulary or _near(w, [v for v in vocabulary if v[:3] == w[:3]])


def _near(w: str, alike: list[str]) -> bool:
    """Whether a form of `w` is among `alike`, the words sharing its first three letters."""
    stems = _stems(w)
    return any(stems & _stems(v) for v in alike) or (len(w) >= 4 and any(v.startswith(w) for v in alike))


def share(terms: list[str], text: str) -> float:
    """How many of the question's distinctive words a passage uses, as a share of them. The
    passage's words are looked up by their first three letters: a search asks it of every
    passage it ranks, on the served hub's one lock."""
    if not terms:
        return 0.0
    vocabulary = set(words_in(text))
    by_start: dict[str, list[str]] = {}
    for v in vocabulary:
        by_start.setdefault(v[:3], []).append(v)
    used = 0
    for term in terms:
        w = term.lower()
        used += w in vocabulary or _near(w, by_start.get(w[:3], []))
    return used / len(terms)
