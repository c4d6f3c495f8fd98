"""What an interrupted index build embedded, kept for the next build.

Embedding is the slow part of a build (minutes for a large folder on two cores). A build that
is killed (`kill -9`, a closed laptop, a client that left) would otherwise leave nothing: the
next one embedded everything again. Every few seconds the build writes the vectors it has so
far to `index/partial/`; the next build reuses those whose text and model are unchanged, and a
finished build removes them. The file checks itself (a checksum over the vectors, written
last), so a checkpoint cut short is ignored, never used.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from adr_memory.base import cache, write_atomic
from adr_memory.errors import AdrError

EVERY = 10.0  # seconds of embedding between checkpoints: a few writes of a few MB per build


class Checkpoint:
    """The partial vectors of the index folder `index_dir` (None: a build in memory keeps none)."""

    def __init__(self, index_dir: Path | None, contract: dict[str, Any]) -> None:
        self.folder = index_dir / "partial" if index_dir is not None else None
        self.contract = contract
        self.written = time.monotonic()

    def load(self) -> dict[str, Any]:
        """key -> vector of what an interrupted build embedded with this model; {} when there is
        none, or it is damaged or of another model."""
        if self.folder is None:
            return {}
        import numpy as np

        try:
            meta = json.loads((self.folder / "meta.json").read_text(encoding="utf-8"))
            raw = (self.folder / "vectors.f32").read_bytes()
            keys, dim = meta["keys"], self.contract["dim"]
            if meta["contract"] != self.contract or hashlib.sha256(raw).hexdigest() != meta["sha256"]:
                return {}
            data = np.frombuffer(raw, dtype=np.float32)
            if not (isinstance(keys, list) and data.size == len(keys) * dim and np.isfinite(data).all()):
                return {}
            return {str(k): row for k, row in zip(keys, data.reshape(len(keys), dim), strict=True)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return {}

    def offer(self, vectors: dict[str, Any], *, now: bool = False) -> None:
        """Write these vectors when the last checkpoint is EVERY seconds old (`now`: at once,
        for a build that is being stopped)."""
        if self.folder is None or (time.monotonic() - self.written < EVERY and not now) or not vectors:
            return
        import numpy as np

        keys = list(vectors)
        raw = np.ascontiguousarray(np.stack([vectors[k] for k in keys]), dtype=np.float32).tobytes()
        try:
            self.folder.mkdir(exist_ok=True)
            write_atomic(self.folder / "vectors.f32", raw)
            meta = {"contract": self.contract, "keys": keys, "sha256": hashlib.sha256(raw).hexdigest()}
            write_atomic(self.folder / "meta.json", json.dumps(meta).encode())
        except (
            OSError,
            AdrError,
        ):  # a cache that cannot be written (write_atomic says so as an AdrError): no checkpoints
            self.folder = None
        self.written = time.monotonic()

    def clear(self) -> None:
        """The build finished: what it kept is in the index now."""
        if self.folder is not None and self.folder.exists():
            cache.remove(self.folder.parent.parent, self.folder)
