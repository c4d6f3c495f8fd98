from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from adr_memory import records
from adr_memory.policy.statuses import _status_edit
from tests.helpers import adr_text, commit, git, read_only, run, run_mounted, unshare_works, write


def test_accept_on_a_crlf_bom_record_changes_only_the_status(repo, capsys):
    text = "\ufeff---\r\nstatus: proposed\r\nowner: me # keep\r\n---\r\n# X\r\n\r\nBody  \r\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_bytes().decode() == text.replace("proposed", "accepted")


def test_edits_to_hugo_toml_frontmatter_stay_toml_and_touch_only_their_keys(repo, capsys):
    """Hugo and Zola write TOML between `+++` lines: it was read as body text (no title, no
    status, no date), and `adr accept` wrote a YAML block above it, which broke the page."""
    import tomllib

    text = (
        '+++\r\ntitle = "Use Hugo"  # the site\r\nstatus = "proposed"\r\ndate = 2024-01-02\r\n\r\n'
        "[params]\r\nweight = 2\r\n+++\r\n\r\n## Context\r\n\r\nA site.\r\n"
    )
    commit(repo, {"docs/adr/0001-hugo.md": text, "docs/adr/0002-zola.md": "---\nstatus: accepted\n---\n# Zola\n"})
    listed = run(capsys, "show", "1", "--json").out
    assert '"title": "Use Hugo"' in listed and '"status": "proposed"' in listed and '"date": "2024-01-02"' in listed
    run(capsys, "accept", "1")
    path = repo / "docs/adr/0001-hugo.md"
    assert path.read_bytes().decode() == text.replace("proposed", "accepted")
    run(capsys, "supersede", "1", "--by", "2")
    run(capsys, "affirm", "2", "--note", 'kept "as is"')
    after = path.read_bytes().decode()
    assert after.startswith('+++\r\ntitle = "Use Hugo"  # the site\r\n') and "\n" not in after.replace("\r\n", "")
    meta = tomllib.loads(after.split("+++")[1])
    assert meta["status"] == "superseded" and meta["superseded-by"] == ["ADR-0002"]
    assert meta["params"] == {"weight": 2}  # the new keys sit above Hugo's table, not inside it
    assert after.endswith("+++\r\n\r\n## Context\r\n\r\nA site.\r\n")
    assert run(capsys, "check").err.strip() == "adr check: no problems"


@pytest.mark.parametrize(
    "text",
    [
        "---\nStatus: Proposed\nDate: 2021-03-04\nTags: [db]\n---\n# Use X\n",
        '+++\nStatus = "Proposed"\nDate = 2021-03-04\nTags = ["db"]\n+++\n# Use X\n',
    ],
)
def test_frontmatter_keys_written_like_headings_are_read_and_edited_in_place(repo, capsys, text):
    """`Status: Proposed` was no status (the record read as accepted), and `adr accept` added
    a second key, `status: accepted`, under it."""
    import json

    write(repo, {"docs/adr/0001-x.md": text})
    shown = json.loads(run(capsys, "show", "1", "--json").out)
    assert (shown["status"], shown["date"], shown["tags"]) == ("proposed", "2021-03-04", ["db"])
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace("Proposed", "accepted")


def test_an_edit_refuses_toml_it_cannot_read_and_writes_nothing(repo, capsys):
    text = '+++\ntitle = "Use Hugo\nstatus = "proposed"\n+++\n# X\n'
    commit(repo, {"docs/adr/0001-hugo.md": text})
    err = run(capsys, "accept", "1", code=2).err
    assert "cannot be edited safely: frontmatter is not valid TOML" in err
    assert (repo / "docs/adr/0001-hugo.md").read_text() == text


def test_accept_on_a_nygard_record_rewrites_only_the_status_line(repo, capsys):
    text = "# 1. X\n\nDate: 2020-01-01\n\n## Status\n\n🤔 Proposed\n\n## Context\n\nc\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace(
        "🤔 Proposed", "✅ Accepted"
    )  # the sign goes with the status


def test_a_status_in_the_body_is_edited_there_under_frontmatter_of_other_keys(repo, capsys):
    """A Jekyll page's frontmatter (`layout:`) says nothing of the status: `adr accept` wrote
    `status:` there, and the published Status section went on saying Proposed."""
    page = "---\nlayout: adr\nparent: Decisions\n---\n# 1. Use Jekyll\n\n## Status\n\nProposed\n\n## Context\n\nc\n"
    write(
        repo,
        {
            "docs/adr/0001-use-jekyll.md": page,
            "docs/adr/0002-use-hugo.md": "---\nlayout: adr\n---\n# 2. Use Hugo\n\n## Status\n\nAccepted\n",
        },
    )
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-use-jekyll.md").read_text() == page.replace("Proposed", "Accepted")
    run(capsys, "supersede", "1", "--by", "2")
    assert (repo / "docs/adr/0001-use-jekyll.md").read_text() == page.replace(
        "Proposed", "Superseded by [2. Use Hugo](0002-use-hugo.md)"
    )
    assert "Supersedes [1. Use Jekyll](0001-use-jekyll.md)" in (repo / "docs/adr/0002-use-hugo.md").read_text()
    assert run(capsys, "check").err.strip() == "adr check: no problems"


DRESSED = {  # how hand-written records state a status before their first section
    "bold label": ("**Status:** Proposed", "**Status:** Accepted"),
    "plain label": ("Status: Proposed", "Status: Accepted"),
    "bold list label": ("* **Status**: Proposed", "* **Status**: Accepted"),
    "quoted": ("> Status: Proposed", "> Status: Accepted"),
    "row per key": ("| Status | Proposed |\n| Deciders | Ann |", "| Status | Accepted |\n| Deciders | Ann |"),
    "column per key": (
        "| Status | Deciders |\n|---|---|\n| Proposed | Ann |",
        "| Status | Deciders |\n|---|---|\n| Accepted | Ann |",
    ),
    "heading": ("## Status: Proposed", "## Status: Accepted"),
}


@pytest.mark.parametrize("form", DRESSED)
def test_a_dressed_status_is_read_and_only_its_value_is_edited(repo, capsys, form):
    """`adr accept` replaced the whole line with `Accepted`: the label went (and with it the
    status: read as unstated), a table lost its header row, and a status in a table or a
    heading was not read at all. Accepting is no new version."""
    import json

    before, after = DRESSED[form]
    text = f"# 1. Use X\n\n{before}\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0001-x.md": text, "docs/adr/0002-y.md": "# 2. Use Y\n\n## Status\n\nAccepted\n"})
    listed = json.loads(run(capsys, "list", "--json").out)[0]
    assert listed["status"] == "proposed"
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace(before, after)
    assert json.loads(run(capsys, "list", "--json").out)[0]["version_id"] == listed["version_id"]
    run(capsys, "supersede", "1", "--by", "2")
    superseded = json.loads(run(capsys, "show", "1", "--json").out)
    assert superseded["status"] == "superseded" and superseded["superseded_by"] == ["ADR-0002"]
    assert "## Context\n\nc\n" in (repo / "docs/adr/0001-x.md").read_text()
    assert run(capsys, "check").err.strip() == "adr check: no problems"


CHECKLIST = "## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Superseded by [link]\n\n## Context\n\nc\n"


def test_a_checklist_status_moves_its_tick_and_keeps_every_choice(repo, capsys):
    """A status picked in a checklist was read from its first item (`- [ ] Proposed`: proposed
    whatever was ticked), and an edit replaced that item's text."""
    import json

    commit(
        repo,
        {"docs/adr/0001-x.md": "# 1. X\n\n" + CHECKLIST, "docs/adr/0002-y.md": "# 2. Y\n\n## Status\n\nAccepted\n"},
    )
    path, listed = repo / "docs/adr/0001-x.md", json.loads(run(capsys, "list", "--json").out)[0]
    assert listed["status"] == "accepted"
    run(capsys, "reject", "1")  # no item says Rejected: one is added, ticked
    assert path.read_text() == "# 1. X\n\n" + CHECKLIST.replace("[x] Accepted", "[ ] Accepted").replace(
        "[link]\n", "[link]\n- [x] Rejected\n"
    )
    run(capsys, "accept", "1")  # the tick goes back to the item that says it
    assert path.read_text() == "# 1. X\n\n" + CHECKLIST.replace("[link]\n", "[link]\n- [ ] Rejected\n")
    run(capsys, "supersede", "1", "--by", "2")
    assert "- [ ] Accepted\n- [x] Superseded by [2. Y](0002-y.md)\n- [ ] Rejected\n\n## Context" in path.read_text()
    run(capsys, "link", "1", "relates-to", "2")  # below the list, not inside it
    assert "- [ ] Rejected\n\nRelates-to [2. Y](0002-y.md)\n" in path.read_text()
    shown = json.loads(run(capsys, "show", "1", "--json").out)
    assert (shown["status"], shown["superseded_by"], shown["version_id"]) == (
        "superseded",
        ["ADR-0002"],
        listed["version_id"],
    )
    assert run(capsys, "check").err.strip() == "adr check: no problems"


