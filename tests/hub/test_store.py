"""The hub, the same tests on both stores: publish replaces a repository's state whole and is
idempotent; a deleted record leaves; search answers across repositories naming them, alike on
both stores; an organisation key held two ways is listed; credentials never show."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from adr_memory.errors import UsageError
from adr_memory.hub import Snapshot, reading, store
from adr_memory.records import redact_url
from tests.helpers import adr_text, commit, run, service


@pytest.fixture
def org(tmp_path):
    payments = service(
        tmp_path / "payments",
        "payments",
        {
            "docs/adr/0001-pg.md": adr_text(
                "Keep orders in PostgreSQL",
                extra="conflict-key: org.primary_database\nvalue: PostgreSQL",
                body="Orders, refunds and ledgers live in PostgreSQL 16.",
            ),
            "docs/adr/0002-stripe.md": adr_text("Take card payments with Stripe", body="Stripe holds the cards."),
        },
    )
    search = service(
        tmp_path / "search",
        "search",
        {
            "docs/adr/0001-mongo.md": adr_text(
                "Keep the catalogue in MongoDB",
                extra="conflict-key: org.primary_database\nvalue: MongoDB",
                body="The product catalogue lives in MongoDB documents.",
            ),
            "docs/adr/0002-kafka.md": adr_text(
                "Publish catalogue changes on Kafka",
                body="Every change to a product is an event on the shared Kafka cluster.",
            ),
        },
    )
    return payments, search


def _publish(capsys, monkeypatch, root, url, *extra):
    monkeypatch.chdir(root)
    return run(capsys, "hub", "publish", "--to", url, "--json", *extra)


def test_publish_and_read_across_repositories(org, hub_url, capsys, monkeypatch, model_cache):
    payments, search = org
    run(capsys, "hub", "init", "--to", hub_url)
    first = json.loads(_publish(capsys, monkeypatch, payments, hub_url).out)
    assert (first["repository"], first["records"], first["changed"]) == ("payments", 2, True)  # the name, no token
    assert json.loads(_publish(capsys, monkeypatch, payments, hub_url).out)["changed"] is False  # idempotent
    _publish(capsys, monkeypatch, search, hub_url)
    listed = json.loads(run(capsys, "hub", "list", "--from", hub_url, "--json").out)
    assert {(r["repository"], r["id"]) for r in listed} == {
        ("payments", "ADR-0001"),
        ("payments", "ADR-0002"),
        ("search", "ADR-0001"),
        ("search", "ADR-0002"),
    }
    answer = json.loads(run(capsys, "hub", "search", "where do card numbers live", "--from", hub_url, "--json").out)
    assert (answer["results"][0]["repository"], answer["results"][0]["id"]) == ("payments", "ADR-0002")
    events = json.loads(
        run(capsys, "hub", "search", "how are product changes announced", "--from", hub_url, "--json").out
    )
    assert (events["results"][0]["repository"], events["results"][0]["id"]) == ("search", "ADR-0002")
    found = json.loads(run(capsys, "hub", "conflicts", "--from", hub_url, "--json").out)["conflicts"]
    assert [c["key"] for c in found] == ["org.primary_database"]
    assert {h["repository"] for h in found[0]["holders"]} == {"payments", "search"}
    commit(payments, {"docs/adr/0002-stripe.md": None}, "drop stripe")
    _publish(capsys, monkeypatch, payments, hub_url)
    left = {(r["repository"], r["id"]) for r in json.loads(run(capsys, "hub", "list", "--from", hub_url, "--json").out)}
    assert ("payments", "ADR-0002") not in left and ("payments", "ADR-0001") in left


def test_a_publish_that_fails_part_way_leaves_the_previous_state(org, hub_url, capsys, monkeypatch, model_cache):
    payments, _search = org
    run(capsys, "hub", "init", "--to", hub_url)
    _publish(capsys, monkeypatch, payments, hub_url)
    from adr_memory.commands import hub as hub_cmd
    from adr_memory.history import Workspace

    snap = hub_cmd.snapshot(Workspace.discover(payments))
    snap.records.append({"id": None})  # a record PostgreSQL cannot take: the transaction fails midway
    import os

    def killed(*_args):
        raise OSError("killed")

    hub = store.open_store(hub_url)
    with monkeypatch.context() as patched:
        if not hub_url.startswith("postgresql"):  # a folder: the process dies before the new file is in place
            patched.setattr(os, "replace", killed)
        with pytest.raises(Exception):  # noqa: B017 - whatever the store raises, nothing is half-written
            hub.publish(snap)
    hub.close()
    kept = json.loads(run(capsys, "hub", "list", "--from", hub_url, "--json").out)
    assert [r["id"] for r in kept] == ["ADR-0001", "ADR-0002"]


def test_the_two_stores_answer_alike(org, capsys, monkeypatch, tmp_path, pg_server, model_cache):
    from tests.hub.conftest import _database

    payments, search = org
    answers = []
    for url in (str(tmp_path / "hub"), _database(pg_server)):
        run(capsys, "hub", "init", "--to", url)
        _publish(capsys, monkeypatch, payments, url)
        _publish(capsys, monkeypatch, search, url)
        got = json.loads(run(capsys, "hub", "search", "which database holds the orders", "--from", url, "--json").out)
        answers.append([(r["repository"], r["id"]) for r in got["results"]][:2])
    assert answers[0] == answers[1] and answers[0][0] == ("payments", "ADR-0001")


def test_a_hub_that_cannot_be_reached_is_one_error_and_never_shows_its_password(capsys, monkeypatch, repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    failed = run(capsys, "hub", "publish", "--to", "postgresql://hub:pa55w0rdX@127.0.0.1:9/hub", code=2)
    assert failed.err.startswith("error: cannot reach the hub at postgresql://127.0.0.1:9/hub")
    assert "pa55w0rdX" not in failed.err + failed.out
    assert run(capsys, "hub", "list", code=2).err.startswith("error: no hub named")
    assert redact_url("postgresql://u:p@h/db") == "postgresql://h/db"
    assert reading.ORG_KEY == "org."


def test_eight_publishers_at_once_and_a_reader_see_whole_states(hub_url):
    """Each repository's state arrives whole: a reader during the publishes counts, for every
    repository it sees, all of its records."""
    import threading

    import numpy as np

    from adr_memory.hub.snapshot import Snapshot

    hub = store.open_store(hub_url)
    hub.init()

    def snap(n):
        records = [{"id": f"ADR-{i:04d}", "title": f"R{n} {i}", "status": "accepted"} for i in range(1, 21)]
        chunks = [{"id": r["id"], "section": "Decision", "text": r["title"]} for r in records]
        vectors = np.tile(np.eye(1, 384, n, dtype=np.float32), (len(chunks), 1))
        return Snapshot(f"repo-{n}", f"{n:040x}", {"dim": 384}, records, chunks, vectors)

    seen = []
    done = threading.Event()

    def reader():
        while not done.is_set():
            counts = {}
            for doc in store.open_store(hub_url).records():
                counts[doc["repository"]] = counts.get(doc["repository"], 0) + 1
            seen.append(counts)

    watching = threading.Thread(target=reader)
    watching.start()
    publishers = [threading.Thread(target=lambda n=n: store.open_store(hub_url).publish(snap(n))) for n in range(8)]
    for t in publishers:
        t.start()
    for t in publishers:
        t.join()
    done.set()
    watching.join()
    assert all(set(counts.values()) <= {20} for counts in seen)  # never half a repository
    assert len(hub.repositories()) == 8


def test_a_hostile_record_leaks_no_credential_into_the_hub(hub_url, repo, capsys, model_cache):
    secret = "AKIAZ7Q4XK2M9P3LR8TW"
    commit(repo, {"docs/adr/0001-a.md": adr_text(f"Use key {secret}", body=f"The deploy key is {secret}.")})
    run(capsys, "hub", "init", "--to", hub_url)
    run(capsys, "hub", "publish", "--to", hub_url, "--name", "leaky")
    dumped = json.dumps(store.open_store(hub_url).records())
    assert secret not in dumped and "[REDACTED" in dumped


def test_one_decision_and_the_timeline_as_published(org, hub_url, capsys, monkeypatch, model_cache):
    payments, _search = org
    commit(
        payments,
        {"docs/adr/0002-stripe.md": adr_text("Take card payments with Stripe", status="deprecated", body="Gone.")},
        "Retire Stripe: the bank takes cards now",
    )
    run(capsys, "hub", "init", "--to", hub_url)
    _publish(capsys, monkeypatch, payments, hub_url)
    shown = json.loads(run(capsys, "hub", "show", "payments", "2", "--from", hub_url, "--json").out)
    assert (shown["repository"], shown["id"], shown["status"]) == ("payments", "ADR-0002", "deprecated")
    assert [v["status"] for v in shown["versions"]] == ["deprecated", "accepted"]  # newest first, as `adr log`
    assert "Gone." in run(capsys, "hub", "show", "payments", "ADR-0002", "--from", hub_url).out
    missing = run(capsys, "hub", "show", "payments", "9", "--from", hub_url, code=2)
    assert missing.err.startswith("error: no decision '9' of payments") and "ADR-0001" in missing.err
    events = json.loads(run(capsys, "hub", "timeline", "--from", hub_url, "--json").out)["events"]
    status = [e for e in events if e["kind"] == "status"]
    assert [(e["id"], e["detail"]) for e in status] == [("ADR-0002", "accepted -> deprecated")]
    assert [e["date"] for e in events] == sorted((e["date"] for e in events), reverse=True)
    assert len([e for e in events if e["kind"] == "version"]) == 3  # two records, one rewritten
    assert json.loads(run(capsys, "hub", "timeline", "--from", hub_url, "--since", "2999-01-01", "--json").out) == {
        "events": []
    }
    wrong = run(capsys, "hub", "timeline", "--from", hub_url, "--since", "last week", code=2)
    assert wrong.err.startswith("error: since 'last week' is not a date") and "Traceback" not in wrong.err


def test_words_no_decision_uses_lower_the_hub_confidence(org, hub_url, capsys, monkeypatch, model_cache):
    payments, search = org
    run(capsys, "hub", "init", "--to", hub_url)
    _publish(capsys, monkeypatch, payments, hub_url)
    _publish(capsys, monkeypatch, search, hub_url)
    hub = store.open_store(hub_url)
    try:
        # stemmed ("payments"), a prefix ("postgres"), and words nobody wrote
        assert hub.unused(["payments", "postgres", "catalogue", "zanzibar", "teleportation"]) == [
            "zanzibar",
            "teleportation",
        ]
        assert hub.unused(["catalogue"], "payments") == ["catalogue"]  # one repository's words only
    finally:
        hub.close()
    asked = "which telemetry vendor do we send traces to"  # nothing here says telemetry or traces
    answer = json.loads(run(capsys, "hub", "search", asked, "--from", hub_url, "--json").out)
    assert {"telemetry", "vendor", "traces"} <= set(answer["signals"]["unknown"])
    assert answer["confidence"] != "high"
    known = json.loads(run(capsys, "hub", "search", "where do card numbers live", "--from", hub_url, "--json").out)
    assert known["signals"]["unknown"] == ["numbers"] and known["results"][0]["id"] == "ADR-0002"


def test_the_hub_named_in_the_user_s_own_config_and_never_a_repository_s(tmp_path, capsys, monkeypatch, repo):
    monkeypatch.delenv("ADR_HUB_URL", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    hub = tmp_path / "hub"
    (tmp_path / "config" / "adr-memory").mkdir(parents=True)
    (tmp_path / "config" / "adr-memory" / "config.toml").write_text(f'hub-url = "{hub}"\n')
    run(capsys, "hub", "init")
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use queues")})
    run(capsys, "hub", "publish", "--name", "mine")
    assert [r["id"] for r in json.loads(run(capsys, "hub", "list", "--json").out)] == ["ADR-0001"]
    commit(repo, {".adr-memory.toml": f'hub-url = "{tmp_path / "elsewhere"}"\n'})
    refused = run(capsys, "hub", "publish", "--name", "mine", code=2)
    assert refused.err.startswith("error: hub-url in .adr-memory.toml is not read from a repository")


def test_search_within_one_status_or_tag(org, hub_url, capsys, monkeypatch, model_cache):
    payments, search = org
    commit(
        search,
        {"docs/adr/0003-avro.md": adr_text("Describe events in Avro", extra="tags: [events]", body="Avro schemas.")},
    )
    run(capsys, "hub", "init", "--to", hub_url)
    _publish(capsys, monkeypatch, payments, hub_url)
    _publish(capsys, monkeypatch, search, hub_url)

    def ask(*flags):
        out = run(capsys, "hub", "search", "how are product changes announced", "--from", hub_url, "--json", *flags)
        return [(r["repository"], r["id"]) for r in json.loads(out.out)["results"]]

    assert ask()[0] == ("search", "ADR-0002")
    assert ask("--tag", "events") == [("search", "ADR-0003")]  # the tagged one alone
    assert ask("--status", "rejected") == []  # no rejected decision anywhere: nothing to answer with
    assert set(ask("--status", "accepted")) == set(ask())


def test_a_recorded_exception_is_no_conflict_and_fail_exits_1_on_a_real_one(
    hub_url, tmp_path, capsys, monkeypatch, model_cache
):
    """The hub listed a service's recorded exception (a local decision superseding the
    organisation's) as a conflict between teams, and `hub conflicts` exited 0 on conflicts."""
    bus = "conflict-key: org.event_bus\nvalue: {}"
    central = service(
        tmp_path / "architecture",
        "architecture",
        {"docs/adr/0001-kafka.md": adr_text("Publish events on Kafka", extra=bus.format("Kafka"))},
    )
    payments = service(tmp_path / "payments", "payments", {"docs/adr/0001-fastapi.md": adr_text("Use FastAPI")})
    monkeypatch.chdir(payments)
    run(capsys, "sources", "add", "platform", str(central))
    run(capsys, "sources", "update")
    run(capsys, "new", "Publish payment events on SQS", "--key", "org.event_bus", "--value", "SQS", "-s", "platform:1")
    run(capsys, "accept", "2")
    commit(payments, {}, "our exception to the event bus")
    run(capsys, "hub", "init", "--to", hub_url)
    for root in (central, payments):
        _publish(capsys, monkeypatch, root, hub_url)
    (mine,) = [
        r for r in json.loads(run(capsys, "hub", "list", "--from", hub_url, "--json").out) if r["id"] == "ADR-0002"
    ]
    assert mine["exceptions"] == [{"repository": "architecture", "id": "ADR-0001", "source": "platform"}]
    assert json.loads(run(capsys, "hub", "conflicts", "--from", hub_url, "--json", "--fail").out)["conflicts"] == []
    search = service(
        tmp_path / "search",
        "search",
        {"docs/adr/0001-rabbit.md": adr_text("Publish events on RabbitMQ", extra=bus.format("RabbitMQ"))},
    )
    _publish(capsys, monkeypatch, search, hub_url)
    found = json.loads(run(capsys, "hub", "conflicts", "--from", hub_url, "--json", "--fail", code=1).out)
    assert [{h["repository"] for h in c["holders"]} for c in found["conflicts"]] == [{"architecture", "search"}]


