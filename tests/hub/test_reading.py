"""hub.reading: the organisation's conflicts are its shared keys held two ways across repositories."""

from __future__ import annotations

import pytest

from adr_memory.errors import UsageError
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


# ------------------------------------------------------------------ a folder hub's answers, as readers ask them


def _hub(tmp_path, *published):
    from adr_memory.hub import Snapshot, store

    hub = store.open_store(str(tmp_path / "hub"))
    hub.init()
    for name, records, following in published:
        hub.publish(Snapshot(name, None, None, records, [], None, following=following))
    return hub


def _version(commit, date, author, status, message, transitions=()):
    return {"commit": commit, "date": date, "author": author, "status": status, "message": message,
            "transitions": list(transitions)}  # fmt: skip


SHOP = [
    {
        "id": "ADR-0001",
        "title": "Use PostgreSQL",
        "status": "deprecated",
        "tags": ["data"],
        "versions": [  # newest first, as `adr log` gives them
            _version(
                "c2",
                "2024-03-05",
                "Bob",
                "accepted",
                "Say why",
                [
                    {"from": "accepted", "to": "deprecated", "date": "2024-04-01", "author": "Dan", "reason": "gone"},
                ],
            ),
            _version(
                "c1",
                "2024-03-01",
                "Ada",
                "proposed",
                "Propose",
                [
                    {"from": "proposed", "to": "accepted", "date": "2024-03-02", "author": "Cy", "reason": ""},
                ],
            ),
        ],
    },
    {
        "id": "ADR-0002",
        "title": "Use Stripe",
        "status": "accepted",
        "tags": ["payments", "data"],
        "versions": [{"commit": None, "date": None, "status": "accepted", "draft": True}],
    },
]


def test_decisions_are_listed_by_repository_status_and_tag(tmp_path):
    hub = _hub(tmp_path, ("shop", SHOP, []), ("web", [{"id": "ADR-0001", "status": "accepted"}], []))
    assert [(d["repository"], d["id"]) for d in reading.listed(hub)] == [
        ("shop", "ADR-0001"), ("shop", "ADR-0002"), ("web", "ADR-0001")
    ]  # fmt: skip
    assert [(d["repository"], d["id"]) for d in reading.listed(hub, status="accepted")] == [
        ("shop", "ADR-0002"), ("web", "ADR-0001")
    ]  # fmt: skip
    assert [d["id"] for d in reading.listed(hub, tag="data")] == ["ADR-0001", "ADR-0002"]
    assert [d["id"] for d in reading.listed(hub, "shop", status="accepted", tag="payments")] == ["ADR-0002"]
    assert reading.listed(hub, "web", tag="data") == []


def test_the_timeline_is_each_version_and_status_change_newest_first_with_who_and_why(tmp_path):
    hub = _hub(tmp_path, ("shop", SHOP, []))
    said = [(e["date"], e["kind"], e["author"], e["detail"]) for e in reading.timeline(hub)]
    assert said == [
        ("2024-04-01", "status", "Dan", "accepted -> deprecated: gone"),
        ("2024-03-05", "version", "Bob", "Say why"),
        ("2024-03-02", "status", "Cy", "proposed -> accepted"),
        ("2024-03-01", "version", "Ada", "Propose"),
    ]  # a draft is no event; the new version's status equals the one before it: no second status event
    assert all((e["repository"], e["id"]) == ("shop", "ADR-0001") for e in reading.timeline(hub))
    assert [e["date"] for e in reading.timeline(hub, since="2024-03-05")] == ["2024-04-01", "2024-03-05"]
    assert reading.timeline(hub, "web") == []
    with pytest.raises(UsageError, match=r"^since 'March' is not a date$") as said_wrong:
        reading.timeline(hub, since="March")
    assert said_wrong.value.hint == "write it as YYYY-MM-DD, e.g. 2026-01-31"


def test_a_version_whose_status_differs_from_the_one_before_is_a_status_event_too(tmp_path):
    record = {"id": "ADR-0001", "versions": [
        _version("c2", "2024-03-05", "Bob", "accepted", "Rewrite and accept"),
        _version("c1", "2024-03-01", "Ada", "proposed", "Propose"),
    ]}  # fmt: skip
    hub = _hub(tmp_path, ("shop", [record], []))
    assert [(e["kind"], e["author"], e["detail"]) for e in reading.timeline(hub)] == [
        ("version", "Bob", "Rewrite and accept"),
        ("status", "Bob", "proposed -> accepted"),
        ("version", "Ada", "Propose"),
    ]


def test_one_decision_is_shown_with_who_follows_it_and_a_wrong_name_lists_what_there_is(tmp_path):
    follows = {"repository": "shop", "id": "ADR-0002", "state": "fresh", "reason": "unchanged", "exception": []}
    hub = _hub(tmp_path, ("shop", SHOP, []), ("web", [{"id": "ADR-0001"}], [follows]))
    shown = reading.shown(hub, "shop", "2")  # named as a person types it
    assert (shown["repository"], shown["id"], shown["title"]) == ("shop", "ADR-0002", "Use Stripe")
    assert shown["followed_by"] == [{"follower": "web", "state": "fresh", "reason": "unchanged", "exception": []}]
    assert reading.shown(hub, "shop", "ADR-0001")["followed_by"] == []
    with pytest.raises(UsageError, match=r"^no decision '9' of shop in the hub$") as missing:
        reading.shown(hub, "shop", "9")
    assert missing.value.hint == "its decisions: ADR-0001, ADR-0002"
    with pytest.raises(UsageError, match=r"^no decision '1' of nobody in the hub$") as nowhere:
        reading.shown(hub, "nobody", "1")
    assert nowhere.value.hint == "`adr hub list` names the repositories"


def test_exceptions_are_listed_by_the_organisation_s_decision_and_only_while_it_is_held(tmp_path):
    platform = [{"id": "ADR-0003", "title": "Use Kafka"}, {"id": "ADR-0004", "title": "Use Vault"}]
    kafka, vault = {"repository": "platform", "id": "ADR-0003"}, {"repository": "platform", "id": "ADR-0004"}
    shop = [
        {"id": "ADR-0002", "title": "Use SQS", "status": "accepted", "exceptions": [kafka]},
        {"id": "ADR-0005", "title": "Use env files", "status": "proposed", "exceptions": [vault]},  # none yet
        {"id": "ADR-0006", "title": "Use a gone one", "status": "accepted", "exceptions": [{"repository": "gone", "id": "ADR-0001"}]},
    ]  # fmt: skip
    web = [{"id": "ADR-0001", "title": "Use NATS", "status": "accepted", "exceptions": [kafka, "junk"]}]
    hub = _hub(tmp_path, ("platform", platform, []), ("shop", shop, []), ("web", web, []))
    assert reading.excepted(hub) == [
        {"repository": "platform", "id": "ADR-0003", "by": "shop", "record": "ADR-0002", "title": "Use SQS"},
        {"repository": "platform", "id": "ADR-0003", "by": "web", "record": "ADR-0001", "title": "Use NATS"},
    ]  # a proposed record is no exception yet; one to a repository the hub no longer holds is not listed
