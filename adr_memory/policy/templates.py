"""Templates for new records: the folder's own, a configured one or a shipped one (Nygard,
MADR), their placeholders filled, and the slug of a title."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

import yaml

from adr_memory import records
from adr_memory.base import Config
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Workspace
from adr_memory.records import Catalog, Record, catalog

# Latin letters Unicode does not decompose into a base letter and a mark.
_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


def slugify(title: str) -> str:
    """The file-name part of a title, in ASCII: accents are folded (`Überprüfung` gives
    `uberprufung`, not adr-tools' `berpr-fung`); other scripts drop out."""
    folded = unicodedata.normalize("NFKD", title.lower().translate(_FOLD))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.encode("ascii", "ignore").decode()).strip("-")
    return slug[:60].rstrip("-") or "decision"


def today() -> str:
    return dt.date.today().isoformat()


# ---------------------------------------------------------------------------- adr new


def template_text(ws: Workspace, name: str | None = None) -> str:
    """The folder's own template (`own_template`) unless a bundled one is named, else the
    bundled one in the folder's style. A reStructuredText folder has one bundled template,
    Nygard's."""
    suffix = suffix_of(ws.catalog)
    syntax = ".rst" if records.is_rst(suffix) else ".md"  # `.mdx` and `.markdown` are markdown
    if name is None and (own := own_template(ws.root, ws.adr_path, ws.config, (suffix, syntax))) is not None:
        return _read_template(ws.root, own)
    if name is None and not ws.config.template and syntax == ".md":
        from adr_memory.policy import neighbours

        if (theirs := neighbours.template(ws.catalog)) is not None:
            return theirs
    chosen = "nygard" if syntax == ".rst" else name or template_name(ws.catalog, ws.config)
    return resources.files("adr_memory.templates").joinpath(f"{chosen}{syntax}").read_text("utf-8")


def own_template(root: Path, adr_path: Path, cfg: Config, suffixes: Sequence[str]) -> Path | None:
    """adr-tools' `<adr_dir>/templates/template.md`, else a template kept among the records
    (MADR says to copy its `adr-template.md` there; `template.md`, `0000-template.md`): of
    MADR's four, the full one, whose name is the shortest. A category (`adr new --dir
    docs/decisions/backend`) without one of its own takes the folder's above it."""
    wanted = tuple(s.lower() for s in suffixes)
    for folder in _template_folders(root, adr_path, cfg):
        for suffix in dict.fromkeys(suffixes):
            if (path := folder / "templates" / f"template{suffix}").is_file():
                return path
        try:
            kept = [
                p.name
                for p in folder.iterdir()
                if catalog.is_template_name(p.name) and p.name.lower().endswith(wanted) and p.is_file()
            ]
        except OSError:
            continue
        if kept:
            return folder / min(kept, key=lambda n: (len(n), n))
    return None


def _template_folders(root: Path, adr_path: Path, cfg: Config) -> list[Path]:
    """The ADR folder, then the repository's own ADR folder when `--dir` named one inside it."""
    try:
        top = root / records.locate(root, cfg.adr_dir)[0]
    except AdrError:
        return [adr_path]
    inside = top != adr_path and adr_path.is_relative_to(top)
    return [adr_path, top] if inside else [adr_path]


def _read_template(root: Path, path: Path) -> str:
    """A template the repository keeps, read as a record is: never through a link out of it."""
    data = catalog.read_kept(path, root.resolve())
    if isinstance(data, records.Problem):
        rel = path.relative_to(root).as_posix()
        raise UsageError(
            f"cannot use the template {rel}: {data.message}",
            hint=data.hint or "fix it, or name a bundled one with --template madr",
        )
    return data.decode("utf-8", errors="replace")


def suffix_of(kept: Catalog) -> str:
    """The suffix most of the folder's records have (`.rst` in Open edX's, `.mdx` in a
    Docusaurus site's); `.md` when it has none, or on a tie with `.md`."""
    counts = Counter(records.suffix(r.path) for r in kept)
    counts[".md"] += 0
    return max(counts.items(), key=lambda kv: (kv[1], kv[0] == ".md"))[0]


# Record formats written like adr-tools' template: a numbered heading, then Status, Context,
# Decision and Consequences sections (Tendermint's adds a Changelog).
_NYGARD_LIKE = ("nygard", "tendermint")


def template_name(kept: Catalog, cfg: Config) -> str:
    """The configured template; unset, the one the folder's records mostly follow: a new
    record in an adr-tools folder should read like its neighbours, as `adr-tools new` writes it."""
    if cfg.template:
        return cfg.template
    records = list(kept)
    nygard = sum(rec.format in _NYGARD_LIKE for rec in records)
    return "nygard" if records and nygard * 2 > len(records) else "madr"


# `{title}`-style placeholders (ours) and adr-tools' bare upper-case words, replaced in one
# pass over the template, so a title holding "DATE" or "{number}" is written as typed.
_NUMBER_LEAD = re.compile(r"(?:\{number\}|\bNUMBER\b)\.?[ \t]*")
_PLACEHOLDER = re.compile(r"\{(number|title|status|Status|date)\}|\b(NUMBER|TITLE|DATE|STATUS)\b")


