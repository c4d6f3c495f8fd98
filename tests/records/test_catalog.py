from __future__ import annotations

import re
import shutil

import pytest

from adr_memory import records
from adr_memory.records import catalog
from tests.helpers import CORPORA, write


def test_locate_order_flag_then_adr_dir_file_then_conventional_then_default(tmp_path):
    assert records.locate(tmp_path, None) == ("docs/adr", "default")
    (tmp_path / "docs/decisions").mkdir(parents=True)
    assert records.locate(tmp_path, None) == ("docs/decisions", "found")
    (tmp_path / "doc/adr").mkdir(parents=True)
    assert records.locate(tmp_path, None) == ("doc/adr", "found")
    (tmp_path / ".adr-dir").write_text("architecture/adr\n")
    assert records.locate(tmp_path, None) == ("architecture/adr", ".adr-dir")
    assert records.locate(tmp_path, "x/y/") == ("x/y", "configured")


# What each tool writes when told to keep its records in `arch/decisions` (their READMEs and
# `init` commands), beside a conventional folder that would win otherwise.
OTHER_TOOLS = {
    ".log4brains.yml": "project:\n  name: shop\n  tz: Europe/Paris\n  adrFolder: ./arch/decisions\n"
    "  packages:\n    - name: api\n      path: ./api\n      adrFolder: ./api/adr\n",
    "adrgen.config.yml": "default_meta: []\ndefault_status: proposed\ndirectory: arch/decisions\n"
    "id_digit_number: 4\ntemplate_file: arch/decisions/adr-template.md\n",
    ".adr": "[adr]\nrecords_dir = arch/decisions\n",
    "adrs.toml": 'adr_dir = "arch/decisions"\nmode = "compatible"\n',
    ".adr/adr.properties": "#Created 2021-01-01\ninitialTemplateFile=templates/madr_initial.md\n"
    "docPath=arch/decisions\nauthorEmail=a@b.c\n",
}


@pytest.mark.parametrize("settings", list(OTHER_TOOLS))
def test_the_folder_another_adr_tool_names_is_used_before_the_usual_ones(tmp_path, settings):
    (tmp_path / "docs/adr").mkdir(parents=True)
    write(tmp_path, {settings: OTHER_TOOLS[settings]})
    assert records.locate(tmp_path, None) == ("arch/decisions", settings)
    (tmp_path / ".adr-dir").write_text("elsewhere\n")  # adr-tools' own file still comes first
    assert records.locate(tmp_path, None) == ("elsewhere", ".adr-dir")


@pytest.mark.parametrize(
    "text",
    [
        "project: [unclosed\n",
        "project:\n  name: no folder\n",
        "- a list\n",
        "project: !!python/object/apply:os.system ['true']\n",
        "a: &x [*x, *x]\n" * 2,
        "\xff\xfe garbage",
    ],
)
def test_settings_another_tool_cannot_read_are_passed_over(tmp_path, text):
    (tmp_path / "docs/decisions").mkdir(parents=True)
    write(tmp_path, {".log4brains.yml": text})
    assert records.locate(tmp_path, None) == ("docs/decisions", "found")


def test_a_folder_another_tool_names_outside_the_repository_is_refused(tmp_path):
    from adr_memory.errors import ConfigError

    write(tmp_path, {"adrgen.config.yml": "directory: ../../etc\n"})
    with pytest.raises(ConfigError, match=re.escape("adrgen.config.yml '../../etc' points outside the repository")):
        records.locate(tmp_path, None)


