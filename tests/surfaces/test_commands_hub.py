"""surfaces.commands_hub: `adr hub` at the command line (the stores' own tests are tests/hub)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.helpers import adr_text, commit, run, sealed_env, service


def test_the_hub_group_offers_its_verbs_and_init_says_what_it_did(repo, capsys, tmp_path):
    shown = run(capsys, "hub", "--help").out
    for verb in ("init", "publish", "search", "list", "stale", "conflicts"):
        assert verb in shown
    assert run(capsys, "hub", "init", "--to", str(tmp_path / "hub")).out.startswith("created the hub folder")
    assert run(capsys, "hub", "init", "--to", str(tmp_path / "hub")).out.endswith("the hub is up to date\n")
    assert run(capsys, "hub", "conflicts", "--from", str(tmp_path / "hub")).out == "No conflicts across repositories.\n"
    assert (
        run(capsys, "hub", "stale", "--from", str(tmp_path / "hub")).out == "Nothing stale across the organisation.\n"
    )
    assert run(capsys, "hub", "list", "--from", str(tmp_path / "hub")).out.startswith("No decisions in the hub")
    assert run(capsys, "hub", "timeline", "--from", str(tmp_path / "hub")).out == "No decision events.\n"


def test_hub_diff_and_exceptions_at_the_command_line(tmp_path, capsys, model_cache):
    from tests.helpers import hub_with_exception

    url = hub_with_exception(tmp_path, capsys)
    shown = run(capsys, "hub", "diff", "shop", "1", "--from", url).out
    assert "-Orders live in MySQL 8." in shown and "+Orders live in PostgreSQL 16." in shown
    assert json.loads(run(capsys, "hub", "diff", "shop", "1", "--from", url, "--json").out)["id"] == "ADR-0001"
    refused = run(capsys, "hub", "diff", "shop", "1", "nope", "--from", url, code=2)
    assert refused.err.startswith("error: 'nope' is no version of ADR-0001") and "\nhint: " in refused.err
    said = run(capsys, "hub", "exceptions", "--from", url).out
    assert said == "architecture ADR-0001: shop ADR-0002 (Publish shop events on SQS)\n"
    assert json.loads(run(capsys, "hub", "exceptions", "--from", url, "--json").out)["exceptions"][0]["by"] == "shop"


# ---------------------------------------------------------------------------- one published hub, read many ways

PG = "conflict-key: org.primary_database\nvalue: PostgreSQL\ntags: [storage]"
MYSQL = "conflict-key: org.primary_database\nvalue: MySQL"


@pytest.fixture(scope="module")
def org(tmp_path_factory, model_cache):
    """A hub folder holding `architecture` (the organisation holds PostgreSQL) and `payments`
    (which holds MySQL for the same `org.` key, whose governed code moved on since, and which
    has a proposed decision too), published once for the module's tests, which only read it."""
    from adr_memory.commands import hub
    from adr_memory.history import Workspace

    made = tmp_path_factory.mktemp("org")
    with sealed_env(made / "home"):
        central = service(
            made / "architecture",
            "architecture",
            {"docs/adr/0001-db.md": adr_text("Primary database is PostgreSQL", extra=PG)},
        )
        payments = service(
            made / "payments",
            "payments",
            {
                "docs/adr/0001-db.md": adr_text("Keep payments in MySQL", governs=["src/**"], extra=MYSQL),
                "docs/adr/0002-q.md": adr_text("Queue with Kafka", status="proposed", extra="tags: [events]"),
                "src/a.py": "1",
            },
        )
        commit(payments, {"src/a.py": "2"}, "code moves")
        url = str(made / "hub")
        hub.init(url)
        for root in (central, payments):
            hub.publish(Workspace.discover(root), url)
    return {"url": url, "payments": payments, "central": central}


@pytest.fixture
def own_hub(org, tmp_path):
    """A copy of the module's hub for a test that changes it (tokens, remove, rename)."""
    return str(shutil.copytree(org["url"], tmp_path / "hub"))


