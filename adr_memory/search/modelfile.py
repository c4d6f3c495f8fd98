"""Named tensors read straight out of an ONNX file, without the onnx package.

The query path needs two things from the model file that onnxruntime does not expose: the raw
int8 rows of the word-embedding table (ADR-0014), and the model without its weights, so that
onnxruntime copies them straight from the mapped file instead of reading and parsing 22 MB of
protobuf for every session (ADR-0024). An ONNX file is a protobuf `ModelProto`; its `graph`
(field 7) lists `initializer` tensors (field 5), each with `dims` (1), `data_type` (2), `name`
(8) and `raw_data` (9); a tensor kept elsewhere names its place in `external_data` (13) and sets
`data_location` (14) to 1. Reading and writing those fields takes a few lines; importing onnx to
do it would cost more than the whole query it speeds up.

Only ever called on the bundled file after its sha256 is checked; still, anything unexpected
(another layout, a truncated file) raises ValueError, which the embedder reports as a model that
cannot load (search falls back to keywords and says why).
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5
# The ONNX data types a model's weights are moved out in, as numpy reads them.
DTYPES = {1: "<f4", 2: "u1", 3: "i1", 6: "<i4", 7: "<i8"}


@dataclass(frozen=True)
class Tensor:
    name: str
    dims: tuple[int, ...]
    data_type: int  # ONNX TensorProto.DataType: 1 float32, 3 int8
    data: memoryview  # raw_data, little-endian, row-major


def weightless(
    path: Path, min_bytes: int = 4096, dims: dict[str, tuple[int, ...]] | None = None
) -> tuple[bytes, dict[str, Tensor]]:
    """The model at `path` with every initializer of at least `min_bytes` of raw data (of a type
    in DTYPES) marked as external (its bytes left out: a few hundred KB remain of 22 MB), and
    those initializers, their data read from the mapped file. `dims` gives some of them other
    dims in the model: the caller will give those in that shape."""
    buf = _mapped(path)
    model: list[bytes | memoryview] = []
    weights: dict[str, Tensor] = {}
    try:
        done = 0
        for field, start, end in _fields(buf, 0, len(buf)):
            if field != (7, _BYTES):
                model.append(buf[done:end])
            else:
                graph = _without_weights(buf, start, end, min_bytes, dims or {}, weights)
                model.append(_field(7, graph))
            done = end
    except IndexError:
        raise ValueError("the model file ends inside a field") from None
    return b"".join(model), weights


def _mapped(path: Path) -> memoryview:
    with open(path, "rb") as handle:
        return memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))


def output_width(path: Path) -> int | None:
    """The last dimension of the model's first output (a sentence model's vector length), read
    from the graph without loading its weights; None when the file does not state it."""
    try:
        buf = _mapped(path)  # an empty file cannot be mapped: ValueError
        graph = _nested(buf, (0, len(buf)), (7,))
        output = graph and _nested(buf, graph, (12,))
        # ValueInfoProto.type (2) -> TypeProto.tensor_type (1) -> TypeProto.Tensor.shape (2)
        shape = output and _nested(buf, output, (2, 1, 2))
        dims = [(s, e) for f, s, e in _fields(buf, *shape) if f == (1, _BYTES)] if shape else []
        width = _nested(buf, dims[-1], (1,)) if dims else None  # Dimension.dim_value, a varint
    except (OSError, IndexError, ValueError):
        return None
    return width[0] if width and width[0] > 0 else None


def _nested(buf: memoryview, span: tuple[int, int], path: tuple[int, ...]) -> tuple[int, int] | None:
    """The span of the field reached by following `path` (field numbers, each a message but the
    last, which may be a varint: then (its value, end)) from the message at `span`."""
    start, end = span
    for depth, number in enumerate(path):
        last = depth == len(path) - 1
        hit = next(
            ((s, e) for f, s, e in _fields(buf, start, end) if f[0] == number and (last or f[1] == _BYTES)), None
        )
        if hit is None:
            return None
        start, end = hit
    return start, end


def _without_weights(
    buf: memoryview, start: int, end: int, min_bytes: int, dims: dict[str, tuple[int, ...]], weights: dict[str, Tensor]
) -> bytes:
    """The graph message buf[start:end] with its large initializers' data left out; those go
    into `weights`."""
    graph: list[bytes | memoryview] = []
    done = start
    for inner, t_start, t_end in _fields(buf, start, end):
        tensor = _tensor(buf, t_start, t_end) if inner == (5, _BYTES) else None
        if tensor is None or tensor.data_type not in DTYPES or len(tensor.data) < min_bytes:
            graph.append(buf[done:t_end])
        else:
            weights[tensor.name] = tensor
            graph.append(_field(5, _external(tensor, dims.get(tensor.name, tensor.dims))))
        done = t_end
    return b"".join(graph)


def _external(tensor: Tensor, dims: tuple[int, ...]) -> bytes:
    """A TensorProto for `tensor` whose data is kept elsewhere: onnxruntime takes it from the
    caller by name (the place named is never opened)."""
    place = _field(1, b"location") + _field(2, b"adr-memory:in-memory")
    return b"".join(
        [
            *(_key(1, _VARINT) + _varint_bytes(d) for d in dims),
            _key(2, _VARINT),
            _varint_bytes(tensor.data_type),
            _field(8, tensor.name.encode()),
            _field(13, place),
            _key(14, _VARINT),
            _varint_bytes(1),
        ]
    )


def _field(number: int, payload: bytes) -> bytes:
    return _key(number, _BYTES) + _varint_bytes(len(payload)) + payload


def _key(number: int, wire: int) -> bytes:
    return _varint_bytes(number << 3 | wire)


def _varint_bytes(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _tensor(buf: memoryview, start: int, end: int) -> Tensor | None:
    dims: list[int] = []
    name, data_type, data = None, None, None
    for field, value, value_end in _fields(buf, start, end):
        if field == (1, _VARINT):
            dims.append(value)
        elif field == (2, _VARINT):
            data_type = value
        elif field == (8, _BYTES):
            name = bytes(buf[value:value_end]).decode("utf-8", "replace")
        elif field == (9, _BYTES):
            data = buf[value:value_end]
    if name is None or data_type is None or data is None:
        return None
    return Tensor(name, tuple(dims), data_type, data)


def _fields(buf: memoryview, pos: int, end: int) -> Iterator[tuple[tuple[int, int], int, int]]:
    """((field number, wire type), start, end) of each field in buf[pos:end]; for a varint,
    (its value, end)."""
    if end > len(buf):
        raise ValueError("a field runs past the end of the model file")
    while pos < end:
        key, pos = _varint(buf, pos)
        wire = key & 7
        if wire == _VARINT:
            value, pos = _varint(buf, pos)
            yield (key >> 3, wire), value, pos
            continue
        if wire == _BYTES:
            size, pos = _varint(buf, pos)
        elif wire in (_FIXED64, _FIXED32):
            size = 8 if wire == _FIXED64 else 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        if pos + size > end:
            raise ValueError("a field runs past its message")
        yield (key >> 3, wire), pos, pos + size
        pos += size


def _varint(buf: memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError("a varint longer than 64 bits")
