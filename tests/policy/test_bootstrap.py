"""`adr init`: a folder, a first record, a config and the cache ignored, each added only when
missing, and what was there kept byte for byte."""

from __future__ import annotations

import pytest

from adr_memory.history import Workspace
from adr_memory.policy.bootstrap import FIRST_TITLE, init
from tests.helpers import commit


def test_init_makes_a_folder_a_first_record_a_config_and_ignores_the_cache(repo):
    done = init(Workspace.discover(repo))
    assert done.adr_dir == "docs/adr" and done.gitignore_updated and not done.config_updated
    assert done.first_record is not None and done.first_record.parent == repo / "docs/adr"
    (first,) = Workspace.discover(repo).catalog
    assert (first.title, first.status) == (FIRST_TITLE, "accepted")
    assert 'adr-dir = "docs/adr"' in (repo / ".adr-memory.toml").read_text()
    assert (repo / ".gitignore").read_text().endswith(".adr-cache/\n")


def test_init_again_adds_nothing_and_keeps_the_gitignore_as_it_was(repo):
    commit(repo, {".gitignore": "build/\r\n*.pyc"}, "a gitignore without a last newline")
    init(Workspace.discover(repo))
    kept = (repo / ".gitignore").read_bytes()
    assert kept.startswith(b"build/\r\n*.pyc\n# adr-memory cache (disposable)\n")
    again = init(Workspace.discover(repo))
    assert (again.first_record, again.gitignore_updated) == (None, False)
    assert (repo / ".gitignore").read_bytes() == kept
    assert len(Workspace.discover(repo).catalog) == 1


def test_init_into_another_folder_moves_only_the_config_s_adr_dir_line(repo):
    init(Workspace.discover(repo))
    config = repo / ".adr-memory.toml"
    config.write_text(config.read_text() + "# mine\nrequire-status = true\n")
    before = config.read_text()
    moved = init(Workspace.discover(repo, adr_dir="decisions"))
    assert moved.config_updated and (repo / "decisions").is_dir()
    assert config.read_text() == before.replace('adr-dir = "docs/adr"', 'adr-dir = "decisions"')
    assert Workspace.discover(repo).adr_dir == "decisions"


@pytest.mark.parametrize("name", ["tdr", "cometbft", "cloud-platform"])
def test_init_in_a_folder_with_records_keeps_their_style(tmp_path, capsys, monkeypatch, name):
    """`adr init` pinned `template = "madr"` in tdr (`# N. Title` records) and "nygard" in
    cometbft (Tendermint `# ADR N:`), so the next `adr new` wrote unlike its neighbours; without
    `init`, `adr new` matched the folder. The README's first step must keep a folder's style."""
    import shutil

    from tests.helpers import CORPORA, commit, git, run

    made = {}
    for first in (False, True):
        root = tmp_path / f"{name}-{first}"
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        shutil.copytree(CORPORA / name, root / "docs/adr")
        (root / "docs/adr/SOURCE.md").unlink()
        commit(root, {}, "their decisions")
        monkeypatch.chdir(root)
        if first:
            run(capsys, "init")
            assert "\ntemplate = " not in (root / ".adr-memory.toml").read_text()
        path = run(capsys, "new", "Adopt a new release process").out.strip()
        made[first] = (path, (root / path).read_text())
    assert made[True] == made[False]
