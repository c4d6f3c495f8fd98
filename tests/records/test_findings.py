"""records.findings: how a finding lists what it is about."""

from __future__ import annotations

from adr_memory.records import findings


def test_a_long_list_is_cut_with_a_count_of_the_rest():
    assert findings.first_few(list("abcdefg")) == "a, b, c, d, e and 2 more"
    assert findings.first_few(["a", "b"]) == "a, b"
    assert findings.first_few(list("abc"), shown=1) == "a and 2 more"


def test_first_few_counts_the_rest_with_thousands_separators():
    assert findings.first_few([f"src/{n}.py" for n in range(1234)], shown=2) == "src/0.py, src/1.py and 1,232 more"
    assert findings.first_few([]) == ""
    assert findings.first_few(list("abcde")) == "a, b, c, d, e"  # exactly the few: no count
    assert findings.first_few(list("ab"), shown=0) == " and 2 more"


FINDING = findings.Finding("docs/adr/0002-x.md", 7, "schema", findings.ERROR, "ADR-0002", "bad key", "fix it")


def test_a_finding_prints_as_a_compiler_line_with_its_hint_below():
    assert FINDING.text_lines() == [
        "docs/adr/0002-x.md:7: error: schema: bad key",
        "    hint: fix it",
    ]
    plain = findings.Finding("a.md", 1, "yaml", findings.WARNING, "ADR-0001", "m")
    assert plain.text_lines() == ["a.md:1: warning: yaml: m"]


def test_a_rules_finding_prints_with_its_column_and_rule():
    ruled = findings.Finding("src/a.py", 3, "rule", findings.ERROR, "ADR-0004", "no print", "h", col=5, rule_id="R1")
    assert ruled.text_lines() == ["src/a.py:3:5: ADR-0004 R1 no print"]


def test_a_findings_json_has_every_field_in_a_fixed_order():
    data = FINDING.to_json()
    assert list(data) == ["kind", "severity", "id", "path", "line", "message", "hint", "col", "rule_id"]
    assert data == {
        "kind": "schema",
        "severity": "error",
        "id": "ADR-0002",
        "path": "docs/adr/0002-x.md",
        "line": 7,
        "message": "bad key",
        "hint": "fix it",
        "col": 0,
        "rule_id": None,
    }


def test_findings_sort_by_file_then_line():
    later = findings.Finding("docs/adr/0002-x.md", 10, "a", findings.ERROR, "ADR-0002", "m")
    other = findings.Finding("docs/adr/0001-x.md", 99, "z", findings.ERROR, "ADR-0001", "m")
    assert sorted([later, FINDING, other]) == [other, FINDING, later]
