from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import CORPORA, adr_text, commit, run

FIELDS = {
    "repository",
    "id",
    "number",
    "title",
    "status",
    "status_text",
    "path",
    "date",
    "date_text",
    "first_recorded",
    "version_id",
    "digest",
    "versions",
    "governs",
    "tags",
    "supersedes",
    "superseded_by",
    "depends_on",
    "relates_to",
    "links",
    "standing",
    "sections",
    "text",
    "stale",
    "staleness",
    "staleness_reason",
    "exported_at",
}


@pytest.mark.parametrize("name,count", [("cloud-platform", 49), ("cometbft", 93), ("tdr", 39)])
def test_jsonl_over_a_shared_corpus_is_one_valid_object_per_record(repo, capsys, name, count):
    import re

    shutil.copytree(CORPORA / name, repo / "docs/adr")
    (repo / "docs/adr/SOURCE.md").unlink()
    commit(repo, {}, "corpus")
    lines = run(capsys, "export", "--format", "jsonl").out.splitlines()
    docs = [json.loads(line) for line in lines]
    assert len(docs) == count and all(set(d) == FIELDS for d in docs)
    assert len({d["id"] + d["path"] for d in docs}) == count
    for d in docs:  # ISO dates or null, the original kept beside it
        assert d["date"] is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["date"]), d["date_text"]
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["first_recorded"])
    dated = [d for d in docs if d["date_text"]]
    assert sum(d["date"] is not None for d in dated) >= 0.9 * len(dated)  # cometbft states none
    assert all(d["text"].strip() for d in docs)  # a record without headings exports its text


def test_export_dates_are_iso_8601():
    from adr_memory.records import iso_date

    assert [iso_date(t) for t in ("05/02/2018", "10/04/18", "2020-03-03", "04/23/2019", "soon", None)] == [
        "2018-02-05",
        "2018-04-10",
        "2020-03-03",
        "2019-04-23",
        None,
        None,
    ]


def test_json_md_and_output_file(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    data = json.loads(run(capsys, "export").out)
    assert data[0]["stale"] is True and data[0]["version_id"].startswith("v")
    assert "## ADR-0001: Use Postgres" in run(capsys, "export", "--format", "md").out
    run(capsys, "export", "--format", "jsonl", "--output", "out.jsonl")
    assert json.loads((repo / "out.jsonl").read_text())["id"] == "ADR-0001"
    assert run(capsys, "export", "--format", "xml", code=2).err.startswith("error: unknown format")


def test_what_a_record_says_before_its_first_section_is_exported_shown_and_served(repo, capsys):
    from adr_memory.history.workspace import Workspace
    from adr_memory.surfaces import mcp as mcp_server

    shutil.copytree(CORPORA / "cometbft", repo / "docs/adr")
    commit(repo, {}, "corpus")
    path = "docs/adr/tendermint-core/adr-053-state-sync-prototype.md"
    exported = json.loads(run(capsys, "export", "--format", "json").out)
    shown = json.loads(run(capsys, "show", path, "--json").out)
    served = json.loads(mcp_server.tool("get")(Workspace.discover(repo), [shown["id"]]))["records"][0]
    for doc in (next(d for d in exported if d["path"] == path), shown, served):
        assert doc["sections"][0]["heading"] == "Introduction"
        assert doc["sections"][0]["text"].startswith("State sync is now [merged]")
    headless = next(d for d in exported if d["path"].endswith("adr-008-priv-validator.md"))
    assert [s["heading"] for s in headless["sections"]] == ["Body"]
    assert headless["sections"][0]["text"].startswith("Tendermint node's should support only two")


def test_every_machine_readable_date_is_iso_8601_with_the_text_beside_it(repo, capsys):
    """`list`, `show`, `export`, `stale` and the MCP tools agree: ISO 8601 dates (the record's
    own text kept beside), commit times in UTC."""
    import json
    import re

    from adr_memory.history.workspace import Workspace
    from adr_memory.surfaces import mcp
    from tests.helpers import adr_text, commit

    commit(
        repo,
        {"docs/adr/0001-db.md": adr_text("Use a db", governs=["src/**"], extra="date: 05/02/2018"), "src/a.py": "1"},
    )
    commit(repo, {"src/a.py": "2"}, "change the code")
    listed = json.loads(run(capsys, "list", "--json").out)[0]
    assert (listed["date"], listed["date_text"]) == ("2018-02-05", "05/02/2018")
    shown = json.loads(run(capsys, "show", "1", "--json").out)
    assert (shown["date"], shown["first_date"]) == ("2018-02-05", "2018-02-05")
    exported = json.loads(run(capsys, "export").out)[0]
    assert (exported["date"], exported["date_text"]) == ("2018-02-05", "05/02/2018")
    stale = json.loads(run(capsys, "stale", "--json").out)["decisions"][0]
    moment = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
    assert moment.fullmatch(stale["newest_commit"]["date"])
    ws = Workspace.discover(repo)
    got = json.loads(mcp.tool("get")(ws, ["1"]))["records"][0]
    assert (got["date"], got["date_text"], got["first_recorded"]) == ("2018-02-05", "05/02/2018", "2018-02-05")
    timeline = json.loads(mcp.tool("timeline")(ws, "1"))
    assert all(moment.fullmatch(v["date"]) for v in timeline["versions"])


def test_export_keeps_every_link_type_and_each_records_standing(repo, capsys):
    """Export kept four link types: `refers to`, `amends` and any other relation vanished."""
    import json

    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A"),
            "docs/adr/0002-b.md": adr_text("B", extra="amends: [ADR-0001]"),
            "docs/adr/0003-c.md": adr_text("C", status="proposed", extra="supersedes: [ADR-0001]"),
        },
    )
    run(capsys, "link", "2", "Refers to", "1")
    docs = {d["id"]: d for d in json.loads(run(capsys, "export", "--format", "json").out)}
    assert {(x["rel"], x["id"]) for x in docs["ADR-0002"]["links"]} == {
        ("amends", "ADR-0001"),
        ("refers to", "ADR-0001"),
    }
    assert docs["ADR-0001"]["standing"]["text"] == "in force; successor proposed: ADR-0003"
    markdown = run(capsys, "export", "--format", "md").out
    assert "amends ADR-0001; refers to ADR-0001" in markdown and "*accepted; ADR-0003 proposed*" in markdown


def test_a_credential_in_a_governs_glob_is_never_printed(repo, capsys, monkeypatch):
    """export --format json|jsonl and the site printed it, through the scope-missing reason."""
    from tests.helpers import adr_text, commit, run

    token = "ghp_" + "a1b2c3d4e5" * 4
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**", f"token={token}"])})
    monkeypatch.chdir(repo)
    for fmt in ("json", "jsonl", "md"):
        out = run(capsys, "export", "--format", fmt).out
        assert token not in out and ("[REDACTED]" in out or fmt == "md"), fmt
    assert token not in run(capsys, "stale", "--json").out
    assert "the file name" not in run(capsys, "check", code=1).out
