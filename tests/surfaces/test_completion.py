"""Shell completion for bash, zsh and fish: commands, options and the folder's ids, through
each shell's protocol; the bash script itself, sourced in a real bash."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import adr_text, commit

ADR = Path(sys.executable).parent / "adr"
pytestmark = pytest.mark.skipif(not ADR.exists(), reason="the adr script is not installed (pip install -e .)")


def _complete(repo, shell: str, words: str) -> str:
    env = {**os.environ, "_ADR_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env |= {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    else:
        env |= {"_TYPER_COMPLETE_ARGS": words, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    return subprocess.run([str(ADR)], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def folder(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Use queues"), "docs/adr/0002-b.md": adr_text("Use Redis")})
    return repo


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_commands_and_ids_complete_in_every_shell(folder, shell):
    assert "show" in _complete(folder, shell, "adr sh")
    ids = _complete(folder, shell, "adr accept ADR-")
    assert "ADR-0001" in ids and "ADR-0002" in ids
    assert "ADR-0001" not in _complete(folder, shell, "adr accept ADR-0002")
    assert "--status" in _complete(folder, shell, "adr list --st")


@pytest.mark.parametrize(
    ("shell", "start"), [("bash", "_adr_completion()"), ("zsh", "#compdef adr"), ("fish", "complete --command adr")]
)
def test_each_shell_gets_its_script(folder, shell, start):
    env = {**os.environ, "_ADR_COMPLETE": f"source_{shell}"}
    script = subprocess.run([str(ADR)], cwd=folder, env=env, capture_output=True, text=True, check=True).stdout
    assert script.strip().startswith(start)


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_the_bash_script_completes_ids_in_bash(folder):
    script = subprocess.run(
        [str(ADR)], cwd=folder, env={**os.environ, "_ADR_COMPLETE": "source_bash"}, capture_output=True, text=True
    ).stdout
    drive = script + '\nCOMP_WORDS=(adr show ADR-000); COMP_CWORD=2; _adr_completion adr; echo "${COMPREPLY[@]}"\n'
    env = {**os.environ, "PATH": f"{ADR.parent}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", drive], cwd=folder, env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["ADR-0001", "ADR-0002"]


def test_no_folder_completes_nothing_and_says_nothing(repo):
    assert _complete(repo, "bash", "adr show ").strip() == ""


@pytest.mark.parametrize(("shell", "marker"), [("zsh", "#compdef adr"), ("fish", "complete --command adr")])
def test_show_completion_names_a_shell_and_prints_that_shell_s_script_from_bash(shell, marker, tmp_path):
    env = {**os.environ, "SHELL": "/bin/bash"}
    done = subprocess.run([str(ADR), "--show-completion", shell], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith(marker) and "COMPREPLY" not in done.stdout
    alone = subprocess.run([str(ADR), "--show-completion"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert alone.returncode == 0 and alone.stdout.strip()  # the detected shell's, as before


def test_the_flag_alone_with_no_shell_above_adr_names_the_login_shell(tmp_path):
    """Started by a script or a CI runner, no shell runs above adr: typer printed "Shell  not
    supported." and exited 1. The login shell ($SHELL) is what the user means then."""
    out = tmp_path / "out"
    orphan = (  # the middle process leaves at once: adr's parents are this script, then init
        "import os, subprocess, sys\n"
        "if os.fork():\n"
        "    os._exit(0)\n"
        f"done = subprocess.run([{str(ADR)!r}, '--show-completion'], capture_output=True, text=True)\n"
        f"open({str(out)!r} + '.part', 'w').write(f'{{done.returncode}}\\n{{done.stdout}}{{done.stderr}}')\n"
        f"os.rename({str(out)!r} + '.part', {str(out)!r})\n"
    )
    env = {**os.environ, "SHELL": "/usr/bin/zsh"}
    subprocess.run([sys.executable, "-c", orphan], cwd=tmp_path, env=env, check=True, start_new_session=True)
    for _ in range(600):
        if out.exists():
            break
        time.sleep(0.05)
    code, _, text = out.read_text().partition("\n")
    assert code == "0" and text.startswith("#compdef adr"), text
