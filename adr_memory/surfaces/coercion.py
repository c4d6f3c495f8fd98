"""Text arguments coerced without pydantic (ADR-0084).

typer 0.29 coerces every argument through a pydantic TypeAdapter it builds when the command
runs: importing pydantic and building the adapters costs ~0.13 s, a fifth of `adr list` and
more than everything `adr show` reads. Most of our arguments are text or flags (`str`, `list[str]`,
`bool`), which click has already parsed into those types: for them the adapter hands the value
back as it came. Here such a value is handed back at once; anything else (a number with bounds, a path,
bytes) goes to typer's own coercion, built the first time it is needed, so every value and
every error message stays typer's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def install() -> bool:
    """Put the fast path in front of typer's coercion; False (and typer's own coercion, only
    slower) when typer no longer has the parts it relies on."""
    try:
        from typer import core
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:
        return False
    parameter: Any = getattr(core, "_TyperParameter", None)
    if parameter is None or not hasattr(parameter, "get_runtime_param") or getattr(parameter, "_adr_text", False):
        return parameter is not None and getattr(parameter, "_adr_text", False)

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        """A `str`, `bool` or `list[str]` argument: the value click parsed, when it is of that
        type already; else typer's coercion."""

        many: bool = False

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.many and isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                return list(value)
            if not self.many and isinstance(value, self.annotation):
                return value
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)

    original = parameter.get_runtime_param

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            plain = descriptor.parameter_info.parser is None and descriptor.file_annotation is None
            if plain and descriptor.annotation in (str, bool, list[str]):
                self._runtime_param = Plain(
                    parameter_info=descriptor.parameter_info,
                    annotation=descriptor.annotation,
                    many=descriptor.annotation == list[str],
                )
        return original(self)

    parameter.get_runtime_param = get_runtime_param
    parameter._adr_text = True
    return True