def test_only_numbered_files_are_records_and_nested_folders_are_read(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# A\n",
            "docs/adr/README.md": "# index\n",
            "docs/adr/index.md": "# i\n",
            "docs/adr/template.md": "# t\n",
            "docs/adr/templates/template.md": "# NUMBER. TITLE\n",
            "docs/adr/notes.md": "# n\n",
            "docs/adr/sub/adr-012-b.md": "# ADR 012: B\n",
            "docs/adr/0002-c.txt": "x",
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert [(r.id, r.title) for r in cat] == [("ADR-0001", "A"), ("ADR-0012", "B")]


def test_ids_resolve_in_every_form(tmp_path):
    write(tmp_path, {"docs/adr/0007-x.md": "# X\n"})
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    for form in ("7", "0007", "ADR-7", "ADR-0007", "adr-0007", "0007-x.md"):
        assert cat.get(form).id == "ADR-0007"
    assert cat.find("8") is None


def test_every_shared_corpus_folder_lists_every_record(tmp_path):
    for name, count in (("cloud-platform", 49), ("cometbft", 93)):
        shutil.copytree(CORPORA / name, tmp_path / name)
        cat = catalog.read_worktree(tmp_path, name)
        assert len(cat) == count
        assert all(r.title and r.status_text is not None for r in cat)


# json-schema-org/community's folder names its MADR records by date, as many do.
DATED = {
    "docs/adr/2021-05-17-use-markdown-architectural-decision-records.md": "# Use Markdown Architectural Decision Records\n\n* Status: accepted\n* Date: 2021-05-17\n\n"
    "## Context and Problem Statement\n\nWe want to record decisions.\n",
    "docs/adr/2021-06-01-patch-release-process.md": "# Make two releases a year\n\n* Status: accepted\n\n## Context and Problem Statement\n\nNone yet.\n",
    "docs/adr/2021-08-26-code-of-conduct.md": "# Code of conduct\n\n* Status: accepted\n\n## Decision Outcome\n\nSee "
    "[the releases](2021-06-01-patch-release-process.md).\n",
    "docs/adr/index.md": "# Log\n\n* [ADR-2021-05-17](2021-05-17-use-markdown-architectural-decision-records.md)\n",
    "docs/adr/template.md": "# Title\n\n* Status: [proposed | accepted]\n",
}


def test_records_named_by_date_have_their_names_as_ids_not_the_year(tmp_path):
    """Read as numbers, all three were ADR-2021: three duplicate-id errors on a folder that
    breaks no rule of its own."""
    from adr_memory.policy import check

    write(tmp_path, DATED)
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert [(r.id, r.number, r.date) for r in cat] == [
        ("2021-05-17-use-markdown-architectural-decision-records", None, "2021-05-17"),
        ("2021-06-01-patch-release-process", None, "2021-06-01"),  # the name's date: none written
        ("2021-08-26-code-of-conduct", None, "2021-08-26"),
    ]
    assert check.lint(cat) == []
    assert cat.get("2021-06-01").id == "2021-06-01-patch-release-process"  # a unique date finds it
    assert cat.get("2021-06-01-patch-release-process.md").id == "2021-06-01-patch-release-process"
    assert cat.find("2021-07-01") is None


def test_a_folder_named_by_date_gets_dated_records_and_links_it_can_read(repo, capsys):
    from tests.helpers import commit, run

    commit(repo, DATED, "dated folder")
    path = run(capsys, "new", "Adopt a TSC", "--status", "proposed").out.strip()
    from adr_memory.policy.statuses import today

    assert path == f"docs/adr/{today()}-adopt-a-tsc.md"
    new_id = f"{today()}-adopt-a-tsc"
    assert not (repo / path).read_text().splitlines()[0].startswith("# None")
    run(capsys, "supersede", "2021-06-01", "--by", new_id)
    run(capsys, "accept", new_id)  # the supersession completes on acceptance
    old = (repo / "docs/adr/2021-06-01-patch-release-process.md").read_text()
    assert f"* Status: superseded by [Adopt a TSC]({new_id}.md)" in old  # no `[None. ...]`; in the case it replaces
    _linked_both_ways_and_named_again(capsys, "2021-06-01-patch-release-process", new_id, "Adopt a TSC")


def _linked_both_ways_and_named_again(capsys, old_id, new_id, title):
    """`new_id` supersedes `old_id` on both sides, the folder passes, and the same title
    again is named `-2`."""
    import json

    from tests.helpers import run

    listed = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert listed[old_id]["superseded_by"] == [new_id]
    assert listed[new_id]["supersedes"] == [old_id]
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    assert [f for f in found if f["kind"] != "placeholder"] == []  # the accepted successor is still a template
    assert run(capsys, "new", title).out.strip() == f"docs/adr/{new_id}-2.md"


def test_log4brains_names_are_dates_too_and_a_year_alone_is_a_number(repo, capsys):
    """log4brains writes `YYYYMMDD-slug.md`, often two on a day (its own folder has two on
    2020-09-25): read as numbers, they shared an id. `1999-x.md` may be record 1999."""
    from adr_memory.policy import check
    from adr_memory.policy.statuses import today
    from tests.helpers import commit, run

    commit(
        repo,
        {
            "docs/adr/20200925-multi-packages.md": "# Multi packages\n\n- Status: accepted\n",
            "docs/adr/20200925-use-prettier.md": "# Prettier\n\n- Status: accepted\n",
            "docs/adr/20200926-use-the-adr-number.md": "# Number\n\n- Status: superseded by [20201016-use-the-adr-slug](20201016-use-the-adr-slug.md)\n",
            "docs/adr/20201016-use-the-adr-slug.md": "# Slug\n\n- Status: accepted\n",
            "docs/adr/1999-eager-loading.md": "# Eager\n\n## Status\n\nAccepted\n",
        },
        "log4brains",
    )
    cat = catalog.read_worktree(repo, "docs/adr")
    assert {r.id: r.date for r in cat} == {
        "ADR-1999": None,
        "20200925-multi-packages": "2020-09-25",
        "20200925-use-prettier": "2020-09-25",
        "20200926-use-the-adr-number": "2020-09-26",
        "20201016-use-the-adr-slug": "2020-10-16",
    }
    assert cat.get("20200926-use-the-adr-number").superseded_by == ("20201016-use-the-adr-slug",)
    assert [f for f in check.lint(cat) if f.severity == "error"] == []
    assert cat.find("20200925") is None and cat.get("20201016").id == "20201016-use-the-adr-slug"
    written = run(capsys, "new", "Use lunr for search").out.strip()
    assert written == f"docs/adr/{today().replace('-', '')}-use-lunr-for-search.md"


def test_a_folder_named_by_date_and_title_as_typed_gets_its_new_records_so(repo, capsys):
    """joelparkerhenderson's guide names records `2017-01-01 Choose a database.md`; `adr new`
    wrote `2026-12-01-use-kafka.md` among them."""
    from adr_memory.policy.statuses import today
    from tests.helpers import commit, run

    body = "# {}\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n"
    commit(
        repo,
        {
            "docs/adr/2017-01-01 Choose a database.md": body.format("Choose a database"),
            "docs/adr/2017-01-02 Handle more users.md": body.format("Handle more users"),
        },
    )
    assert run(capsys, "new", "Use Kafka: why/how?").out == f"docs/adr/{today()} Use Kafka why how.md\n"
    assert run(capsys, "show", f"{today()} Use Kafka why how").out.startswith(f"{today()} Use Kafka why how: ")


def test_backstage_numbered_template_is_no_record_and_docusaurus_ids_answer_to_numbers(tmp_path):
    """backstage keeps `adr000-template.md` (its `title: ADR000: [TITLE]` is no valid YAML: a
    `yaml` error failed `adr check` on the folder as it is) and gives each record Docusaurus'
    `id: adrs-adr013`, so `adr show 13` found nothing. That `id` is the page's: the decision
    is ADR-0013, and the page id finds it too."""
    from adr_memory.policy import check

    write(
        tmp_path,
        {
            "docs/architecture-decisions/adr000-template.md": "---\nid: adrs-adr000\ntitle: ADR000: [TITLE]\n---\n\n## Context\n\n<!-- forces -->\n",
            "docs/architecture-decisions/0000-adr-template.md": "# NUMBER. TITLE\n",
            "docs/architecture-decisions/0000-template-record-decision.md": "---\ntitle: [t\n---\n",
            "docs/architecture-decisions/adr013-use-node-fetch.md": "---\nid: adrs-adr013\ntitle: 'ADR013: Proper use of HTTP fetching libraries'\n---\n\n"
            "## Context\n\nMany HTTP packages.\n\n## Decision\n\nUse node-fetch.\n",
            "docs/architecture-decisions/0012-email-template.md": "# 12. Use one email template\n",
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/architecture-decisions")
    assert [r.id for r in cat] == ["ADR-0012", "ADR-0013"]  # a decision about templates stays
    assert check.lint(cat) == []
    for form in ("13", "ADR013", "ADR-0013", "adrs-adr013"):
        assert cat.get(form).id == "ADR-0013"


def test_renaming_a_record_named_by_date_changes_its_id_and_check_base_says_so(repo, capsys):
    from tests.helpers import commit, git, run

    commit(repo, DATED, "dated folder")
    git(repo, "mv", "docs/adr/2021-08-26-code-of-conduct.md", "docs/adr/2021-08-26-coc.md")
    git(repo, "commit", "-q", "-m", "shorter name")
    err = run(capsys, "check", "--base", "HEAD~1", code=1).out
    assert "2021-08-26-code-of-conduct was renamed to 2021-08-26-coc; ids must not change" in err


# linq2db keeps `history/decisions/YYYY-slug.md`: 35 decisions, four of them of 2020.
YEARLY = {
    "docs/adr/2012-remove-nemerle.md": "# Remove Nemerle support\n\n## Context\n\nNobody builds it.\n",
    "docs/adr/2020-ado-provider-integration-refactor.md": "# Refactor ADO.NET providers\n\n## Status\n\nSuperseded by [the interfaces](2021-ado-interface-removal.md)\n",
    "docs/adr/2020-eager-loading.md": "---\nrelates-to: [ADR-2012]\n---\n# Eager loading\n\n## Context\n\nN+1.\n",
    "docs/adr/2020-insert-with-output.md": "# InsertWithOutput\n\n## Decision\n\nSupport OUTPUT.\n",
    "docs/adr/2021-ado-interface-removal.md": "# Replace ADO.NET interfaces\n\n## Status\n\nAccepted\n\n"
    "Supersedes [the refactor](2020-ado-provider-integration-refactor.md)\n",
}


def test_a_folder_named_by_year_has_names_as_ids_and_links_follow_them(tmp_path):
    """Read as numbers, the three of 2020 shared ADR-2020: `adr check` failed a folder that
    breaks no rule of its own. A year shared by no other name stays a number."""
    from adr_memory.policy import check

    write(tmp_path, YEARLY)
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert [(r.id, r.number) for r in cat] == [(name[9:-3], None) for name in sorted(YEARLY)]
    assert check.lint(cat) == []
    assert cat.get("2020-ado-provider-integration-refactor").superseded_by == ("2021-ado-interface-removal",)
    assert cat.get("2021-ado-interface-removal").supersedes == ("2020-ado-provider-integration-refactor",)
    assert cat.get("2020-eager-loading").links[0].target == "2012-remove-nemerle"  # ADR-2012: its only one
    assert cat.get("2012").id == "2012-remove-nemerle" and cat.find("2020") is None
    write(
        tmp_path,
        {
            "docs/numbered/0001-a.md": "# A\n",
            "docs/numbered/1999-b.md": "# B\n",
            "docs/numbered/2000-c.md": "# C\n\n## Status\n\nAmends [B](1999-b.md)\n",
        },
    )
    numbered = catalog.read_worktree(tmp_path, "docs/numbered")
    assert [(r.id, r.number) for r in numbered] == [("ADR-0001", 1), ("ADR-1999", 1999), ("ADR-2000", 2000)]
    assert numbered.get("2000").links[0].target == "ADR-1999"


def test_a_folder_named_by_year_gets_records_named_so_and_links_it_can_read(repo, capsys):
    from adr_memory.policy.statuses import today
    from tests.helpers import commit, run

    commit(repo, YEARLY, "linq2db's folder")
    path = run(
        capsys, "new", "Drop .NET 7", "--supersede", "2020-eager-loading", "--link", "2012:Relates to:Relates to"
    ).out.strip()
    new_id = f"{today()[:4]}-drop-net-7"
    assert path == f"docs/adr/{new_id}.md"
    assert "# Drop .NET 7\n" in (repo / path).read_text()  # no number in the heading
    run(capsys, "accept", new_id)  # the supersession completes on acceptance
    old = (repo / "docs/adr/2020-eager-loading.md").read_text()
    assert f"superseded-by: [{new_id}]" in old
    _linked_both_ways_and_named_again(capsys, "2020-eager-loading", new_id, "Drop .NET 7")


def test_the_second_record_of_a_year_changes_no_id_a_branch_must_keep(repo, capsys):
    """Two records of distinct years are numbers; the branch that adds a second of one year
    makes the folder one named by year, and `check --base` reads the merge-base so too."""
    from tests.helpers import commit, git, run

    commit(
        repo,
        {
            "docs/adr/2012-remove-nemerle.md": YEARLY["docs/adr/2012-remove-nemerle.md"],
            "docs/adr/2020-eager-loading.md": YEARLY["docs/adr/2020-eager-loading.md"],
        },
        "two",
    )
    git(repo, "branch", "main-line")
    commit(repo, {"docs/adr/2020-insert-with-output.md": YEARLY["docs/adr/2020-insert-with-output.md"]}, "third")
    assert "no problems" in run(capsys, "check", "--base", "main-line").err


def test_two_files_claiming_one_id_keep_their_own_versions_and_staleness(repo, capsys):
    """Two branches that each added "ADR 5", merged: `adr check` flags it, and until someone
    renumbers, every other command keeps the two files apart."""
    import json

    from adr_memory.history.workspace import Workspace
    from adr_memory.surfaces import mcp as mcp_server
    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0005-queue.md": adr_text("Queue with Redis", governs=["src/queue/**"]),
            "docs/adr/0005-store.md": adr_text("Store in Postgres", governs=["src/db/**"]),
            "src/queue/a.py": "1",
            "src/db/a.py": "1",
        },
        "both branches merged",
    )
    base = commit(repo, {"src/db/a.py": "2"}, "db change")
    listed = {r["path"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    for path in listed:
        log = json.loads(run(capsys, "log", path, "--json").out)
        assert listed[path]["version_id"] == log["versions"][0]["version_id"]
    assert listed["docs/adr/0005-queue.md"]["version_id"] != listed["docs/adr/0005-store.md"]["version_id"]
    assert [listed[p]["stale"] for p in sorted(listed)] == [False, True]
    stale = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert {d["path"]: (d["state"], d["changed"]) for d in stale} == {
        "docs/adr/0005-queue.md": ("fresh", []),
        "docs/adr/0005-store.md": ("stale", ["src/db/a.py"]),
    }
    refused = run(capsys, "accept", "5", code=2)
    assert "ADR-0005 is used by 2 files" in refused.err and "hint: name the file" in refused.err
    assert run(capsys, "show", "0005-store.md").out.startswith("ADR-0005: Store in Postgres")
    found = json.loads(run(capsys, "search", "queue store", "--mode", "keyword", "--json").out)["results"]
    assert sorted((r["id"], r["path"], r["stale"]) for r in found) == [
        ("ADR-0005", "docs/adr/0005-queue.md", False),
        ("ADR-0005", "docs/adr/0005-store.md", True),
    ]
    served = json.loads(mcp_server.tool("get")(Workspace.discover(repo), ["ADR-0005"]))["records"]
    assert [(r["path"], r["staleness"]["state"]) for r in served] == [
        ("docs/adr/0005-queue.md", "fresh"),
        ("docs/adr/0005-store.md", "stale"),
    ]
    commit(repo, {"src/queue/b.py": "1"}, "a branch adds queue code")  # what CI sees on a pull request
    branch = json.loads(run(capsys, "check", "--base", base, "--format", "json", code=1).out)["findings"]
    assert [(f["kind"], f["path"]) for f in branch if f["kind"] == "stale"] == [("stale", "docs/adr/0005-queue.md")]


def test_mdx_and_markdown_records_are_read_searched_edited_and_written_in_their_suffix(repo, capsys):
    import json

    from tests.helpers import commit, run

    mdx = (
        '---\ntitle: Use Postgres\nstatus: accepted\n---\nimport { Callout } from "fumadocs-ui/components/callout";\n\n'
        "<Callout>We chose the boring database.</Callout>\n\n## Context\n\nWe need storage.\n"
    )
    commit(
        repo,
        {
            "docs/adr/0001-use-postgres.mdx": mdx,
            "docs/adr/0002-use-redis.MD": "# 2. Use Redis\n\n## Status\n\nAccepted\n",
            "docs/adr/0003-use-kafka.markdown": "# 3. Use Kafka\n\n## Status\n\nProposed\n",
            "docs/adr/0004-use-nats.mdx": "---\nstatus: proposed\n---\n# Use NATS\n\n## Context\n\nc\n",
        },
    )
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["title"], r["status"]) for r in listed] == [
        ("ADR-0001", "Use Postgres", "accepted"),
        ("ADR-0002", "Use Redis", "accepted"),
        ("ADR-0003", "Use Kafka", "proposed"),
        ("ADR-0004", "Use NATS", "proposed"),
    ]
    found = json.loads(run(capsys, "search", "boring database", "--mode", "keyword", "--json").out)["results"][0]
    assert found["id"] == "ADR-0001" and "import" not in found["snippet"]
    run(capsys, "accept", "3")
    assert "Accepted" in (repo / "docs/adr/0003-use-kafka.markdown").read_text()
    assert run(capsys, "new", "Use SQS").out.strip().endswith("docs/adr/0005-use-sqs.mdx")
    run(capsys, "check")


def test_a_folder_that_numbers_and_dates_none_reads_every_file_by_its_name(repo, capsys):
    """`docs/decisions/use-postgres.md` and its kin: each file is a record with its name as its
    id, from the work tree and from git alike; `adr new` names by title, as the folder does."""
    import json

    from adr_memory.surfaces.hook import main as hook
    from tests.helpers import commit, run

    first = commit(
        repo,
        {
            "docs/decisions/use-postgres.md": "---\nstatus: accepted\n---\n# Use Postgres\n\n## Context\n\nc\n",
            "docs/decisions/use-redis.md": "# Use Redis\n\n## Status\n\nAccepted\n\n## Context\n\ncache\n",
            "docs/decisions/README.md": "# Decisions\n",
            "docs/decisions/_partial.md": "x\n",
        },
    )
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["status"]) for r in listed] == [("use-postgres", "accepted"), ("use-redis", "accepted")]
    assert all(r["version_id"] for r in listed)
    assert run(capsys, "new", "Use Kafka").out.strip() == "docs/decisions/use-kafka.md"
    run(capsys, "accept", "use-kafka")
    run(capsys, "supersede", "use-redis", "--by", "use-kafka")
    redis = json.loads(run(capsys, "show", "use-redis", "--json").out)
    assert redis["status"] == "superseded" and redis["links"] == [{"rel": "superseded-by", "id": "use-kafka"}]
    commit(repo, {}, "kafka")
    before = json.loads(run(capsys, "list", "--json", "--at", first).out)
    assert [r["id"] for r in before] == ["use-postgres", "use-redis"]
    log = json.loads(run(capsys, "log", "use-redis", "--json").out)
    assert [(t["from"], t["to"]) for v in log["versions"] for t in v["transitions"]] == [("accepted", "superseded")]
    assert (
        json.loads(run(capsys, "search", "cache", "--mode", "keyword", "--json").out)["results"][0]["id"] == "use-redis"
    )
    (repo / "docs/decisions/use-redis.md").write_text("---\nstatus: [oops\n---\n# Use Redis\n")
    assert hook(["lint", "docs/decisions/use-redis.md"]) == 1


def test_numbered_records_keep_their_folder_and_the_notes_beside_them_stay_notes(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# A\n",
            "docs/adr/guidelines.md": "# How we write ADRs\n",
            "docs/adr/sub/notes.md": "# n\n",
        },
    )
    assert [r.id for r in catalog.read_worktree(tmp_path, "docs/adr")] == ["ADR-0001"]


# ---------------------------------------------------------------------------- MADR categories

_MADR = "---\nstatus: accepted\n{extra}---\n# {title}\n\n## Context and Problem Statement\n\nc\n"


def _categories(repo) -> None:
    from tests.helpers import commit

    commit(
        repo,
        {
            "docs/decisions/backend/0001-use-go.md": _MADR.format(title="Use Go", extra="governs: [src/api/**]\n"),
            "docs/decisions/backend/0002-use-postgres.md": _MADR.format(
                title="Use Postgres", extra="depends-on: [ADR-0001]\n"
            ),
            "docs/decisions/frontend/0001-use-react.md": _MADR.format(
                title="Use React", extra="governs: [src/ui/**]\n"
            ),
            "src/api/server.go": "package api\n",
            "src/ui/app.tsx": "export {}\n",
        },
        "decisions in two categories",
    )


def test_madr_categories_number_their_records_each_from_one(repo, capsys):
    """MADR's "subfolders with local IDs" (its ADR-0010): `backend/0001-x.md` and
    `frontend/0001-y.md` failed `adr check` as one id claimed twice, and `adr show 1` took
    neither. Each is its category's record; what one names by number is its category's."""
    import json

    from tests.helpers import commit, run

    _categories(repo)
    rows = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["title"]) for r in rows] == [
        ("backend/ADR-0001", "Use Go"),
        ("frontend/ADR-0001", "Use React"),
        ("backend/ADR-0002", "Use Postgres"),
    ]
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]
    err = run(capsys, "show", "1", code=2).err
    assert "'1' names 2 decisions: backend/ADR-0001, frontend/ADR-0001" in err and "hint:" in err
    assert run(capsys, "show", "frontend/1").out.startswith("frontend/ADR-0001: Use React")
    commit(repo, {"src/api/server.go": "package api // v2\n"}, "change the API")
    stale = {d["id"]: d["state"] for d in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    # backend's ADR-0002 depends on its own category's ADR-0001, not on frontend's
    assert stale == {"backend/ADR-0001": "stale", "backend/ADR-0002": "at-risk", "frontend/ADR-0001": "fresh"}
    commit(repo, {"docs/decisions/frontend/use-vite.md": _MADR.format(title="Use Vite", extra="")}, "unnumbered")
    hints = [f["hint"] for f in json.loads(run(capsys, "check", "--format", "json").out)["findings"]]
    assert hints == ["git mv docs/decisions/frontend/use-vite.md docs/decisions/frontend/0002-use-vite.md"]


def test_a_record_is_written_into_a_category_and_supersedes_across_them(repo, capsys):
    import json

    from tests.helpers import run

    _categories(repo)
    made = run(
        capsys, "new", "--dir", "docs/decisions/backend", "-s", "1", "Use Rust", "--status", "accepted"
    ).out.strip()
    assert made == "docs/decisions/backend/0003-use-rust.md"
    run(capsys, "supersede", "frontend/1", "--by", "backend/2")
    rows = {r["id"]: r for r in json.loads(run(capsys, "list", "--json").out)}
    assert rows["backend/ADR-0001"]["superseded_by"] == ["backend/ADR-0003"]
    assert rows["backend/ADR-0003"]["supersedes"] == ["backend/ADR-0001"]
    assert rows["frontend/ADR-0001"]["superseded_by"] == ["backend/ADR-0002"]
    assert "superseded-by: [backend/ADR-0002]\n" in (repo / "docs/decisions/frontend/0001-use-react.md").read_text()
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]


def test_subfolders_of_one_count_and_a_number_merged_twice_are_no_categories(tmp_path):
    """cometbft keeps ADR 1-99 in `tendermint-core/` and ADR 100 on at the top: one count, its
    ids unqualified. Two files numbered 5 in two folders are a duplicate, still an error."""
    record = "# {n}. X\n\n## Status\n\nAccepted\n"
    write(
        tmp_path,
        {
            "docs/adr/old/0001-a.md": record.format(n=1),
            "docs/adr/old/0002-b.md": record.format(n=2),
            "docs/adr/0003-c.md": record.format(n=3),
            "docs/adr/0005-d.md": record.format(n=5),
            "docs/adr/old/0005-e.md": record.format(n=5),
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert not cat.categories
    write(tmp_path, {"docs/adr/0000-use-madr.md": record.format(n=0)})  # 0000 on top, 0001 in old/: one count
    assert not catalog.read_worktree(tmp_path, "docs/adr").categories
    from adr_memory.records import normalise_id

    assert [normalise_id(t) for t in ("backend/7", "Team A/7", "../x/7", "a/../7")] == [
        "backend/ADR-0007",
        "Team A/ADR-0007",
        "../x/7",
        "a/../7",
    ]
    assert [r.id for r in cat] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0005", "ADR-0005"]


def test_a_link_to_another_categorys_file_names_that_record(tmp_path):
    nygard = "# {n}. {t}\n\n## Status\n\n{s}\n\n## Context\n\nc\n"
    write(
        tmp_path,
        {
            "docs/adr/backend/0001-use-go.md": nygard.format(
                n=1, t="Use Go", s="Superseded by [2. Vite](../frontend/0002-vite.md)"
            ),
            "docs/adr/frontend/0001-react.md": nygard.format(n=1, t="React", s="Accepted"),
            "docs/adr/frontend/0002-vite.md": nygard.format(
                n=2, t="Vite", s="Accepted\n\nSupersedes [1. Use Go](../backend/0001-use-go.md)"
            ),
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert cat.get("backend/1").superseded_by == ("frontend/ADR-0002",)
    assert cat.get("frontend/2").supersedes == ("backend/ADR-0001",)
    from adr_memory.surfaces import generate

    # the index sits above both: the status's link is written from there
    assert (
        "* [backend/ADR-0001: Use Go](backend/0001-use-go.md) (Superseded by [2. Vite](frontend/0002-vite.md))"
        in generate.toc(cat)
    )


def test_check_base_reads_the_base_as_categories_once_a_second_category_starts(repo, capsys):
    """A branch that adds `frontend/0001-x.md` beside `backend/0001-y.md` turns the folder
    into categories: the base's backend records are read so too, not deleted and re-added."""
    import json

    from tests.helpers import commit, git, run

    commit(
        repo,
        {
            "docs/decisions/backend/0001-use-go.md": _MADR.format(title="Use Go", extra=""),
            "docs/decisions/backend/0002-use-pg.md": _MADR.format(title="Use Postgres", extra=""),
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "feat")
    commit(repo, {"docs/decisions/frontend/0001-use-react.md": _MADR.format(title="Use React", extra="")}, "ui")
    found = json.loads(run(capsys, "check", "--base", "main", "--format", "json").out)
    assert found["ok"] and found["findings"] == []
    report = run(capsys, "review", "--base", "main").out
    assert "frontend/ADR-0001" in report and "backend/ADR-0001" not in report


def test_madrs_templates_copied_into_the_folder_are_no_records_and_no_unnamed_decisions(repo, capsys):
    """MADR says to copy its templates into `docs/decisions`: `adr-template-minimal.md` and
    `adr-template-bare.md` read like decisions, and `adr check` told the user to number them."""
    import json

    from tests.helpers import commit, run

    template = (
        '---\nstatus: "{proposed | accepted}"\n---\n# {short title}\n\n## Context and Problem Statement\n\n'
        "{context}\n\n## Considered Options\n\n* {option}\n\n## Decision Outcome\n\n{outcome}\n"
    )
    commit(
        repo,
        {
            f"docs/decisions/{name}": template
            for name in (
                "adr-template.md",
                "adr-template-minimal.md",
                "adr-template-bare.md",
                "adr-template-bare-minimal.md",
                "XXXX-template.md",
                "YYYY-MM-DD.decision-template.md",
            )
        }
        | {
            "docs/decisions/0000-use-madr.md": _MADR.format(title="Use MADR", extra=""),
            "docs/decisions/template-literals-in-js.md": _MADR.format(title="Template literals", extra=""),
        },
    )
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    assert [(f["kind"], f["path"]) for f in found] == [("unnamed", "docs/decisions/template-literals-in-js.md")]
    assert [r["id"] for r in json.loads(run(capsys, "list", "--json").out)] == ["ADR-0000"]


def test_a_proposal_not_numbered_yet_is_a_record_named_by_its_file(repo, capsys):
    """pyadr names a proposal `XXXX-use-kafka.md` and numbers it when it is accepted: such a
    file was no record (list, search and stale did not see it), and `adr check` said to rename
    it `0002-XXXX-use-kafka.md`."""
    import json

    from tests.helpers import commit, git, run

    madr = "# {title}\n\n* Status: {status}\n* Date: 2020-01-0{day}\n\n## Context and Problem Statement\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0000-record-decisions.md": madr.format(title="Record decisions", status="accepted", day=1),
            "docs/adr/XXXX-use-kafka.md": madr.format(title="Use Kafka", status="proposed", day=2),
            "docs/adr/XXXX-template.md": madr.format(title="[title]", status="[status]", day=3),
        },
    )
    rows = [(r["id"], r["title"], r["status"]) for r in json.loads(run(capsys, "list", "--json").out)]
    assert rows == [("ADR-0000", "Record decisions", "accepted"), ("XXXX-use-kafka", "Use Kafka", "proposed")]
    assert json.loads(run(capsys, "check", "--format", "json").out)["findings"] == []
    run(capsys, "accept", "XXXX-use-kafka")
    assert "* Status: accepted" in (repo / "docs/adr/XXXX-use-kafka.md").read_text()
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "accept")
    before = json.loads(run(capsys, "log", "XXXX-use-kafka", "--json").out)["versions"]
    git(repo, "mv", "docs/adr/XXXX-use-kafka.md", "docs/adr/0001-use-kafka.md")  # as `pyadr accept` numbers it
    git(repo, "commit", "-qm", "number it")
    after = json.loads(run(capsys, "log", "1", "--json").out)["versions"]  # its history follows the rename
    assert [(v["digest"], v["commit"], v["path"]) for v in after] == [
        (v["digest"], v["commit"], v["path"]) for v in before
    ]
    assert run(capsys, "new", "Use Redis").out.strip() == "docs/adr/0002-use-redis.md"


# ---------------------------------------------------------------------------- a folder per record

_PAGE = "# {title}\n\n## Status\n\n{status}\n\n## Context\n\nc\n\n## Decision\n\nd\n"


def test_records_kept_each_in_a_folder_of_its_own(repo, capsys):
    """pipe-cd keeps `adr/yyyymmdd-title/index.md` beside its images (a Hugo page bundle): the
    folder read as empty, since `index.md` is never a record. The folder names the record; a
    year's folder (`2023/README.md`) and the ADR folder's own README stay pages."""
    import json

    from tests.helpers import commit, run

    commit(
        repo,
        {
            "adr/README.md": "# ADRs\n\nOne folder per decision.\n",
            "adr/20240524-pipeline/index.md": _PAGE.format(title="Pipeline as the unit", status="Accepted"),
            "adr/20240524-pipeline/diagram.png": b"\x89PNG\r\n\x1a\n\x00",
            "adr/20240601-use-kafka/index.md": _PAGE.format(
                title="Use Kafka", status="Proposed\n\nSupersedes [Pipeline](../20240524-pipeline/index.md)"
            ),
            "adr/2023/README.md": "# 2023\n\n## Status\n\nAccepted\n\n## Context\n\nthe year's index\n",
        },
        "decisions, a folder each",
    )
    rows = json.loads(run(capsys, "list", "--json").out)  # `adr` is found: no .adr-dir, no docs/adr
    assert [(r["id"], r["title"], r["date"], r["path"]) for r in rows] == [
        ("20240524-pipeline", "Pipeline as the unit", "2024-05-24", "adr/20240524-pipeline/index.md"),
        ("20240601-use-kafka", "Use Kafka", "2024-06-01", "adr/20240601-use-kafka/index.md"),
    ]
    assert rows[0]["superseded_by"] == [] and rows[1]["supersedes"] == ["20240524-pipeline"]
    assert run(capsys, "show", "20240601-use-kafka.md").out.startswith("20240601-use-kafka: Use Kafka")
    assert "index.md" in run(capsys, "show", "index.md", code=2).err  # every page is one: it names none
    run(capsys, "accept", "20240601-use-kafka")
    run(capsys, "supersede", "20240524-pipeline", "--by", "20240601-use-kafka")
    kafka = (repo / "adr/20240601-use-kafka/index.md").read_text()
    assert kafka.count("Supersedes") == 1  # said already, in its own words: not twice
    assert (
        "Superseded by [Use Kafka](../20240601-use-kafka/index.md)"
        in (repo / "adr/20240524-pipeline/index.md").read_text()
    )
    commit(repo, {}, "supersede")
    made = run(capsys, "new", "Use Redis").out.strip()
    assert made.startswith("adr/2") and made.endswith("-use-redis/index.md")
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]
    page = repo / "adr/20240524-pipeline/index.md"
    commit(repo, {"adr/20240524-pipeline/index.md": page.read_text().replace("c\n", "c, revised\n")}, "revise")
    versions = json.loads(run(capsys, "log", "20240524-pipeline", "--json").out)["versions"]
    assert len(versions) == 2 and versions[-1]["transitions"][0]["to"] == "superseded"


def test_numbered_records_in_folders_of_their_own(tmp_path):
    """`000-documenting-architecture-decisions/README.md`: numbered by its folder, and `adr new`
    writes the next one so, its page named as theirs are."""
    from adr_memory import policy
    from adr_memory.history.workspace import Workspace
    from adr_memory.surfaces import generate
    from tests.helpers import git

    write(
        tmp_path,
        {
            "docs/adr/000-documenting-architecture-decisions/README.md": _PAGE.format(
                title="Record decisions", status="Accepted"
            ),
            "docs/adr/001-use-go/README.md": _PAGE.format(title="Use Go", status="Accepted"),
            "docs/adr/README.md": "# Decisions\n\n* [000](000-documenting-architecture-decisions/README.md)\n",
        },
    )
    git(tmp_path, "init", "-q")
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert [(r.id, r.title) for r in cat] == [("ADR-0000", "Record decisions"), ("ADR-0001", "Use Go")]
    assert not cat.categories  # two folders starting at 0 and 1: each its own record, no category
    ws = Workspace.discover(tmp_path)
    path = policy.create(ws, "Use Rust", status="accepted")
    assert path.relative_to(tmp_path).as_posix() == "docs/adr/002-use-rust/README.md"
    assert "* [ADR-0002: Use Rust](002-use-rust/README.md) (Accepted)" in generate.toc(ws.catalog)


@pytest.mark.parametrize(
    ("name", "record", "maybe", "template"),
    [
        ("0007-x.md", True, True, False),
        ("2021-06-01-x.md", True, True, False),
        ("0001-templates-for-x.md", True, True, False),  # a record about templates is a record
        ("use-postgres.md", False, True, False),  # a record only where the folder numbers none
        ("README.md", False, False, False),
        ("Index.MDX", False, False, False),
        ("_partial.md", False, False, False),
        (".hidden.md", False, False, False),
        ("notes.txt", False, False, False),
        ("template.md", False, False, True),
        ("adr-template-minimal.md", False, False, True),
        ("madr-template-bare.md", False, False, True),
        ("decision-template-en.md", False, False, True),
        ("0000-template.md", False, False, True),
        ("adr000-template.md", False, False, True),
        ("XXXX-template.md", False, False, True),
        ("YYYY-MM-DD.decision-template.md", False, False, True),
    ],
)
def test_which_file_names_are_records_and_which_templates(name, record, maybe, template):
    assert catalog.is_record_name(name) is record
    assert catalog.may_be_record(name) is maybe
    assert catalog.is_template_name(name) is template


DEEP = "docs/adr/" + "a/" * 33 + "0001-x.md"  # past MAX_NESTING folders down


@pytest.mark.parametrize(
    ("adr_dir", "path", "holds", "may_hold", "outside"),
    [
        ("docs/adr", "docs/adr/0001-x.md", True, True, False),
        ("docs/adr/", "docs/adr/0001-x.md", True, True, False),
        ("docs/adr", "docs/adr/sub/0001-x.md", True, True, False),  # nested
        ("docs/adr", "docs/adr/0003-x/index.md", True, True, False),  # a folder of its own
        ("docs/adr", "docs/adr/use-x.md", False, True, False),
        ("docs/adr", "docs/adr/.drafts/0001-x.md", False, False, False),  # a hidden folder is read by none
        ("docs/adr", "docs/adr/templates/0001-x.md", False, False, False),
        ("docs/adr", DEEP, False, False, False),
        ("docs/adr", "docs/adrx/0001-x.md", False, False, True),  # a sibling that starts alike
        (".", "0001-x.md", True, True, False),  # a repository of decisions
        (".", "src/main.py", False, False, True),
        ("", "README.md", False, False, True),
    ],
)
def test_which_repository_paths_the_adr_folder_holds(adr_dir, path, holds, may_hold, outside):
    assert catalog.holds(adr_dir, path) is holds
    assert catalog.may_hold(adr_dir, path) is may_hold
    assert catalog.outside(adr_dir, path) is outside


def test_the_folder_as_git_names_it():
    assert (catalog.git_folder("/docs/adr/"), catalog.git_folder("."), catalog.git_folder("/")) == ("docs/adr", "", "")


def _read(data: bytes) -> tuple[str, list[tuple[str, str, int, str | None]]]:
    rec = catalog.parse_bytes("docs/adr/0001-x.md", data)
    return rec.title, [(p.kind, p.message, p.line, p.hint) for p in rec.problems]


@pytest.mark.parametrize(
    ("data", "title", "problems"),
    [
        (
            "# Caf\u00e9\n".encode("utf-16"),  # PowerShell's `>`
            "Caf\u00e9",
            [
                (
                    "encoding",
                    "file is UTF-16, not UTF-8: it is read, and no command edits it",
                    1,
                    "re-save it as UTF-8 (e.g. iconv -f utf-16 -t utf-8)",
                )
            ],
        ),
        (b"# T\n\x00\x01", "X", [("binary", "file is binary, not markdown", 1, "move it out of the ADR folder")]),
        (
            b"# T\n\nline \xe9\n",  # Latin-1: read with a replacement, the problem on its line
            "T",
            [("encoding", "file is not UTF-8", 3, "re-save it as UTF-8 (e.g. iconv -f latin1 -t utf-8)")],
        ),
        (
            b"x" * 1_000_001,
            "X",
            [
                (
                    "too-large",
                    "file is 1,000,001 bytes; a record is prose",
                    1,
                    "split it, or move the attachment out of the ADR folder",
                )
            ],
        ),
        (b"\xef\xbb\xbf# Bom\n", "Bom", []),  # a UTF-8 byte order mark is no problem
        (b"", "X", []),
    ],
)
def test_bytes_that_are_no_readable_record_are_problems_not_errors(data, title, problems):
    assert _read(data) == (title, problems)


def test_a_file_that_could_not_be_read_is_listed_with_its_problem():
    problem = catalog.too_large(5_000_000)
    rec = catalog.parse_bytes("docs/adr/0002-big.md", problem)
    assert (rec.id, rec.title, rec.problems) == ("ADR-0002", "Big", (problem,))
