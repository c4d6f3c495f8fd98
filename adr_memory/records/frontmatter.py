"""Frontmatter: its span (YAML `---` or TOML `+++`), its keys under their aliases, and the
bounds that keep a hostile block from expanding or nesting past what a record needs."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import yaml

from adr_memory.records.model import Problem

_TOP_KEY = re.compile(r"^([A-Za-z0-9_][\w.-]*)\s*:")

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


# ---------------------------------------------------------------------------- parsing


def split_lines(text: str) -> list[str]:
    """Lines with their own endings kept (`\\r\\n`, `\\r` or `\\n`), so edits round-trip."""
    return _LINE.findall(text)


def without_comments(text: str) -> str:
    """The text without its HTML comments (`<!-- ... -->`). An unclosed one stays, as
    `<!--.*?-->` would leave it, but in one pass: that pattern rescans to the end of the text
    from every unclosed opener (quadratic on a record of "<!--" repeated)."""
    out, pos = [], 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[pos:start])
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


# Hugo and Zola write frontmatter in TOML between `+++` lines; everyone else YAML between `---`.
_CLOSERS = {"---": ("---", "..."), "+++": ("+++",)}
# The finding kinds of frontmatter that cannot be read: no key of it is known.
FRONTMATTER_KINDS = ("yaml", "toml")


def frontmatter_span(lines: list[str]) -> int | None:
    """Index of the closing line when `lines` open with a frontmatter block (YAML `---`, or
    TOML `+++`)."""
    closers = _CLOSERS.get(lines[0].rstrip("\r\n").rstrip()) if lines else None
    if closers is None:
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n").rstrip() in closers:
            return i
    return None


def _in_toml(lines: list[str]) -> bool:
    return bool(lines) and lines[0].rstrip("\r\n").rstrip() == "+++"


def _read_frontmatter(lines: list[str], problems: list[Problem]) -> tuple[dict[str, Any], int]:
    end = frontmatter_span(lines)
    if end is None:
        fence = lines[0].strip() if lines else ""
        if len(lines) > 1 and fence in _CLOSERS and (_TOP_KEY if fence == "---" else _TOML_KEY).match(lines[1]):
            problems.append(
                Problem(
                    "toml" if fence == "+++" else "yaml",
                    f"frontmatter opens with `{fence}` but is never closed",
                    1,
                    f"add a `{fence}` line after the last key",
                )
            )
        return {}, 0
    source = "".join(lines[1:end])
    if _in_toml(lines):
        return _read_toml(source, problems, end)
    loader = getattr(yaml, "CSafeLoader", None)  # same safe subset, several times faster (pre-commit)
    if loader is None:  # PyYAML's own loader: Python bounds its recursion (a RecursionError, below)
        loader = yaml.SafeLoader
    elif _nesting_bound(source) > MAX_NESTING_TEXT and _deeper_than(source, MAX_DEPTH, loader):
        return _unread(problems, _TOO_DEEP, end)
    try:
        # python-frontmatter: the YAML handler we agreed to read with
        from frontmatter.default_handlers import YAMLHandler

        loaded = YAMLHandler().load(source, Loader=_lenient(loader))
    except RecursionError:
        return _unread(problems, _TOO_DEEP, end)
    except (ValueError, TypeError, OverflowError) as exc:  # a value YAML cannot build: date: 2024-02-30
        return _unread(
            problems,
            (f"holds a value YAML cannot read: {exc}", "fix the value (dates are YYYY-MM-DD), or quote it"),
            end,
        )
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problems.append(
            Problem(
                "yaml",
                f"frontmatter is not valid YAML: {_yaml_reason(exc)}",
                line,
                "fix the YAML between the `---` lines",
            )
        )
        return {}, end + 1
    if loaded is None:
        return {}, end + 1
    if not isinstance(loaded, dict):
        problems.append(Problem("yaml", "frontmatter is not a mapping of keys to values", 2))
        return {}, end + 1
    unbounded = _unbounded(loaded, budget=MAX_EXPANSION * len(source) + 1_000)
    if unbounded:
        return _unread(problems, unbounded, end)
    twice = _written_twice(lines, end, source, loader)
    if twice:
        problems.append(twice)
    return {str(k): _read_as_written(k, v, problems) for k, v in loaded.items()}, end + 1


class _Unreadable(str):
    """A scalar YAML reads as a date or time that no calendar has (`2024-02-30`): kept as the
    text it is, with where it stands and why, so one bad value hides no other key."""

    __slots__ = ("line", "reason")
    line: int
    reason: str


def _timestamp(self: Any, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(self, node)
    except (ValueError, OverflowError) as exc:
        text = _Unreadable(node.value)
        text.line, text.reason = node.start_mark.line + 2, str(exc)  # the `---` line is line 1
        return text


_LENIENT: dict[Any, Any] = {}


def _lenient(loader: Any) -> Any:
    """`loader` reading an impossible date as its text (PyYAML would stop the whole block)."""
    if loader not in _LENIENT:
        lenient: Any = type(f"Lenient{loader.__name__}", (loader,), {})
        lenient.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
        _LENIENT[loader] = lenient
    return _LENIENT[loader]


def _read_as_written(key: Any, value: Any, problems: list[Problem]) -> Any:
    if isinstance(value, _Unreadable):
        problems.append(
            Problem(
                "schema",
                f"`{key}` is not a date any calendar has: {value.reason}",
                value.line,
                "write it as YYYY-MM-DD, or quote it",
            )
        )
        return str(value)
    return value


def key_lines(lines: list[str]) -> dict[str, int]:
    """Where each top-level frontmatter key is written (1-based file lines), under its name as
    written and as the tool reads it, so a problem with a key points at it."""
    end = frontmatter_span(lines)
    found: dict[str, int] = {}
    for number, line in enumerate(lines[1:end] if end else (), 2):
        if match := _ANY_TOP_KEY.match(line):
            name = _key_name(match)
            found.setdefault(name, number)
            found.setdefault(_fold(name), number)
    return found


def _folded(meta: dict[str, Any]) -> dict[str, Any]:
    """Keys as the tool reads them: `Status:` is `status:`, `supersededBy:` (as JavaScript
    sites' content schemas write keys) is `superseded-by:`. YAML's and TOML's keys are
    case-sensitive, but a record that writes its fields so still states them; where it also
    has the key as we write it, that one is read."""
    return {(_fold(key) if _fold(key) not in meta else key): value for key, value in meta.items()}


_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


# Other names records give their status key (`state:`, `decision_status:`, `adrStatus:`).
_KEY_ALIASES = {"state": "status", "decision-status": "status", "adr-status": "status"}


def _fold(key: str) -> str:
    if not isinstance(key, str):
        return key
    folded = _CAMEL_HUMP.sub("-", key).lower()
    return _KEY_ALIASES.get(folded.replace("_", "-"), folded)


def _spelled(key: str, written: Iterable[str]) -> str:
    """`key` as the record spells it (`Status` for `status`, `supersededBy` for
    `superseded-by`), so an edit replaces its key rather than adding a second one."""
    names = list(written)
    return key if key in names else next((name for name in names if _fold(name) == key), key)


MAX_EXPANSION = 10  # parsed frontmatter may hold at most ~10x its text; more is an alias bomb
MAX_DEPTH = 32  # deeper is no record's metadata; every walker downstream may recurse this far
# libyaml's composer recurses once per level in C and crashes the process (a segfault, no
# exception) somewhere past 10,000 nested `[`: text that could nest that deep is first walked
# event by event (libyaml's parser keeps its own stack) to see how deep it really nests.
MAX_NESTING_TEXT = 2_000
_TOO_DEEP = (f"nests deeper than {MAX_DEPTH} levels", "a record's metadata is a flat mapping of short values")
_ALIAS_BOMB = ("expands far beyond its text (YAML aliases)", "write the values out instead of repeating anchors")


def _unread(problems: list[Problem], why: tuple[str, str], end: int, kind: str = "yaml") -> tuple[dict[str, Any], int]:
    """No metadata from this frontmatter, and the problem that says why."""
    problems.append(Problem(kind, f"frontmatter {why[0]}", 2, why[1]))
    return {}, end + 1


_TOML_KEY = re.compile(r"^\s*[A-Za-z0-9_\"'-][^=]*=")


def _read_toml(source: str, problems: list[Problem], end: int) -> tuple[dict[str, Any], int]:
    """Hugo's and Zola's TOML frontmatter, read by the standard library's reader."""
    import tomllib

    try:
        loaded = tomllib.loads(source)
    except RecursionError:
        return _unread(problems, _TOO_DEEP, end, "toml")
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+)", str(exc))
        problems.append(
            Problem(
                "toml",
                f"frontmatter is not valid TOML: {exc}",
                int(at.group(1)) + 1 if at else 1,
                "fix the TOML between the `+++` lines",
            )
        )
        return {}, end + 1
    unbounded = _unbounded(loaded, budget=MAX_EXPANSION * len(source) + 1_000)
    if unbounded:
        return _unread(problems, unbounded, end, "toml")
    return loaded, end + 1


