"""The record model: what one ADR file says, in every format it is written in, with no git and
no index. Parsing (parse), the status grammar, links, names and ids, minimal byte-exact edits
(edits), templates' reasons (content), credentials, the ADR folder's catalog and findings.

Other packages import from here only: this face is eager (every command reads records).
"""

from __future__ import annotations

from adr_memory.records import badges, catalog, content, credentials, languages, rst, standing
from adr_memory.records.catalog import MAX_BYTES, Catalog, Parses, category, holds, may_hold, outside
from adr_memory.records.content import says_nothing
from adr_memory.records.credentials import redact_url, redacted, scrub, scrub_data
from adr_memory.records.dates import iso_date, iso_moment
from adr_memory.records.discovery import CONVENTIONAL_DIRS, locate
from adr_memory.records.edits import dump_key, insert_line_after, insert_lines_after, replace_line, set_keys
from adr_memory.records.findings import ERROR, WARNING, Finding, first_few
from adr_memory.records.frontmatter import FRONTMATTER_KINDS, frontmatter_span, key_lines, split_lines, without_comments
from adr_memory.records.grammar import (
    STATUS_LOG,
    TASK,
    html_text,
    marked,
    normalise_status,
    transition,
    unstruck,
    written,
)
from adr_memory.records.links import MD_LINK, STATUS_LINKS, plain
from adr_memory.records.model import MAX_TITLE, STATUSES, WHOLE, Link, Problem, Section
from adr_memory.records.names import (
    RECORD_SUFFIXES,
    file_date,
    file_id,
    file_number,
    format_id,
    is_rst,
    named_by_date,
    named_by_year,
    normalise_id,
    record_file,
    record_name,
    stem,
    suffix,
)
from adr_memory.records.parse import DECISION_SECTIONS, copied_template, parse, without_lifecycle
from adr_memory.records.record import UNREAD_KINDS, Record, opening
from adr_memory.records.standing import Standing
from adr_memory.records.text import (
    LIFECYCLE_LINE,
    atx_heading,
    heading_status,
    is_metadata_heading,
    is_rule,
    md_headings,
    status_section,
    table_cells,
)

__all__ = [
    "CONVENTIONAL_DIRS",
    "DECISION_SECTIONS",
    "ERROR",
    "FRONTMATTER_KINDS",
    "LIFECYCLE_LINE",
    "MAX_BYTES",
    "MAX_TITLE",
    "MD_LINK",
    "RECORD_SUFFIXES",
    "STATUSES",
    "STATUS_LINKS",
    "STATUS_LOG",
    "TASK",
    "UNREAD_KINDS",
    "WARNING",
    "WHOLE",
    "Catalog",
    "Finding",
    "Link",
    "Parses",
    "Problem",
    "Record",
    "Section",
    "Standing",
    "atx_heading",
    "badges",
    "catalog",
    "category",
    "content",
    "copied_template",
    "credentials",
    "dump_key",
    "file_date",
    "file_id",
    "file_number",
    "first_few",
    "format_id",
    "frontmatter_span",
    "heading_status",
    "holds",
    "html_text",
    "insert_line_after",
    "insert_lines_after",
    "is_metadata_heading",
    "is_rst",
    "is_rule",
    "iso_date",
    "iso_moment",
    "key_lines",
    "languages",
    "locate",
    "marked",
    "may_hold",
    "md_headings",
    "named_by_date",
    "named_by_year",
    "normalise_id",
    "normalise_status",
    "opening",
    "outside",
    "parse",
    "plain",
    "record_file",
    "record_name",
    "redact_url",
    "redacted",
    "replace_line",
    "rst",
    "says_nothing",
    "scrub",
    "scrub_data",
    "set_keys",
    "split_lines",
    "standing",
    "status_section",
    "stem",
    "suffix",
    "table_cells",
    "transition",
    "unstruck",
    "without_comments",
    "without_lifecycle",
    "written",
]
