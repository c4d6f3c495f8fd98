"""The one store interface the hub's readers and publishers use, and how a URL names a store:
a folder (`./hub`, the default a small team tries first) or PostgreSQL (`postgresql://...`)."""

from __future__ import annotations

import os
from typing import Any, Protocol

from adr_memory.errors import UsageError
from adr_memory.hub.snapshot import Snapshot

ENV = "ADR_HUB_URL"  # the environment names the hub; a repository never does


class Store(Protocol):
    """What every store offers; the same tests run against each."""

    def init(self) -> list[str]:
        """Create the store or move its schema forward (never dropping data); the steps taken."""

    def publish(self, snap: Snapshot) -> str:
        """Replace the repository's state with `snap` whole, or not at all, one publish of a
        repository at a time: "published", "unchanged" (it held that very snapshot), or "older"
        (it holds a later commit of the repository, which stays)."""

    def repositories(self) -> list[dict[str, Any]]:
        """Each repository: name, commit, published_at, records."""

    def holds(self, repository: str) -> bool:
        """Whether the hub holds the repository (one lookup: a reader asks on every request)."""

    def count(self) -> int:
        """How many repositories the hub holds (one cheap lookup: a health probe asks it)."""

    def records(self, repository: str | None = None) -> list[dict[str, Any]]:
        """Every published record (its `show` JSON plus `repository`, `state`, `key`)."""

    def nearest(
        self, vector: Any, limit: int, repository: str | None = None, status: str = "", tag: str = ""
    ) -> list[tuple[str, str, str, str, float, int]]:
        """(repository, id, section, text, cosine, offset: words before it in its record) of the
        chunks nearest `vector`, best first; with `status` or `tag`, of the records that have them only."""

    def docs(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
        """The records named (repository, id), each its published JSON."""

    def unused(self, words: list[str], repository: str | None = None) -> list[str]:
        """The question's words no published passage uses, stemmed or as a word's prefix (the
        local index's test): "which CDN serves the images" asks of a hub that never says CDN."""

    def version_text(self, repository: str, ident: str, version_id: str) -> str | None:
        """A published version's text (None when its publish sent none)."""

    def followers(self, repository: str, ident: str) -> list[dict[str, Any]]:
        """What each repository published of `repository`'s decision `ident` as one of its
        sources' ({"follower", "state", "reason", "exception"}), by follower."""

    def remove(self, repository: str) -> bool:
        """Take a repository out of the hub (renamed away, archived); False when it held none."""

    def rename(self, old: str, new: str) -> bool:
        """Hold `old`'s decisions under `new`; False when it held no `old`."""

    def add_token(self, name: str, digest: str, scopes: list[str]) -> None:
        """Keep a token's hash and scopes under `name` (a usage error when the name is taken)."""

    def tokens(self) -> list[dict[str, Any]]:
        """Each token: name, scopes, created, last_used, revoked (never its hash)."""

    def revoke(self, name: str) -> bool:
        """Refuse the token from now on; False when there is none of that name."""

    def token(self, digest: str) -> dict[str, Any] | None:
        """The live token whose hash is `digest` ({name, scopes}), its use noted; else None."""

    def close(self) -> None:
        """Release connections."""


def url_of(explicit: str | None) -> str:
    """The hub's URL: the flag, else ADR_HUB_URL, else `hub-url` in the user's own config (a
    repository's config never names it: a repository is anyone's content)."""
    from adr_memory.base import config

    url = (explicit or os.environ.get(ENV) or "").strip() or config.user_settings()["hub_url"]
    if not url:
        raise UsageError(
            "no hub named",
            hint=f"pass --to/--from URL (a folder or postgresql://...), set {ENV}, "
            f"or hub-url in {config.user_config_path()}",
        )
    return url


def scheme(url: str) -> str:
    """What a hub URL names: "http" (a served hub, http:// or https://), "postgresql" (the
    database), or "" (a folder). Schemes are read in any case, as URLs are (RFC 3986)."""
    named = url.split("://", 1)[0].lower() if "://" in url else ""
    if named in ("http", "https"):
        return "http"
    return "postgresql" if named in ("postgresql", "postgres") else ""


def open_store(url: str) -> Store:
    if scheme(url) == "http":
        raise UsageError(
            "a served hub is read through its API or pages, and published to with adr hub publish",
            hint="name the store it serves (a folder or postgresql://...) for this command",
        )
    if scheme(url) == "postgresql":
        from adr_memory.hub.postgres import PostgresStore

        return PostgresStore("postgresql://" + url.split("://", 1)[1])  # libpq reads the scheme in lower case
    from pathlib import Path

    from adr_memory.hub.folder import FolderStore

    if "://" in url:  # a scheme no store reads (mysql://, s3://): said, never taken for a folder's name
        from adr_memory.records import redact_url

        raise UsageError(
            f"no hub store reads {redact_url(url)}",
            hint="a hub is a folder, postgresql://... or a served hub's https://...",
        )
    return FolderStore(Path(url))
