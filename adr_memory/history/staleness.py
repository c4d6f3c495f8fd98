"""Staleness: an accepted decision whose governed code differs between its anchor and HEAD.

The anchor is the newest commit on HEAD's first-parent history that touched the record's file
(a new version, an accept, or `adr affirm`). One pruned tree diff per distinct anchor answers
every decision anchored there; a change that was later reverted leaves the trees equal.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from adr_memory.base import globs
from adr_memory.errors import AdrError, GitError
from adr_memory.history.anchors import Anchors
from adr_memory.history.folder import Folder
from adr_memory.history.objects import CommitInfo
from adr_memory.history.repo import Repo
from adr_memory.history.walk import History, changed_paths, memo, touching, walk
from adr_memory.records import Record, credentials, first_few, iso_moment, standing

# The newest first-parent commits `adr stale` counts among, for the commits since each stale
# decision's anchor: reading further back cost seconds where a glob spans a 300-folder tree
# (benchmarks/bench_history.py); for an older anchor the count is a lower bound, shown `37+`.
COUNT_WINDOW = 1_500
NO_CODE = "governs no code"  # the reason of an accepted decision with nothing to watch


@dataclass(frozen=True)
class Verdict:
    id: str
    title: str
    path: str
    state: str
    anchor: str | None
    changed: tuple[str, ...] = ()
    commits_since: int | None = None
    commits_since_complete: bool = True  # False: at least `commits_since` (the count stopped short)
    newest_commit: Mapping[str, object] | None = None
    days_since_anchor: int | None = None
    reason: str = ""
    missing_globs: tuple[str, ...] = field(default=())
    disputed: tuple[str, ...] = ()  # notes of `wrong` feedback since the anchor (local cache)
    remedy: str = ""  # what makes an `unknown` verdict known (a hint; not in the JSON)

    @property
    def stale(self) -> bool:
        return self.state == "stale"

    @property
    def known(self) -> bool:
        """False when git cannot say whether the decision holds (shallow or damaged clone)."""
        return self.state != "unknown"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "path": self.path,
            "state": self.state,
            "anchor": self.anchor,
            "changed": list(self.changed),
            "commits_since": self.commits_since,
            "commits_since_complete": self.commits_since_complete,
            "newest_commit": self.newest_commit,
            "days_since_anchor": self.days_since_anchor,
            "reason": self.reason,
            "disputed": len(self.disputed),
            "dispute_notes": list(self.disputed),
        }


def by_path(folder: Folder) -> dict[str, Verdict]:
    """Every record's verdict by its file (two files may claim one id); empty when git cannot
    say (no repository, no commit)."""
    try:
        return {v.path: v for v in report(folder)}
    except AdrError:
        return {}


def report(
    folder: Folder,
    *,
    worktree: bool = False,
    history: History | None = None,
    now: float | None = None,
    stop_at: str | None = None,
    paths: Collection[str] | None = None,
    count: int | None = 0,
) -> list[Verdict]:
    """A verdict for every record in the catalog (with `paths`, for those records' files and
    the decisions they depend on, whose staleness puts them at risk: `adr show` judges one).

    Without a history given, git is read only as far back as the anchors of the accepted
    decisions (or `stop_at`): recent anchors make a cold run cheap on a long history.

    With `count`, a stale decision's `commits_since` counts the commits since its anchor that
    changed what it governs, among the newest `count` first-parent commits (None: all of them;
    0, the default: no count). It is the dearest part of a cold run on a big tree, so only what
    shows it counts (`adr stale`: COUNT_WINDOW; a site page: all); an anchor older than the
    window makes it a lower bound, and says so (`commits_since_complete: false`).
    """
    # Judged as its standing reads it (records/standing.py): a decision whose successor is only
    # proposed still holds; one a successor in force replaced does not, whatever its file says.
    standings = standing.of(folder.catalog)
    everything = standing.judged(folder.catalog, standings)
    records = everything if paths is None else _with_dependencies(everything, paths)
    if not records:
        return []
    repo = folder.repo
    finder = Anchors(repo)
    if history is None:
        needed = [r.path for r in records if r.status == "accepted" and r.governs]
        history = walk(folder, stop_at=stop_at, enough=finder.found(needed))
    now = time.time() if now is None else now
    # Keyed by file, not id: two files that claim one id (a merge of two branches' "ADR 5",
    # which `adr check` flags) each keep their own anchor and verdict.
    anchors = {rec.path: _anchor(finder, rec, history) for rec in records}
    unseen = {
        rec.path: _reviewed_elsewhere(repo, finder, rec, review, anchor, history)
        for rec in records
        if rec.status == "accepted" and (anchor := anchors[rec.path])
        for review in [finder.review_brought(rec, history)]
        if review
    }
    head = history.head
    head_tree = repo.commit(head).tree if head else None
    changed_by_anchor = _diffs(repo, records, anchors, head_tree, history.cache)
    dirty = repo.worktree_changes() if worktree else set()
    verdicts = {
        rec.path: _assess(
            repo, rec, anchors[rec.path], changed_by_anchor, dirty, head_tree, history, now, unseen.get(rec.path)
        )
        for rec in records
    }
    if count != 0:
        verdicts = _count_commits(repo, history, verdicts, {rec.path: rec for rec in records}, count)
    by_id = {rec.id: rec for rec in records}
    verdict_of = {v.id: v for v in verdicts.values()}
    cascaded = [_cascade(rec, verdicts[rec.path], verdict_of, by_id, standings) for rec in records]
    if history.cache is not None:
        history.cache.save()
    return _disputes(folder, cascaded, anchors, history)


def _with_dependencies(records: list[Record], paths: Collection[str]) -> list[Record]:
    """The records at `paths`, and every record they depend on, transitively, in catalog order."""
    by_id = {rec.id: rec for rec in records}
    wanted = {rec.path for rec in records if rec.path in paths}
    stack = [dep for rec in records if rec.path in wanted for dep in rec.depends_on]
    while stack:
        dep = by_id.get(stack.pop())
        if dep is not None and dep.path not in wanted:
            wanted.add(dep.path)
            stack.extend(dep.depends_on)
    return [rec for rec in records if rec.path in wanted]


def _disputes(
    folder: Folder, verdicts: list[Verdict], anchors: Mapping[str, CommitInfo | None], history: History
) -> list[Verdict]:
    """The reports, kept in this clone's cache, that a decision was wrong since its anchor: shown
    beside the verdict (`disputed`, `dispute_notes`), never in it. The state is a function of
    the commit alone, so CI and every clone read the same one."""
    from adr_memory.history import feedback

    given = feedback.read(folder.cache_path)
    if not given:
        return verdicts
    out = []
    for v in verdicts:
        anchor = anchors.get(v.path)
        wrong = feedback.wrong_since(
            given, v.id, anchor.sha if anchor else None, anchor.timestamp if anchor else 0, history.chain
        )
        if wrong and v.state != "not-accepted":
            v = replace(v, disputed=tuple(w.note or "(no note)" for w in wrong))
        out.append(v)
    return out


def _anchor(finder: Anchors, rec: Record, history: History) -> CommitInfo | None:
    if rec.status != "accepted":
        return None  # not assessed: no need to read its history
    touch = finder.of(rec, history)
    return touch.commit if touch else None  # None: not committed yet, anchored at HEAD


def _prefixes(rec: Record) -> list[str]:
    return [globs.literal_prefix(g) for g in rec.governs if not globs.problem(g)]


def _diffs(
    repo: Repo,
    records: Sequence[Record],
    anchors: Mapping[str, CommitInfo | None],
    head_tree: str | None,
    cache: Any,
) -> dict[str, set[str]]:
    """One pruned tree diff per distinct anchor, over the prefixes of its decisions' globs:
    equal subtree ids are passed unread, and a change later reverted leaves the trees equal."""
    prefixes: dict[str, list[str]] = defaultdict(list)
    for rec in records:
        anchor = anchors[rec.path]
        if anchor is not None and rec.status == "accepted" and rec.governs:
            prefixes[anchor.sha].extend(_prefixes(rec))
    return {
        sha: changed_paths(repo, cache, repo.commit(sha).tree, head_tree, wanted) if head_tree else set()
        for sha, wanted in prefixes.items()
    }


def _days_since(anchor: CommitInfo | None, now: float) -> int | None:
    if anchor is None:
        return 0
    return int((now - anchor.timestamp) // 86400) if anchor.timestamp else None  # 0: a commit without a date


def _assess(
    repo: Repo,
    rec: Record,
    anchor: CommitInfo | None,
    changed_by_anchor: Mapping[str, set[str]],
    dirty: set[str],
    head_tree: str | None,
    history: History,
    now: float,
    elsewhere_review: tuple[set[str], str] | None = None,
) -> Verdict:
    base = Verdict(
        rec.id,
        rec.title,
        rec.path,
        "fresh",
        anchor.sha if anchor else history.head,
        days_since_anchor=_days_since(anchor, now),
    )
    if rec.status != "accepted":
        return replace(base, state="not-accepted", reason=f"status is {rec.status}")
    if history.truncated and anchor is not None and _at_boundary(anchor, history):
        return replace(
            base,
            state="unknown",
            reason=f"{_partial(repo)}: the commit that anchors this decision is not in the clone",
            remedy="fetch the full history (actions/checkout with fetch-depth: 0)",
        )
    if not rec.governs:
        return replace(base, reason=NO_CODE)
    outside = repo.submodule_above(head_tree, rec.path) if anchor is None and head_tree else None
    if outside:  # not a draft: committed, in another repository's history
        return replace(
            base,
            state="unknown",
            reason=f"the record is inside submodule {outside}: its "
            "history is in that repository, so no commit here anchors it",
            remedy="keep the records in this repository, or pass --allow-unknown",
        )
    unseen, elsewhere = elsewhere_review or (set(), "")
    committed = changed_by_anchor.get(anchor.sha, set()) if anchor else set()
    changed = globs.governed(rec.governs, committed | unseen | dirty)
    if changed:
        worktree_only = not (set(changed) & (committed | unseen))
        reason = (
            f"{len(changed)} governed file(s) changed since the anchor"
            + (" (uncommitted)" if worktree_only else "")
            + (
                f"; {len(set(changed) & unseen)} of them not seen by the review made at {elsewhere}"
                if set(changed) & unseen
                else ""
            )
        )
        return replace(base, state="stale", changed=tuple(changed), reason=reason)
    # A glob holding a credential is flagged by `check`; what is said of it never repeats it.
    missing = tuple(credentials.scrub(g) for g in _missing(repo, head_tree, rec.governs)) if head_tree else ()
    if missing:
        return replace(
            base, state="scope-missing", missing_globs=missing, reason="no file at HEAD matches " + first_few(missing)
        )
    return replace(
        base, reason="governed code unchanged since the anchor" + (f" (reviewed at {elsewhere})" if elsewhere else "")
    )


def _at_boundary(anchor: CommitInfo, history: History) -> bool:
    # In a truncated walk the oldest commit reached stands in for every older touch.
    return bool(history.chain) and anchor.sha == history.chain[-1]


def _partial(repo: Repo) -> str:
    return (
        "shallow clone (fetch with --unshallow; in CI set fetch-depth: 0)"
        if repo.shallow()
        else "history incomplete (objects missing: damaged or partial clone)"
    )


def _reviewed_elsewhere(
    repo: Repo, finder: Anchors, rec: Record, reviewed: Mapping[str, Any], anchor: CommitInfo, history: History
) -> tuple[set[str], str]:
    """`reviewed`: the review the decision's anchor brought in force (as committed there). A
    review made on a branch that was then merged, squashed or rebased names a
    `reviewed.commit` off the first-parent line of HEAD's history. The review still counts from
    the commit that brought it onto that line (the anchor), as every review does; but two kinds
    of governed change are code the reviewer did not see: what the line changed after the
    branch left it, and the branch never took in (main moved under the review); and, when the
    anchor merges the branch, what the branch changed after the review was committed on it.
    The branch's own changes before that, the ones committed with the review included, are
    never counted. When the clone has the reviewed commit, returns those paths and how to name
    it; nothing when the review was made on the line, or names no commit."""
    sha = str(reviewed.get("commit") or "")
    if not sha or history.head is None:
        return set(), ""
    try:
        seen = repo.resolve(sha)
        if repo.shallow() or history.truncated or _on_first_parents(repo, seen, history):
            return set(), ""  # made on the line, or a walk that may stop short: no claim
        prefixes = _prefixes(rec)
        unseen = set().union(
            *(_moved_under(repo, seen, line, prefixes) for line in anchor.parents[:1]),
            *(_changed_after(repo, finder, rec.path, seen, tip, prefixes) for tip in anchor.parents[1:]),
        )
    except (GitError, KeyError, AttributeError):
        # Not in this clone (a deleted branch is not fetched): the review counts where it landed.
        return set(), f"{sha[:12]}, a commit this clone does not have"
    if _merged(repo, seen, anchor):
        return unseen, f"{sha[:12]}, on a branch merged into this line"
    return unseen, f"{sha[:12]} (off this line: amended, rebased or squashed)"


def _merged(repo: Repo, seen: str, anchor: CommitInfo) -> bool:
    """Whether the reviewed commit came in by a merge (the anchor's second parent holds it): a
    review on a branch merged with a merge commit, GitHub's default, is not a rewritten one."""
    try:
        return any(repo.is_ancestor(seen, tip) for tip in anchor.parents[1:])
    except (GitError, KeyError, AttributeError):
        return False


def _moved_under(repo: Repo, seen: str, line: str, prefixes: list[str]) -> set[str]:
    """What `line` (where the review came onto HEAD's line) changed after the branch that holds
    `seen` left it, and that branch never took in."""
    differ = repo.changed_paths(repo.commit(seen).tree, repo.commit(line).tree, prefixes)
    fork = repo.merge_base(seen, line)
    return (
        differ & repo.changed_paths(repo.commit(fork).tree, repo.commit(line).tree, prefixes)
        if fork is not None
        else differ
    )


def _changed_after(repo: Repo, finder: Anchors, path: str, seen: str, tip: str, prefixes: list[str]) -> set[str]:
    """What a merged branch (ending at `tip`) changed after its review was committed on it."""
    if not repo.is_ancestor(seen, tip):
        return set()
    landed = finder.landing(path, tip, seen)
    return repo.changed_paths(repo.commit(landed).tree, repo.commit(tip).tree, prefixes)


def _on_first_parents(repo: Repo, sha: str, history: History, further: int = 1_000) -> bool:
    """Whether `sha` is on HEAD's first-parent line: among the commits the walk read, or at
    most `further` commits past the oldest of them (a review is made just before it is
    committed, so it is rarely far)."""
    if sha in history.chain:
        return True
    here: str | None = history.chain[-1] if history.chain else None
    if here is None or not repo.is_ancestor(sha, here):  # git's own walk, pruned by commit time
        return False
    for _ in range(further):
        parents = repo.commit(here).parents if here else ()
        here = parents[0] if parents else None
        if here is None:
            return False
        if here == sha:
            return True
    return False


_exists_cache: dict[tuple[str, str], bool] = {}


def unmatched(folder: Folder, records: Iterable[Record]) -> dict[str, tuple[str, ...]]:
    """record path -> its `governs` globs that no file at HEAD matches (a typo'd glob governs
    nothing, and the decision never goes stale); {} before the first commit."""
    head = folder.repo.head()
    if head is None:
        return {}
    tree = folder.repo.commit(head).tree
    out = {rec.path: _missing(folder.repo, tree, rec.governs) for rec in records if rec.governs}
    return {path: missing for path, missing in out.items() if missing}


def _missing(repo: Repo, tree: str, governs: tuple[str, ...]) -> tuple[str, ...]:
    """The globs no file of `tree` matches. The files under each literal prefix are listed
    once, for all the globs that share it, and matched against them together."""
    by_prefix: dict[str, list[str]] = defaultdict(list)
    for glob in dict.fromkeys(governs):
        if (tree, glob) not in _exists_cache:
            by_prefix[globs.literal_prefix(glob)].append(glob)
    for prefix, group in by_prefix.items():
        matcher, found = globs.glob_set(tuple(group)), set()
        for path, _ in repo.files(tree, prefix):
            found.update(matcher.matching(path))
            if len(found) == len(group):
                break
        _exists_cache.update(((tree, glob), n in found) for n, glob in enumerate(group))
    return tuple(g for g in governs if not _exists_cache[tree, g])


def _count_commits(
    repo: Repo, history: History, verdicts: dict[str, Verdict], records: Mapping[str, Record], window: int | None
) -> dict[str, Verdict]:
    """For stale decisions: how many first-parent commits since the anchor touched the changed
    files, and the newest of them, among the newest `window` commits (None: all). Read per
    governed prefix (`walk.touching`), which the history cache keeps."""
    stale = {k: v for k, v in verdicts.items() if v.stale and v.anchor and v.anchor != history.head}
    if not stale:
        return verdicts
    position = history.position()
    window = len(history.chain) if window is None else window
    limits: dict[str, int] = {}
    for key, verdict in stale.items():
        for prefix in _prefixes(records[key]):
            anchored = min(position.get(verdict.anchor or "", len(history.chain)), window)
            limits[prefix] = max(limits.get(prefix, 0), anchored)
    found = touching(repo, history, limits)
    out = dict(verdicts)
    for key, verdict in stale.items():
        anchored = position.get(verdict.anchor or "", len(history.chain))
        limit = min(anchored, window)
        changed = set(verdict.changed)
        hits = sorted(
            {
                at
                for prefix in _prefixes(records[key])
                for at, paths in found[prefix].items()
                if at < limit and changed.intersection(paths)
            }
        )
        info = repo.commit(history.chain[hits[0]]) if hits else None
        out[key] = replace(
            verdict,
            commits_since=len(hits),
            commits_since_complete=anchored <= window,
            newest_commit=(
                {"sha": info.sha, "date": iso_moment(info.timestamp), "subject": info.subject} if info else None
            ),
        )
    return out


def _cascade(
    rec: Record,
    verdict: Verdict,
    verdicts: Mapping[str, Verdict],
    by_id: Mapping[str, Record],
    standings: Mapping[str, standing.Standing] | None = None,
) -> Verdict:
    """at-risk: a fresh accepted decision that depends (transitively) on a stale one, or on one
    that is retired (superseded by a decision in force, or deprecated): what it stands on is no
    longer decided so (`verdicts` by id)."""
    if verdict.state != "fresh" or not rec.depends_on:
        return verdict
    seen: set[str] = set()
    stack = list(rec.depends_on)
    while stack:
        dep = stack.pop()
        if dep in seen or dep not in verdicts:
            continue
        seen.add(dep)
        if verdicts[dep].state == "stale":
            return replace(verdict, state="at-risk", reason=f"depends on {dep}, which is stale")
        if (retired := _retired(by_id.get(dep), standings or {})) is not None:
            return replace(verdict, state="at-risk", reason=f"depends on {dep}, which is {retired}")
        stack.extend(by_id[dep].depends_on if dep in by_id else ())
    return verdict


def _retired(dep: Record | None, standings: Mapping[str, standing.Standing]) -> str | None:
    """How a decision another depends on was retired ("deprecated", "superseded by ADR-0009"),
    or None while it is in force."""
    if dep is None or dep.status in ("accepted", "proposed"):
        return None
    if dep.status == "superseded":
        held = standings.get(dep.path)
        by = list(held.retired_by if held is not None else ()) or list(dep.superseded_by)
        return "superseded" + (f" by {', '.join(by)}" if by else "")
    return dep.status if dep.status in ("deprecated", "rejected") else None


FAILING = ("stale", "at-risk")


def fails(verdicts: Iterable[Verdict], *, allow_unknown: bool = False) -> bool:
    """Whether `adr stale --fail` fails: something stale or at risk, or (unless allowed)
    something git cannot judge: a shallow clone must not pass for a fresh one."""
    bad = FAILING if allow_unknown else (*FAILING, "unknown")
    return any(v.state in bad for v in verdicts)


def governed_changes(folder: Folder, rec: Record, anchor: str, head: str) -> list[str]:
    """The files `rec` governs that differ between commit `anchor` and `head` (one pruned tree
    diff, remembered as every staleness diff is)."""
    repo = folder.repo
    wanted = _prefixes(rec)
    changed = changed_paths(repo, memo(repo), repo.commit(anchor).tree, repo.commit(head).tree, wanted)
    return globs.governed(rec.governs, changed)


def governing(records: Iterable[Record], path: str) -> list[Record]:
    """The records whose `governs` globs match a repo-relative path."""
    return [r for r in records if r.governs and globs.any_match(r.governs, path)]