def test_publishes_of_one_repository_at_once_serialise_and_the_later_commit_stays(hub_url):
    """Two pushes in quick succession: 2-3 of 8 publishes failed with UniqueViolation on
    PostgreSQL, and whichever finished last won, an earlier commit over a later one."""
    hub = store.open_store(hub_url)
    hub.init()

    def snap(n):
        records = [{"id": "ADR-0001", "title": f"Version {n}", "status": "accepted"}]
        chunks = [{"id": "ADR-0001", "section": "Decision", "text": f"Version {n}"}]
        vectors = np.eye(1, 384, n, dtype=np.float32)
        return Snapshot("payments", f"{n:040x}", {"dim": 384}, records, chunks, vectors, f"2026-12-0{n + 1}T10:00:00Z")

    said: list[object] = []
    publishers = [
        threading.Thread(target=lambda n=n: said.append(store.open_store(hub_url).publish(snap(n)))) for n in range(8)
    ]
    for t in publishers:
        t.start()
    for t in publishers:
        t.join()
    assert len(said) == 8 and set(said) <= {"published", "older"}, said  # never an error
    (held,) = hub.records()
    assert held["title"] == "Version 7"  # the latest commit, whatever order they finished in
    assert hub.publish(snap(3)) == "older" and hub.records()[0]["title"] == "Version 7"
    assert hub.publish(snap(7)) == "unchanged"


