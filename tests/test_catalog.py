from __future__ import annotations

import shutil

from adr_memory import catalog
from tests.helpers import CORPORA, write


def test_locate_order_flag_then_adr_dir_file_then_conventional_then_default(tmp_path):
    assert catalog.locate(tmp_path, None) == ("docs/adr", "default")
    (tmp_path / "docs/decisions").mkdir(parents=True)
    assert catalog.locate(tmp_path, None) == ("docs/decisions", "found")
    (tmp_path / "doc/adr").mkdir(parents=True)
    assert catalog.locate(tmp_path, None) == ("doc/adr", "found")
    (tmp_path / ".adr-dir").write_text("architecture/adr\n")
    assert catalog.locate(tmp_path, None) == ("architecture/adr", ".adr-dir")
    assert catalog.locate(tmp_path, "x/y/") == ("x/y", "configured")


def test_only_numbered_files_are_records_and_nested_folders_are_read(tmp_path):
    write(tmp_path, {
        "docs/adr/0001-a.md": "# A\n", "docs/adr/README.md": "# index\n",
        "docs/adr/index.md": "# i\n", "docs/adr/template.md": "# t\n",
        "docs/adr/templates/template.md": "# NUMBER. TITLE\n", "docs/adr/notes.md": "# n\n",
        "docs/adr/sub/adr-012-b.md": "# ADR 012: B\n", "docs/adr/0002-c.txt": "x",
    })
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert [(r.id, r.title) for r in cat] == [("ADR-0001", "A"), ("ADR-0012", "B")]


def test_ids_resolve_in_every_form(tmp_path):
    write(tmp_path, {"docs/adr/0007-x.md": "# X\n"})
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    for form in ("7", "0007", "ADR-7", "ADR-0007", "adr-0007", "0007-x.md"):
        assert cat.get(form).id == "ADR-0007"
    assert cat.find("8") is None


def test_every_shared_corpus_folder_lists_every_record(tmp_path):
    for name, count in (("cloud-platform", 49), ("cometbft", 93)):
        shutil.copytree(CORPORA / name, tmp_path / name)
        cat = catalog.read_worktree(tmp_path, name)
        assert len(cat) == count
        assert all(r.title and r.status_text is not None for r in cat)
