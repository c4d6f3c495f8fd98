"""What search and its evaluation print for people: answers with their confidence, and the
evaluation's tables beside the naive baseline."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from adr_memory.surfaces import render  # render.out, read at each call: one console, whoever swaps it
from adr_memory.surfaces.render import STATUS_STYLE


def search_answer(answer: Mapping[str, Any]) -> None:
    if answer["no_strong_match"]:
        why = f" {answer['reason'][0].upper()}{answer['reason'][1:]}." if answer.get("reason") else ""
        render.out.print(Text("No strong match." + why, style="bold yellow"))
        if answer["best_weak"]:
            render.out.print("Nearest, for what it is worth:")
        rows = answer["best_weak"]
    else:
        rows = answer["results"]
    for row in rows:
        stale = Text("  stale", style="bold red") if row.get("stale") else Text("")
        held = row.get("standing")
        later = row.get("superseded_by") or []
        status = held["label"] if held else row["status"] + (f" by {', '.join(later)}" if later else "")
        render.out.print(
            Text(f"{row['id']} ", style="bold")
            + Text(row["title"])
            + Text("  [")
            + Text(status, style=STATUS_STYLE.get(row["status"], ""))
            + Text(f"] {row['score']:.2f} {'+'.join(row['provenance'])}", style="dim")
            + stale
        )
        render.out.print(Text(f"    {row['section']}: {row['snippet']}", style="dim"))
    for row in answer.get("by_rephrasing", []):
        render.out.print(
            Text(f"{row['id']} ", style="bold")
            + Text(row["title"])
            + Text(f"  (only as {row['phrasing']!r}: not an answer to the question as asked)", style="dim")
        )
    signals = answer["signals"]
    if answer["confidence"] == "low" and rows:
        render.out.print(Text("Low confidence: check the record before you rely on it.", style="yellow"))
    # A keyword search measures no meaning: it has no cosine and no floor to show.
    cosine = f" · top cosine {signals['top_cosine']}" if signals.get("top_cosine") is not None else ""
    floor = f" · folder floor {signals['floor']}" if signals.get("floor") is not None else ""
    kept = f" · meaning kept {signals['meaning_kept']}" if signals.get("unknown") and cosine else ""
    render.out.print(
        Text(
            f"mode {answer['mode']} · confidence {answer['confidence']} · coverage {signals['coverage']}"
            f"{kept}{cosine}{floor}",
            style="dim",
        )
    )


def eval_report(report: Mapping[str, Any]) -> None:
    limit = report["limit"]
    for entry in report["sets"]:
        for mode, result in entry["modes"].items():
            if not result.get("ran"):
                render.out.print(Text(f"{entry['name']} · {mode}: not run ({result.get('reason')})", style="yellow"))
                continue
            table = Table(title=f"{entry['name']} · {mode} (k={limit})", box=box.SIMPLE_HEAD)
            for name in ("kind", "n", "recall@k", "MRR"):
                table.add_column(name)
            for kind, stats in result["kinds"].items():
                table.add_row(kind, str(stats["n"]), str(stats[f"recall@{limit}"]), str(stats["mrr"]))
            render.out.print(table)
            render.out.print(
                f"titles ranked first {result['titles_first']} · absent refused "
                f"{result['absent_refused']} · answerable wrongly refused {result['answerable_refused']} · "
                f"high right (top 3) {result['high_right']} · absent answered high {result['absent_high']}"
            )
            for miss in result["misses"]:
                render.out.print(Text(f"  miss [{miss['kind']}] {miss['q']} -> {miss.get('got')}", style="dim"))
        base = entry.get("baseline") or {}
        if base.get("ran"):
            shown = " · ".join(
                f"{kind} recall {stats[f'recall@{limit}']} MRR {stats['mrr']}" for kind, stats in base["kinds"].items()
            )
            render.out.print(Text(f"{entry['name']} · naive dense baseline: {shown}", style="dim"))
    if report.get("leave_one_out"):
        _leave_one_out_table(report["leave_one_out"], limit)
    fitted = (report.get("fit_all") or {}).get("hybrid")  # the mode both fitted constants act in
    if fitted:
        shipped = report.get("tuning") or {}
        render.out.print(f"fitted on every set (hybrid): {_constants(fitted)}; shipped: {_constants(shipped)}")


def _constants(tuning: Mapping[str, Any]) -> str:
    return f"keyword weight {tuning.get('keyword_weight')}, band {tuning.get('band')}"


def _leave_one_out_table(lofo: Mapping[str, Any], limit: int) -> None:
    """What a folder the constants were never fitted on sees: fit on the others, score it; a
    table per mode, narrow enough for 80 columns, so no folder's name or figure is cut short
    (a dozen `team-…` rows would read as one)."""
    headers = (
        "left out",
        "kw\nrecall",
        "para\nrecall",
        "para\nMRR",
        "titles\nfirst",
        "absent\nrefused",
        "wrong\nrefused",
        "fit\nweight",
        "fit\nband",
    )
    for mode, per_set in lofo.items():
        table = Table(
            title=f"leave one folder out · {mode} (k={limit})",
            box=box.SIMPLE_HEAD,
            collapse_padding=True,
            pad_edge=False,
        )
        for header in headers:
            table.add_column(header, no_wrap=True)
        for name, result in per_set.items():
            table.add_row(name, *_held_out_figures(result, limit))
        render.out.print(table)


def _held_out_figures(result: Mapping[str, Any], limit: int) -> tuple[str, ...]:
    kinds, fit = result["kinds"], result.get("fit", {})
    return (
        *(
            str(kinds.get(kind, {}).get(key, "-"))
            for kind, key in (("keyword", f"recall@{limit}"), ("paraphrase", f"recall@{limit}"), ("paraphrase", "mrr"))
        ),
        result["titles_first"],
        result["absent_refused"],
        str(result["answerable_refused"]),
        str(fit.get("keyword_weight", "-")),
        str(fit.get("band", "-")),
    )
