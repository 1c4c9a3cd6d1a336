"""JSON from people and clients, decoded without letting its nesting crash the server.

Python's decoder recurses: a document nested a few thousand levels deep raises
``RecursionError`` (an answer 500) before any validation runs.  Every place the
web app decodes JSON it did not write (API bodies, forms that take JSON,
websocket messages) goes through :func:`loads`, which refuses such a document
with a ``ValueError`` like any other malformed JSON.
"""

from __future__ import annotations

from typing import Any

from masscombat.core.engines import MAX_DEPTH, InvalidInput, load_json


class TooDeep(ValueError):
    """JSON refused because it is nested deeper than :data:`MAX_DEPTH` levels (or is not JSON)."""


def loads(text: str | bytes) -> Any:
    """Decode ``text``; raise :class:`TooDeep` (a ``ValueError``) for invalid or too deeply nested JSON."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        return load_json(text)
    except InvalidInput as exc:
        raise TooDeep(exc.error) from None


__all__ = ["MAX_DEPTH", "TooDeep", "loads"]
