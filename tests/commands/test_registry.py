"""commands.registry: every CLI command, MCP tool and hook is entered once, and each surface
calls the function its entry names (pip's commands_dict, held by reading the surfaces)."""

from __future__ import annotations

import asyncio
import inspect
import re

import typer.main

from adr_memory.commands import registry
from adr_memory.surfaces import hook, mcp
from adr_memory.surfaces.cli import app


def _cli_commands(group=app, prefix=""):
    for info in group.registered_commands:
        yield prefix + (info.name or typer.main.get_command_name(info.callback.__name__)), info.callback
    for sub in group.registered_groups:
        yield from _cli_commands(sub.typer_instance, f"{prefix}{sub.name} ")


def _calls(source: str, target: str) -> bool:
    """Whether `source` imports the target's module from commands and calls its function."""
    module, _, function = target.partition(":")
    imported = rf"from adr_memory\.commands import {module}(?: as (\w+))?\n"
    aliases = {m.group(1) or module for m in re.finditer(imported, source)}
    listed = re.finditer(r"from adr_memory\.commands import ([\w, ]+)\n", source)
    aliases |= {module for m in listed if module in m.group(1).split(", ")}
    return any(re.search(rf"\b{alias}\.{function}\(", source) for alias in aliases)


def test_every_cli_command_is_entered_and_calls_its_entry():
    seen = dict(_cli_commands())
    assert set(seen) == set(registry.CLI), set(seen) ^ set(registry.CLI)
    from adr_memory.surfaces.site import build

    drawn_by = {"site": build}  # the CLI body hands the work to the surface module drawing it
    for name, callback in seen.items():
        target = registry.CLI[name]
        caller = drawn_by.get(name, inspect.unwrap(callback))
        if target:
            assert _calls(inspect.getsource(caller), target), f"adr {name} does not call {target}"
        registry.get(target) if target else None  # every entry names a function that exists


def test_every_mcp_tool_answers_through_its_entry(repo):
    from tests.helpers import adr_text, commit

    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    from adr_memory.history import Workspace

    server = mcp.build(lambda: Workspace.discover(repo), allow_write=True)
    listed = {t.name for t in asyncio.run(server.list_tools())}
    assert listed == set(registry.MCP)
    for name, target in registry.MCP.items():
        command = registry.get(target)
        tool = mcp.tool(name)
        if getattr(tool, "__wrapped__", None) is not None:  # the schema is read from the command itself
            assert inspect.unwrap(tool) is inspect.unwrap(command) or tool.__doc__ == command.__doc__
        else:
            assert _calls(inspect.getsource(tool), target), f"tool {name} does not call {target}"


def test_every_hub_tool_and_hook_is_entered():
    from adr_memory.surfaces import mcp_hub

    source = inspect.getsource(mcp_hub._tools)
    for _name, target in registry.MCP_HUB.items():
        assert _calls(source, target), target
    parser_source = inspect.getsource(hook.main)
    assert set(re.findall(r'add_parser\(\s*"([\w-]+)"', parser_source)) == set(registry.HOOKS)
    whole = inspect.getsource(hook)
    for _name, target in registry.HOOKS.items():
        assert _calls(whole, target), target


def test_get_reads_a_function_by_its_target():
    assert registry.get("lifecycle:accept").__name__ == "accept"
    assert registry.tool("get").__name__ == "get"
