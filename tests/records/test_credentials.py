"""A planted credential appears in no output of any command; `adr check` names file and line."""

from __future__ import annotations

import json

import hypothesis
import pytest
from hypothesis import strategies as st

from adr_memory.history.workspace import Workspace
from adr_memory.records import credentials
from adr_memory.surfaces import mcp as mcp_server
from tests.helpers import adr_text, commit, git, run

AWS = "AKIAZ7Q4XK2M9P3LR8TW"
PASSWORD = "Tr0ub4dor-and-3"
KEY_LINE = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"

SECRET_ADR = f"""---
status: accepted
governs: ["src/db/**"]
---
# Connect to the billing database

## Context

The billing database lives in the shared VPC.

## Decision

Connect with the service account. The password is {PASSWORD} for now.
Deploy key id {AWS} is used by the pipeline.

## Consequences

-----BEGIN RSA PRIVATE KEY-----
{KEY_LINE}
-----END RSA PRIVATE KEY-----
"""


@pytest.mark.parametrize(
    "text,expected",
    [
        (f"aws {AWS}", "an AWS access key id"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "a private key block"),
        ("password: s3cretValue99", "a password"),
        ("the password is hunter22x", "a password"),
        ("ghp_" + "a1" * 18, "a GitHub token"),
        ("xoxb-1234567890-abcdef", "a Slack token"),
    ],
)
def test_patterns(text, expected):
    assert [h.what for h in credentials.scan(text)] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "we rotate the password monthly",
        "password: <your password>",
        "password: ${DB_PASSWORD}",
        "api_key: changeme",
        "secret: example",
    ],
)
def test_prose_and_placeholders_are_not_flagged(text):
    assert list(credentials.scan(text)) == []


def _every_output(repo, capsys) -> str:
    """What every read command and MCP tool prints about the repository, joined."""
    outputs = []
    for args in (
        ["list", "--json"],
        ["list"],
        ["show", "1"],
        ["show", "1", "--json"],
        ["search", "billing database password", "--json"],
        ["search", "deploy key id pipeline", "--mode", "keyword", "--json"],
        ["why", "src/db/a.py"],
        ["guard", "src/db/a.py", "--json"],
        ["diff", "1"],
        ["log", "1", "--json"],
        ["log", "1"],
        ["review", "--base", "main"],
        ["export", "--format", "json"],
        ["export", "--format", "jsonl"],
        ["export", "--format", "md"],
        ["generate", "toc"],
        ["generate", "graph"],
        ["stale", "--json"],
        ["stale", "--all"],
        ["check", "--format", "json"],
        ["check"],
        ["check", "--format", "github"],
        ["check", "--base", "main", "--format", "markdown"],
    ):
        r = run(capsys, *args, code=None)
        assert r.code in (0, 1), (args, r.err)
        outputs.append(r.out + r.err)
    ws = Workspace.discover(repo)
    outputs.append(mcp_server.tool("get")(ws, ["ADR-0001"]))
    outputs.append(mcp_server.tool_search(ws, "billing password"))
    outputs.append(mcp_server.tool_guard(ws, ["src/db/a.py"]))
    outputs.append(mcp_server.tool("timeline")(ws, "ADR-0001"))
    outputs.append(mcp_server.tool_stale(ws))
    return "\n".join(outputs)


def test_planted_secret_appears_in_no_output(repo, capsys, model_cache):
    commit(
        repo, {"docs/adr/0001-billing.md": adr_text("Billing", body="Connect with a role."), "src/db/a.py": "1"}, "base"
    )
    git(repo, "checkout", "-q", "-b", "leak")
    commit(repo, {"docs/adr/0001-billing.md": SECRET_ADR, "src/db/a.py": "2"}, "oops")
    result = run(capsys, "check", code=1)
    assert "docs/adr/0001-billing.md:13: error: secret: this line looks like a password" in result.out
    assert "docs/adr/0001-billing.md:14: error: secret: this line looks like an AWS access key id" in result.out
    everything = result.out + result.err + _every_output(repo, capsys)
    for secret in (AWS, PASSWORD, KEY_LINE, KEY_LINE[:30]):
        assert secret not in everything
    assert "[REDACTED: this section contains" in everything
    index = (repo / ".adr-cache/index/current/meta.json").read_text()
    assert AWS not in index and PASSWORD not in index
    record = json.loads(mcp_server.tool("get")(Workspace.discover(repo), ["ADR-0001"]))["records"][0]
    assert record["sections"][0]["text"].startswith("The billing database")  # clean sections stay