@pytest.mark.parametrize(
    "before,after",
    [
        (
            "- Status: ~~Proposed~~ **Accepted** _(2026-07-06: accepted by the maintainer)_",
            "- Status: ~~Proposed~~ **Deprecated** _(2026-07-06: accepted by the maintainer)_",
        ),
        (
            "## Status\n\n~~Proposed~~ | **Accepted** | ~~Deprecated soon~~",
            "## Status\n\n~~Proposed~~ | **Deprecated** | ~~Deprecated soon~~",
        ),
    ],
)
def test_a_struck_status_is_history_and_an_edit_changes_only_the_status_word(repo, capsys, before, after):
    """`~~Proposed~~ Accepted` read as proposed: the struck word led."""
    import json

    text = f"# 1. X\n\n{before}\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0001-x.md": text})
    assert json.loads(run(capsys, "show", "1", "--json").out)["status"] == "accepted"
    run(capsys, "deprecate", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace(before, after)
    assert json.loads(run(capsys, "show", "1", "--json").out)["status"] == "deprecated"


def test_a_setext_status_is_edited_in_place_and_is_no_new_version(repo, capsys):
    text = "Use X\n=====\n\nStatus\n------\n\nProposed\n\nContext\n-------\n\nc\n"
    commit(repo, {"docs/adr/0001-x.md": text, "docs/adr/0002-y.md": "# 2. Y\n\n## Status\n\nAccepted\n"})
    before = json.loads(run(capsys, "show", "1", "--json").out)
    assert (before["title"], before["status"]) == ("Use X", "proposed")
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace("Proposed", "Accepted")
    assert json.loads(run(capsys, "show", "1", "--json").out)["version_id"] == before["version_id"]
    run(capsys, "supersede", "1", "--by", "2")
    assert "------\n\nSuperseded by [2. Y](0002-y.md)\n\nContext" in (repo / "docs/adr/0001-x.md").read_text()
    assert run(capsys, "check").err.strip() == "adr check: no problems"


def test_an_edit_writes_the_status_in_the_records_own_language(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": "# ADR-001: Gateway\n\n## Status\n\nAkzeptiert\n\n## Kontext\n\nx\n",
            "docs/adr/0002-m.md": "# ADR-002 Multicanal\n\n## Estado\n\nPropuesto\n\n## Contexto\n\nx\n",
            "docs/adr/0003-o.md": "# ADR-003 — Offline\n\n- Statut : ~~proposée~~ acceptée\n\n## Contexte\n\nx\n",
        },
    )
    versions = {r["id"]: r["version_id"] for r in json.loads(run(capsys, "list", "--json").out)}
    run(capsys, "accept", "2")
    run(capsys, "deprecate", "3")
    run(capsys, "supersede", "1", "--by", "2")
    assert "## Status\n\nErsetzt durch [2. Multicanal](0002-m.md)\n" in (repo / "docs/adr/0001-a.md").read_text()
    assert "## Estado\n\nAceptado\n\nReemplaza a [1. Gateway](0001-a.md)\n" in (repo / "docs/adr/0002-m.md").read_text()
    assert json.loads(run(capsys, "show", "2", "--json").out)["supersedes"] == ["ADR-0001"]
    assert "- Statut : ~~proposée~~ obsolète\n" in (repo / "docs/adr/0003-o.md").read_text()
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["title"], r["status"]) for r in listed] == [
        ("Gateway", "superseded"),
        ("Multicanal", "accepted"),
        ("Offline", "deprecated"),
    ]
    assert {r["id"]: r["version_id"] for r in listed} == versions
    assert run(capsys, "check").err.strip() == "adr check: no problems"


@pytest.mark.parametrize("newline,bom", [("\n", ""), ("\r\n", "\ufeff")])
def test_a_status_stated_in_frontmatter_and_body_changes_in_both(repo, capsys, newline, bom):
    """Only the frontmatter changed: the page went on saying Proposed, and `adr check` warned
    that the two disagree, about an edit of our own."""
    page = "---\nstatus: proposed\nlayout: adr\n---\n# 1. X\n\n## Status\n\nProposed\n\n## Context\n\nc\n"
    write(
        repo,
        {
            "docs/adr/0001-x.md": (bom + page.replace("\n", newline)).encode(),
            "docs/adr/0002-y.md": "---\nstatus: accepted\n---\n# 2. Y\n",
        },
    )
    run(capsys, "accept", "1")
    path = repo / "docs/adr/0001-x.md"
    accepted = page.replace("proposed", "accepted").replace("Proposed", "Accepted")
    assert path.read_bytes().decode() == bom + accepted.replace("\n", newline)
    run(capsys, "supersede", "1", "--by", "2")
    text = path.read_bytes().decode()
    assert "status: superseded" in text and f"## Status{newline}{newline}Superseded{newline}" in text
    assert run(capsys, "check").err.strip() == "adr check: no problems"


def test_reject_on_a_madr_list_header_keeps_the_bullet(repo, capsys):
    text = "# X\n\n* Status: proposed\n* Deciders: a\n\n## Context and Problem Statement\n\nc\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "reject", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace("proposed", "rejected")


def test_supersede_writes_both_sides_in_each_records_own_style(repo, capsys):
    write(
        repo,
        {
            "docs/adr/0001-old.md": "# 1. Old\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
            "docs/adr/0002-new.md": "---\nstatus: accepted\n---\n# New\n",
        },
    )
    run(capsys, "supersede", "1", "--by", "2")
    old = records.parse((repo / "docs/adr/0001-old.md").read_text(), "0001-old.md")
    new = records.parse((repo / "docs/adr/0002-new.md").read_text(), "0002-new.md")
    assert old.status == "superseded" and old.superseded_by == ("ADR-0002",)
    assert "Superseded by [2. New](0002-new.md)" in (repo / "docs/adr/0001-old.md").read_text()
    assert new.supersedes == ("ADR-0001",) and new.status == "accepted"
    assert run(capsys, "check").out == ""


def test_link_with_reverse_and_adr_tools_template(repo, capsys):
    write(
        repo,
        {
            "docs/adr/templates/template.md": "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n",
            "docs/adr/0001-a.md": "---\nstatus: accepted\n---\n# A\n",
        },
    )
    path = run(capsys, "new", "B").out.strip()
    assert (repo / path).read_text().startswith("# 2. B\n\nDate: ")
    run(capsys, "link", "2", "Amends", "1", "Amended by")
    assert "Amends [1. A](0001-a.md)" in (repo / path).read_text()
    a = records.parse((repo / "docs/adr/0001-a.md").read_text(), "0001-a.md")
    assert a.meta["links"] == [{"rel": "amended by", "id": "ADR-0002"}]


NYGARD_FOLDER = {
    f"doc/adr/000{n}-{slug}.md": f"# {n}. {title}\n\nDate: 2020-01-0{n}\n\n## Status\n\nAccepted\n\n"
    f"## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\ne\n"
    for n, slug, title in ((1, "record", "Record"), (2, "use-postgres", "Use Postgres"))
}


def test_new_in_an_adr_tools_folder_writes_what_adr_tools_writes(repo, capsys):
    """No config, no templates/template.md: the folder's own style, not ours."""
    write(repo, {**NYGARD_FOLDER, ".adr-dir": "doc/adr\n"})
    path = run(capsys, "new", "-s", "2", "Use CockroachDB").out.strip()
    text = (repo / path).read_text()
    assert text.startswith("# 3. Use CockroachDB\n\nDate: ")
    assert "## Status\n\nProposed\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)\n" in text
    old = (repo / "doc/adr/0002-use-postgres.md").read_text()
    assert old == NYGARD_FOLDER["doc/adr/0002-use-postgres.md"]  # in force until the successor is accepted
    run(capsys, "accept", "3")
    old = (repo / "doc/adr/0002-use-postgres.md").read_text()
    assert old == NYGARD_FOLDER["doc/adr/0002-use-postgres.md"].replace(
        "Accepted", "Superseded by [3. Use CockroachDB](0003-use-cockroachdb.md)"
    )
    run(capsys, "init")
    assert "\ntemplate = " not in (repo / ".adr-memory.toml").read_text()  # init keeps the folder's own style
    after = (repo / run(capsys, "new", "Use SQLite").out.strip()).read_text()
    assert after.startswith("# 4. Use SQLite\n\nDate: ")  # as adr-tools writes it, after init too


