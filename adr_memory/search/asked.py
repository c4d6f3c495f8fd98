"""The vectors of the questions asked last, kept by their text: search/embed.py's models ask
here first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any


class Asked:
    """The vectors of the questions asked last, by text: a question asked again (each mode of
    `adr eval`, the hub's pages as a reader types, many agents asking one thing) is one model
    run. Calls of more than a few texts (a build's chunks) pass by: they are asked once."""

    SIZE, BATCH = 512, 64

    def __init__(self) -> None:
        self._rows: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: list[str], run: Callable[[list[str]], Any], dim: int) -> Any:
        """`run(texts)` for the texts not asked lately: a float32 matrix of all `texts`' rows
        (len(texts) x dim), in order."""
        import numpy as np

        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        if len(texts) > self.BATCH:
            return run(texts)
        with self._lock:
            known = {t: self._rows[t] for t in texts if t in self._rows}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:  # the model runs outside the lock: other threads' questions are not held up
            known.update(zip(missing, run(missing)))
        with self._lock:
            for text in dict.fromkeys(texts):
                self._rows[text] = known[text]
                self._rows.move_to_end(text)
            while len(self._rows) > self.SIZE:
                self._rows.popitem(last=False)
        return np.array([known[t] for t in texts], dtype=np.float32)
