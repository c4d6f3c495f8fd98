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


# A protobuf writer of our own, a few lines as the format defines it, to build small model files
# whose every byte the tests know.
def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _int(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _msg(number: int, *parts: bytes) -> bytes:
    payload = b"".join(parts)
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _tensor(name: str, dims: tuple[int, ...], data_type: int, raw: bytes) -> bytes:
    return b"".join([*(_int(1, d) for d in dims), _int(2, data_type), _msg(8, name.encode()), _msg(9, raw)])


def _model(tmp_path, *graph: bytes, head: bytes = _int(1, 8)) -> tuple[bytes, object]:
    data = head + _msg(7, *graph) + _int(8, 1)  # ir_version, the graph, then a field after it
    path = tmp_path / "model.onnx"
    path.write_bytes(data)
    return data, path


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x01"),
        (127, b"\x7f"),
        (128, b"\x80\x01"),
        (300, b"\xac\x02"),
        (2**63, b"\x80" * 9 + b"\x01"),
    ],
)
def test_a_varint_reads_and_writes_as_protobuf_defines_it(value, encoded):
    from adr_memory.search import modelfile

    assert modelfile._varint_bytes(value) == encoded
    assert modelfile._varint(memoryview(encoded + b"\xff"), 0) == (value, len(encoded))


def test_a_varint_longer_than_64_bits_or_cut_short_is_refused():
    from adr_memory.search import modelfile

    with pytest.raises(ValueError, match="a varint longer than 64 bits"):
        modelfile._varint(memoryview(b"\x80" * 10 + b"\x01"), 0)
    with pytest.raises(IndexError):  # what `weightless` turns into "ends inside a field"
        modelfile._varint(memoryview(b"\x80\x80"), 0)


def test_fields_name_their_number_wire_type_and_span():
    from adr_memory.search import modelfile

    data = _int(1, 300) + _msg(2, b"abc") + _varint(3 << 3 | 5) + b"1234" + _varint(4 << 3 | 1) + b"12345678"
    found = list(modelfile._fields(memoryview(data), 0, len(data)))
    assert found == [((1, 0), 300, 3), ((2, 2), 5, 8), ((3, 5), 9, 13), ((4, 1), 14, 22)]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (_varint(1 << 3 | 3) + b"\x00", "unsupported protobuf wire type 3"),  # a group start
        (_varint(1 << 3 | 4), "unsupported protobuf wire type 4"),
        (_varint(1 << 3 | 2) + _varint(10) + b"short", "a field runs past its message"),
        (_varint(1 << 3 | 5) + b"12", "a field runs past its message"),
    ],
)
def test_a_field_of_a_kind_onnx_never_writes_or_cut_short_is_a_value_error(data, said):
    from adr_memory.search import modelfile

    with pytest.raises(ValueError, match=said):
        list(modelfile._fields(memoryview(data), 0, len(data)))
    with pytest.raises(ValueError, match="past the end of the model file"):
        list(modelfile._fields(memoryview(data), 0, len(data) + 1))


def test_large_initializers_are_moved_out_and_everything_else_is_kept_byte_for_byte(tmp_path):
    from adr_memory.search import modelfile

    node = _msg(1, _msg(1, b"x"), _msg(2, b"y"))  # a NodeProto: kept as written
    big = bytes(range(256)) * 2  # 512 bytes of float32: 128 values
    small = _tensor("bias", (4,), 1, b"\x00" * 16)
    half = _tensor("half", (256,), 10, b"\x01" * 512)  # float16: not a type moved out
    table = _tensor("table", (4, 32), 1, big)
    _data, path = _model(tmp_path, node, _msg(5, small), _msg(5, table), _msg(5, half))
    model, weights = modelfile.weightless(path, min_bytes=512)
    external = b"".join(
        [
            _int(1, 4),
            _int(1, 32),
            _int(2, 1),
            _msg(8, b"table"),
            _msg(13, _msg(1, b"location"), _msg(2, b"adr-memory:in-memory")),
            _int(14, 1),
        ]
    )
    assert model == _int(1, 8) + _msg(7, node, _msg(5, small), _msg(5, external), _msg(5, half)) + _int(8, 1)
    assert list(weights) == ["table"]
    table_weight = weights["table"]
    assert (table_weight.name, table_weight.dims, table_weight.data_type) == ("table", (4, 32), 1)
    assert bytes(table_weight.data) == big


def test_a_weight_given_other_dims_is_declared_in_them(tmp_path):
    from adr_memory.search import modelfile

    _data, path = _model(tmp_path, _msg(5, _tensor("w", (2, 8), 3, b"\x07" * 16)))
    model, weights = modelfile.weightless(path, min_bytes=16, dims={"w": (16,)})
    assert _int(1, 16) + _int(2, 3) + _msg(8, b"w") in model  # the dims the caller will give
    assert _int(1, 2) + _int(1, 8) not in model
    assert weights["w"].dims == (2, 8)  # the tensor itself is as the file has it


def test_a_graph_without_large_weights_comes_back_unchanged(tmp_path):
    from adr_memory.search import modelfile

    data, path = _model(tmp_path, _msg(5, _tensor("w", (2,), 1, b"\x00" * 8)), _msg(1, b""))
    assert modelfile.weightless(path) == (data, {})
    # An initializer missing its name, type or data is no tensor to move: left in place.
    nameless = _msg(5, _int(1, 1024), _int(2, 1), _msg(9, b"\x00" * 4096))
    data, path = _model(tmp_path, nameless)
    assert modelfile.weightless(path) == (data, {})


def test_a_model_cut_inside_a_varint_is_a_value_error_not_an_index_error(tmp_path):
    from adr_memory.search import modelfile

    path = tmp_path / "cut.onnx"
    path.write_bytes(_int(1, 8) + b"\x80")  # a key whose varint never ends
    with pytest.raises(ValueError, match="the model file ends inside a field"):
        modelfile.weightless(path)


def _output(*dims: bytes) -> bytes:
    """A graph's output (ValueInfoProto) of a float tensor with these dimensions."""
    shape = _msg(2, *(_msg(1, d) for d in dims))
    return _msg(12, _msg(1, b"embeddings"), _msg(2, _msg(1, _int(1, 1), shape)))


@pytest.mark.parametrize(
    ("graph", "width"),
    [
        ((_output(_msg(2, b"batch"), _int(1, 768)),), 768),  # the last dimension's value
        ((_output(_int(1, 1), _msg(2, b"tokens"), _int(1, 384)),), 384),
        ((_output(_int(1, 384), _msg(2, b"dim")),), None),  # a symbolic width says nothing
        ((_output(_int(1, 0)),), None),  # zero is no width
        ((_output(),), None),  # no dimensions at all
        ((_msg(11, _msg(1, b"input_ids")),), None),  # inputs only, no output
        ((_output(_int(1, 512)), _output(_int(1, 16))), 512),  # the first output is the sentence
    ],
)
def test_the_width_is_the_last_dimension_of_the_first_output(tmp_path, graph, width):
    from adr_memory.search import modelfile

    _data, path = _model(tmp_path, *graph)
    assert modelfile.output_width(path) == width


def test_a_file_with_no_graph_states_no_width(tmp_path):
    from adr_memory.search import modelfile

    path = tmp_path / "nograph.onnx"
    path.write_bytes(_int(1, 8) + _msg(2, b"producer"))
    assert modelfile.output_width(path) is None
