"""Message keys of refusals (S11.4): the engine's English sentence is the template, so its key and
parameters are found back from the sentence itself (``REFUSALS`` in :mod:`rules.dnd5e.messages`)."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from rules.dnd5e.messages import REFUSALS


@cache
def _patterns() -> list[tuple[str, re.Pattern]]:
    out = []
    for key, templates in REFUSALS.items():
        parts = re.split(r"\{(\w+)\}", templates["en"])
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((key, re.compile(f"^{regex}$")))
    return out


def describe(text: str) -> tuple[str, dict]:
    """``(key, params)`` of a refusal sentence; an unknown one keeps its words (``declaration.refused``)."""
    key, params = _described(text)
    return key, dict(params)


@lru_cache(maxsize=1024)
def _described(text: str) -> tuple[str, tuple]:
    for key, pattern in _patterns():
        found = pattern.match(text)
        if found:
            return key, tuple((k, _number(v)) for k, v in found.groupdict().items())
    return "declaration.refused", (("reason", text),)


def _number(value: str):
    return int(value) if value.isdigit() else value
