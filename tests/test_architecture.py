"""The tree is the architecture (docs/architecture.md): layer packages whose imports only go
down, each entered through its face, no module too big to read, one error boundary."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "adr_memory"
# Lower layers first; search, policy and the hub stand side by side and never import each other.
LAYERS = {"base": 0, "records": 1, "history": 2, "search": 3, "policy": 3, "hub": 3, "commands": 4, "surfaces": 6}
TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "hook.py"}
MAX_LINES = 550  # "about 500": a module a reader takes in at one sitting


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every import of adr_memory, at any depth of the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("adr_memory"):
            found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name, []) for a in node.names if a.name.startswith("adr_memory")]
    return found


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_the_top_level_holds_the_layers_and_a_handful_of_files():
    files = {p.name for p in PACKAGE.iterdir() if p.is_file() and p.suffix == ".py"}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert files == TOP_LEVEL
    assert folders == set(LAYERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_down_and_through_each_face(path):
    inside = path.relative_to(PACKAGE).parts
    own = inside[0] if len(inside) > 1 else None  # the layer, however deep the module sits in it
    for line, module, names in _imports(path):
        other = _package(module)
        if other is None or other == own or own is None:
            continue  # errors, the package itself, or an entry point at the top
        where = f"{path.relative_to(PACKAGE)}:{line} imports {module}"
        assert LAYERS[other] < LAYERS[own], f"{where}: an import up or across a layer"
        assert module == f"adr_memory.{other}", f"{where}: past the face of {other}"
        face = importlib.import_module(module)
        assert set(names) <= set(face.__all__), f"{where}: {sorted(set(names) - set(face.__all__))} not offered"


def test_every_name_a_face_offers_is_there():
    for layer in LAYERS:
        face = importlib.import_module(f"adr_memory.{layer}")
        for name in face.__all__:
            assert getattr(face, name, None) is not None or importlib.import_module(f"adr_memory.{layer}.{name}")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_too_big_to_read(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_only_the_boundary_catches_everything():
    """Elsewhere a handler names what it catches; a third-party call documented to raise
    anything says so on the handler's line."""
    broad = []
    for path in _modules():
        for n, text in enumerate(path.read_text().splitlines(), 1):
            stripped = text.strip()
            catches_all = stripped.startswith(("except Exception", "except BaseException", "except:"))
            if catches_all and path.name != "boundary.py" and "raises anything" not in text:
                broad.append(f"{path.relative_to(PACKAGE)}:{n}: {stripped}")
    assert broad == []


TESTS = Path(__file__).parent


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if p.name != "__init__.py" and len(p.relative_to(PACKAGE).parts) > 1],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_every_module_has_a_test_file_of_its_own(path):
    """tests/ mirrors the package: `history/walk.py` is tested in `tests/history/test_walk.py`
    (the entry points at the top are run whole by tests/surfaces/test_cli.py)."""
    inside = path.relative_to(PACKAGE)
    mirror = TESTS.joinpath(*inside.parts[:-1], f"test_{path.stem}.py")
    assert mirror.is_file(), f"{inside} has no {mirror.relative_to(TESTS.parent)}"


# The modules that act on the command's own repository (its hooks); every other reader of
# history takes a Folder (history/folder.py, ADR-0099), sources a Folder with its config.
_WORKSPACE_READERS = {"history/workspace.py", "history/hooks.py", "history/__init__.py"}


@pytest.mark.parametrize(
    "path", [p for p in _modules() if p.parent.name == "history"], ids=lambda p: p.relative_to(PACKAGE).as_posix()
)
def test_what_reads_history_takes_a_folder_never_the_command_s_workspace(path):
    rel = path.relative_to(PACKAGE).as_posix()
    names = {n for _line, module, names in _imports(path) for n in names if module.startswith("adr_memory.history")}
    assert rel in _WORKSPACE_READERS or "Workspace" not in names, f"{rel} takes a Workspace: take a history.Folder"


# The modules that hold the CLI's command bodies and the git and agent hooks: each calls its
# command in commands/ and renders what it returns; none reaches below (issue 64). The hooks
# open the repository (history.Workspace) and nothing more of history.
_COMMAND_BODIES = sorted(
    p for p in (PACKAGE / "surfaces").glob("*.py") if p.name.startswith("commands_") or p.name in ("cli.py", "hook.py")
)


@pytest.mark.parametrize("path", _COMMAND_BODIES, ids=lambda p: p.name)
def test_no_command_body_calls_below_the_command_layer(path):
    below = ("history", "policy", "search", "hub")
    for line, module, names in _imports(path):
        if _package(module) in below:
            opens = path.name == "hook.py" and module == "adr_memory.history" and names == ["Workspace"]
            assert opens, f"surfaces/{path.name}:{line} imports {module} {names}: call its command in commands/"
