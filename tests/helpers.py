"""Shared test helpers: real git repositories in tmp dirs, and running the real CLI."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adr_memory.surfaces.cli import main

CORPORA = Path(__file__).parent / "fixtures" / "corpora"
FOLDERS = Path(__file__).parent / "fixtures" / "folders"  # written for this project: search is judged on them too
PLAIN = Path(__file__).parent / "fixtures" / "plain"  # plain questions, held out from every constant


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def write(root: Path, files: dict[str, str | bytes | None]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


def commit(root: Path, files: dict[str, str | bytes | None], message: str = "change") -> str:
    """Write (None deletes) files, stage everything and commit; return the new sha."""
    write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def run(capsys, *args: str, code: int | None = 0) -> Result:
    """Run `adr ARGS` in-process through the real entry point; check the exit code."""
    capsys.readouterr()
    rc = main(list(args))
    captured = capsys.readouterr()
    result = Result(rc, captured.out, captured.err)
    if code is not None:
        assert rc == code, f"adr {' '.join(args)} -> {rc}\nstdout:\n{result.out}\nstderr:\n{result.err}"
    return result


def service(root: Path, name: str, files: dict[str, str | bytes | None]) -> Path:
    """A repository of the organisation `acme`, its remote carrying a CI token (which nothing
    may ever show), its decisions committed."""
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "remote", "add", "origin", f"https://ci-token:s3cr3tT0ken@github.com/acme/{name}.git")
    commit(root, files, "decisions")
    return root


def adr_text(
    title: str, *, status: str = "accepted", governs: list[str] | None = None, extra: str = "", body: str = ""
) -> str:
    fm = [f"status: {status}", f"title: {title}"]
    if governs is not None:
        fm.append("governs: [" + ", ".join(f'"{g}"' for g in governs) + "]")
    if extra:
        fm.append(extra.rstrip("\n"))
    return "---\n" + "\n".join(fm) + f"\n---\n# {title}\n\n## Decision\n\n{body or 'We decided.'}\n"


def unshare_works() -> bool:
    """Whether this machine lets an unprivileged process make a private mount namespace, where
    tests mount parts of a repository read-only for real."""
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0
    except OSError:
        return False


def read_only(path: Path) -> str:
    """The mount commands that make `path` (a folder or file) read-only in the namespace."""
    import shlex

    quoted = shlex.quote(str(path))
    return f"mount --bind {quoted} {quoted} && mount -o remount,bind,ro {quoted}"


def tiny_disk(path: Path, size: str = "8k") -> str:
    """The mount command that puts a nearly full disk (a small tmpfs) at `path`."""
    import shlex

    return f"mount -t tmpfs -o size={size} tmpfs {shlex.quote(str(path))}"


def run_mounted(root: Path, mount: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`adr ARGS` in a real process inside a private mount namespace prepared by `mount`."""
    import shlex
    import sys

    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "adr_memory", *args))
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"{mount} && {command}"], cwd=root, capture_output=True, text=True, timeout=120
    )


def own_model(tmp_path: Path) -> Path:
    """A local ONNX model folder (a copy of the bundled model) named as `embed-model` in the
    user's own config, as a user with a model of their choosing has it."""
    from adr_memory.search import embed

    folder = tmp_path / "my-model"
    folder.mkdir()
    onnx, tokenizer = embed.bundled_files()
    shutil.copyfile(onnx, folder / "model.onnx")
    embed.tokenizer_folder(tokenizer, folder)
    home = Path(os.environ["XDG_CONFIG_HOME"]) / "adr-memory"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f'embed-model = "{folder}"\n')
    return folder


