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


def _own(tmp_path, text: str):
    (tmp_path / ".adr-memory.toml").write_text(text)
    return config.load(tmp_path)


def test_every_setting_is_read_under_its_dashed_or_underscored_name(tmp_path):
    loaded = _own(
        tmp_path,
        'adr-dir = "decisions"\ncache_dir = ".cache/adr"\ntemplate = "madr"\n'
        'accepted-edits = "warn"\nrequire_status = true\n',
    )
    assert (loaded.adr_dir, loaded.cache_dir, loaded.template, loaded.accepted_edits, loaded.require_status) == (
        "decisions",
        ".cache/adr",
        "madr",
        "warn",
        "true",  # a TOML boolean reads as the choice it names
    )
    assert _own(tmp_path, "require-status = false\n").require_status == "false"


def test_the_own_file_wins_whole_over_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.adr-memory]\ntemplate = "nygard"\nadr-dir = "x"\n')
    loaded = _own(tmp_path, 'cache-dir = ".c"\n')
    assert (loaded.template, loaded.adr_dir, loaded.cache_dir) == ("", None, ".c")  # no merging of the two


def test_a_pyproject_without_our_table_gives_the_defaults(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.ruff]\nline-length = 99\n')
    assert config.load(tmp_path) == config.Config()
    (tmp_path / "pyproject.toml").write_text('[tool]\nadr-memory = "not a table"\n')
    assert config.load(tmp_path) == config.Config()


def test_a_pyproject_error_names_the_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.adr-memory]\ncolour = 1\n")
    with pytest.raises(ConfigError) as refused:
        config.load(tmp_path)
    assert refused.value.message == "unknown setting 'colour' in pyproject.toml [tool.adr-memory]"
    assert refused.value.hint == (
        "known settings: accepted-edits, adr-dir, cache-dir, embed-model, hub-url, require-status, sources, template"
    )


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            "template = 'plain'\n",
            "setting 'template' in .adr-memory.toml is 'plain'",
            "choose one of: madr, nygard",
        ),
        (
            "require-status = 'yes'\n",
            "setting 'require-status' in .adr-memory.toml is 'yes'",
            "choose one of: false, true",
        ),
        ("adr-dir = ['a']\n", "setting 'adr-dir' in .adr-memory.toml must be text", 'write it as adr-dir = "..."'),
        ("sources = 'x'\n", "sources in .adr-memory.toml must be tables", 'write [sources.platform] url = "..."'),
        (
            "[sources.Platform]\nurl = 'u'\n",
            "source name 'Platform' in .adr-memory.toml is not a short lowercase name",
            "e.g. [sources.platform]",
        ),
        (
            "[sources.p]\nref = 'main'\n",
            "[sources.p] in .adr-memory.toml needs a url",
            'url = "https://github.com/acme/architecture"',
        ),
        (
            "[sources.p]\nurl = '   '\n",
            "[sources.p] in .adr-memory.toml needs a url",
            'url = "https://github.com/acme/architecture"',
        ),
        (
            "[sources.p]\nurl = 'u'\nbranch = 'x'\n",
            "[sources.p] in .adr-memory.toml holds branch",
            "a source has url, ref, dir and hub, each text",
        ),
        (
            "[sources.p]\nurl = 'u'\nref = 3\n",
            "[sources.p] in .adr-memory.toml holds a value that is not text",
            "a source has url, ref, dir and hub, each text",
        ),
        (
            "[sources.a]\nurl = 'https://github.com/acme/arch'\n[sources.b]\nurl = 'https://tok@GitHub.com/acme/arch.git/'\n",
            "[sources.b] in .adr-memory.toml names the repository [sources.a] names",
            "keep one of them (adr sources remove b)",
        ),
    ],
)
def test_each_bad_setting_is_one_error_with_its_hint(tmp_path, text, message, hint):
    with pytest.raises(ConfigError) as refused:
        _own(tmp_path, text)
    assert (refused.value.message, refused.value.hint) == (message, hint)


def test_a_repository_may_not_choose_the_users_model_or_hub(tmp_path):
    for key in ("embed-model", "hub_url"):
        with pytest.raises(ConfigError) as refused:
            _own(tmp_path, f'{key} = "x"\n')
        assert refused.value.message.startswith(f"{key} in .adr-memory.toml is not read from a repository: ")
        assert refused.value.hint == f"set it in your own config, {config.user_config_path()}"


