"""records.edits: a command changes the keys it owns and no other byte."""

from __future__ import annotations

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
