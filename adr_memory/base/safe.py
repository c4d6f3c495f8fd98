"""Record text is untrusted: escape it for where it goes.

Three destinations, three escapes: the terminal (no control characters, no escape sequences),
GitHub workflow commands (the `%`/CR/LF encoding of the workflow-command spec, plus `:` and `,`
in properties), and markdown reports (table pipes, HTML). Credentials are redacted separately
(`credentials.scrub_data`); both happen at the output boundary in `render` and the MCP server.
Patterns that come from a repository (rules, `governs` globs) are matched by RE2 (`linear`).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

# CSI/OSC/other ESC sequences first (so their parameters go too), then any C0/C1 control
# character except tab and newline, and the Unicode bidi overrides that reorder a line.
# An unterminated OSC loses only its introducer: the text after it stays visible, inert.
_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


_COMMAND_START = re.compile(r"^([ \t]*):(?=:)", re.MULTILINE)


def no_workflow_commands(text: str) -> str:
    """Text no CI log reads as a command: a line that starts with `::` after any blanks
    (GitHub's workflow commands, `::error file=…::`; the runner trims leading white space) gets
    an invisible zero-width space between the colons, and so does `##[` anywhere in a line
    (Azure's `##[error]`, which GitHub's runner also reads anywhere: `##[stop-commands]` would
    mute the annotations after it). For text that is not a command we meant to write, when CI
    (`CI`, `GITHUB_ACTIONS`) is set."""
    return _COMMAND_START.sub("\\1:\u200b", text).replace("##[", "#\u200b#[")


def in_ci() -> bool:
    import os

    return bool(os.environ.get("GITHUB_ACTIONS") or os.environ.get("CI"))


def terminal(text: str) -> str:
    """Text safe to print: escape sequences and control characters removed (\\n and \\t kept)."""
    return _CONTROL.sub("", _ESCAPES.sub("", text))


_C_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}


def quoted_path(path: str) -> str:
    """A path for a line a script reads: as it is, or, when it holds a quote, a backslash, a
    character the terminal would drop or a byte that is not UTF-8, in double quotes with C
    escapes (octal for the bytes), as `git ls-files` writes such a name."""
    if not any(c in _C_ESCAPES or _as_octal(c) for c in path):
        return path
    return (
        '"'
        + "".join(
            _C_ESCAPES.get(c)
            or ("".join(f"\\{b:03o}" for b in c.encode("utf-8", "surrogateescape")) if _as_octal(c) else c)
            for c in path
        )
        + '"'
    )


def _as_octal(c: str) -> bool:
    """A control or bidi character, or a surrogate standing for a byte that is not UTF-8."""
    return bool(_CONTROL.match(c)) or "\udc80" <= c <= "\udcff"


def one_line(text: str) -> str:
    """Terminal-safe text on one line."""
    return " ".join(terminal(text).split())


def workflow_data(text: str) -> str:
    """The message part of a GitHub workflow command (`::error ...::DATA`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text: str) -> str:
    """A property value of a workflow command (`file=`, `title=`): `:` and `,` end it."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


_MD_SPECIAL = str.maketrans(
    {"|": "\\|", "<": "&lt;", ">": "&gt;", "&": "&amp;", "`": "\\`", "[": "\\[", "]": "\\]", "*": "\\*", "_": "\\_"}
)


# `@name` where GitHub reads a mention (not inside an address, `a@b.org`): a report a bot posts
# must not notify whoever a record names. A zero-width space after the `@` (as dependency bots
# write it) shows the same text and mentions no one.
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])")


def markdown_inline(text: str) -> str:
    """Record text inside a markdown table cell or a heading: one line, nothing interpreted,
    no one mentioned."""
    return _MENTION.sub("@&#8203;", one_line(text).translate(_MD_SPECIAL))


def html_inline(text: str) -> str:
    """Record text inside an HTML element of a markdown document: one line, escaped as HTML (no
    tag, no entity of its own), no one mentioned."""
    import html

    return _MENTION.sub("@&#8203;", html.escape(one_line(text), quote=False))


def replace_unencodable(stream: Any) -> None:
    """Have a text stream write `?` for what its encoding cannot hold, instead of failing or
    passing raw bytes through: a file name from git that is not UTF-8 is kept as surrogates
    (repo._path), and a surrogate of a C1 byte would be a control byte on a Latin-1 terminal."""
    # Not a TextIOWrapper, or already closed: nothing to reconfigure.
    with contextlib.suppress(AttributeError, ValueError, OSError):
        stream.reconfigure(errors="replace")


def encodable(text: str) -> str:
    """The text as UTF-8 can carry it: a surrogate becomes `?` (see replace_unencodable)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def linear(pattern: str) -> Any:
    """`pattern` compiled by RE2, which matches in time linear in the input whatever the
    pattern: one from a repository (a rule, a `governs` glob) cannot stall a hook or CI with
    catastrophic backtracking. RE2 has no backreferences or lookaround; a pattern it cannot
    take raises ValueError with the engine's reason."""
    import re2

    try:
        return re2.compile(pattern, options=_quiet())
    except re2.error as exc:
        reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ValueError(reason) from None


def linear_sets(
    members: list[tuple[int, str]], size: int = 256, *, search: bool = False
) -> list[tuple[Any, list[int]]]:
    """Patterns as RE2 sets that match a text in one pass each: [(set, the index of each
    pattern it took)]. `set.Match(text)` lists the members that match from the start (with
    `search`, anywhere). A pattern RE2 cannot take is left out; a set too large for RE2's
    memory bound is split."""
    out: list[tuple[Any, list[int]]] = []
    for start in range(0, len(members), size):
        out.extend(_sets(members[start : start + size], search))
    return out


def _sets(members: list[tuple[int, str]], search: bool) -> list[tuple[Any, list[int]]]:
    import re2

    found, taken = (re2.Set.SearchSet if search else re2.Set.MatchSet)(_quiet()), []
    for n, pattern in members:
        try:
            found.Add(pattern)
            taken.append(n)
        except re2.error:
            continue
    try:
        found.Compile()
    except re2.error:
        if len(members) == 1:
            return []
        half = len(members) // 2
        return _sets(members[:half], search) + _sets(members[half:], search)
    return [(found, taken)]


def _quiet() -> Any:
    """RE2 options that keep the engine's complaints off stderr: a reason goes into the finding."""
    import re2

    options = re2.Options()
    options.log_errors = False
    return options
