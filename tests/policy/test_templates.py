"""policy.templates: a new record's file name and template, from the folder's own when it has one."""

from __future__ import annotations

import pytest

from adr_memory.policy import templates
from adr_memory.policy.templates import slugify


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Use PostgreSQL for storage", "use-postgresql-for-storage"),
        ("Überprüfung der Eingaben", "uberprufung-der-eingaben"),  # folded, not adr-tools' `berpr-fung`
        ("Straße & Œuvre", "strasse-oeuvre"),
        ("  --Leading and trailing--  ", "leading-and-trailing"),
        ("日本語", "decision"),  # nothing ASCII left: a name still
        ("x" * 100, "x" * 60),
    ],
)
def test_a_title_gives_an_ascii_file_name(title, slug):
    assert slugify(title) == slug


def test_a_cut_slug_never_ends_in_a_dash():
    assert not slugify("a" * 59 + " word").endswith("-")


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Łódź ðþ ı", "lodz-dth-i"),  # Latin letters Unicode does not decompose, folded by hand
        ("Æsir and Øresund", "aesir-and-oresund"),
        ("ﬁle ｆｕｌｌ", "file-full"),  # compatibility forms read as their letters
        ("C++ & C#", "c-c"),
        ("v1.2.3: release", "v1-2-3-release"),
        ("", "decision"),
        ("---", "decision"),
        ("Привет Kafka", "kafka"),  # another script drops out, what is ASCII stays
    ],
)
def test_more_titles_give_ascii_file_names(title, slug):
    assert slugify(title) == slug


def test_a_slug_is_cut_at_sixty_characters_then_trimmed_of_a_dash():
    assert slugify("a" * 58 + " bc") == "a" * 58 + "-b"  # 60 characters exactly
    assert slugify("a" * 59 + " b") == "a" * 59  # the dash at 60 goes


def _render(template, number=12, title="Use Kafka", status="proposed", sign=""):
    return templates.render_template(template, number=number, title=title, status=status, date="2026-12-07", sign=sign)


@pytest.mark.parametrize(
    ("template", "filled"),
    [
        # Ours: `{placeholders}`, the status in the body as a word.
        (
            "# {number}. {title}\n\nDate: {date}\n\n## Status\n\n{Status}\n",
            "# 12. Use Kafka\n\nDate: 2026-12-07\n\n## Status\n\nProposed\n",
        ),
        # adr-tools': bare upper-case words.
        (
            "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n",
            "# 12. Use Kafka\n\nDate: 2026-12-07\n\n## Status\n\nProposed\n",
        ),
        # MADR 3's template, kept in the folder: its own words for each place.
        (
            "---\nstatus: {proposed | rejected | accepted | deprecated | … | superseded by ADR-0123}\n"
            "date: {YYYY-MM-DD when the decision was last updated}\n---\n"
            "# {short title of solved problem and solution}\n\n## Context\n",
            "---\nstatus: proposed\ndate: 2026-12-07\n---\n# Use Kafka\n\n## Context\n",
        ),
        # MADR 2's: square brackets, a bulleted status line; what is for the writer stays.
        (
            "# [short title of solved problem and solution]\n\n"
            "* Status: [proposed | rejected | accepted | deprecated]\n* Deciders: [list everyone]\n"
            "* Date: [YYYY-MM-DD when the decision was last updated]\n",
            "# Use Kafka\n\n* Status: proposed\n* Deciders: [list everyone]\n* Date: 2026-12-07\n",
        ),
        # backstage's: a number run in the id and the title, `[TITLE]`; a title YAML cannot read is quoted.
        (
            "---\nid: adrs-adr000\ntitle: ADR000: [TITLE]\n---\n# ADR000: [TITLE]\n",
            "---\nid: adrs-adr012\ntitle: 'ADR012: Use Kafka'\n---\n# ADR012: Use Kafka\n",
        ),
        # A number placeholder keeps its width; angle brackets hold a placeholder too.
        (
            "# XXXX - <Short title>\n\n- Status: <draft | proposed>\n- Date: <YYYY-MM-DD>\n",
            "# 0012 - Use Kafka\n\n- Status: proposed\n- Date: 2026-12-07\n",
        ),
        ("# NNN. [title]\n", "# 012. Use Kafka\n"),
        ("# ADR-000: <title>\n", "# ADR-012: Use Kafka\n"),
        # A bare `# Title` is the title's place; a question to the writer is left for them.
        ("# Title\n\n## Status\n\nWhat is the status?\n", "# Use Kafka\n\n## Status\n\nWhat is the status?\n"),
        # A template's own heading over the record's title: the title goes in the second.
        (
            "# ADR Template\n\n# Title\n\n## Status\n\nSTATUS\n",
            "# ADR Template\n\n# Use Kafka\n\n## Status\n\nProposed\n",
        ),
        # A date or status the template states as a value, not a placeholder, is kept.
        ("**Status**: [accepted | rejected]\n**Date**: 2024-01-01\n", "**Status**: proposed\n**Date**: 2024-01-01\n"),
        ("Status: Accepted\n", "Status: Accepted\n"),
    ],
)
def test_a_template_is_filled_in_its_own_words_for_each_place(template, filled):
    assert _render(template) == filled


def test_a_title_holding_placeholder_words_is_written_as_typed():
    title = "Keep {number} and DATE and TITLE as typed"
    assert _render("# {number}. {title}\n\nDate: {date}\n", title=title) == f"# 12. {title}\n\nDate: 2026-12-07\n"