@pytest.mark.parametrize(
    "folder, setting, starts",
    [
        ({"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")}, "", "---\n"),
        ({}, "", "---\n"),  # a new folder: MADR with our frontmatter
        ({k.replace("doc/", "docs/"): v for k, v in NYGARD_FOLDER.items()}, 'template = "madr"\n', "---\n"),
        ({"docs/adr/0001-a.md": adr_text("A")}, 'template = "nygard"\n', "# 2. Next\n"),
    ],
)
def test_a_set_template_wins_and_other_folders_get_madr(repo, capsys, folder, setting, starts):
    write(repo, {**folder, ".adr-memory.toml": setting})
    path = run(capsys, "new", "Next").out.strip()
    assert (repo / path).read_text().startswith(starts)


@pytest.mark.parametrize(
    "first,made",
    [
        ("adr-007-a.md", "adr-008-next-one.md"),
        ("ADR_007-a.md", "ADR_008-next-one.md"),
        ("adr007-a.md", "adr008-next-one.md"),
        ("007-a.md", "008-next-one.md"),
    ],
)
def test_new_follows_the_folders_own_numbering(repo, capsys, first, made):
    write(repo, {f"docs/adr/{first}": "# ADR 007: A\n\n## Status\n\nAccepted\n"})
    assert run(capsys, "new", "Next one").out == f"docs/adr/{made}\n"


# ---------------------------------------------------------------------------- safety (issue 12)


def _adr(*args, cwd, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "adr_memory", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw
    )


def test_concurrent_new_never_reuses_a_number_or_loses_a_record(repo):
    """Four real processes per round, one title: every record is kept, every number distinct."""
    write(repo, {"docs/adr/0001-a.md": adr_text("A")})
    for _round in range(3):
        procs = [_adr("new", "Same title", cwd=repo) for _ in range(4)]
        assert all(p.wait(timeout=120) == 0 for p in procs)
    names = sorted(p.name for p in (repo / "docs/adr").iterdir())
    numbers = [records.file_number(n) for n in names]
    assert len(names) == 13 and numbers == list(range(1, 14))


@pytest.mark.parametrize("status", ["rejected", "deprecated"])
def test_a_decision_no_longer_in_force_supersedes_nothing(repo, capsys, status):
    commit(repo, {"docs/adr/0002-b.md": adr_text("B"), "docs/adr/0003-c.md": adr_text("C", status=status)})
    before = {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()}
    refused = run(capsys, "supersede", "2", "--by", "3", code=2)
    assert refused.err.splitlines()[0] == f"error: ADR-0003 is {status}: a decision no longer in force replaces nothing"
    assert {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()} == before


def test_a_second_successor_is_not_accepted_for_a_decision_already_replaced(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0002-b.md": adr_text("Use MongoDB"),
            "docs/adr/0003-c.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0002]"),
            "docs/adr/0004-d.md": adr_text("Use CockroachDB", status="proposed", extra="supersedes: [ADR-0002]"),
        },
    )
    run(capsys, "accept", "3")
    before = {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()}
    refused = run(capsys, "accept", "4", code=2).err.splitlines()
    assert refused == [
        "error: ADR-0002 was already replaced by ADR-0003, which is in force: ADR-0004 would replace it a second time",
        "hint: make ADR-0004 replace ADR-0003 instead (adr supersede ADR-0003 --by ADR-0004), then accept it; "
        "or reject ADR-0004",
    ]
    assert {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()} == before


def test_accepting_a_decision_whose_key_another_in_force_holds_is_refused(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use PostgreSQL", extra="conflict-key: db.primary\nvalue: postgres"),
            "docs/adr/0002-b.md": adr_text(
                "Use MySQL", status="proposed", extra="conflict-key: db.primary\nvalue: mysql"
            ),
            "docs/adr/0003-c.md": adr_text(
                "Use CockroachDB", status="proposed", extra="conflict-key: db.primary\nsupersedes: [ADR-0001]"
            ),
        },
    )
    before = (repo / "docs/adr/0002-b.md").read_bytes()
    refused = run(capsys, "accept", "2", code=2).err.splitlines()
    assert refused == [
        "error: db.primary is already decided by ADR-0001 (Use PostgreSQL)",
        "hint: adr supersede ADR-0001 --by ADR-0002 to supersede it, or declare `cardinality: multi` if several "
        "decisions may hold it",
    ]
    assert (repo / "docs/adr/0002-b.md").read_bytes() == before
    run(capsys, "accept", "3")  # one that supersedes the holder takes the key


def test_a_decision_is_never_linked_to_itself(repo, capsys):
    commit(repo, {"docs/adr/0002-b.md": adr_text("B")})
    before = (repo / "docs/adr/0002-b.md").read_bytes()
    refused = run(capsys, "link", "2", "Amends", "ADR-0002", code=2)
    assert refused.err.splitlines() == [
        "error: a decision cannot be linked to itself (ADR-0002 Amends ADR-0002)",
        "hint: name the other decision: adr link ADR-0002 'Amends' OTHER",
    ]
    assert (repo / "docs/adr/0002-b.md").read_bytes() == before


