"""Real ADR folders, each in its own folder name and unmodified, read as they are: the folder is
found, statuses are right, `adr check` names only genuine problems, search finds every status."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import CORPORA, commit, run

FIXTURES = Path(__file__).parents[1] / "fixtures"

# corpus -> (its folder in the source repository, the findings `adr check` must report: each a
# genuine problem of the folder as published)
FOLDERS = {
    "cloud-platform": (
        "architecture-decision-record",
        {
            # 021 says "Superseded by 036"; 036 never says it supersedes 021.
            ("supersession", "ADR-0036", "warning"),
        },
    ),
    "cometbft": ("docs/references/architecture", set()),
    "tdr": (
        "architecture-decision-records",
        {
            # "#25. Automatic code merging": no space after '#', so not a heading; same in 0033.
            ("title", "ADR-0025", "warning"),
            ("title", "ADR-0033", "warning"),
            # 0007 says under its title "This decision has been superseded by decision:
            # [0022 ...](0022-...)"; 0022 never says it supersedes it. 0009 and 0018 do, in the
            # same prose ("This decision supersedes decision: [0008 ...](...)"): no warning.
            ("supersession", "ADR-0022", "warning"),
        },
    ),
}

# Spot checks: (corpus, id or path tail, status, status stated?)
STATUSES = [
    ("cloud-platform", "ADR-0021", "superseded", True),
    ("cloud-platform", "ADR-0028", "accepted", False),  # "Date:" only: in force, unstated
    ("cloud-platform", "ADR-0037", "rejected", True),
    ("cloud-platform", "ADR-0034", "proposed", True),
    ("cometbft", "tendermint-core/adr-035-documentation.md", "accepted", True),  # "...have been implemented"
    ("cometbft", "tendermint-core/adr-036-empty-blocks-abci.md", "accepted", False),  # "{A|B}" template
    ("cometbft", "adr-100-data-companion-push-api.md", "rejected", True),
    ("tdr", "ADR-0005", "accepted", False),  # tdr states no status, but for supersession in prose:
    ("tdr", "ADR-0008", "superseded", True),  # "This decision has been superseded by decision: [..](..)"
    ("tdr", "ADR-0022", "accepted", False),
]


def _copy(repo: Path, corpus: str) -> str:
    folder = FOLDERS[corpus][0]
    shutil.copytree(CORPORA / corpus, repo / folder)
    (repo / folder / "SOURCE.md").unlink()
    commit(repo, {}, corpus)
    return folder


@pytest.mark.parametrize("corpus", sorted(FOLDERS))
def test_check_on_a_real_folder_names_only_genuine_problems(repo, capsys, corpus):
    _copy(repo, corpus)
    data = json.loads(run(capsys, "check", "--format", "json", code=0).out)
    assert {(f["kind"], f["id"], f["severity"]) for f in data["findings"]} == FOLDERS[corpus][1]


@pytest.mark.parametrize("corpus,ident,status,stated", STATUSES)
def test_statuses_are_read_where_the_folder_puts_them(repo, capsys, corpus, ident, status, stated):
    _copy(repo, corpus)
    rows = json.loads(run(capsys, "list", "--json").out)
    row = next(r for r in rows if r["id"] == ident or r["path"].endswith("/" + ident))
    assert (row["status"], row["status_stated"]) == (status, stated)


def test_default_search_finds_a_rejected_decision(corpus, capsys):
    top = json.loads(run(capsys, "search", "can users run serverless functions", "--json").out)
    assert (top["results"][0]["id"], top["results"][0]["status"]) == ("ADR-0037", "rejected")


def test_a_madr_folder_without_statuses(repo, capsys):
    shutil.copytree(FIXTURES / "madr-no-status", repo / "docs/decisions")
    commit(repo, {}, "madr")
    assert json.loads(run(capsys, "check", "--format", "json").out)["findings"] == []
    rows = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert [(rows[i]["status"], rows[i]["status_stated"]) for i in ("ADR-0001", "ADR-0002")] == [
        ("accepted", False)
    ] * 2
    assert rows["ADR-0003"]["superseded_by"] == ["ADR-0004"]
    assert rows["ADR-0004"]["supersedes"] == ["ADR-0003"] and rows["ADR-0004"]["status"] == "accepted"
    keyword = json.loads(run(capsys, "search", "PostgreSQL transactions", "--mode", "keyword", "--json").out)
    assert keyword["results"][0]["id"] == "ADR-0002"


def test_a_metadata_table_folder(repo, capsys):
    shutil.copytree(FIXTURES / "metadata-table", repo / "docs/adr")
    commit(repo, {}, "tables")
    rows = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert {i: r["status"] for i, r in rows.items()} == {
        "ADR-0001": "accepted",
        "ADR-0002": "accepted",
        "ADR-0003": "proposed",
    }
    assert rows["ADR-0001"]["status_text"] == "Implemented"  # not the KV interface's "### Status"
    assert (rows["ADR-0001"]["date"], rows["ADR-0001"]["tags"]) == ("2023-05-04", ["storage", "flags"])
    assert rows["ADR-0003"]["supersedes"] == ["ADR-0001"]
    links = json.loads(run(capsys, "show", "2", "--json").out)["links"]
    assert {"rel": "amends", "id": "ADR-0001"} in links
