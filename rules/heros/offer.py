"""The shape of one declaration option and of one refused value, each with its message key.

A label or a refusal is written once, as a template of ``messages.py``; the
English sentence the engine has always sent (``label``, ``reason``) is that
template filled with the parameters, and the web renders the same key in the
reader's language.
"""

from __future__ import annotations

from typing import Any

from rules.heros.messages import MESSAGES


def text(key: str, params: dict[str, Any]) -> str:
    """The English sentence of ``key`` with ``params``."""
    return MESSAGES[key]["en"].format(**params)


def option(path: str, key: str, params: dict[str, Any], type_: str, *, allowed: list | None = None,
           default: Any = None, required: bool = False, forbidden: list | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path, "label": text(key, params), "type": type_}
    if allowed is not None:
        out["allowed"] = allowed
    out.update(extra)
    out.update(default=default, required=required, forbidden=forbidden or [], label_key=key, label_params=params)
    return out


def why(value: Any, key: str, params: dict[str, Any], rule: str) -> dict[str, Any]:
    return {"value": value, "reason": text(key, params), "rule": rule, "key": key, "params": params}
