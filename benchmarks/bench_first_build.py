"""A first index build against its floor: the bundled model embedding the very same passages in
one call, nothing else (no records read, no keyword index, no checkpoints, no refusal floor).

    python benchmarks/bench_first_build.py [--folder tests/fixtures/corpora/cometbft] [--runs 2] [--busy]

Each run copies the folder into a fresh repository, runs `adr index` there with no cache (wall
and CPU seconds of the process), and beside it the floor in a process of its own: load the model,
embed the passages `adr index` embeds, in batches of 32, one call. Prints both and the ratio of
CPU seconds (the goal: at most 1.5). `--busy` keeps every core busy with spinning processes
meanwhile, as on a shared CI machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import adr, machine

HERE = Path(__file__).parent.parent

FLOOR = """
import sys, time
from pathlib import Path
from adr_memory.history import Workspace
from adr_memory.records import credentials
from adr_memory.search import embed
from adr_memory.search.index import chunks_of
ws = Workspace.discover(Path(sys.argv[1]))
texts = list({c.key: c.embedded for rec in ws.decisions for c in chunks_of(credentials.redacted(rec))}.values())
model = embed.load(Path(sys.argv[2]))
model.embed(texts)
print(len(texts))
"""


def _repo(work: Path, folder: Path) -> Path:
    root = work / "repo"
    shutil.copytree(folder, root / "docs" / "adr", ignore=shutil.ignore_patterns("SOURCE.md"))
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b"}
    env["GIT_COMMITTER_EMAIL"] = "b@x"
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "decisions"]):
        subprocess.run(["git", *args], cwd=root, check=True, env=env, capture_output=True)
    return root


def _measured(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of one child process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


def _spin() -> None:
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folder", type=Path, default=HERE / "tests/fixtures/corpora/cometbft")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--busy", action="store_true", help="every core kept busy meanwhile")
    args = parser.parse_args()
    print(f"machine: {machine()}; folder: {args.folder.name}; {'busy' if args.busy else 'idle'}")
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(os.cpu_count() or 1)]
    if args.busy:
        for p in spinners:
            p.start()
    builds, floors = [], []
    try:
        for run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="adr-bench-first-build-") as tmp:
                root = _repo(Path(tmp), args.folder)
                build = _measured(adr("index", "--json"), root)
                shutil.rmtree(root / ".adr-cache")
                floor = _measured([sys.executable, "-P", "-c", FLOOR, str(root), str(Path(tmp) / "model")], root)
            builds.append(build)
            floors.append(floor)
            print(
                f"  run {run + 1}: adr index {build[0]:6.1f} s wall, {build[1]:6.1f} s CPU  |  "
                f"floor ({floor[2]} passages, one call) {floor[0]:6.1f} s wall, {floor[1]:6.1f} s CPU  |  "
                f"CPU ratio {build[1] / floor[1]:.2f}"
            )
    finally:
        for p in spinners:
            if p.is_alive():
                p.terminate()
    cpu = statistics.median(b[1] for b in builds) / statistics.median(f[1] for f in floors)
    wall = statistics.median(b[0] for b in builds) / statistics.median(f[0] for f in floors)
    print(f"median ratio, build / floor: CPU {cpu:.2f} (goal <= 1.5), wall {wall:.2f}")


if __name__ == "__main__":
    main()
