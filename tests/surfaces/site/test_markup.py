"""A record's markdown as safe HTML: raw HTML shown as text, only safe link targets kept,
links between records pointed at their pages, nothing fetched from the network."""

from __future__ import annotations

from pathlib import Path

import pytest

from adr_memory.surfaces.site import markup

PAGES = {"docs/adr/0002-use-postgres.md": "decisions/ADR-0002.html"}


def _render(text: str, files: dict[str, Path] | None = None) -> tuple[str, markup.Page]:
    page = markup.Page("docs/adr/0001-x.md", PAGES, "../", lambda rel: (files or {}).get(rel))
    return markup.markdown(text, page), page


def test_raw_html_is_shown_as_text():
    html, _ = _render('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\nHi <b onclick="x()">there</b>')
    assert "<script" not in html and "<img" not in html and "<b " not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    "target",
    ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "vbscript:x", "data:text/html,<b>x</b>"],
)
def test_a_link_that_would_run_something_keeps_its_words_and_loses_its_target(target):
    html, _ = _render(f"[press]({target}) and <{target}>")
    assert "press" in html
    assert "script:" not in html.replace("&lt;", "<").split("press")[0]
    assert 'href="javascript' not in html.lower() and 'href="vbscript' not in html.lower() and 'href="data' not in html


def test_web_and_mail_links_stay_and_do_not_pass_the_referrer_on():
    html, _ = _render("[docs](https://example.org/a?b=1) [mail](mailto:team@example.org)")
    assert '<a href="https://example.org/a?b=1" rel="nofollow noopener">docs</a>' in html
    assert 'href="mailto:team@example.org"' in html


def test_a_link_to_another_record_points_at_its_page():
    html, _ = _render("See [ADR 2](0002-use-postgres.md#consequences) and [it](/docs/adr/0002-use-postgres.md).")
    assert '<a href="../decisions/ADR-0002.html#consequences">ADR 2</a>' in html
    assert '<a href="../decisions/ADR-0002.html">it</a>' in html


def test_a_link_to_a_file_the_site_does_not_carry_keeps_its_words_only():
    html, _ = _render("The [code](../../src/app.py) and [outside](../../../../etc/passwd).")
    assert '<span class="unlinked" title="src/app.py">code</span>' in html
    assert "href" not in html


def test_an_image_from_the_network_becomes_a_link_and_is_not_loaded():
    html, _ = _render("![the diagram](https://example.org/d.png)")
    assert "<img" not in html
    assert '<a href="https://example.org/d.png" rel="nofollow noopener">[image: the diagram]</a>' in html


def test_an_image_the_repository_keeps_is_copied_beside_the_pages(tmp_path):
    picture = tmp_path / "flow.png"
    picture.write_bytes(b"\x89PNG\r\n")
    html, page = _render("![flow](images/flow.png)", {"docs/adr/images/flow.png": picture})
    assert '<img src="../files/docs/adr/images/flow.png" alt="flow" loading="lazy" />' in html
    assert page.copied == {"files/docs/adr/images/flow.png": picture}


def test_an_image_that_is_missing_or_would_run_something_is_named_not_shown():
    html, page = _render("![gone](images/none.png) ![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)")
    assert "<img" not in html and "href" not in html
    assert "[image: gone]" in html and page.copied == {}


def test_tables_and_strikethrough_render():
    html, _ = _render("| a | b |\n|---|---|\n| 1 | ~~2~~ |\n")
    assert "<table>" in html and "<s>2</s>" in html


RST = """\
Use queues
==========

Status
------

Accepted. See `the database <0002-use-postgres.md>`_, `docs <https://example.org>`_ and
`press <javascript:alert(1)>`_; *emphasis* and ``code``.

.. raw:: html

   <script>alert(1)</script>

.. include:: /etc/passwd

.. image:: https://example.org/track.png

- an item
"""


def test_restructured_text_is_rendered_by_docutils_and_cleaned():
    page = markup.Page("docs/adr/0001-x.rst", PAGES, "../", lambda rel: None)
    html = markup.restructured(RST, page)
    assert "<h2>Status</h2>" in html and "Use queues" not in html  # the page's heading says the title
    assert "<em>emphasis</em>" in html and "<code>code</code>" in html and "<li>" in html
    assert '<a href="../decisions/ADR-0002.html" rel="nofollow noopener">the database</a>' in html
    assert '<a href="https://example.org" rel="nofollow noopener">docs</a>' in html
    assert '<a rel="nofollow noopener">press</a>' in html  # the javascript: target is gone, the words stay
    for absent in ("<script", "alert(1)</", "root:", "<img", "example.org/track.png"):
        assert absent not in html, absent


def test_restructured_text_docutils_cannot_read_is_shown_as_written():
    assert markup.preformatted("Title\n=====\n\n<script>x</script>") == (
        '<pre class="source">Title\n=====\n\n&lt;script&gt;x&lt;/script&gt;</pre>'
    )
