"""The search index in `.adr-cache/index/`: tantivy (BM25) over sections, and a vector store.

The only module that imports tantivy. Everything here is derived from the ADR folder and can be
deleted at any time. A build goes to a temp dir and is swapped in under a lock; a cache that
fails to open or does not match its header is rebuilt, never trusted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory.base import cache
from adr_memory.errors import AdrError
from adr_memory.records import WHOLE, Record, is_rst, says_nothing, without_comments
from adr_memory.search import refusal
from adr_memory.search.checkpoint import Checkpoint

# Raised when what is indexed changes, and when records are read differently (a title, a
# section, a status): the manifest keys files by size and mtime, so an index built by an older
# reading would otherwise stand until each file changed. Vectors are kept by chunk text.
SCHEMA_VERSION = 11  # 11: a section holding only a template's placeholders is not indexed
CHUNK_WORDS = 120  # ~180 word pieces: inside the model's 256-token window with room to spare
CHUNK_OVERLAP = 30
# A record's vectors stop here (~23,000 words of prose; the longest record of the shared
# folders has 81 chunks): a 1 MB record of anyone's text would otherwise cost ~30 s of
# embedding for passages deep past where a decision states itself. The rest stays in BM25.
MAX_CHUNKS = 256
# What leads a chunk (title, heading) and the chunk's own words are cut here: the model reads
# ~256 word pieces (~1,500 characters of prose), and a title of 400 KB, repeated at the head of
# every chunk, made a 100 MB index of one record. The shared folders' longest title has 59
# characters, their longest heading 103, their longest window 3,900 (links).
MAX_LEAD, MAX_WINDOW = 200, 8_000

# Code blocks and table rules are kept for BM25 (an identifier is a fine keyword) but not
# embedded: the model reads prose, and a page of Go or a table's dashes only adds noise to a
# long record's vectors (ADR-0013).
_FENCE = re.compile(r"^ {0,3}(```|~~~)[^\n]*\n.*?^ {0,3}\1[^\n]*$", re.S | re.M)
# One line each, and no two parts that could take the same character: record text is anyone's.
_TABLE_RULE = re.compile(r"^[ \t]*(?:\|[ \t]*)?:?---[-:| \t]*$", re.M)

_OPTION_HEADINGS = ("considered options", "options", "alternatives", "pros and cons")


@dataclass(frozen=True)
class Chunk:
    path: str  # the record's file: what search keys a record by (two files may claim one id)
    section: str
    text: str  # the record's words in this chunk: what a search shows
    offset: int = 0  # words of the record before this chunk: how far in a reader must go
    lead: str = ""  # "Title. Section: ", so a chunk's vector knows which decision it belongs to

    @property
    def embedded(self) -> str:
        return self.lead + self.text

    @property
    def key(self) -> str:
        return hashlib.sha256(f"{self.section}\0{self.embedded}".encode()).hexdigest()[:32]


def _cut(text: str, limit: int) -> str:
    """`text` up to `limit` characters, at a space when there is one."""
    return text if len(text) <= limit else (text[:limit].rsplit(" ", 1)[0] or text[:limit])


def sections_of(rec: Record) -> list[tuple[str, str]]:
    """(section name, text) documents for one record: title, tags, what it says before its
    first section, each section (options considered become one document each)."""
    docs = [("Title", rec.title)]
    if rec.tags:
        docs.append(("Tags", " ".join(rec.tags)))
    placeholders = False  # a section holding only a template's: nothing to find there, or to quote
    for section in rec.parts:
        text = without_comments(section.text).strip()
        if not text or section.heading.strip(" :*").lower() in ("status", "changelog"):
            continue
        if says_nothing(section.text, is_rst(rec.path)):
            placeholders = True
            continue
        if section.heading.lower().startswith(_OPTION_HEADINGS):
            for option in re.split(r"\n(?=[*-] |\d+\. )", text):
                if option.strip():
                    docs.append((section.heading, option.strip()))
        else:
            docs.append((section.heading, text))
    if len(docs) <= 1 + bool(rec.tags) and rec.body.strip() and not placeholders:
        docs.append((WHOLE, rec.body.strip()))
    return docs


def chunks_of(rec: Record) -> list[Chunk]:
    """Overlapping word windows of a record's prose, small enough for the model, the first
    MAX_CHUNKS of them; the title leads each chunk so a chunk's vector knows which decision it
    belongs to."""
    out: list[Chunk] = []
    offset = 0
    step = CHUNK_WORDS - CHUNK_OVERLAP
    title = _cut(rec.title, MAX_LEAD)
    for section, text in _prose_sections(rec):
        words, heading = text.split(), _cut(section, MAX_LEAD)
        for start in range(0, max(len(words), 1), step):
            if len(out) == MAX_CHUNKS:
                return out
            window = _cut(" ".join(words[start : start + CHUNK_WORDS]), MAX_WINDOW)
            out.append(Chunk(rec.path, heading, window, offset + start, f"{title}. {heading}: "))
            if start + CHUNK_WORDS >= len(words):
                break
        offset += len(words)
    return out


def _prose_sections(rec: Record) -> list[tuple[str, str]]:
    """`sections_of` without code blocks and table rules; a section that is nothing but code
    keeps its code, so it still has a vector."""
    out = []
    for section, text in sections_of(rec):
        prose = _TABLE_RULE.sub(" ", _FENCE.sub(" ", text)).replace("|", " ")
        out.append((section, prose if prose.split() else text))
    return out


# ---------------------------------------------------------------------------- manifest


def manifest(root: Path, records: Sequence[Record]) -> dict[str, list[Any]]:
    """path -> [size, mtime_ns] of every record file: what the index was built from."""
    out: dict[str, list[Any]] = {}
    for rec in records:
        if rec.source:  # a source's record lies in git, not here: it changes when its text does
            out[rec.path] = ["source", hashlib.sha256(f"{rec.title}\n{rec.status}\n{rec.body}".encode()).hexdigest()]
            continue
        try:
            st = (root / rec.path).stat()
            out[rec.path] = [st.st_size, st.st_mtime_ns]
        except OSError:
            out[rec.path] = [0, 0]
    return out


def changed_records(old: dict[str, Any], new: dict[str, Any]) -> int:
    return sum(1 for k in old.keys() | new.keys() if old.get(k) != new.get(k))


# ---------------------------------------------------------------------------- the index


class Index:
    """An opened index: tantivy searcher, vectors and metadata (on disk, or in memory only)."""

    def __init__(self, tantivy_index: Any, meta: dict[str, Any], vectors: Any) -> None:
        self._tantivy = tantivy_index
        self.meta = meta
        self.docs: list[dict[str, Any]] = meta["docs"]
        self.vectors = vectors

    @property
    def floor(self) -> refusal.Floor | None:
        """How close questions about nothing in this folder come (None without vectors)."""
        return refusal.read_floor(self.meta.get("vectors")) if self.vectors is not None else None

    @classmethod
    def open(cls, folder: Path, *, vectors: bool = True) -> Index:
        """Open a built index; raises when anything is missing, damaged or of another schema.
        Without `vectors` (a keyword search) the vector file is neither read nor checked:
        numpy's import and a checksum over every chunk's vector are a semantic search's cost."""
        import tantivy

        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if not _valid_meta(meta):
            raise ValueError("the index metadata is not of this schema")
        matrix = _load_vectors(folder, meta.get("vectors")) if vectors else None
        handle = tantivy.Index.open(str(folder / "tantivy"))
        handle.reload()
        _probe(handle, len(meta["docs"]))
        return cls(handle, meta, matrix)

    # ------------------------------------------------------------------ keyword

    def keyword(self, terms: Sequence[str], limit: int = 200) -> list[tuple[int, float]]:
        """(doc number, BM25 score): stemmed terms, plus prefix matches at a lower weight."""
        import tantivy

        if not terms:
            return []
        clauses = []
        for term in terms:
            for field, boost in (("title", 3.0), ("body", 1.0), ("tags", 2.0), ("rid", 5.0)):
                q = self._tantivy.parse_query(_escape(term), [field])
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(q, boost)))
            prefix = self._prefix(term)
            if prefix is not None:
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(prefix, 0.3)))
        query = tantivy.Query.boolean_query(clauses)
        searcher = self._tantivy.searcher()
        hits = searcher.search(query, limit).hits
        return [(int(searcher.doc(addr)["n"][0]), float(score)) for score, addr in hits]

    def _prefix(self, term: str) -> Any:
        """Words that start with the term ("postgres" finds "postgresql"); `term*` in the query
        parser would silently drop the `*`. Short terms would match too much."""
        import tantivy

        if len(term) < 4:
            return None
        return tantivy.Query.fuzzy_term_query(self._tantivy.schema, "body_raw", term, 0, True, True)

    def vocabulary_df(self, term: str) -> int:
        """How many section documents use a term at all: stemmed, or as a word's prefix."""
        import tantivy

        searcher = self._tantivy.searcher()
        q = self._tantivy.parse_query(_escape(term), ["title", "body", "tags"])
        prefix = self._prefix(term)
        if prefix is not None:
            q = tantivy.Query.boolean_query([(tantivy.Occur.Should, q), (tantivy.Occur.Should, prefix)])
        return int(searcher.search(q, 1, count=True).count)

    # ------------------------------------------------------------------ vectors

    @functools.cached_property
    def chunk_offsets(self) -> Any:
        """How many words into its record each chunk starts (0 for an index built before
        offsets were kept)."""
        import numpy as np

        return np.array([c.get("offset", 0) for c in self.meta["vectors"]["chunks"]], dtype=np.float32)

    @functools.cached_property
    def chunk_runs(self) -> list[tuple[str, int, int]]:
        """(record file, first row, end row) of each run of one record's chunks."""
        runs: list[tuple[str, int, int]] = []
        for row, chunk in enumerate(self.meta["vectors"]["chunks"]):
            if runs and runs[-1][0] == chunk["record"] and runs[-1][2] == row:
                runs[-1] = (chunk["record"], runs[-1][1], row + 1)
            else:
                runs.append((chunk["record"], row, row + 1))
        return runs

    @functools.cached_property
    def title_rows(self) -> dict[str, Any]:
        """record file -> the vector of its first chunk, which is its title (alone, or leading
        its first section in a record of one)."""
        return {rid: self.vectors[start] for rid, start, _end in self.chunk_runs}

    def cosines(self, queries: Any, allowed: set[str]) -> tuple[Any, list[float]]:
        """The first query's cosine to every chunk (-inf for records not in `allowed`), and
        each query's best cosine over the allowed chunks."""
        import numpy as np

        mask = np.zeros(len(self.meta["vectors"]["chunks"]), dtype=bool)
        for rid, start, end in self.chunk_runs:
            mask[start:end] = rid in allowed
        sims = np.where(mask[:, None], self.vectors @ queries.T, -np.inf)
        best = sims.max(axis=0).tolist() if len(sims) else [float("-inf")] * len(queries)
        return sims[:, 0], best

    def best_chunks(
        self, cosines: Any, penalty: float, span: float
    ) -> tuple[dict[str, tuple[float, int]], dict[str, float]]:
        """Per record: its best chunk's cosine less `penalty` x min(1, offset / span), with that
        chunk's row; and its best plain cosine. Records whose chunks are all -inf are left out.
        A record is ranked by its sections, each led by its title, not by its title alone; the
        plain cosine, the folder's closeness to the question, takes the title too (ADR-0093)."""
        import numpy as np

        scores = cosines - penalty * np.minimum(1.0, self.chunk_offsets / span)
        best: dict[str, tuple[float, int]] = {}
        plain: dict[str, float] = {}
        for rid, start, end in self.chunk_runs:
            first = self.meta["vectors"]["chunks"][start]
            said = (
                start + 1 if end - start > 1 and (first["section"], first.get("offset", 0)) == ("Title", 0) else start
            )
            row = said + int(np.argmax(scores[said:end]))
            if not np.isfinite(scores[row]):
                continue
            if rid not in best or scores[row] > best[rid][0]:
                best[rid] = (float(scores[row]), row)
            plain[rid] = max(plain.get(rid, -1.0), float(cosines[start:end].max()))
        return best, plain

    @property
    def doc_count(self) -> int:
        return len(self.docs)


