"""Text that looks like a credential: found by `adr check`, never indexed, never printed.

Patterns are deliberately specific (key formats, private key blocks, a password word followed
by a real-looking value) so ordinary prose about passwords is not flagged.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adr_memory.base import safe
from adr_memory.records.model import Section
from adr_memory.records.record import Record

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA|AROA|AIDA)[0-9A-Z]{16}\b")),
    ("a private key block", re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b")),
    ("a Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b")),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("an API secret key", re.compile(r"\bsk-(?:live|test|proj)?[-_]?[A-Za-z0-9]{20,}\b")),
    (
        "a password",
        re.compile(
            # After a word boundary or an underscore, and after `PG`: `DB_PASSWORD=`, `PGPASSWORD=`
            # and `POSTGRES_PASSWORD:` name one too (`\b` alone does not match after `_`).
            r"(?i)(?:\b|_)(?:pg)?(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token)\b[\"']?\s*(?P<sep>[:=]|\bis\b)"
            r"\s*[\"'`]?(?P<value>[^\s\"'`]{4,})"
        ),
    ),
)
# Python's `\s` (RE2's is ASCII alone), and the letters Python's case-blind match takes for an
# ASCII one that RE2's does not: the filter below must find all Python's patterns find.
_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_FOLD = str.maketrans(
    {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
)  # dotted I, dotless i, long s, Kelvin sign


@functools.cache
def _anything() -> Any:
    """Every pattern at once, in RE2: one linear pass (some 50 times faster than the patterns
    one by one) tells the common case, text with none of them, from the rest. A filter only:
    what it finds is then judged pattern by pattern."""
    branches = []
    for _what, pattern in _PATTERNS:
        text = pattern.pattern.replace("(?P<sep>", "(?:").replace("(?P<value>", "(?:")
        text = text.replace("[^\\s", "[^" + _SPACE).replace("\\s", f"[{_SPACE}]")
        # RE2's `\b` knows ASCII word characters only, Python's every letter: `xoxb-…-é` ends a
        # token for Python and not for RE2. Without `\b` the filter finds all it found and more.
        text = text.replace("\\b", "")
        branches.append(f"(?i:{text.removeprefix('(?i)')})" if text.startswith("(?i)") else f"(?:{text})")
    return safe.linear("|".join(branches))


def _may_hold(text: str) -> bool:
    """Whether any pattern might match `text` (False: none does)."""
    folded = text.translate(_FOLD)
    try:
        return _anything().search(folded) is not None
    except UnicodeEncodeError:  # a name that is not UTF-8 keeps its bytes as surrogates: `?` to RE2
        return _anything().search(safe.encodable(folded)) is not None


# Values that are plainly placeholders, not secrets.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<.*>|\$\{?.*\}?|\{\{.*\}\}|x{4,}.*|\*{4,}|changeme|example\w*|"
    r"password\w*|secret\w*|redacted|none|null|true|false|required|optional)$"
)


@dataclass(frozen=True)
class Hit:
    line: int  # 1-based, within the text scanned
    what: str


def _real(match: re.Match[str]) -> bool:
    """Whether a keyword-anchored value looks like a secret rather than prose or a placeholder.

    After `password:` or `password =` a short value counts once it mixes character classes
    (`hunter2`); after "password is" only a long letters-and-digits one does, so a sentence such
    as "the password is stored in Vault" stays prose.
    """
    groups = match.groupdict()
    value = groups.get("value")
    if value is None:
        return True
    value = value.rstrip(".,;)")
    if _PLACEHOLDER.match(value):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
    has_digit, has_alpha = any(c.isdigit() for c in value), any(c.isalpha() for c in value)
    if groups.get("sep") in (":", "="):
        return len(value) >= 6 and (classes >= 2 or len(value) >= 16)
    return has_digit and has_alpha and len(value) >= 8


def scan(text: str) -> Iterator[Hit]:
    if not _may_hold(text):
        return  # the common case, decided by one pass over the whole text
    for number, line in enumerate(text.split("\n"), start=1):
        for what, pattern in _PATTERNS:
            if any(_real(m) for m in pattern.finditer(line)):
                yield Hit(number, what)
                break


_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?"
    r"(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.S,
)


_SHORTEST = 8  # no credential any pattern finds is shorter (`pwd=a1b2` is the shortest)


_URL_USER = re.compile(r"(?<=://)[^/@\s]+@")


# A slug writes `DB_PASSWORD=Hunter2Secret99` as `db-password-hunter2secret99`: the keyword, a
# hyphen, then a value mixing letters and digits (`rotate-secret-keys` names no secret).
_SLUG_SECRET = re.compile(
    r"(?i)(?:^|[-_.])(?:pg)?(?:password|passwd|pwd|secret|api-?key|access-?token)-(?=[a-z]*\d)(?=\d*[a-z])([a-z0-9]{8,})"
)


def in_name(path: str) -> str | None:
    """What a file name holds that looks like a credential (as `scan` names it), else None."""
    name = path.rsplit("/", 1)[-1]
    for hit in scan(name):
        return hit.what
    return "a password" if _SLUG_SECRET.search(name.rsplit(".", 1)[0]) else None


def redact_url(url: str) -> str:
    """A URL as it may be printed or kept: without the user and password it may carry
    (`https://tok@host/x`, `postgresql://u:p@h/db` -> `https://host/x`, `postgresql://h/db`),
    and with the value of a password or token given as a parameter (`?password=x`, libpq's
    `host=h password=x`) redacted."""
    return _SECRET_PARAM.sub(r"\1=[REDACTED]", _URL_USER.sub("", url))


_SECRET_PARAM = re.compile(
    r"(?i)(?<![\w-])((?:ssl)?pass(?:word|wd)?|pwd|[\w-]*token|secret|[\w-]*api[_-]?key)\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*)"
)


def scrub(text: str) -> str:
    """The text with every credential-looking value replaced by [REDACTED]."""
    if len(text) < _SHORTEST or ("-----BEGIN" not in text and not _may_hold(text)):
        return text  # every piece of text a table prints comes through here: most hold nothing
    text = _KEY_BLOCK.sub("[REDACTED]", text)
    for _what, pattern in _PATTERNS:
        text = pattern.sub(lambda m: "[REDACTED]" if _real(m) else m.group(0), text)
    return text


def scrub_data(value: Any) -> Any:
    """`scrub` applied to every string in a JSON-like structure (keys included). A field is
    judged by its key and value together (`password: Hunter2x` is a credential, `Hunter2x`
    alone is not), and a list that holds a key block in pieces is replaced whole."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, Mapping):
        return {
            scrub_data(k) if isinstance(k, str) else k: v
            if k in PATH_KEYS and isinstance(v, str)
            else (REDACTED if _field_holds(k, v) else scrub_data(v))
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        if _pieces_of_a_block(value):
            return REDACTED
        return [scrub_data(v) for v in value]
    return value


REDACTED = "[REDACTED]"
# A file's path is kept as it is, a credential in it too: redacted, it names a file that does not
# exist (`docs/adr/0004-[REDACTED].md`) and a script reading it breaks. `check` names such a file
# an error of its own (`in_name`), and git keeps it: the fix is a rename and a rotated secret.
PATH_KEYS = frozenset({"path", "record_path"})


def _field_holds(key: Any, value: Any) -> bool:
    """Whether `key: value` reads as a credential where neither does alone."""
    if not isinstance(key, str) or not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return False
    text = f"{key}: {value}"
    return len(text) >= _SHORTEST and _may_hold(text) and next(scan(text), None) is not None


def _pieces_of_a_block(items: Any) -> bool:
    """Whether a list's strings, read as lines, hold a private key block (or its start)."""
    strings = [v for v in items if isinstance(v, str)]
    return len(strings) > 1 and "-----BEGIN" in "".join(strings) and _KEY_BLOCK.search("\n".join(strings)) is not None


def secret_lines(text: str) -> set[str]:
    """The lines of `text` that are a credential or part of one: every line of a private key
    block (its body lines hold no marker of their own) and every line a pattern flags. A diff
    redacts by these, taken from both versions, not by what its hunk happens to show."""
    if len(text) < _SHORTEST or ("-----BEGIN" not in text and not _may_hold(text)):
        return set()
    found = {line.strip() for block in _KEY_BLOCK.findall(text) for line in block.split("\n")}
    lines = text.split("\n")
    found |= {lines[hit.line - 1].strip() for hit in scan(text)}
    return {line for line in found if line}


def hits(rec: Record) -> Iterator[Hit]:
    """Every credential-looking place in a record, at its file line: body lines, then each
    frontmatter value (at the line of its key), the title, tags and status text."""
    for hit in scan(rec.body):
        yield Hit(rec.body_line + hit.line - 1, hit.what)
    import json

    outside = [
        (rec.line_of(str(key)), f"{key}: {json.dumps(value, ensure_ascii=False, default=str)}")
        for key, value in rec.meta.items()
    ]
    # The title, status and tags where neither the body nor frontmatter holds them as written
    # (a heading's title is the body's, said once, on its line).
    derived = [("title", rec.title), ("status", rec.status_text), *(("tags", tag) for tag in rec.tags)]
    outside += [(rec.line_of(key), text) for key, text in derived if key not in rec.meta and text not in rec.body]
    if not _may_hold("\n".join(text for _line, text in outside)):
        return  # none in any of them: one pass instead of one a field
    for line, text in outside:
        for hit in scan(text):
            yield Hit(line, hit.what)  # at the key that holds it
            break


def redacted(rec: Record) -> Record:
    """The record with each section that holds a credential replaced, and every other field
    (title, heading, status text, tags, frontmatter values, review note) scrubbed."""
    if not any(True for _ in hits(rec)):
        return rec
    sections = tuple(_section(s) for s in rec.sections)
    return dataclasses.replace(
        rec,
        title=scrub(rec.title),
        heading=scrub(rec.heading),
        body=scrub(_body_without(rec, sections)),
        status_text=scrub(rec.status_text),
        tags=tuple(scrub(t) for t in rec.tags),
        governs=tuple(scrub(g) for g in rec.governs),  # a glob is printed by export and the site
        meta=scrub_data(dict(rec.meta)),
        sections=sections,
        preamble=_hidden(rec.preamble),
        reviewed=scrub_data(dict(rec.reviewed)) if isinstance(rec.reviewed, Mapping) else rec.reviewed,
    )


def _body_without(rec: Record, sections: tuple[Section, ...]) -> str:
    """The body with each section that holds a credential replaced whole, as its section is:
    scrubbing it line by line left the lines around a secret (a key block's neighbours, the
    rest of a config excerpt) for `show` and the site to print."""
    body = rec.body
    for before, after in zip(rec.sections, sections, strict=True):
        if before.text != after.text and before.text:
            body = body.replace(before.text, after.text, 1)
    return body


def _section(section: Section) -> Section:
    return dataclasses.replace(section, heading=scrub(section.heading), text=_hidden(section.text))


def _hidden(text: str) -> str:
    """The text, or in its place a note of the credential it holds."""
    found = next(scan(text), None)
    return text if found is None else f"[REDACTED: this section contains {found.what}]"


def refuse_in(text: str | None, what: str) -> None:
    """Refuse text typed for a record (a title, a reason, a note) that holds what `adr check`
    would flag as a credential: nothing is written, and git history never keeps it."""
    if not text:
        return
    found = next(iter(scan(text)), None)
    if found is not None:
        from adr_memory.errors import UsageError

        raise UsageError(
            f"the {what} holds {found.what}: nothing written",
            hint="keep credentials out of decision records (git history keeps them); say where the secret lives instead",
        )
