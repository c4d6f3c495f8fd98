"""`adr hub site`: every repository's decisions as one static site from the hub, each page linking
back to its file in its repository; record text escaped, the remote's credentials never shown."""

from __future__ import annotations

import html
import json
import re

from adr_memory.hub.snapshot import web_url
from tests.helpers import adr_text, git, run, service


def test_the_organisation_as_one_site(tmp_path, capsys, monkeypatch, model_cache):
    hostile = adr_text("Take payments", body="<script>alert(1)</script> and [a link](javascript:alert(1)).")
    payments = service(tmp_path / "payments", "payments", {"docs/adr/0001-pay.md": hostile})
    search = service(tmp_path / "search", "search", {"docs/adr/0001-kafka.md": adr_text("Use Kafka")})
    hub = str(tmp_path / "hub")
    run(capsys, "hub", "init", "--to", hub)
    for root in (payments, search):
        monkeypatch.chdir(root)
        run(capsys, "hub", "publish", "--to", hub)
    monkeypatch.chdir(tmp_path)
    said = run(capsys, "hub", "site", "--from", hub, "--out", str(tmp_path / "site")).out
    assert said.startswith("wrote 2 decisions of 2 repositories, 5 pages")
    site = tmp_path / "site"
    index = (site / "index.html").read_text()
    assert "Take payments" in index and "Use Kafka" in index
    (own,) = [p for p in (site / "repositories").iterdir() if p.name.startswith("payments-")]
    assert "Take payments" in own.read_text() and "Use Kafka" not in own.read_text()  # the filter
    (page,) = (site / "decisions").glob("payments-*/*.html")
    shown = page.read_text()
    sha = git(payments, "rev-parse", "HEAD")
    assert f'href="https://github.com/acme/payments/blob/{sha}/docs/adr/0001-pay.md"' in shown
    assert "<script>alert" not in shown and "&lt;script&gt;" in shown and 'href="javascript' not in shown
    everything = "".join(p.read_text() for p in site.rglob("*.html"))
    assert "s3cr3tT0ken" not in everything and "ci-token" not in everything
    assert "<script" not in everything  # the pages run no script
    assert re.search(r'href="\.\./\.\./assets/site\.css"', shown) and (site / "assets/site.css").is_file()
    versions = json.loads(run(capsys, "hub", "show", "payments", "1", "--from", hub, "--json").out)["versions"]
    assert html.escape(versions[0]["author"]) in shown  # who wrote each version


def test_a_repository_page_on_its_host_from_its_remote():
    assert web_url("git@github.com:acme/payments.git") == "https://github.com/acme/payments"
    assert web_url("https://u:p@gitlab.example.org/team/x.git") == "https://gitlab.example.org/team/x"
    assert web_url("ssh://git@git.example.org:22/team/x.git") == "https://git.example.org/team/x"
    assert web_url("/srv/git/x") is None and web_url("file:///tmp/x") is None and web_url(None) is None


def test_a_folder_of_someone_s_files_is_never_replaced(tmp_path, capsys):
    hub = str(tmp_path / "hub")
    run(capsys, "hub", "init", "--to", hub)
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("keep me")
    failed = run(capsys, "hub", "site", "--from", hub, "--out", str(mine), code=2)
    assert failed.err.startswith(f"error: {mine} holds files adr did not write")
    assert (mine / "todo.txt").read_text() == "keep me"
    run(capsys, "hub", "site", "--from", hub, "--out", str(tmp_path / "site"))
    run(capsys, "hub", "site", "--from", hub, "--out", str(tmp_path / "site"))  # its own site: replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hub", "notes", "site"]  # nothing left beside
