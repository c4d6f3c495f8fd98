"""A damaged, deleted or contested index heals; it never answers wrongly or crashes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from adr_memory.search import index
from tests.helpers import adr_text, commit, run

RECORDS = {
    "docs/adr/0001-a.md": adr_text("Use PostgreSQL for storage", body="Relational data lives in Postgres."),
    "docs/adr/0002-b.md": adr_text("Deploy with Kubernetes", body="Workloads run on a managed cluster."),
    "docs/adr/0003-c.md": adr_text("Queue jobs with Redis", body="Background work goes through Redis."),
}
CURRENT = ".adr-cache/index/current"


@pytest.fixture
def indexed(repo, capsys, model_cache):
    commit(repo, RECORDS)
    run(capsys, "index")
    return repo


def _search(capsys, query="Use PostgreSQL for storage", *flags):
    return json.loads(run(capsys, "search", query, "--json", *flags).out)


def _dies_on_the_third_batch(monkeypatch):
    """Checkpoints after every batch, and the model interrupted on its third (as a kill would,
    after two batches were embedded); the real embed, to put back."""
    from adr_memory.search import checkpoint, embed

    monkeypatch.setattr(checkpoint, "EVERY", 0.0)
    real, calls = embed.Embedder.embed, []

    def dies(self, texts):
        calls.append(len(texts))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, texts)

    monkeypatch.setattr(embed.Embedder, "embed", dies)
    return real


def _index_line(capsys, *flags):
    return run(capsys, "index", *flags).out


def test_same_size_garbage_in_the_vectors_is_detected_and_re_embedded(indexed, capsys):
    vectors = indexed / CURRENT / "vectors.f32"
    size = vectors.stat().st_size
    vectors.write_bytes(b"\xff" * size)  # NaN everywhere, same length
    line = _index_line(capsys)
    assert "0 reused" in line and "embedded" in line
    answer = _search(capsys)
    assert answer["results"][0]["id"] == "ADR-0001"
    assert all(r["score"] == r["score"] for r in answer["results"])  # no NaN


def test_a_keyword_search_reads_no_vectors_and_the_next_semantic_one_heals_them(indexed, capsys):
    vectors = indexed / CURRENT / "vectors.f32"
    vectors.write_bytes(b"\xff" * vectors.stat().st_size)
    code = (
        "import sys; from adr_memory.surfaces.cli import main; rc = main(['search', 'Use PostgreSQL for storage', "
        "'--mode', 'keyword', '--json']); "
        "print([m for m in ('numpy', 'onnxruntime', 'fastembed') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=indexed)
    answer, imported = done.stdout.rstrip("\n").rsplit("\n", 1)
    assert json.loads(answer)["results"][0]["id"] == "ADR-0001" and imported.strip() == "[]"
    assert vectors.read_bytes()[:4] == b"\xff" * 4  # keyword mode left them alone
    answer = _search(capsys, "Use PostgreSQL for storage", "--mode", "hybrid")
    assert answer["results"][0]["id"] == "ADR-0001" and vectors.read_bytes()[:4] != b"\xff" * 4


def test_rebuild_re_embeds_from_the_text(indexed, capsys):
    line = _index_line(capsys, "--rebuild")
    assert "0 reused" in line


def test_deleted_vectors_are_rebuilt_not_read_as_no_results(indexed, capsys):
    (indexed / CURRENT / "vectors.f32").unlink()
    answer = _search(capsys, "Use PostgreSQL for storage", "--mode", "semantic")
    assert answer["no_strong_match"] is False and answer["results"][0]["id"] == "ADR-0001"
    assert (indexed / CURRENT / "vectors.f32").is_file()


@pytest.mark.parametrize("damage", ["shorten", "not-json", "wrong-shape", "tantivy-gone"])
def test_a_damaged_index_heals_on_the_next_search(indexed, capsys, damage):
    meta = indexed / CURRENT / "meta.json"
    if damage == "shorten":
        meta.write_bytes(meta.read_bytes()[:200])
    elif damage == "not-json":
        meta.write_text("{{{")
    elif damage == "wrong-shape":
        meta.write_text(json.dumps({"schema": index.SCHEMA_VERSION, "docs": "nope", "vectors": [1, 2]}))
    else:
        import shutil

        shutil.rmtree(indexed / CURRENT / "tantivy")
    for _ in range(2):  # healed, then healthy
        answer = _search(capsys)
        assert answer["results"][0]["id"] == "ADR-0001"
    assert json.loads(meta.read_text())["schema"] == index.SCHEMA_VERSION


def _edit_meta(folder, change):
    meta = folder / CURRENT / "meta.json"
    data = json.loads(meta.read_text())
    change(data)
    meta.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m.update(docs=[1, 2]),
        lambda m: m.update(docs=[{}]),
        lambda m: m["vectors"].update(chunks=[]),
        lambda m: m["vectors"].update(chunks=["x"]),
        lambda m: m.update(manifest=[]),
        lambda m: m["vectors"].update(rows="3"),
    ],
    ids=["docs-numbers", "docs-empty-objects", "no-chunks", "chunk-strings", "manifest-list", "rows-text"],
)
def test_index_metadata_of_the_wrong_shape_is_rebuilt_by_search_and_by_index(indexed, capsys, change):
    expected = _search(capsys)["results"][0]["id"]
    healthy = json.loads((indexed / CURRENT / "meta.json").read_text())
    _edit_meta(indexed, change)
    _index_line(capsys)  # `adr index` sees it is damaged and builds it again
    again = json.loads((indexed / CURRENT / "meta.json").read_text())
    assert again["docs"] == healthy["docs"] and again["vectors"]["chunks"] == healthy["vectors"]["chunks"]
    _edit_meta(indexed, change)
    for mode in ("hybrid", "keyword", "semantic"):
        assert _search(capsys, "Use PostgreSQL for storage", "--mode", mode)["results"][0]["id"] == expected


@pytest.mark.parametrize("suffix", ["pos", "idx", "term", "store"])
def test_a_deleted_tantivy_segment_file_is_rebuilt_never_an_internal_error(indexed, capsys, suffix):
    for part in (indexed / CURRENT / "tantivy").glob(f"*.{suffix}"):
        part.unlink()
    for mode in ("keyword", "hybrid"):
        assert _search(capsys, "Use PostgreSQL for storage", "--mode", mode)["results"][0]["id"] == "ADR-0001"
    assert list((indexed / CURRENT / "tantivy").glob(f"*.{suffix}"))  # built again


def test_a_segment_that_opens_but_fails_its_first_search_is_rebuilt(indexed, capsys, monkeypatch):
    real = index.Index.keyword
    failed = []

    def once(self, terms, limit=200):
        if not failed:
            failed.append(True)
            raise ValueError("Data corrupted: positions")  # as tantivy says it, past the open-time probe
        return real(self, terms, limit)

    monkeypatch.setattr(index.Index, "keyword", once)
    assert _search(capsys, "Use PostgreSQL for storage", "--mode", "keyword")["results"][0]["id"] == "ADR-0001"
    assert failed


def test_concurrent_cold_searches_all_answer_and_leave_nothing_behind(repo, model_cache):
    commit(repo, RECORDS)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "adr_memory", "search", "Use PostgreSQL for storage", "--json"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert json.loads(out)["results"][0]["id"] == "ADR-0001"
    leftovers = [p.name for p in (repo / ".adr-cache/index").iterdir() if p.name != "current"]
    assert leftovers == []
    assert not list((repo / ".adr-cache").rglob("*.tmp*"))


def test_a_busy_builder_does_not_block_a_search(indexed, capsys, monkeypatch):
    """While another process holds the build lock, a search that needs a refresh answers from
    memory and says so, rather than waiting for ever."""
    import fcntl

    from adr_memory.search import search

    monkeypatch.setattr(search, "BUILD_WAIT", 0.2)
    commit(indexed, {"docs/adr/0004-d.md": adr_text("Cache pages with Varnish")})
    with open(indexed / ".adr-cache/index.lock", "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        answer = _search(capsys, "Cache pages with Varnish")
    assert answer["results"][0]["id"] == "ADR-0004"
    assert "another process is building" in answer["index"]["note"]


def test_code_blocks_and_table_rules_are_searchable_words_but_not_embedded():
    from adr_memory.records import catalog

    text = (
        "# 7. Use NATS\n\n## Context\n\nWe need a message bus.\n\n```go\nfunc natsConnectWithRetries() {}\n"
        "```\n\n| broker | cost |\n|---|:--:|\n| NATS | low |\n\n## Decision\n\nWe use NATS.\n"
    )
    rec = catalog.parse_bytes("0007-use-nats.md", text.encode())
    embedded = " ".join(c.text for c in index.chunks_of(rec))
    assert "natsConnectWithRetries" not in embedded and "---" not in embedded and "|" not in embedded
    assert "broker" in embedded and "We use NATS." in embedded
    assert any("natsConnectWithRetries" in t for _, t in index.sections_of(rec))  # BM25 keeps it
    only_code = catalog.parse_bytes("0008-x.md", b"# 8. X\n\n## Decision\n\n```\nmake all\n```\n")
    assert any("make all" in c.text for c in index.chunks_of(only_code))  # nothing else to embed


def test_chunk_offsets_count_the_words_a_reader_passes_first():
    from adr_memory.records import catalog

    long_context = " ".join(f"w{i}" for i in range(300))
    rec = catalog.parse_bytes(
        "0001-x.md", f"# 1. X\n\n## Context\n\n{long_context}\n\n## Decision\n\nShort.\n".encode()
    )
    chunks = index.chunks_of(rec)
    assert [c.offset for c in chunks] == [0, 1, 91, 181, 301]  # title, three windows, decision
    assert chunks[-1].section == "Decision"


def test_a_long_record_embeds_its_first_chunks_and_a_repeated_text_once(repo, capsys, model_cache, monkeypatch):
    monkeypatch.setattr(index, "MAX_CHUNKS", 6)  # 256 in use: ~23,000 words of prose
    distinct = " ".join(f"term{i}" for i in range(2_000))  # 23 windows of 120 words
    repeated = "The same paragraph pasted again and again into the context. " * 300
    commit(
        repo,
        {
            "docs/adr/0001-long.md": adr_text("A long record", body=distinct),
            "docs/adr/0002-pasted.md": adr_text("A pasted record", body=repeated),
        },
    )
    line = _index_line(capsys)
    long_rows, pasted = 6, index.chunks_of(_record(repo, "docs/adr/0002-pasted.md"))
    distinct_pasted = len({c.key for c in pasted})
    assert len(pasted) == 6 and distinct_pasted < 4
    assert f"{long_rows + len(pasted)} vectors ({long_rows + distinct_pasted} embedded, 0 reused)" in line
    answer = _search(capsys, "term1999", "--mode", "keyword")  # past the vectors: BM25 keeps it
    assert answer["results"][0]["id"] == "ADR-0001"


def _record(repo, path):
    from adr_memory.records import catalog

    return catalog.parse_bytes(path, (repo / path).read_bytes())


def test_a_huge_title_or_heading_leads_each_chunk_cut_short(repo, capsys, model_cache):
    title = " ".join(f"t{i}" for i in range(10_000))  # 58 KB, once per chunk: 1.2 MB of index
    body = " ".join(f"word{i}" for i in range(2_000)) + f"\n\n## {title}\n\nThe decision itself."
    commit(repo, {"docs/adr/0001-long-title.md": adr_text(title, body=body)})
    _index_line(capsys)
    meta = repo / CURRENT / "meta.json"
    assert meta.stat().st_size < 200_000
    chunks = json.loads(meta.read_text())["vectors"]["chunks"]
    assert len(chunks) > 20 and all(len(c["section"]) <= index.MAX_LEAD for c in chunks)
    hit = _search(capsys, "word1500", "--mode", "semantic")["results"][0]
    assert hit["id"] == "ADR-0001" and not hit["snippet"].startswith("t0 t1")  # its words, not the title


def test_what_a_record_says_before_its_first_section_is_searched(repo, capsys, model_cache):
    intro = (
        "# 1. Shard by tenant\n\nDate: 2024-01-02\n\nWe weighed the quokka scheme before this.\n\n"
        "## Status\n\nAccepted\n\n## Context\n\nTables grow.\n\n## Decision\n\nOne schema per tenant.\n"
    )
    commit(repo, {**RECORDS, "docs/adr/0004-shard-by-tenant.md": intro})
    for mode in ("keyword", "hybrid"):
        answer = _search(capsys, "quokka scheme", "--mode", mode)
        assert answer["results"][0]["id"] == "ADR-0004", mode
        assert answer["results"][0]["section"] == "Introduction"
        assert "quokka" in answer["results"][0]["snippet"]


def test_a_record_of_bold_run_in_labels_is_quoted_without_asterisks(repo, capsys, model_cache):
    """A record with no section headings, its parts under bold labels (`**Decision.** ...`), as
    some teams write them: found, and quoted as a reader sees it."""
    prose = (
        "# Leaderboards live in Redis sorted sets\n\n**Status:** Accepted\n\n**Context.** The rank query "
        "took ninety seconds.\n\n**Decision.** Each leaderboard is a sorted set keyed by season.\n"
    )
    commit(repo, {**RECORDS, "docs/adr/0004-leaderboards.md": prose})
    for mode in ("keyword", "hybrid"):
        top = _search(capsys, "each board keyed by season", "--mode", mode)["results"][0]
        assert top["id"] == "ADR-0004", mode
        assert "Decision. Each leaderboard" in top["snippet"] and "**" not in top["snippet"], top["snippet"]


def test_a_template_s_placeholders_are_neither_found_nor_quoted(repo, capsys, model_cache):
    commit(repo, RECORDS)
    run(capsys, "new", "Choose a message broker", "--template", "madr")
    for query in ("good because bad because", "chosen option because"):
        answer = _search(capsys, query, "--mode", "keyword")
        assert all(
            "because" not in r["snippet"].lower() for r in answer["results"] if r["title"] == "Choose a message broker"
        ), query
    rec = next(r for r in _search(capsys, "message broker")["results"] if r["title"] == "Choose a message broker")
    assert "Good, because" not in rec["snippet"] and '""' not in rec["snippet"]


def test_an_interrupted_build_leaves_what_it_embedded_to_the_next(repo, capsys, model_cache, monkeypatch):
    from adr_memory.search import embed

    many = {
        f"docs/adr/{n:04d}-topic.md": adr_text(f"Decide topic {n}", body=f"Topic {n} matters because reason {n * 7}.")
        for n in range(1, 81)
    }
    commit(repo, many)
    real = _dies_on_the_third_batch(monkeypatch)
    run(capsys, "index", code=130)
    assert (repo / ".adr-cache/index/partial/meta.json").is_file()
    monkeypatch.setattr(embed.Embedder, "embed", real)
    line = _index_line(capsys)
    reused = int(line.split(" reused")[0].rsplit(" ", 1)[1])
    assert reused == 64, line  # the two batches of 32 the first build finished
    assert not (repo / ".adr-cache/index/partial").exists()  # in the index now
    assert _search(capsys, "Decide topic 42")["results"][0]["title"] == "Decide topic 42"


def test_a_record_is_ranked_by_what_it_says_not_by_its_title_alone():
    """Its title leads each of its chunks; the title on its own does not rank it (ADR-0093),
    though how close it comes still counts as the folder's closeness. A record with nothing
    but a title is ranked by it."""
    import numpy as np

    chunks = [
        {"record": "a.md", "section": "Title", "offset": 0},
        {"record": "a.md", "section": "Decision", "offset": 3},
        {"record": "b.md", "section": "Title", "offset": 0},
        {"record": "b.md", "section": "Decision", "offset": 3},
        {"record": "c.md", "section": "Title", "offset": 0},
    ]
    found = index.Index(None, {"docs": [], "vectors": {"chunks": chunks}}, None)
    cosines = np.array([0.60, 0.30, 0.20, 0.45, 0.50], dtype=np.float32)
    best, plain = found.best_chunks(cosines, penalty=0.0, span=400.0)
    assert best["a.md"][1] == 1 and best["b.md"][1] == 3 and best["c.md"][1] == 4
    assert max(best, key=lambda rid: best[rid][0]) == "c.md" and best["b.md"][0] > best["a.md"][0]
    assert plain["a.md"] == pytest.approx(0.60)


def test_an_interrupted_rebuild_leaves_what_it_embedded_to_the_next(repo, capsys, model_cache, monkeypatch):
    """`index --rebuild` killed part way kept nothing (its checkpoint went with the previous
    index it does not read): the next rebuild embedded everything again."""
    from adr_memory.search import embed

    many = {f"docs/adr/{n:04d}-topic.md": adr_text(f"Rebuild topic {n}", body=f"Reason {n * 3}.") for n in range(1, 81)}
    commit(repo, many)
    real = _dies_on_the_third_batch(monkeypatch)
    run(capsys, "index", "--rebuild", code=130)
    assert (repo / ".adr-cache/index/partial/meta.json").is_file()
    assert not list((repo / ".adr-cache/index").glob("build-*"))
    monkeypatch.setattr(embed.Embedder, "embed", real)
    line = _index_line(capsys, "--rebuild")
    assert "(96 embedded, 64 reused)" in line, line  # the two batches of 32 the killed rebuild finished
    assert not (repo / ".adr-cache/index/partial").exists()


MADR = """---
status: accepted
tags: [db, storage]
---
# Use PostgreSQL

