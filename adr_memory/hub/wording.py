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
    if w in vocabulary:
        return True
    stems = _stems(w)
    return any(stems & _stems(v) for v in vocabulary if v[:3] == w[:3]) or (
        len(w) >= 4 and any(v.startswith(w) for v in vocabulary if v[:4] == w[:4])
    )


def share(terms: list[str], text: str) -> float:
    """How many of the question's distinctive words a passage uses, as a share of them."""
    if not terms:
        return 0.0
    vocabulary = set(words_in(text))
    return sum(uses(vocabulary, t) for t in terms) / len(terms)