def test_tokens_are_kept_hashed_used_and_revoked_and_a_repository_removed_or_renamed(hub_url):
    from adr_memory.hub import tokens

    hub = store.open_store(hub_url)
    hub.init()
    made = tokens.new()
    hub.add_token("ci-payments", tokens.digest(made), ["publish:payments"])
    with pytest.raises(UsageError):
        hub.add_token("ci-payments", tokens.digest(tokens.new()), ["read"])
    assert hub.token(tokens.digest(made)) == {"name": "ci-payments", "scopes": ["publish:payments"]}
    assert hub.token(tokens.digest(tokens.new())) is None
    (listed,) = hub.tokens()
    assert listed["name"] == "ci-payments" and listed["last_used"] and listed["revoked"] is None
    assert made not in json.dumps(hub.tokens()) and tokens.digest(made) not in json.dumps(hub.tokens())
    assert hub.revoke("ci-payments") and not hub.revoke("nobody")
    assert hub.token(tokens.digest(made)) is None and hub.tokens()[0]["revoked"]
    again = tokens.new()  # a revoked token's name is free again, for its replacement
    hub.add_token("ci-payments", tokens.digest(again), ["publish:payments"])
    assert hub.token(tokens.digest(again))["name"] == "ci-payments" and hub.token(tokens.digest(made)) is None
    assert not hub.tokens()[0]["revoked"]

    records = [{"id": "ADR-0001", "title": "Use Kafka", "status": "accepted"}]
    chunks = [{"id": "ADR-0001", "section": "Decision", "text": "Use Kafka"}]
    vectors = np.eye(1, 384, 0, dtype=np.float32)
    for name in ("payments", "search"):
        hub.publish(Snapshot(name, "1" * 40, {"dim": 384}, records, chunks, vectors))
    assert hub.rename("payments", "billing") and not hub.rename("payments", "x")
    with pytest.raises(UsageError):
        hub.rename("billing", "search")
    assert sorted(r["name"] for r in hub.repositories()) == ["billing", "search"]
    assert [d["repository"] for d in hub.records("billing")] == ["billing"]
    assert hub.nearest(vectors[0], 5, "billing")[0][:2] == ("billing", "ADR-0001")
    assert hub.remove("search") and not hub.remove("search")
    assert [r["name"] for r in hub.repositories()] == ["billing"]