def test_concurrent_links_into_one_record_are_all_kept(repo):
    write(repo, {f"docs/adr/{n:04d}-r.md": adr_text(f"R{n}") for n in range(1, 9)})
    procs = [_adr("link", str(n), "Relates to", "1", "Relates to", cwd=repo) for n in range(2, 9)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    one = records.parse((repo / "docs/adr/0001-r.md").read_text(), "docs/adr/0001-r.md")
    assert sorted(one.linked("relates-to")) == [f"ADR-{n:04d}" for n in range(2, 9)]


def test_an_edit_refuses_when_the_file_changed_under_it(repo):
    from adr_memory import policy
    from adr_memory.errors import InvalidRecord
    from adr_memory.history.workspace import Workspace

    write(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed")})
    ws = Workspace.discover(repo)
    edits = policy.Transaction(ws)
    edits.edit("docs/adr/0001-a.md", lambda text, rec: _status_edit(text, rec, "accepted"))
    changed = adr_text("A", status="proposed", body="Someone else's edit.")
    write(repo, {"docs/adr/0001-a.md": changed})
    with pytest.raises(InvalidRecord, match="changed while"):
        edits.commit()
    assert (repo / "docs/adr/0001-a.md").read_text() == changed


@pytest.mark.skipif(not unshare_works(), reason="needs unshare for a read-only bind mount")
@pytest.mark.parametrize("args", [("supersede", "1", "--by", "2"), ("new", "Third", "-s", "1", "--status", "accepted")])
def test_a_multi_file_edit_whose_last_write_fails_writes_nothing(repo, args):
    """The old record is mounted read-only (a real failing write): the command fails and the
    records written before it are put back; a new record is removed again."""
    before = {"docs/adr/0001-old.md": adr_text("Old"), "docs/adr/0002-new.md": adr_text("New")}
    commit(repo, before)
    old = repo / "docs/adr/0001-old.md"
    done = run_mounted(repo, read_only(old), *args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: cannot write") and "Traceback" not in done.stderr
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-old.md", "0002-new.md"]
    for rel, text in before.items():
        assert (repo / rel).read_text() == text


@pytest.mark.skipif(not unshare_works(), reason="needs unshare for a read-only bind mount")
@pytest.mark.parametrize("layout", ["docs/adr/0001-old.md", "docs/adr/0001-old/index.md"])
def test_new_in_a_read_only_folder_says_so_and_writes_nothing(repo, layout):
    """A read-only checkout: `adr new` failed with an internal error ("generator didn't stop
    after throw()"): the lock's fallback caught the write's OSError and yielded twice."""
    commit(repo, {layout: adr_text("Old")})
    done = run_mounted(repo, read_only(repo / "docs/adr"), "new", "Use Y")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: cannot write") and "Read-only file system" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert git(repo, "status", "--porcelain") == ""


def test_template_words_inside_the_title_are_kept_as_typed(repo, capsys):
    write(repo, {"docs/adr/templates/template.md": "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n"})
    path = run(capsys, "new", "Use UTC DATE and NUMBER for TITLE {date}").out.strip()
    text = (repo / path).read_text()
    assert text.startswith("# 1. Use UTC DATE and NUMBER for TITLE {date}\n\nDate: 20")


def test_new_records_follow_the_umask(repo, capsys):
    old = os.umask(0o002)
    try:
        path = run(capsys, "new", "Group writable").out.strip()
    finally:
        os.umask(old)
    assert (repo / path).stat().st_mode & 0o777 == 0o664


@pytest.mark.parametrize("args", [("affirm", "1", "--note", b"\xff"), ("search", b"\xff"), ("new", b"caf\xe9")])
def test_undecodable_arguments_exit_2_and_write_nothing(repo, args):
    write(repo, {"docs/adr/0001-a.md": adr_text("A")})
    before = (repo / "docs/adr/0001-a.md").read_bytes()
    argv = [a if isinstance(a, bytes) else a.encode() for a in args]
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"adr_memory", *argv], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.startswith("error: argument")
    assert "hint:" in done.stderr and "Traceback" not in done.stderr
    assert (repo / "docs/adr/0001-a.md").read_bytes() == before
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-a.md"]


def test_new_with_reasons_writes_a_complete_record_in_the_folders_template(repo, capsys):
    write(
        repo,
        {
            "docs/adr/templates/template.md": "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n"
            "## Context\n\n<!-- forces -->\n\n## Decision\n\n<!-- we will -->\n\n"
            "## Consequences\n\n<!-- effects -->\n"
        },
    )
    path = run(
        capsys,
        "new",
        "Use Redis",
        "--context",
        "Jobs pile up.",
        "--option",
        "Redis",
        "--option",
        "RabbitMQ",
        "--decision",
        "We will use Redis.",
        "--consequences",
        "Simpler ops.",
    ).out.strip()
    rec = records.parse((repo / path).read_text(), path)
    assert [s.heading for s in rec.sections] == ["Status", "Context", "Considered Options", "Decision", "Consequences"]
    assert rec.section("decision").text == "We will use Redis." and "<!--" not in rec.body
    run(capsys, "accept", "1")
    assert "placeholder" not in run(capsys, "check").out


def test_new_body_file_and_placeholders_flagged_when_accepted(repo, capsys, tmp_path):
    body = tmp_path / "body.md"
    body.write_text("## Context\n\nBecause.\n\n## Decision\n\nWe will.\n")
    path = run(capsys, "new", "From a file", "--body-file", str(body)).out.strip()
    assert (repo / path).read_text().split("---\n", 2)[
        2
    ] == "# From a file\n\n## Context\n\nBecause.\n\n## Decision\n\nWe will.\n"
    run(capsys, "new", "Left blank", "--status", "accepted")
    out = run(capsys, "check").out
    assert "0002-left-blank.md" in out and "warning: placeholder: section 'Decision Outcome'" in out
    assert "0001-from-a-file" not in out


def test_a_body_file_with_no_end_is_refused_and_nothing_written(repo, capsys):
    err = run(capsys, "new", "Endless", "--body-file", "/dev/zero", code=2).err
    assert err.startswith("error: /dev/zero is over 1,000,000 bytes") and "hint: " in err
    assert not (repo / "docs/adr").exists() or not list((repo / "docs/adr").glob("*endless*"))


def test_new_body_file_in_a_nygard_folder_keeps_the_status_it_was_given(repo, capsys, tmp_path):
    """`--body-file` replaced everything under the title, the Status section with it: a record
    made `--status proposed` read as accepted."""
    nygard = "# {n}. R\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0001-r.md": nygard.format(n=1), "docs/adr/0002-r.md": nygard.format(n=2)})
    body = tmp_path / "body.md"
    body.write_text("## Context\n\nBecause.\n\n## Decision\n\nWe will.\n")
    path = run(capsys, "new", "From a file", "--status", "proposed", "--body-file", str(body)).out.strip()
    text = (repo / path).read_text()
    assert text.startswith("# 3. From a file\n\nDate: ") and "## Status\n\nProposed\n" in text
    assert text.endswith("-->\n\n## Context\n\nBecause.\n\n## Decision\n\nWe will.\n")
    assert json.loads(run(capsys, "show", "3", "--json").out)["status"] == "proposed"


@pytest.mark.parametrize(
    "title, name",
    [
        ("Überprüfung der Datenbank für Nutzer", "0001-uberprufung-der-datenbank-fur-nutzer.md"),
        ("Straße, Œuvre & Łódź", "0001-strasse-oeuvre-lodz.md"),
        ("使用 PostgreSQL 数据库", "0001-postgresql.md"),
        ("数据库", "0001-decision.md"),
    ],
)
def test_a_title_in_any_script_gives_an_ascii_file_name(repo, capsys, title, name):
    path = run(capsys, "new", title).out.strip()
    assert path == f"docs/adr/{name}"
    assert records.parse((repo / path).read_text(), name).title == title


def test_supersede_says_a_relation_once_when_the_record_says_it_in_its_own_words(repo, capsys):
    """`Supersedes [Pipeline](0001-pipeline.md)` written by hand: `adr supersede` wrote a
    second `Supersedes [1. Pipeline as the unit](...)` line under it."""
    from tests.helpers import commit, run

    nygard = "# {n}. {t}\n\n## Status\n\n{s}\n\n## Context\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0001-pipeline.md": nygard.format(n=1, t="Pipeline as the unit", s="Accepted"),
            "docs/adr/0002-kafka.md": nygard.format(
                n=2, t="Use Kafka", s="Accepted\n\nSupersedes [Pipeline](0001-pipeline.md)"
            ),
        },
    )
    before = (repo / "docs/adr/0002-kafka.md").read_bytes()
    run(capsys, "supersede", "1", "--by", "2")
    assert (repo / "docs/adr/0002-kafka.md").read_bytes() == before
    assert "Superseded by [2. Use Kafka](0002-kafka.md)" in (repo / "docs/adr/0001-pipeline.md").read_text()


# ---------------------------------------------------------------------------- the folder's own template

_MADR_TEMPLATE = """---
# These are optional elements. Feel free to remove any of them.
status: {proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)}
date: {YYYY-MM-DD when the decision was last updated}
deciders: {list everyone involved in the decision}
---
# {short title of solved problem and solution}

## Context and Problem Statement

{Describe the context and problem statement.}

<!-- This is an optional element. Feel free to remove. -->
## Decision Drivers

* {decision driver 1, e.g., a force, facing concern, …}

## Considered Options

* {title of option 1}

## Decision Outcome

Chosen option: "{title of option 1}", because {justification}.

### Consequences

* Good, because {positive consequence}
"""


def test_new_writes_the_template_madr_says_to_copy_into_the_folder(repo, capsys):
    """MADR says to copy `adr-template.md` (and its -minimal, -bare kin) into the folder; `adr
    new` wrote our bundled template instead, and `--decision` landed in "Decision Drivers"."""
    import yaml

    commit(
        repo,
        {
            "docs/decisions/adr-template.md": _MADR_TEMPLATE,
            "docs/decisions/adr-template-minimal.md": "---\nstatus: {proposed | accepted}\n---\n# {title}\n",
            "docs/decisions/0001-use-madr.md": "---\nstatus: accepted\n---\n# Use MADR\n\n"
            "## Context and Problem Statement\n\nRecords.\n",
        },
    )
    made = run(
        capsys,
        "new",
        "Use Kafka: the log",
        "--governs",
        "src/**",
        "--decision",
        "Kafka.",
        "--context",
        "We need a log.",
    ).out.strip()
    text = (repo / made).read_text()
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["status"] == "proposed" and meta["governs"] == ["src/**"]
    assert str(meta["date"]) == record_date_today()
    assert "\n# Use Kafka: the log\n" in text and "## Decision Drivers\n\n* {decision driver 1" in text
    # the comment MADR writes above an optional heading belongs to that heading: it stays
    assert "We need a log.\n\n<!-- This is an optional element. Feel free to remove. -->\n## Decision Drivers" in text
    assert "## Decision Outcome\n\nKafka.\n\n### Consequences" in text  # its subsection stays
    assert json.loads(run(capsys, "show", "2", "--json").out)["status"] == "proposed"
    bundled = (repo / run(capsys, "new", "Use Go", "--template", "madr").out.strip()).read_text()
    assert "decision-makers: []" in bundled  # a bundled template, named, is still ours


