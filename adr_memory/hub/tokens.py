"""The hub's tokens: made once and shown once, kept only as a hash, each with its scopes. `read`
reads every repository's decisions; `publish:NAME` publishes the repository NAME (and reads).
A served hub asks for one unless it is served `--public` (surfaces/server.py)."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence

from adr_memory.errors import UsageError

PREFIX = "adrh_"  # says what the secret is, to a reader and to secret scanners
READ = "read"
PUBLISH = "publish:"
_NAME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


def new() -> str:
    """A token: URL-safe characters, 256 bits of randomness after the prefix."""
    return PREFIX + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What the store keeps: the token's SHA-256 (a random 256-bit secret needs no slow hash)."""
    return hashlib.sha256(token.strip().encode()).hexdigest()


def scopes(read: bool, publish: Sequence[str]) -> list[str]:
    """The scopes a token is made with: `--read`, or `--publish NAME...` (which reads too)."""
    if read == bool(publish):
        raise UsageError(
            "a token reads or publishes", hint="adr hub token add NAME --read, or --publish REPOSITORY (once for each)"
        )
    from adr_memory.hub.snapshot import named

    names = {name.strip() for name in publish if name.strip()}
    for name in sorted(names):
        named(name, hint="a name adr hub publish uses, e.g. payments or acme/payments")
    return [READ] if read else sorted(PUBLISH + name for name in names)


def allows(held: Sequence[str], need: str, repository: str | None = None) -> bool:
    """Whether scopes `held` allow `need` (`read`, or `publish` of `repository`)."""
    if need == READ:
        return any(s == READ or s.startswith(PUBLISH) for s in held)
    return repository is not None and PUBLISH + repository in held


def checked_name(name: str) -> str:
    """A token's name as given, or a usage error: letters, digits, `.`, `_`, `-`."""
    if not _NAME.match(name or ""):
        raise UsageError(f"{name!r} is not a token name", hint="letters, digits, '.', '_' and '-', e.g. ci-payments")
    return name
