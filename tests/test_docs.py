"""The README and docs/ say what the code does: every command documented, every command and
option they show real, every page linked, and the README short enough to be a front door."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer

from adr_memory.surfaces.cli import app

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
PAGES = {p.relative_to(ROOT).as_posix(): p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}
DOCS = {"README.md": README, "CHANGELOG.md": (ROOT / "CHANGELOG.md").read_text(), **PAGES}


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


def test_the_readme_is_a_front_door():
    lines = README.splitlines()
    assert len(lines) <= 200
    first_screen = "\n".join(lines[:30])
    assert "pip install -e '.[dev]'" in first_screen and "python3 -m pytest" in first_screen


def test_every_guide_is_linked_from_the_readme_and_every_link_resolves():
    linked = set(re.findall(r"\]\(([^)#\s]+)", README))
    assert set(PAGES) <= linked, set(PAGES) - linked
    for name, text in DOCS.items():
        prose = re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.S)  # examples in code are not links
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", prose):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert ((ROOT / name).parent / target).exists(), f"{name} links to {target}, which does not exist"


_CLI = typer.main.get_command(app)


def _examples() -> list[tuple[str, str]]:
    """Every `adr ...` a page shows: inline code and the lines of shell blocks."""
    found = []
    for name, text in DOCS.items():
        if name == "CHANGELOG.md":
            continue
        found += [(name, span) for span in re.findall(r"`(adr [a-z][^`\n]*)`", text)]
        for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S):
            found += [(name, line.split("#")[0].strip()) for line in block.splitlines() if line.startswith("adr ")]
    return found


def _command(words: list[str]) -> tuple[Any, list[str]] | None:
    """The click command the words name (a group's subcommand too), and the words after it."""
    command: Any = _CLI
    rest = words
    while hasattr(command, "commands") and rest and rest[0] in command.commands:
        command, rest = command.commands[rest[0]], rest[1:]
    return (command, rest) if command is not _CLI else None


@pytest.mark.parametrize("page, example", _examples())
def test_every_command_and_option_a_page_shows_is_real(page, example):
    words = re.sub(r"(?<=\w)\|(?=\w)", " | ", example.replace("\\|", "|")).split()[1:]
    found = _command(words)
    assert found, f"{page}: `{example}` names no command"
    command, rest = found
    options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    # Alternatives (`accept | reject | deprecate`) and what a shell pipe feeds are other words.
    for word in rest:
        if word in ("|", "&&", ">", ";"):
            break
        for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", word):
            assert option in options or option in ("-h", "--help"), f"{page}: `{example}`: adr has no {option} here"