def test_each_organisation_decision_says_who_follows_it_who_is_stale_and_who_made_an_exception(
    hub_url, tmp_path, capsys, monkeypatch, model_cache
):
    """A service published its own decisions only: the hub could not say, per organisation
    decision, which repositories follow it, which recorded an exception, where its code moved."""
    central = service(
        tmp_path / "architecture",
        "architecture",
        {
            "docs/adr/0001-kafka.md": adr_text(
                "Publish events on Kafka", extra="conflict-key: org.event_bus\nvalue: Kafka"
            ),
            "docs/adr/0002-db.md": adr_text("Keep data in PostgreSQL", governs=["src/db/**"]),
        },
    )
    services = {}
    for name in ("payments", "search"):
        services[name] = service(
            tmp_path / name, name, {"docs/adr/0001-api.md": adr_text("Use FastAPI"), "src/db/a.py": "1"}
        )
        monkeypatch.chdir(services[name])
        run(capsys, "sources", "add", "platform", str(central))
        run(capsys, "sources", "update")
        commit(services[name], {}, "pin the organisation's decisions")
    monkeypatch.chdir(services["payments"])
    run(capsys, "new", "Publish payment events on SQS", "--key", "org.event_bus", "--value", "SQS", "-s", "platform:1")
    run(capsys, "accept", "2")
    commit(services["payments"], {"src/db/a.py": "2"}, "our exception, and the database code moves on")
    run(capsys, "hub", "init", "--to", hub_url)
    for root in (central, *services.values()):
        _publish(capsys, monkeypatch, root, hub_url)
    shown = json.loads(run(capsys, "hub", "show", "architecture", "1", "--from", hub_url, "--json").out)
    assert {(f["follower"], f["state"]) for f in shown["followed_by"]} == {
        ("payments", "exception"),
        ("search", "follows"),
    }
    (excepted,) = [f for f in shown["followed_by"] if f["follower"] == "payments"]
    assert excepted["exception"] == ["ADR-0002"]
    database = json.loads(run(capsys, "hub", "show", "architecture", "2", "--from", hub_url, "--json").out)
    assert {(f["follower"], f["state"]) for f in database["followed_by"]} == {
        ("payments", "stale"),
        ("search", "fresh"),
    }
    # renamed, the organisation's repository keeps its followers and exceptions; removed, it lists none
    run(capsys, "hub", "rename", "architecture", "platform", "--from", hub_url)
    moved = json.loads(run(capsys, "hub", "show", "platform", "1", "--from", hub_url, "--json").out)
    assert {(f["follower"], f["state"]) for f in moved["followed_by"]} == {
        ("payments", "exception"),
        ("search", "follows"),
    }
    excepted = json.loads(run(capsys, "hub", "exceptions", "--from", hub_url, "--json").out)["exceptions"]
    assert [(e["repository"], e["id"], e["by"]) for e in excepted] == [("platform", "ADR-0001", "payments")]
    run(capsys, "hub", "remove", "platform", "--from", hub_url)
    assert json.loads(run(capsys, "hub", "exceptions", "--from", hub_url, "--json").out)["exceptions"] == []


