"""surfaces.pages: the served hub's pages, through Starlette's client and in a real browser:
a token asked for once and kept in a cookie scripts cannot read, the search form answered
without script and as you type with it, and a hostile record's text inert on every page."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from adr_memory.commands import hub
from adr_memory.history import Workspace
from adr_memory.surfaces import server
from tests.helpers import hub_client, hub_with_exception, published_hub, published_on
from tests.hub.conftest import pg_server  # noqa: F401  (the session's PostgreSQL)
from tests.surfaces.site.conftest import browser  # noqa: F401  (the session's Chromium)

HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


EVIL = (f"Evil {HOSTILE}", f"Text {HOSTILE} and [a link](javascript:alert(1)).")


@pytest.fixture
def hub_url(tmp_path, model_cache):
    return published_hub(tmp_path, EVIL)


@pytest.fixture(params=["folder", "postgres"])
def either_hub(request, tmp_path, model_cache):
    """The same hostile hub on each store: every page is rendered from either."""
    return published_on(request, tmp_path, EVIL)


_client = hub_client


def test_the_pages_ask_for_a_token_once_and_keep_it_where_scripts_cannot_read_it(hub_url):
    client = _client(hub_url)
    asked = client.get("/")
    assert asked.status_code == 401 and '<input type="password" name="token"' in asked.text
    assert client.post("/login", data={"token": "adrh_wrong"}).status_code == 401
    token = hub.token_add(hub_url, "people", read=True)["token"]
    logged = client.post("/login", data={"token": token}, follow_redirects=False)
    assert logged.status_code == 303 and logged.headers["location"] == "/"
    cookie = logged.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    home = client.get("/")  # the repositories, each a page of its decisions
    assert home.status_code == 200 and '<a href="/r/payments">payments</a>' in home.text
    assert "Keep orders in PostgreSQL" in client.get("/r/payments").text
    assert '<a href="/logout">Log out</a>' in home.text
    out = client.get("/logout", follow_redirects=False)
    assert (
        out.status_code == 303
        and out.headers["location"] == "/login"
        and 'adr_hub_token=""' in out.headers["set-cookie"]
    )
    assert client.get("/").status_code == 401  # asked again
    landed = client.get("/logout")  # where "Log out" lands, followed: the login page (it was a 500)
    assert landed.status_code == 200 and 'name="token"' in landed.text and 'name="next"' not in landed.text
    back = client.get("/login", params={"next": "/timeline"})
    assert back.status_code == 200 and '<input type="hidden" name="next" value="/timeline">' in back.text
    away = client.get("/login", params={"next": "//evil.example/x"})
    assert away.status_code == 200 and 'value="//evil' not in away.text
    client.post("/login", data={"token": token})
    hub.token_revoke(hub_url, "people")
    assert client.get("/").status_code == 401


def test_a_login_returns_to_the_page_that_asked_and_never_to_another_site(hub_url):
    client = _client(hub_url)
    asked = client.get("/r/payments", params={"q": "orders"})
    assert asked.status_code == 401
    assert '<input type="hidden" name="next" value="/r/payments?q=orders">' in asked.text
    token = hub.token_add(hub_url, "people", read=True)["token"]
    wrong = client.post("/login", data={"token": "adrh_wrong", "next": "/r/payments?q=orders"})
    assert wrong.status_code == 401 and 'name="next" value="/r/payments?q=orders"' in wrong.text  # kept for the retry
    logged = client.post("/login", data={"token": token, "next": "/r/payments?q=orders"}, follow_redirects=False)
    assert logged.status_code == 303 and logged.headers["location"] == "/r/payments?q=orders"
    for elsewhere in ("//evil.example/x", "/\\evil.example", "https://evil.example/", "evil", "/a\r\nSet-Cookie: x=1"):
        sent = client.post("/login", data={"token": token, "next": elsewhere}, follow_redirects=False)
        assert sent.status_code == 303 and sent.headers["location"] == "/", elsewhere
    hostile = _client(hub_url).get('/r/"><script>x</script>')  # no token: the login page, naming the path
    assert (
        hostile.status_code == 401 and "<script>x</script>" not in hostile.text
    )  # the path is escaped in the hidden field


def test_search_is_answered_by_the_server_and_every_page_holds_a_record_s_text_inert(either_hub):
    client = _client(either_hub, public=True)
    found = client.get("/", params={"q": "where do orders live"})
    assert '<a href="/d/payments/ADR-0001">payments ADR-0001: Keep orders in PostgreSQL</a>' in found.text
    for path in ("/", "/r/payments", "/d/payments/ADR-0002", "/timeline", "/stale", "/conflicts", "/exceptions"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert "<script>window.pwned" not in page.text and "<img src=x" not in page.text, path
        assert "script-src 'self'" in page.headers["content-security-policy"]
    decision = client.get("/d/payments/ADR-0002").text
    assert "&lt;script&gt;" in decision and 'href="javascript' not in decision
    assert client.get("/d/payments/ADR-0009").status_code == 404
    assert client.get("/assets/../server.py").status_code == 404


@pytest.fixture
def live(hub_url):
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    running = uvicorn.Server(uvicorn.Config(server.build(hub_url, public=True), port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


def test_the_search_form_in_chromium_without_script_and_as_you_type_with_it(live, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(live + "/")
        box = browser.find_element(By.ID, "q")
        box.send_keys("where do orders live")
        box.submit()
        WebDriverWait(browser, 20).until(lambda b: "q=" in b.current_url)
        first = browser.find_element(By.CSS_SELECTOR, "#results li a")
        assert first.text == "payments ADR-0001: Keep orders in PostgreSQL"
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(live + "/")
    browser.find_element(By.ID, "q").send_keys("where do orders live")
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#results li a"))
    assert browser.find_element(By.CSS_SELECTOR, "#results li a").text == "payments ADR-0001: Keep orders in PostgreSQL"
    assert browser.current_url == live + "/"  # answered in place, by the script
    browser.get(live + "/d/payments/ADR-0002")
    assert browser.execute_script("return window.pwned === undefined")


def test_a_record_holding_only_its_id_is_shown_not_a_500(hub_url):
    """A publish over HTTP is checked for ids; a page read every other field as present."""
    from adr_memory.hub import Snapshot

    hub.open_hub(hub_url).publish(Snapshot("minimal", None, None, [{"id": "ADR-0001"}], [], None))
    client = _client(hub_url, public=True)
    for path in ("/", "/r/minimal", "/d/minimal/ADR-0001"):
        assert client.get(path).status_code == 200, path


def test_a_decision_page_shows_its_links_both_ways(tmp_path, model_cache):
    from tests.helpers import adr_text, service

    root = service(
        tmp_path / "shop",
        "shop",
        {
            "docs/adr/0001-a.md": adr_text("Use MySQL", status="superseded", extra="superseded-by: [ADR-0002]"),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", extra="supersedes: [ADR-0001]"),
            "docs/adr/0003-c.md": adr_text("Pool connections", extra="relates-to: [ADR-0002]"),
        },
    )
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    client = _client(url, public=True)
    old = client.get("/d/shop/ADR-0001").text
    assert 'superseded-by <a href="/d/shop/ADR-0002">ADR-0002</a>' in old
    assert "this, says" not in old  # both records state it: listed once
    new = client.get("/d/shop/ADR-0002").text  # ADR-0003 alone states its link: shown from this side too
    assert 'this, says <a href="/d/shop/ADR-0003">ADR-0003</a>' in new


def test_a_decision_page_compares_any_two_versions_without_script_and_lists_exceptions(tmp_path, capsys, model_cache):
    """The decision page's form asks the server for the changes between two versions; what a
    version says is text on the page, never markup; the exceptions have a page of their own."""
    url = hub_with_exception(tmp_path, capsys, later=f"Orders live in PostgreSQL 16. {HOSTILE}")
    client = _client(url, public=True)
    page = client.get("/d/shop/ADR-0001").text
    newest, oldest = (v["version_id"] for v in hub.shown(url, "shop", "1")["versions"])
    assert '<form class="compare" action="#diff" method="get">' in page
    assert f'<option value="{oldest}" selected>' in page and "diff-out" not in page  # asked for nothing yet
    compared = client.get("/d/shop/ADR-0001", params={"from": oldest, "to": newest})
    assert compared.status_code == 200 and '<span class="del">-Orders live in MySQL 8.</span>' in compared.text
    assert "+Orders live in PostgreSQL 16. &lt;script&gt;window.pwned=1&lt;/script&gt;" in compared.text
    assert "<script>window.pwned" not in compared.text and "<img src=x" not in compared.text
    unknown = client.get("/d/shop/ADR-0001", params={"from": "nope"})
    assert unknown.status_code == 200 and "&#39;nope&#39; is no version of ADR-0001" in unknown.text
    accepted = client.get("/d/shop/ADR-0002").text  # who changed its status, and why
    assert "<h2>Status history</h2>" in accepted and "proposed → accepted" in accepted
    assert "the bus team agreed" in accepted
    assert (
        'href="/d/architecture/ADR-0001">platform:ADR-0001</a>' in accepted
    )  # the source's decision, in its repository
    ruled = client.get("/d/architecture/ADR-0001").text
    assert "<h2>Rules</h2>" in ruled and "<li>forbid: import boto3 (events go on Kafka)</li>" in ruled
    exceptions = client.get("/exceptions")
    assert exceptions.status_code == 200 and '<a href="/exceptions" aria-current="page">' in exceptions.text
    assert '<a href="/d/architecture/ADR-0001">architecture ADR-0001</a>' in exceptions.text
    assert '<a href="/d/shop/ADR-0002">shop ADR-0002</a>' in exceptions.text


def test_a_page_that_does_not_exist_carries_the_headers_every_page_does(hub_url):
    """`/nope` answered plain text without the content security policy or nosniff."""
    missing = _client(hub_url).get("/nope")
    assert missing.status_code == 404 and missing.text == "no such endpoint"
    assert missing.headers["content-security-policy"].startswith("default-src 'none'")
    assert missing.headers["x-content-type-options"] == "nosniff"


def test_the_timeline_page_takes_since_as_the_api_does(hub_url):
    client = _client(hub_url, public=True)
    every = client.get("/timeline")
    assert every.status_code == 200 and "/d/payments/ADR-0001" in every.text
    later = client.get("/timeline", params={"since": "2999-01-01"})
    assert later.status_code == 200 and "/d/payments/ADR-0001" not in later.text and "No events yet." in later.text
    wrong = client.get("/timeline", params={"since": "yesterday"})
    assert wrong.status_code == 400 and "YYYY-MM-DD" in wrong.text


def test_a_low_confidence_answer_is_said_on_the_page_as_in_the_terminal(hub_url):
    client = _client(hub_url, public=True)
    candidates = ["postgres version", "which queue", "x", "orders storage version"]  # near one record, weakly
    answers = {q: client.get("/api/search", params={"q": q}).json() for q in candidates}
    low = [q for q, a in answers.items() if not a["no_strong_match"] and a["confidence"] == "low"]
    assert low, {q: a["confidence"] for q, a in answers.items()}
    page = client.get("/", params={"q": low[0]}).text
    assert '<p class="weak">Low confidence: check the record before you rely on it.</p>' in page
    sure = client.get("/", params={"q": "where do we keep orders? PostgreSQL"}).text
    assert "Low confidence" not in sure and "Keep orders in PostgreSQL" in sure
