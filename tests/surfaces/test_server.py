"""surfaces.server: the hub over HTTP, through Starlette's test client on a real hub folder
published from a real repository: the API's shapes, its tokens, its errors."""

from __future__ import annotations

import pytest

from adr_memory.commands import hub
from adr_memory.history import Workspace
from adr_memory.surfaces import server
from tests.helpers import adr_text, hub_client, hub_with_exception, published_hub, published_on, run, service
from tests.hub.conftest import pg_server  # noqa: F401  (the session's PostgreSQL)

SECOND = ("Publish order events on Kafka", "Every order change is an event. DB_PASSWORD=Hunter2Secret99")


@pytest.fixture
def served(tmp_path, model_cache):
    return published_hub(tmp_path, SECOND)


@pytest.fixture(params=["folder", "postgres"])
def served_both(request, tmp_path, model_cache):
    """The same hub on each store: what reaches PostgreSQL as a value is tested there too."""
    return published_on(request, tmp_path, SECOND)


_client = hub_client


def test_reads_need_a_live_token_and_say_which_refusal(served_both):
    client = _client(served_both)
    assert client.get("/healthz").json() == {"ok": True, "repositories": 1}
    refused = client.get("/api/repositories")
    assert refused.status_code == 401 and refused.json()["error"] == "a token is needed to read this hub"
    made = hub.token_add(served_both, "reader", read=True)
    bearer = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/api/repositories", headers=bearer).json()["repositories"][0]["name"] == "payments"
    wrong = client.get("/api/repositories", headers={"Authorization": "Bearer adrh_nothing"})
    assert wrong.status_code == 401 and "not valid" in wrong.json()["error"]
    client.cookies.set(server.COOKIE, made["token"])
    assert client.get("/api/stale").status_code == 200  # the pages' cookie carries it too
    client.cookies.clear()
    hub.token_revoke(served_both, "reader")
    assert client.get("/api/repositories", headers=bearer).status_code == 401
    listed = hub.token_list(served_both)["tokens"]
    assert listed[0]["revoked"] and made["token"] not in str(listed)


def test_the_api_answers_in_the_cli_shapes_and_bad_input_is_a_400_or_404(served_both):
    client = _client(served_both, public=True)
    found = client.get("/api/search", params={"q": "where do orders live", "limit": "3"}).json()
    assert found["results"][0]["id"] == "ADR-0001" and set(found) >= {"no_strong_match", "confidence", "results"}
    assert [d["id"] for d in client.get("/api/decisions", params={"repository": "payments"}).json()] == [
        "ADR-0001",
        "ADR-0002",
    ]
    one = client.get("/api/decisions/payments/2").json()
    assert one["id"] == "ADR-0002" and "versions" in one and "Hunter2Secret99" not in str(one)
    assert "events" in client.get("/api/timeline").json() and "conflicts" in client.get("/api/conflicts").json()
    for path, params, status, said in [
        ("/api/search", {}, 400, "the question is missing"),
        ("/api/search", {"q": "orders", "limit": "many"}, 400, "limit must be a whole number"),
        ("/api/decisions/paymnets/1", {}, 404, "no repository 'paymnets' in the hub"),
        ("/api/decisions/payments/9", {}, 404, "no decision '9' of payments"),
        ("/api/decisions", {"repository": "nobody"}, 404, "no repository 'nobody'"),
    ]:
        answer = client.get(path, params=params)
        assert answer.status_code == status and answer.json()["error"].startswith(said), (path, answer.json())
        assert set(answer.json()) == {"error", "hint"}
    assert "payments" in client.get("/api/decisions/paymnets/1").json()["hint"]  # the nearest name


