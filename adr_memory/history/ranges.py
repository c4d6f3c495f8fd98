"""What a branch changed: the range from the merge-base of REF and HEAD to HEAD.

One rule for every check that compares a branch with its base (`check --base`, `review`, the
rules' new-lines-only filter): the merge-base, never REF's tip, as a pull request is judged. A
range that cannot be found is a named error, the same one wherever it is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from adr_memory.errors import GitError
from adr_memory.history.objects import Sha
from adr_memory.history.repo import Repo


@dataclass(frozen=True)
class BranchRange:
    ref: str  # as the user named it
    tip: Sha  # what REF names
    base: Sha  # the merge-base of REF and HEAD
    head: Sha


def branch_range(repo: Repo, ref: str) -> BranchRange:
    head = repo.head()
    if head is None:
        raise GitError("the repository has no commits yet", hint="commit first, then compare")
    tip = repo.resolve(ref)
    base = repo.merge_base(tip, head)
    if base is None and repo.shallow():
        raise GitError(
            f"no merge-base between {ref} and HEAD (this clone is shallow)",
            hint="fetch the full history: actions/checkout with fetch-depth: 0",
        )
    if base is None:  # every commit is here: the two histories never met
        raise GitError(
            f"{ref} and HEAD share no history (unrelated branches: no merge-base)",
            hint="compare against the branch this one grew from",
        )
    return BranchRange(ref, tip, base, head)
