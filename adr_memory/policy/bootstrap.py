"""`adr init`: the ADR folder, a first record, a config file, the cache in `.gitignore`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from adr_memory.base import config, kept_file, read_capped, write_atomic, write_text_atomic
from adr_memory.history import Workspace
from adr_memory.policy import new, templates
from adr_memory.records import MAX_BYTES

FIRST_TITLE = "Record architecture decisions"


@dataclass(frozen=True)
class InitResult:
    adr_dir: str
    first_record: Path | None
    config_file: Path | None
    gitignore_updated: bool
    config_updated: bool = False  # an existing config now points at the folder init was given


def init(ws: Workspace, *, template: str | None = None) -> InitResult:
    """Set up a repository; safe to run again (it adds only what is missing)."""
    ignore = kept_file(ws.root, ".gitignore")  # before any write: a link out of the repository stops init
    ws.adr_path.mkdir(parents=True, exist_ok=True)
    existed = (ws.root / config.CONFIG_FILE).exists()
    cfg_path = _write_config(ws, template)
    first = None
    if not len(ws.reload()):
        first = _first_record(ws, template)
    return InitResult(
        ws.adr_dir, first, cfg_path, _ignore_cache(ws.config, ignore), config_updated=existed and cfg_path is not None
    )


def _write_config(ws: Workspace, template: str | None) -> Path | None:
    path = ws.root / config.CONFIG_FILE
    if path.exists():
        return _point_config_at(ws, path)
    # A folder that has records keeps its own style: a template pinned here would make the next
    # `adr new` write MADR frontmatter among `# N. Title` records (tdr) or a Nygard record among
    # Tendermint ones (cometbft). Unset, `adr new` follows the records already there.
    chosen = template or (None if len(ws.catalog) else templates.template_name(ws.catalog, ws.config))
    pinned = (
        f'template = "{chosen}"'
        if chosen
        else '# template = "madr" or "nygard": unset, `adr new` writes as the records already here are written'
    )
    lines = [
        "# adr-memory settings; every key is in the Configuration part of adr-memory's docs/reference.md",
        f'adr-dir = "{ws.adr_dir}"',
        pinned,
        "",
    ]
    write_text_atomic(path, "\n".join(lines))
    return path


def _point_config_at(ws: Workspace, path: Path) -> Path | None:
    """`adr init --dir X` in a set-up repository: move the config's `adr-dir` to X, changing
    only that line (or adding it), so later commands look where init was told to."""
    if ws.adr_dir_source != "configured" or ws.config.adr_dir == ws.adr_dir:
        return None
    path = kept_file(ws.root, path.name)
    text = read_capped(path, MAX_BYTES).decode("utf-8")
    line = f'adr-dir = "{ws.adr_dir}"'
    new, count = re.subn(r"(?m)^adr[-_]dir\s*=.*$", line, text, count=1)
    if not count:
        new = text + ("" if not text or text.endswith("\n") else "\n") + line + "\n"
    write_text_atomic(path, new)
    return path


def _first_record(ws: Workspace, template: str | None) -> Path:
    path = new.create(
        ws, FIRST_TITLE, status="accepted", template=template or templates.template_name(ws.catalog, ws.config)
    )
    # Keep the template's header and its Status section; the standard text replaces the rest.
    parts = path.read_text(encoding="utf-8").split("\n## ")
    kept = [parts[0]] + [p for p in parts[1:] if p.lower().startswith("status")]
    head = "\n## ".join(kept).rstrip("\n") + "\n\n"
    body = resources.files("adr_memory.templates").joinpath("first.md").read_text("utf-8")
    write_text_atomic(path, head + body)
    return path


def _ignore_cache(cfg: config.Config, path: Path) -> bool:
    entry = cfg.cache_dir.strip("/") + "/"
    data = read_capped(path, MAX_BYTES) if path.exists() else b""  # kept byte for byte
    if any(line.strip().strip("/") == entry.strip("/") for line in data.decode("utf-8", "replace").splitlines()):
        return False
    sep = b"" if not data or data.endswith(b"\n") else b"\n"
    write_atomic(path, data + sep + f"# adr-memory cache (disposable)\n{entry}\n".encode())
    return True