def record_date_today() -> str:
    import datetime as dt

    return dt.date.today().isoformat()


def test_new_fills_a_docs_site_template_and_states_the_status_it_leaves_out(repo, capsys):
    """backstage's `adr000-template.md`: `title: ADR000: [TITLE]` (no YAML once filled unless
    quoted), its page id numbered, and no status (the record would read as accepted)."""
    template = (
        "---\nid: adrs-adr000\ntitle: ADR000: [TITLE]\ndescription: ADR for [TITLE]\n---\n\n"
        "<!-- short noun phrases -->\n\n## Context\n\n<!-- forces -->\n"
    )
    commit(
        repo,
        {
            "docs/architecture-decisions/adr000-template.md": template,
            "docs/architecture-decisions/adr014-use-fetch.md": "---\nid: adrs-adr014\ntitle: 'ADR014: Use fetch'\n---\n\n## Context\n\nc\n\n## Decision\n\nd\n",
            ".adr-dir": "docs/architecture-decisions\n",
        },
    )
    made = run(capsys, "new", "Use Kafka").out.strip()
    assert made == "docs/architecture-decisions/adr015-use-kafka.md"
    shown = json.loads(run(capsys, "show", "15", "--json").out)
    assert (shown["id"], shown["title"], shown["status"], shown["status_stated"]) == (
        "ADR-0015",
        "Use Kafka",
        "proposed",
        True,
    )
    assert (repo / made).read_text().startswith("---\nid: adrs-adr015\ntitle: 'ADR015: Use Kafka'\n")
    commit(
        repo,
        {
            "docs/architecture-decisions/template.md": "# Title\n\n## Status\n\n<!-- which -->\n\n"
            "## Context\n\n<!-- forces -->\n"
        },
    )
    made = run(capsys, "new", "Use Redis").out.strip()  # `template.md`, the shorter name, wins
    assert (repo / made).read_text().startswith("# Use Redis\n\n## Status\n\nProposed\n\n## Context\n")


def test_a_template_that_links_out_of_the_repository_is_not_read(repo, capsys, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("# {title}\n\nprivate key material\n")
    commit(repo, {"docs/adr/0001-x.md": adr_text("X")})
    (repo / "docs/adr/template.md").symlink_to(secret)
    err = run(capsys, "new", "Use Y", code=2).err
    assert "cannot use the template docs/adr/template.md: symlink points outside the repository" in err
    (repo / "docs/adr/template.md").unlink()
    (repo / "docs/adr/templates").mkdir()
    (repo / "docs/adr/templates/template.md").symlink_to(secret)  # adr-tools' place: read through it before
    err = run(capsys, "new", "Use Y", code=2).err
    assert "cannot use the template docs/adr/templates/template.md" in err
    (repo / "docs/adr/templates/template.md").unlink()
    (repo / "docs/adr/templates").rmdir()
    (repo / "docs/adr/templates").symlink_to(tmp_path)  # the folder links out, the file is plain
    (tmp_path / "template.md").write_text(secret.read_text())
    err = run(capsys, "new", "Use Y", code=2).err
    assert "cannot use the template docs/adr/templates/template.md: symlink points outside" in err
    assert not list((repo / "docs/adr").glob("0002-*"))


def test_supersede_in_madr_2_header_lists_writes_a_link_it_reads_back(repo, capsys):
    """MADR 2 states the status in a list under the title (`* Status: accepted`, `* Date: ...`).
    `adr supersede` wrote its link line into the middle of that list, which no reader took for a
    link: `adr check` then warned, with a hint to run the same command again."""
    madr2 = "# {t}\n\n* Status: accepted\n* Date: 2021-0{n}-01\n\n## Context and Problem Statement\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0001-use-x.md": madr2.format(t="Use X", n=1),
            "docs/adr/0002-use-y.md": madr2.format(t="Use Y", n=2),
        },
    )
    run(capsys, "supersede", "1", "--by", "2")
    assert (
        (repo / "docs/adr/0002-use-y.md")
        .read_text()
        .startswith("# Use Y\n\n* Status: accepted\n* Supersedes [1. Use X](0001-use-x.md)\n* Date: 2021-02-01\n")
    )
    # in the case of the status it replaces, as MADR 2 writes it (`* Status: superseded by [ADR-0005](...)`)
    assert "* Status: superseded by [2. Use Y](0002-use-y.md)\n" in (repo / "docs/adr/0001-use-x.md").read_text()
    assert json.loads(run(capsys, "show", "2", "--json").out)["supersedes"] == ["ADR-0001"]
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]
    prose = "# Z\n\n* Status: accepted\n\nThis builds on [1. Use X](0001-use-x.md).\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0003-z.md": prose})
    assert json.loads(run(capsys, "show", "3", "--json").out)["links"] == []  # prose, no relation


def test_prose_under_the_title_that_says_superseded_is_the_status_and_stays_as_written(repo, capsys):
    """tdr writes no status, but "This decision has been superseded by decision: [0009 ...](...)"
    under a title: the record read as accepted, in force. `adr supersede` then added frontmatter
    to say it again; `adr accept` must not rewrite the sentence."""
    prose = (
        "# 8. Keycloak admins\n\n**Date:** 2020-06-17\n\nThis decision has been superseded by decision: "
        "[0009 Keycloak admins](0009-keycloak-admins.md) \n\n## Context\n\nc\n"
    )
    plain = "# {n}. {t}\n\n**Date:** 2020-07-21\n\n## Context\n\nSee [ADR 8](0008-keycloak.md); replaced by nothing.\n"
    commit(
        repo,
        {
            "docs/adr/0008-keycloak.md": prose,
            "docs/adr/0009-keycloak-admins.md": plain.format(n=9, t="Keycloak admins"),
        },
    )
    shown = json.loads(run(capsys, "show", "8", "--json").out)
    assert (shown["status"], shown["status_stated"], shown["superseded_by"]) == ("superseded", True, ["ADR-0009"])
    nine = json.loads(run(capsys, "show", "9", "--json").out)
    assert (nine["status"], nine["status_stated"], nine["links"]) == ("accepted", False, [])
    run(capsys, "supersede", "8", "--by", "9")
    assert (repo / "docs/adr/0008-keycloak.md").read_text() == prose  # it says so already
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]
    # ADR-0009 is in force: accepting ADR-0008 again beside it is refused, the file left as it is
    assert "superseded by ADR-0009, which is in force" in run(capsys, "accept", "8", code=2).err
    assert (repo / "docs/adr/0008-keycloak.md").read_text() == prose


def test_new_in_a_log4brains_folder_keeps_tags_in_its_header_list(repo, capsys):
    """log4brains' template keeps `- Tags: [space and/or comma separated list of tags]` in its
    header list: `--tag` added frontmatter beside it, and the blank left in read as a tag."""
    template = (
        "# [short title of solved problem and solution]\n\n"
        "- Status: [draft | proposed | rejected | accepted | deprecated | … | superseded by [xxx](yyyymmdd-xxx.md)]\n"
        "- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n"
        "- Tags: [space and/or comma separated list of tags] <!-- optional -->\n\n"
        "## Context and Problem Statement\n\n[Describe the context.]\n"
    )
    commit(
        repo,
        {
            "docs/adr/template.md": template,
            "docs/adr/20200101-use-log4brains.md": "# Use Log4brains\n\n- Status: accepted\n"
            "- Tags: dev-tools, doc\n\n## Context and Problem Statement\n\nc\n",
        },
    )
    made = run(capsys, "new", "Use Kafka", "--tag", "events", "--tag", "streaming").out.strip()
    text = (repo / made).read_text()
    assert text.startswith("# Use Kafka\n\n- Status: proposed\n- Date: ") and "\n- Tags: events, streaming\n" in text
    plain = run(capsys, "new", "Use NATS").out.strip()
    tags = {r["path"]: r["tags"] for r in json.loads(run(capsys, "list", "--json").out)}
    assert tags == {
        "docs/adr/20200101-use-log4brains.md": ["dev-tools", "doc"],
        made: ["events", "streaming"],
        plain: [],
    }


