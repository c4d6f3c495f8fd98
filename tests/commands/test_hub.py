"""commands.hub: the hub's verbs, as the CLI and the MCP server call them, on a real folder store."""

from __future__ import annotations

import re

import pytest

from adr_memory.commands import hub
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from tests.helpers import adr_text, git, service, versioned


def test_publish_then_read_what_was_published(tmp_path, model_cache):
    root = service(
        tmp_path / "payments",
        "payments",
        {
            "docs/adr/0001-pg.md": adr_text(
                "Keep orders in PostgreSQL", extra="conflict-key: org.db\nvalue: PostgreSQL"
            ),
            "docs/adr/0002-old.md": adr_text(
                "Keep orders in MySQL", status="superseded", extra="superseded-by: [ADR-0001]"
            ),
        },
    )
    url = str(tmp_path / "hub")
    assert hub.init(url)["hub"] == url
    done = hub.publish(Workspace.discover(root), url)
    assert (done["repository"], done["records"], done["changed"]) == ("payments", 2, True)
    assert hub.publish(Workspace.discover(root), url)["changed"] is False
    listed = {d["id"]: d for d in hub.listing(url)}
    assert listed["ADR-0002"]["standing"]["retired_by"] == ["ADR-0001"]  # published with its standing
    assert hub.shown(url, "payments", "2")["title"] == "Keep orders in MySQL"
    assert hub.conflicts(url) == {"conflicts": []} and hub.stale(url) == {"decisions": []}
    assert {e["id"] for e in hub.timeline(url)["events"]} == {"ADR-0001", "ADR-0002"}


def test_a_published_decision_diffs_between_any_two_of_its_versions(tmp_path, model_cache):
    root = versioned(tmp_path / "shop")
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    said = hub.version_diff(url, "shop", "1")
    assert "-Orders live in MySQL 8." in said["diff"] and "+Orders live in PostgreSQL 16." in said["diff"]
    newest, oldest = (v["version_id"] for v in hub.shown(url, "shop", "1")["versions"])
    assert (said["from"], said["to"]) == (oldest, newest)
    first = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    backwards = hub.version_diff(url, "shop", "ADR-0001", newest, first[:8])  # by id, and by a commit's prefix
    assert "+Orders live in MySQL 8." in backwards["diff"] and backwards["to"] == oldest
    assert hub.version_diff(url, "shop", "1", oldest, oldest)["diff"] == "no differences"
    with pytest.raises(UsageError, match="is no version of ADR-0001") as told:
        hub.version_diff(url, "shop", "1", "nope")
    assert newest in (told.value.hint or "")
    with pytest.raises(UsageError, match="no decision"):
        hub.version_diff(url, "shop", "9")


def test_a_hub_published_to_before_versions_carried_their_text_says_to_publish_again(tmp_path):
    from adr_memory.hub import Snapshot

    url = str(tmp_path / "hub")
    hub.init(url)
    versions = [{"version_id": "ADR-0001@b", "commit": "b" * 40}, {"version_id": "ADR-0001@a", "commit": "a" * 40}]
    hub.open_hub(url).publish(Snapshot("old", None, None, [{"id": "ADR-0001", "versions": versions}], [], None))
    with pytest.raises(UsageError, match="holds no text of ADR-0001's version ADR-0001@a") as told:
        hub.version_diff(url, "old", "1")
    assert "publish old again" in (told.value.hint or "")


def test_the_operator_s_small_edges(tmp_path, model_cache):
    """A decision of a repository the hub does not hold names the nearest repository; a token
    scope is a repository's name; a publish token never goes over plain http to another machine."""
    root = versioned(tmp_path / "shop")
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    with pytest.raises(UsageError, match="no repository 'shpo' in the hub") as told:
        hub.shown(url, "shpo", "1")
    assert told.value.hint == "the nearest: shop"
    with pytest.raises(UsageError, match=r"'\.\./\.\./etc' is no repository name"):
        hub.token_add(url, "ci", publish=["../../etc"])
    with pytest.raises(UsageError, match="a publish token goes only over https"):
        hub.publish(Workspace.discover(root), "http://hub.example.org", token="adrh_x")


