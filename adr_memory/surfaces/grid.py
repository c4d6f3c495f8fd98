"""Tables that keep every word at every width. Each column is as wide as its widest cell, and
one column (a title, a message) takes the room left and wraps in it; an id is never cut. Where
the columns do not fit beside that column's `room`, no column is dropped: each row is stacked,
its first cells on a line and the others under it, named (as `gh` does on a narrow screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich import box
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from adr_memory.surfaces import render  # render.out, read at each call: one console, whoever swaps it

Cell = Text | str


def show(
    rows: Sequence[Mapping[str, Cell]],
    *,
    fold: str,
    room: int = 30,
    caps: Mapping[str, int] | None = None,
    right: Sequence[str] = (),
    lead: int = 2,
) -> None:
    """`rows` (each a column name -> cell, in the order drawn) as a table, or stacked when the
    columns beside `fold` leave it less than `room`. `caps`: columns that wrap past a width
    (a reason); `right`: numbers; `lead`: how many cells head a stacked row."""
    if not rows:
        return
    names = list(rows[0])
    caps = caps or {}
    widths = {n: max(len(n), *(_width(row[n]) for row in rows)) for n in names if n != fold}
    widths |= {n: min(widths[n], cap) for n, cap in caps.items() if n in widths}
    beside = sum(widths.values()) + 2 * len(names)  # a space each side of each column but the edges', one each
    if render.out.width - beside >= room:
        _table(rows, names, widths, fold, caps, right)
    else:
        _stacked(rows, names, lead)


def _width(cell: Cell) -> int:
    return max((len(line) for line in str(cell).splitlines()), default=0)


def _table(
    rows: Sequence[Mapping[str, Cell]],
    names: list[str],
    widths: Mapping[str, int],
    fold: str,
    caps: Mapping[str, int],
    right: Sequence[str],
) -> None:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
    for name in names:
        if name == fold:
            table.add_column(name, overflow="fold", ratio=1)
        elif name in caps:
            table.add_column(name, overflow="fold", width=widths[name])
        else:
            table.add_column(name, no_wrap=True, width=widths[name], justify="right" if name in right else "left")
    for row in rows:
        table.add_row(*(row[n] for n in names))
    render.out.print(table)


def _stacked(rows: Sequence[Mapping[str, Cell]], names: list[str], lead: int) -> None:
    for row in rows:
        head = Text("  ").join(_text(row[n]) for n in names[:lead] if str(row[n]).strip())
        head.stylize("bold", 0, len(str(row[names[0]])))
        render.out.print(head, overflow="fold")  # wrapped at the width the table could not fit, never cut
        # The other cells under it, named; a long value wraps in its own column, under itself.
        below = Table.grid(padding=(0, 2), pad_edge=False)
        below.add_column(style="dim", no_wrap=True)
        below.add_column(overflow="fold")
        for name in names[lead:]:
            if str(row[name]).strip():
                below.add_row(name, _text(row[name]))
        if below.row_count:
            render.out.print(Padding(below, (0, 0, 0, 2), expand=False))


def _text(cell: Cell) -> Text:
    return cell if isinstance(cell, Text) else Text(cell)
