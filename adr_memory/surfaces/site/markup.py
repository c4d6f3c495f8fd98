"""A record's text as HTML that is safe to publish: record text is anyone's text.

markdown-it renders CommonMark with raw HTML switched off (a `<script>` in a record is shown as
text), and every link and image is rewritten after parsing: only http(s), mailto and relative
targets survive; a link to another record points at its page; a link to a file the site does not
carry keeps its words and loses its target; an image from the network becomes a link (the site
fetches nothing), and one kept in the repository is copied beside the pages.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_SAFE_SCHEMES = {"http", "https", "mailto"}
IMAGE_TYPES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}
_IMAGE_LIMIT = 5 * 1024 * 1024  # a picture larger than this is linked to, not copied


def safe_href(href: str) -> bool:
    """Whether a link target may appear in the site: a web or mail address, or a path."""
    target = "".join(href.split())  # browsers drop whitespace and control bytes inside a scheme
    found = _SCHEME.match(target)
    return found is None or found.group(1).lower() in _SAFE_SCHEMES


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    md.validateLink = safe_href  # type: ignore[method-assign,assignment]
    return md


_MD = _parser()


@dataclass
class Page:
    """Where a rendered record lives, and what its links may reach."""

    record_path: str  # repo-relative path of the record's file
    pages: Mapping[str, str]  # repo-relative record path -> its page, relative to the site root
    root: str  # from this page back to the site root ("../")
    local_file: Callable[[str], Path | None]  # repo-relative path -> a file the site may copy
    copied: dict[str, Path] = field(default_factory=dict)  # site-relative path -> source file


def markdown(text: str, page: Page) -> str:
    tokens = _MD.parse(text, {})
    for token in tokens:
        if token.children:
            token.children = _rewritten(token.children, page)
    return str(_MD.renderer.render(tokens, _MD.options, {}))


def preformatted(text: str) -> str:
    """Text shown as written: a reStructuredText record docutils cannot read."""
    return f'<pre class="source">{html.escape(text)}</pre>'


# docutils as a renderer of untrusted text: no raw HTML, no file inclusion, no config files
# read, and no error report in the page (a broken construct is shown as the text it is).
_RST_SETTINGS = {
    "raw_enabled": False,
    "file_insertion_enabled": False,
    "_disable_config": True,
    "report_level": 5,
    "halt_level": 5,
    "embed_stylesheet": False,
    "input_encoding": "unicode",
    "warning_stream": False,
    "doctitle_xform": False,  # a lone section stays a section, not a subtitle
    "initial_header_level": 1,  # the title is h1 (the page's own heading), sections h2 as in markdown
}
_RST_TITLE = re.compile(r"\A(\s*<section[^>]*>\s*)<h1>.*?</h1>", re.S)
_RST_LITERAL = re.compile(r'<span class="docutils literal">(.*?)</span>', re.S)


def restructured(text: str, page: Page) -> str:
    """A reStructuredText record rendered by docutils, then cleaned by nh3 (ammonia): only
    plain markup tags survive, links pass the same test as markdown's, images are dropped
    (the site fetches nothing). Its sole title is the page's heading, so the body leaves it out."""
    import docutils.core
    import docutils.utils
    import nh3
    from docutils.writers import html5_polyglot

    try:  # a writer instance: how every docutils release names it (`writer_name` goes in 2.0)
        parts = docutils.core.publish_parts(text, writer=html5_polyglot.Writer(), settings_overrides=_RST_SETTINGS)
    except (docutils.utils.SystemMessage, ValueError, RecursionError):  # what docutils raises on broken input
        return preformatted(text)

    def attribute(tag: str, name: str, value: str) -> str | None:
        return _target(value, page) if name == "href" else value

    body = _RST_TITLE.sub(r"\1", str(parts["body"]), count=1)
    body = _RST_LITERAL.sub(r"<code>\1</code>", body)  # docutils' own markup, before cleaning drops classes
    return str(
        nh3.clean(
            body,
            tags=nh3.ALLOWED_TAGS - {"img"},
            url_schemes=_SAFE_SCHEMES,
            attribute_filter=attribute,
            link_rel="nofollow noopener",
        )
    )