def _valid_meta(meta: Any) -> bool:
    """Whether metadata read from disk has the shape every reader of it assumes: a cache file
    edited, truncated or written by another version is rebuilt, never half-used."""
    if not (isinstance(meta, dict) and meta.get("schema") == SCHEMA_VERSION):
        return False
    manifest, docs = meta.get("manifest"), meta.get("docs")
    if not (isinstance(manifest, dict) and all(isinstance(v, list) for v in manifest.values())):
        return False
    if not (isinstance(docs, list) and all(_strings(d, "record", "section", "text") for d in docs)):
        return False
    return all(_valid_vectors(meta.get(key)) for key in ("vectors", "reuse"))


def _valid_vectors(header: Any) -> bool:
    if header is None:
        return True
    if not isinstance(header, dict) or not isinstance(header.get("contract"), dict):
        return False
    chunks, rows, dim = header.get("chunks"), header.get("rows"), header["contract"].get("dim")
    return (
        isinstance(chunks, list)
        and isinstance(rows, int)
        and isinstance(dim, int)
        and rows == len(chunks)
        and all(_strings(c, "record", "section", "key", "text") and isinstance(c.get("offset", 0), int) for c in chunks)
    )


def _strings(item: Any, *keys: str) -> bool:
    return isinstance(item, dict) and all(isinstance(item.get(k), str) for k in keys)