def test_each_version_s_text_is_kept_apart_and_follows_its_repository(hub_url):
    """Lists and reads carry no version text; `version_text` gives it, a rename carries it and
    a removal takes it away, on both stores."""
    hub = store.open_store(hub_url)
    hub.init()
    versions = [
        {"version_id": "ADR-0001@b", "text": "# Use Kafka\n\nnow"},
        {"version_id": "ADR-0001@a", "text": "# Use Kafka"},
    ]
    records = [{"id": "ADR-0001", "title": "Use Kafka", "status": "accepted", "versions": versions}]
    hub.publish(Snapshot("payments", "1" * 40, None, records, [], None))
    assert "text" not in json.dumps(hub.records()) and "text" not in json.dumps(reading.shown(hub, "payments", "1"))
    assert hub.version_text("payments", "ADR-0001", "ADR-0001@a") == "# Use Kafka"
    assert hub.version_text("payments", "ADR-0001", "ADR-0001@z") is None
    assert hub.holds("payments") and not hub.holds("billing") and hub.count() == 1
    assert hub.rename("payments", "billing")
    assert hub.holds("billing") and not hub.holds("payments") and hub.count() == 1
    assert hub.version_text("billing", "ADR-0001", "ADR-0001@b") == "# Use Kafka\n\nnow"
    assert hub.version_text("payments", "ADR-0001", "ADR-0001@b") is None
    assert hub.remove("billing") and hub.version_text("billing", "ADR-0001", "ADR-0001@b") is None
    assert hub.count() == 0


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://hub.example.org", "http"),
        ("HTTPS://hub.example.org", "http"),
        ("Http://127.0.0.1:8080", "http"),
        ("postgresql://hub@db/adr", "postgresql"),
        ("POSTGRES://hub@db/adr", "postgresql"),
        ("/srv/hub", ""),
        ("hub-folder", ""),
        ("ftp://elsewhere", ""),
    ],
)
def test_a_hub_url_is_read_by_its_scheme_in_any_case(url, kind):
    assert store.scheme(url) == kind