SHORT = "hunter2"


@pytest.mark.parametrize(
    "field,text",
    [
        ("title", f"---\nstatus: accepted\ntitle: 'Billing password: {SHORT}'\ngoverns: [src/db/**]\n---\n# Billing\n"),
        ("tags", f"---\nstatus: accepted\ntags: ['password={SHORT}']\ngoverns: [src/db/**]\n---\n# Billing\n"),
        ("heading", f"---\nstatus: accepted\ngoverns: [src/db/**]\n---\n# Billing\n\n## Password: {SHORT}\n\nText.\n"),
        ("other key", f"---\nstatus: accepted\nowner: 'db password = {SHORT}'\ngoverns: [src/db/**]\n---\n# Billing\n"),
        (
            "review note",
            f"---\nstatus: accepted\ngoverns: [src/db/**]\nreviewed: {{commit: abc, note: 'pwd: {SHORT}'}}\n---\n# Billing\n",
        ),
        ("nygard status", f"# 1. Billing\n\n## Status\n\nAccepted, password: {SHORT}\n\n## Context\n\nc\n"),
        ("short body password", f"---\nstatus: accepted\n---\n# Billing\n\nThe password: {SHORT}\n"),
        ("introduction", f"---\nstatus: accepted\n---\n# Billing\n\nThe password: {SHORT}\n\n## Context\n\nc\n"),
        # A bare key holds it: judged by key and value together, never apart.
        ("frontmatter key", f"---\nstatus: accepted\npassword: {SHORT}Fm9\n---\n# Billing\n"),
        ("env name", f"---\nstatus: accepted\n---\n# Billing\n\n## Context\n\nrun with DB_PASSWORD={SHORT}\n"),
        ("pg env", f"---\nstatus: accepted\n---\n# Billing\n\n## Context\n\nPGPASSWORD={SHORT} psql\n"),
        ("compose", f"---\nstatus: accepted\n---\n# Billing\n\n## Context\n\n    POSTGRES_PASSWORD: {SHORT}\n"),
    ],
)
def test_a_credential_in_any_field_is_flagged_and_never_printed(repo, capsys, model_cache, field, text):
    commit(repo, {"docs/adr/0001-billing.md": adr_text("Billing"), "src/db/a.py": "1"}, "base")
    git(repo, "checkout", "-q", "-b", "leak")
    commit(repo, {"docs/adr/0001-billing.md": text, "src/db/a.py": "2"}, "oops")
    result = run(capsys, "check", code=1)
    assert "error: secret: this line looks like a password" in result.out, field
    assert SHORT not in _every_output(repo, capsys) + result.out + result.err
    assert SHORT not in (repo / ".adr-cache/index/current/meta.json").read_text()


@pytest.mark.parametrize(
    "text",
    [
        "the password is stored in Vault",
        "password: required",
        "set a password: see the runbook",
        "api_key = ${API_KEY}",
    ],
)
def test_prose_about_passwords_is_not_flagged(text):
    assert list(credentials.scan(text)) == []


_PIECES = [
    "password",
    "PASSWD",
    "ſecret",
    "apı_key",
    "access-token",
    "pwd",
    " is ",
    ":",
    "=",
    "\xa0",
    "\u3000",
    " ",
    "\n",
    '"',
    "`",
    "hunter22",
    "Zx9kk3lmn0",
    "AKIA",
    "Z7Q4XK2M9P3LR8TW",
    "é",
    "ghp_",
    "a" * 36,
    "xoxb-",
    "glpat-",
    "AIza",
    "sk-live_",
    "-----BEGIN ",
    "PRIVATE KEY-----",
    "İ",
    "K",
    "\udcff",
]


@hypothesis.given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.example("xoxb-xoxb-xoxb-é")  # a token Python's `\b` ends before a letter and RE2's did not
def test_the_one_pass_filter_misses_nothing_a_pattern_finds(text):
    """The RE2 filter decides that most text holds nothing: wherever one of the patterns
    (Python's, with Unicode spaces and case) matches, it must match too."""
    if any(pattern.search(text) for _what, pattern in credentials._PATTERNS):
        assert credentials._may_hold(text), repr(text)


KEY_BODY = [
    f"MII{n:02d}" + "QwIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVT"[n:] + f"{n:02d}" for n in range(18)
]


