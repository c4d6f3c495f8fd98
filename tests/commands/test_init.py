"""commands.init: the folder, a first record and the config; an unknown template is refused."""

from __future__ import annotations

import pytest

from adr_memory.commands import init
from adr_memory.errors import UsageError
from adr_memory.history import Workspace


def test_init_makes_the_folder_and_refuses_an_unknown_template(repo):
    with pytest.raises(UsageError, match="unknown template 'arc42'"):
        init.run(Workspace.discover(repo), "arc42")
    assert not (repo / "docs/adr").exists()
    result = init.run(Workspace.discover(repo))
    assert result.adr_dir == "docs/adr" and (repo / "docs/adr" / "0001-record-architecture-decisions.md").exists()