def test_a_served_hub_named_in_capitals_is_never_taken_for_a_folder(repo, capsys, monkeypatch):
    monkeypatch.delenv("ADR_HUB_TOKEN", raising=False)
    commit(repo, {"docs/adr/0001-use-x.md": adr_text("Use X")})
    refused = run(capsys, "hub", "publish", "--to", "HTTPS://hub.example.org", code=2)
    assert refused.err.startswith("error: a served hub takes a publish only with a token"), refused.err
    assert not (repo / "HTTPS:").exists()  # no folder store made beside the repository
    with pytest.raises(UsageError, match="a served hub is read through its API"):
        store.open_store("HTTP://hub.example.org")


def test_each_store_ranks_filters_and_renames_alike(hub_url):
    """The interface's answers, exact, on each store: the nearest passages by cosine (best first,
    with their offsets, within a status or a tag), the words no passage uses, a version's text,
    and who follows a decision after the repository holding it is renamed."""
    hub = store.open_store(hub_url)
    hub.init()
    axes = np.eye(3, 384, dtype=np.float32)
    mixed = (0.8 * axes[0] + 0.6 * axes[2]).reshape(1, 384)
    payments = [
        {"id": "ADR-0001", "title": "Orders", "status": "accepted", "tags": ["data"],
         "versions": [{"version_id": "v2", "text": "Orders live in PostgreSQL 16."}]},
        {"id": "ADR-0002", "title": "Cards", "status": "proposed"},
    ]  # fmt: skip
    chunks = [
        {"id": "ADR-0001", "section": "Decision", "text": "Orders live in PostgreSQL", "offset": 4},
        {"id": "ADR-0002", "section": "Decision", "text": "Stripe holds the cards", "offset": 0},
    ]
    hub.publish(Snapshot("payments", "1" * 40, {"dim": 384}, payments, chunks, axes[:2]))
    said = {"repository": "payments", "id": "ADR-0001", "state": "fresh", "reason": "unchanged", "exception": []}
    search = [{"id": "ADR-0001", "title": "Events", "status": "accepted"}]
    events = [{"id": "ADR-0001", "section": "Decision", "text": "Every change is an event on Kafka"}]
    hub.publish(Snapshot("search", "2" * 40, {"dim": 384}, search, events, mixed, following=[said]))

    def ranked(**kw):
        return [(r[0], r[1], round(r[4], 3), r[5]) for r in hub.nearest(axes[0], 10, **kw)]

    assert ranked() == [
        ("payments", "ADR-0001", 1.0, 4),
        ("search", "ADR-0001", 0.8, 0),
        ("payments", "ADR-0002", 0.0, 0),
    ]
    assert ranked(status="proposed") == [("payments", "ADR-0002", 0.0, 0)]
    assert ranked(tag="data") == [("payments", "ADR-0001", 1.0, 4)]
    assert ranked(repository="search") == [("search", "ADR-0001", 0.8, 0)]
    assert hub.unused(["orders", "kafka", "cdn"]) == ["cdn"]
    assert hub.unused(["orders", "kafka"], repository="search") == ["orders"]
    assert hub.version_text("payments", "ADR-0001", "v2") == "Orders live in PostgreSQL 16."
    assert hub.version_text("payments", "ADR-0001", "v1") is None
    assert "text" not in hub.records("payments")[0]["versions"][0]
    assert hub.rename("payments", "billing")
    assert hub.followers("billing", "ADR-0001") == [
        {"follower": "search", "state": "fresh", "reason": "unchanged", "exception": []}
    ]
    assert hub.followers("payments", "ADR-0001") == []
    assert hub.version_text("billing", "ADR-0001", "v2") == "Orders live in PostgreSQL 16."
    assert hub.docs([("billing", "ADR-0002")])[("billing", "ADR-0002")]["title"] == "Cards"
    hub.close()


