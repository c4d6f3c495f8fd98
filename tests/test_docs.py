"""The README documents every command, and every command has help text."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from adr_memory.cli import app

README = (Path(__file__).parent.parent / "README.md").read_text()


def _commands(group: typer.Typer, prefix: str = "adr") -> list[tuple[str, str | None]]:
    found = [(f"{prefix} {c.name or c.callback.__name__}", c.callback.__doc__) for c in group.registered_commands]
    for sub in group.registered_groups:
        found += _commands(sub.typer_instance, f"{prefix} {sub.name}")
    return found


def test_every_command_has_help_and_is_in_the_readme():
    commands = _commands(app)
    assert len(commands) >= 25
    spans = re.findall(r"`(adr [^`]*)`", README)
    for name, doc in commands:
        assert doc and doc.strip(), name
        *group, verb = name.split()[1:]
        assert any(re.search(rf"\b{verb}\b", span) and all(g in span for g in group) for span in spans), (
            f"{name} is not in the README"
        )
