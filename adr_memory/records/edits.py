"""Minimal edits to a record's text: set frontmatter keys (YAML or TOML) and replace or insert
body lines, every byte not changed kept as written."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from adr_memory.records import rst
from adr_memory.records.frontmatter import _ANY_TOP_KEY, _in_toml, _key_name, _spelled, frontmatter_span, split_lines
from adr_memory.records.model import Problem
from adr_memory.records.names import is_rst
from adr_memory.records.parse import _rst_meta

# ---------------------------------------------------------------------------- minimal edits


def _newline(lines: list[str]) -> str:
    for line in lines:
        for ending in ("\r\n", "\n", "\r"):
            if line.endswith(ending):
                return ending
    return "\n"


def dump_key(key: str, value: Any, newline: str = "\n") -> str:
    """`key: value` as one YAML line; lists and mappings in flow style, in the file's newline."""
    line = f"{key}: {_flow(value)}"
    if "\n" in line or _read_back(line) != {key: value}:
        # PyYAML writes some text it reads differently (a line separator in single quotes is
        # folded away), and a line break over several lines, of which a later edit would
        # replace only those up to the first blank: double quotes escape every character.
        line = f"{key}: {_flow(value, style=_DOUBLE_QUOTED)}"
    return line.replace("\n", newline) + newline


_DOUBLE_QUOTED = '"'


def _flow(value: Any, style: str | None = None) -> str:
    text = yaml.safe_dump(
        value, default_flow_style=True, default_style=style, allow_unicode=True, sort_keys=False, width=10_000
    )
    # Only the dump's own ending goes: a value may be, or end in, a no-break space.
    return text.removesuffix("\n").removesuffix("\n...").strip("\n")


def _read_back(line: str) -> Any:
    try:
        return yaml.safe_load(line)
    except yaml.YAMLError:
        return None


def _key_spans(lines: list[str], start: int, end: int) -> dict[str, tuple[int, int]]:
    """Top-level frontmatter keys and the [first, last+1) line span each occupies."""
    spans: dict[str, tuple[int, int]] = {}
    i = start
    while i < end:
        match = _ANY_TOP_KEY.match(lines[i])  # `"status": x` is `status` to YAML: edited, not written twice
        if not match:
            i += 1
            continue
        j = i + 1
        while j < end and lines[j].strip() and lines[j][0] in " \t-":
            j += 1
        spans.setdefault(_key_name(match), (i, j))
        i = j
    return spans


def set_keys(text: str, updates: Mapping[str, Any], path: str = "") -> str:
    """Set (or with None, remove) top-level frontmatter keys, leaving every other byte alone.

    A record without frontmatter gets a block holding only the keys set; a reStructuredText
    record (`path` ends in `.rst`) keeps them in its `.. adr-memory:` line.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    newline = _newline(lines)
    if is_rst(path):
        return bom + _rst_meta_with(lines, updates, newline)
    end = frontmatter_span(lines)
    if end is not None and _in_toml(lines):
        return bom + lines[0] + _toml_with("".join(lines[1:end]), updates, newline) + "".join(lines[end:])
    if end is None:
        added = [dump_key(k, v, newline) for k, v in updates.items() if v is not None]
        if not added:
            return text
        return bom + "---" + newline + "".join(added) + "---" + newline + "".join(lines)
    for key, value in updates.items():
        spans = _key_spans(lines, 1, end)
        key = _spelled(key, spans)
        new = [] if value is None else [dump_key(key, value, newline)]
        if key in spans:
            first, last = spans[key]
            lines[first:last] = new
            end += len(new) - (last - first)
        elif new:
            lines[end:end] = new
            end += 1
    return bom + "".join(lines)


def _rst_meta_with(lines: list[str], updates: Mapping[str, Any], newline: str) -> str:
    """A reStructuredText record with keys set in its `.. adr-memory:` first line (written as
    JSON, which YAML reads, with every character past ASCII escaped: one line whatever the
    values hold, since YAML breaks lines at U+2028 too), added with a blank line after it (a
    comment runs on to the next line otherwise)."""
    found: list[Problem] = []
    meta, start = _rst_meta(lines, found)
    if found:
        from adr_memory.errors import InvalidRecord

        raise InvalidRecord(
            f"its `.. adr-memory:` line cannot be read: {found[0].message}", hint="fix that line, or delete it"
        )
    for key, value in updates.items():
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value
    line = [rst.META_PREFIX + json.dumps(meta, default=str) + newline] if meta else []
    return "".join(line + ([newline] if line and not start else []) + lines[start:])


def _toml_with(block: str, updates: Mapping[str, Any], newline: str) -> str:
    """TOML frontmatter with keys set (or with None, removed) by tomlkit, which keeps every
    other byte: comments, order, quoting, line endings (its new lines get the file's)."""
    import tomlkit

    try:  # what the standard reader takes, tomlkit takes too; should it not, nothing is written
        doc = tomlkit.parse(block)
        for key, value in updates.items():
            key = _spelled(key, doc.keys())
            if value is None:
                doc.pop(key, None)
            else:
                doc[key] = _toml_item(value)
        text = tomlkit.dumps(doc)
    except (tomlkit.exceptions.TOMLKitError, ValueError, RecursionError) as exc:
        from adr_memory.errors import InvalidRecord

        raise InvalidRecord(
            f"the TOML frontmatter cannot be edited safely: {exc}", hint="edit the keys by hand"
        ) from None
    return re.sub(r"(?<!\r)\n", newline, text) if newline != "\n" else text


def _toml_item(value: Any) -> Any:
    """A value as TOML writes it inline: a mapping is an inline table (`reviewed = {...}`), not
    a `[table]` after every key."""
    import tomlkit

    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update({str(k): _toml_item(v) for k, v in value.items() if v is not None})
        return table
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        array.extend(_toml_item(v) for v in value)
        return array
    return value


def replace_line(text: str, line_number: int, new_content: str) -> str:
    """Replace the content of one 1-based line, keeping its line ending and the BOM."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    old = lines[line_number - 1]
    ending = old[len(old.rstrip("\r\n")) :]
    lines[line_number - 1] = new_content + ending
    return bom + "".join(lines)


def insert_line_after(text: str, line_number: int, new_content: str) -> str:
    """Insert a line after a 1-based line, in the file's newline style."""
    return insert_lines_after(text, line_number, [new_content])


def insert_lines_after(text: str, line_number: int, new_lines: Sequence[str]) -> str:
    """Insert lines after a 1-based line, in the file's newline style; at the end of a file
    that has no final newline, the last one inserted has none either."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    newline = _newline(lines)
    open_end = bool(lines) and line_number == len(lines) and not lines[-1].endswith(("\n", "\r"))
    if lines and not lines[line_number - 1].endswith(("\n", "\r")):
        lines[line_number - 1] += newline
    added = [line + newline for line in new_lines]
    if open_end and added:
        added[-1] = new_lines[-1]
    lines[line_number:line_number] = added
    return bom + "".join(lines)
