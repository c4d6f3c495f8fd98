"""The vectors an interrupted build embedded: written every few seconds or at once when the
build is stopped, read back only whole and of the same model, removed when the build is done."""

from __future__ import annotations

import numpy as np
import pytest

from adr_memory.base import cache
from adr_memory.search.checkpoint import Checkpoint

CONTRACT = {"model": "m", "model_sha256": "x", "dim": 3, "pooling": "mean", "normalized": True}


def _index_dir(tmp_path):
    root = cache.ensure(tmp_path / ".adr-cache")
    (root / "index").mkdir()
    return root / "index"


def _vectors():
    return {"a": np.array([1, 0, 0], dtype=np.float32), "b": np.array([0, 1, 0], dtype=np.float32)}


def test_what_is_offered_now_is_read_back_by_the_next_build(tmp_path):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).offer(_vectors(), now=True)
    back = Checkpoint(folder, CONTRACT).load()
    assert sorted(back) == ["a", "b"] and np.array_equal(back["b"], _vectors()["b"])


def test_an_offer_before_the_interval_writes_nothing(tmp_path):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).offer(_vectors())  # a checkpoint just made: not yet
    assert Checkpoint(folder, CONTRACT).load() == {}


def test_another_model_or_a_damaged_file_is_not_used(tmp_path):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).offer(_vectors(), now=True)
    assert Checkpoint(folder, {**CONTRACT, "model_sha256": "y"}).load() == {}
    raw = folder / "partial" / "vectors.f32"
    raw.write_bytes(raw.read_bytes()[:-4])  # cut short, as a killed write leaves it
    assert Checkpoint(folder, CONTRACT).load() == {}


def test_a_finished_build_removes_it_and_a_build_in_memory_keeps_none(tmp_path):
    folder = _index_dir(tmp_path)
    kept = Checkpoint(folder, CONTRACT)
    kept.offer(_vectors(), now=True)
    kept.clear()
    assert not (folder / "partial").exists()
    memory = Checkpoint(None, CONTRACT)
    memory.offer(_vectors(), now=True)
    assert memory.load() == {}


def test_a_checkpoint_the_disk_cannot_hold_stops_checkpoints_not_the_build(tmp_path, monkeypatch):
    """`write_atomic` says a full disk as an AdrError: the build goes on without checkpoints
    (a 64 K cache disk once made `adr search` exit 2 with no answer)."""
    from adr_memory.errors import AdrError
    from adr_memory.search import checkpoint

    def full(*_a, **_k):
        raise AdrError("cannot write vectors.f32: No space left on device")

    monkeypatch.setattr(checkpoint, "write_atomic", full)
    kept = Checkpoint(_index_dir(tmp_path), CONTRACT)
    kept.offer(_vectors(), now=True)
    assert kept.folder is None


def _damage(folder, **meta_changes):
    import json

    path = folder / "partial" / "meta.json"
    meta = json.loads(path.read_text())
    meta.update(meta_changes)
    path.write_text(json.dumps(meta))


@pytest.mark.parametrize(
    "change",
    [
        {"keys": ["a"]},  # fewer keys than the vectors hold rows
        {"keys": ["a", "b", "c"]},
        {"keys": "ab"},  # no list
        {"sha256": "0" * 64},  # the checksum of other vectors
        {"contract": None},
    ],
)
def test_a_checkpoint_whose_meta_does_not_account_for_its_vectors_is_not_used(tmp_path, change):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).offer(_vectors(), now=True)
    _damage(folder, **change)
    assert Checkpoint(folder, CONTRACT).load() == {}


def test_vectors_that_are_not_finite_are_not_used_though_their_checksum_holds(tmp_path):
    folder = _index_dir(tmp_path)
    bad = {"a": np.array([np.nan, 0, 0], dtype=np.float32), "b": np.array([0, 1, 0], dtype=np.float32)}
    Checkpoint(folder, CONTRACT).offer(bad, now=True)
    assert Checkpoint(folder, CONTRACT).load() == {}


@pytest.mark.parametrize("name", ["meta.json", "vectors.f32"])
def test_a_checkpoint_missing_a_file_or_with_meta_that_is_no_json_is_not_used(tmp_path, name):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).offer(_vectors(), now=True)
    (folder / "partial" / name).unlink()
    assert Checkpoint(folder, CONTRACT).load() == {}
    Checkpoint(folder, CONTRACT).offer(_vectors(), now=True)
    (folder / "partial" / "meta.json").write_text("[" * 100_000)  # deeper than the parser goes
    assert Checkpoint(folder, CONTRACT).load() == {}


def test_nothing_offered_writes_nothing_and_an_offer_after_the_interval_is_written(tmp_path, monkeypatch):
    from adr_memory.search import checkpoint

    folder = _index_dir(tmp_path)
    kept = Checkpoint(folder, CONTRACT)
    kept.offer({}, now=True)
    assert not (folder / "partial").exists()
    monkeypatch.setattr(checkpoint, "EVERY", 0.0)  # the interval is over
    kept.offer(_vectors())
    back = Checkpoint(folder, CONTRACT).load()
    assert list(back) == ["a", "b"] and back["a"].dtype == np.float32


def test_a_later_checkpoint_replaces_the_earlier_one_whole(tmp_path):
    folder = _index_dir(tmp_path)
    kept = Checkpoint(folder, CONTRACT)
    kept.offer(_vectors(), now=True)
    more = {**_vectors(), "c": np.array([0, 0, 1], dtype=np.float32)}
    kept.offer(more, now=True)
    back = Checkpoint(folder, CONTRACT).load()
    assert sorted(back) == ["a", "b", "c"] and np.array_equal(back["c"], [0, 0, 1])


def test_clearing_a_checkpoint_never_made_is_nothing(tmp_path):
    folder = _index_dir(tmp_path)
    Checkpoint(folder, CONTRACT).clear()
    Checkpoint(None, CONTRACT).clear()
    assert sorted(p.name for p in folder.iterdir()) == []
