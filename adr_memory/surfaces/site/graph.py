"""The decisions and their relations as inline SVG, laid out at build time: no diagram
service, no script. Decisions sit in number order on a grid, each a link to its page coloured
by status; a relation is a curve from one to the other, its kind in the line's style and in
the tooltip."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from adr_memory.commands import site as gathered

_W, _H, _GAP_X, _GAP_Y, _MARGIN = 200, 46, 56, 34, 24
# Four columns are 1,016 px wide: the whole grid fits a 1280 px window beside the page's margins.
_MAX_COLUMNS = 4
_TITLE_CHARS = 26
_LINE = {"supersedes": "", "depends on": "4 3", "relates to": "1 3"}  # dash patterns; others: "6 2"
_LANE = 5  # px between relations that share a gutter, so each stays traceable


def svg(decisions: Sequence[gathered.Decision], edges: Sequence[tuple[str, str, str]], root: str) -> str:
    columns = max(1, min(_MAX_COLUMNS, math.ceil(math.sqrt(len(decisions) or 1))))
    rows = math.ceil(len(decisions) / columns) or 1
    width = 2 * _MARGIN + columns * _W + (columns - 1) * _GAP_X
    height = 2 * _MARGIN + rows * _H + (rows - 1) * _GAP_Y
    cell: dict[str, tuple[int, int]] = {}
    nodes = []
    for i, d in enumerate(decisions):
        row, column = divmod(i, columns)
        cell.setdefault(d.record.id, (row, column))
        nodes.append(_node(d, *_corner(row, column), root))
    drawn = [(a, b, kind) for a, b, kind in edges if a in cell and b in cell and a != b]
    lines = [_edge(cell[a], cell[b], kind, lane=i) for i, (a, b, kind) in enumerate(drawn)]
    # The viewBox scales the drawing down on a narrow window instead of running off-screen
    # (site.css: `max-width: 100%`; no inline style, which the pages' policy refuses).
    return (
        f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" '
        'aria-label="Decisions and their relations">'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z"/></marker></defs>'
        f'<g class="edges">{"".join(lines)}</g><g class="nodes">{"".join(nodes)}</g></svg>'
    )


def _corner(row: int, column: int) -> tuple[float, float]:
    return _MARGIN + column * (_W + _GAP_X), _MARGIN + row * (_H + _GAP_Y)


def _node(d: gathered.Decision, x: float, y: float, root: str) -> str:
    rec = d.record
    title = rec.title if len(rec.title) <= _TITLE_CHARS else rec.title[: _TITLE_CHARS - 1].rstrip() + "…"
    return (
        f'<a href="{escape(root + d.page)}" class="node s-{escape(rec.status)}" data-id="{escape(rec.id)}">'
        f"<title>{escape(rec.id)}: {escape(rec.title)} ({escape(rec.status)})</title>"
        f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="6"/>'
        f'<text x="{x + 10}" y="{y + 18}" class="id">{escape(rec.id)}</text>'
        f'<text x="{x + 10}" y="{y + 36}">{escape(title)}</text></a>'
    )


def _edge(a: tuple[int, int], b: tuple[int, int], kind: str, lane: int = 0) -> str:
    """A relation drawn only through the gutters between boxes, so it never crosses a decision
    it does not join: out of `a` into the gutter beside its row, along the gutters to the row of
    `b`, into `b`. Relations sharing a gutter are set a few pixels apart."""
    points = _route(a, b, offset=((lane % 5) - 2) * _LANE)
    dash = _LINE.get(kind, "6 2")
    style = f' stroke-dasharray="{dash}"' if dash else ""
    path = "M" + " L".join(f"{x:.0f},{y:.0f}" for x, y in points)
    return f'<path d="{path}" marker-end="url(#arrow)"{style}><title>{escape(kind)}</title></path>'


def _route(a: tuple[int, int], b: tuple[int, int], offset: float) -> list[tuple[float, float]]:
    (ar, ac), (br, bc) = a, b
    (ax, ay), (bx, by) = _corner(ar, ac), _corner(br, bc)
    start_x, end_x = ax + _W / 2 + offset, bx + _W / 2 + offset
    down = br > ar
    # Leave from the side facing `b` (the top when both share a row) and enter from the side facing `a`.
    start_y = ay + _H if down else ay
    end_y = by if br >= ar else by + _H
    leave = _row_gutter(ar, below=down) + offset
    enter = _row_gutter(br, below=not down and br != ar) + offset
    if leave == enter:  # neighbouring rows, or one row: one gutter joins them
        return [(start_x, start_y), (start_x, leave), (end_x, leave), (end_x, end_y)]
    side = _column_gutter(ac if bc > ac or (bc == ac and ac == 0) else ac - 1) + offset
    return [(start_x, start_y), (start_x, leave), (side, leave), (side, enter), (end_x, enter), (end_x, end_y)]


def _row_gutter(row: int, below: bool) -> float:
    """The middle of the gap under (or over) a row; the margin holds the one over the first."""
    if not below:
        return _MARGIN / 2 if row == 0 else _row_gutter(row - 1, below=True)
    return _MARGIN + row * (_H + _GAP_Y) + _H + _GAP_Y / 2


def _column_gutter(column: int) -> float:
    """The middle of the gap right of a column (-1: the margin left of the first)."""
    if column < 0:
        return _MARGIN / 2
    return _MARGIN + column * (_W + _GAP_X) + _W + _GAP_X / 2
