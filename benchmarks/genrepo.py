"""Generate a large synthetic repository with `git fast-import` (seconds, not hours).

Layout: FILES source files under src/mNNN/, ADRS decisions under docs/adr/ added over the
history, each governing one module (`src/mNNN/**`), one file, or a `*.py` glob in a module.
Each commit edits one or two source files; every so often a commit edits, accepts or affirms an
ADR (so anchors differ) or renames one.
"""

from __future__ import annotations

import argparse
import random
import subprocess
from pathlib import Path


def adr_text(i: int, glob: str, body: str, status: str = "accepted") -> str:
    return (
        f'---\nstatus: {status}\ngoverns: ["{glob}"]\ntags: [bench]\n---\n'
        f"# Decision {i}: use approach {i % 17} for module {i % 200}\n\n"
        f"## Context and Problem Statement\n\nModule {i % 200} needs a rule. {body}\n\n"
        f"## Decision Outcome\n\nWe use approach {i % 17} because of reason {i * 7 % 101}.\n"
    )


def generate(path: Path, *, files: int, commits: int, adrs: int, seed: int = 7, recent: int = 0) -> None:
    """With `recent`, every decision is added within the last `recent` commits (anchors near
    HEAD, as in a project that adopted ADRs lately); else they are spread over the history."""
    rng = random.Random(seed)
    modules = max(1, files // 100)
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    out: list[bytes] = []
    mark = 0
    when = 1_600_000_000

    def blob_cmd(rel: str, text: str) -> None:
        data = text.encode()
        out.append(f"M 100644 inline {rel}\ndata {len(data)}\n".encode() + data + b"\n")

    def commit(message: str, body: list[bytes]) -> None:
        nonlocal mark, when
        mark += 1
        when += 600
        msg = message.encode()
        head = (
            (
                f"commit refs/heads/main\nmark :{mark}\n"
                f"author Bench <bench@example.com> {when} +0000\n"
                f"committer Bench <bench@example.com> {when} +0000\n"
                f"data {len(msg)}\n"
            ).encode()
            + msg
            + b"\n"
        )
        if mark > 1:
            head += f"from :{mark - 1}\n".encode()
        out.append(head)
        out.extend(body)
        out.append(b"\n")

    start = len(out)
    for m in range(modules):
        for f in range(100):
            if m * 100 + f < files:
                blob_cmd(f"src/m{m:03d}/f{f:02d}.py", f"# module {m} file {f}\nVALUE = 0\n")
    body = out[start:]
    del out[start:]
    commit("initial tree", body)

    first_adr = commits - recent if recent else 1
    adr_every = max(1, (commits - first_adr) // max(adrs, 1))
    names: dict[int, str] = {}
    made = 0
    for c in range(1, commits):
        start = len(out)
        m, f = rng.randrange(modules), rng.randrange(100)
        blob_cmd(f"src/m{m:03d}/f{f:02d}.py", f"# module {m} file {f}\nVALUE = {c}\n")
        message = f"edit m{m}/f{f}"
        if made < adrs and c >= first_adr and c % adr_every == 0:
            i = made + 1
            kind = i % 3
            glob = (
                f"src/m{i % modules:03d}/**"
                if kind == 0
                else f"src/m{i % modules:03d}/f{i % 100:02d}.py"
                if kind == 1
                else f"src/m{i % modules:03d}/*.py"
            )
            names[i] = f"docs/adr/{i:04d}-decision-{i}.md"
            blob_cmd(names[i], adr_text(i, glob, "First version."))
            made += 1
            message = f"add ADR {i}"
        elif names and c % 7 == 0:
            i = rng.choice(list(names))
            kind = i % 3
            glob = (
                f"src/m{i % modules:03d}/**"
                if kind == 0
                else f"src/m{i % modules:03d}/f{i % 100:02d}.py"
                if kind == 1
                else f"src/m{i % modules:03d}/*.py"
            )
            blob_cmd(names[i], adr_text(i, glob, f"Revised at commit {c}."))
            message = f"revise ADR {i}"
        body = out[start:]
        del out[start:]
        commit(message, body)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(out), check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=path, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--adrs", type=int, default=1_000)
    parser.add_argument("--recent", type=int, default=0)
    args = parser.parse_args()
    generate(args.path, files=args.files, commits=args.commits, adrs=args.adrs, recent=args.recent)


if __name__ == "__main__":
    main()
