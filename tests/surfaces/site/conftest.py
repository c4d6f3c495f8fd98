"""Sites built once per module from real repositories: a shared folder, this project's own
decisions, and a hostile one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import CORPORA, adr_text, commit, git

ROOT = Path(__file__).parents[3]
# Where each shared folder lives in a repository of its own, as its project keeps it.
HOMES = {"cloud-platform": "architecture-decision-record", "cometbft": "docs/architecture", "tdr": "docs/adr"}
SECRET = "AKIA" + "ABCDEFGHIJKLMNOP"  # an AWS key id `adr check` flags; never in a page
HOSTILE_TITLE = '<img src=x onerror="window.__ran=1">Use <b>bold</b> ideas'
HOSTILE_BODY = """\
<script>window.__ran = 2</script>

[press me](javascript:window.__ran=3) and <javascript:window.__ran=4>

<iframe src="https://example.org"></iframe> <svg onload="window.__ran=5"></svg>

![x](https://example.org/track.png) ![y](x" onerror="window.__ran=6)

[tag](x.md "title\\" onmouseover=\\"window.__ran=7")

![evil](evil.svg) ![plain](plain.svg)
"""
EVIL_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__ran=8">'
    "<script>window.__ran=9</script><rect width='10' height='10'/></svg>"
)
PLAIN_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'
LONG_ID = "ADR-" + "9" * 296  # a frontmatter id longer than a file name may be


def git_repo(root: Path) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    return root


def shared(root: Path, name: str) -> Path:
    """A shared folder committed in a fresh repository, unmodified."""
    git_repo(root)
    shutil.copytree(CORPORA / name, root / HOMES[name])
    (root / HOMES[name] / "SOURCE.md").unlink()
    commit(root, {}, name)
    return root


def hostile(root: Path) -> Path:
    """Records whose title, body, tags and history try to run script, and hold a secret."""
    git_repo(root)
    first = adr_text("Keep tokens safe", body=f"The deploy key is {SECRET} for now.")
    commit(root, {"docs/adr/0001-keep-tokens-safe.md": first}, f"add the key {SECRET}")
    commit(
        root,
        {
            "docs/adr/0001-keep-tokens-safe.md": adr_text("Keep tokens safe", body="Keys live in the vault."),
            "docs/adr/0002-hostile.md": adr_text(
                HOSTILE_TITLE, extra='tags: ["<script>x</script>", "ok"]\nsupersedes: ["ADR-0001"]', body=HOSTILE_BODY
            ),
            "docs/adr/evil.svg": EVIL_SVG,
            "docs/adr/plain.svg": PLAIN_SVG,
            "docs/adr/0003-long-id.md": adr_text("A long id", extra=f"id: {LONG_ID}"),
        },
        "a hostile record",
    )
    return root


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    """name -> the folder `adr site` wrote, for every shared folder, this repository and a hostile one."""
    from adr_memory.surfaces.cli import main

    made = tmp_path_factory.mktemp("sites")
    sources = {name: shared(made / "src" / name, name) for name in HOMES}
    sources["hostile"] = hostile(made / "src" / "hostile")
    out = {}
    import os

    here = os.getcwd()
    try:
        for name, root in [*sources.items(), ("own", ROOT)]:
            os.chdir(root)
            assert main(["site", "--out", str(made / "out" / name)]) == 0
            out[name] = made / "out" / name
    finally:
        os.chdir(here)
    return out


def _browser_missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for tool in ("chromium", "chromedriver"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven through WebDriver: one for the whole run. Without
    it the browser tests skip and say why, except in CI, where a missing browser fails them."""
    import os

    missing = _browser_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
