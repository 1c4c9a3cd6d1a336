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

# The refusals of malformed values as message keys, by pydantic's type of error, and the bounds whose
# sentence takes the bound as ``{limit}``: every engine's messages hold these keys
# (``MESSAGES.update(INPUT_MESSAGES)``), so a malformed value is refused in the reader's language.
_KEYS = {
    "missing": "input.missing", "extra_forbidden": "input.unknown_field", "int_type": "input.integer",
    "int_from_float": "input.integer", "bool_type": "input.boolean", "string_type": "input.string",
    "float_type": "input.number", "finite_number": "input.finite_number", "list_type": "input.list",
    "dict_type": "input.object", "model_type": "input.object", "model_attributes_type": "input.object",
}
_BOUNDS = {"greater_than_equal": ("ge", "input.at_least"), "less_than_equal": ("le", "input.at_most"),
           "greater_than": ("gt", "input.above"), "less_than": ("lt", "input.below")}
INPUT_MESSAGES: dict[str, dict[str, str]] = {
    "input.missing": {"en": "this field is required", "fr": "ce champ est obligatoire"},
    "input.unknown_field": {"en": "unknown field", "fr": "champ inconnu"},
    "input.integer": {"en": "must be an integer", "fr": "doit être un nombre entier"},
    "input.boolean": {"en": "must be true or false", "fr": "doit valoir oui ou non"},
    "input.string": {"en": "must be a string", "fr": "doit être un texte"},
    "input.number": {"en": "must be a number", "fr": "doit être un nombre"},
    "input.finite_number": {"en": "must be a finite number", "fr": "doit être un nombre fini"},
    "input.list": {"en": "must be a list", "fr": "doit être une liste"},
    "input.object": {"en": "must be an object", "fr": "doit être un objet"},
    "input.at_least": {"en": "input should be greater than or equal to {limit}", "fr": "doit valoir au moins {limit}"},
    "input.at_most": {"en": "input should be less than or equal to {limit}", "fr": "doit valoir au plus {limit}"},
    "input.above": {"en": "input should be greater than {limit}", "fr": "doit valoir plus de {limit}"},
    "input.below": {"en": "input should be less than {limit}", "fr": "doit valoir moins de {limit}"},
}

# What a malformed value's field says in English, by pydantic's type of error.
_MESSAGES = {kind: INPUT_MESSAGES[key]["en"] for kind, key in _KEYS.items()}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def depth(value: Any) -> int:
    """Nesting depth of decoded JSON (a scalar is one level), computed without recursion.

    Only containers go on the stack: a battle state at the size caps holds tens
    of thousands of scalars, and this check runs on every operation's input.
    """
    if not isinstance(value, (dict, list)):
        return 1
    deepest, stack = 1, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > MAX_DEPTH:
            return level
        below = level + 1
        for child in (item.values() if isinstance(item, dict) else item):
            if isinstance(child, (dict, list)):
                stack.append((child, below))
            elif below > deepest:
                deepest = below
        if level > deepest:
            deepest = level
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


def _keyed(error: dict) -> dict | None:
    """The message key and parameters of a pydantic error, for the types :data:`INPUT_MESSAGES` says."""
    if error["type"] in _KEYS:
        return {"key": _KEYS[error["type"]], "params": {}}
    bound = _BOUNDS.get(error["type"])
    if bound and bound[0] in (error.get("ctx") or {}):
        return {"key": bound[1], "params": {"limit": error["ctx"][bound[0]]}}
    return None


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
        messages: dict[str, dict] = {}
        for error in exc.errors(include_url=False, include_input=False):
            path = json_path(payload, error["loc"])
            if path not in fields:
                fields[path] = _message(error)
                keyed = _keyed(error)
                if keyed is not None:
                    messages[path] = keyed
        first_path, first = next(iter(fields.items()))
        more = len(fields) - 1
        where = f" at {first_path}" if first_path else ""
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise InvalidInput(f"Invalid input{where}: {first}{tail}.", fields, messages) from None
