"""An organisation's decisions read through sources, beside the same decisions held locally.

    python benchmarks/bench_sources.py [--sources 20 --decisions 50] [--runs 5] [--dir PATH]

Generates SOURCES central repositories of DECISIONS records each (governed code, rules on a few),
a service repository that pins them all (`adr sources update`, committed), and a second service
repository holding the very same records in its own folder. Prints, warm (every cache made by a
run before), the median of RUNS whole processes of `adr list --sources`, `adr why`, `adr guard
--json` and `adr check`, against the same command where the records are local, run in turn.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
from pathlib import Path

from common import adr, machine, timed


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def record(source: int, n: int) -> str:
    rules = (
        f'rules:\n  - {{forbid: "import legacy_{source}_{n}", in: ["src/**"], message: "use the new client"}}\n'
        if n % 10 == 0
        else ""
    )
    return (
        f'---\nstatus: accepted\ngoverns: ["src/s{source}/m{n % 10}/**"]\n{rules}---\n'
        f"# {n}. Team {source} decides how module {n % 10} handles concern {n}\n\n"
        f"## Context and Problem Statement\n\nModule {n % 10} of area {source} needs one way to handle "
        f"concern {n}: retries, timeouts and how failures are reported to the caller.\n\n"
        f"## Decision Outcome\n\nWe use approach {n % 7} for concern {n}, because it is what the team knows.\n"
    )


def generate(root: Path, sources: int, decisions: int) -> tuple[Path, Path]:
    shutil.rmtree(root, ignore_errors=True)
    pinned, local = root / "service-with-sources", root / "service-with-local-records"
    for service in (pinned, local):
        (service / "src").mkdir(parents=True)
        git(service, "init", "-q", "-b", "main")
        for s in range(sources):
            for m in range(10):
                (service / f"src/s{s}/m{m}").mkdir(parents=True)
                (service / f"src/s{s}/m{m}/code.py").write_text(f"VALUE = {s * 10 + m}\n")
    (local / "docs/adr").mkdir(parents=True)
    (pinned / "docs/adr").mkdir(parents=True)
    (pinned / "docs/adr/0001-local.md").write_text(record(999, 1))
    (local / "docs/adr/0001-local.md").write_text(record(999, 1))
    config = []
    for s in range(sources):
        central = root / f"central-{s}"
        (central / "docs/adr").mkdir(parents=True)
        git(central, "init", "-q", "-b", "main")
        for n in range(1, decisions + 1):
            text = record(s, n)
            (central / f"docs/adr/{n:04d}-d.md").write_text(text)
            (local / f"docs/adr/{s * decisions + n + 1:04d}-d.md").write_text(text)
        git(central, "add", "-A")
        git(central, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "decisions")
        config.append(f'[sources.team{s}]\nurl = "{central}"\nref = "main"\n')
    (pinned / ".adr-memory.toml").write_text("\n".join(config))
    for service in (pinned, local):
        git(service, "add", "-A")
        git(service, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "start")
    subprocess.run(adr("sources", "update"), cwd=pinned, check=True, capture_output=True)
    git(pinned, "add", "-A")
    git(pinned, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "pin")
    return pinned, local


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sources", type=int, default=20)
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-sources"))
    args = parser.parse_args()
    pinned, local = generate(args.dir, args.sources, args.decisions)
    print(f"machine: {machine()}")
    print(
        f"{args.sources} sources x {args.decisions} decisions, against the same {args.sources * args.decisions} held locally"
    )
    rows = [
        ("list --sources", ["list", "--sources"], ["list"]),
        ("why src/s3/m4/code.py", ["why", "src/s3/m4/code.py"], ["why", "src/s3/m4/code.py"]),
        ("guard --json", ["guard", "src/s3/m4/code.py", "--json"], ["guard", "src/s3/m4/code.py", "--json"]),
        ("check", ["check"], ["check"]),
    ]
    for label, theirs, ours in rows:
        for _ in range(2):  # warm: every cache made
            timed(adr(*theirs), pinned)
            timed(adr(*ours), local)
        a, b = [], []
        for _ in range(args.runs):  # in turn: a machine slowing down midway slows both
            a.append(timed(adr(*theirs), pinned)[0])
            b.append(timed(adr(*ours), local)[0])
        sa, sb = statistics.median(a), statistics.median(b)
        print(f"adr {label:<24} sources {sa:5.2f} s   local {sb:5.2f} s   ratio {sa / sb:4.2f}")


if __name__ == "__main__":
    main()
