"""The embedder: the bundled model's vectors equal fastembed's for the same text, on the
query path too (its own rows of the word table, a primed session, threads at once), loaded
without leaving a folder behind, and a model of the user's own choosing read from a folder."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from adr_memory.search import embed
from tests.helpers import adr_text, commit, own_model, run


def test_bundled_model_vectors_match_fastembed_for_the_same_model(model_cache, tmp_path):
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    ours = embed.load(model_cache).embed(["use postgres for storage"])[0]
    onnx, tokenizer = embed.bundled_files()
    folder = embed.tokenizer_folder(tokenizer, tmp_path)  # an ordinary fastembed folder: a copy of the weights
    shutil.copyfile(onnx, folder / "model.onnx")
    TextEmbedding.add_custom_model(
        model="test/minilm-copy",
        pooling=PoolingType.MEAN,
        normalization=True,
        sources=ModelSource(hf="test/none"),
        dim=384,
        model_file="model.onnx",
    )
    theirs = next(
        iter(TextEmbedding("test/minilm-copy", specific_model_path=str(folder)).embed(["use postgres for storage"]))
    )
    assert ours.shape == (384,)
    assert float(abs(ours - theirs / (theirs**2).sum() ** 0.5).max()) < 1e-5


def test_the_query_path_embeds_exactly_as_fastembed(model_cache, tmp_path, monkeypatch):
    """Queries skip fastembed (onnxruntime + tokenizers on the same files): same vectors."""
    monkeypatch.setattr(embed, "_loaded", {k: v for k, v in embed._loaded.items() if k != "query"})
    texts = [
        "use postgres for storage",
        "Why did we replace Jenkins with Concourse?",
        "word " * 400,
        "x",
        "Kubernetes cluster, one per environment; dev/staging/prod split",
    ]
    full = embed.load(model_cache).embed(texts)
    light = embed.load_query(tmp_path)
    assert type(light).__name__ == "QueryEmbedder"
    fast = light.embed(texts)
    cosines = (full * fast).sum(axis=1)
    assert fast.shape == full.shape and float(cosines.min()) >= 0.9999
    assert json.loads((tmp_path / "model-verified.json").read_text())[-1] == embed.DEFAULT_SHA256


def test_a_question_runs_on_its_own_rows_of_the_word_table_with_the_same_result(tmp_path, monkeypatch):
    """The first call's session holds only the word-table rows its tokens use; the vectors are
    bit for bit those of the whole table. A later call with other words loads the whole table."""
    monkeypatch.setattr(embed, "_loaded", {})
    asked = ["why did we pick this queue", "why did we pick this"]
    light = embed.load_query(tmp_path)
    first = light.embed(asked)
    rows, _ = light._first
    assert light._whole is None and 4 < len(rows) < 30
    other = ["should we move the queue to Kafka or NATS JetStream"]
    later = light.embed(other)  # "kafka" is not among the first rows
    assert light._first is None and light._whole is not None
    whole = embed.QueryEmbedder(*embed.bundled_files(), light.contract)
    whole._whole = whole._session(*whole._weightless())
    assert (first == whole.embed(asked)).all() and (later == whole.embed(other)).all()
    assert (light.embed(asked) == first).all()  # the whole table answers the first words too


def test_a_primed_session_serves_the_question_and_its_probes_bit_for_bit(tmp_path, monkeypatch):
    """prime() builds the question's session on a thread; the question and every probe made by
    leaving words out (padded in one batch) run on it, with the whole table's exact vectors."""
    monkeypatch.setattr(embed, "_loaded", {})
    question = "should we move the queue to Kafka or NATS JetStream"
    batch = [question, "should we move the queue to   or NATS JetStream", "should we move the queue to Kafka or  "]
    light = embed.load_query(tmp_path)
    light.prime(question)
    light.prime("something else entirely")  # a second prime changes nothing
    got = light.embed(batch)
    assert light._whole is None and light._first is not None  # no whole-table session was needed
    whole = embed.QueryEmbedder(*embed.bundled_files(), light.contract)
    whole._whole = whole._session(*whole._weightless())
    assert (got == whole.embed(batch)).all()


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_primed_session_that_fails_on_its_thread_leaves_the_whole_table_and_no_traceback(
    tmp_path, monkeypatch, capfd
):
    def broken(*_a, **_k):
        raise RuntimeError("unreadable rows (test)")

    monkeypatch.setattr(embed, "_loaded", {})
    light = embed.load_query(tmp_path)
    monkeypatch.setattr(embed, "_word_rows", broken)
    light.prime("why did we pick this queue")
    got = light.embed(["why did we pick this queue"])
    assert light._first is None and light._whole is not None
    whole = embed.QueryEmbedder(*embed.bundled_files(), light.contract)
    whole._whole = whole._session(*whole._weightless())
    assert (got == whole.embed(["why did we pick this queue"])).all()
    assert "Traceback" not in capfd.readouterr().err