def test_a_served_hub_is_no_store_and_a_store_is_named_by_its_url(tmp_path, monkeypatch):
    from adr_memory.hub.folder import FolderStore
    from adr_memory.hub.postgres import PostgresStore

    for url in ("https://hub.example.com", "http://localhost:8000"):
        with pytest.raises(UsageError, match=r"^a served hub is read through its API or pages") as served:
            store.open_store(url)
        assert served.value.hint == "name the store it serves (a folder or postgresql://...) for this command"
    assert isinstance(store.open_store("postgres://u@h/db"), PostgresStore)
    assert isinstance(store.open_store(str(tmp_path)), FolderStore)
    monkeypatch.setenv(store.ENV, " /from/env ")
    assert store.url_of("/from/flag") == "/from/flag" and store.url_of(None) == "/from/env"
    monkeypatch.setenv(store.ENV, "  ")
    with pytest.raises(UsageError, match=r"^no hub named$") as none:
        store.url_of("")
    assert none.value.hint.startswith(f"pass --to/--from URL (a folder or postgresql://...), set {store.ENV}")


@pytest.mark.parametrize("url", ["mysql://hubw:PASS@host/adr", "s3://bucket/hub?secret=PASS"])
def test_a_scheme_no_store_reads_is_refused_without_its_credentials(url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError) as refused:
        store.open_store(url)
    assert refused.value.message.startswith("no hub store reads ") and "PASS" not in refused.value.message
    assert refused.value.hint == "a hub is a folder, postgresql://... or a served hub's https://..."
    assert list(tmp_path.iterdir()) == []  # not taken for a folder's name