def test_hub_list_prints_a_row_per_decision_and_filters_by_repository_status_and_tag(org, repo, capsys):
    url = org["url"]
    assert run(capsys, "hub", "list", "--from", url).out.splitlines() == [
        f"{'architecture':<20} {'ADR-0001':<10} {'accepted':<10} Primary database is PostgreSQL",
        f"{'payments':<20} {'ADR-0001':<10} {'accepted':<10} Keep payments in MySQL",
        f"{'payments':<20} {'ADR-0002':<10} {'proposed':<10} Queue with Kafka",
    ]
    proposed = run(capsys, "hub", "list", "--from", url, "--repository", "payments", "--status", "proposed").out
    assert proposed.split() == ["payments", "ADR-0002", "proposed", "Queue", "with", "Kafka"]
    assert run(capsys, "hub", "list", "--from", url, "--tag", "storage").out.split()[:2] == ["architecture", "ADR-0001"]


def test_hub_list_json_is_each_record_as_show_gives_it_plus_where_it_lives(org, repo, capsys):
    """docs/reference.md: `adr show --json`'s object plus repository, state, reason, key,
    versions (as `adr log ID --json`) and link (its file at the commit published)."""
    rows = run(capsys, "hub", "list", "--from", org["url"], "--json").json
    assert [(r["repository"], r["id"]) for r in rows] == [
        ("architecture", "ADR-0001"),
        ("payments", "ADR-0001"),
        ("payments", "ADR-0002"),
    ]
    shown_keys = {"id", "number", "title", "status", "path", "tags", "governs", "standing", "sections", "rules"}
    for row in rows:
        assert shown_keys | {"repository", "state", "reason", "key", "versions", "link"} <= set(row)
    mysql = rows[1]
    assert (mysql["state"], mysql["key"], mysql["value"]) == ("stale", "org.primary_database", "MySQL")
    assert mysql["reason"] == "1 governed file(s) changed since the anchor"
    (version,) = mysql["versions"]
    assert {"version_id", "digest", "commit", "author", "date", "message", "status", "reviews", "transitions"} <= set(
        version
    )
    assert version["message"] == "decisions" and version["date"].endswith("Z")
    assert mysql["link"].startswith("https://github.com/acme/payments/blob/")
    assert mysql["link"].endswith("/docs/adr/0001-db.md")
    assert "s3cr3tT0ken" not in json.dumps(rows) and "ci-token" not in json.dumps(rows)  # the remote's credential


def test_hub_stale_names_each_stale_decision_with_its_repository_and_reason(org, repo, capsys):
    url = org["url"]
    assert run(capsys, "hub", "stale", "--from", url).out == (
        "payments ADR-0001 stale: 1 governed file(s) changed since the anchor\n"
    )
    assert run(capsys, "hub", "stale", "--from", url, "--json").json == {
        "decisions": [
            {
                "repository": "payments",
                "id": "ADR-0001",
                "title": "Keep payments in MySQL",
                "path": "docs/adr/0001-db.md",
                "state": "stale",
                "reason": "1 governed file(s) changed since the anchor",
            }
        ]
    }


def test_hub_conflicts_names_both_holders_and_fails_only_when_asked(org, repo, capsys):
    url = org["url"]
    said = "org.primary_database is decided differently: architecture ADR-0001 says PostgreSQL; payments ADR-0001 says MySQL\n"
    assert run(capsys, "hub", "conflicts", "--from", url, code=0).out == said
    assert run(capsys, "hub", "conflicts", "--from", url, "--fail", code=1).out == said
    (found,) = run(capsys, "hub", "conflicts", "--from", url, "--json", code=0).json["conflicts"]
    assert found["key"] == "org.primary_database" and found["message"] == said.strip()
    assert [(h["repository"], h["id"], h["value"]) for h in found["holders"]] == [
        ("architecture", "ADR-0001", "PostgreSQL"),
        ("payments", "ADR-0001", "MySQL"),
    ]


def test_hub_conflicts_fail_passes_a_hub_without_any(repo, capsys, tmp_path):
    run(capsys, "hub", "init", "--to", str(tmp_path / "hub"))
    told = run(capsys, "hub", "conflicts", "--from", str(tmp_path / "hub"), "--fail", code=0)
    assert told.out == "No conflicts across repositories.\n"
    assert run(capsys, "hub", "conflicts", "--from", str(tmp_path / "hub"), "--json").json == {"conflicts": []}


