"""The built site in a real browser (headless Chromium), opened from disk and served under a
sub-path: the home page lists and filters, search finds from the box and from `?q=`, every
page loads its own assets and nothing else, the graph has a node per decision, the version
diff works, and a hostile record runs nothing."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.surfaces.site.pages import local_targets

pytestmark = pytest.mark.usefixtures("sealed")


def _open(browser, page: Path, query: str = "") -> None:
    browser.get(page.as_uri() + query)
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def _visible_rows(browser) -> list[str]:
    return [
        r.get_attribute("data-status")
        for r in browser.find_elements(By.CSS_SELECTOR, "table.decisions tbody tr")
        if r.is_displayed()
    ]


def _errors(browser) -> list[str]:
    """What the page's console reported at error level: a blocked asset, a script error, a CSP refusal."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_the_home_page_lists_every_record_and_filters_by_status(browser, sites):
    site = sites["cometbft"]
    _open(browser, site / "index.html")
    records = len(list((site / "decisions").glob("*.html")))
    assert len(_visible_rows(browser)) == records == 93
    browser.find_element(By.CSS_SELECTOR, '.counts button[data-status="rejected"]').click()
    shown = _visible_rows(browser)
    assert shown and set(shown) == {"rejected"}
    assert browser.find_element(By.ID, "f-shown").text == f"{len(shown)} of {records} shown"
    assert "status=rejected" in browser.current_url  # a filtered list is a link to share
    _open(browser, site / "index.html", "?status=rejected&sort=date")
    assert len(_visible_rows(browser)) == len(shown)
    dates = [
        r.get_attribute("data-date") for r in browser.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()
    ]
    assert dates == sorted(dates, reverse=True)
    assert _errors(browser) == []


def test_search_finds_the_decision_from_the_box_and_from_the_address(browser, sites):
    site = sites["cometbft"]
    _open(browser, site / "index.html")
    box = browser.find_element(By.CSS_SELECTOR, "form.find input")
    box.send_keys("unconditional peer ids", Keys.ENTER)  # the header's box opens the search page
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li a"))
    first = browser.find_element(By.CSS_SELECTOR, "#results li a")
    assert "Trusted Peering" in first.text or "trusted peering" in first.text.lower()
    assert "q=unconditional+peer+ids" in browser.current_url
    _open(browser, site / "search.html", "?q=double_sign_check_height")
    first = browser.find_element(By.CSS_SELECTOR, "#results li a")
    assert "Double Signing" in first.text or "double signing" in first.text.lower()
    first.click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "article.decision h1"))
    assert "Double" in browser.find_element(By.CSS_SELECTOR, "article.decision h1").text
    _open(browser, site / "search.html", "?q=zzzunheardof")
    assert browser.find_element(By.ID, "said").text == "Nothing matches “zzzunheardof”."


@pytest.mark.parametrize("name", ["cloud-platform", "cometbft", "tdr", "own"])
def test_the_home_page_and_the_graph_show_every_decision_of_each_folder(browser, sites, name):
    site = sites[name]
    decisions = len(list((site / "decisions").glob("*.html")))
    _open(browser, site / "index.html")
    assert len(_visible_rows(browser)) == decisions
    _open(browser, site / "graph.html")
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.graph a.node")) == decisions
    if name != "cometbft":  # its records name no other record in a form that is read as a link
        assert browser.find_elements(By.CSS_SELECTOR, "svg.graph g.edges path")
    assert _errors(browser) == []


def test_every_kind_of_page_loads_its_assets_and_nothing_else_from_disk(browser, sites):
    site = sites["tdr"]
    decisions = sorted((site / "decisions").glob("*.html"))
    for page in [*site.glob("*.html"), decisions[0], decisions[len(decisions) // 2], decisions[-1]]:
        _open(browser, page)
        assert _errors(browser) == [], page.name
        header = browser.find_element(By.CSS_SELECTOR, "header.top")
        assert header.value_of_css_property("display") == "flex", f"{page.name}: the stylesheet did not load"
    used = {t for page in site.rglob("*.html") for t in local_targets(page)}
    assert any(t.endswith("site.js") for t in used)


def test_the_version_diff_compares_any_two_versions(browser, sites):
    page = sites["hostile"] / "decisions" / "ADR-0001.html"
    _open(browser, page)
    out = browser.find_element(By.CSS_SELECTOR, "#diff pre")
    WebDriverWait(browser, 5).until(lambda d: out.text)
    added = [s.text for s in out.find_elements(By.CSS_SELECTOR, "span.ins")]
    removed = [s.text for s in out.find_elements(By.CSS_SELECTOR, "span.del")]
    assert "+ Keys live in the vault." in added and any("REDACTED" in r for r in removed)
    Select(browser.find_element(By.ID, "from")).select_by_index(0)
    assert browser.find_element(By.CSS_SELECTOR, "#diff pre").text == "no differences"


def test_a_hostile_record_runs_nothing(browser, sites):
    site = sites["hostile"]
    for page in ["decisions/ADR-0002.html", "index.html", "timeline.html", "graph.html", "search.html?q=bold"]:
        name, _, query = page.partition("?")
        _open(browser, site / name, "?" + query if query else "")
        for link in browser.find_elements(By.CSS_SELECTOR, ".body span.unlinked"):
            link.click()  # a link that lost its javascript: target does nothing when pressed
        hrefs = browser.execute_script(
            "return Array.from(document.querySelectorAll('a'), a => new URL(a.getAttribute('href'), document.baseURI).href)"
        )
        assert all(h.startswith(("file:", "https://example.org/")) for h in hrefs), hrefs
        assert browser.execute_script("return window.__ran === undefined")
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text  # noqa: B018 - reading it is the check
        assert browser.current_url.startswith((site / name).as_uri())
    text = browser.execute_script("return document.body.innerText")
    assert "Use <b>bold</b> ideas" in text  # the search result shows the hostile title as text


def test_a_record_s_script_bearing_svg_is_not_published_and_a_long_id_gets_a_page(browser, sites):
    """An SVG opened from the site runs in its origin: only an inert one is copied. A 300-letter
    id once stopped the whole build (a file name too long)."""
    site = sites["hostile"]
    assert not (site / "files/docs/adr/evil.svg").exists()
    plain = site / "files/docs/adr/plain.svg"
    assert plain.is_file()
    _open(browser, site / "decisions/ADR-0002.html")
    assert "[image: evil]" in browser.execute_script("return document.body.innerText")
    _open(browser, plain)
    assert browser.execute_script("return window.__ran === undefined")
    pages = [p.name for p in (site / "decisions").glob("*.html")]
    long_page = next(name for name in pages if name.startswith("ADR-999"))
    assert len(long_page) <= 100
    _open(browser, site / "decisions" / long_page)
    assert "A long id" in browser.execute_script("return document.body.innerText")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def served(sites):
    """The sites served by a plain static web server, each under a sub-path of its own."""
    root = next(iter(sites.values())).parent
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_it_works_served_from_a_sub_path(browser, served):
    browser.get(f"{served}/own/search.html?q=tantivy")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li a"))
    link = browser.find_element(By.CSS_SELECTOR, "#results li a")
    link.click()
    WebDriverWait(browser, 10).until(lambda d: "/own/decisions/" in d.current_url)
    browser.find_element(By.LINK_TEXT, "Decisions").click()
    assert browser.current_url == f"{served}/own/index.html"
    assert _errors(browser) == []
