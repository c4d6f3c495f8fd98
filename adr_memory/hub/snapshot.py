"""What a repository publishes: its catalog at HEAD, with each record's state and key, and its
sections with the vectors its own CI embedded (reused by content digest, as the local index does)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.records import Record


@dataclass
class Snapshot:
    repository: str
    commit: str | None
    contract: dict[str, Any] | None
    records: list[dict[str, Any]]
    chunks: list[
        dict[str, Any]
    ]  # {"id", "section", "text", "offset": words before it in its record}, row n of `vectors`
    vectors: Any = field(default=None, repr=False)  # float32 rows, unit length; None without a model
    committed: str | None = None  # when `commit` was made (ISO 8601, UTC): of two publishes, the later commit's wins
    # what this repository sees of its sources' decisions: each {"repository", "id" (as the hub
    # knows them), "state" (fresh, stale, follows, exception, retired...), "reason", "exception"}
    following: list[dict[str, Any]] = field(default_factory=list)

    def older_than(self, held: str | None) -> bool:
        """Whether the hub holds a later commit of this repository than this snapshot's (a CI
        job of an earlier push that finished last)."""
        return bool(self.committed and held and held > self.committed)

    @property
    def digest(self) -> str:
        """What the snapshot says, as one hash: publishing the same twice changes nothing."""
        said = [self.repository, self.commit, self.records, self.chunks] + ([self.following] if self.following else [])
        body = json.dumps(said, sort_keys=True, default=str)
        data = body.encode() + (self.vectors.tobytes() if self.vectors is not None else b"")
        return hashlib.sha256(data).hexdigest()

    def split_texts(self) -> tuple[list[dict[str, Any]], dict[tuple[str, str], str]]:
        """The records without their versions' texts, and the texts: (id, version id) -> text.
        A store keeps them apart, as most of a snapshot's size is old versions only a diff reads."""
        records, texts = [], {}
        for doc in self.records:
            versions = []
            for version in doc.get("versions") or []:
                if isinstance(version, dict) and "text" in version:
                    version = dict(version)
                    text = version.pop("text")
                    if isinstance(text, str):
                        texts[(str(doc["id"]), str(version.get("version_id")))] = text
                versions.append(version)
            records.append({**doc, "versions": versions} if "versions" in doc else doc)
        return records, texts

    def to_json(self) -> dict[str, Any]:
        vectors = base64.b64encode(self.vectors.tobytes()).decode() if self.vectors is not None else None
        return {
            "repository": self.repository,
            "commit": self.commit,
            "contract": self.contract,
            "records": self.records,
            "chunks": self.chunks,
            "vectors": vectors,
            "digest": self.digest,
            "committed": self.committed,
            "following": self.following,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        import numpy as np

        raw = data.get("vectors")
        dim = (data.get("contract") or {}).get("dim") or 0
        vectors = np.frombuffer(base64.b64decode(raw), dtype=np.float32).reshape(-1, dim) if raw and dim else None
        return cls(
            data["repository"],
            data.get("commit"),
            data.get("contract"),
            data["records"],
            data["chunks"],
            vectors,
            data.get("committed"),
            list(data.get("following") or []),
        )


# What a served hub takes in one publish (surfaces/server.py): a repository's decisions, as
# untrusted input. Each cap is far above a real folder's (cometbft: 93 records, 1,558 chunks).
MAX_RECORDS = 20_000
MAX_CHUNKS = 200_000
MAX_TEXT = 20_000  # characters of one chunk
_ID = re.compile(r"\A[^/\x00-\x1f]{1,200}\Z")  # a record's id: a page's and the API's path segment
MAX_OFFSET = 1_000_000  # words before a chunk in its record: a record is at most a megabyte
MAX_VERSION = 1_000_000  # characters of one version's text: a record's own cap (records/catalog.py)
MAX_FIELD = 10_000  # characters of a record's short field (a title, a status, a path, a tag, a glob)
MAX_LISTED = 1_000  # items in a record's list (tags, globs, rules, links, sections, versions)
REPOSITORY = re.compile(r"\A(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,199}\Z")  # no `..`: never a path up


def named(name: str, *, hint: str = "letters, digits and . _ - /, e.g. payments or acme/payments") -> str:
    """`name` when the hub takes it as a repository's name (the same on every path in: a publish
    to the store or over HTTP, a token's scope, a rename), else a usage error."""
    if not REPOSITORY.match(name):
        raise UsageError(f"{name[:80]!r} is no repository name the hub takes", hint=hint)
    return name


_COMMIT = re.compile(r"\A[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
_MOMENT = re.compile(r"\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")


def checked(data: Any, dim: int) -> Snapshot:
    """A snapshot sent over HTTP, its shape checked field by field, or a UsageError naming the
    first thing wrong. Nothing in it reaches a path or a query but as a value."""
    from adr_memory.errors import UsageError

    def wrong(what: str) -> UsageError:
        return UsageError(f"the publish is not one adr hub publish sends: {what}", hint="publish with adr hub publish")

    if not isinstance(data, dict):
        raise wrong("not a JSON object")
    repository, commit, committed = data.get("repository"), data.get("commit"), data.get("committed")
    if not isinstance(repository, str) or not REPOSITORY.match(repository):
        raise wrong("the repository's name")
    if commit is not None and not (isinstance(commit, str) and _COMMIT.match(commit)):
        raise wrong("the commit")
    if committed is not None and not (isinstance(committed, str) and _MOMENT.match(committed)):
        raise wrong("the commit's time")
    records, chunks = data.get("records"), data.get("chunks")
    if not isinstance(records, list) or len(records) > MAX_RECORDS:
        raise wrong(f"the records (a list of at most {MAX_RECORDS:,})")
    ids = [doc.get("id") if isinstance(doc, dict) else None for doc in records]
    if not all(isinstance(i, str) and _ID.match(i) for i in ids) or len(set(ids)) != len(ids):
        raise wrong("each record's id (unique, at most 200 characters, no / and no control character)")
    if not _plain_texts({k: v for k, v in data.items() if k != "vectors"}):  # the vectors: base64, checked below
        raise wrong(
            f"a text holding a NUL character or a lone surrogate, or over {MAX_VERSION:,} characters"
            " (no record's text does)"
        )
    if not isinstance(chunks, list) or len(chunks) > MAX_CHUNKS:
        raise wrong(f"the chunks (a list of at most {MAX_CHUNKS:,})")
    for doc in records:
        listed = doc.get("versions") or []
        if not isinstance(listed, list) or not all(
            isinstance(v, dict)
            and (v.get("text") is None or (isinstance(v["text"], str) and len(v["text"]) <= MAX_VERSION))
            for v in listed
        ):
            raise wrong(f"a record's versions (each text at most {MAX_VERSION:,} characters)")
        bad = _record_problem(doc)
        if bad:
            raise wrong(f"record {doc['id']}'s {bad}")
    known = set(ids)
    for c in chunks:
        if not (
            isinstance(c, dict)
            and c.get("id") in known
            and isinstance(c.get("section"), str)
            and isinstance(c.get("text"), str)
            and len(c["text"]) <= MAX_TEXT
            and type(c.get("offset", 0)) is int
            and 0 <= c.get("offset", 0) <= MAX_OFFSET
        ):
            raise wrong("a chunk (its record's id, section, text and offset)")
    contract = data.get("contract")
    vectors = data.get("vectors")
    if vectors is not None:
        if not (isinstance(contract, dict) and contract.get("dim") == dim and isinstance(vectors, str)):
            raise wrong(f"the vectors ({dim} dimensions, as the bundled model's)")
        try:
            size = len(base64.b64decode(vectors, validate=True))
        except ValueError:
            raise wrong("the vectors (base64)") from None
        if size != len(chunks) * dim * 4:
            raise wrong("the vectors (one a chunk)")
    following = data.get("following") or []
    if not isinstance(following, list) or not all(
        isinstance(f, dict)
        and isinstance(f.get("repository"), str)
        and isinstance(f.get("id"), str)
        and all(_text_or_none(f.get(k)) for k in ("state", "reason"))
        and _texts(f.get("exception", []))
        for f in following
    ):
        raise wrong("what it follows of other repositories' decisions")
    snap = Snapshot.from_json(data)
    if snap.vectors is not None and not _unit_rows(snap.vectors):
        raise wrong("the vectors (finite, each of unit length, as the bundled model's)")
    return snap


# What the hub's readers and pages read of a published record, by kind: a publish over HTTP is
# anyone's text, and one record of the wrong shape must not break a page every reader shares.
_TEXTS: tuple[str, ...] = ("title", "status", "status_text", "path", "date", "date_text", "heading", "format")
_TEXTS += ("state", "reason", "key", "cardinality", "value", "version_id", "first_date", "source", "stale_text", "link")
_LISTS_OF_TEXT = ("tags", "governs", "supersedes", "superseded_by", "disputed")
_LISTS_OF_MAPPINGS = ("sections", "rules", "links", "backlinks", "exceptions", "versions")
_VERSION_LISTS = ("transitions", "reviews")


def _record_problem(doc: dict[str, Any]) -> str | None:
    """What of a published record is not of the shape `adr hub publish` sends, or None."""
    for key in _TEXTS:
        if not _text_or_none(doc.get(key), MAX_FIELD):
            return f"{key} (text of at most {MAX_FIELD:,} characters)"
    if not (doc.get("number") is None or type(doc["number"]) is int):
        return "number (a whole number)"
    for key in _LISTS_OF_TEXT:
        if not (_texts(doc.get(key, [])) and _listed(doc.get(key, []))):
            return f"{key} (a list of at most {MAX_LISTED:,} texts of at most {MAX_FIELD:,} characters)"
    for key in _LISTS_OF_MAPPINGS:
        if not (_listed(doc.get(key, [])) and all(isinstance(v, dict) for v in doc.get(key, []))):
            return f"{key} (a list of at most {MAX_LISTED:,} mappings)"
    if not all(isinstance(s.get("heading"), str) and isinstance(s.get("text"), str) for s in doc.get("sections", [])):
        return "sections (each a heading and a text)"
    if not all(all(isinstance(e.get(k), str) for k in ("repository", "id")) for e in doc.get("exceptions", [])):
        return "exceptions (each a repository and an id)"
    if not all(_version_ok(v) for v in doc.get("versions", [])):
        return "versions (texts, and status changes and reviews of texts)"
    if not (doc.get("standing") is None or isinstance(doc["standing"], dict)):
        return "standing (a mapping)"
    link = doc.get("link")
    if link is not None and not link.startswith(("https://", "http://")):
        return "link (an http or https address)"
    return None


def _version_ok(version: dict[str, Any]) -> bool:
    plain = all(_text_or_none(x) or isinstance(x, bool) for k, x in version.items() if k not in _VERSION_LISTS)
    return plain and all(
        isinstance(version.get(k, []), list)
        and all(isinstance(e, dict) and all(_text_or_none(x) for x in e.values()) for e in version.get(k, []))
        for k in _VERSION_LISTS
    )


def _text_or_none(value: Any, cap: int = MAX_VERSION) -> bool:
    return value is None or (isinstance(value, str) and "\0" not in value and len(value) <= cap)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(_text_or_none(v, MAX_FIELD) and v is not None for v in value)


def _listed(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= MAX_LISTED


def _unit_rows(vectors: Any) -> bool:
    import numpy as np

    if not np.isfinite(vectors).all():
        return False
    return bool((np.abs(np.linalg.norm(vectors, axis=1) - 1.0) < 0.01).all())


def _plain_texts(data: Any) -> bool:
    """Every text in a published payload: no NUL (PostgreSQL takes none) and no lone surrogate
    (no page or answer could encode it). A stack, not recursion: a payload may nest deep."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\0" in item or len(item) > MAX_VERSION or not _encodes(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def exceptions(ws: Workspace, rec: Record) -> list[dict[str, str]]:
    """The organisation's decisions this record is this repository's exception to: each source
    decision it supersedes, named as the hub knows it (the source's repository, its id there)."""
    specs = {spec.name: spec for spec in ws.config.sources}
    out = []
    for target in rec.supersedes:
        name, sep, ident = target.partition(":")
        if sep and name in specs:
            out.append({"repository": specs[name].hub_name, "id": ident, "source": name})
    return out


_SSH = re.compile(r"^(?:ssh://)?[\w.-]+@([\w.-]+)[:/](?:\d+/)?(.+?)(?:\.git)?/?$")
_WEB = re.compile(r"^https?://(?:[^@/\s]+@)?([\w.:-]+)/(.+?)(?:\.git)?/?$")


def web_url(remote: str | None) -> str | None:
    """The repository's page on its host, from its remote, credentials never kept
    (`git@github.com:acme/payments.git` -> `https://github.com/acme/payments`); None for a
    remote that is a path on disk."""
    found = _SSH.match(remote or "") or _WEB.match(remote or "")
    return f"https://{found.group(1)}/{found.group(2)}" if found else None
