"""The work tree's records as last parsed, kept by their bytes (ADR-0092): a record file that
has not changed since the last command is not parsed again.

`records.pickle` in the git dir's cache folder (`Workspace._parse_cache`) holds (path, content
digest) -> Record, pickled, which is faithful to every YAML value a record's frontmatter may
hold (dates, sets, keys that are not strings), and sealed with this user's key
(`base.sealed`): a file that did not come from this user's adr-memory never reaches
`pickle.loads`. It is only kept once some command made a cache folder, so `adr check` in a
repository that has none writes nothing. It is read whole
and written whole, with the records the last read used; anything wrong with it (another
version of adr-memory, another key, damage) reads as empty, and the next read writes it again.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import sys
from pathlib import Path
from typing import Any

from adr_memory.base import cache, sealed, write_atomic
from adr_memory.errors import AdrError
from adr_memory.records import Parses, Record

FILE = "records.pickle"
SOURCES = "sources.pickle"  # the sources' records, kept apart: a command that reads none keeps them
SCHEMA = 1


def load(folder: Path, name: str = FILE) -> Parses:
    """The records parsed before, for this code and these libraries; empty when there are none
    or they cannot be trusted."""
    try:
        payload = sealed.unseal(cache.entry(folder, name).read_bytes())
    except OSError:
        payload = None
    if payload is None:
        return Parses({})
    try:
        kept = pickle.loads(payload)  # sealed: this user's adr-memory wrote it
    except Exception:  # pickle.loads raises anything on data it did not write (a renamed class: AttributeError)
        return Parses({})
    if not (isinstance(kept, dict) and kept.get("code") == fingerprint() and _records(kept.get("records"))):
        return Parses({})
    return Parses(kept["records"])


def save(folder: Path, parses: Parses, name: str = FILE) -> None:
    """Keep what the last read used, when it differs from what was kept; quietly not at all
    when the folder cannot be written (a read-only checkout)."""
    if not parses.changed:
        return
    data = sealed.seal(pickle.dumps({"code": fingerprint(), "records": parses.used}, protocol=pickle.HIGHEST_PROTOCOL))
    if data is None or not cache.owned(folder):
        return
    try:
        write_atomic(cache.entry(folder, name), data)
    except AdrError:
        return
    parses.known = dict(parses.used)  # a long-lived workspace (the MCP server) writes again only on change


def _records(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, tuple) and isinstance(rec, Record) for key, rec in value.items()
    )


@functools.cache
def fingerprint() -> str:
    """What a parse depends on besides a file's bytes: this package's code (each module's size
    and modification time: an upgrade or an edit changes them), Python, and PyYAML."""
    import yaml

    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"{SCHEMA}\0{sys.version}\0{yaml.__version__}\0{yaml.__with_libyaml__}".encode())
    for module in sorted(package.rglob("*.py")):
        try:
            facts = module.stat()
        except OSError:
            continue
        digest.update(f"{module.relative_to(package)}\0{facts.st_size}\0{facts.st_mtime_ns}\n".encode())
    return digest.hexdigest()
