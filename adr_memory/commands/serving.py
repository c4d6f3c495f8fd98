"""`adr mcp` and `adr hub serve`: what a server offers, settled and checked before it starts.
The servers themselves (the MCP SDK's stdio loop, uvicorn) are surfaces; this command decides
which tools over which repository or hub, and refuses at once, in one line, what cannot be
served (a hub that cannot be read, a port another process holds, a folder hub with workers),
rather than as an error to each request."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adr_memory.commands import registry
from adr_memory.errors import UsageError


@dataclass(frozen=True)
class Tools:
    """What `adr mcp` serves: a repository's tools (the write tools only when allowed), or
    the organisation hub's read tools."""

    root: Path | None  # the repository served (None when it is the hub)
    hub: str | None  # the hub's URL (None when it is a repository)
    names: tuple[str, ...]

    @property
    def allow_write(self) -> bool:
        return any(name in registry.MCP_WRITES for name in self.names)


def mcp(repo: Path | None = None, *, allow_write: bool = False, hub: str | None = None) -> Tools:
    if hub is not None:
        if allow_write:
            raise UsageError("the hub's tools are read-only", hint="drop --allow-write, or serve a repository")
        return Tools(None, hub, tuple(registry.MCP_HUB))
    from adr_memory.history import Workspace

    root = Workspace.discover(repo).root  # not a repository: said here, before the agent connects
    return Tools(root, None, tuple(n for n in registry.MCP if allow_write or n not in registry.MCP_WRITES))


@dataclass(frozen=True)
class Serving:
    """What `adr hub serve` serves, checked: a hub read once, an address free to listen on."""

    url: str
    host: str
    port: int
    public: bool
    workers: int


def hub(source: str | None, *, host: str, port: int, public: bool, workers: int) -> Serving:
    from adr_memory.commands import hub as hubs
    from adr_memory.hub import store

    url = store.url_of(source)
    if port:
        _listenable(host, port)
    if workers > 1 and store.scheme(url) != "postgresql":
        raise UsageError("a hub folder is served by one worker", hint="drop --workers, or serve a PostgreSQL hub")
    reached = hubs.open_hub(url)
    try:
        reached.repositories()
    finally:
        reached.close()
    return Serving(url, host, port, public, workers)


def _listenable(host: str, port: int) -> None:
    """The address can be listened on: one another process holds is said in one line, not
    as uvicorn's error and an exit."""
    import errno
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        held = exc.errno == errno.EADDRINUSE
        raise UsageError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="another process holds it: pick another --port"
            if held
            else "check --host: an address of this machine",
        ) from None
