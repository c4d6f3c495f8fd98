"""What every layer stands on: atomic writes, locks and confinement (files), escapes for where
text goes (safe), globs matched in linear time, the marked cache folder, bytes sealed with the
user's own key, the config file.

Other packages import from here only. Names load on first use (PEP 562): importing the face
costs nothing, so a light command never pays for a heavy module it does not touch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adr_memory import lazy_face

if TYPE_CHECKING:
    from adr_memory.base.cache import ensure
    from adr_memory.base.config import CONFIG_FILE, SOURCE_NAME, Config, SourceSpec, same_repository
    from adr_memory.base.files import (
        confine,
        create_exclusive,
        is_git_dir,
        kept_file,
        locked,
        read_capped,
        unwritable,
        write_atomic,
        write_text_atomic,
    )
    from adr_memory.base.globs import problem

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {
    "Config": "config",
    "SourceSpec": "config",
    "SOURCE_NAME": "config",
    "CONFIG_FILE": "config",
    "same_repository": "config",
    "confine": "files",
    "create_exclusive": "files",
    "ensure": "cache",
    "is_git_dir": "files",
    "kept_file": "files",
    "locked": "files",
    "problem": "globs",
    "read_capped": "files",
    "unwritable": "files",
    "write_atomic": "files",
    "write_text_atomic": "files",
}

__all__ = [
    "CONFIG_FILE",
    "SOURCE_NAME",
    "Config",
    "SourceSpec",
    "cache",
    "config",
    "confine",
    "create_exclusive",
    "ensure",
    "globs",
    "is_git_dir",
    "kept_file",
    "locked",
    "problem",
    "read_capped",
    "safe",
    "same_repository",
    "sealed",
    "unwritable",
    "write_atomic",
    "write_text_atomic",
]

__getattr__ = lazy_face(__name__, _OFFERED)