def test_sources_are_read_in_order_with_their_defaults(tmp_path):
    loaded = _own(
        tmp_path,
        "[sources.platform]\nurl = ' https://github.com/acme/platform '\n"
        "[sources.api_2]\nurl = 'git@github.com:acme/api.git'\nref = ' v2 '\ndir = 'docs/decisions'\nhub = 'api'\n",
    )
    assert loaded.sources == (
        config.SourceSpec("platform", "https://github.com/acme/platform", "main", "", ""),
        config.SourceSpec("api_2", "git@github.com:acme/api.git", "v2", "docs/decisions", "api"),
    )


@pytest.mark.parametrize(
    ("url", "same"),
    [
        ("https://tok@GitHub.com/acme/arch.git/", "github.com/acme/arch"),
        ("HTTPS://x:y@H.com/a?b=1", "h.com/a"),
        ("git@github.com:acme/arch.git", "github.com/acme/arch"),  # the same repository over SSH
        ("ssh://git@Host:22/a/b.git", "host/a/b"),
        ("/srv/repos/arch.git", "/srv/repos/arch"),
        ("  /srv/repos/arch/  ", "/srv/repos/arch"),
        ("/srv/repos/arch/.git", "/srv/repos/arch"),  # a clone's .git folder is the clone
        ("file:///srv/repos/arch", "/srv/repos/arch"),
        ("file://localhost/srv/repos/arch.git/", "/srv/repos/arch"),
        ("/srv/repos/./arch", "/srv/repos/arch"),
    ],
)
def test_a_repository_url_is_compared_without_credentials_suffix_or_case(url, same):
    assert config.same_repository(url) == same


def test_the_hub_knows_a_source_by_its_urls_last_part_unless_named():
    assert config.SourceSpec("p", "git@github.com:acme/architecture.git").hub_name == "architecture"
    assert config.SourceSpec("p", "https://tok@github.com/acme/arch.git/").hub_name == "arch"
    assert config.SourceSpec("p", "/srv/x/arch").hub_name == "arch"
    assert config.SourceSpec("p", "host:arch").hub_name == "arch"
    assert config.SourceSpec("p", "u", hub="payments").hub_name == "payments"


def test_a_config_file_past_its_cap_or_not_utf8_is_refused_by_name(tmp_path):
    own = tmp_path / ".adr-memory.toml"
    own.write_bytes(b"template = '\xff'\n")
    with pytest.raises(ConfigError, match=r"^cannot read \.adr-memory\.toml: ") as refused:
        config.load(tmp_path)
    assert refused.value.hint == "fix or delete .adr-memory.toml"
    with open(own, "wb") as handle:
        handle.truncate(10_000_001)  # sparse: refused from its size, before a byte is read
    with pytest.raises(ConfigError) as refused:
        config.load(tmp_path)
    assert (
        refused.value.message == "cannot read .adr-memory.toml: it is 10,000,001 bytes (a settings file is under 10 MB)"
    )


def test_the_users_own_settings_default_to_empty_and_are_stripped(tmp_path):
    assert config.user_settings() == {"embed_model": "", "hub_url": ""}
    path = config.user_config_path()
    path.parent.mkdir(parents=True)
    path.write_text('hub_url = "  postgresql://hub  "\n')
    assert config.user_settings() == {"embed_model": "", "hub_url": "postgresql://hub"}
    assert config.load(tmp_path).hub_url == "postgresql://hub"
    path.write_text("hub-url = 5\n")
    with pytest.raises(ConfigError) as refused:
        config.user_settings()
    assert (refused.value.message, refused.value.hint) == (
        f"setting 'hub-url' in {path} must be text",
        'write it as hub-url = "..."',
    )


def test_the_users_config_is_under_xdg_else_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config.user_config_path() == tmp_path / "xdg" / "adr-memory" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config.user_config_path() == tmp_path / "home" / ".config" / "adr-memory" / "config.toml"


def test_the_reference_lists_every_setting_but_where_they_came_from():
    keys = [key for key, _default, _doc in config.describe()]
    assert keys == [
        "adr-dir",
        "cache-dir",
        "template",
        "accepted-edits",
        "require-status",
        "embed-model",
        "hub-url",
        "sources",
    ]
    assert {k: d for k, d, _ in config.describe()}["cache-dir"] == ".adr-cache"
