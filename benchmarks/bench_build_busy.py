"""A first index build on an idle machine and on a busy one: wall time and CPU time of each.

    python benchmarks/bench_build_busy.py [--folder tests/fixtures/corpora/cometbft] [--runs 2]

A build's CPU time should not grow much when another job keeps the cores busy: model threads that
outnumber the cores left to them spin and switch instead of working (a first build of cometbft
once took 4m34s of CPU on a busy machine against 31.5 s of wall time idle). The busy machine is
`os.cpu_count()` processes spinning in a loop, started before the build and stopped after it.
Prints each run and the ratios busy/idle of CPU time and of wall time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import adr, machine

ROOT = Path(__file__).parent.parent


def spin() -> None:
    while True:
        pass


def build(folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one `adr index --rebuild` in a fresh repository of `folder`."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        shutil.copytree(folder, repo / "docs/adr")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(adr("index", "--rebuild"), cwd=repo, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu


def busy_build(folder: Path) -> tuple[float, float]:
    hogs = [multiprocessing.Process(target=spin, daemon=True) for _ in range(os.cpu_count() or 1)]
    for hog in hogs:
        hog.start()
    try:
        return build(folder)
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folder", type=Path, default=ROOT / "tests/fixtures/corpora/cometbft")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {machine()}; folder: {args.folder.name}")
    idle, busy = [], []
    for _ in range(args.runs):  # in turn, so a drift in the machine's speed hits both
        idle.append(build(args.folder))
        busy.append(busy_build(args.folder))
        print(
            f"  idle: {idle[-1][0]:.1f} s wall, {idle[-1][1]:.1f} s CPU   busy: {busy[-1][0]:.1f} s wall, {busy[-1][1]:.1f} s CPU"
        )
    wall_idle, cpu_idle = statistics.median(w for w, _ in idle), statistics.median(c for _, c in idle)
    wall_busy, cpu_busy = statistics.median(w for w, _ in busy), statistics.median(c for _, c in busy)
    print(f"median idle: {wall_idle:.1f} s wall, {cpu_idle:.1f} s CPU")
    print(f"median busy: {wall_busy:.1f} s wall, {cpu_busy:.1f} s CPU")
    print(f"busy/idle: CPU {cpu_busy / cpu_idle:.2f}x, wall {wall_busy / wall_idle:.2f}x")


if __name__ == "__main__":
    main()
