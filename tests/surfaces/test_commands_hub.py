"""surfaces.commands_hub: `adr hub` at the command line (the stores' own tests are tests/hub)."""

from __future__ import annotations

from tests.helpers import run


def test_the_hub_group_offers_its_verbs_and_init_says_what_it_did(repo, capsys, tmp_path):
    shown = run(capsys, "hub", "--help").out
    for verb in ("init", "publish", "search", "list", "stale", "conflicts"):
        assert verb in shown
    assert run(capsys, "hub", "init", "--to", str(tmp_path / "hub")).out.startswith("created the hub folder")
    assert run(capsys, "hub", "init", "--to", str(tmp_path / "hub")).out.endswith("the hub is up to date\n")
    assert run(capsys, "hub", "conflicts", "--from", str(tmp_path / "hub")).out == "No conflicts across repositories.\n"
    assert (
        run(capsys, "hub", "stale", "--from", str(tmp_path / "hub")).out == "Nothing stale across the organisation.\n"
    )
    assert run(capsys, "hub", "list", "--from", str(tmp_path / "hub")).out.startswith("No decisions in the hub")
    assert run(capsys, "hub", "timeline", "--from", str(tmp_path / "hub")).out == "No decision events.\n"


def test_hub_diff_and_exceptions_at_the_command_line(tmp_path, capsys, model_cache):
    import json

    from tests.helpers import hub_with_exception

    url = hub_with_exception(tmp_path, capsys)
    shown = run(capsys, "hub", "diff", "shop", "1", "--from", url).out
    assert "-Orders live in MySQL 8." in shown and "+Orders live in PostgreSQL 16." in shown
    assert json.loads(run(capsys, "hub", "diff", "shop", "1", "--from", url, "--json").out)["id"] == "ADR-0001"
    refused = run(capsys, "hub", "diff", "shop", "1", "nope", "--from", url, code=2)
    assert refused.err.startswith("error: 'nope' is no version of ADR-0001") and "\nhint: " in refused.err
    said = run(capsys, "hub", "exceptions", "--from", url).out
    assert said == "architecture ADR-0001: shop ADR-0002 (Publish shop events on SQS)\n"
    assert json.loads(run(capsys, "hub", "exceptions", "--from", url, "--json").out)["exceptions"][0]["by"] == "shop"