def _probe(handle: Any, docs: int) -> None:
    """Read every kind of file a search reads (terms, positions, postings, stored fields) once:
    tantivy opens a segment with a file missing or cut short and fails only at the first search
    that needs it. Raises ValueError (tantivy's own) when the index is damaged."""
    import tantivy

    searcher = handle.searcher()
    if searcher.num_docs != docs:
        raise ValueError(f"the index holds {searcher.num_docs} documents, its metadata {docs}")
    searcher.search(handle.parse_query('"adr memory probe"', ["title", "body", "tags", "rid"]), 1)
    for _score, addr in searcher.search(tantivy.Query.all_query(), 1).hits:
        searcher.doc(addr)


def _escape(term: str) -> str:
    return '"' + term.replace("\\", " ").replace('"', " ") + '"'


def _load_vectors(folder: Path, header: dict[str, Any] | None) -> Any:
    """The vector matrix the header describes; raises when the file is missing, has another
    size or checksum, or holds a non-finite number: damaged vectors are rebuilt, never used."""
    if not header:
        return None
    import numpy as np

    raw = (folder / "vectors.f32").read_bytes()
    if hashlib.sha256(raw).hexdigest() != header.get("sha256"):
        raise ValueError("vector file does not match its checksum")
    data = np.frombuffer(raw, dtype=np.float32)
    rows, dim = header["rows"], header["contract"]["dim"]
    if data.size != rows * dim or not np.isfinite(data).all():
        raise ValueError("vector file is damaged")
    return data.reshape(rows, dim)