def _deeper_than(source: str, limit: int, loader: Any) -> bool:
    """Whether the YAML nests more than `limit` collections deep, read as a stream of events
    (no recursion), stopping at the first level past it. A long flow list counts thousands of
    brackets yet nests three deep: it is read. Invalid YAML says no here; loading reports it."""
    depth = -1  # the top-level mapping is level 0, as `_unbounded` counts
    try:
        for event in yaml.parse(source, Loader=loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limit:
                    return True
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return False
    return False


def _nesting_bound(source: str) -> int:
    """A bound on how deep the YAML in `source` can nest, never below the truth: every flow
    bracket or brace (quoted ones too), plus the most block indicators (`- `, `? `) and
    indentation on any one line. One pass over the text."""
    flow = source.count("[") + source.count("{")
    block = max(
        (len(line) - len(line.lstrip(" ")) + line.count("- ") + line.count("? ") for line in source.splitlines()),
        default=0,
    )
    return flow + block


def _unbounded(value: Any, budget: int) -> tuple[str, str] | None:
    """Why the parsed YAML is no record's metadata (with a hint), or None: it nests deeper than
    MAX_DEPTH (JSON export, rendering and every other walker would recurse that far), or, counted as text,
    exceeds `budget` characters. Aliases share objects, so a 400-byte file can stand for
    gigabytes: count with a shrinking budget and stop as soon as it runs out, never walking the
    whole expansion."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _TOO_DEEP
        budget -= len(item) if isinstance(item, str) else 8
        if budget < 0:
            return _ALIAS_BOMB
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return None


def _yaml_reason(exc: yaml.YAMLError) -> str:
    return str(getattr(exc, "problem", None) or exc).splitlines()[0]


# A line that may start a top-level key, quoted or not (`"status": x` is `status` to YAML).
_ANY_TOP_KEY = re.compile(r"""^(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_][\w.-]*))[ \t]*:""")


def _key_name(match: re.Match[str]) -> str:
    """The key an `_ANY_TOP_KEY` match names, as YAML reads it (`""` is a key too)."""
    return next(group for group in match.groups() if group is not None)


def _written_twice(lines: list[str], end: int, source: str, loader: Any) -> Problem | None:
    """A key the frontmatter writes twice: YAML forbids it, PyYAML quietly reads the last, other
    readers (js-yaml, ruamel) refuse the file, and an edit could change the copy nobody reads.
    The lines are scanned first (one pass); only a key seen twice there is confirmed on YAML's
    own nodes, which a quoted value's continuation line cannot fool."""
    keys = [_key_name(match) for match in map(_ANY_TOP_KEY.match, lines[1:end]) if match]
    if len(keys) == len(set(keys)):
        return None
    root = yaml.compose(source, Loader=loader)
    seen: dict[str, int] = {}
    for node, _ in root.value if isinstance(root, yaml.MappingNode) else []:
        if not isinstance(node, yaml.ScalarNode) or node.value == "<<":
            continue
        line = node.start_mark.line + 2  # the `---` line is line 1
        if node.value in seen:
            return Problem(
                "yaml",
                f"frontmatter names `{node.value}` twice (lines {seen[node.value]} and {line}); YAML allows one",
                line,
                "keep one of them",
            )
        seen[node.value] = line
    return None
