"""The one Config: every setting declared once, with its documentation attached.

Precedence: command-line flag > `.adr-memory.toml` > `pyproject.toml [tool.adr-memory]` > default.
`embed-model` alone comes from the user's own config (`~/.config/adr-memory/config.toml`), never
from a repository: the model runs on the user's machine, and a repository is anyone's content.
"""

from __future__ import annotations

import os
import posixpath
import re
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
            "doc": "In your own config only (~/.config/adr-memory/config.toml, never a repository's): "
            "a local ONNX model folder (model.onnx and its tokenizer files) or a fastembed model name "
            "already in your fastembed cache; nothing is downloaded. Empty: the bundled MiniLM."
        },
    )
    hub_url: str = field(
        default="",
        metadata={
            "doc": "In your own config only (~/.config/adr-memory/config.toml, never a repository's): the "
            "organisation's hub (a folder or postgresql://...), when neither --to/--from nor ADR_HUB_URL "
            "names one."
        },
    )
    sources: tuple[SourceSpec, ...] = field(
        default=(),
        metadata={
            "doc": "Other repositories' decision folders, each a table [sources.NAME] with url (any URL git "
            "fetches, a file:// URL or a local path), ref (default main) and dir (else found as the "
            "repository's own is); pinned by `adr sources update` in adr-sources.lock."
        },
    )
    source: str = field(default="defaults", metadata={"doc": "Where the settings came from."})


