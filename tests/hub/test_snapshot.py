"""hub.snapshot: what a repository publishes, and its digest (same snapshot, same digest)."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from adr_memory.errors import UsageError
from adr_memory.hub import snapshot
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
        ({"records": [{"id": "ADR-0001", "versions": [{"text": "x" * 1_000_001}]}]}, "over 1,000,000 characters"),
        ({"records": [{"id": "ADR-0001", "versions": "v1"}]}, "a record's versions"),
        (
            {"records": [{"id": "ADR-0001", "key": {"x": 1}}]},
            r"record ADR-0001's key \(text of at most 10,000 characters\)",
        ),
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


# ------------------------------------------------------------------ what a snapshot says, and what a served hub takes


def test_of_two_publishes_the_later_commit_s_stays():
    snap = Snapshot("shop", "a" * 40, None, [], [], None, committed="2024-05-02T10:00:00Z")
    assert snap.older_than("2024-05-02T10:00:01Z")
    assert not snap.older_than("2024-05-02T10:00:00Z")  # the same moment: not older
    assert not snap.older_than("2024-05-01T23:59:59Z")
    assert not snap.older_than(None)  # the hub holds no time for it
    assert not Snapshot("shop", None, None, [], [], None).older_than("2024-05-02T10:00:00Z")  # nor does this


def test_the_digest_changes_with_what_is_said_and_only_with_it():
    def digest(**kw):
        base = {
            "repository": "shop",
            "commit": "a" * 40,
            "contract": None,
            "records": [{"id": "ADR-0001"}],
            "chunks": [],
        }
        return Snapshot(**{**base, **kw}).digest

    same = digest()
    assert digest(committed="2024-05-02T10:00:00Z") == same  # when, not what
    assert digest(contract={"dim": 4}) == same
    assert digest(following=[]) == same  # nothing followed says nothing: older hubs' digests stand
    assert digest(following=[{"repository": "p", "id": "ADR-0001"}]) != same
    assert digest(commit="b" * 40) != same and digest(repository="web") != same
    assert digest(records=[{"id": "ADR-0001", "title": "x"}]) != same
    assert digest(vectors=np.zeros((1, 4), dtype=np.float32)) != digest(vectors=np.ones((1, 4), dtype=np.float32))


def test_vectors_are_read_back_only_with_the_dimension_the_contract_names():
    data = Snapshot(
        "shop", None, {"dim": 2}, [], [{"id": "a", "section": "s", "text": "t"}] * 3, np.eye(3, 2, dtype=np.float32)
    ).to_json()
    assert Snapshot.from_json(data).vectors.shape == (3, 2)
    assert Snapshot.from_json({**data, "contract": None}).vectors is None
    assert Snapshot.from_json({**data, "vectors": None}).vectors is None
    back = Snapshot.from_json({"repository": "shop", "records": [], "chunks": []})
    assert (back.commit, back.committed, back.following, back.vectors) == (None, None, [], None)


GOOD = {
    "repository": "acme/payments",
    "commit": None,
    "records": [{"id": "ADR-0001", "title": "Use Kafka", "link": "https://example.com/adr/1", "number": 1}],
    "chunks": [{"id": "ADR-0001", "section": "Decision", "text": "Use Kafka", "offset": 7}],
}


@pytest.mark.parametrize(
    "change",
    [
        {},
        {"commit": "a" * 64},  # a SHA-256 repository's commit
        {"repository": "a" * 200},
        {"repository": "acme/pay.ments_2-x"},
        {"records": [{"id": "ADR-0001", "standing": {"in_force": True}, "versions": [{"draft": True}]}]},
        {
            "records": [
                {
                    "id": "ADR-0001",
                    "title": "x" * 10_000,
                    "tags": ["t"] * 1_000,
                    "sections": [{"heading": "h", "text": "x" * 1_000_000}],
                }
            ]
        },
        {"chunks": [{"id": "ADR-0001", "section": "", "text": "x" * snapshot.MAX_TEXT, "offset": snapshot.MAX_OFFSET}]},
        {"following": [{"repository": "p", "id": "ADR-0001", "state": None, "exception": ["ADR-0002"]}]},
    ],
)
def test_what_adr_hub_publish_sends_is_taken(change):
    snap = snapshot.checked({**GOOD, **change}, 4)
    assert snap.repository == {**GOOD, **change}["repository"] and snap.vectors is None


@pytest.mark.parametrize(
    "change, said",
    [
        ({"repository": "a" * 201}, "the repository's name"),
        ({"repository": "-flag"}, "the repository's name"),
        ({"repository": "acme/../etc"}, "the repository's name"),
        ({"repository": 7}, "the repository's name"),
        ({"commit": "A" * 40}, "the commit"),
        ({"commit": "a" * 41}, "the commit"),
        ({"committed": "2024-05-02T10:00:00.5Z"}, "the commit's time"),
        ({"committed": "2024-05-02 10:00:00"}, "the commit's time"),
        ({"records": {"id": "ADR-0001"}}, r"the records \(a list of at most 20,000\)"),
        ({"records": [{"id": "a" * 201}]}, "each record's id"),
        ({"records": [{"id": "ADR\t1"}]}, "each record's id"),
        ({"records": [{"id": 1}]}, "each record's id"),
        ({"records": ["ADR-0001"]}, "each record's id"),
        ({"chunks": {}}, r"the chunks \(a list of at most 200,000\)"),
        ({"chunks": [{"id": "ADR-0001", "section": "s", "text": "t", "offset": True}]}, "a chunk"),
        ({"chunks": [{"id": "ADR-0001", "section": "s", "text": "t", "offset": -1}]}, "a chunk"),
        ({"chunks": [{"id": "ADR-0001", "section": "s", "text": "t", "offset": snapshot.MAX_OFFSET + 1}]}, "a chunk"),
        ({"chunks": [{"id": "ADR-0001", "section": "s", "text": "x" * (snapshot.MAX_TEXT + 1)}]}, "a chunk"),
        ({"chunks": [{"id": "ADR-0001", "section": None, "text": "t"}]}, "a chunk"),
        ({"records": [{"id": "ADR-0001", "standing": "in force"}]}, r"record ADR-0001's standing \(a mapping\)"),
        (
            {"records": [{"id": "ADR-0001", "link": "ftp://example.com"}]},
            r"record ADR-0001's link \(an http or https address\)",
        ),
        ({"records": [{"id": "ADR-0001", "number": True}]}, r"record ADR-0001's number \(a whole number\)"),
        (
            {"records": [{"id": "ADR-0001", "rules": ["forbid"]}]},
            r"record ADR-0001's rules \(a list of at most 1,000 mappings\)",
        ),
        # each field capped, not only the whole body: a title no page could show, a list no reader pages through
        ({"records": [{"id": "ADR-0001", "title": "x" * 10_001}]}, r"record ADR-0001's title \(text of at most 10,000"),
        (
            {"records": [{"id": "ADR-0001", "tags": ["t"] * 1_001}]},
            r"record ADR-0001's tags \(a list of at most 1,000 texts",
        ),
        (
            {"records": [{"id": "ADR-0001", "governs": ["g" * 10_001]}]},
            r"record ADR-0001's governs \(a list of at most",
        ),
        (
            {"records": [{"id": "ADR-0001", "links": [{}] * 1_001}]},
            r"record ADR-0001's links \(a list of at most 1,000 mappings",
        ),
        (
            {"records": [{"id": "ADR-0001", "sections": [{"heading": "h", "text": "x" * 1_000_001}]}]},
            "a text holding a NUL character or a lone surrogate, or over 1,000,000 characters",
        ),
        (
            {"records": [{"id": "ADR-0001", "versions": [{"reviews": [{"note": 1}]}]}]},
            r"record ADR-0001's versions \(texts, and",
        ),
        ({"following": {"repository": "p"}}, "what it follows"),
        ({"following": [{"repository": "p", "id": "ADR-0001", "reason": 3}]}, "what it follows"),
        ({"vectors": base64.b64encode(b"\0" * 16).decode()}, r"the vectors \(4 dimensions"),  # no contract sent
    ],
)
def test_anything_else_is_refused_naming_the_first_thing_wrong(change, said):
    with pytest.raises(UsageError, match=f"^the publish is not one adr hub publish sends: {said}") as refused:
        snapshot.checked({**GOOD, **change}, 4)
    assert refused.value.hint == "publish with adr hub publish"


def test_more_records_than_a_served_hub_takes_are_refused(monkeypatch):
    monkeypatch.setattr(snapshot, "MAX_RECORDS", 2)
    records = [{"id": f"ADR-{n:04d}"} for n in range(3)]
    with pytest.raises(UsageError, match=r"the records \(a list of at most 2\)"):
        snapshot.checked({**GOOD, "records": records, "chunks": []}, 4)
    assert len(snapshot.checked({**GOOD, "records": records[:2], "chunks": []}, 4).records) == 2


def test_a_deeply_nested_payload_is_read_without_recursion():
    deep: list = []
    for _ in range(5_000):
        deep = [deep]
    with pytest.raises(UsageError, match="versions"):
        snapshot.checked({**GOOD, "records": [{"id": "ADR-0001", "versions": [{"x": deep}]}]}, 4)
    nul: list = ["a\0"]
    for _ in range(5_000):
        nul = [nul]
    assert not snapshot._plain_texts({"k": nul})


@pytest.mark.parametrize(
    "remote, page",
    [
        ("git@github.com:acme/payments.git", "https://github.com/acme/payments"),
        ("ssh://git@gitlab.example.com:2222/acme/payments.git", "https://gitlab.example.com/acme/payments"),
        ("ssh://git@gitlab.example.com/group/sub/repo", "https://gitlab.example.com/group/sub/repo"),
        ("https://ci-token:s3cr3t@github.com/acme/payments.git", "https://github.com/acme/payments"),
        ("https://github.com/acme/payments/", "https://github.com/acme/payments"),
        ("http://git.internal:8080/acme/payments", "https://git.internal:8080/acme/payments"),
        ("/srv/git/payments.git", None),
        ("file:///srv/git/payments.git", None),
        ("", None),
        (None, None),
    ],
)
def test_a_remote_names_the_repository_s_page_and_never_its_credentials(remote, page):
    assert snapshot.web_url(remote) == page