# ---------------------------------------------------------------------------- without a model: snapshots made by hand


def _snap(name="shop", commit="b" * 40, committed="2026-12-01T10:00:00Z", versions=None, title="Use PostgreSQL"):
    from adr_memory.hub import Snapshot

    record = {"id": "ADR-0001", "title": title, "status": "accepted", "path": "docs/adr/0001-db.md"}
    if versions is not None:
        record["versions"] = versions
    return Snapshot(name, commit, None, [record], [], None, committed)


@pytest.fixture
def folder_hub(tmp_path):
    url = str(tmp_path / "hub")
    hub.init(url)
    return url


def test_published_says_created_then_unchanged_then_kept_when_a_later_commit_is_held(folder_hub):
    store = hub.open_hub(folder_hub)
    assert hub.open_hub(store) is store  # a store already open is used as it is
    first = hub.published(store, _snap())
    assert first == {
        "repository": "shop",
        "commit": "b" * 40,
        "records": 1,
        "changed": True,
        "created": True,
        "kept_later": False,
    }
    again = hub.published(store, _snap())
    assert (again["changed"], again["created"], again["kept_later"]) == (False, False, False)
    later = hub.published(store, _snap(commit="c" * 40, committed="2026-12-02T10:00:00Z", title="Use PG 16"))
    assert (later["changed"], later["created"]) == (True, False)
    late_ci = hub.published(store, _snap(commit="a" * 40, committed="2026-11-30T10:00:00Z", title="Use MySQL"))
    assert (late_ci["changed"], late_ci["created"], late_ci["kept_later"]) == (False, False, True)
    assert [d["title"] for d in hub.listing(folder_hub)] == ["Use PG 16"]  # the later commit's state stays


def test_held_names_the_nearest_or_says_the_hub_is_empty(folder_hub):
    with pytest.raises(UsageError, match="no repository 'shop' in the hub") as told:
        hub.shown(folder_hub, "shop", "1")
    assert told.value.hint == "the hub holds no repository yet: adr hub publish"
    hub.published(hub.open_hub(folder_hub), _snap(name="payments"))
    with pytest.raises(UsageError) as told:
        hub.remove(folder_hub, "zzzz")
    assert told.value.hint == "the nearest: payments"  # nothing close: the first names it holds


def _versions():
    return [
        {"version_id": "vabc2", "commit": "2" * 40, "path": "docs/adr/0001-db.md", "text": adr_text("DB", body="Two.")},
        {"version_id": "vabc1", "commit": "1" * 40, "path": "docs/adr/0001-db.md", "text": adr_text("DB", body="One.")},
    ]


def test_version_diff_defaults_to_the_latest_and_the_one_before(folder_hub):
    hub.published(hub.open_hub(folder_hub), _snap(versions=_versions()))
    said = hub.version_diff(folder_hub, "shop", "ADR-0001")
    assert set(said) == {"repository", "id", "from", "to", "diff"}
    assert (said["repository"], said["id"], said["from"], said["to"]) == ("shop", "ADR-0001", "vabc1", "vabc2")
    assert "-One." in said["diff"] and "+Two." in said["diff"]
    only_old = hub.version_diff(folder_hub, "shop", "1", new="vabc1")  # the oldest has none before it: itself
    assert (only_old["from"], only_old["to"], only_old["diff"]) == ("vabc1", "vabc1", "no differences")
    by_commit = hub.version_diff(folder_hub, "shop", "1", old="2222", new="1111")
    assert (by_commit["from"], by_commit["to"]) == ("vabc2", "vabc1")


