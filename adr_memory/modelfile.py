"""Named tensors read straight out of an ONNX file, without the onnx package.

The query path needs one thing from the model file that onnxruntime does not expose: the raw
int8 rows of the word-embedding table (ADR-0014). An ONNX file is a protobuf `ModelProto`; its
`graph` (field 7) lists `initializer` tensors (field 5), each with `dims` (1), `data_type` (2),
`name` (8) and `raw_data` (9). Reading those four fields takes a few lines; importing onnx to do
it would cost more than the whole query it speeds up.

Only ever called on the bundled file after its sha256 is checked; still, anything unexpected
(another layout, a truncated file) raises ValueError and the caller uses the whole model.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


@dataclass(frozen=True)
class Tensor:
    name: str
    dims: tuple[int, ...]
    data_type: int  # ONNX TensorProto.DataType: 1 float32, 3 int8
    data: memoryview  # raw_data, little-endian, row-major


def tensors(path: Path, names: set[str]) -> dict[str, Tensor]:
    """The initializers of `path` called one of `names` that keep their values in raw_data."""
    with open(path, "rb") as handle:
        buf = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
    found: dict[str, Tensor] = {}
    try:
        for field, start, end in _fields(buf, 0, len(buf)):
            if field != (7, _BYTES):
                continue
            for inner, t_start, t_end in _fields(buf, start, end):
                if inner == (5, _BYTES):
                    tensor = _tensor(buf, t_start, t_end)
                    if tensor is not None and tensor.name in names:
                        found[tensor.name] = tensor
    except IndexError:
        raise ValueError("the model file ends inside a field") from None
    return found


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
