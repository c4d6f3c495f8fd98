"""commands.evaluate: a question set scored, with how often `high` is right."""

from __future__ import annotations

import shutil

from adr_memory.commands import evaluate
from adr_memory.history import Workspace
from tests.helpers import FOLDERS, commit


def test_one_set_scored_in_one_mode_says_how_often_high_is_right(repo, model_cache):
    shutil.copytree(FOLDERS / "team-nygard", repo / "team-nygard")
    (repo / ".adr-dir").write_text("team-nygard\n")
    shutil.copytree(model_cache, repo / ".adr-cache")
    commit(repo, {}, "team-nygard")
    report = evaluate.run(Workspace.discover(repo), [FOLDERS / "team-nygard-queries.json"], modes=["hybrid"])
    hybrid = report["modes"]["hybrid"]
    right, high = map(int, hybrid["high_right"].split("/"))
    assert high and right / high >= 0.9
    assert hybrid["absent_high"].endswith("/4")
