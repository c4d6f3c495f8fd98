"""records.findings: how a finding lists what it is about."""

from __future__ import annotations

from adr_memory.records import findings


def test_a_long_list_is_cut_with_a_count_of_the_rest():
    assert findings.first_few(list("abcdefg")) == "a, b, c, d, e and 2 more"
    assert findings.first_few(["a", "b"]) == "a, b"
    assert findings.first_few(list("abc"), shown=1) == "a and 2 more"