def test_tokens_removal_and_renaming_from_the_command_line(served_both, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    out = run(capsys, "hub", "token", "add", "ci", "--publish", "payments", "--from", served_both)
    (token,) = out.out.splitlines()
    assert token.startswith("adrh_") and "shown this once" in out.err
    assert "ci  publish:payments" in run(capsys, "hub", "token", "list", "--from", served_both).out
    run(capsys, "hub", "token", "add", "ci", "--read", "--from", served_both, code=2)  # the name is taken
    run(capsys, "hub", "token", "add", "both", "--read", "--publish", "x", "--from", served_both, code=2)
    run(capsys, "hub", "rename", "payments", "billing", "--from", served_both)
    assert [r["name"] for r in hub.open_hub(served_both).repositories()] == ["billing"]
    told = run(capsys, "hub", "remove", "bilings", "--from", served_both, code=2)
    assert "the nearest: billing" in told.err
    run(capsys, "hub", "remove", "billing", "--from", served_both)
    assert hub.open_hub(served_both).repositories() == []


def test_publishing_over_http_takes_only_the_repositories_the_token_holds(served_both, tmp_path, monkeypatch):
    """A CI needs a publish token for its own name, never the database password."""
    import httpx

    from adr_memory.errors import AdrError

    client = _client(served_both)

    def served(url, **kw):  # the TestClient takes no timeout (the real client's is 120 s)
        return client.post(url, **{k: v for k, v in kw.items() if k != "timeout"})

    monkeypatch.setattr(httpx, "post", served)  # the request, served_both by the app
    search_repo = service(tmp_path / "search", "search", {"docs/adr/0001-es.md": adr_text("Index with OpenSearch")})
    ws = Workspace.discover(search_repo)
    monkeypatch.delenv(hub.TOKEN_ENV, raising=False)
    with pytest.raises(AdrError, match="only with a token"):
        hub.publish(ws, "https://hub.example.org")
    mine = hub.token_add(served_both, "ci-search", publish=["search"])["token"]
    other = hub.token_add(served_both, "ci-payments", publish=["payments"])["token"]
    with pytest.raises(AdrError, match=r"refused the publish \(403\): this token may not publish 'search'"):
        hub.publish(ws, "https://hub.example.org", token=other)
    monkeypatch.setenv(hub.TOKEN_ENV, mine)
    done = hub.publish(ws, "https://hub.example.org")
    assert (done["repository"], done["created"], done["changed"]) == ("search", True, True)
    assert hub.publish(ws, "https://hub.example.org")["changed"] is False
    assert sorted(r["name"] for r in hub.open_hub(served_both).repositories()) == ["payments", "search"]
    # untrusted input: checked field by field, a body past the cap refused before it is read whole
    bearer = {"Authorization": f"Bearer {mine}"}
    bad = client.post("/api/publish", content=b'{"repository": "search", "records": "x"}', headers=bearer)
    assert bad.status_code == 400 and bad.json()["error"].startswith("the publish is not one adr hub publish sends")
    assert client.post("/api/publish", content=b"not json", headers=bearer).status_code == 400
    deep = b'{"repository": "search", "records": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    nested = client.post("/api/publish", content=deep, headers=bearer)  # a RecursionError was a 500
    assert nested.status_code == 400 and nested.json()["error"] == "the publish is not JSON a publish holds"
    for empty in (b"[]", b"{}", b"null", b'{"repository": 7}'):  # "may not publish None" was a 403
        named = client.post("/api/publish", content=empty, headers=bearer)
        assert named.status_code == 400 and named.json()["error"] == "the publish names no repository", empty
    # a record of the wrong shape would break a page every reader shares: refused whole
    import json as _json

    shaped = {
        "repository": "search",
        "records": [{"id": "ADR-0001", "status": "accepted", "key": {"x": 1}}],
        "chunks": [],
    }
    hostile = client.post("/api/publish", content=_json.dumps(shaped).encode(), headers=bearer)
    assert hostile.status_code == 400 and "record ADR-0001's key" in hostile.json()["error"]
    reader = {"Authorization": f"Bearer {mine}"}  # a publish token reads too
    assert client.get("/api/conflicts", headers=reader).status_code == 200
    monkeypatch.setattr(server, "MAX_BODY", 100)
    assert client.post("/api/publish", content=b"x" * 1000, headers=bearer).status_code == 413
    assert client.post("/api/publish", content=b"{}").status_code == 401


def test_agents_reach_the_hub_s_tools_over_http_with_a_read_token(served_both):
    """MCP over HTTP at /mcp, through the SDK's own client, behind a read token."""
    import asyncio

    import httpx
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    application = server.build(served_both)
    made = hub.token_add(served_both, "agent", read=True)["token"]

    async def ask(token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with application.router.lifespan_context(application):
            transport = httpx.ASGITransport(app=application)
            http = httpx.AsyncClient(transport=transport, base_url="http://hub.test", headers=headers)
            async with http, Client(streamable_http_client("http://hub.test/mcp", http_client=http)) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                found = await client.call_tool("search", {"query": "where do orders live"})
                return names, found

    names, found = asyncio.run(ask(made))
    assert names == {"search", "list", "show", "diff", "timeline", "stale", "conflicts", "exceptions"}
    assert '"ADR-0001"' in found.content[0].text and not found.is_error
    refused = _client(served_both).post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert refused.status_code == 401 and refused.json()["error"] == "a token is needed to read this hub"


def test_a_store_the_server_cannot_reach_is_a_503_in_one_shape_and_serve_says_so_at_once(capsys, tmp_path, monkeypatch):
    """Served over an unreachable PostgreSQL, every request but /healthz was a bare 500 with a
    traceback in the log."""
    gone = "postgresql://u:Sekr1tPass@127.0.0.1:1/x"
    client = _client(gone)
    for method, path in [
        ("get", "/api/repositories"),
        ("get", "/api/search?q=x"),
        ("post", "/api/publish"),
        ("post", "/mcp"),
    ]:
        answer = getattr(client, method)(path, headers={"Authorization": "Bearer adrh_x"})
        assert answer.status_code == 503, (path, answer.text)
        assert set(answer.json()) == {"error", "hint"} and "Sekr1t" not in answer.text
    client.cookies.set(server.COOKIE, "adrh_x")
    page = client.get("/")
    assert page.status_code == 503 and "the hub&#39;s store cannot be reached" in page.text
    assert "Sekr1t" not in page.text and "127.0.0.1" not in page.text  # where the store is: the log's alone
    mcp = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert mcp.status_code == 503 and mcp.json()["error"] == "the hub's store cannot be reached"
    monkeypatch.chdir(tmp_path)
    told = run(capsys, "hub", "serve", "--from", gone, "--port", "8789", code=2)
    assert told.err.startswith("error: cannot reach the hub at postgresql://127.0.0.1:1/x") and "Sekr1t" not in told.err


def test_a_hub_folder_is_served_by_one_worker(served, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    told = run(capsys, "hub", "serve", "--from", served, "--workers", "2", "--port", "8788", code=2)
    assert told.err.splitlines() == [  # said before it says it serves
        "error: a hub folder is served by one worker",
        "hint: drop --workers, or serve a PostgreSQL hub",
    ]


def test_a_version_diff_and_the_organisation_s_exceptions_over_the_api(tmp_path, capsys, model_cache):
    url = hub_with_exception(tmp_path, capsys)
    client = _client(url)
    assert client.get("/api/decisions/shop/1/diff").status_code == 401
    bearer = {"Authorization": f"Bearer {hub.token_add(url, 'reader', read=True)['token']}"}
    said = client.get("/api/decisions/shop/1/diff", headers=bearer).json()
    assert set(said) == {"repository", "id", "from", "to", "diff"} and "+Orders live in PostgreSQL 16." in said["diff"]
    assert said == hub.version_diff(url, "shop", "1")  # the CLI's shape
    asked = client.get("/api/decisions/shop/1/diff", params={"from": said["to"], "to": said["from"]}, headers=bearer)
    assert "-Orders live in PostgreSQL 16." in asked.json()["diff"]
    wrong = client.get("/api/decisions/shop/1/diff", params={"from": "nope"}, headers=bearer)
    assert wrong.status_code == 400 and set(wrong.json()) == {"error", "hint"}
    assert client.get("/api/decisions/shop/7/diff", headers=bearer).status_code == 404
    (exception,) = client.get("/api/exceptions", headers=bearer).json()["exceptions"]
    assert exception == {
        "repository": "architecture",
        "id": "ADR-0001",
        "by": "shop",
        "record": "ADR-0002",
        "title": "Publish shop events on SQS",
    }


def test_requests_no_name_holds_and_routes_that_are_not_there_answer_in_the_api_s_shape(served_both, tmp_path, caplog):
    """A NUL byte was a 500 on PostgreSQL, an unknown route plain text, a status no record has
    an empty answer, a repository named with a slash unreadable through the API."""
    import logging

    client = _client(served_both, public=True)
    for path in ("/api/decisions/payments/2%00", "/api/search?q=db&repository=a%00", "/r/a%00", "/d/payments/2%00"):
        refused = client.get(path)
        assert refused.status_code == 400 and refused.json()["error"] == "the request holds a NUL character", path
    unknown = client.get("/api/nothing-here")
    assert unknown.status_code == 404 and set(unknown.json()) == {"error", "hint"}
    wrong = client.post("/api/search")
    assert wrong.status_code == 405 and wrong.json()["error"] == "POST is not taken here"
    for path, said in [
        ("/api/search?q=db&status=bogus", "no status 'bogus'"),
        ("/api/decisions?status=nope", "no status 'nope'"),
        ("/api/search?q=db&limit=0", "limit must be 1 to 50"),
        ("/api/search?q=db&limit=100000", "limit must be 1 to 50"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 400 and answer.json()["error"].startswith(said), path
    from tests.helpers import versioned

    hub.publish(Workspace.discover(versioned(tmp_path / "team")), served_both, "team/shop")  # a name with a /
    one = client.get("/api/decisions/team/shop/1")
    assert one.status_code == 200 and one.json()["repository"] == "team/shop"
    assert "+Orders live in PostgreSQL 16." in client.get("/api/decisions/team/shop/1/diff").json()["diff"]
    with caplog.at_level(logging.WARNING, logger="adr_memory.hub"):
        lost = _client("postgresql://u:Sekr1tPass@127.0.0.1:1/x", public=True).get("/api/repositories")
    assert lost.status_code == 503 and lost.json()["error"] == "the hub's store cannot be reached"
    assert "127.0.0.1" not in lost.text and "cannot reach the hub" in caplog.text and "Sekr1t" not in caplog.text


def test_a_port_another_process_holds_is_one_line_and_exit_2(served, capsys):
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        told = run(capsys, "hub", "serve", "--from", served, "--port", str(port), code=2)
    assert (
        told.err.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
        and "hint: another process holds it" in told.err
    )


def test_a_search_waiting_for_a_slot_holds_nothing_of_the_store_a_page_needs(served, monkeypatch):
    """Searches beyond the slots wait before anything else, their token's lookup too, on the
    event loop: 30 queued searches once held the store's connections while a page waited for
    one, and held a thread each (40 of them would have left none for a page)."""
    import threading
    import time

    from adr_memory.hub.folder import FolderStore
    from adr_memory.surfaces import pages

    lookups = []
    looked_up = FolderStore.token
    monkeypatch.setattr(FolderStore, "token", lambda self, digest: lookups.append(digest) or looked_up(self, digest))
    monkeypatch.setattr(pages, "SEARCHES", 0)  # every slot taken: a search waits until one is given
    bearer = {"Authorization": f"Bearer {hub.token_add(served, 'reader', read=True)['token']}"}
    answered = []
    asking = threading.Thread(
        target=lambda: answered.append(_client(served).get("/api/search", params={"q": "orders"}, headers=bearer))
    )
    asking.start()
    deadline = time.monotonic() + 30
    while not any(getattr(slots, "_waiters", None) for slots in list(pages._slots.values())):
        assert time.monotonic() < deadline, "the search never waited for a slot"
        time.sleep(0.01)
    assert lookups == []  # waiting, it has looked nothing up
    assert _client(served).get("/api/repositories", headers=bearer).status_code == 200  # a read is not held
    assert len(lookups) == 1
    ((loop, slots),) = [(loop, s) for loop, s in list(pages._slots.items()) if getattr(s, "_waiters", None)]
    loop.call_soon_threadsafe(slots.release)
    asking.join(60)
    assert answered[0].status_code == 200 and answered[0].json()["results"]
    assert len(lookups) == 2


def test_what_the_server_holds_from_its_start_is_set_aside_from_the_collector(tmp_path, monkeypatch):
    """A worker built by uvicorn's factory freezes what it holds once built: a full collection
    then walks only what requests make."""
    import gc

    monkeypatch.setenv("ADR_HUB_URL", str(tmp_path / "hub"))
    hub.init(str(tmp_path / "hub"))
    before = gc.get_freeze_count()
    try:
        app = server.from_environment()
        assert gc.get_freeze_count() > before and app.routes
    finally:
        gc.unfreeze()


def _descendants(pid: int) -> set[int]:
    """Every process `pid` started, and theirs, read from /proc."""
    from pathlib import Path

    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(") ", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _running(pid: int) -> bool:
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("served_both", ["postgres"], indirect=True)
def test_workers_and_their_search_processes_end_when_the_server_is_killed(served_both):
    """`--workers 2`, its supervisor killed (no shutdown runs): the workers went on holding the
    port, and each its search process, until someone found them."""
    import contextlib
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    serve = ["hub", "serve", "--from", served_both, "--workers", "2", "--public", "--port", str(port)]
    supervisor = subprocess.Popen([sys.executable, "-m", "adr_memory", *serve], stderr=subprocess.DEVNULL)
    started: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/search", params={"q": "orders"}).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        started = _descendants(supervisor.pid)
        assert len(started) >= 4  # two workers, each with its search process
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_running(pid) for pid in started):
            time.sleep(0.2)
        assert not [pid for pid in started if _running(pid)]
    finally:  # whatever is left is this test's to end
        supervisor.kill()
        for pid in started | _descendants(supervisor.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_the_server_s_log_is_one_line_a_message_whatever_the_mcp_sdk_sets(served):
    """The SDK sets rich's handler on the root logger when the hub's MCP server is built: off a
    terminal it folded each of the operator's log lines at 80 columns."""
    import subprocess
    import sys

    script = (
        "import sys\nfrom adr_memory.surfaces import server, pages\n"
        "server.plain_logs()\nserver.build(sys.argv[1])\npages.LOG.warning('the store at %s: ' + 'x' * 150, 'a')\n"
    )
    told = subprocess.run([sys.executable, "-c", script, served], capture_output=True, text=True, timeout=120)
    lines = [line for line in told.stderr.splitlines() if "the store at" in line]
    assert lines == ["WARNING:  adr_memory.hub: the store at a: " + "x" * 150], told.stderr
