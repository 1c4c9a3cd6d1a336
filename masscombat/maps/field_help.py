"""Help for every field of the map editor, in the GM's language, with its rule section.

The texts are data (``help.yaml``: per map kind, and ``all`` for the fields
every kind has; ``en`` and ``fr``; ``rule``), kept out of the shared gettext
catalogue as the roster editor's are.  The editor shows a field's range from
the engine's schema, not from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from django.utils.translation import get_language

_FILE = Path(__file__).with_name("help.yaml")


@dataclass(frozen=True)
class Help:
    texts: dict
    rule: str = ""

    @property
    def text(self) -> str:
        return self.texts.get((get_language() or "en")[:2]) or self.texts.get("en", "")


@cache
def _entries() -> dict[str, dict[str, Help]]:
    raw = yaml.safe_load(_FILE.read_text(encoding="utf-8")) or {}
    return {kind: {name: Help({lang: entry[lang] for lang in ("en", "fr") if entry.get(lang)}, str(entry.get("rule", "")))
                   for name, entry in fields.items()} for kind, fields in raw.items()}


def for_kind(kind: str) -> dict[str, Help]:
    """Every field's help on a map of ``kind``: its own, then those all kinds share."""
    return {**_entries().get("all", {}), **_entries().get(kind, {})}
