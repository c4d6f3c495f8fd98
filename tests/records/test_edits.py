"""records.edits: a command changes the keys it owns and no other byte."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.records import edits

RECORD = "---\ntitle: X  # ours\nstatus: proposed\ntags:\n  - a\n  - b\n---\n\nBody\n"


def test_setting_a_key_leaves_every_other_line_as_written():
    changed = edits.set_keys(RECORD, {"status": "accepted"})
    assert changed == RECORD.replace("status: proposed", "status: accepted")


def test_a_new_key_is_added_and_none_removes_one():
    added = edits.set_keys(RECORD, {"date": "2024-01-02"})
    assert "date: '2024-01-02'\n" in added and added.replace("date: '2024-01-02'\n", "") == RECORD
    removed = edits.set_keys(RECORD, {"tags": None})
    assert removed == "---\ntitle: X  # ours\nstatus: proposed\n---\n\nBody\n"


def test_a_files_own_line_endings_and_byte_order_mark_are_kept():
    text = "\ufeff---\r\ntitle: X\r\nstatus: proposed\r\n---\r\nBody\r\n"
    assert edits.set_keys(text, {"status": "accepted"}) == text.replace("proposed", "accepted")


def test_a_record_without_frontmatter_gets_a_block_of_the_keys_set():
    assert edits.set_keys("# X\n\nBody\n", {"status": "accepted"}) == "---\nstatus: accepted\n---\n# X\n\nBody\n"


def test_restructuredtext_keeps_its_keys_in_a_comment():
    text = edits.set_keys("Title\n=====\n", {"status": "accepted"}, "0001-x.rst")
    assert text == '.. adr-memory: {"status": "accepted"}\n\nTitle\n=====\n'


def test_keys_are_dumped_as_one_flow_style_line():
    assert edits.dump_key("tags", ["a", "b c"]) == "tags: [a, b c]\n"
    assert edits.dump_key("status", "accepted", "\r\n") == "status: accepted\r\n"
    assert edits.dump_key("note", "a: b") == "note: 'a: b'\n"  # quoted where YAML needs it


def test_line_edits_keep_the_files_newline():
    assert edits.replace_line("a\r\nb\r\nc", 2, "B") == "a\r\nB\r\nc"
    assert edits.insert_line_after("a\nb\n", 1, "x") == "a\nx\nb\n"
    assert edits.insert_lines_after("a\nb", 2, ["x", "y"]) == "a\nb\nx\ny"


_VALUES = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@given(_VALUES)
def test_any_value_set_is_read_back_as_written(value):
    import yaml

    changed = edits.set_keys(RECORD, {"reason": value})
    meta = yaml.safe_load(changed.split("---\n")[1])
    assert meta["reason"] == value and meta["status"] == "proposed" and meta["tags"] == ["a", "b"]


TOML = '+++\r\ntitle = "X"  # kept\r\nstatus = "proposed"\r\n+++\r\n# X\r\n'


def test_toml_frontmatter_changes_only_the_key_set_in_the_files_newline():
    assert edits.set_keys(TOML, {"status": "accepted"}) == TOML.replace('"proposed"', '"accepted"')
    assert edits.set_keys(TOML, {"status": None}) == TOML.replace('status = "proposed"\r\n', "")
    assert edits.set_keys(TOML, {"reviewed": {"commit": "abc", "date": "2024-01-02", "note": None}, "tags": ["a"]}) == (
        '+++\r\ntitle = "X"  # kept\r\nstatus = "proposed"\r\n'
        'reviewed = {commit = "abc", date = "2024-01-02"}\r\ntags = ["a"]\r\n+++\r\n# X\r\n'
    )


def test_toml_a_key_is_set_under_its_own_spelling():
    text = '+++\nStatus = "Proposed"\n+++\n'
    assert edits.set_keys(text, {"status": "accepted"}) == '+++\nStatus = "accepted"\n+++\n'


def test_toml_that_cannot_be_edited_safely_is_refused_whole():
    from adr_memory.errors import InvalidRecord

    with pytest.raises(InvalidRecord) as refused:
        edits.set_keys("+++\na = 1\na = 2\n+++\n", {"b": 1})
    assert refused.value.message == (
        'the TOML frontmatter cannot be edited safely: Key "a" already exists. at line 2 col 0'
    )
    assert refused.value.hint == "edit the keys by hand"


@pytest.mark.parametrize(
    ("text", "updates", "edited"),
    [
        ("---\nStatus: Proposed\n---\n", {"status": "accepted"}, "---\nStatus: accepted\n---\n"),
        ("---\nsupersededBy: [x]\n---\n", {"superseded-by": ["ADR-0002"]}, "---\nsupersededBy: [ADR-0002]\n---\n"),
        (  # a block scalar goes whole
            "---\ntitle: |\n  line one\n  line two\nstatus: proposed\n---\n",
            {"title": "T"},
            "---\ntitle: T\nstatus: proposed\n---\n",
        ),
        (  # a block list written at the key's own indent
            "---\ntags:\n- a\n- b\nstatus: x\n---\n",
            {"tags": ["c"]},
            "---\ntags: [c]\nstatus: x\n---\n",
        ),
        (  # a comment line between keys stays where it is
            "---\n# owned by the team\nstatus: proposed\n# end\n---\n",
            {"status": "accepted"},
            "---\n# owned by the team\nstatus: accepted\n# end\n---\n",
        ),
        ("---\nstatus: a\n...\nBody\n", {"date": "2024-01-02"}, "---\nstatus: a\ndate: '2024-01-02'\n...\nBody\n"),
        ("---\n---\n# X\n", {"status": "accepted"}, "---\nstatus: accepted\n---\n# X\n"),
        ("---\nstatus: a\n---\n", {"nothing": None}, "---\nstatus: a\n---\n"),
        ("---\nstatus: a\n---\n", {}, "---\nstatus: a\n---\n"),
        (  # keys are set in the order given, each after the last
            "---\nstatus: a\n---\n",
            {"x": 1, "y": 2, "status": None},
            "---\nx: 1\ny: 2\n---\n",
        ),
    ],
)
def test_set_keys_shapes(text, updates, edited):
    assert edits.set_keys(text, updates) == edited


@pytest.mark.parametrize(
    ("text", "updates", "edited"),
    [
        ("# X\n", {"status": None}, "# X\n"),  # nothing to add: the text as it was
        ("# X\r\n", {"status": "accepted", "tags": ["a"]}, "---\r\nstatus: accepted\r\ntags: [a]\r\n---\r\n# X\r\n"),
        ("\ufeff# X\n", {"status": "accepted"}, "\ufeff---\nstatus: accepted\n---\n# X\n"),  # the BOM stays first
        ("", {"status": "accepted"}, "---\nstatus: accepted\n---\n"),
        ("# X\rBody\r", {"status": "accepted"}, "---\rstatus: accepted\r---\r# X\rBody\r"),
    ],
)
def test_a_record_without_frontmatter_gets_one_in_its_own_style(text, updates, edited):
    assert edits.set_keys(text, updates) == edited


@pytest.mark.parametrize(
    ("text", "updates", "edited"),
    [
        (
            '.. adr-memory: {"status": "proposed", "tags": ["a"]}\n\nTitle\n=====\n',
            {"status": "accepted", "tags": None},
            '.. adr-memory: {"status": "accepted"}\n\nTitle\n=====\n',
        ),
        (  # the last key gone, the line goes; the blank after it stays
            '.. adr-memory: {"status": "proposed"}\n\nTitle\n=====\n',
            {"status": None},
            "\nTitle\n=====\n",
        ),
        (  # every character past ASCII escaped: one line whatever the value holds
            "Title\r\n=====\r\n",
            {"title": "Caf\u00e9 \u2028"},
            '.. adr-memory: {"title": "Caf\\u00e9 \\u2028"}\r\n\r\nTitle\r\n=====\r\n',
        ),
        (  # a date YAML read is written back as text
            ".. adr-memory: {date: 2024-01-02}\n\nT\n=\n",
            {"status": "accepted"},
            '.. adr-memory: {"date": "2024-01-02", "status": "accepted"}\n\nT\n=\n',
        ),
    ],
)
def test_restructuredtext_keys_live_in_one_comment_line(text, updates, edited):
    assert edits.set_keys(text, updates, "docs/decisions/0001-x.RST") == edited


def test_a_restructuredtext_comment_that_cannot_be_read_is_never_edited():
    from adr_memory.errors import InvalidRecord

    with pytest.raises(InvalidRecord) as refused:
        edits.set_keys(".. adr-memory: {a: [\n\nT\n=\n", {"b": 1}, "0001-x.rst")
    assert refused.value.message == (
        "its `.. adr-memory:` line cannot be read: the `.. adr-memory:` line is not valid YAML: "
        "did not find expected node content"
    )
    assert refused.value.hint == "fix that line, or delete it"


@pytest.mark.parametrize(
    ("key", "value", "line"),
    [
        ("n", 7, "n: 7\n"),
        ("d", None, "d: null\n"),
        ("b", True, "b: true\n"),
        ("e", [], "e: []\n"),
        ("s", "", "s: ''\n"),
        ("y", "yes", "y: 'yes'\n"),  # YAML 1.1 would read a bare yes as true
        ("t", "2024-01-02", "t: '2024-01-02'\n"),  # text stays text, not a date
        ("r", {"commit": "abc", "date": "2024-01-02"}, "r: {commit: abc, date: '2024-01-02'}\n"),
        ("u", "caf\u00e9 \u4e2d", "u: caf\u00e9 \u4e2d\n"),  # unicode as it is, not escaped
        ("nb", "x\u00a0", "nb: x\u00a0\n"),  # a trailing no-break space is part of the value
        ("c", "a\rb", 'c: "a\\rb"\n'),
        ("m", "a\nb", 'm: "a\\nb"\n'),
        ("r", {"note": "two\n\nlines"}, 'r: {"note": "two\\n\\nlines"}\n'),
    ],
)
def test_a_value_is_dumped_as_one_line_yaml_reads_back(key, value, line):
    import yaml

    assert edits.dump_key(key, value) == line
    assert yaml.safe_load(line) == {key: value}


def test_a_value_with_a_line_break_can_be_set_again_and_leaves_nothing_behind():
    text = "---\nstatus: proposed\nnote: x\ntitle: T\n---\n# T\n"
    once = edits.set_keys(text, {"note": "line one\nline two"})
    assert once == '---\nstatus: proposed\nnote: "line one\\nline two"\ntitle: T\n---\n# T\n'
    assert edits.set_keys(once, {"note": "x"}) == text


@pytest.mark.parametrize(
    ("text", "line", "new", "edited"),
    [
        ("\ufeffa\nb", 2, "B", "\ufeffa\nB"),
        ("a\rb\r", 1, "A", "A\rb\r"),
        ("a\r\nb\r\n", 2, "", "a\r\n\r\n"),
        ("only", 1, "changed", "changed"),
    ],
)
def test_replace_line_keeps_every_other_byte(text, line, new, edited):
    assert edits.replace_line(text, line, new) == edited


@pytest.mark.parametrize(
    ("text", "after", "new", "edited"),
    [
        ("a\r\nb", 2, ["x"], "a\r\nb\r\nx"),  # the end without a newline stays without one
        ("a\nb", 1, [], "a\nb"),
        ("a", 1, [], "a\n"),
        ("\ufeffa\n", 1, ["x"], "\ufeffa\nx\n"),
        ("a\nb\n", 0, ["x"], "x\na\nb\n"),  # after line 0: at the top
        ("a\rb\r", 1, ["x", "y"], "a\rx\ry\rb\r"),
        ("", 0, ["x"], "x\n"),
    ],
)
def test_insert_lines_after_in_the_files_newline(text, after, new, edited):
    assert edits.insert_lines_after(text, after, new) == edited


_ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=5), inner, max_size=3),
    max_leaves=6,
)


_SET = _ANY_VALUE.filter(lambda v: v is not None)  # None removes the key


@given(_SET, _SET)
def test_any_value_can_be_set_twice_and_every_other_line_stays_byte_for_byte(first, second):
    import yaml

    once = edits.set_keys(RECORD, {"reason": first})
    twice = edits.set_keys(once, {"reason": second})
    assert yaml.safe_load(twice.split("---\n")[1])["reason"] == second
    assert twice.replace(edits.dump_key("reason", second), "") == RECORD
    assert edits.set_keys(twice, {"reason": None}) == RECORD


@pytest.mark.parametrize(
    ("text", "edited"),
    [
        ('---\n"status": proposed\ntitle: T\n---\n# T\n', "---\nstatus: accepted\ntitle: T\n---\n# T\n"),
        ("---\n'status': proposed\n---\n# T\n", "---\nstatus: accepted\n---\n# T\n"),
        ('---\n"": x\n"Status": Proposed\n---\n', '---\n"": x\nStatus: accepted\n---\n'),
    ],
)
def test_a_key_written_in_quotes_is_edited_not_written_a_second_time(text, edited):
    from adr_memory.records import parse

    assert edits.set_keys(text, {"status": "accepted"}) == edited
    rec = parse(edited, "docs/adr/0001-t.md")
    assert rec.status == "accepted" and rec.problems == ()
