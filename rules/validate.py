"""Turning any input into either a typed model or an :class:`InvalidInput`.

Two entry points: :func:`load_json` for raw text (the CLI), which refuses what
is not JSON (``NaN`` included) and nesting too deep to be honest input, and
:func:`parse` which validates a decoded payload against an operation's model
and reports every problem under the JSON path of the contract
(``units[1].rate``, ``declarations.sides.B.orders``).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from rules.errors import InvalidInput

MAX_DEPTH = 64

_MESSAGES = {
    "missing": "this field is required",
    "extra_forbidden": "unknown field",
    "int_type": "must be an integer",
    "int_from_float": "must be an integer",
    "bool_type": "must be true or false",
    "string_type": "must be a string",
    "float_type": "must be a number",
    "finite_number": "must be a finite number",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def depth(value: Any) -> int:
    """Nesting depth of decoded JSON, computed without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def check_depth(value: Any) -> None:
    if depth(value) > MAX_DEPTH:
        raise InvalidInput(f"The input is nested more than {MAX_DEPTH} levels deep.", {"": "too deeply nested"})


def load_json(text: str) -> Any:
    """Decode JSON text; anything that is not JSON is invalid input."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise InvalidInput(f"The input is nested more than {MAX_DEPTH} levels deep.", {"": "too deeply nested"})
    except ValueError as exc:  # JSONDecodeError is a ValueError
        raise InvalidInput(f"The input is not valid JSON: {exc}.", {"": "not valid JSON"})
    check_depth(value)
    return value


def json_path(payload: Any, loc: tuple) -> str:
    """The contract's path for a pydantic error location.

    Pydantic inserts the names of union members and validators into
    locations; walking the payload alongside keeps only real keys and indices.
    """
    path, node = "", payload
    for position, part in enumerate(loc):
        last = position == len(loc) - 1
        if isinstance(node, dict) and isinstance(part, str) and (part in node or last):
            path = f"{path}.{part}" if path else part
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path = f"{path}[{part}]"
            node = node[part]
    return path


def _message(error: dict) -> str:
    if error["type"] in _MESSAGES:
        return _MESSAGES[error["type"]]
    message = error["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message[:1].lower() + message[1:]


def parse(model: type[BaseModel], payload: Any) -> BaseModel:
    """Validate ``payload`` against ``model``; every problem is reported by path."""
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        fields: dict[str, str] = {}
        for error in exc.errors(include_url=False, include_input=False):
            fields.setdefault(json_path(payload, error["loc"]), _message(error))
        first_path, first = next(iter(fields.items()))
        more = len(fields) - 1
        where = f" at {first_path}" if first_path else ""
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise InvalidInput(f"Invalid input{where}: {first}{tail}.", fields) from None