def published_hub(tmp_path: Path, second: tuple[str, str], url: str | None = None) -> str:
    """A hub (a folder, unless `url` names one) holding one repository, `payments`: its ADR-0001
    keeps orders in PostgreSQL, its ADR-0002 is `second` (title, body). Published for real (the
    model embeds)."""
    from adr_memory.commands import hub
    from adr_memory.history import Workspace

    title, body = second
    root = service(
        tmp_path / "payments",
        "payments",
        {
            "docs/adr/0001-pg.md": adr_text("Keep orders in PostgreSQL", body="Orders live in PostgreSQL 16."),
            "docs/adr/0002-x.md": adr_text(title, body=body),
        },
    )
    url = url or str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    return url


def published_on(request: Any, tmp_path: Path, second: tuple[str, str]) -> str:
    """`published_hub` on the store a fixture's parameter names: "folder", or "postgres" (a fresh
    database on the session's embedded server)."""
    if request.param == "folder":
        return published_hub(tmp_path, second)
    from tests.hub.conftest import _database

    return published_hub(tmp_path, second, _database(request.getfixturevalue("pg_server")))


def versioned(root: Path, name: str = "shop", later: str = "Orders live in PostgreSQL 16.") -> Path:
    """A repository whose ADR-0001 has two versions: MySQL, then `later`."""
    service(root, name, {"docs/adr/0001-db.md": adr_text("Choose the database", body="Orders live in MySQL 8.")})
    commit(root, {"docs/adr/0001-db.md": adr_text("Choose the database", body=later)}, "move")
    return root


KAFKA_RULE = 'rules:\n  - {forbid: "import boto3", message: "events go on Kafka"}'


def hub_with_exception(tmp_path: Path, capsys: Any, later: str = "Orders live in PostgreSQL 16.") -> str:
    """A hub folder holding `architecture` (its ADR-0001 puts events on Kafka) and `shop`, whose
    ADR-0001 has two versions (MySQL, then `later`) and whose ADR-0002 is its recorded exception
    to the organisation's decision (events on SQS). Published for real."""
    from adr_memory.commands import hub
    from adr_memory.history import Workspace

    central = service(
        tmp_path / "architecture",
        "architecture",
        {"docs/adr/0001-kafka.md": adr_text("Publish events on Kafka", extra=KAFKA_RULE)},
    )
    shop = versioned(tmp_path / "shop", later=later)
    cwd = Path.cwd()
    os.chdir(shop)
    try:
        run(capsys, "sources", "add", "platform", str(central))
        run(capsys, "sources", "update")
        run(capsys, "new", "Publish shop events on SQS", "-s", "platform:1")
        commit(shop, {}, "propose our exception")
        run(capsys, "accept", "2", "--reason", "the bus team agreed")
        commit(shop, {}, "our exception to the event bus")
    finally:
        os.chdir(cwd)
    url = str(tmp_path / "hub")
    hub.init(url)
    for root in (central, shop):
        hub.publish(Workspace.discover(root), url)
    return url


def hub_client(url: str, **kw: Any) -> Any:
    """Starlette's test client on the hub served from `url` (`public=True` for no tokens)."""
    from starlette.testclient import TestClient

    from adr_memory.surfaces import server

    return TestClient(server.build(url, **kw), raise_server_exceptions=False)


# A repository built once for a module's tests that only read it: a module-scoped fixture runs
# before each test's own `sealed` environment, so it seals its own while it builds.
@contextlib.contextmanager
def sealed_env(home: Path) -> Iterator[pytest.MonkeyPatch]:
    """The environment tests/conftest.py's `sealed` gives a test, for the length of a block."""
    with pytest.MonkeyPatch.context() as env:
        for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            env.setenv(var, str(home / var.lower()))
        for var in ("GIT_AUTHOR", "GIT_COMMITTER"):
            env.setenv(f"{var}_NAME", "Ada Author")
            env.setenv(f"{var}_EMAIL", "ada@example.com")
        env.setenv("GIT_CONFIG_NOSYSTEM", "1")
        env.setenv("NO_COLOR", "1")
        for var in ("CI", "GITHUB_ACTIONS", "ADR_DEBUG"):
            env.delenv(var, raising=False)
        yield env
