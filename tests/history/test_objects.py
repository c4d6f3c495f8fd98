"""Git objects as dulwich reads them: a commit's author and time whatever a hand-made commit
says, its text in the encoding it names, and a blob's size known before it is read, loose or
packed."""

from __future__ import annotations

from dulwich.objects import Commit
from dulwich.repo import Repo as DulwichRepo

from adr_memory.history.objects import CommitInfo, _signature, _Sizes, _text
from tests.helpers import commit, git


def _commit(author: bytes, when: int | None = 1_700_000_000) -> Commit:
    made = Commit()
    made.tree = b"4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    made.author = made.committer = author
    if when is not None:
        made.author_time = made.commit_time = when
        made.author_timezone = made.commit_timezone = 0
    made.message = b"x"
    return made


def test_a_commits_author_and_time_are_read_whatever_it_says():
    assert _signature(_commit(b"Ada <ada@example.com>")) == ("Ada <ada@example.com>", 1_700_000_000)
    assert _signature(_commit(b"Ada <ada@example.com>", when=10**13)) == (
        "Ada <ada@example.com>",
        0,
    )  # no calendar holds it


def test_commit_text_is_read_in_the_encoding_it_names_else_utf8():
    assert _text("Zoë".encode("latin-1"), b"ISO-8859-1") == "Zoë"
    assert _text("Zoë".encode(), b"no-such-encoding") == "Zoë"
    assert _text(b"\xff", None) == "\ufffd"
    assert CommitInfo("s", (), "t", "a", 0, "Subject line\n\nbody").subject == "Subject line"


def test_a_blobs_size_is_known_loose_and_packed(repo):
    commit(repo, {"docs/adr/0001-a.md": "x" * 5000, "b.txt": "hello\n"}, "two blobs")
    blob = git(repo, "rev-parse", "HEAD:docs/adr/0001-a.md")
    small = git(repo, "rev-parse", "HEAD:b.txt")
    sizes = _Sizes(DulwichRepo(str(repo)).object_store)
    assert (sizes(blob), sizes(small)) == (5000, 6)
    git(repo, "gc", "-q", "--aggressive")  # now packed, and maybe as deltas
    packed = _Sizes(DulwichRepo(str(repo)).object_store)
    assert (packed(blob), packed(small)) == (5000, 6)
    assert packed("0" * 40) is None