def test_a_dated_status_log_reads_its_last_entry_and_gets_a_new_one(repo, capsys):
    """phodal's `adr` keeps a log under `## Status` (`2018-10-16 proposed`, then `2018-10-20
    accepted`, below a line of choices): its first line was read (the choices, "proposed"), and
    an edit rewrote an entry of the log instead of adding one."""
    logged = (
        "# 3. Use X\n\nDate: 2018-10-16\n\n## Status\n\nSTATUS：proposed/accepted/done/deprecated/superseded\n\n"
        "2018-10-16 proposed \n\n2018-10-20 accepted\n\n## Context\n\nc\n"
    )
    commit(repo, {"docs/adr/0003-use-x.md": logged})
    shown = json.loads(run(capsys, "show", "3", "--json").out)
    assert (shown["status"], shown["status_text"]) == ("accepted", "2018-10-20 accepted")
    run(capsys, "deprecate", "3", "--reason", "we left X")
    from adr_memory.policy.statuses import today

    text = (repo / "docs/adr/0003-use-x.md").read_text()
    assert text == logged.replace("2018-10-20 accepted\n", f"2018-10-20 accepted\n\n{today()} deprecated: we left X\n")
    shown = json.loads(run(capsys, "show", "3", "--json").out)
    assert (shown["status"], shown["version_id"]) == (
        "deprecated",
        json.loads(run(capsys, "log", "3", "--json").out)["versions"][0]["version_id"],
    )