def test_a_version_named_ambiguously_or_too_shortly_is_refused_with_the_versions(folder_hub):
    hub.published(hub.open_hub(folder_hub), _snap(versions=_versions()))
    with pytest.raises(UsageError, match="'vabc' names more than one version of ADR-0001") as told:
        hub.version_diff(folder_hub, "shop", "1", old="vabc")
    assert told.value.hint == "its versions, newest first: vabc2, vabc1"
    with pytest.raises(UsageError, match="'222' is no version of ADR-0001"):  # a commit prefix needs four
        hub.version_diff(folder_hub, "shop", "1", old="222")


def test_a_decision_with_only_drafts_has_no_published_versions(folder_hub):
    draft = [{"version_id": "draft", "commit": None, "draft": True, "text": None}]
    hub.published(hub.open_hub(folder_hub), _snap(versions=draft))
    with pytest.raises(UsageError, match="shop ADR-0001 has no published versions"):
        hub.version_diff(folder_hub, "shop", "1")


def test_tokens_are_named_scoped_and_revoked_only_when_held(folder_hub):
    made = hub.token_add(folder_hub, "ci-shop", publish=["shop", "shop", " "])
    assert (made["name"], made["scopes"]) == ("ci-shop", ["publish:shop"])  # each name once
    assert made["token"] not in str(hub.token_list(folder_hub))
    with pytest.raises(UsageError, match="'ci shop' is not a token name"):
        hub.token_add(folder_hub, "ci shop", read=True)
    with pytest.raises(UsageError, match="a token reads or publishes"):
        hub.token_add(folder_hub, "both", read=True, publish=["shop"])
    assert hub.token_revoke(folder_hub, "ci-shop") == {"name": "ci-shop", "revoked": True, "already": False}
    assert hub.token_revoke(folder_hub, "ci-shop") == {"name": "ci-shop", "revoked": True, "already": True}
    with pytest.raises(UsageError, match="no token 'gone' in the hub"):
        hub.token_revoke(folder_hub, "gone")


def test_remove_and_rename_answer_what_they_did(folder_hub):
    hub.published(hub.open_hub(folder_hub), _snap(name="shop"))
    assert hub.rename(folder_hub, "shop", "store") == {"renamed": "shop", "to": "store"}
    assert [d["repository"] for d in hub.listing(folder_hub)] == ["store"]
    with pytest.raises(UsageError, match="'store' is its name already"):
        hub.rename(folder_hub, "store", "store")
    assert hub.remove(folder_hub, "store") == {"removed": "store"}
    assert hub.listing(folder_hub) == []


def test_a_conflict_key_is_read_with_its_cardinality_and_value():
    from types import SimpleNamespace

    def rec(meta):
        return SimpleNamespace(meta=meta)

    assert hub._key(rec({})) == (None, None, None)
    assert hub._key(rec({"conflict-key": "  "})) == (None, None, None)
    assert hub._key(rec({"conflict-key": ["org.db"]})) == (None, None, None)
    assert hub._key(rec({"conflict-key": " org.db ", "value": " PostgreSQL "})) == ("org.db", "single", "PostgreSQL")
    assert hub._key(rec({"conflict-key": "org.db", "cardinality": "MULTI"})) == ("org.db", "multi", "")


def test_a_served_hub_s_refusal_and_an_unreachable_one_are_errors_that_publish_nothing(repo, monkeypatch):
    import httpx

    from adr_memory.errors import AdrError
    from tests.helpers import commit

    commit(repo, {"docs/adr/0001-db.md": adr_text("Use PostgreSQL")})
    monkeypatch.setattr(hub, "snapshot", lambda ws, name=None: _snap())  # the model is not what is judged here
    monkeypatch.delenv(hub.TOKEN_ENV, raising=False)

    def refused(url, **kw):
        assert url == "https://hub.example.org/api/publish"
        assert kw["headers"]["Authorization"] == "Bearer adrh_t"
        return httpx.Response(403, json={"error": "the token may not publish shop", "hint": "add one for shop"})

    monkeypatch.setattr(httpx, "post", refused)
    with pytest.raises(AdrError) as told:
        hub.publish(Workspace.discover(repo), "https://hub.example.org", token="adrh_t")
    assert (
        told.value.message
        == "the hub at https://hub.example.org refused the publish (403): the token may not publish shop"
    )
    assert told.value.hint == "add one for shop"

    def down(url, **kw):
        raise httpx.ConnectError("refused")

    monkeypatch.setattr(httpx, "post", down)
    monkeypatch.setenv(hub.TOKEN_ENV, "adrh_env")
    with pytest.raises(AdrError) as told:
        hub.publish(Workspace.discover(repo), "https://u:pw@hub.example.org")
    assert (
        told.value.message
        == "cannot reach the hub at https://hub.example.org: nothing listens there (connection refused)"
    )
    assert told.value.hint == "check the URL and the server; nothing was published"

    def answered(url, **kw):
        return httpx.Response(200, json={"repository": "shop", "changed": True})

    monkeypatch.setattr(httpx, "post", answered)
    assert hub.publish(Workspace.discover(repo), "http://localhost:8080")["repository"] == "shop"  # this machine


