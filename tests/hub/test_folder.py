"""hub.folder: a hub folder is made empty or not at all, and read only when it is one."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from adr_memory.errors import AdrError, UsageError
from adr_memory.hub.folder import FolderStore
from adr_memory.hub.snapshot import Snapshot


def test_init_takes_an_empty_folder_and_reading_needs_a_hub(tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="holds files of its own"):
        FolderStore(tmp_path / "busy").init()
    with pytest.raises(UsageError, match="no hub folder"):
        FolderStore(tmp_path / "nothing").records()
    hub = FolderStore(tmp_path / "hub")
    assert hub.init() and hub.init() == [] and hub.records() == []


# ------------------------------------------------------------------ a folder hub, read and written through its store


DIM = 4


def _unit(*xs: float) -> list[float]:
    v = np.asarray(xs, dtype=np.float32)
    return list(v / np.linalg.norm(v))


def _snap(name, records, chunks=(), rows=None, commit=None, committed=None, following=()):
    vectors = np.asarray(rows, dtype=np.float32) if rows is not None else None
    contract = {"dim": DIM} if rows is not None else None
    return Snapshot(name, commit, contract, list(records), list(chunks), vectors, committed, list(following))


def _hub(tmp_path) -> FolderStore:
    hub = FolderStore(tmp_path / "hub")
    assert hub.init() == [f"created the hub folder {tmp_path / 'hub'}"]
    return hub


def _two(hub: FolderStore) -> None:
    """payments (PostgreSQL, accepted, tagged data; Stripe, proposed) and search (Kafka), with
    vectors along the axes."""
    hub.publish(
        _snap(
            "payments",
            [
                {"id": "ADR-0001", "title": "Keep orders in PostgreSQL", "status": "accepted", "tags": ["data"]},
                {"id": "ADR-0002", "title": "Take cards with Stripe", "status": "proposed"},
            ],
            [
                {"id": "ADR-0001", "section": "Decision", "text": "Orders live in PostgreSQL", "offset": 3},
                {"id": "ADR-0002", "section": "Decision", "text": "Stripe holds the cards", "offset": 0},
            ],
            [_unit(1, 0, 0, 0), _unit(0, 1, 0, 0)],
            commit="a" * 40,
        )
    )
    hub.publish(
        _snap(
            "search",
            [{"id": "ADR-0001", "title": "Publish changes on Kafka", "status": "accepted"}],
            [{"id": "ADR-0001", "section": "Decision", "text": "Every change is an event on Kafka"}],
            [_unit(0.8, 0, 0.6, 0)],
        )
    )


def test_a_publish_is_kept_unchanged_or_refused_as_older_by_what_it_says(tmp_path):
    hub = _hub(tmp_path)
    snap = _snap("payments", [{"id": "ADR-0001"}], commit="b" * 40, committed="2024-05-02T10:00:00Z")
    assert hub.publish(snap) == "published"
    assert hub.publish(_snap("payments", [{"id": "ADR-0001"}], commit="b" * 40, committed="2024-05-02T10:00:00Z")) == (
        "unchanged"
    )
    late = _snap("payments", [{"id": "ADR-0009"}], commit="c" * 40, committed="2024-05-01T10:00:00Z")
    assert hub.publish(late) == "older"  # an earlier push's CI that finished last
    (listed,) = hub.repositories()
    assert (listed["name"], listed["commit"], listed["records"]) == ("payments", "b" * 40, 1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", listed["published_at"])
    newer = _snap(
        "payments", [{"id": "ADR-0001"}, {"id": "ADR-0002"}], commit="d" * 40, committed="2024-05-03T10:00:00Z"
    )
    assert hub.publish(newer) == "published" and hub.repositories()[0]["records"] == 2


def test_records_and_docs_are_read_by_repository_and_name(tmp_path):
    hub = _hub(tmp_path)
    _two(hub)
    assert [(d["repository"], d["id"]) for d in hub.records()] == [
        ("payments", "ADR-0001"),
        ("payments", "ADR-0002"),
        ("search", "ADR-0001"),
    ]
    assert [d["title"] for d in hub.records("search")] == ["Publish changes on Kafka"]
    assert hub.records("nobody") == []
    found = hub.docs([("search", "ADR-0001"), ("payments", "ADR-0009")])
    assert list(found) == [("search", "ADR-0001")] and found["search", "ADR-0001"]["repository"] == "search"
    assert hub.holds("payments") and not hub.holds("nobody")


def test_the_nearest_passages_are_ranked_by_cosine_across_repositories(tmp_path):
    hub = _hub(tmp_path)
    _two(hub)
    hub.publish(_snap("empty", [{"id": "ADR-0001"}]))  # no model ran there: nothing to rank
    rows = hub.nearest(_unit(1, 0, 0, 0), 10)
    assert [(r[0], r[1]) for r in rows] == [("payments", "ADR-0001"), ("search", "ADR-0001"), ("payments", "ADR-0002")]
    assert [round(r[4], 4) for r in rows] == [1.0, 0.8, 0.0]
    assert rows[0][2:4] == ("Decision", "Orders live in PostgreSQL") and rows[0][5] == 3
    assert [r[1] for r in hub.nearest(_unit(1, 0, 0, 0), 1)] == ["ADR-0001"]
    assert [r[0] for r in hub.nearest(_unit(1, 0, 0, 0), 10, repository="search")] == ["search"]
    assert [(r[0], r[1]) for r in hub.nearest(_unit(1, 0, 0, 0), 10, status="proposed")] == [("payments", "ADR-0002")]
    assert [(r[0], r[1]) for r in hub.nearest(_unit(0, 1, 0, 0), 10, tag="data")] == [("payments", "ADR-0001")]


def test_a_question_s_words_no_passage_uses_are_named(tmp_path):
    hub = _hub(tmp_path)
    _two(hub)
    assert hub.unused(["orders", "postgres", "kafka", "cdn"]) == ["cdn"]
    assert hub.unused(["orders", "kafka"], repository="search") == ["orders"]
    assert hub.unused([]) == []


def test_each_version_s_text_is_kept_apart_from_the_records_listed(tmp_path):
    hub = _hub(tmp_path)
    versions = [{"version_id": "v2", "text": "two"}, {"version_id": "v1", "text": "one"}]
    hub.publish(_snap("shop", [{"id": "ADR-0001", "versions": versions}]))
    assert hub.records()[0]["versions"] == [{"version_id": "v2"}, {"version_id": "v1"}]
    assert hub.version_text("shop", "ADR-0001", "v1") == "one"
    assert hub.version_text("shop", "ADR-0001", "v3") is None
    assert hub.version_text("elsewhere", "ADR-0001", "v1") is None
    held = json.loads(next((tmp_path / "hub/repos").glob("shop-*.json")).read_text())
    assert held["records"][0]["versions"][0]["text"] == "two"  # the file keeps what was published


def test_who_follows_a_decision_is_what_each_follower_published(tmp_path):
    hub = _hub(tmp_path)
    hub.publish(_snap("platform", [{"id": "ADR-0003"}]))
    said = {"repository": "platform", "id": "ADR-0003", "state": "stale", "reason": "src changed", "exception": []}
    hub.publish(_snap("shop", [{"id": "ADR-0001"}], following=[said]))
    hub.publish(_snap("web", [{"id": "ADR-0001"}], following=[{**said, "state": "fresh", "reason": ""}]))
    assert hub.followers("platform", "ADR-0003") == [
        {"follower": "shop", "state": "stale", "reason": "src changed", "exception": []},
        {"follower": "web", "state": "fresh", "reason": "", "exception": []},
    ]
    assert hub.followers("platform", "ADR-0001") == []


def test_a_rename_carries_the_decisions_and_what_others_say_of_them(tmp_path):
    hub = _hub(tmp_path)
    hub.publish(_snap("old-name", [{"id": "ADR-0003"}], commit="e" * 40))
    named = {"repository": "old-name", "id": "ADR-0003"}
    hub.publish(
        _snap("shop", [{"id": "ADR-0001", "exceptions": [dict(named)]}], following=[{**named, "state": "exception"}])
    )
    assert hub.rename("old-name", "platform")
    assert not hub.holds("old-name") and hub.repositories()[0]["commit"] == "e" * 40
    assert [d["repository"] for d in hub.records()] == ["platform", "shop"]
    shop = hub.records("shop")[0]
    assert shop["exceptions"] == [{"repository": "platform", "id": "ADR-0003"}]
    assert hub.followers("platform", "ADR-0003")[0]["follower"] == "shop"
    assert not hub.rename("old-name", "elsewhere")  # nothing of that name any more
    with pytest.raises(UsageError, match=r"^the hub holds 'shop' already$") as taken:
        hub.rename("platform", "shop")
    assert taken.value.hint == "adr hub remove shop first"
    assert hub.remove("platform") and not hub.remove("platform")
    assert [r["name"] for r in hub.repositories()] == ["shop"]


def test_names_that_read_alike_as_files_are_kept_apart(tmp_path):
    hub = _hub(tmp_path)
    hub.publish(_snap("acme/payments", [{"id": "ADR-0001", "title": "slash"}]))
    hub.publish(_snap("acme-payments", [{"id": "ADR-0001", "title": "dash"}]))
    files = sorted(p.name for p in (tmp_path / "hub/repos").glob("*.json"))
    assert len(files) == 2 and all(re.fullmatch(r"acme-payments-[0-9a-f]{8}\.json", f) for f in files)
    assert {(d["repository"], d["title"]) for d in hub.records()} == {
        ("acme/payments", "slash"),
        ("acme-payments", "dash"),
    }


def test_a_damaged_repository_file_is_passed_over_and_a_replaced_one_read_again(tmp_path):
    hub = _hub(tmp_path)
    hub.publish(_snap("shop", [{"id": "ADR-0001", "title": "first"}]))
    hub.publish(_snap("web", [{"id": "ADR-0001"}]))
    reader = FolderStore(tmp_path / "hub")  # a long-lived reader, an MCP server's
    assert [d["title"] for d in reader.records("shop")] == ["first"]
    hub.publish(_snap("shop", [{"id": "ADR-0001", "title": "second"}]))
    assert [d["title"] for d in reader.records("shop")] == ["second"]
    next((tmp_path / "hub/repos").glob("web-*.json")).write_text("{not json")
    assert [r["name"] for r in reader.repositories()] == ["shop"]
    (tmp_path / "hub/repos/stray.json").write_text(json.dumps({"no": "repository"}))
    assert [r["name"] for r in FolderStore(tmp_path / "hub").repositories()] == ["shop"]


def test_a_publish_that_cannot_be_written_says_nothing_was_published(tmp_path, monkeypatch):
    from adr_memory.hub import folder

    hub = _hub(tmp_path)

    def refuse(path, data):
        raise AdrError(f"cannot write {path.name}: disk full")

    with monkeypatch.context() as mp:
        mp.setattr(folder, "write_atomic", refuse)
        with pytest.raises(AdrError, match=r"^cannot publish to the hub folder: cannot write .*: disk full$") as failed:
            hub.publish(_snap("shop", [{"id": "ADR-0001"}]))
    assert failed.value.hint == "nothing was published"
    assert hub.repositories() == []


def test_tokens_are_kept_as_hashes_used_revoked_and_their_names_freed(tmp_path):
    hub = _hub(tmp_path)
    hub.add_token("ci", "d" * 64, ["publish:shop"])
    with pytest.raises(UsageError, match=r"^a token named 'ci' exists$") as taken:
        hub.add_token("ci", "e" * 64, ["read"])
    assert taken.value.hint == "adr hub token revoke ci, or another name"
    (listed,) = hub.tokens()
    assert listed["name"] == "ci" and listed["scopes"] == ["publish:shop"] and listed["revoked"] is None
    assert "digest" not in listed and listed["last_used"] is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\dZ", listed["created"])
    assert hub.token("d" * 64) == {"name": "ci", "scopes": ["publish:shop"]}
    assert hub.tokens()[0]["last_used"] is not None
    assert hub.token("f" * 64) is None
    assert hub.revoke("ci") and not hub.revoke("nobody")
    assert hub.token("d" * 64) is None and hub.tokens()[0]["revoked"] is not None
    hub.add_token("ci", "e" * 64, ["read"])  # a revoked token's name is free again
    assert hub.token("e" * 64) == {"name": "ci", "scopes": ["read"]}
    assert hub.token("d" * 64) is None  # the old one stays refused
    kept = json.loads((tmp_path / "hub/tokens.json").read_text())
    assert kept["ci"]["digest"] == "e" * 64


def test_a_folder_that_is_no_hub_is_named_for_every_reader_and_writer(tmp_path):
    hub = FolderStore(tmp_path / "nothing")
    for act in (
        hub.repositories,
        lambda: hub.publish(_snap("shop", [])),
        lambda: hub.remove("shop"),
        lambda: hub.rename("a", "b"),
        lambda: hub.add_token("ci", "d", ["read"]),
        hub.tokens,
        lambda: hub.revoke("ci"),
    ):
        with pytest.raises(UsageError, match=r"is no hub folder$") as said:
            act()
        assert said.value.hint == f"adr hub init --to {tmp_path / 'nothing'}"