def test_a_status_labelled_in_its_section_is_read_and_edited_after_the_label(repo, capsys):
    """adrgen writes `## Status` over `Status: accepted` (and edits that line): every such
    record read as status unknown, with a warning that `Status: accepted` is no status."""
    adrgen = (
        "# Use Postgres\n\nDate: 2021-03-02\n\n## Status\n\nStatus: accepted\n\n## Context\n\nc\n\n## Decision\n\nd\n"
    )
    amended = (
        "# Cache reads\n\nDate: 2021-05-02\n\n## Status\n\n**Status:** amended\n\n"
        "Amended by [Use Postgres](0001-use-postgres.md)\n\n## Context\n\nc\n"
    )
    commit(repo, {"docs/adr/0001-use-postgres.md": adrgen, "docs/adr/0002-cache-reads.md": amended})
    rows = {r["id"]: (r["status"], r["status_text"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert rows == {"ADR-0001": ("accepted", "accepted"), "ADR-0002": ("accepted", "amended")}
    assert run(capsys, "check").code == 0
    run(capsys, "deprecate", "1")
    assert (repo / "docs/adr/0001-use-postgres.md").read_text() == adrgen.replace(
        "Status: accepted", "Status: deprecated"
    )
    assert json.loads(run(capsys, "show", "1", "--json").out)["status"] == "deprecated"


def test_camel_case_keys_are_read_and_edited_where_they_are(repo, capsys):
    """Sites whose content schemas are JavaScript write `supersededBy:`: the successor went
    unread, and `adr supersede` added `superseded-by:` beside the key the record has."""
    old = "---\ntitle: Use X\nstatus: accepted\nsupersededBy: null\n---\n# Use X\n\n## Context\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0001-use-x.md": old,
            "docs/adr/0002-use-y.md": adr_text("Use Y", status="proposed"),
            "docs/adr/0003-use-z.md": "---\nstatus: superseded\nsupersededBy: ADR-0002\n---\n# Use Z\n",
        },
    )
    shown = json.loads(run(capsys, "show", "3", "--json").out)
    assert (shown["status"], shown["superseded_by"]) == ("superseded", ["ADR-0002"])
    run(capsys, "supersede", "1", "--by", "2")
    run(capsys, "accept", "2")  # the supersession completes on acceptance
    assert (repo / "docs/adr/0001-use-x.md").read_text() == old.replace(
        "status: accepted\nsupersededBy: null", "status: superseded\nsupersededBy: [ADR-0002]"
    )
    assert run(capsys, "check").code == 0


def test_new_from_a_template_copied_whole_titles_the_records_own_heading(repo, capsys):
    """A folder's template kept whole from Joel Parker Henderson's collection opens with the
    template's own heading and introduction above `# Title`: `adr new` left `# Title` as it was
    (the template's heading has no title placeholder), and the record was titled "Title"."""
    template = (
        "# Decision record template by Michael Nygard\n\nIn each ADR file, write these sections:\n\n"
        f"# Title\n\n## Status\n\n{_ASKED}\n\n## Context\n\nWhat is the issue?\n"
    )
    commit(
        repo,
        {
            "docs/adr/template.md": template,
            "docs/adr/0001-use-x.md": "# Use X\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
        },
    )
    path = run(capsys, "new", "Use Kafka").out.strip()
    assert (repo / path).read_text() == template.replace("# Title", "# Use Kafka").replace(
        "?\n\n## Context", "?\n\nProposed\n\n## Context"
    )
    assert json.loads(run(capsys, "show", "2", "--json").out)["title"] == "Use Kafka"


def test_fields_that_end_in_an_html_break_and_a_decision_status_field(repo, capsys):
    """Records that force line breaks in their header (`**Status:** Accepted<br>`) showed the
    date as `2026-08-29<br>`, and an edit dropped the break; `**Decision status:** accepted`
    was no status at all."""
    broken = "# Cutover\n\n**Status:** Accepted<br>\n**Date:** 2026-08-29<br>\n**Owners:** A<br>\n\n## Context\n\nc\n"
    named = "# 0004 — Publish\n\n**Decision status:** accepted<br>\n**Implementation:** verified\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0003-cutover.md": broken, "docs/adr/0004-publish.md": named})
    rows = {
        r["id"]: (r["status"], r["status_text"], r["date"], r["version_id"])
        for r in json.loads(run(capsys, "list", "--json").out)
    }
    assert {k: v[:3] for k, v in rows.items()} == {
        "ADR-0003": ("accepted", "Accepted", "2026-08-29"),
        "ADR-0004": ("accepted", "accepted", None),
    }
    run(capsys, "deprecate", "3")
    run(capsys, "deprecate", "4")
    assert (repo / "docs/adr/0003-cutover.md").read_text() == broken.replace("Accepted<br>", "Deprecated<br>")
    assert (repo / "docs/adr/0004-publish.md").read_text() == named.replace("accepted<br>", "deprecated<br>")
    after = {r["id"]: (r["status"], r["version_id"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert after == {k: ("deprecated", v[3]) for k, v in rows.items()}  # a status is no new version


def test_header_fields_on_one_line_apart_by_pipes(repo, capsys):
    """Many records write their header on one line (`**Status**: Accepted | **Date**: 2026-03-07 |
    **Deciders**: Angad`): the `|` made the status read as a template's unfilled choices, so
    every such record was status unknown, and its date went unread."""
    line = "# Use X\n\n> **Status**: Accepted | **Date**: 2026-03-07 | **Deciders**: Angad\n\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0001-use-x.md": line, "docs/adr/0002-use-y.md": line.replace("Use X", "Use Y")})
    rows = {r["id"]: (r["status"], r["date"], r["version_id"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert {k: v[:2] for k, v in rows.items()} == {
        "ADR-0001": ("accepted", "2026-03-07"),
        "ADR-0002": ("accepted", "2026-03-07"),
    }
    run(capsys, "supersede", "1", "--by", "2")
    assert (repo / "docs/adr/0001-use-x.md").read_text() == line.replace(
        "Accepted |", "Superseded by [2. Use Y](0002-use-y.md) |"
    )
    shown = json.loads(run(capsys, "show", "1", "--json").out)
    assert (shown["status"], shown["superseded_by"], shown["version_id"]) == (
        "superseded",
        ["ADR-0002"],
        rows["ADR-0001"][2],
    )
    assert run(capsys, "check").code == 0
    from adr_memory import records

    unfilled = "# T\n\n* Status: [proposed | rejected | accepted | superseded by [ADR-0005](0005-example.md)]\n"
    assert records.parse(unfilled, "docs/adr/0003-t.md").status == "unknown"


def test_a_metadata_section_holds_the_status_and_date(repo, capsys):
    """Records written with assistants often keep their fields in a section (`## Metadata` over
    `- **Status**: Proposed`, `- **Date**: ...`): no status was read there (every such record
    accepted, unstated), nor the date."""
    meta = (
        "# ADR-02: Eventual consistency for unread counts\n\n## Metadata\n\n- **Status**: Proposed\n"
        "- **Date**: 2026-01-10\n- **Deciders**: Engineering Team\n\n## Context\n\nc\n"
    )
    commit(repo, {"docs/adr/0002-unread-counts.md": meta})
    row = json.loads(run(capsys, "list", "--json").out)[0]
    assert (row["status"], row["status_stated"], row["date"]) == ("proposed", True, "2026-01-10")
    run(capsys, "accept", "2")
    assert (repo / "docs/adr/0002-unread-counts.md").read_text() == meta.replace("Proposed", "Accepted")
    assert json.loads(run(capsys, "show", "2", "--json").out)["version_id"] == row["version_id"]  # no new version


def test_lines_added_at_an_open_end_keep_it_open(repo, capsys):
    """A file without a final newline whose last line is the status: a dated log's next entry
    (two lines added at once) was an internal error (IndexError), and a link line gained the
    file a final newline."""
    from adr_memory.policy.statuses import today

    logged = "# 3. Use X\n\n## Status\n\n2018-10-16 proposed\n\n2018-10-20 accepted"
    linked = "# 4. Use Y\n\n## Status\n\nAccepted"
    commit(
        repo,
        {
            "docs/adr/0003-use-x.md": logged,
            "docs/adr/0004-use-y.md": linked,
            "docs/adr/0005-use-z.md": "# 5. Use Z\n\n## Status\n\nAccepted\n",
        },
    )
    run(capsys, "deprecate", "3")
    run(capsys, "link", "4", "Relates to", "5")
    assert (repo / "docs/adr/0003-use-x.md").read_text() == logged + f"\n\n{today()} deprecated"
    assert (repo / "docs/adr/0004-use-y.md").read_text() == linked + "\n\nRelates to [5. Use Z](0005-use-z.md)"


_ASKED = "What is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.?"


def test_the_templates_status_question_states_nothing_and_an_edit_answers_below_it(repo, capsys):
    """Records copied from the widely shared Nygard template keep its question in the Status
    section, above the answer or in its place. The question was read as the status (its first
    status word: every such record "proposed"), a comment over two lines gave "etc.? -->", and
    `adr accept` on a record that left the section empty wrote frontmatter into a folder that
    has none, while the page kept showing an empty Status section."""
    files = {
        "docs/adr/0001-asked.md": f"# Use X\n\n## Status\n\n{_ASKED}\n\n## Context\n\nc\n",
        "docs/adr/0002-answered.md": f"# Use Y\n\n## Status\n\n_{_ASKED}_\n\n- accepted\n\n## Context\n\nc\n",
        "docs/adr/0003-commented.md": "# Use Z\n\n# Status\n<!-- What is the status, such as proposed, accepted,\n"
        "etc.? -->\nAccepted\n\n# Context\n\nc\n",
        "docs/adr/0004-replaced.md": f"# Use W\n\n## Status\n\n{_ASKED}\nSuperseded by [5. V](0005-empty.md)\n\n"
        "## Context\n\nc\n",
        "docs/adr/0005-empty.md": "# Use V\n\nStatus\n------\n\nContext\n-------\n\nSupersedes [4. W](0004-replaced.md)\n",
        "docs/adr/0006-open-end.md": "# Use U\r\n\r\n## Status",  # CRLF, and no final newline to keep
    }
    commit(repo, files)
    rows = {r["id"]: (r["status"], r["status_stated"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert rows == {
        "ADR-0001": ("accepted", False),
        "ADR-0002": ("accepted", True),
        "ADR-0003": ("accepted", True),
        "ADR-0004": ("superseded", True),
        "ADR-0005": ("accepted", False),
        "ADR-0006": ("accepted", False),
    }
    versions = {r["id"]: r["version_id"] for r in json.loads(run(capsys, "list", "--json").out)}
    run(capsys, "deprecate", "1")
    run(capsys, "deprecate", "2")
    run(capsys, "accept", "5")
    run(capsys, "accept", "6")
    assert (repo / "docs/adr/0006-open-end.md").read_bytes() == b"# Use U\r\n\r\n## Status\r\n\r\nAccepted"
    assert (repo / "docs/adr/0001-asked.md").read_text() == files["docs/adr/0001-asked.md"].replace(
        "?\n\n", "?\n\nDeprecated\n\n"
    )
    assert (repo / "docs/adr/0002-answered.md").read_text() == files["docs/adr/0002-answered.md"].replace(
        "- accepted", "- deprecated"
    )
    assert (repo / "docs/adr/0005-empty.md").read_text() == files["docs/adr/0005-empty.md"].replace(
        "------\n\n", "------\n\nAccepted\n\n", 1
    )
    rows = {r["id"]: (r["status"], r["version_id"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert {k: v[0] for k, v in rows.items()} == {
        "ADR-0001": "deprecated",
        "ADR-0002": "deprecated",
        "ADR-0003": "accepted",
        "ADR-0004": "superseded",
        "ADR-0005": "accepted",
        "ADR-0006": "accepted",
    }
    assert {k: v[1] for k, v in rows.items()} == versions  # a status is no new version
    assert run(capsys, "check").code == 0


def test_a_status_badge_is_the_status_and_an_edit_changes_only_its_word(repo, capsys):
    """Records that show their status as a shields.io badge under the title (`![Accepted](https://
    img.shields.io/badge/status-accepted-success)`), with the other statuses left in a comment,
    read as accepted (unstated): every one, whatever the badge said."""
    badged = (
        "# **ADR-0002** Use annotations\n\n**Author**: P\n\n"
        "![Accepted](https://img.shields.io/badge/status-accepted-success) "
        "![Date](https://img.shields.io/badge/Date-03_Aug_2023-lightblue)\n\n## Context\n\nc\n"
    )
    menu = (
        "# Use ESO\n\n![Draft](https://img.shields.io/badge/Status-Draft-blue?style=for-the-badge)\n"
        "<!-- the others:\n![Accepted](https://img.shields.io/badge/Status-Accepted-brightgreen)\n-->\n\n"
        "## Context\n\nc\n"
    )
    html = (
        '# Use Kafka\n\n<img src="https://img.shields.io/badge/Status-Work_in_progress-lightgrey" '
        'alt="Work in progress">\n\n## Context\n\nc\n'
    )
    commit(repo, {"docs/adr/0002-annotations.md": badged, "docs/adr/0004-eso.md": menu, "docs/adr/0005-kafka.md": html})
    rows = {
        r["id"]: (r["title"], r["status"], r["status_stated"]) for r in json.loads(run(capsys, "list", "--json").out)
    }
    assert rows == {
        "ADR-0002": ("Use annotations", "accepted", True),
        "ADR-0004": ("Use ESO", "proposed", True),
        "ADR-0005": ("Use Kafka", "proposed", True),
    }
    version = json.loads(run(capsys, "show", "2", "--json").out)["version_id"]
    run(capsys, "deprecate", "2")
    assert (repo / "docs/adr/0002-annotations.md").read_text() == badged.replace(
        "![Accepted](https://img.shields.io/badge/status-accepted-success)",
        "![Deprecated](https://img.shields.io/badge/status-deprecated-success)",
    )
    assert json.loads(run(capsys, "show", "2", "--json").out)["version_id"] == version  # lifecycle, not content
    run(capsys, "supersede", "4", "--by", "5")  # proposed: ADR-0004 stays as it is until ADR-0005 is accepted
    assert (repo / "docs/adr/0004-eso.md").read_text() == menu
    run(capsys, "accept", "5")
    text = (repo / "docs/adr/0004-eso.md").read_text()
    assert text.startswith(
        "---\nsuperseded-by: [ADR-0005]\n---\n# Use ESO\n\n"
        "![Superseded](https://img.shields.io/badge/Status-Superseded-blue?style=for-the-badge)\n"
    )
    assert 'Status-Accepted-lightgrey" alt="Accepted">' in (repo / "docs/adr/0005-kafka.md").read_text()
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]


def test_new_in_a_category_takes_the_template_kept_above_it(repo, capsys):
    """MADR keeps `adr-template.md` at the top of `docs/decisions` and its categories below:
    `adr new --dir docs/decisions/backend` wrote our bundled template instead."""
    madr = "---\nstatus: accepted\n---\n# {t}\n\n## Context and Problem Statement\n\nc\n"
    commit(
        repo,
        {
            "docs/decisions/adr-template.md": _MADR_TEMPLATE,
            "docs/decisions/backend/0001-use-go.md": madr.format(t="Use Go"),
            "docs/decisions/frontend/0001-use-react.md": madr.format(t="Use React"),
        },
    )
    made = run(capsys, "new", "--dir", "docs/decisions/backend", "Use Rust").out.strip()
    assert made == "docs/decisions/backend/0002-use-rust.md"
    text = (repo / made).read_text()
    assert "\n# Use Rust\n" in text and "## Decision Drivers" in text and "decision-makers" not in text


def test_a_template_checked_out_with_crlf_endings_is_filled_and_keeps_them(repo, capsys):
    """A template written on Windows (or checked out with `core.autocrlf`) ends its lines with
    CRLF: its status and date placeholders went unfilled, and a tag line lost its `\\r`."""
    template = (
        "# [short title of solved problem and solution]\r\n\r\n* Status: [proposed | rejected]\r\n"
        "* Date: [YYYY-MM-DD when the decision was last updated]\r\n* Tags: [tags]\r\n\r\n## Context\r\n\r\nx\r\n"
    )
    commit(
        repo,
        {
            "docs/adr/template.md": template.encode(),
            "docs/adr/0001-use-x.md": "# 1. Use X\n\n* Status: accepted\n\n## Context\n\nc\n",
        },
    )
    made = run(capsys, "new", "Use Y", "--tag", "db").out.strip()
    from adr_memory.policy.statuses import today

    assert (repo / made).read_bytes().decode() == (
        f"# Use Y\r\n\r\n* Status: proposed\r\n* Date: {today()}\r\n* Tags: db\r\n\r\n## Context\r\n\r\nx\r\n"
    )


@pytest.mark.parametrize(
    "before,after",
    [
        ("## Status\n\n> Rejected\n", "## Status\n\n> Deprecated\n"),
        (
            '## Status\n\n<span style="color:red">Rejected</span>\n',
            '## Status\n\n<span style="color:red">Deprecated</span>\n',
        ),
        (
            "## Status\n\n| Status | Date |\n|---|---|\n| Rejected | 2021-01-01 |\n",
            "## Status\n\n| Status | Date |\n|---|---|\n| Deprecated | 2021-01-01 |\n",
        ),
        (
            "## Status\n\n| | |\n|---|---|\n| Status | Rejected |\n",
            "## Status\n\n| | |\n|---|---|\n| Status | Deprecated |\n",
        ),
        ("**Status**\n\nRejected\n", "**Status**\n\nDeprecated\n"),
        # a chain of statuses gets one more step
        ("## Status\n\nProposed → Accepted\n", "## Status\n\nProposed → Accepted → Deprecated\n"),
        ("* Status: proposed, then accepted\n", "* Status: proposed, then accepted, then deprecated\n"),
    ],
)
def test_an_edit_changes_only_the_word_however_the_status_is_laid_out(repo, capsys, before, after):
    from tests.helpers import commit, run

    text = "# 2. Old\n\n{}\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0002-old.md": text.format(before)})
    run(capsys, "deprecate", "ADR-0002")
    assert (repo / "docs/adr/0002-old.md").read_text() == text.format(after)
    commit(repo, {}, "deprecate")
    assert len(json.loads(run(capsys, "log", "ADR-0002", "--json").out)["versions"]) == 1  # no new version


@pytest.mark.parametrize(
    "before,after",
    [
        ("state: rejected", "state: deprecated"),
        ("decisionStatus: rejected", "decisionStatus: deprecated"),
        ("status: [rejected]", "status: deprecated"),
    ],
)
def test_an_edit_writes_the_status_under_the_key_the_record_gives_it(repo, capsys, before, after):
    text = "---\n{}\ntitle: Old\n---\n# Old\n\nc\n"
    commit(repo, {"docs/adr/0002-old.md": text.format(before)})
    run(capsys, "deprecate", "ADR-0002")
    assert (repo / "docs/adr/0002-old.md").read_text() == text.format(after)


@pytest.mark.parametrize(
    "before,added",
    [
        (
            "| Date | Status |\n|---|---|\n| 2020-01-01 | Proposed |\n| 2020-02-01 | Accepted |\n",
            "| {today} | Deprecated |\n",
        ),
        (
            "## Status\n\n| Status | Date | By |\n|---|---|---|\n| Proposed | 2020-01-01 | a |\n| Accepted | 2020-02-01 | b |\n",
            "| Deprecated | {today} |  |\n",
        ),
        ("## Status\n\n- 2020-01-01: Proposed\n- 2020-02-01: Accepted\n", "- {today}: Deprecated\n"),
    ],
)
def test_an_edit_adds_the_next_entry_to_a_history_of_statuses(repo, capsys, before, added):
    import datetime as dt

    text = "# 2. Old\n\n{}\n## Context\n\nc\n"
    commit(repo, {"docs/adr/0002-old.md": text.format(before)})
    run(capsys, "deprecate", "ADR-0002")
    today = dt.date.today().isoformat()
    assert (repo / "docs/adr/0002-old.md").read_text() == text.format(before + added.format(today=today))
    commit(repo, {}, "deprecate")
    assert json.loads(run(capsys, "show", "ADR-0002", "--json").out)["status"] == "deprecated"
    assert len(json.loads(run(capsys, "log", "ADR-0002", "--json").out)["versions"]) == 1


def test_a_title_reason_or_note_reaches_the_file_without_control_characters(repo, capsys):
    """A title, reason or note is typed, or sent by an agent over MCP: an escape sequence or a
    bell in it was written into the record as it came."""
    path = run(capsys, "new", "Use \x1b[31mred\x1b[0m queues\x07", "--status", "accepted").out.strip()
    commit(repo, {}, "add")
    run(capsys, "affirm", "1", "--note", "still \x1b]8;;http://x\x07holds")
    run(capsys, "deprecate", "1", "--reason", "gone\x1b[2J for \x00good")
    text = (repo / path).read_text()
    assert not any(c in text for c in "\x1b\x07\x00"), text
    assert "# Use red queues" in text and "still holds" in text and "gone for good" in text


def test_a_key_written_twice_is_an_error_and_no_edit_touches_the_record(repo, capsys):
    """`status: proposed` ... `status: rejected`: YAML reads the last; `adr accept` rewrote the
    first and said "is now rejected". Now check names both lines, and edits refuse, byte for
    byte. A quoted value running over a line that looks like a key is no second key."""
    twice = "---\nstatus: proposed\ntitle: Dup\nstatus: rejected\n---\n# Dup\n\n## Decision\n\nx\n"
    quoted = '---\ntitle: "a\nstatus: b"\nstatus: accepted\n---\n# Q\n'
    quoted_key = '---\nstatus: accepted\n"status": rejected\n---\n# K\n'  # `"status"` is `status` to YAML
    commit(repo, {"docs/adr/0001-dup.md": twice, "docs/adr/0002-quoted.md": quoted, "docs/adr/0003-key.md": quoted_key})
    found = json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]
    assert [(f["id"], f["kind"], f["line"], f["message"]) for f in found] == [
        ("ADR-0001", "yaml", 4, "frontmatter names `status` twice (lines 2 and 4); YAML allows one"),
        ("ADR-0003", "yaml", 3, "frontmatter names `status` twice (lines 2 and 3); YAML allows one"),
    ]
    for verb in (["accept", "1"], ["deprecate", "1", "--reason", "x"], ["link", "1", "relates-to", "2"]):
        err = run(capsys, *verb, code=2).err
        assert err.startswith("error: docs/adr/0001-dup.md cannot be edited safely: frontmatter names `status`")
        assert (repo / "docs/adr/0001-dup.md").read_text() == twice
    run(capsys, "deprecate", "2")
    assert "status: deprecated" in (repo / "docs/adr/0002-quoted.md").read_text()


def test_a_secret_typed_into_a_title_a_reason_or_a_note_is_refused_and_nothing_written(repo, capsys):
    """`adr accept --reason "DB_PASSWORD=…"` and `affirm --note "password: …"` wrote the secret
    silently; a title holding one named the file after it (`0003-db-password-hunter2secret99.md`)."""
    from tests.helpers import adr_text, commit, git, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed"), "docs/adr/0002-b.md": adr_text("B")})
    before = {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()}
    for args, what in (
        (("accept", "1", "--reason", "DB_PASSWORD=Hunter2Secret99"), "reason"),
        (("affirm", "2", "--note", "password: Hunter2Secret99"), "note"),
        (("new", "DB_PASSWORD=Hunter2Secret99"), "title"),
        (("supersede", "1", "--by", "2", "--reason", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"), "reason"),
    ):
        err = run(capsys, *args, code=2).err
        assert err.startswith(f"error: the {what} holds ") and "nothing written" in err, args
        assert "Hunter2Secret99" not in err and "ghp_" not in err
    assert {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()} == before
    assert git(repo, "status", "--porcelain") == ""
