from __future__ import annotations

import pytest

from adr_memory.base import config
from adr_memory.errors import ConfigError


def test_defaults_then_pyproject_then_own_file(tmp_path):
    assert config.load(tmp_path) == config.Config()
    (tmp_path / "pyproject.toml").write_text('[tool.adr-memory]\nadr-dir = "decisions"\n')
    assert config.load(tmp_path).adr_dir == "decisions"
    (tmp_path / ".adr-memory.toml").write_text('adr-dir = "docs/adr"\ntemplate = "nygard"\n')
    loaded = config.load(tmp_path)
    assert (loaded.adr_dir, loaded.template, loaded.source) == ("docs/adr", "nygard", ".adr-memory.toml")


@pytest.mark.parametrize(
    "text,needle",
    [
        ("colour = 'blue'\n", "unknown setting 'colour'"),
        ("template = 3\n", "must be text"),
        ("accepted-edits = 'sometimes'\n", "accepted-edits"),
        ("not toml at all\n", "cannot read"),
    ],
)
def test_bad_config_names_the_key(tmp_path, text, needle):
    (tmp_path / ".adr-memory.toml").write_text(text)
    with pytest.raises(ConfigError, match=needle.replace("(", r"\(")):
        config.load(tmp_path)


def test_every_setting_is_documented_in_the_reference():
    from pathlib import Path

    reference = (Path(__file__).parents[2] / "docs/reference.md").read_text()
    for key, _default, doc in config.describe():
        assert f"`{key}`" in reference and doc


def test_the_users_own_config_holds_the_model_and_its_errors_name_the_file(repo, capsys, monkeypatch, tmp_path):
    """`embed-model` is read from ~/.config/adr-memory/config.toml; that file holds nothing else,
    and an error in it names it whole (it is not the repository's)."""
    from tests.helpers import run

    own = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(own))
    (own / "adr-memory").mkdir(parents=True)
    path = own / "adr-memory" / "config.toml"
    path.write_text('embed-model = "/nowhere/model"\n')
    assert config.load(repo).embed_model == "/nowhere/model"
    run(capsys, "init")
    err = run(capsys, "search", "x", "--mode", "semantic", code=2).err
    assert err.splitlines()[1] == f"hint: check embed-model in {path}, or use --mode keyword"
    path.write_text("embed-model = [\n")
    assert run(capsys, "list", code=2).err.splitlines()[1] == f"hint: fix or delete {path}"
    path.write_text('adr-dir = "x"\n')
    assert run(capsys, "list", code=2).err.startswith(f"error: unknown setting 'adr-dir' in {path}")