def test_threads_asking_at_once_get_the_same_vectors_as_one_at_a_time(tmp_path, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(embed, "_loaded", {})
    questions = [[f"why did we pick queue number {i}"] for i in range(3)] + [["Kafka or NATS JetStream?"]] * 3
    shared = embed.load_query(tmp_path)

    def ask(texts: list[str]):  # as the MCP server's search tool does: prime, then embed
        shared.prime(texts[0])
        return shared.embed(texts)

    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(ask, questions))
    alone = embed.QueryEmbedder(*embed.bundled_files(), shared.contract)
    for asked, got in zip(questions, together):
        assert (got == alone.embed(asked)).all()


def test_loading_the_model_leaves_no_folder_behind(tmp_path, monkeypatch):
    """fastembed reads the tokenizer settings only while it loads: their folder is gone once
    the model is up, so a process killed mid-build leaves nothing in the temp dir."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    model = embed._load_default(tmp_path / "cache")
    assert list((tmp_path / "tmp").iterdir()) == []
    assert model.embed(["still embeds"]).shape == (1, 384)


def test_a_model_s_digest_is_remembered_until_the_file_changes(tmp_path):
    """A user's model may be 436 MB: its sha256 (the index contract's) is hashed once, then
    read from the cache stamp while the file's path, inode, size and mtime stay the same."""
    import hashlib

    model, stamp = tmp_path / "model.onnx", tmp_path / "cache" / "model-digest.json"
    model.write_bytes(b"weights")
    first = embed._digest(model, stamp)
    assert first == hashlib.sha256(b"weights").hexdigest() == json.loads(stamp.read_text())[-1]
    stamp.write_text(json.dumps([*json.loads(stamp.read_text())[:-1], "remembered"]))
    assert embed._digest(model, stamp) == "remembered"  # read, not hashed again
    model.write_bytes(b"other weights!")
    assert embed._digest(model, stamp) == hashlib.sha256(b"other weights!").hexdigest()


def test_a_model_of_the_users_own_choosing_is_read_from_a_local_folder_and_recorded(repo, capsys, tmp_path):
    """`embed-model` in the user's own config names a local ONNX model folder (here a copy of
    the bundled model): the index is built with it, its contract names it, search answers; a
    repository's config may not choose a model for the user."""
    folder = own_model(tmp_path)
    commit(
        repo,
        {"docs/adr/0001-redis.md": adr_text("Keep session tokens in Redis", body="Sessions expire after 30 minutes.")},
    )
    answer = json.loads(run(capsys, "search", "how long until a login session times out", "--json").out)
    assert not answer["no_strong_match"] and answer["results"][0]["id"] == "ADR-0001" and answer["fallback"] is None
    header = json.loads((repo / ".adr-cache/index/current/meta.json").read_text())["vectors"]
    assert header["contract"]["model"] == f"local:{folder.resolve()}"
    assert header["contract"]["model_sha256"] == embed.DEFAULT_SHA256  # the very same weights
    assert json.loads((repo / ".adr-cache/model-digest.json").read_text())[-1] == embed.DEFAULT_SHA256
    (repo / ".adr-memory.toml").write_text(f'embed-model = "{folder}"\n')
    err = run(capsys, "search", "sessions", code=2).err
    assert err.startswith("error: embed-model in .adr-memory.toml is not read from a repository")
    assert "hint: set it in your own config" in err


