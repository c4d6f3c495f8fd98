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