def test_hub_timeline_lists_versions_newest_first_and_keeps_to_a_repository_and_a_day(org, repo, capsys):
    url = org["url"]
    events = run(capsys, "hub", "timeline", "--from", url, "--json").json["events"]
    assert {(e["repository"], e["id"], e["kind"]) for e in events} == {
        ("architecture", "ADR-0001", "version"),
        ("payments", "ADR-0001", "version"),
        ("payments", "ADR-0002", "version"),
    }
    assert all(set(e) >= {"date", "repository", "id", "kind", "author", "detail"} for e in events)
    assert [e["date"] for e in events] == sorted((e["date"] for e in events), reverse=True)
    text = run(capsys, "hub", "timeline", "--from", url, "--repository", "architecture").out.splitlines()
    assert len(text) == 1 and text[0].split()[1:4] == ["architecture", "ADR-0001", "version"]
    (central,) = [e for e in events if e["repository"] == "architecture"]
    assert text[0].startswith(central["date"][:10] + "  ")
    assert run(capsys, "hub", "timeline", "--from", url, "--since", "2999-01-01").out == "No decision events.\n"


def test_hub_show_prints_the_decision_and_json_adds_who_follows_it(org, repo, capsys):
    url = org["url"]
    assert run(capsys, "hub", "show", "payments", "ADR-1", "--from", url).out == (
        "payments ADR-0001: Keep payments in MySQL\nstatus accepted; state stale; 1 versions\n\n## Decision\n\nWe decided.\n"
    )
    doc = run(capsys, "hub", "show", "architecture", "1", "--from", url, "--json").json
    assert (doc["repository"], doc["id"], doc["title"]) == (
        "architecture",
        "ADR-0001",
        "Primary database is PostgreSQL",
    )
    assert doc["followed_by"] == [] and doc["sections"] == [{"heading": "Decision", "text": "We decided."}]


def test_a_repository_the_hub_does_not_hold_is_refused_naming_the_nearest(org, repo, capsys):
    url = org["url"]
    for args in (("show", "payment", "1"), ("diff", "payment", "1"), ("search", "anything", "--repository", "payment")):
        told = run(capsys, "hub", *args, "--from", url, code=2)
        assert told.out == ""
        assert told.err == "error: no repository 'payment' in the hub\nhint: the nearest: payments\n"


def test_an_unknown_decision_in_a_held_repository_is_refused(org, repo, capsys):
    told = run(capsys, "hub", "show", "payments", "9", "--from", org["url"], code=2)
    assert told.out == "" and told.err.startswith("error: ") and "\nhint: " in told.err
    assert told.err.count("\n") == 2


def test_no_hub_named_is_one_error_saying_every_way_to_name_one(repo, capsys, monkeypatch):
    monkeypatch.delenv("ADR_HUB_URL", raising=False)
    for args in (("list",), ("stale",), ("init",), ("token", "list")):
        told = run(capsys, "hub", *args, code=2)
        lines = told.err.splitlines()
        assert told.out == "" and lines[0] == "error: no hub named" and len(lines) == 2
        assert lines[1].startswith("hint: pass --to/--from URL") and "ADR_HUB_URL" in lines[1]


def test_the_hub_is_named_by_adr_hub_url_when_no_option_names_it(org, repo, capsys, monkeypatch):
    monkeypatch.setenv("ADR_HUB_URL", org["url"])
    assert run(capsys, "hub", "stale").out.startswith("payments ADR-0001 stale:")


def test_a_folder_that_is_no_hub_is_refused_and_the_hint_says_how_to_make_one(repo, capsys, tmp_path):
    told = run(capsys, "hub", "list", "--from", str(tmp_path / "nowhere"), code=2)
    assert (
        told.err == f"error: {tmp_path / 'nowhere'} is no hub folder\nhint: adr hub init --to {tmp_path / 'nowhere'}\n"
    )
    assert not (tmp_path / "nowhere").exists()  # reading never makes one


def test_an_unreachable_database_is_one_line_that_never_shows_its_password(repo, capsys):
    told = run(capsys, "hub", "init", "--to", "postgresql://hub:pa55word@127.0.0.1:1/adr", code=2)
    assert "pa55word" not in told.err + told.out
    lines = told.err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("error: cannot reach the hub at postgresql://")
    assert lines[1].startswith("hint: ")


