"""The search index (tantivy, in `index`), the embeddings (fastembed and onnxruntime, in
`embed`), ranking and refusal (`search`, one fusion of the two legs in `fusion`, which the hub's search
uses too), and the evaluation harness (`evaluation`).

Other packages import from here only. Names load on first use (PEP 562): importing the face
costs nothing, so a light command never pays for a heavy module it does not touch.
"""

from __future__ import annotations

from adr_memory import lazy_face

# name -> the module of this package that defines it; the modules are offered whole
_OFFERED: dict[str, str] = {}

__all__ = ["embed", "evaluation", "fusion", "refusal", "rows", "search", "swap", "words"]

__getattr__ = lazy_face(__name__, _OFFERED)
