"""hub.reading: the organisation's conflicts are its shared keys held two ways across repositories."""

from __future__ import annotations

from adr_memory.hub import reading


class _Records:
    def __init__(self, docs):
        self._docs = docs

    def records(self, repository=None):
        return [d for d in self._docs if repository in (None, d["repository"])]


def _doc(repo, ident, key, value, status="accepted", state=None):
    return {
        "repository": repo,
        "id": ident,
        "key": key,
        "value": value,
        "status": status,
        "cardinality": "single",
        "state": state,
    }


def test_only_organisation_keys_held_differently_across_repositories_conflict():
    docs = [
        _doc("a", "ADR-0001", "org.db", "PostgreSQL"),
        _doc("b", "ADR-0004", "org.db", "MongoDB", state="stale"),
        _doc("c", "ADR-0002", "org.queue", "Kafka"),
        _doc("d", "ADR-0003", "org.queue", "kafka"),  # the same value
        _doc("e", "ADR-0005", "project.db", "MySQL"),  # a repository's own key
        _doc("f", "ADR-0006", "org.db", "Oracle", status="superseded"),  # not in force
    ]
    found = reading.conflicts(_Records(docs))
    assert [c["key"] for c in found] == ["org.db"]
    assert {h["repository"] for h in found[0]["holders"]} == {"a", "b"}
    assert [d["id"] for d in reading.stale(_Records(docs))] == ["ADR-0004"]


def test_an_exception_only_proposed_is_none_yet(tmp_path):
    """The exceptions listed a proposed record as one, where `followed_by` and the repository's
    own standing said the organisation's decision was still followed."""
    from adr_memory.hub import Snapshot, reading, store

    hub = store.open_store(str(tmp_path / "hub"))
    hub.init()
    platform = {"repository": "platform", "id": "ADR-0003"}
    records = [
        {"id": "ADR-0002", "title": "Use SQS", "status": "accepted", "exceptions": [platform],
         "standing": {"state": "in-force", "in_force": True}},
        {"id": "ADR-0003", "title": "Use NATS", "status": "proposed", "exceptions": [platform],
         "standing": {"state": "proposed", "in_force": False}},
    ]  # fmt: skip
    hub.publish(Snapshot("platform", None, None, [{"id": "ADR-0003", "title": "Use Kafka"}], [], None))
    hub.publish(Snapshot("payments", None, None, records, [], None))
    assert [e["record"] for e in reading.excepted(hub)] == ["ADR-0002"]