Intro line before sections.

## Status

Accepted

## Context

We need a store.

## Considered Options

* PostgreSQL
* MongoDB
- MySQL

## Decision Outcome

Chosen: PostgreSQL.

## Changelog

- 2020-01-01: made

## Notes

<!-- nothing yet -->
"""


def test_a_record_s_documents_are_its_title_tags_opening_sections_and_each_option():
    from adr_memory.records import parse

    assert index.sections_of(parse(MADR, "docs/adr/0001-x.md")) == [
        ("Title", "Use PostgreSQL"),
        ("Tags", "db storage"),
        ("Introduction", "Intro line before sections."),
        ("Context", "We need a store."),
        ("Considered Options", "* PostgreSQL"),  # each option weighed is a document of its own
        ("Considered Options", "* MongoDB"),
        ("Considered Options", "- MySQL"),
        ("Decision Outcome", "Chosen: PostgreSQL."),
        # Status and Changelog say nothing to search for; a section of comments is empty.
    ]


def test_a_record_without_sections_is_searched_by_its_whole_body():
    from adr_memory.records import WHOLE, parse

    rec = parse("# Only a title\n\nJust body text here.\n", "docs/adr/0002-y.md")
    assert index.sections_of(rec) == [("Title", "Only a title"), (WHOLE, "Just body text here.")]


def test_each_chunk_is_led_by_the_title_and_its_section_and_counts_the_words_before_it():
    from adr_memory.records import parse

    chunks = index.chunks_of(parse(MADR, "docs/adr/0001-x.md"))
    assert [(c.section, c.text, c.offset) for c in chunks] == [
        ("Title", "Use PostgreSQL", 0),
        ("Tags", "db storage", 2),
        ("Introduction", "Intro line before sections.", 4),
        ("Context", "We need a store.", 8),
        ("Considered Options", "* PostgreSQL", 12),
        ("Considered Options", "* MongoDB", 14),
        ("Considered Options", "- MySQL", 16),
        ("Decision Outcome", "Chosen: PostgreSQL.", 18),
    ]
    assert chunks[3].lead == "Use PostgreSQL. Context: "
    assert chunks[3].embedded == "Use PostgreSQL. Context: We need a store."
    assert {c.path for c in chunks} == {"docs/adr/0001-x.md"}


def test_a_chunk_s_key_is_its_section_and_embedded_text_and_nothing_else():
    one = index.Chunk("a.md", "Context", "text", 0, "T. Context: ")
    assert one.key == index.Chunk("b.md", "Context", "text", 99, "T. Context: ").key  # file and place aside
    assert one.key != index.Chunk("a.md", "Decision", "text", 0, "T. Context: ").key
    assert one.key != index.Chunk("a.md", "Context", "text", 0, "U. Context: ").key
    assert len(one.key) == 32 and int(one.key, 16) >= 0


def test_a_record_stops_giving_vectors_at_max_chunks(monkeypatch):
    from adr_memory.records import parse

    monkeypatch.setattr(index, "MAX_CHUNKS", 3)
    body = " ".join(f"w{i}" for i in range(1000))
    chunks = index.chunks_of(parse(f"# T\n\n## Context\n\n{body}\n\n## Decision\n\nD.\n", "docs/adr/0001-t.md"))
    assert [(c.section, c.offset) for c in chunks] == [("Title", 0), ("Context", 1), ("Context", 91)]


@pytest.mark.parametrize(
    ("text", "limit", "cut"),
    [
        ("short", 10, "short"),
        ("exactly", 7, "exactly"),
        ("abc def ghi", 7, "abc"),  # at the last space inside the limit
        ("abc def ghi", 8, "abc def"),
        ("abcdefghij", 4, "abcd"),  # one long word: cut inside it
        (" abcdef", 4, " abc"),  # nothing before the only space: cut at the limit
    ],
)
def test_a_lead_or_window_is_cut_at_a_space_within_its_limit(text, limit, cut):
    assert index._cut(text, limit) == cut


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ({}, {}, 0),
        ({"a": [1, 2]}, {"a": [1, 2]}, 0),
        ({"a": [1, 2]}, {"a": [1, 3]}, 1),  # edited
        ({"a": [1, 2]}, {"a": [1, 2], "b": [4, 5]}, 1),  # added
        ({"a": [1, 2], "b": [4, 5]}, {"b": [4, 5]}, 1),  # deleted
        ({"a": [1, 2], "b": [4, 5]}, {"b": [4, 6], "c": [7, 8]}, 3),
    ],
)
def test_the_records_changed_since_a_build_are_those_added_removed_or_edited(old, new, changed):
    assert index.changed_records(old, new) == changed


def test_the_manifest_is_each_file_s_size_and_time_or_a_source_s_text_hash(tmp_path):
    import dataclasses
    import hashlib
    import os

    from adr_memory.records import parse

    (tmp_path / "docs/adr").mkdir(parents=True)
    here = tmp_path / "docs/adr/0001-a.md"
    here.write_text("# A\n")
    os.utime(here, ns=(1_000_000_000, 2_000_000_000))
    local, gone = parse("# A\n", "docs/adr/0001-a.md"), parse("# B\n", "docs/adr/0002-b.md")
    theirs = dataclasses.replace(
        parse("---\nstatus: accepted\n---\n# C\n\nBody.\n", "platform:docs/adr/0001-c.md"), source="platform"
    )
    found = index.manifest(tmp_path, [local, gone, theirs])
    text_hash = hashlib.sha256(f"{theirs.title}\n{theirs.status}\n{theirs.body}".encode()).hexdigest()
    assert found == {
        "docs/adr/0001-a.md": [4, 2_000_000_000],
        "docs/adr/0002-b.md": [0, 0],  # a file gone since it was read
        "platform:docs/adr/0001-c.md": ["source", text_hash],
    }


CHUNK = {"record": "a.md", "section": "Context", "key": "k", "text": "t"}
VECTORS = {"contract": {"dim": 3}, "chunks": [CHUNK], "rows": 1}


@pytest.mark.parametrize(
    ("change", "valid"),
    [
        ({}, True),
        ({"vectors": None, "reuse": None}, True),  # a keyword-only index
        ({"vectors": VECTORS}, True),
        ({"vectors": {**VECTORS, "chunks": [{**CHUNK, "offset": 4}]}}, True),
        ({"schema": index.SCHEMA_VERSION - 1}, False),  # another version's: rebuilt
        ({"manifest": []}, False),
        ({"manifest": {"a.md": "12"}}, False),
        ({"docs": {}}, False),
        ({"docs": [{"record": "a.md", "section": "S"}]}, False),  # no text
        ({"docs": [{"record": 1, "section": "S", "text": "t"}]}, False),
        ({"vectors": {**VECTORS, "rows": 2}}, False),  # rows the chunks do not account for
        ({"vectors": {**VECTORS, "rows": "1"}}, False),
        ({"vectors": {**VECTORS, "contract": None}}, False),
        ({"vectors": {**VECTORS, "contract": {"dim": "3"}}}, False),
        ({"vectors": {**VECTORS, "chunks": [{**CHUNK, "offset": "4"}]}}, False),
        ({"vectors": {**VECTORS, "chunks": [{**CHUNK, "key": None}]}}, False),
        ({"reuse": []}, False),
    ],
)
def test_index_metadata_is_used_only_in_the_shape_every_reader_assumes(change, valid):
    meta = {"schema": index.SCHEMA_VERSION, "manifest": {"a.md": [1, 2]}, "docs": [dict(CHUNK)], **change}
    assert index._valid_meta(meta) is valid


@pytest.mark.parametrize("meta", [None, [], "meta", {"schema": index.SCHEMA_VERSION}])
def test_metadata_that_is_no_object_or_lacks_its_parts_is_not_used(meta):
    assert index._valid_meta(meta) is False


@pytest.mark.parametrize(
    ("term", "query"),
    [("postgres", '"postgres"'), ('say "hi"', '"say  hi "'), ("back\\slash", '"back slash"'), ("", '""')],
)
def test_a_term_is_looked_up_as_a_phrase_that_cannot_break_out_of_its_quotes(term, query):
    assert index._escape(term) == query
