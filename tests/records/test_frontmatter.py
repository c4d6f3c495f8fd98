"""records.frontmatter: where frontmatter starts and ends, YAML or TOML, and comments set aside."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.records import frontmatter


def test_lines_keep_their_own_endings():
    assert frontmatter.split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert "".join(frontmatter.split_lines("x\n\n\ry")) == "x\n\n\ry"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("---\nstatus: accepted\n---\n# X\n", 2),  # the index of the closing line
        ("---\nstatus: accepted\n...\n# X\n", 2),  # YAML's own document end
        ("+++\nstatus = 'accepted'\n+++\n", 2),  # Hugo's TOML
        ("# X\n---\nstatus: accepted\n---\n", None),  # not at the top: a rule in the body
        ("---\nstatus: accepted\n# X\n", None),  # never closed
    ],
)
def test_the_span_of_a_frontmatter_block(text, span):
    assert frontmatter.frontmatter_span(frontmatter.split_lines(text)) == span


def test_html_comments_are_set_aside_and_an_unclosed_one_stays():
    assert frontmatter.without_comments("a <!-- b --> c") == "a  c"
    assert frontmatter.without_comments("a <!-- b\nc --> d <!-- e") == "a  d <!-- e"


def test_an_unclosed_comment_repeated_is_read_in_one_pass():
    text = "<!--" * 200_000
    assert frontmatter.without_comments(text) == text


def test_a_problem_with_a_key_is_reported_on_the_line_that_writes_it():
    from adr_memory.records.catalog import parse_bytes

    text = "---\nstatus: accepted\ntitle: X\nreviewed: x\nSupersedes: {a: 1}\nrules: 5\n---\n# 1. X\n"
    found = {(p.kind, p.line) for p in parse_bytes("docs/adr/0001-x.md", text.encode()).problems}
    assert found == {("schema", 4), ("schema", 5), ("schema", 6)}


def test_an_impossible_date_is_one_problem_on_its_line_and_hides_no_other():
    from adr_memory.records.catalog import parse_bytes

    text = "---\nstatus: proposed\ndate: 2024-02-30\nsupersedes: {a: 1}\ntags: [db]\n---\n# 1. X\n"
    rec = parse_bytes("docs/adr/0001-x.md", text.encode())
    assert [(p.line, p.message.split(":")[0]) for p in rec.problems] == [
        (3, "`date` is not a date any calendar has"),
        (4, "`supersedes` must be a list of text values"),
    ]
    assert (rec.status, rec.tags, rec.meta["date"]) == ("proposed", ("db",), "2024-02-30")  # the rest is read


def _read(text: str):
    """The keys a frontmatter block gives, the line the body starts after, and its problems."""
    problems: list = []
    meta, body = frontmatter._read_frontmatter(frontmatter.split_lines(text), problems)
    return meta, body, [(p.kind, p.message, p.line, p.hint) for p in problems]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("\n", ["\n"]),
        ("\r\r", ["\r", "\r"]),
        ("\r\n\r\n", ["\r\n", "\r\n"]),
        ("\n\r", ["\n", "\r"]),  # LF then CR: two endings, not one CRLF
        ("no ending", ["no ending"]),
        ("a\u2028b\n", ["a\u2028b\n"]),  # a Unicode line separator is no line ending of a file
    ],
)
def test_lines_split_only_at_file_line_endings(text, lines):
    assert frontmatter.split_lines(text) == lines
    assert "".join(frontmatter.split_lines(text)) == text


@given(st.text(alphabet="ab\r\n \t-", max_size=60))
def test_split_lines_round_trips_any_text(text):
    lines = frontmatter.split_lines(text)
    assert "".join(lines) == text
    assert all(frontmatter.split_lines(line) == [line] for line in lines)  # one ending each, at its end


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("---  \r\nstatus: ok\r\n---\t\r\n", 2),  # blanks after a fence and CRLF endings
        ("---\n---\n# X\n", 1),  # an empty block
        ("+++\ntitle = 'x'\n---\n", None),  # a TOML block does not close with YAML's fence
        ("---\nstatus: ok\n+++\n", None),
        ("---\na: b\n----\n", None),  # four dashes is a rule, not the fence
        ("", None),
        (" ---\na: b\n---\n", None),  # the fence opens at the first column
    ],
)
def test_more_spans(text, span):
    assert frontmatter.frontmatter_span(frontmatter.split_lines(text)) == span


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("<!---->x", "x"),
        ("<!-- a -->", ""),
        ("a<!-- b -->c<!-- d -->e", "ace"),
        ("a --> b", "a --> b"),  # a closer alone is text
        ("<!-- a <!-- b --> c -->", " c -->"),  # comments do not nest
        ("<!--->x-->y", "y"),  # `-->` must follow the opener: `<!--->` is still open
    ],
)
def test_comments_are_taken_out_as_html_reads_them(text, kept):
    assert frontmatter.without_comments(text) == kept


@pytest.mark.parametrize(
    ("text", "fence", "kind"),
    [
        ("---\nstatus: accepted\ntitle: X\n# T\n", "---", "yaml"),
        ("+++\ntitle = 'x'\n# T\n", "+++", "toml"),
    ],
)
def test_a_block_never_closed_is_one_problem_on_line_one(text, fence, kind):
    assert _read(text) == (
        {},
        0,
        [
            (
                kind,
                f"frontmatter opens with `{fence}` but is never closed",
                1,
                f"add a `{fence}` line after the last key",
            )
        ],
    )


def test_a_rule_at_the_top_of_a_record_is_no_unclosed_frontmatter():
    assert _read("---\n# Title\n\nText.\n") == ({}, 0, [])
    assert _read("---\n") == ({}, 0, [])


@pytest.mark.parametrize(
    ("text", "meta", "body", "problems"),
    [
        ("---\n---\n# T\n", {}, 2, []),
        ("---\n# only a comment\n---\n", {}, 3, []),
        ("---\nstatus: ok\n...\nbody", {"status": "ok"}, 3, []),
        (
            "---\nstatus: [a\n---\n",
            {},
            3,
            [
                (
                    "yaml",
                    "frontmatter is not valid YAML: did not find expected ',' or ']'",
                    3,
                    "fix the YAML between the `---` lines",
                )
            ],
        ),
        ("---\n- a\n- b\n---\n", {}, 4, [("yaml", "frontmatter is not a mapping of keys to values", 2, None)]),
        ("---\njust text\n---\n", {}, 3, [("yaml", "frontmatter is not a mapping of keys to values", 2, None)]),
        (
            "---\nx: !!python/object:os.system a\n---\n",
            {},
            3,
            [
                (
                    "yaml",
                    "frontmatter is not valid YAML: could not determine a constructor for the tag "
                    "'tag:yaml.org,2002:python/object:os.system'",
                    2,
                    "fix the YAML between the `---` lines",
                )
            ],
        ),
    ],
)
def test_what_a_yaml_block_gives(text, meta, body, problems):
    assert _read(text) == (meta, body, problems)


@pytest.mark.parametrize(
    "text",
    [
        "---\nstatus: accepted\nstatus: proposed\n---\n",
        '---\n"status": accepted\nstatus: proposed\n---\n',  # quoted, it is the same key to YAML
        "---\n'status': accepted\nstatus: proposed\n---\n",
    ],
)
def test_a_key_written_twice_is_named_with_both_lines(text):
    meta, _, problems = _read(text)
    assert meta == {"status": "proposed"}  # as PyYAML reads it
    assert problems == [
        ("yaml", "frontmatter names `status` twice (lines 2 and 3); YAML allows one", 3, "keep one of them")
    ]


def test_what_only_looks_like_a_key_twice_is_not_one():
    # a block scalar's line that reads `key:` is text, and `Status` is not `status` to YAML
    assert _read("---\ntitle: |\n  status: x\nstatus: y\n---\n") == ({"title": "status: x\n", "status": "y"}, 5, [])
    assert _read("---\nStatus: Accepted\nstatus: proposed\n---\n")[2] == []
    merged = "---\nbase: &b {a: 1}\n<<: *b\nx: 1\n---\n"
    assert _read(merged)[2] == []


def test_toml_frontmatter_is_read_with_its_types():
    import datetime as dt

    assert _read('+++\ntitle = "X"\ndate = 2024-01-02\ntags = ["a"]\n+++\n# T\n') == (
        {"title": "X", "date": dt.date(2024, 1, 2), "tags": ["a"]},
        5,
        [],
    )


def test_invalid_toml_is_a_problem_on_its_file_line():
    meta, body, problems = _read("+++\ntitle = 'x'\ntitle = \n+++\n")
    assert (meta, body) == ({}, 4)
    assert problems == [
        (
            "toml",
            "frontmatter is not valid TOML: Invalid value (at line 2, column 9)",
            3,  # the block's line 2 is the file's line 3
            "fix the TOML between the `+++` lines",
        )
    ]


def test_toml_nesting_past_the_bound_is_refused():
    deep = "+++\na = " + "[" * 40 + "]" * 40 + "\n+++\n"
    assert _read(deep) == (
        {},
        3,
        [
            (
                "toml",
                "frontmatter nests deeper than 32 levels",
                2,
                "a record's metadata is a flat mapping of short values",
            )
        ],
    )


def test_yaml_nesting_past_the_bound_is_refused_shallow_or_very_deep():
    deep = "---\na: " + "[" * 40 + "]" * 40 + "\n---\n"
    assert _read(deep) == (
        {},
        3,
        [
            (
                "yaml",
                "frontmatter nests deeper than 32 levels",
                2,
                "a record's metadata is a flat mapping of short values",
            )
        ],
    )
    very = "---\na: " + "[" * 3000 + "]" * 3000 + "\n---\n"  # never handed to libyaml's recursion
    meta, body, problems = _read(very)
    assert (meta, body, [(kind, line) for kind, _, line, _ in problems]) == ({}, 3, [("yaml", 2)])


def test_a_long_flow_list_that_nests_shallow_is_read():
    items = ", ".join(f"[{n}]" for n in range(1500))
    meta, _, problems = _read(f"---\ntags: [{items}]\n---\n")
    assert problems == [] and len(meta["tags"]) == 1500 and meta["tags"][-1] == [1499]


def test_an_alias_bomb_is_refused_before_it_is_walked():
    rows = ["a: &a [x,x,x,x,x,x,x,x,x]"]
    for name, prev in zip("bcdefgh", "abcdefg"):
        rows.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    assert _read("---\n" + "\n".join(rows) + "\n---\n") == (
        {},
        10,
        [
            (
                "yaml",
                "frontmatter expands far beyond its text (YAML aliases)",
                2,
                "write the values out instead of repeating anchors",
            )
        ],
    )


def test_a_few_aliases_within_the_bound_are_read():
    meta, _, problems = _read("---\nbase: &b [x, y]\ncopy: *b\n---\n")
    assert problems == [] and meta == {"base": ["x", "y"], "copy": ["x", "y"]}


def test_where_each_key_is_written_under_both_its_names():
    lines = frontmatter.split_lines(
        "---\nStatus: a\n\"title\": b\n  nested: c\nsupersededBy: [x]\nstate: y\n'date': 2024-01-02\n---\nz: 1\n"
    )
    assert frontmatter.key_lines(lines) == {
        "Status": 2,
        "status": 2,  # the first line that writes it under any name
        "title": 3,
        "supersededBy": 5,
        "superseded-by": 5,
        "state": 6,
        "date": 7,
    }
    assert frontmatter.key_lines(frontmatter.split_lines("z: 1\n")) == {}
    assert frontmatter.key_lines([]) == {}


@pytest.mark.parametrize(
    ("meta", "folded"),
    [
        ({"Status": "a"}, {"status": "a"}),
        ({"supersededBy": 1}, {"superseded-by": 1}),
        ({"decision_status": 2}, {"status": 2}),
        ({"adrStatus": 3}, {"status": 3}),
        ({"state": "x"}, {"status": "x"}),
        ({"Title": "x", "DATE": "y"}, {"title": "x", "date": "y"}),
        ({"relates_to": 1}, {"relates_to": 1}),  # an underscore is folded for the aliases only
        ({"Status": "a", "status": "b"}, {"Status": "a", "status": "b"}),  # ours is read, theirs kept
        ({1: "x"}, {1: "x"}),  # a key that is no text stays
    ],
)
def test_keys_are_read_under_the_names_we_write(meta, folded):
    assert frontmatter._folded(meta) == folded


@pytest.mark.parametrize(
    ("key", "written", "spelled"),
    [
        ("status", ["title", "Status"], "Status"),
        ("superseded-by", ["supersededBy"], "supersededBy"),
        ("status", ["status", "Status"], "status"),
        ("status", ["title"], "status"),
        ("status", ["adr_status"], "adr_status"),
    ],
)
def test_a_key_is_edited_as_the_record_spells_it(key, written, spelled):
    assert frontmatter._spelled(key, written) == spelled


def test_an_empty_key_is_a_key_and_breaks_no_parse():
    from adr_memory.records.parse import parse

    rec = parse('---\n"": x\nstatus: proposed\n---\n# T\n', "docs/adr/0001-t.md")
    assert (rec.status, rec.meta, rec.key_lines) == (
        "proposed",
        {"": "x", "status": "proposed"},
        (("", 2), ("status", 3)),
    )
    twice = parse("---\n\"\": x\n'': y\n---\n# T\n", "docs/adr/0001-t.md")
    assert [(p.message, p.line) for p in twice.problems] == [
        ("frontmatter names `` twice (lines 2 and 3); YAML allows one", 3)
    ]