# A template a folder keeps says where the title, status and date go in its own words: MADR's
# `# {short title of solved problem and solution}`, `status: {proposed | rejected | ...}` and
# `date: {YYYY-MM-DD when the decision was last updated}`, MADR 2's and log4brains' `[...]`,
# backstage's `# ADR000: [TITLE]`, a bare `# Title`.
_BRACKETED = re.compile(r"\{[^{}\n]*\}|\[[^\[\]\n]*\]|<[^<>\n]*>")
_HEADING = re.compile(r"^(#[ \t]+)(.*)$", re.MULTILINE)
_SUBHEADING = re.compile(r"^#{2,6}[ \t]", re.MULTILINE)
_TITLE_KEY = re.compile(r"^(title:[ \t]*)(.*)$", re.MULTILINE)
_ID_KEY = re.compile(r"^(id:[ \t]*)(.*)$", re.MULTILINE)
_NUMBER_RUN = re.compile(r"(?<![A-Za-z0-9])(?:ADR[-_ ]?)?(X{3,}|N{3,}|0{3,})(?![A-Za-z0-9])", re.IGNORECASE)
_FIELD_LINE = re.compile(
    r"^([ \t]*(?:[-*+][ \t]+)?\**(status|date)\**[ \t]*:\**[ \t]*)(\S(?:.*\S)?)([ \t\r]*+)$",
    re.IGNORECASE | re.MULTILINE,
)


def _as_ours(template: str, number: int | None) -> str:
    """A template with its own placeholders for the title (in its first heading and its
    frontmatter `title:`), status and date written as ours (`{title}`, `{status}`, `{date}`),
    and its number placeholder there (`XXXX`, `NNN`, `000`) as the number, as wide. What else
    it says to the writer is left for them."""
    lines = records.split_lines(template)
    closing = records.frontmatter_span(lines)
    end = sum(map(len, lines[: closing + 1])) if closing is not None else 0

    def numbered(text: str) -> str:
        if number is None:
            return text
        return _NUMBER_RUN.sub(lambda m: m.group(0)[: -len(m.group(1))] + f"{number:0{len(m.group(1))}d}", text)

    def title(match: re.Match[str]) -> str:
        text = numbered(match.group(2))
        placeholder = next((m for m in _BRACKETED.finditer(text) if "title" in m.group(0).lower()), None)
        if placeholder is not None:
            text = text[: placeholder.start()] + "{title}" + text[placeholder.end() :]
        elif text.strip().lower() == "title":
            text = "{title}"
        return match.group(1) + text

    def field(match: re.Match[str]) -> str:
        name, value = match.group(2).lower(), match.group(3)
        choices = "|" in value if name == "status" else "YYYY" in value.upper()
        return f"{match.group(1)}{{{name}}}{match.group(4)}" if value[0] in "{[<" or choices else match.group(0)

    head = _TITLE_KEY.sub(title, template[:end], count=1)
    head = _ID_KEY.sub(lambda m: m.group(1) + numbered(m.group(2)), head, count=1)  # `id: adrs-adr000`
    body, heads = template[end:], list(_HEADING.finditer(template[end:]))
    if heads:  # the record's title: its first heading, or the one below a copied template's own
        own = (
            heads[1]
            if len(heads) > 1
            and records.copied_template(heads[0].group(2), heads[1].group(2))
            and not _SUBHEADING.search(body, heads[0].end(), heads[1].start())
            else heads[0]
        )
        body = body[: own.start()] + title(own) + body[own.end() :]
    return _FIELD_LINE.sub(field, head + body)


# A sign a folder writes before a status (`✅ Accepted`, `🤔 Proposed`, `⌛️ Superseded`).
SIGN = re.compile(r"^([\u2300-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff][\ufe0f\u200d\U0001f000-\U0001faff]*)([ \t]*)")


def folder_sign(folder: Iterable[Record], status: str) -> str:
    """The sign this folder most often writes before `status` in its records ("" when it writes
    none): a new record reads like its neighbours, sign included."""
    signs = Counter(
        sign.group(1) for rec in folder if rec.status == status and (sign := SIGN.match(rec.status_text or ""))
    )
    return signs.most_common(1)[0][0] if signs else ""


def render_template(template: str, *, number: int | None, title: str, status: str, date: str, sign: str = "") -> str:
    """The template filled in. A record named by its date has no number: a numbered heading
    (`# {number}. {title}`) loses its number. A status written as a word (`Proposed`, in the
    body) takes the folder's `sign` before it; frontmatter's `{status}` stays a bare value."""
    template = _as_ours(template, number)
    if number is None:
        template = _NUMBER_LEAD.sub("", template)
    values = {
        "number": str(number),
        "title": title,
        "status": status,
        "Status": f"{sign} {status.capitalize()}".lstrip(),
        "date": date,
        "NUMBER": str(number),
        "TITLE": title,
        "DATE": date,
        "STATUS": f"{sign} {status.capitalize()}".lstrip(),
    }
    return _title_as_yaml(_PLACEHOLDER.sub(lambda m: values[m.group(1) or m.group(2)], template))


def _title_as_yaml(text: str) -> str:
    """The frontmatter's `title:` as YAML can read it: unquoted, as backstage's template writes
    it (`title: ADR000: [TITLE]`), `ADR015: Use Kafka` is no YAML; it is quoted."""
    lines = records.split_lines(text)
    for i in range(1, records.frontmatter_span(lines) or 0):
        match = re.match(r"title:[ \t]*(\S.*?)[ \t]*$", lines[i].rstrip("\r\n"))
        if match is None:
            continue
        try:
            read = yaml.safe_load(lines[i])
        except yaml.YAMLError:
            read = None
        if not (isinstance(read, dict) and isinstance(read.get("title"), str)):
            lines[i] = records.dump_key("title", match.group(1), lines[i][len(lines[i].rstrip("\r\n")) :] or "\n")
        break
    return "".join(lines)
