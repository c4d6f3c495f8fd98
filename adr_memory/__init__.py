"""adr-memory: a git-native memory of architecture decisions."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__version__ = "0.1.0"


def lazy_face(package: str, offered: dict[str, str]) -> Callable[[str], Any]:
    """A face's module `__getattr__` (PEP 562): each name it offers loads the module of
    `package` that defines it on first use, so importing the face costs nothing."""

    def __getattr__(name: str) -> Any:
        if name in offered:
            return getattr(importlib.import_module(f"{package}.{offered[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
