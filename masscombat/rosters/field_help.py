"""Help for every field of the roster editor, in the GM's language, with its rule section.

The texts are data (``help/<slug>.yaml``: per field name, ``en`` and ``fr``,
the spec section in ``rule``, and ``more: true`` for the rarely used fields the
editor folds away), kept out of the shared gettext catalogue.  A field's range
is not written there: the form shows the engine schema's own bounds.
``tests/masscombat/rosters/test_rosters_help.py`` derives every field name from
the roster schemas and fails on one without help in both languages.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from django.utils.translation import get_language

_FOLDER = Path(__file__).with_name("help")


@dataclass(frozen=True)
class Help:
    texts: dict
    rule: str = ""
    more: bool = False

    @property
    def text(self) -> str:
        return self.texts.get((get_language() or "en")[:2]) or self.texts.get("en", "")


@cache
def entries(slug: str) -> dict[str, Help]:
    raw = yaml.safe_load((_FOLDER / f"{slug}.yaml").read_text(encoding="utf-8")) or {}
    return {
        name: Help({language: entry[language] for language in ("en", "fr") if entry.get(language)},
                   str(entry.get("rule", "")), bool(entry.get("more", False)))
        for name, entry in raw.items()
    }


def lookup(slug: str, name: str, parent: str = "") -> Help | None:
    """The help of field ``name``; ``parent.name`` first, where one name means two things in a ruleset."""
    found = entries(slug)
    return found.get(f"{parent}.{name}") or found.get(name)
