"""Reading trees: an entry found by path (and the submodule a path runs into), a folder's files
in tree order, and diffs pruned to the prefixes asked for, equal to what `git diff` lists."""

from __future__ import annotations

from adr_memory.history.repo import Repo
from tests.helpers import commit, git


def _tree(repo, ref="HEAD") -> str:
    return git(repo, "rev-parse", f"{ref}^{{tree}}")


def _submodule(repo, tmp_path) -> str:
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    commit(lib, {"README": "lib\n"}, "lib")
    sha = git(lib, "rev-parse", "HEAD")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/lib")
    return sha


def test_an_entry_is_found_by_its_path_and_a_path_into_a_submodule_is_none(repo, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": "# A\n", "src/x.py": "x\n"}, "files")
    sub = _submodule(repo, tmp_path)
    git(repo, "commit", "-q", "-m", "a submodule")  # not `add -A`: the submodule is not checked out
    read = Repo.open(repo)
    mode, blob = read.lookup(_tree(repo), "src/x.py")
    assert blob == git(repo, "rev-parse", "HEAD:src/x.py") and mode == 0o100644
    assert read.lookup(_tree(repo), "src/none.py") is None
    assert read.lookup(_tree(repo), "src/x.py/below") is None  # a file has nothing inside it
    assert read.lookup(_tree(repo), "vendor/lib/README") is None
    assert read.submodule_above(_tree(repo), "vendor/lib/README") == "vendor/lib"
    assert read.submodule_above(_tree(repo), "src/x.py") is None
    assert dict(read.files(_tree(repo), "vendor"))["vendor/lib"] == sub
    assert list(read.files(_tree(repo), "vendor", submodules=False)) == []


def test_a_folder_s_files_are_listed_as_git_lists_them(repo):
    files = {f"docs/adr/{n:04}-r.md": f"# {n}\n" for n in range(1, 6)} | {"docs/adr/img/a.png": b"\x89PNG"}
    commit(repo, files | {"src/x.py": "x\n"}, "files")
    listed = [path for path, _ in Repo.open(repo).files(_tree(repo), "docs/adr")]
    assert listed == git(repo, "ls-tree", "-r", "--name-only", "HEAD", "docs/adr").splitlines()
    assert [p for p, _ in Repo.open(repo).files(_tree(repo), "src/x.py")] == ["src/x.py"]
    assert list(Repo.open(repo).files(_tree(repo), "nowhere")) == []


def test_a_diff_limited_to_prefixes_lists_what_git_diff_lists_there(repo):
    commit(repo, {"docs/adr/0001-a.md": "# A\n", "src/db/x.py": "x\n", "src/web/y.py": "y\n", "z.txt": "z"}, "one")
    old = _tree(repo)
    commit(repo, {"docs/adr/0001-a.md": "# A!\n", "src/db/x.py": None, "src/db/new.py": "n", "z.txt": "zz"}, "two")
    read = Repo.open(repo)
    for prefixes in (["docs/adr"], ["src/db", "src"], ["src/web"], [""], ["z.txt"]):
        shown = git(repo, "diff", "--name-only", "HEAD~1", "HEAD", "--", *(p or "." for p in prefixes)).splitlines()
        assert read.changed_paths(old, _tree(repo), prefixes) == set(shown), prefixes
    changes = {path: (a, b) for path, a, b in read.tree_changes(old, _tree(repo))}
    assert changes["src/db/x.py"][1] is None and changes["src/db/new.py"][0] is None
    assert set(changes) == set(git(repo, "diff", "--name-only", "HEAD~1", "HEAD").splitlines())


def test_a_name_that_is_not_utf8_keeps_its_bytes_as_the_disk_gives_them(repo):
    import os

    name = b"docs/adr/0001-caf\xe9.md"
    os.makedirs(repo / "docs/adr", exist_ok=True)
    with open(os.fsencode(repo) + b"/" + name, "w") as handle:
        handle.write("# Café\n")
    commit(repo, {}, "latin-1 name")
    ((path, _),) = Repo.open(repo).files(_tree(repo), "docs/adr")
    assert os.fsencode(path) == name
    assert Repo.open(repo).lookup(_tree(repo), path) is not None
