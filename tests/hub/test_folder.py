"""hub.folder: a hub folder is made empty or not at all, and read only when it is one."""

from __future__ import annotations

import pytest

from adr_memory.errors import UsageError
from adr_memory.hub.folder import FolderStore


def test_init_takes_an_empty_folder_and_reading_needs_a_hub(tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="holds files of its own"):
        FolderStore(tmp_path / "busy").init()
    with pytest.raises(UsageError, match="no hub folder"):
        FolderStore(tmp_path / "nothing").records()
    hub = FolderStore(tmp_path / "hub")
    assert hub.init() and hub.init() == [] and hub.records() == []