def test_the_query_model_is_kept_beside_the_user_s_key(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert hub.model_cache() == tmp_path / "cache" / "adr-memory" / "hub-model"


def test_listing_and_the_timeline_of_a_repository_the_hub_lacks_name_the_nearest(folder_hub):
    hub.published(hub.open_hub(folder_hub), _snap(name="payments", versions=_versions()))
    assert [d["id"] for d in hub.listing(folder_hub, "payments")] == ["ADR-0001"]
    assert hub.timeline(folder_hub, "payments")["events"]
    for read in (hub.listing, hub.timeline):
        with pytest.raises(UsageError, match="no repository 'paymnts' in the hub") as told:
            read(folder_hub, "paymnts")
        assert told.value.hint == "the nearest: payments"


def test_a_status_no_record_can_have_is_refused_as_the_served_api_refuses_it(folder_hub):
    """`hub list --status acepted` listed nothing, which read as a hub without such decisions."""
    hub.published(hub.open_hub(folder_hub), _snap())
    assert [d["id"] for d in hub.listing(folder_hub, status="accepted")] == ["ADR-0001"]
    assert hub.listing(folder_hub, status="proposed") == []
    for read in (
        lambda: hub.listing(folder_hub, status="acepted"),
        lambda: hub.search(folder_hub, "x", status="acepted"),
    ):
        with pytest.raises(UsageError, match="no status 'acepted'") as told:
            read()
        assert told.value.hint == "one of proposed, accepted, rejected, deprecated, superseded"


def test_a_rebased_commit_with_an_earlier_author_date_still_replaces_its_parent(repo, folder_hub, capsys, monkeypatch):
    """A rebased pull request or a cherry-pick keeps its author date: the hub kept the parent,
    published first, as the later commit (`kept_later`) because it compared author times."""
    from tests.helpers import adr_text, commit, git, run

    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-12-07T23:10:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-12-07T23:10:00Z")
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use MySQL")}, "A")
    assert run(capsys, "hub", "publish", "--to", folder_hub, "--name", "shop", "--json").json["changed"]
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-12-07T21:00:00Z")  # written earlier, landed later
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-12-07T23:20:00Z")
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")}, "B")
    published = run(capsys, "hub", "publish", "--to", folder_hub, "--name", "shop", "--json").json
    assert (published["changed"], published["kept_later"]) == (True, False)
    assert published["commit"] == git(repo, "rev-parse", "HEAD")
    assert [d["title"] for d in hub.listing(folder_hub)] == ["Use PostgreSQL"]


def test_a_tag_no_decision_carries_is_refused_naming_the_nearest(folder_hub):
    """`hub search --tag nosuch` said "No strong match (best cosine -1.00)", as for a question
    nothing answers: a tag no decision carries is said, with the tags the hub holds."""
    from adr_memory.hub import Snapshot

    tagged = {"id": "ADR-0001", "title": "Use PostgreSQL", "status": "accepted", "tags": ["storage", "db"]}
    hub.published(hub.open_hub(folder_hub), Snapshot("shop", "b" * 40, None, [tagged], [], None, None))
    assert [d["id"] for d in hub.listing(folder_hub, tag="storage")] == ["ADR-0001"]
    for read in (
        lambda: hub.listing(folder_hub, tag="storag"),
        lambda: hub.search(folder_hub, "which database", tag="storag"),
    ):
        with pytest.raises(UsageError, match=r"^no decision tagged 'storag'$") as told:
            read()
        assert told.value.hint == "the nearest: storage"
    with pytest.raises(UsageError, match="no repository 'elsewhere' in the hub"):  # the repository first
        hub.listing(folder_hub, "elsewhere", tag="db")


def test_a_name_the_hub_takes_on_one_path_in_it_takes_on_every_path(tmp_path, folder_hub, capsys, monkeypatch):
    """A publish to the store took `a b` (and a folder's own `my repo`), which no token could
    publish over HTTP and the served API refuses; a rename took `x/../y`. One rule for all."""
    from tests.helpers import commit, run

    root = tmp_path / "my repo"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, {"docs/adr/0001-a.md": adr_text("Use PostgreSQL")}, "first")
    monkeypatch.chdir(root)
    said = run(capsys, "hub", "publish", "--to", folder_hub, "--name", "a b", code=2)
    assert said.err.splitlines() == [
        "error: 'a b' is no repository name the hub takes",
        "hint: letters, digits and . _ - /, e.g. payments or acme/payments",
    ]
    said = run(capsys, "hub", "publish", "--to", folder_hub, code=2)
    assert "'my repo' is no repository name" in said.err and "--name NAME" in said.err
    assert not (root / ".adr-cache" / "index").exists()  # refused before anything was embedded
    assert hub.listing(folder_hub) == []
    assert run(capsys, "hub", "publish", "--to", folder_hub, "--name", "acme/my-repo", "--json").json["created"]
    assert (root / ".adr-cache" / "index").exists()  # where the refused publishes would have embedded
    with pytest.raises(UsageError, match=re.escape("'x/../y' is no repository name")):
        hub.rename(folder_hub, "acme/my-repo", "x/../y")
    with pytest.raises(UsageError, match="'a b' is no repository name"):
        hub.token_add(folder_hub, "ci", publish=["a b"])
    assert [d["repository"] for d in hub.listing(folder_hub)] == ["acme/my-repo"]


