"""`adr site` on a 1,000-decision repository, beside `adr export` reading the same facts.

    python benchmarks/bench_site.py [--records 1000 --commits 3000] [--dir PATH]

The repository is generated (`genrepo.py`): decisions added, edited, accepted and renamed over
the history, each governing code. Prints the median whole-process time of a cold build (no
cache) and a warm one, the export of the same records as the baseline, and the weight of the
heaviest page and of the search data.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import adr, best, forget_caches, machine, repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "adr-bench-site")
    args = parser.parse_args()
    root = repo(args.dir, files=2000, commits=args.commits, adrs=args.records)
    out = root.parent / f"{root.name}-out"

    def cold() -> None:
        forget_caches(root)

    site_cold = best(adr("site", "--out", str(out)), root, before=cold)
    site_warm = best(adr("site", "--out", str(out)), root)
    export_warm = best(adr("export", "--output", str(root.parent / "export.json")), root)
    pages = sorted(out.rglob("*.html"), key=lambda p: p.stat().st_size)
    decisions = len(list((out / "decisions").glob("*.html")))
    print(f"machine: {machine()}")
    print(f"repository: {decisions} decisions, {args.commits} commits")
    print(f"adr site, cold (no cache): {site_cold:6.2f} s")
    print(
        f"adr site, warm:            {site_warm:6.2f} s   ({site_warm / export_warm:.2f}x adr export, {export_warm:.2f} s)"
    )
    print(f"pages: {len(pages)}; heaviest {pages[-1].relative_to(out)} {pages[-1].stat().st_size / 1024:.0f} KB")
    search = out / "assets" / "search-data.js"
    print(f"search data: {search.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