def _target(href: str, page: Page) -> str | None:
    """Where a link of the record leads in the site: a web or mail address as written, a
    record's page, an anchor of this page; None for anything else."""
    if href.startswith("#"):
        return href
    if _SCHEME.match(href):
        return href if safe_href(href) else None
    target, _, anchor = href.partition("#")
    repo_path = _resolve(page.record_path, target)
    if repo_path is not None and repo_path in page.pages:
        return page.root + page.pages[repo_path] + (f"#{anchor}" if anchor else "")
    return None


def _rewritten(children: list[Token], page: Page) -> list[Token]:
    out: list[Token] = []
    opened: list[Token] = []
    for token in children:
        if token.type == "link_open":
            _relink(token, page)
            opened.append(token)
        elif token.type == "link_close" and opened:
            token.tag = opened.pop().tag  # a link that lost its target closes as the span it became
        elif token.type == "image":
            out.extend(_picture(token, page))
            continue
        out.append(token)
    return out


def _relink(token: Token, page: Page) -> None:
    href = str(token.attrGet("href") or "")
    target = _target(href, page)
    if target is None:  # keeps its words; says where it pointed (a file by its repository path)
        where = href if _SCHEME.match(href) else _resolve(page.record_path, href.partition("#")[0]) or href
        token.tag, token.attrs = "span", {"class": "unlinked", "title": where}
    elif _SCHEME.match(target):
        token.attrs = {"href": target, "rel": "nofollow noopener"}
    else:
        token.attrs = {"href": target}


def _picture(token: Token, page: Page) -> list[Token]:
    src = str(token.attrGet("src") or "")
    alt = token.content or src
    repo_path = None if _SCHEME.match(src) else _resolve(page.record_path, src.partition("#")[0])
    source = (
        page.local_file(repo_path) if repo_path and posixpath.splitext(repo_path)[1].lower() in IMAGE_TYPES else None
    )
    if source is not None and source.stat().st_size <= _IMAGE_LIMIT:
        kept = "files/" + repo_path  # type: ignore[operator]
        page.copied[kept] = source
        token.attrs = {"src": page.root + kept, "alt": alt, "loading": "lazy"}
        return [token]
    link = Token("link_open", "a", 1, attrs={"href": src, "rel": "nofollow noopener"})
    if _SCHEME.match(src) is None or not safe_href(src):
        link = Token("link_open", "span", 1, attrs={"class": "unlinked", "title": src})
    text = Token("text", "", 0, content=f"[image: {alt}]")
    return [link, text, Token("link_close", link.tag, -1)]


def _resolve(record_path: str, target: str) -> str | None:
    """A relative link target as a repo-relative path, or None when it leaves the repository."""
    from urllib.parse import unquote

    if not target:
        return None
    target = unquote(target)
    base = "" if target.startswith("/") else posixpath.dirname(record_path)  # `/x`: from the repository's root
    joined = posixpath.normpath(posixpath.join(base, target.lstrip("/")))
    return None if joined.startswith(("../", "/")) or joined == ".." else joined


# What makes an SVG more than a picture: script, event handlers, embedded documents, entities,
# and references to anything outside itself (a `href` to another file, CSS `url()` or
# `@import`). Each pattern reads a character at most twice (record files are anyone's input).
_SVG_ACTIVE = re.compile(
    r"<\s*(?:script|foreignobject|iframe|embed|object|handler|listener|animate|set)\b"
    r"|<!\s*(?:doctype|entity)|\bon[a-z]+\s*=|javascript:|data:text|@import|url\(\s*['\"]?(?!#)",
    re.IGNORECASE,
)
_SVG_HREF = re.compile(r"href\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]*))", re.IGNORECASE)
_SVG_LIMIT = 1024 * 1024  # larger is no diagram a record shows; it is not read


def inert_svg(path: Path) -> bool:
    """Whether an SVG file is a picture only: no script, no event handler, no embedded
    document or entity, and no reference but to its own parts (`href="#id"`)."""
    try:
        if path.stat().st_size > _SVG_LIMIT:
            return False
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if _SVG_ACTIVE.search(text):
        return False
    return all((m.group(1) or m.group(2) or m.group(3) or "").startswith("#") for m in _SVG_HREF.finditer(text))
