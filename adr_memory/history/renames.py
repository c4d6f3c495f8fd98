"""Where a record the commit adds came from: a record it removes with the same content, else
with at least half of it, as git's `-M` finds. Only records can be rename sources of a record,
so the candidates are few and sizes from object headers rule most pairs out unread."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from adr_memory import records
from adr_memory.errors import GitError, TooLarge
from adr_memory.history.repo import Repo
from adr_memory.records import Problem, catalog

SIMILAR = 0.5  # a new path holding half a removed record's content is that record moved (git's -M default)


def is_record_path(path: str) -> bool:
    """Whether a path in a commit's tree may hold a record (templates never do)."""
    return catalog.may_be_record(records.record_name(path)) and "/templates/" not in f"/{path}"


def sources(
    repo: Repo,
    changes: list[list[Any]],
    before: str,
    after: str,
    removed: Callable[[], list[tuple[str, str | None, str | None]] | None] | None = None,
) -> dict[str, list[str]]:
    """Where each record the commit adds came from: a record it removes, with the same content,
    else with at least SIMILAR of it. Removed records in the folders answer first; for a new
    path none explains, records removed anywhere else in the tree (a folder moved in), as
    `removed()` names them where git said so (history/gitwalk.py), else from the trees."""
    # In path order, as git lists them: identical copies then pair the same way whichever order
    # the changes came in (a tree diff's is a set's).
    added = sorted((c[0], c[2]) for c in changes if c[1] is None and c[2] is not None)
    if not added:
        return {}
    gone = {c[0]: c[1] for c in changes if c[2] is None and c[1] is not None}
    found = _match(repo, added, gone)
    rest = [a for a in added if a[0] not in found]
    if rest:
        taken = {source for source, _ in found.values()}
        told = removed() if removed is not None else None
        elsewhere = {
            path: old
            for path, old, new in (repo.tree_changes(before, after) if told is None else told)
            if new is None and old is not None and path not in gone and path not in taken and is_record_path(path)
        }
        found.update(_match(repo, rest, elsewhere))
    return {path: [source, blob] for path, (source, blob) in found.items()}


def _match(repo: Repo, added: list[tuple[str, str]], gone: dict[str, str]) -> dict[str, tuple[str, str]]:
    """new path -> (old path, old blob): identical content first, then the most similar."""
    free = dict(gone)
    out: dict[str, tuple[str, str]] = {}
    by_blob: dict[str, list[str]] = {}
    for path, blob in sorted(free.items()):
        by_blob.setdefault(blob, []).append(path)
    similar = []
    for path, blob in added:
        if by_blob.get(blob):
            source = by_blob[blob].pop(0)
            out[path] = (source, free.pop(source))
        else:
            similar.append((path, blob))
    for path, blob in similar:
        scores = [(similarity(repo, blob, old), source) for source, old in sorted(free.items())]
        score, source = max(scores, default=(0.0, ""))
        if score >= SIMILAR:
            out[path] = (source, free.pop(source))
    return out


def similarity(repo: Repo, a: str, b: str) -> float:
    """The share of the larger file that the smaller one holds too, in lines cut at 64 bytes
    (git's own measure). Sizes from the objects' headers rule most pairs out unread."""
    one, other = repo.size(a), repo.size(b)
    if one is not None and other is not None and min(one, other) < SIMILAR * max(one, other):
        return 0.0
    left, right = _blocks(repo, a), _blocks(repo, b)
    larger = max(sum(len(k) * n for k, n in left.items()), sum(len(k) * n for k, n in right.items()))
    if not larger:
        return 0.0
    return sum(len(k) * min(n, right[k]) for k, n in left.items() if k in right) / larger


def _blocks(repo: Repo, blob: str) -> Counter[bytes]:
    data = _candidate_bytes(repo, blob)
    return Counter(line[i : i + 64] for line in data.splitlines(keepends=True) for i in range(0, len(line), 64))


def record_bytes(repo: Repo, blob: str) -> bytes | Problem:
    """A record's bytes from git; a blob over a record's size is a problem, left uninflated."""
    try:
        return repo.blob(blob, limit=catalog.MAX_BYTES)
    except TooLarge as exc:
        return catalog.too_large(exc.size)


def _candidate_bytes(repo: Repo, blob: str) -> bytes:
    """A candidate rename source's bytes; empty when it has none to compare (too large, or not
    in the store: a submodule's commit lives in another repository)."""
    try:
        data = record_bytes(repo, blob)
    except GitError:
        return b""
    return data if isinstance(data, bytes) else b""