def test_a_record_named_by_its_date_has_no_number_in_its_heading():
    assert _render("# {number}. {title}\n", number=None) == "# Use Kafka\n"
    assert _render("# NUMBER. TITLE\n", number=None) == "# Use Kafka\n"


def test_the_folder_s_sign_goes_before_a_status_written_as_a_word_but_not_in_frontmatter():
    text = "---\nstatus: {status}\n---\n# {title}\n\n## Status\n\n{Status}\n\nSTATUS\n"
    assert _render(text, status="accepted", sign="✅") == (
        "---\nstatus: accepted\n---\n# Use Kafka\n\n## Status\n\n✅ Accepted\n\n✅ Accepted\n"
    )


@pytest.mark.parametrize(
    ("title", "line"),
    [
        ("Use Kafka", "title: Use Kafka"),
        ("ADR015: Use Kafka", "title: 'ADR015: Use Kafka'"),  # a colon and a space: no YAML unquoted
        ("[draft] Use Kafka", "title: '[draft] Use Kafka'"),
        ("#1 priority", "title: '#1 priority'"),  # a comment to YAML
        ("yes", "title: 'yes'"),  # a boolean to YAML
    ],
)
def test_a_frontmatter_title_is_quoted_only_when_yaml_would_read_it_otherwise(title, line):
    import yaml

    filled = _render("---\ntitle: {title}\n---\n# {title}\n", title=title)
    assert filled == f"---\n{line}\n---\n# {title}\n"
    assert yaml.safe_load(filled.split("---\n")[1]) == {"title": title}


def test_a_crlf_template_keeps_its_line_endings_when_the_title_is_quoted():
    filled = _render("---\r\ntitle: {title}\r\n---\r\n# {title}\r\n", title="a: b")
    assert filled == "---\r\ntitle: 'a: b'\r\n---\r\n# a: b\r\n"


def _records(*specs):
    from adr_memory.records import parse

    return [parse(text, f"docs/adr/{n:04d}-r{suffix}") for n, (text, suffix) in enumerate(specs, 1)]


def test_a_new_record_takes_the_sign_its_folder_most_often_writes_before_its_status():
    from adr_memory.policy.templates import folder_sign

    folder = _records(
        ("# 1. A\n\n## Status\n\n✅ Accepted\n", ".md"),
        ("# 2. B\n\n## Status\n\n✅ Accepted\n", ".md"),
        ("# 3. C\n\n## Status\n\n👍 Accepted\n", ".md"),
        ("# 4. D\n\n## Status\n\n🤔 Proposed\n", ".md"),
        ("# 5. E\n\n## Status\n\nRejected\n", ".md"),
    )
    assert [folder_sign(folder, s) for s in ("accepted", "proposed", "rejected", "deprecated")] == ["✅", "🤔", "", ""]
    assert folder_sign([], "accepted") == ""


@pytest.mark.parametrize(
    ("suffixes", "chosen"),
    [
        ([], ".md"),  # an empty folder
        ([".rst", ".rst", ".md"], ".rst"),  # Open edX's
        ([".rst", ".md"], ".md"),  # a tie goes to markdown
        ([".mdx"], ".mdx"),  # a Docusaurus site's
        ([".MD", ".MD"], ".MD"),  # as the folder writes it
    ],
)
def test_a_new_record_has_the_suffix_most_of_its_folder_has(suffixes, chosen):
    from adr_memory.records import Catalog

    folder = Catalog("docs/adr", tuple(_records(*(("# X\n", s) for s in suffixes))))
    assert templates.suffix_of(folder) == chosen


def test_the_bundled_template_is_the_one_most_of_the_folder_follows_unless_one_is_configured():
    from adr_memory.base import Config
    from adr_memory.records import Catalog

    nygard = ("# 1. A\n\n## Status\n\nAccepted\n", ".md")
    madr = ("---\nstatus: accepted\n---\n# A\n", ".md")

    def name(*specs, **cfg):
        return templates.template_name(Catalog("docs/adr", tuple(_records(*specs))), Config(**cfg))

    assert name() == "madr"  # a new folder
    assert name(nygard, nygard, madr) == "nygard"  # an adr-tools folder
    assert name(nygard, madr) == "madr"  # half is no majority
    assert name(nygard, nygard, template="madr") == "madr"


def test_the_folder_s_own_template_adr_tools_first_then_the_shortest_kept_among_the_records(tmp_path):
    from adr_memory.base import Config

    adr = tmp_path / "docs/adr"
    adr.mkdir(parents=True)
    cfg = Config(adr_dir="docs/adr")

    def own(folder=adr, suffixes=(".md", ".md")):
        found = templates.own_template(tmp_path, folder, cfg, suffixes)
        return found.relative_to(tmp_path).as_posix() if found else None

    assert own() is None
    for name in ("adr-template-bare-minimal.md", "adr-template-minimal.md", "adr-template.md", "adr-template-bare.md"):
        (adr / name).write_text("# t\n")
    assert own() == "docs/adr/adr-template.md"  # MADR's four: the full one, whose name is shortest
    (adr / "template.md").write_text("# t\n")
    assert own() == "docs/adr/template.md"
    (adr / "templates").mkdir()
    (adr / "templates/template.md").write_text("# t\n")
    assert own() == "docs/adr/templates/template.md"  # adr-tools' place wins
    assert own(suffixes=(".rst", ".rst")) is None  # a reStructuredText folder takes no markdown one
    backend = adr / "backend"
    backend.mkdir()
    assert own(backend) == "docs/adr/templates/template.md"  # a category without one: the folder's above
    (backend / "0000-template.md").write_text("# t\n")
    assert own(backend) == "docs/adr/backend/0000-template.md"
