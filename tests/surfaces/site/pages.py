"""Reading a built site as a browser would: its tags, attributes and local links."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass
class Tag:
    name: str
    attrs: dict[str, str]


@dataclass
class Parsed(HTMLParser):
    tags: list[Tag] = field(default_factory=list)

    def __post_init__(self) -> None:
        HTMLParser.__init__(self)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(Tag(tag, {k: v or "" for k, v in attrs}))


def tags(page: Path) -> list[Tag]:
    parsed = Parsed()
    parsed.feed(page.read_text(encoding="utf-8"))
    return parsed.tags


def local_targets(page: Path) -> list[str]:
    """Every href and src of the page that names a file of the site (not the web, not mail)."""
    out = []
    for tag in tags(page):
        for key in ("href", "src"):
            value = tag.attrs.get(key)
            if value is None or (tag.name == "link" and tag.attrs.get("rel") == "canonical"):
                continue
            parts = urlsplit(value)
            if parts.scheme or value.startswith("#"):
                continue
            out.append(unquote(parts.path))
    return out


def broken_links(site: Path) -> list[str]:
    broken = []
    for page in site.rglob("*.html"):
        for target in local_targets(page):
            if not (page.parent / target).resolve().is_file():
                broken.append(f"{page.relative_to(site)} -> {target}")
    return broken
