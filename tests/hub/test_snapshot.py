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


def test_a_snapshot_sent_over_http_is_checked_field_by_field():
    import base64

    import numpy as np
    import pytest

    from adr_memory.errors import UsageError
    from adr_memory.hub import snapshot

    good = {
        "repository": "acme/payments",
        "commit": "a" * 40,
        "committed": "2026-12-07T10:00:00Z",
        "contract": {"dim": 4},
        "records": [{"id": "ADR-0001", "title": "Use Kafka"}],
        "chunks": [{"id": "ADR-0001", "section": "Decision", "text": "Use Kafka"}],
        "vectors": base64.b64encode(np.full((1, 4), 0.5, dtype=np.float32).tobytes()).decode(),
    }
    assert snapshot.checked(good, 4).repository == "acme/payments"
    for change, said in [
        ({"repository": "../../etc/passwd"}, "the repository's name"),
        ({"repository": "x'; DROP TABLE chunks; --"}, "the repository's name"),
        ({"commit": "HEAD"}, "the commit"),
        ({"committed": "yesterday"}, "the commit's time"),
        ({"records": [{"id": "ADR-0001"}, {"id": "ADR-0001"}]}, "each record's id"),
        ({"chunks": [{"id": "ADR-0009", "section": "x", "text": "y"}]}, "a chunk"),
        ({"vectors": "not base64!"}, "the vectors"),
        ({"contract": {"dim": 384}}, "the vectors"),
        ({"vectors": base64.b64encode(b"\0" * 8).decode()}, r"the vectors \(one a chunk\)"),
        ({"records": [{"id": "ADR-0001", "versions": [{"version_id": "v1", "text": 7}]}]}, "a record's versions"),
        ({"records": [{"id": "ADR-0001", "versions": [{"text": "x" * 1_000_001}]}]}, "a record's versions"),
        ({"records": [{"id": "ADR-0001", "versions": "v1"}]}, "a record's versions"),
        ({"records": [{"id": "ADR-0001", "key": {"x": 1}}]}, r"record ADR-0001's key \(text\)"),
        ({"records": [{"id": "ADR-0001", "tags": 5}]}, "tags"),
        ({"records": [{"id": "ADR-0001", "sections": "zz"}]}, "sections"),
        ({"records": [{"id": "ADR-0001", "sections": [{"heading": 1, "text": "x"}]}]}, "sections"),
        ({"records": [{"id": "ADR-0001", "path": 5}]}, "path"),
        ({"records": [{"id": "ADR-0001", "title": "a\0b"}]}, "NUL"),
        ({"records": [{"id": "ADR-0001", "number": "7"}]}, "number"),
        ({"records": [{"id": "ADR-0001", "versions": [{"date": 5}]}]}, "versions"),
        ({"records": [{"id": "ADR-0001", "versions": [{"transitions": [{"reason": 5}]}]}]}, "versions"),
        ({"records": [{"id": "ADR-0001", "exceptions": [{"repository": 1, "id": "x"}]}]}, "exceptions"),
        ({"records": [{"id": "ADR-0001", "link": "javascript:alert(1)"}]}, "link"),
        ({"following": [{"repository": "p", "id": "ADR-0002", "state": "exception", "exception": 5}]}, "follows"),
        ({"vectors": base64.b64encode(np.full((1, 4), np.nan, dtype=np.float32).tobytes()).decode()}, "finite"),
        ({"vectors": base64.b64encode(np.zeros((1, 4), dtype=np.float32).tobytes()).decode()}, "unit length"),
        ({"records": [{"id": "ADR-0001", "title": "\ud800"}]}, "lone surrogate"),
        ({"chunks": [{"id": "ADR-0001", "section": "Decision", "text": "a\0b"}]}, "NUL"),
        ({"following": [{"repository": "p\0", "id": "ADR-0001"}]}, "NUL"),
        ({"records": [{"id": "../x/y"}]}, "each record's id"),
    ]:
        with pytest.raises(UsageError, match=said):
            snapshot.checked({**good, **change}, 4)
    with pytest.raises(UsageError, match="not a JSON object"):
        snapshot.checked([good], 4)


def test_versions_texts_are_taken_apart_without_changing_the_snapshot():
    """A store keeps each version's text beside its decision: lists never carry them."""
    records = [
        {"id": "ADR-0001", "versions": [{"version_id": "v2", "text": "two"}, {"version_id": "v1", "text": None}]},
        {"id": "ADR-0002"},
    ]
    snap = Snapshot("shop", None, None, records, [], None)
    digest = snap.digest
    kept, texts = snap.split_texts()
    assert texts == {("ADR-0001", "v2"): "two"}
    assert kept == [{"id": "ADR-0001", "versions": [{"version_id": "v2"}, {"version_id": "v1"}]}, {"id": "ADR-0002"}]
    assert snap.records[0]["versions"][0]["text"] == "two" and snap.digest == digest
