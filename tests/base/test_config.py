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
