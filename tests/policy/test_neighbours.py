"""`adr new` in a folder without frontmatter writes what its records write (tdr's plain
records, cometbft's Tendermint ones); MADR and adr-tools folders keep their bundled template;
a configured template always wins."""

from __future__ import annotations

import json
import shutil

import pytest

from adr_memory.policy import neighbours
from adr_memory.policy.templates import today
from tests.helpers import CORPORA, adr_text, commit, run


def _shared(repo, name: str, folder: str) -> None:
    shutil.copytree(CORPORA / name, repo / folder)
    (repo / folder / "SOURCE.md").unlink()
    (repo / ".adr-dir").write_text(folder + "\n")
    commit(repo, {}, name)


def test_in_tdr_a_new_record_is_plain_markdown_with_its_date_and_status_lines(repo, capsys):
    _shared(repo, "tdr", "docs/adr")
    path = run(capsys, "new", "Use queues for exports").out.strip().splitlines()[-1]
    text = (repo / path).read_text()
    assert text == (
        f"# 40. Use queues for exports\n\n**Date**: {today()}\n\n**Status**: proposed\n\n## Context\n\n## Decision\n"
    )
    listed = json.loads(run(capsys, "list", "--json").out)[-1]
    assert (listed["id"], listed["status"], listed["status_stated"], listed["date"]) == (
        "ADR-0040",
        "proposed",
        True,
        today(),
    )
    run(capsys, "accept", "40")
    assert "**Status**: accepted" in (repo / path).read_text()


def test_in_cometbft_a_new_record_has_its_heading_form_changelog_and_sections(repo, capsys):
    _shared(repo, "cometbft", "docs/references/architecture")
    path = run(capsys, "new", "Use lanes for votes").out.strip().splitlines()[-1]
    assert path.endswith("adr-120-use-lanes-for-votes.md")
    text = (repo / path).read_text()
    assert text.startswith(
        f"# ADR 120: Use lanes for votes\n\n## Changelog\n\n- {today()}: first draft\n\n## Status\n\nProposed\n"
    )
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Changelog",
        "## Status",
        "## Context",
        "## Decision",
        "## Consequences",
        "## References",
    ]
    assert "---" not in text


def test_madr_and_adr_tools_folders_keep_their_bundled_template_and_a_configured_one_wins(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")})
    madr = (repo / run(capsys, "new", "C").out.strip().splitlines()[-1]).read_text()
    assert madr.startswith("---\nstatus: proposed") and "## Considered Options" in madr
    nygard = "# {n}. {t}\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\ne\n"
    commit(repo, {f"docs/adr/000{n}-{t}.md": nygard.format(n=n, t=t) for n, t in ((1, "a"), (2, "b"), (3, "c"))})
    kept = (repo / run(capsys, "new", "D").out.strip().splitlines()[-1]).read_text()
    assert "To say which code this decision governs" in kept  # adr-tools' template, with our note
    (repo / ".adr-memory.toml").write_text('template = "madr"\n')
    chosen = (repo / run(capsys, "new", "E").out.strip().splitlines()[-1]).read_text()
    assert chosen.startswith("---\nstatus: proposed")


def _folder(*texts):
    from adr_memory.records import Catalog, parse

    return Catalog("docs/adr", tuple(parse(t, f"docs/adr/{n:04d}-r.md") for n, t in enumerate(texts, 1)))


def _tdr(n, more=""):
    return f"# ADR {n:03d}: Title {n}\n\n**Date**: 2024-01-0{n}\n\n## Context\n\nc\n\n## Decision\n\nd\n{more}"


def test_the_skeleton_is_the_newest_heading_its_field_lines_and_the_sections_half_the_folder_uses():
    """tdr's shape: a number three wide, a bold date line; a folder that states no status
    says it as it says its date. A section only one record of three has is left out."""
    skeleton = neighbours.template(_folder(_tdr(1), _tdr(2), _tdr(3, "\n## Consequences\n\nx\n")))
    assert skeleton == "# ADR 000: {title}\n\n**Date**: {date}\n\n**Status**: {Status}\n\n## Context\n\n## Decision\n"


def test_a_changelog_and_a_status_section_are_written_with_their_first_lines():
    tendermint = (
        "# ADR {0}: Title {0}\n\n## Changelog\n\n- 2020-01-01: first\n\n## Context\n\nc\n\n"
        "## Status\n\nAccepted\n\n## Decision\n\nd\n"
    )
    assert neighbours.template(_folder(tendermint.format(1), tendermint.format(2))) == (
        "# ADR {number}: {title}\n\n## Changelog\n\n- {date}: first draft\n\n## Context\n\n## Status\n\n{Status}\n\n"
        "## Decision\n"
    )


@pytest.mark.parametrize(
    "texts",
    [
        (),  # an empty folder
        ("---\nstatus: accepted\n---\n# A\n\n## Context\n\nc\n\n## Decision\n\nd\n", _tdr(2)),  # half in MADR's form
        (  # adr-tools' own: the bundled template is theirs
            "# 1. A\n\nDate: 2020\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n",
            "# 2. B\n\nDate: 2020\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n",
        ),
        (_tdr(1), "# Title two\n\n## Context\n\nc\n\n## Decision\n\nd\n"),  # the newest's heading has no number
        ("# ADR 1: One\n\n## Context\n\nc\n", "# ADR 2: Two\n\n## Context\n\nc\n"),  # one common section: no shape
    ],
)
def test_a_folder_with_no_shape_of_its_own_to_follow_has_no_skeleton(texts):
    assert neighbours.template(_folder(*texts)) is None
