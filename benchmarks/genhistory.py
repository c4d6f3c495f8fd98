"""Generate a merge-heavy repository of a real project's shape with `git fast-import`.

The shape of a long-lived open-source project that adopted decision records late:
- COMMITS first-parent commits, most of them merges of a one-commit side branch (as a
  pull-request workflow makes them) that edits source files;
- every so often a merge whose first-parent diff adds or deletes hundreds of large files
  (a vendored tree, generated documentation; markdown named like records, too);
- RECORDS decision records, the first ones written under `architecture/decisions/`, moved to
  `docs/adr/`, then the whole folder moved to `docs/decisions/` (some edited in the same
  commit, so the move is found by similarity, not by identical content); records are
  edited, accepted, renamed (a new title in the file name) and affirmed along the way.
Every accepted record governs a source module (`src/mNN/**`) or one file in it.
"""

from __future__ import annotations

import argparse
import random
import subprocess
from pathlib import Path

WHEN = 1_500_000_000


def record_text(i: int, governs: str, status: str, revision: int, reviewed: int = 0) -> str:
    review = f"reviewed:\n  note: still holds (pass {reviewed})\n" if reviewed else ""
    return (
        f'---\nstatus: {status}\ngoverns: ["{governs}"]\n{review}---\n'
        f"# {i}. Use approach {i % 11} for module {i % 40}\n\n"
        f"## Context and Problem Statement\n\nModule {i % 40} needs one way to do this. "
        + " ".join(f"Consideration {k} of decision {i} weighs cost against risk." for k in range(12))
        + f"\n\n## Decision Outcome\n\nWe use approach {i % 11}, revision {revision}.\n"
    )


def vendored(batch: int, n: int) -> str:
    words = " ".join(f"word{(batch * 31 + n * 7 + k) % 997}" for k in range(900))
    return f"# Handbook page {n} of batch {batch}\n\n{words}\n"


class FastImport:
    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.mark = 0
        self.when = WHEN

    def commit(self, ref: str, message: str, ops: list[bytes], parent: int | None, merge: int | None = None) -> int:
        self.mark += 1
        self.when += 300
        msg = message.encode()
        head = (
            (
                f"commit {ref}\nmark :{self.mark}\n"
                f"author Dev <dev@example.com> {self.when} +0000\n"
                f"committer Dev <dev@example.com> {self.when} +0000\n"
                f"data {len(msg)}\n"
            ).encode()
            + msg
            + b"\n"
        )
        if parent is not None:
            head += f"from :{parent}\n".encode()
        if merge is not None:
            head += f"merge :{merge}\n".encode()
        self.out.append(head + b"".join(ops) + b"\n")
        return self.mark


def put(path: str, text: str) -> bytes:
    data = text.encode()
    return f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"


def delete(path: str) -> bytes:
    return f"D {path}\n".encode()


def generate(path: Path, *, commits: int, records: int, files: int = 4_000, broad: int = 0, seed: int = 11) -> None:
    """`broad`: every broad-th decision governs a glob across the tree (`src/**/*.py`), as
    real ones do ("every service's database code"); 0, none does."""
    rng = random.Random(seed)
    modules = max(1, files // 100)
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    fi = FastImport()
    ops = [put(f"src/m{m:02d}/f{f:02d}.py", f"# {m} {f}\nVALUE = 0\n") for m in range(modules) for f in range(100)]
    main = fi.commit("refs/heads/main", "initial tree", ops, None)
    folder = "architecture/decisions"
    names: dict[int, str] = {}  # record -> its path now
    state: dict[int, list[int]] = {}  # record -> [revision, accepted, reviewed]
    governs = {
        i: (f"src/m{i % modules:02d}/**" if i % 2 else f"src/m{i % modules:02d}/f{i % 100:02d}.py")
        for i in range(1, records + 1)
    }
    for i in range(broad, records + 1, broad or records + 1):
        governs[i] = f"src/**/f{i % 100:02d}.py"
    vendor: list[str] = []
    batch = 0
    moves = {commits // 5: "docs/adr", commits // 2: "docs/decisions"}
    first_record = commits // 10
    every = max(1, (commits - first_record) // (records + 1))

    def text(i: int) -> str:
        rev, accepted, reviewed = state[i]
        return record_text(i, governs[i], "accepted" if accepted else "proposed", rev, reviewed)

    for c in range(1, commits):
        ops = []
        message = f"Merge pull request #{c}"
        if c in moves:  # the whole folder moves; two of its records are edited on the way
            target = moves[c]
            for k, i in enumerate(sorted(names)):
                if k < 2:
                    state[i][0] += 1
                new = f"{target}/{Path(names[i]).name}"
                ops += [delete(names[i]), put(new, text(i))]
                names[i] = new
            folder, message = target, f"Move the decision records to {target}"
        elif c % 900 == 450:  # a vendored tree of large files arrives
            batch += 1
            vendor = [f"vendor/handbook-{batch}/{n:04d}-page-{n}.md" for n in range(300)]
            ops += [put(p, vendored(batch, n)) for n, p in enumerate(vendor)]
            message = f"Merge branch 'vendor-{batch}'"
        elif c % 900 == 0 and vendor:  # ... and leaves, while a record is renamed
            ops += [delete(p) for p in vendor]
            vendor = []
            if names:
                i = rng.choice(sorted(names))
                state[i][0] += 1
                new = f"{folder}/{i:04d}-approach-{i % 11}-revised-{c}.md"
                ops += [delete(names[i]), put(new, text(i))]
                names[i] = new
            message = "Merge branch 'drop-vendored-handbook'"
        elif len(names) < records and c >= first_record and (c - first_record) % every == 0:
            i = len(names) + 1
            names[i], state[i] = f"{folder}/{i:04d}-approach-{i % 11}.md", [1, 0, 0]
            ops.append(put(names[i], text(i)))
            message = f"Add ADR {i}"
        elif names and c % 37 == 0:
            i = rng.choice(sorted(names))
            if not state[i][1]:
                state[i][1] = 1
            elif rng.random() < 0.5:
                state[i][2] += 1
            else:
                state[i][0] += 1
            ops.append(put(names[i], text(i)))
            message = f"ADR {i}: revise"
        m, f = rng.randrange(modules), rng.randrange(100)
        edit = put(f"src/m{m:02d}/f{f:02d}.py", f"# {m} {f}\nVALUE = {c}\n")
        side = fi.commit(f"refs/heads/topic-{c % 4}", f"edit m{m}/f{f}", [edit], main)
        # fast-import builds a commit's tree from its first parent: the merge repeats the edit
        main = fi.commit("refs/heads/main", message, [*ops, edit], main, merge=side)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(fi.out), check=True)
    for ref in range(4):
        subprocess.run(["git", "branch", "-q", "-D", f"topic-{ref}"], cwd=path, check=False)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=path, check=True)
    subprocess.run(["git", "gc", "-q"], cwd=path, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--commits", type=int, default=12_000)
    parser.add_argument("--records", type=int, default=72)
    parser.add_argument("--files", type=int, default=4_000, help="source files at the start (100 a folder)")
    parser.add_argument("--broad", type=int, default=0, help="every Nth decision governs a glob across src/")
    args = parser.parse_args()
    generate(args.path, commits=args.commits, records=args.records, files=args.files, broad=args.broad)


if __name__ == "__main__":
    main()