def _key_record(lines, key_at="## Consequences\n\n"):
    block = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *lines, "-----END RSA PRIVATE KEY-----"])
    return f"---\nstatus: accepted\n---\n# Billing\n\n## Decision\n\nUse it.\n\n{key_at}{block}\n"


def test_a_diff_of_one_line_inside_a_key_block_prints_no_line_of_it(repo, capsys):
    """The hunk around line 10 of a 20-line key holds lines 7-13 and no `BEGIN`: redacted by
    what either version held, in `adr diff`, the review CI posts, and MCP's timeline."""
    commit(repo, {"docs/adr/0001-billing.md": _key_record(KEY_BODY), "src/a.py": "1"}, "base")
    git(repo, "checkout", "-q", "-b", "rotate")
    rotated = [*KEY_BODY[:9], "MIIrotatedLineOfTheKeyNowDifferentAAAAAAAAAAAAAAAAAAAAAAAA", *KEY_BODY[10:]]
    commit(repo, {"docs/adr/0001-billing.md": _key_record(rotated)}, "rotate")
    shown = run(capsys, "diff", "1").out + run(capsys, "review", "--base", "main").out
    shown += run(capsys, "review", "--base", "main", "--format", "json").out
    shown += mcp_server.tool("timeline")(Workspace.discover(repo), "ADR-0001")
    for line in [*KEY_BODY, rotated[9]]:
        assert line not in shown and line[:30] not in shown
    assert "[REDACTED]" in shown


def test_a_key_block_split_over_a_yaml_list_is_redacted_whole(repo, capsys):
    pieces = ", ".join(
        f"'{line}'" for line in ["-----BEGIN RSA PRIVATE KEY-----", *KEY_BODY[:3], "-----END RSA PRIVATE KEY-----"]
    )
    commit(repo, {"docs/adr/0001-billing.md": f"---\nstatus: accepted\nnotes: [{pieces}]\n---\n# Billing\n"}, "k")
    assert run(capsys, "check", code=1).out.count("private key block") >= 1
    outputs = _every_output(repo, capsys)
    for line in KEY_BODY[:3]:
        assert line not in outputs


def test_a_section_holding_a_credential_is_replaced_whole_in_show_and_the_site(repo, capsys, tmp_path):
    text = (
        "---\nstatus: accepted\n---\n# Billing\n\n## Context\n\nConnect with:\n\nhost: billing-db.internal\n"
        f"DB_PASSWORD={PASSWORD}\nport: 5432\n\n## Decision\n\nUse it.\n"
    )
    commit(repo, {"docs/adr/0001-billing.md": text}, "k")
    shown = run(capsys, "show", "1").out
    run(capsys, "site", "--out", str(tmp_path / "site"))
    pages = "".join(p.read_text(errors="replace") for p in (tmp_path / "site").rglob("*") if p.is_file())
    for out in (shown, pages):
        assert "billing-db.internal" not in out and PASSWORD not in out and "port: 5432" not in out
        assert "this section contains a password" in out
    assert "Use it." in shown


def test_a_file_name_holding_a_credential_is_named_and_a_plain_one_is_not():
    """`adr new "DB_PASSWORD=Hunter2Secret99"` once wrote 0003-db-password-hunter2secret99.md."""
    from adr_memory.records import credentials

    assert credentials.in_name("docs/adr/0003-db-password-hunter2secret99.md") == "a password"
    assert credentials.in_name("0010-pgpassword-s3cr3tpassw0rd.md") == "a password"
    assert credentials.in_name("0009-ghp_abcdefghijklmnopqrstuvwxyz0123456789.md") == "a GitHub token"
    for plain in ("0005-rotate-secret-keys.md", "0006-store-password-hashes-with-argon2.md", "0007-api-key-v2.md"):
        assert credentials.in_name(plain) is None, plain


def test_a_path_is_never_redacted_into_one_that_does_not_exist(repo, capsys, monkeypatch):
    """`list --paths` printed docs/adr/0004-[REDACTED].md and `show --json` a path of [REDACTED]:
    files that do not exist. The path is kept; `check` names the file an error of its own."""
    from tests.helpers import adr_text, commit, run

    name = "docs/adr/0004-ghp_" + "a1b2c3d4e5" * 4 + ".md"
    commit(repo, {name: adr_text("Four")})
    monkeypatch.chdir(repo)
    assert run(capsys, "list", "--paths").out.splitlines() == [name]
    assert run(capsys, "show", "4", "--json").json["path"] == name
    said = run(capsys, "check", "--json", code=1).json["findings"]
    assert any(f["kind"] == "secret" and "file name" in f["message"] for f in said)


TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://tok@github.com/a/b", "https://github.com/a/b"),
        ("postgresql://u:p@h/db", "postgresql://h/db"),
        ("ssh://git@host/x https://x:y@z/w", "ssh://host/x https://z/w"),  # each URL in the text
        ("git@github.com:a/b.git", "git@github.com:a/b.git"),  # scp form: a user, no secret
        ("https://github.com/a@b", "https://github.com/a@b"),  # an `@` in the path is no user
        ("file:///x", "file:///x"),
        # A password given as a parameter, in a URL's query or libpq's keyword string.
        ("postgresql://h:5432/adr?user=hubw&password=PASS", "postgresql://h:5432/adr?user=hubw&password=[REDACTED]"),
        ("host=h dbname=adr user=hubw password=PASS", "host=h dbname=adr user=hubw password=[REDACTED]"),
        ("host=h password='a b' dbname=adr", "host=h password=[REDACTED] dbname=adr"),
        (
            "https://git.example.org/x?private_token=abc&ref=main",
            "https://git.example.org/x?private_token=[REDACTED]&ref=main",
        ),
        ("postgresql://h/db?passfile=/home/me/.pgpass", "postgresql://h/db?passfile=/home/me/.pgpass"),  # a path
    ],
)
def test_a_url_is_shown_without_its_user_and_password(url, shown):
    assert credentials.redact_url(url) == shown


def test_data_is_scrubbed_by_key_and_value_but_paths_are_kept_whole():
    data = {
        "password": "Hunter2x",  # a credential only with its key
        "note": "plain",
        "path": f"docs/adr/0004-{TOKEN}.md",  # a path names the file as it is
        "n": [1, True, None, TOKEN],
        "nested": {"api_key": "abcd1234efgh"},
        "flag": True,
        "count": 12345678,
    }
    assert credentials.scrub_data(data) == {
        "password": "[REDACTED]",
        "note": "plain",
        "path": f"docs/adr/0004-{TOKEN}.md",
        "n": [1, True, None, "[REDACTED]"],
        "nested": {"api_key": "[REDACTED]"},
        "flag": True,
        "count": 12345678,
    }
    assert credentials.scrub_data({TOKEN: 1}) == {"[REDACTED]": "[REDACTED]"}  # a key holding one too
    assert credentials.scrub_data(("a", TOKEN)) == ["a", "[REDACTED]"]


@pytest.mark.parametrize(
    ("text", "scrubbed"),
    [
        ("short", "short"),
        (f"token {TOKEN} end", "token [REDACTED] end"),
        ("rotate the password monthly", "rotate the password monthly"),
    ],
)
def test_scrub_replaces_only_the_credential(text, scrubbed):
    assert credentials.scrub(text) == scrubbed


def test_text_typed_for_a_record_that_holds_a_credential_is_refused():
    from adr_memory.errors import UsageError

    with pytest.raises(UsageError) as refused:
        credentials.refuse_in("DB_PASSWORD=Hunter2Secret99", "reason")
    assert refused.value.message == "the reason holds a password: nothing written"
    assert refused.value.hint == (
        "keep credentials out of decision records (git history keeps them); say where the secret lives instead"
    )
    for fine in (None, "", "rotate the password monthly"):
        credentials.refuse_in(fine, "note")  # nothing to refuse: no error


def test_a_section_holding_a_credential_is_named_by_what_it_holds():
    assert credentials._hidden("plain") == "plain"
    assert credentials._hidden(f"key {TOKEN}") == "[REDACTED: this section contains a GitHub token]"


def test_a_secret_in_a_heading_title_is_one_hit_on_the_heading_s_line():
    """Under frontmatter, a heading holding a credential was said twice: on its line and again
    at line 1 (`---`), as the title derived from it."""
    from adr_memory.records import parse

    rec = parse("---\nstatus: accepted\n---\n# DB_PASSWORD=Hunter2Secret99\n\n## Decision\n\nx\n", "docs/adr/0001-a.md")
    assert [(h.line, h.what) for h in credentials.hits(rec)] == [(4, "a password")]
    said = parse('---\ntitle: "DB_PASSWORD=Hunter2Secret99"\n---\n# Rotate\n', "docs/adr/0001-a.md")
    assert [h.line for h in credentials.hits(said)] == [2]  # a frontmatter title: at its key
