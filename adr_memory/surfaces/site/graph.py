"""The decisions and their relations as inline SVG, laid out at build time: no diagram
service, no script. Decisions sit in number order on a grid, each a link to its page coloured
by status; a relation is a curve from one to the other, its kind in the line's style and in
the tooltip."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from adr_memory.surfaces.site.gather import Decision

_W, _H, _GAP_X, _GAP_Y, _MARGIN = 200, 46, 56, 34, 16
_MAX_COLUMNS = 6
_TITLE_CHARS = 26
_LINE = {"supersedes": "", "depends on": "4 3", "relates to": "1 3"}  # dash patterns; others: "6 2"


def svg(decisions: Sequence[Decision], edges: Sequence[tuple[str, str, str]], root: str) -> str:
    columns = max(1, min(_MAX_COLUMNS, math.ceil(math.sqrt(len(decisions) or 1))))
    rows = math.ceil(len(decisions) / columns) or 1
    width = 2 * _MARGIN + columns * _W + (columns - 1) * _GAP_X
    height = 2 * _MARGIN + rows * _H + (rows - 1) * _GAP_Y
    place: dict[str, tuple[float, float]] = {}
    nodes = []
    for i, d in enumerate(decisions):
        x = _MARGIN + (i % columns) * (_W + _GAP_X)
        y = _MARGIN + (i // columns) * (_H + _GAP_Y)
        place.setdefault(d.record.id, (x, y))
        nodes.append(_node(d, x, y, root))
    lines = [_edge(place[a], place[b], kind) for a, b, kind in edges if a in place and b in place and a != b]
    return (
        f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="Decisions and their relations">'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z"/></marker></defs>'
        f'<g class="edges">{"".join(lines)}</g><g class="nodes">{"".join(nodes)}</g></svg>'
    )


def _node(d: Decision, x: float, y: float, root: str) -> str:
    rec = d.record
    title = rec.title if len(rec.title) <= _TITLE_CHARS else rec.title[: _TITLE_CHARS - 1].rstrip() + "…"
    return (
        f'<a href="{escape(root + d.page)}" class="node s-{escape(rec.status)}" data-id="{escape(rec.id)}">'
        f"<title>{escape(rec.id)}: {escape(rec.title)} ({escape(rec.status)})</title>"
        f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="6"/>'
        f'<text x="{x + 10}" y="{y + 18}" class="id">{escape(rec.id)}</text>'
        f'<text x="{x + 10}" y="{y + 36}">{escape(title)}</text></a>'
    )


def _edge(a: tuple[float, float], b: tuple[float, float], kind: str) -> str:
    """A curve from the side of `a` facing `b` to the side of `b` facing `a`, bowed so that
    relations between neighbours in one row do not hide behind the boxes between them."""
    (ax, ay), (bx, by) = _port(a, b), _port(b, a)
    bow = 0.25 * math.hypot(bx - ax, by - ay)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    nx, ny = (-(by - ay), bx - ax)
    norm = math.hypot(nx, ny) or 1
    cx, cy = mx + bow * nx / norm, my + bow * ny / norm
    dash = _LINE.get(kind, "6 2")
    style = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<path d="M{ax:.0f},{ay:.0f} Q{cx:.0f},{cy:.0f} {bx:.0f},{by:.0f}" marker-end="url(#arrow)"{style}>'
        f"<title>{escape(kind)}</title></path>"
    )


def _port(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    (ax, ay), by = a, b[1]
    if abs(ay - by) < _H:  # same row: leave from the top edge's middle, the curve bows above
        return ax + _W / 2, ay
    return ax + _W / 2, ay + (_H if by > ay else 0)
