"""Fetching another repository's commits into a bare copy in the cache (a source), over any
transport dulwich speaks, with a credential from the environment or git's credential store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dulwich.errors import NotGitRepository
from dulwich.repo import Repo as _DulwichRepo

from adr_memory.errors import GitError
from adr_memory.history.objects import Sha


def fetch_ref(url: str, store: Path, ref: str, credential: tuple[str, str] | None = None) -> tuple[Sha, set[str]]:
    """Fetch what `ref` of the repository at `url` (any URL dulwich fetches, a file:// URL or a
    local path) points at into the bare repository `store` (made on first use): the commit and
    every object it reaches. Returns (the commit's sha, the refs the remote offered). Nothing
    runs there: no hook, no filter, no checkout (a source is anyone's content). `credential`:
    (user, password) for an HTTP remote, never part of the URL anyone writes down."""
    from dulwich.client import get_transport_and_path

    if not (store / "objects").is_dir():
        store.mkdir(parents=True, exist_ok=True)
        _DulwichRepo.init_bare(str(store))
    target = _DulwichRepo(str(store))
    chosen: dict[str, Sha] = {}

    def wants(refs: Any, depth: int | None = None) -> list[Any]:
        for name in (ref, f"refs/heads/{ref}", f"refs/tags/{ref}"):
            sha = refs.get(name.encode("utf-8", "surrogateescape"))
            if sha:
                chosen["sha"] = sha.decode("ascii")
                return [] if sha in target.object_store else [sha]
        return []

    try:
        user, password = credential or (None, None)
        client, path = get_transport_and_path(url, username=user, password=password)
        offered = client.fetch(path, target, determine_wants=wants)
    except (OSError, ValueError, KeyError, NotGitRepository) as exc:
        raise GitError(f"cannot fetch from it: {exc}", hint="check the URL and your network") from None
    except Exception as exc:  # a dulwich transport raises anything of its own (HangupException, GitProtocolError)
        raise GitError(
            f"cannot fetch from it: {type(exc).__name__}: {exc}", hint="check the URL and your network"
        ) from None
    if "sha" not in chosen:
        raise GitError(f"it has no ref {ref!r}", hint="name a branch or tag it has (ref = ...)")
    return chosen["sha"], {r.decode("utf-8", "replace") for r in offered.refs}


def stored_credential(url: str) -> tuple[str, str] | None:
    """(user, password) git's credential store holds for an HTTP URL's host, else None."""
    from urllib.parse import urlsplit

    from dulwich.client import get_credentials_from_store

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return next(iter(get_credentials_from_store(parts.scheme, parts.hostname)), None)
