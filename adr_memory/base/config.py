"""The one Config: every setting declared once, with its documentation attached.

Precedence: command-line flag > `.adr-memory.toml` > `pyproject.toml [tool.adr-memory]` > default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from adr_memory.base.files import read_capped
from adr_memory.errors import ConfigError, TooLarge, why_unreadable

CONFIG_FILE = ".adr-memory.toml"
MAX_BYTES = 10_000_000  # a pyproject.toml past this is not a settings file anyone wrote
_CHOICES = {
    "template": ("madr", "nygard"),
    "accepted_edits": ("error", "warn", "allow"),
    "require_status": ("false", "true"),
}


@dataclass(frozen=True)
class Config:
    adr_dir: str | None = field(
        default=None,
        metadata={
            "doc": "Where decision records live (else .adr-dir, then another ADR tool's settings, then the usual folders, then docs/adr)."
        },
    )
    cache_dir: str = field(
        default=".adr-cache", metadata={"doc": "Gitignored, disposable cache for history and the search index."}
    )
    template: str = field(
        default="",
        metadata={
            "doc": "Template for `adr new`: madr or nygard; unset, the style most of the folder's records "
            "are in (nygard in an adr-tools folder), madr in a new one. A "
            "<adr_dir>/templates/template.md wins."
        },
    )
    accepted_edits: str = field(
        default="error", metadata={"doc": "What `adr check --base` says when an accepted decision's content changed."}
    )
    require_status: str = field(
        default="false",
        metadata={"doc": "true: `adr check` warns about records that state no status (else read as accepted)."},
    )
    embed_model: str = field(
        default="",
        metadata={
            "doc": "Another fastembed model name, its files already in the cache's models folder "
            "(nothing is downloaded); empty: the bundled MiniLM."
        },
    )
    source: str = field(default="defaults", metadata={"doc": "Where the settings came from."})


def load(root: Path) -> Config:
    """Read the config for the repository at `root`."""
    own = root / CONFIG_FILE
    if own.is_file():
        return _from_table(_read_toml(own), str(own.name))
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        table = _read_toml(pyproject).get("tool", {}).get("adr-memory")
        if isinstance(table, dict):
            return _from_table(table, "pyproject.toml [tool.adr-memory]")
    return Config()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_capped(path, MAX_BYTES).decode("utf-8"))
    except TooLarge as exc:
        raise ConfigError(
            f"cannot read {path.name}: it is {exc.size:,} bytes (a settings file is under {MAX_BYTES // 1_000_000} MB)",
            hint=f"fix or delete {path.name}",
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ConfigError(
            f"cannot read {path.name}: {why_unreadable(exc)}", hint=f"fix or delete {path.name}"
        ) from None


def _from_table(table: dict[str, Any], source: str) -> Config:
    known = {f.name: f for f in fields(Config) if f.name != "source"}
    values: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("-", "_")
        if key not in known:
            raise ConfigError(
                f"unknown setting {raw_key!r} in {source}", hint="known settings: " + ", ".join(sorted(known))
            )
        if isinstance(value, bool):  # require-status = true
            value = "true" if value else "false"
        if not isinstance(value, str):
            raise ConfigError(f"setting {raw_key!r} in {source} must be text", hint=f'write it as {raw_key} = "..."')
        if key in _CHOICES and value not in _CHOICES[key]:
            raise ConfigError(
                f"setting {raw_key!r} in {source} is {value!r}", hint="choose one of: " + ", ".join(_CHOICES[key])
            )
        values[key] = value
    return replace(Config(), source=source, **values)


def describe() -> list[tuple[str, str, str]]:
    """(key, default, doc) for every setting: the README's settings table is written from this."""
    return [(f.name.replace("_", "-"), str(f.default), f.metadata["doc"]) for f in fields(Config) if f.name != "source"]
