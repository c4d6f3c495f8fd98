"""The ONNX file read without onnx: the model handed to onnxruntime without its weights, the
weights read in place from the mapped file, and a file cut short an error, not a crash."""

from __future__ import annotations

import subprocess
import sys

import pytest

from adr_memory.search import embed


def test_the_model_is_given_to_onnxruntime_without_its_weights_and_they_are_read_in_place(tmp_path):
    """A session takes the model's 22 MB of weights as arrays over the mapped file; the model
    it parses keeps a few hundred KB. The word table's rows are read only in the bundled layout."""
    import numpy as np

    from adr_memory.search import modelfile

    onnx, _ = embed.bundled_files()
    model, tensors = modelfile.weightless(onnx)
    assert len(model) < 400_000 < 20_000_000 < sum(len(t.data) for t in tensors.values())
    assert [tensors[n].dims for n in embed._WORD_TABLE] == [(30522, 384), (30522, 1)]
    query = embed.QueryEmbedder(onnx, embed.bundled_files()[1], embed.Contract("m", "s", embed.DIM))
    _, weights = query._weightless()
    table = embed._word_rows(weights, np.array([0, 101, 102]))
    values, scales = (table[n] for n in embed._WORD_TABLE)
    assert values.shape == (3, 384) and values.dtype == np.int8 and scales.shape == (3, 1)
    assert (values[1] == weights[embed._WORD_TABLE[0]][101]).all()
    assert embed._word_rows({**weights, embed._WORD_TABLE[1]: weights[embed._WORD_TABLE[1]][:5]}, [0]) is None
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(onnx.read_bytes()[:5_000_000])  # ends inside the word table
    other = tmp_path / "other.onnx"
    other.write_bytes(b"\xff" * 64)  # not a protobuf at all
    for path in (cut, other):
        with pytest.raises(ValueError):
            modelfile.weightless(path)
    empty = tmp_path / "empty.onnx"
    empty.write_bytes(b"\x3a\x00")  # a graph with nothing in it
    assert modelfile.weightless(empty) == (b"\x3a\x00", {})
    broken = embed.QueryEmbedder(cut, embed.bundled_files()[1], query.contract)
    with pytest.raises(embed.EmbedUnavailable, match="failed to load"):
        broken.embed(["why did we pick this queue"])


def test_a_model_file_cut_short_while_a_process_runs_is_an_error_not_a_crash(tmp_path):
    """Sessions take the weights from the mapped file; a file truncated under a running MCP
    server must not kill it with SIGBUS. Built sessions keep answering; a new one says why
    it cannot load. (A subprocess: a crash would otherwise take pytest with it.)"""
    script = f"""
import os, shutil, sys
from pathlib import Path
from adr_memory.search import embed
onnx, tokenizer = embed.bundled_files()
copy = Path({str(tmp_path / "model.onnx")!r})
shutil.copyfile(onnx, copy)
query = embed.QueryEmbedder(copy, tokenizer, embed.Contract("m", "s", embed.DIM))
first = query.embed(["why did we pick this queue"])
os.truncate(copy, 1000)
assert (query.embed(["why did we pick this queue"]) == first).all()
try:
    query.embed(["a question with other words: postgres"])
except embed.EmbedUnavailable as exc:
    print("unavailable:", exc)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("unavailable: the bundled model failed to load: ValueError")


def test_the_vector_length_is_read_from_the_graph_without_the_weights(tmp_path):
    """A user's own model states its output's width in its graph: read there, no session is
    built only to ask (a 436 MB model took ~0.6 s to load for it); a file that does not say is None."""
    from adr_memory.search import modelfile

    onnx, _ = embed.bundled_files()
    assert modelfile.output_width(onnx) == embed.DIM
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(onnx.read_bytes()[:4096])
    noise = tmp_path / "noise.onnx"
    noise.write_bytes(bytes(range(256)) * 16)
    empty = tmp_path / "empty.onnx"
    empty.write_bytes(b"")
    assert all(modelfile.output_width(p) is None for p in (cut, noise, empty, tmp_path / "missing.onnx"))