def _schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("n", stored=True, indexed=True)
    builder.add_text_field("title", stored=False, tokenizer_name="en_stem")
    builder.add_text_field("body", stored=False, tokenizer_name="en_stem")
    builder.add_text_field("body_raw", stored=False, tokenizer_name="default")
    builder.add_text_field("tags", stored=False, tokenizer_name="en_stem")
    builder.add_text_field("rid", stored=False, tokenizer_name="default")
    return builder.build()


def build(
    folder: Path | None,
    records: Sequence[Record],
    manifest_now: dict[str, Any],
    embedder: Any | None,
    progress: Callable[[int, int], None] | None = None,
    embed_error: str | None = None,
    previous: Path | None = None,
    checkpoints: Path | None = None,
) -> Index:
    """Build a complete index into `folder` (which must not exist), or in memory when `folder`
    is None. Vectors of unchanged chunks are reused from the index in `previous`; what is
    embedded is checkpointed in `checkpoints` (the index folder) every few seconds, so a build
    killed part way (a rebuild too) resumes there."""
    import tantivy

    if folder is not None:
        folder.mkdir(parents=True)
        (folder / "tantivy").mkdir()
    index = tantivy.Index(_schema(), path=str(folder / "tantivy") if folder else None)
    started = time.time()  # a rebuild asked before this began is served by it (search.prepare)
    writer = index.writer(heap_size=50_000_000, num_threads=1)
    docs: list[dict[str, Any]] = []
    for rec in records:
        for section, text in sections_of(rec):
            n = len(docs)
            docs.append({"record": rec.path, "section": _cut(section, MAX_LEAD), "text": text})
            writer.add_document(
                tantivy.Document(
                    n=n,
                    title=rec.title if section == "Title" else "",
                    body=text,
                    body_raw=text,
                    tags=" ".join(rec.tags),
                    rid=f"{rec.id} {rec.id.replace('-', ' ')}",
                )
            )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    meta: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "started": started,
        "manifest": manifest_now,
        "docs": docs,
        "vectors": None,
        "embed_error": embed_error,
    }
    matrix = None
    if embedder is not None:
        meta["vectors"], matrix = _build_vectors(records, embedder, progress, previous, checkpoints)
    elif previous is not None:
        meta["reuse"], matrix = _keep_for_reuse(previous)
    if folder is not None:
        if matrix is not None:
            matrix.tofile(folder / "vectors.f32")
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return Index(index, meta, matrix if meta["vectors"] else None)


