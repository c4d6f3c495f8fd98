"""The MCP server both of adr's servers run (a repository's, `adr mcp`; the hub's, `adr mcp
--hub`): the SDK's, with arguments an agent got wrong answered as every other error is, one
`{"error", "hint"}` result, rather than pydantic's text (its error URLs, its type names)."""

from __future__ import annotations

import json
from typing import Any

from mcp_types import CallToolResult, TextContent

from adr_memory import __version__


def server(name: str, instructions: str) -> Any:
    """A server named `name`; its tools are added by the caller."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class Server(MCPServer):
        async def call_tool(self, tool: str, arguments: dict[str, Any], context: Any = None) -> Any:
            try:
                return await super().call_tool(tool, arguments, context)
            except ToolError as exc:
                if isinstance(exc.__cause__, ValidationError):
                    told = {"error": wrong_arguments(tool, exc.__cause__.errors()), "hint": usage(self, tool)}
                elif str(exc).lower().startswith("unknown tool"):  # the same shape as every other error
                    names = sorted(t.name for t in await self.list_tools())
                    told = {"error": f"no tool {tool[:60]!r}", "hint": "the tools: " + ", ".join(names)}
                else:
                    raise
                return CallToolResult(content=[TextContent(type="text", text=json.dumps(told))], is_error=True)

    import logging

    logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK says each request at INFO, on the agent's stderr
    return Server(name=name, version=__version__, instructions=instructions)


def wrong_arguments(tool: str, errors: Any) -> str:
    """What was wrong, by argument, in words; never the value the agent sent (its own data)."""
    said = []
    for err in errors:
        where = ".".join(str(part) for part in err.get("loc", ())) or "the arguments"
        if err.get("type") == "missing":
            said.append(f"{where} is required")
        else:
            said.append(f"{where}: {str(err.get('msg', 'not valid')).rstrip('.').lower()}")
    return f"{tool}: " + "; ".join(said)


def usage(server: Any, tool: str) -> str:
    """The tool's arguments and their types, as its input schema gives them to the agent."""
    found = server._tool_manager.get_tool(tool)  # the SDK keeps no public lookup of one tool
    if found is None:
        return "list the tools to see their arguments"
    schema = found.parameters
    required = set(schema.get("required", ()))
    shown = [
        f"{name}: {_type_name(spec)}" + ("" if name in required else " (optional)")
        for name, spec in schema.get("properties", {}).items()
    ]
    return f"{tool} takes " + (", ".join(shown) if shown else "no arguments")


def _type_name(spec: dict[str, Any]) -> str:
    """`string`, `integer`, `array of string`, `string or null` from a JSON schema."""
    if "anyOf" in spec:
        return " or ".join(_type_name(part) for part in spec["anyOf"] if part.get("type") != "null") or "null"
    kind = str(spec.get("type", "any"))
    if kind == "array":
        return f"array of {_type_name(spec.get('items', {}))}"
    return kind
