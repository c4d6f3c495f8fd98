"""surfaces.searchers: a served hub's searches in processes of their own, at a lower priority, on a
real hub folder published from a real repository, with the real model loaded in each worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from adr_memory.commands import hub
from adr_memory.errors import UsageError
from adr_memory.surfaces import searchers
from tests.helpers import hub_client, published_hub

SECOND = ("Publish order events on Kafka", "Every order change is an event on the orders topic.")


@pytest.fixture(scope="module")
def pooled(tmp_path_factory):
    from tests.helpers import sealed_env

    home = tmp_path_factory.mktemp("searchers")
    with sealed_env(home):
        url = published_hub(home, SECOND)
        pool = searchers.Searchers(url, 1)
        try:
            yield url, pool
        finally:
            pool.close()


def test_a_worker_answers_as_the_server_would_and_its_errors_cross_back_whole(pooled):
    url, pool = pooled
    asked = {"limit": 3, "repository": None, "status": "", "tag": ""}
    here = hub.search(url, "where do we keep orders?", **asked)
    there = pool("where do we keep orders?", **asked)
    assert there == here
    assert there["results"][0]["id"] == "ADR-0001"
    with pytest.raises(UsageError) as refused:
        pool("orders", repository="paymnts")
    assert refused.value.message == "no repository 'paymnts' in the hub"
    assert "payments" in (refused.value.hint or "")
    with pytest.raises(UsageError, match="status"):
        pool("orders", status="acceptd")


def test_the_search_process_yields_to_the_server(pooled):
    _url, pool = pooled
    pool("orders", limit=1)
    assert os.getpriority(os.PRIO_PROCESS, pool._process.pid) == os.getpriority(os.PRIO_PROCESS, 0) + searchers.NICE


def test_searches_asked_at_once_are_answered_each_to_its_asker(pooled):
    from concurrent.futures import ThreadPoolExecutor

    _url, pool = pooled
    questions = ["where do we keep orders?", "how are order events published?"] * 4
    with ThreadPoolExecutor(8) as asking:
        answers = list(asking.map(lambda q: pool(q, limit=1), questions))
    assert [a["query"] for a in answers] == questions
    assert [a["results"][0]["id"] for a in answers[:2]] == ["ADR-0001", "ADR-0002"]


def test_a_search_process_killed_is_replaced_and_its_searches_asked_again_of_the_new_one(tmp_path, model_cache):
    from concurrent.futures import ThreadPoolExecutor

    url = published_hub(tmp_path, SECOND)
    pool = searchers.Searchers(url, 2)
    try:
        first = pool._process.pid
        assert pool("orders", limit=1)["results"]
        with ThreadPoolExecutor(4) as asking:  # in flight as it dies, or asked after: answered either way
            flying = [asking.submit(pool, "where do we keep orders?", limit=1) for _ in range(4)]
            os.kill(first, signal.SIGKILL)
            answers = [f.result(timeout=120) for f in flying]
        assert [a["results"][0]["id"] for a in answers] == ["ADR-0001"] * 4
        assert pool("where do we keep orders?", limit=1)["results"][0]["id"] == "ADR-0001"
        assert pool._process.pid != first
    finally:
        pool.close()
    assert pool._process.exitcode == 0  # told to end, it ended: never killed after waiting


def test_the_search_process_ends_when_the_server_that_started_it_is_killed(pooled, tmp_path):
    url, _pool = pooled
    script = (
        "import sys\nfrom adr_memory.surfaces import searchers\n"
        "pool = searchers.Searchers(sys.argv[1], 2)\npool('orders', limit=1)\n"
        "print(pool._process.pid, flush=True)\nimport time\ntime.sleep(60)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", script, url], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    workers = [int(pid) for pid in server.stdout.readline().split()]
    assert len(workers) == 1
    server.send_signal(signal.SIGKILL)  # killed: no shutdown of its own runs
    server.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie (ended, not yet reaped by init) is gone
        return stat.read().split(") ")[1][0] != "Z"


def test_the_served_hub_searches_through_its_process_and_closes_it_with_itself(pooled):
    import multiprocessing

    url, _pool = pooled
    before = {p.pid for p in multiprocessing.active_children()}
    with hub_client(url, public=True, searching=1) as client:
        answer = client.get("/api/search", params={"q": "where do we keep orders?"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["results"][0]["id"] == "ADR-0001"
        unknown = client.get("/api/search", params={"q": "orders", "repository": "paymnts"})
        assert unknown.status_code == 404
        assert "payments" in unknown.json()["hint"]
        page = client.get("/", params={"q": "where do we keep orders?"})
        assert "Keep orders in PostgreSQL" in page.text
        started = {p.pid for p in multiprocessing.active_children()} - before
        assert len(started) == 1  # the search was answered by the app's own worker
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in started):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in started)


def test_adr_hub_serve_answers_searches_from_its_search_process(pooled):
    """The command as an operator runs it (`python -m adr_memory hub serve`: spawn must start the
    search process without running the command line again), its searches over real HTTP."""
    import socket

    import httpx

    url, _pool = pooled
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "adr_memory", "hub", "serve", "--from", url, "--public", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline, answer = time.monotonic() + 60, None
        while time.monotonic() < deadline and answer is None:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/search", params={"q": "where do we keep orders?"})
            except httpx.HTTPError:
                time.sleep(0.2)
        assert answer is not None and answer.status_code == 200, answer and answer.text
        assert answer.json()["results"][0]["id"] == "ADR-0001"
    finally:
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "Usage:" not in err