def test_a_served_hub_that_does_not_answer_says_why_in_a_few_words(repo, monkeypatch):
    """Real sockets: a port nothing listens on, and https asked of a plain http server, both
    said `ConnectError`."""
    import http.server
    import socket
    import threading

    from adr_memory.errors import AdrError

    monkeypatch.setenv(hub.TOKEN_ENV, "adrh_env")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    plain = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=plain.serve_forever, daemon=True).start()
    try:
        for url, why in (
            (f"http://127.0.0.1:{closed}", "nothing listens there (connection refused)"),
            (
                f"https://127.0.0.1:{plain.server_port}",
                "TLS failed (a plain http server, or a certificate not trusted)",
            ),
        ):
            with pytest.raises(AdrError) as told:
                hub.publish(Workspace.discover(repo), url)
            assert told.value.message == f"cannot reach the hub at {url}: {why}"
    finally:
        plain.shutdown()


def test_a_publish_over_http_refused_for_its_token_or_address_embeds_nothing_first(repo, monkeypatch):
    """A CI with a cold cache and a missing secret spent the whole embedding before it was told."""
    from adr_memory.errors import UsageError as Refused

    monkeypatch.delenv(hub.TOKEN_ENV, raising=False)
    for url, said in (
        ("https://hub.example.org", "a served hub takes a publish only with a token"),
        ("http://hub.example.org", "a publish token goes only over https"),
    ):
        if "http://" in url:
            monkeypatch.setenv(hub.TOKEN_ENV, "adrh_env")
        with pytest.raises(Refused, match=re.escape(said)):
            hub.publish(Workspace.discover(repo), url)
        assert not (repo / ".adr-cache" / "index").exists()
