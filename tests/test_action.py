"""action.yml, run as a runner runs a composite action: each `run:` step in `bash -eo pipefail`
with its `env:` expressions evaluated from the inputs, the github context of a pull-request or
push event file and the outputs of the steps before, `$GITHUB_OUTPUT` read after each, a step
that fails skipping those after it unless their `if:` says otherwise. The `uses:` steps
(setup-python, cache) and the install of this checkout are the real runner's (the package is
installed here); `gh` is a recording stand-in that keeps the pull request's comments."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import adr_text, commit, git

ROOT = Path(__file__).parents[1]
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
MARKER = "<!-- adr-memory review -->"

GH = f"""#!{sys.executable}
# A stand-in for gh: records each call, keeps the pull request's comments in a file.
import json, os, sys
args = sys.argv[1:]
state = os.environ["GH_STATE"]
with open(state + ".calls", "a") as log:
    log.write(json.dumps({{"args": args, "token": os.environ.get("GH_TOKEN")}}) + "\\n")
comments = json.load(open(state)) if os.path.exists(state) else []
def body():
    value = args[args.index("-F") + 1].removeprefix("body=@")
    return open(value).read()
if "--method" not in args:  # the listing, filtered as the action's --jq filters it
    print("\\n".join(str(c["id"]) for c in comments if c["body"].startswith({MARKER!r})))
elif args[args.index("--method") + 1] == "POST":
    comments.append({{"id": 100 + len(comments), "body": body()}})
else:
    ident = int(args[args.index("--method") + 2].rsplit("/", 1)[1])
    next(c for c in comments if c["id"] == ident)["body"] = body()
json.dump(comments, open(state, "w"))
"""


def _value(expr: str, ctx: dict[str, Any]) -> Any:
    if expr == "!cancelled()":
        return True
    node: Any = ctx
    for part in expr.split("."):
        node = node.get(part, "") if isinstance(node, dict) else ""
    return node


def _render(text: str, ctx: dict[str, Any]) -> str:
    return EXPR.sub(lambda m: str(_value(m.group(1), ctx)), str(text))


def run_action(repo: Path, tmp: Path, event_name: str, event: dict[str, Any], **given: str) -> dict[str, Any]:
    """The action's steps on `repo` for one event; its outputs and each step's exit and output."""
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    tmp.mkdir(exist_ok=True)
    (tmp / "bin").mkdir(exist_ok=True)
    (tmp / "bin" / "gh").write_text(GH)
    (tmp / "bin" / "gh").chmod(0o755)
    (tmp / "event.json").write_text(json.dumps(event))
    github = {
        "event_name": event_name,
        "event": event,
        "base_ref": event.get("pull_request", {}).get("base", {}).get("ref", ""),
        "ref": event.get("ref", ""),
        "sha": git(repo, "rev-parse", "HEAD").strip(),
        "token": "ghs-token-of-the-run",
        "repository": "acme/shop",
    }
    ctx: dict[str, Any] = {"github": github, "runner": {"os": "Linux"}, "steps": {}}
    ctx["inputs"] = {k: _render(v.get("default", ""), ctx) for k, v in action["inputs"].items()} | given
    ran: dict[str, Any] = {}
    failed = False
    for step in action["runs"]["steps"]:
        if "uses" in step or step.get("id") == "install":
            continue
        condition = EXPR.fullmatch(str(step.get("if", "")).split("  #")[0].strip())
        if (failed and condition is None) or (condition is not None and not _value(condition.group(1), ctx)):
            continue
        output = tmp / f"output-{step['id']}"
        output.write_text("")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "ADR_"))}
        env |= {
            "PATH": f"{tmp / 'bin'}{os.pathsep}{env['PATH']}",
            "GITHUB_OUTPUT": str(output),
            "GITHUB_EVENT_PATH": str(tmp / "event.json"),
            "GITHUB_REPOSITORY": "acme/shop",
            "GITHUB_ACTION_PATH": str(ROOT),
            "RUNNER_TEMP": str(tmp),
            "GH_STATE": str(tmp / "comments.json"),
            "NO_COLOR": "1",
        }
        env |= {k: _render(v, ctx) for k, v in step.get("env", {}).items()}
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        said = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        ctx["steps"][step["id"]] = {"outputs": said}
        ran[step["id"]] = done
        failed = failed or done.returncode != 0
    outputs = {k: _render(v["value"], ctx) for k, v in action["outputs"].items()}
    return {"outputs": outputs, "steps": ran}


def _calls(tmp: Path) -> list[dict[str, Any]]:
    calls = tmp / "comments.json.calls"
    return [json.loads(line) for line in calls.read_text().splitlines()] if calls.exists() else []


@pytest.fixture
def pull_request(tmp_path):
    """A clone whose branch `topic` breaks a rule of ADR-0001 and changes the code it governs,
    and adds a proposed decision; `origin/main` is the base."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    git(tmp_path, "clone", "-q", str(origin), str(work))
    rule = 'rules:\n  - {forbid: "import pymongo", in: ["src/**"], message: "we use PostgreSQL"}'
    commit(
        work,
        {"docs/adr/0001-use-postgresql.md": adr_text("Use PostgreSQL", governs=["src/db/**"], extra=rule)},
        "decide",
    )
    commit(work, {"src/db/a.py": "import psycopg\n"}, "code")
    git(work, "push", "-q", "origin", "main")
    git(work, "checkout", "-q", "-b", "topic")
    commit(
        work,
        {
            "src/db/a.py": "import psycopg\nimport pymongo\n",
            "docs/adr/0002-cache-sessions.md": adr_text("Cache sessions in Redis", status="proposed"),
        },
        "the branch",
    )
    return work


