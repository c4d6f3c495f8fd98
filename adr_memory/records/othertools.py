"""Where other ADR tools' settings say the decisions live: a folder kept with log4brains,
adrgen, pyadr, adrs or ADR-J works as it is, without a `.adr-dir` (ADR-0065).

Each file comes with the repository, so each is read as untrusted text: a bounded read,
parsers that build plain data only, and a file that does not parse or names nothing is passed
over (it is that tool's business, and discovery still looks for the folder). Where the
folder named leads is the caller's to confine to the repository.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adr_memory.base import read_capped
from adr_memory.errors import TooLarge

MAX_BYTES = 65_536  # a tool's settings fit in a page; past that, the file is not them


def _log4brains(text: str) -> Any:
    return _yaml(text).get("project", {}).get("adrFolder")  # packages' folders are their own


def _adrgen(text: str) -> Any:
    return _yaml(text).get("directory")


def _pyadr(text: str) -> Any:
    import configparser  # only where a `.adr` file is: every command and hook locates the folder

    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser.get("adr", "records_dir", fallback=None)


def _adrs(text: str) -> Any:
    return tomllib.loads(text).get("adr_dir")


_DOC_PATH = re.compile(r"(?m)^[ \t]*docPath[ \t]*[=:]([^\r\n]*)")  # a Java properties line


def _adr_j(text: str) -> Any:
    found = _DOC_PATH.search(text)
    return found.group(1) if found else None


def _unreadable() -> tuple[type[Exception], ...]:
    import configparser

    import yaml

    # A parse error of each format; a value of another shape than the reader expects (`project:
    # 3` has no `.get`); a document nested past Python's recursion limit.
    return (yaml.YAMLError, configparser.Error, tomllib.TOMLDecodeError, AttributeError, TypeError, RecursionError)


def _yaml(text: str) -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(text)
    return data if isinstance(data, dict) else {}


# (settings file, how to read the folder from it), in the order they are asked.
SETTINGS: tuple[tuple[str, Callable[[str], Any]], ...] = (
    (".log4brains.yml", _log4brains),
    ("adrgen.config.yml", _adrgen),
    (".adr", _pyadr),
    ("adrs.toml", _adrs),
    (".adr/adr.properties", _adr_j),
)


def folder(root: Path) -> tuple[str, str] | None:
    """(the folder as written, the settings file that names it) from the first other tool's
    settings that name one, or None."""
    for name, read in SETTINGS:
        text = _text(root / name)
        if text is None:
            continue
        try:
            named = read(text)
        except _unreadable():  # evaluated only when one fails: settings that do not parse name no folder
            continue
        if isinstance(named, str) and named.strip():
            return named.strip(), name
    return None


def _text(path: Path) -> str | None:
    try:
        return read_capped(path, MAX_BYTES).decode("utf-8", errors="replace")
    except (OSError, TooLarge):  # absent, a folder (ADR-J's `.adr`), a FIFO, too big
        return None