@dataclass(frozen=True)
class SourceSpec:
    """A `[sources.NAME]` table: another repository's decision folder, read at a pinned commit."""

    name: str
    url: str
    ref: str = "main"
    dir: str = ""
    hub: str = ""  # its repository's name in the organisation's hub, when not its URL's last part

    @property
    def hub_name(self) -> str:
        """The name the hub knows its repository by: `hub`, else the URL's last part, as a
        repository names itself when it publishes (`git@github.com:acme/architecture.git` ->
        `architecture`)."""
        return self.hub or same_repository(self.url).rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def same_repository(url: str) -> str:
    """A repository URL as compared for sameness: its host in lowercase and its path, whatever
    the scheme (https, ssh, scp-like `git@host:path`), with no credentials, port, `.git` or
    trailing slash (`https://tok@GitHub.com/acme/arch.git/` and `git@github.com:acme/arch` are
    `github.com/acme/arch`); a folder (`file://` or a path, its `.git` too) as its path."""
    text = url.strip()
    if text.lower().startswith("file://"):
        text = text[7:].removeprefix("localhost")
    text = text.rstrip("/").removesuffix(".git").rstrip("/")
    found = re.match(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/?#:]+)(?::\d*)?(.*)$", text, re.IGNORECASE)
    if found:
        return found.group(1).lower() + found.group(2).split("?", 1)[0].rstrip("/")
    scp = re.match(r"^(?:[^@/]+@)?([^:/]+):(.*)$", text)  # git@github.com:acme/arch
    if scp:
        return f"{scp.group(1).lower()}/{scp.group(2).lstrip('/')}"
    return posixpath.normpath(text) if text else text


SOURCE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_SOURCE_KEYS = ("url", "ref", "dir", "hub")


USER_ONLY = ("embed_model", "hub_url")  # settings a repository may not choose for the user


def load(root: Path) -> Config:
    """Read the config for the repository at `root`, and the user's own choice of model."""
    own = user_settings()
    return replace(_repository(root), embed_model=own["embed_model"], hub_url=own["hub_url"])


def _repository(root: Path) -> Config:
    own = root / CONFIG_FILE
    if own.is_file():
        return _from_table(_read_toml(own), str(own.name))
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        table = _read_toml(pyproject).get("tool", {}).get("adr-memory")
        if isinstance(table, dict):
            return _from_table(table, "pyproject.toml [tool.adr-memory]")
    return Config()


def user_config_path() -> Path:
    """Where the user's own settings live (XDG_CONFIG_HOME, else ~/.config)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "adr-memory" / "config.toml"


def user_settings() -> dict[str, str]:
    """The settings only the user's own config holds (`embed-model`, `hub-url`), "" when unset."""
    path = user_config_path()
    table = _read_toml(path, str(path)) if path.is_file() else {}  # outside the repository: named whole
    for raw_key in table:
        if raw_key.replace("-", "_") not in USER_ONLY:
            raise ConfigError(
                f"unknown setting {raw_key!r} in {path}",
                hint="your own config holds embed-model and hub-url; the rest belongs in the repository's "
                ".adr-memory.toml",
            )
    out = {}
    for key in USER_ONLY:
        dashed = key.replace("_", "-")
        value = table.get(dashed, table.get(key, ""))
        if not isinstance(value, str):
            raise ConfigError(f"setting {dashed!r} in {path} must be text", hint=f'write it as {dashed} = "..."')
        out[key] = value.strip()
    return out


def _read_toml(path: Path, shown: str | None = None) -> dict[str, Any]:
    """The TOML table of `path`, named in errors as `shown` (the repository's files by name)."""
    name = shown or path.name
    try:
        return tomllib.loads(read_capped(path, MAX_BYTES).decode("utf-8"))
    except TooLarge as exc:
        raise ConfigError(
            f"cannot read {name}: it is {exc.size:,} bytes (a settings file is under {MAX_BYTES // 1_000_000} MB)",
            hint=f"fix or delete {name}",
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ConfigError(f"cannot read {name}: {why_unreadable(exc)}", hint=f"fix or delete {name}") from None


def _from_table(table: dict[str, Any], source: str) -> Config:
    known = {f.name: f for f in fields(Config) if f.name != "source"}
    values: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("-", "_")
        if key in USER_ONLY:
            raise ConfigError(
                f"{raw_key} in {source} is not read from a repository: what runs on your machine and where "
                "your questions go are yours to choose, and a repository is anyone's content",
                hint=f"set it in your own config, {user_config_path()}",
            )
        if key not in known:
            raise ConfigError(
                f"unknown setting {raw_key!r} in {source}",
                hint="known settings: " + ", ".join(sorted(k.replace("_", "-") for k in known)),
            )
        if key == "sources":
            values[key] = _sources(value, source)
            continue
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


def _sources(value: Any, where: str) -> tuple[SourceSpec, ...]:
    """The `[sources.NAME]` tables, each checked: a name of lowercase letters, digits, `-` and
    `_` (it qualifies ids: `platform:ADR-0012`), a url, and text for ref and dir."""
    if not isinstance(value, dict):
        raise ConfigError(f"sources in {where} must be tables", hint='write [sources.platform] url = "..."')
    out: list[SourceSpec] = []
    for name, table in value.items():
        if not SOURCE_NAME.fullmatch(str(name)):
            raise ConfigError(
                f"source name {name!r} in {where} is not a short lowercase name", hint="e.g. [sources.platform]"
            )
        if not isinstance(table, dict) or not isinstance(table.get("url"), str) or not table["url"].strip():
            raise ConfigError(
                f"[sources.{name}] in {where} needs a url", hint='url = "https://github.com/acme/architecture"'
            )
        unknown = sorted(set(table) - set(_SOURCE_KEYS))
        if unknown or not all(isinstance(table.get(k, ""), str) for k in _SOURCE_KEYS):
            raise ConfigError(
                f"[sources.{name}] in {where} holds {unknown[0] if unknown else 'a value that is not text'}",
                hint="a source has url, ref, dir and hub, each text",
            )
        url = table["url"].strip()
        twin = next((s for s in out if same_repository(s.url) == same_repository(url)), None)
        if twin is not None:  # two names for one repository: its decisions would be read twice
            raise ConfigError(
                f"[sources.{name}] in {where} names the repository [sources.{twin.name}] names",
                hint=f"keep one of them (adr sources remove {name})",
            )
        out.append(
            SourceSpec(
                str(name),
                url,
                table.get("ref", "").strip() or "main",
                table.get("dir", "").strip(),
                table.get("hub", "").strip(),
            )
        )
    return tuple(out)


def describe() -> list[tuple[str, str, str]]:
    """(key, default, doc) for every setting: the README's settings table is written from this."""
    return [(f.name.replace("_", "-"), str(f.default), f.metadata["doc"]) for f in fields(Config) if f.name != "source"]
