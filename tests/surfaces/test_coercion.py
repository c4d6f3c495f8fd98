"""Text and flag arguments reach the commands as click parsed them, without pydantic; every
other argument (a bounded number, a path) is coerced and refused by typer, as before."""

from __future__ import annotations

import json
import subprocess
import sys

from adr_memory.surfaces import coercion
from tests.helpers import adr_text, commit, run

IMPORTS = """
import sys
from adr_memory.surfaces.cli import main
code = main(sys.argv[1:])
print("pydantic" in sys.modules, file=sys.stderr)
"""


def _pydantic_loaded(repo, *args: str) -> bool:
    done = subprocess.run([sys.executable, "-c", IMPORTS, *args], cwd=repo, capture_output=True, text=True)
    return done.stderr.strip().splitlines()[-1] == "True"


def test_everyday_commands_load_no_pydantic(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", extra="tags: [db]")}, "one")
    for args in (["list", "--status", "accepted", "--tag", "db"], ["show", "1"], ["log", "1"], ["check"], ["stale"]):
        assert not _pydantic_loaded(repo, *args), args


def test_text_lists_and_flags_arrive_as_typed(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", extra="tags: [db]"), "docs/adr/0002-b.md": adr_text("B")}, "two")
    listed = json.loads(run(capsys, "list", "--status", "accepted,proposed", "--status", "rejected", "--json").out)
    assert [r["id"] for r in listed] == ["ADR-0001", "ADR-0002"]
    assert [r["id"] for r in json.loads(run(capsys, "list", "--tag", "db", "--json").out)] == ["ADR-0001"]


def test_a_bounded_number_is_still_refused_by_typer(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    err = run(capsys, "search", "x", "--limit", "0", code=2).err
    assert err.startswith("error: invalid value for '--limit'") and "hint: adr search -h" in err
    assert run(capsys, "search", "x", "--limit", "many", code=2).err.startswith("error: invalid value for '--limit'")


def test_installing_twice_keeps_one_fast_path():
    assert coercion.install() and coercion.install()