def test_tokens_are_printed_once_listed_without_the_token_and_revoked(own_hub, repo, capsys):
    made = run(capsys, "hub", "token", "add", "people", "--read", "--from", own_hub)
    token = made.out.strip()
    assert made.out == token + "\n" and token.startswith("adrh_") and len(token) > 30  # a line of its own
    assert made.err == "note: token people (read): shown this once, keep it now\n"
    ci = run(capsys, "hub", "token", "add", "ci", "--publish", "payments", "--from", own_hub, "--json").json
    assert set(ci) == {"name", "scopes", "token"} and (ci["name"], ci["scopes"]) == ("ci", ["publish:payments"])
    listed = run(capsys, "hub", "token", "list", "--from", own_hub, "--json").json["tokens"]
    assert sorted((t["name"], t["scopes"], t["revoked"], t["last_used"]) for t in listed) == [
        ("ci", ["publish:payments"], None, None),
        ("people", ["read"], None, None),
    ]
    assert all(set(t) == {"name", "scopes", "created", "last_used", "revoked"} for t in listed)
    text = run(capsys, "hub", "token", "list", "--from", own_hub).out
    assert token not in text and ci["token"] not in text  # kept as a hash: never shown again
    (people,) = [line for line in text.splitlines() if line.startswith("people ")]
    assert people.startswith("people  read  made ") and people.endswith("  last used never")
    assert run(capsys, "hub", "token", "revoke", "ci", "--from", own_hub).out == "token ci revoked\n"
    assert run(capsys, "hub", "token", "revoke", "ci", "--from", own_hub).out == "token ci was already revoked\n"
    (ci_row,) = [
        t for t in run(capsys, "hub", "token", "list", "--from", own_hub, "--json").json["tokens"] if t["name"] == "ci"
    ]
    assert ci_row["revoked"]
    assert "  revoked " in run(capsys, "hub", "token", "list", "--from", own_hub).out


def test_a_token_must_read_or_publish_and_only_a_known_one_is_revoked(own_hub, repo, capsys):
    told = run(capsys, "hub", "token", "add", "idle", "--from", own_hub, code=2)
    assert told.err.startswith("error: a token reads or publishes\nhint: ") and told.out == ""
    told = run(capsys, "hub", "token", "revoke", "nope", "--from", own_hub, code=2)
    assert told.err == "error: no token 'nope' in the hub\nhint: adr hub token list names them\n"
    assert (
        run(capsys, "hub", "token", "list", "--from", own_hub).out == "No tokens yet: adr hub token add NAME --read\n"
    )


def test_remove_and_rename_take_a_repository_out_or_under_a_new_name(own_hub, repo, capsys):
    assert (
        run(capsys, "hub", "rename", "payments", "billing", "--from", own_hub).out == "payments is billing in the hub\n"
    )
    names = {r["repository"] for r in run(capsys, "hub", "list", "--from", own_hub, "--json").json}
    assert names == {"architecture", "billing"}
    assert run(capsys, "hub", "stale", "--from", own_hub).out.startswith("billing ADR-0001 stale:")
    assert run(capsys, "hub", "remove", "billing", "--from", own_hub).out == "removed billing from the hub\n"
    assert run(capsys, "hub", "stale", "--from", own_hub).out == "Nothing stale across the organisation.\n"
    assert [r["repository"] for r in run(capsys, "hub", "list", "--from", own_hub, "--json").json] == ["architecture"]


def test_remove_and_rename_refuse_what_they_cannot_do_and_change_nothing(own_hub, repo, capsys):
    before = run(capsys, "hub", "list", "--from", own_hub, "--json").json
    told = run(capsys, "hub", "remove", "nope", "--from", own_hub, code=2)
    assert told.err == "error: no repository 'nope' in the hub\nhint: the nearest: architecture, payments\n"
    told = run(capsys, "hub", "rename", "payments", "payments", "--from", own_hub, code=2)
    assert told.err == "error: 'payments' is its name already\nhint: name the repository's new name\n"
    run(capsys, "hub", "rename", "paymnts", "billing", "--from", own_hub, code=2)
    assert run(capsys, "hub", "list", "--from", own_hub, "--json").json == before