PR_EVENT = {"pull_request": {"number": 7, "base": {"ref": "main"}}, "repository": {"default_branch": "main"}}


def test_a_pull_request_is_checked_with_annotations_and_reviewed_in_one_comment(pull_request, tmp_path):
    ran = run_action(pull_request, tmp_path / "run", "pull_request", PR_EVENT)
    check = ran["steps"]["check"]
    assert check.returncode == 1, check.stderr  # a rule broken: the job fails
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert any(a.startswith("::error file=src/db/a.py,line=2") and "we use PostgreSQL" in a for a in annotations)
    found = json.loads((tmp_path / "run" / "adr-check.json").read_text())["findings"]
    assert ran["outputs"]["errors"] == str(sum(f["severity"] == "error" for f in found)) != "0"
    assert ran["outputs"]["warnings"] == str(sum(f["severity"] == "warning" for f in found))
    assert ran["outputs"]["stale"] == str(sum(f["kind"] == "stale" for f in found))
    assert ran["steps"]["review"].returncode == 0, ran["steps"]["review"].stderr  # reviewed though the check failed
    (posted,) = json.loads((tmp_path / "run" / "comments.json").read_text())
    assert posted["body"].startswith(MARKER + "\n") and "Cache sessions in Redis" in posted["body"]
    calls = _calls(tmp_path / "run")
    assert [c["args"][:3] for c in calls] == [
        ["api", "--paginate", "repos/acme/shop/issues/7/comments"],
        ["api", "--method", "POST"],
    ]
    assert {c["token"] for c in calls} == {"ghs-token-of-the-run"}  # the github-token input's default
    assert ran["outputs"]["published"] == "" and "nothing published" in ran["steps"]["publish"].stdout

    # A new push to the pull request: the same comment, updated in place.
    commit(pull_request, {"src/db/a.py": "import psycopg\n"}, "fix the import")
    again = run_action(pull_request, tmp_path / "run", "pull_request", PR_EVENT)
    assert again["steps"]["check"].returncode == 0, again["steps"]["check"].stdout
    (updated,) = json.loads((tmp_path / "run" / "comments.json").read_text())
    assert updated["id"] == posted["id"] and updated["body"] != posted["body"]
    assert _calls(tmp_path / "run")[-1]["args"][:3] == ["api", "--method", "PATCH"]


def test_inputs_choose_the_failure_level_and_whether_to_comment(pull_request, tmp_path):
    ran = run_action(
        pull_request, tmp_path / "run", "pull_request", PR_EVENT, **{"fail-on": "none", "comment": "false"}
    )
    assert ran["steps"]["check"].returncode == 0 and ran["outputs"]["errors"] != "0"  # said, not failed
    assert "no review posted" in ran["steps"]["review"].stdout and _calls(tmp_path / "run") == []


def test_the_default_branch_publishes_to_the_hub_and_another_branch_does_not(pull_request, tmp_path):
    from adr_memory.commands import hub

    git(pull_request, "checkout", "-q", "main")
    url = str(tmp_path / "hub")
    hub.init(url)
    push = {"ref": "refs/heads/main", "repository": {"default_branch": "main"}}
    ran = run_action(pull_request, tmp_path / "run", "push", push, hub=url, **{"hub-name": "shop"})
    assert ran["steps"]["check"].returncode == 0 and ran["steps"]["review"].returncode == 0
    assert ran["outputs"]["published"] == git(pull_request, "rev-parse", "HEAD").strip()
    assert [r["name"] for r in hub.open_hub(url).repositories()] == ["shop"]
    elsewhere = {"ref": "refs/heads/topic", "repository": {"default_branch": "main"}}
    other = run_action(pull_request, tmp_path / "other", "push", elsewhere, hub=url)
    assert other["outputs"]["published"] == "" and "nothing published" in other["steps"]["publish"].stdout
    assert _calls(tmp_path / "run") == [] and _calls(tmp_path / "other") == []  # no pull request: gh never ran
