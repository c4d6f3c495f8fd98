"""hub.snapshot: what a repository publishes, and its digest (same snapshot, same digest)."""

from __future__ import annotations

import numpy as np

from adr_memory.hub.snapshot import Snapshot


def test_a_snapshot_round_trips_with_its_vectors_and_its_digest():
    vectors = np.eye(2, 384, dtype=np.float32)
    snap = Snapshot(
        "payments",
        "a" * 40,
        {"dim": 384},
        [{"id": "ADR-0001"}],
        [{"id": "ADR-0001", "section": "T", "text": "x"}] * 2,
        vectors,
    )
    digest = snap.digest
    back = Snapshot.from_json(snap.to_json())
    assert back.digest == digest and np.array_equal(back.vectors, vectors)
    back.records = [*back.records, {"id": "ADR-0002"}]
    assert back.digest != digest