def test_publish_says_what_it_did_new_then_unchanged(org, tmp_path, capsys, monkeypatch):
    hub_url = str(shutil.copytree(org["url"], tmp_path / "hub"))
    root = service(tmp_path / "orders", "orders", {"docs/adr/0001-a.md": adr_text("Ship orders nightly")})
    monkeypatch.chdir(root)
    head = commit(root, {}, "again")
    first = run(capsys, "hub", "publish", "--to", hub_url)
    assert first.out == f"orders: 1 decision at {head[:10]} (a new repository in the hub)\n"
    assert run(capsys, "hub", "publish", "--to", hub_url).out == f"orders: 1 decision at {head[:10]} (unchanged)\n"
    done = run(capsys, "hub", "publish", "--to", hub_url, "--name", "shipping", "--json").json
    assert done == {
        "repository": "shipping",
        "commit": head,
        "records": 1,
        "changed": True,
        "created": True,
        "kept_later": False,
    }
    listed = {r["repository"] for r in run(capsys, "hub", "list", "--from", hub_url, "--json").json}
    assert listed == {"architecture", "payments", "orders", "shipping"}


def test_a_publish_to_a_served_hub_needs_a_token_and_https(org, capsys, monkeypatch):
    monkeypatch.chdir(org["payments"])
    monkeypatch.delenv("ADR_HUB_TOKEN", raising=False)
    told = run(capsys, "hub", "publish", "--to", "https://hub.example.org", code=2)
    assert told.out == "" and told.err.startswith("error: a served hub takes a publish only with a token\nhint: ")
    assert "ADR_HUB_TOKEN" in told.err
    told = run(capsys, "hub", "publish", "--to", "http://hub.example.org", "--token", "adrh_x", code=2)
    assert told.err.startswith("error: a publish token goes only over https (or to this machine), not to http://hub")
    assert "adrh_x" not in told.err


def test_hub_site_writes_a_page_per_decision_and_says_where(org, repo, capsys, tmp_path):
    out = tmp_path / "site"
    said = run(capsys, "hub", "site", "--from", org["url"], "--out", str(out)).out.splitlines()
    assert said[0].startswith("wrote 3 decisions of 2 repositories, ") and said[0].endswith(f" pages, to {out}")
    assert said[1] == f"open {out / 'index.html'}"
    pages = int(said[0].split(", ")[1].split()[0])
    assert pages == len(list(out.rglob("*.html")))
    assert "Keep payments in MySQL" in "".join(p.read_text() for p in out.rglob("*.html"))
    only = tmp_path / "only"
    said = run(capsys, "hub", "site", "--from", org["url"], "--out", str(only), "--repository", "architecture").out
    assert said.startswith("wrote 1 decision of 1 repository, ")


def test_hub_init_on_a_hub_is_up_to_date_and_never_prints_a_password(repo, capsys, tmp_path):
    target = tmp_path / "h"
    first = run(capsys, "hub", "init", "--to", str(target)).out
    assert first.startswith("created the hub folder") and (target).is_dir()
    assert run(capsys, "hub", "init", "--to", str(target)).out == f"{target}: the hub is up to date\n"
    assert os.listdir(target)


def test_a_repository_name_the_hub_lacks_is_refused_by_list_timeline_and_site_too(org, repo, capsys, tmp_path):
    """`hub list --repository paymnts` said "No decisions in the hub" of a hub holding two
    repositories, and `hub site` wrote an empty site: a typo read as an empty hub."""
    url = org["url"]
    for args in (
        ("list", "--repository", "paymnts"),
        ("timeline", "--repository", "paymnts"),
        ("site", "--repository", "paymnts", "--out", str(tmp_path / "site")),
    ):
        told = run(capsys, "hub", *args, "--from", url, code=2)
        assert told.out == ""
        assert told.err == "error: no repository 'paymnts' in the hub\nhint: the nearest: payments\n"
    assert not (tmp_path / "site").exists()


def test_a_status_filter_with_a_typo_is_refused_not_an_empty_list(org, repo, capsys):
    for verb in (("list",), ("search", "which database")):
        told = run(capsys, "hub", *verb, "--status", "acepted", "--from", org["url"], code=2)
        assert told.out == ""
        assert (
            told.err
            == "error: no status 'acepted'\nhint: one of proposed, accepted, rejected, deprecated, superseded\n"
        )