def test_a_users_model_file_that_is_empty_falls_back_to_keywords_and_says_why(repo, capsys, tmp_path):
    """A model folder whose model.onnx is empty (a download cut short): hybrid answers by
    keywords and says why on stderr and in `fallback`; semantic exits 2 with a hint. No traceback."""
    folder = own_model(tmp_path)
    (folder / "model.onnx").write_bytes(b"")
    commit(repo, {"docs/adr/0001-redis.md": adr_text("Keep session tokens in Redis", body="Sessions expire.")})
    done = run(capsys, "search", "session tokens", "--json")
    answer = json.loads(done.out)
    assert answer["results"][0]["id"] == "ADR-0001" and answer["mode"] == "keyword"
    assert "model.onnx is not an ONNX model" in answer["fallback"] and "warning: keyword-only" in done.err
    err = run(capsys, "search", "session tokens", "--mode", "semantic", code=2).err
    assert err.startswith("error: semantic search needs an embedding model") and "hint:" in err
    assert "Traceback" not in done.err + err


def test_a_build_takes_a_model_thread_per_core_other_work_leaves_free(monkeypatch):
    """Threads beyond the free cores only fight each other (benchmarks/bench_build_busy.py)."""
    import os

    from adr_memory.search import embed

    monkeypatch.setattr(embed, "usable_cores", lambda: 2)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(embed.time, "sleep", lambda _s: None)
    for samples, threads in (
        ([(1000, 500), (1200, 700)], 2),  # idle: both cores
        ([(1000, 500), (1200, 600)], 1),  # half the machine busy: one core of two
        ([(1000, 500), (1200, 500)], 1),  # all of it busy: still one thread
    ):
        it = iter(samples)
        monkeypatch.setattr(embed, "_cpu_times", lambda it=it: next(it))
        assert embed.build_threads() == threads


def test_an_edit_in_place_that_keeps_size_and_mtime_is_hashed_again(tmp_path):
    import hashlib
    import os

    model, stamp = tmp_path / "model.onnx", tmp_path / "cache" / "model-digest.json"
    model.write_bytes(b"weights")
    embed._digest(model, stamp)
    before = model.stat()
    with open(model, "r+b") as handle:  # the same inode, the same size
        handle.write(b"WEIGHT")
    os.utime(model, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the mtime put back
    assert embed._digest(model, stamp) == hashlib.sha256(b"WEIGHTs").hexdigest()


def test_a_stamp_that_calls_the_bundled_model_wrong_is_never_believed(tmp_path):
    """A damaged `model-verified.json` kept search keyword-only until deleted by hand: a
    mismatch is checked against the file itself, and the stamp is written again."""
    onnx, _tokenizer = embed.bundled_files()
    stamp = tmp_path / "model-verified.json"
    tmp_path.mkdir(exist_ok=True)
    stamp.write_text(json.dumps([*embed._identity(onnx), "0" * 64]))
    assert embed._verified(onnx, tmp_path) == embed.DEFAULT_SHA256
    assert json.loads(stamp.read_text())[-1] == embed.DEFAULT_SHA256


def test_a_tokenizer_folder_a_killed_load_left_is_removed_by_the_next(tmp_path, monkeypatch):
    import subprocess
    import sys
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f"adr-memory-tokenizer-{gone.stdout.strip()}-abc"
    left.mkdir()
    (left / "tokenizer.json").write_text("{}")
    (left / "tokenizer_config.json").write_text("{}")  # what marks it ours
    alive = tmp_path / f"adr-memory-tokenizer-{os.getpid()}-def"  # a load still running: kept
    alive.mkdir()
    embed._sweep_tokenizer_folders()
    assert not left.exists() and alive.exists()
