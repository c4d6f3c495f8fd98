"""surfaces.formats: one enum of output formats; each command offers some, and says which."""

from __future__ import annotations

import json

import pytest

from adr_memory.errors import UsageError
from adr_memory.surfaces import formats
from adr_memory.surfaces.formats import Format
from tests.helpers import adr_text, commit, run


def test_a_format_is_chosen_among_those_a_command_offers():
    assert formats.chosen("JSON", formats.CHECK) is Format.JSON
    assert formats.chosen("md", formats.EXPORT) is Format.MARKDOWN  # markdown's short name, everywhere
    with pytest.raises(UsageError) as told:
        formats.chosen("dot", formats.CHECK)
    assert told.value.hint == "use --format text, json, github or markdown"
    assert formats.listed(formats.GRAPH) == "mermaid or dot"


def test_every_command_with_a_format_refuses_another_alike(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use PostgreSQL")})
    for args, offered in (
        (("check",), "text, json, github or markdown"),
        (("export",), "json, jsonl or markdown"),
        (("generate", "graph"), "mermaid or dot"),
        (("review", "--base", "HEAD"), "markdown or json"),
    ):
        told = run(capsys, *args, "--format", "yaml", code=2)
        assert told.err == f"error: unknown format 'yaml'\nhint: use --format {offered}\n", args
    assert run(capsys, "check", "--format", "md").out == "### adr check\n\nNo problems found.\n"
    assert json.loads(run(capsys, "export", "--format", "json").out)[0]["id"] == "ADR-0001"
    assert run(capsys, "export", "--format", "markdown").out.startswith("# Architecture decisions")