def _build_vectors(
    records: Sequence[Record],
    embedder: Any,
    progress: Callable[[int, int], None] | None,
    previous: Path | None,
    checkpoints: Path | None = None,
) -> tuple[dict[str, Any], Any]:
    """Embed every chunk, reusing vectors of unchanged text from the previous index."""
    import numpy as np

    chunks = [c for rec in records for c in chunks_of(rec)]
    contract = embedder.contract.as_dict()
    kept = Checkpoint(checkpoints or (previous.parent if previous else None), contract)
    partial = kept.load()  # what a build that was interrupted embedded
    reuse = {**partial, **(_previous_vectors(previous, contract) if previous else {})}
    # A text repeated (a pasted paragraph, a template's placeholder) is embedded once.
    todo = list({c.key: c for c in chunks if c.key not in reuse}.values())
    todo.sort(key=lambda c: len(c.embedded))  # batches of like length: little padding to embed
    fresh: dict[str, Any] = {}
    for start in range(0, len(todo), 32):
        batch = todo[start : start + 32]
        for chunk, vec in zip(batch, embedder.embed([c.embedded for c in batch])):
            fresh[chunk.key] = vec
        kept.offer({**partial, **fresh})
        if progress:
            try:
                progress(min(start + 32, len(todo)), len(todo))
            except Stopped:  # what was embedded so far serves the next build
                kept.offer({**partial, **fresh}, now=True)
                raise
    matrix = (
        np.stack([fresh[c.key] if c.key in fresh else reuse[c.key] for c in chunks])
        if chunks
        else np.zeros((0, embedder.contract.dim), dtype=np.float32)
    )
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    floor = refusal.floor_of(matrix, embedder.embed(list(refusal.OFF_TOPIC))) if chunks else None
    header = {
        "contract": embedder.contract.as_dict(),
        "floor": floor.as_dict() if floor else None,
        "rows": len(chunks),
        "sha256": hashlib.sha256(matrix.tobytes()).hexdigest(),
        "chunks": [
            {"record": c.path, "section": c.section, "key": c.key, "text": c.text, "offset": c.offset} for c in chunks
        ],
        "embedded": len(todo),
        "reused": sum(c.key in reuse for c in chunks),
    }
    kept.clear()
    return header, matrix


def _keep_for_reuse(previous: Path) -> tuple[dict[str, Any] | None, Any]:
    """A keyword-only build keeps the previous vectors, so the next full build re-embeds only
    what changed."""
    try:
        meta = json.loads((previous / "meta.json").read_text(encoding="utf-8"))
        header = meta.get("vectors") or meta.get("reuse")
        return (header, _load_vectors(previous, header)) if header else (None, None)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None, None


def _previous_vectors(folder: Path, contract: dict[str, Any]) -> dict[str, Any]:
    header, matrix = _keep_for_reuse(folder)
    if not header or matrix is None or header.get("contract") != contract:
        return {}
    try:
        return {c["key"]: matrix[i] for i, c in enumerate(header["chunks"])}
    except (KeyError, TypeError, IndexError):
        return {}


# ---------------------------------------------------------------------------- swap and open


class Stopped(AdrError):
    """Raised by a build's progress callback to stop it between batches (the server's client
    went away); the vectors embedded so far are kept for the next build."""


def open_current(cache_root: Path, *, vectors: bool = True) -> Index | None:
    """The current index, or None when missing, half-written or corrupt (it will be rebuilt)."""
    try:
        return Index.open(cache.entry(cache_root, "index") / "current", vectors=vectors)
    except Exception:  # tantivy raises anything on a damaged index (ValueError, OSError, its own)
        return None
