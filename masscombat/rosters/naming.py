"""Readable default names and hidden ids for what a GM adds to an army.

A GM names things; the engine needs ids.  Ids are made here, never typed:
the smallest ``<prefix><n>`` not yet taken.  Names are ``<base> <n>`` with the
smallest number not yet used (``Archers 1``, ``Archers 2``), so a new army
never reaches a battle as "u1 vs u1".
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import pgettext_lazy

# The prefix of a new item's id, and the word its default name starts with, by the list that holds it.
ID_PREFIX = {"units": "u", "corps": "c", "characters": "g", "stands": "s", "attached_solos": "h", "aides": "a",
             "profiles": "p"}
ITEM_WORDS = {
    "units": pgettext_lazy("default name of a new item", "Unit"),
    "corps": pgettext_lazy("default name of a new item", "Corps"),
    "characters": pgettext_lazy("default name of a new item", "Character"),
    "aides": pgettext_lazy("default name of a new item", "Aide"),
    "vehicle_types": pgettext_lazy("default name of a new item", "Vehicle"),
    "weapons": pgettext_lazy("default name of a new item", "Weapon"),
    "attacks": pgettext_lazy("default name of a new item", "Attack"),
    "spells": pgettext_lazy("default name of a new item", "Spell"),
    "profiles": pgettext_lazy("default name of a new item", "Creature"),
}


def fresh_id(prefix: str, taken: Iterable[str]) -> str:
    """``prefix`` followed by the smallest positive number that makes an id not in ``taken``."""
    used = set(taken)
    number = 1
    while f"{prefix}{number}" in used:
        number += 1
    return f"{prefix}{number}"


def new_id(field: str, taken: Iterable[str]) -> str:
    """A fresh id for a new item of the list ``field`` (``units`` → ``u3``)."""
    return fresh_id(ID_PREFIX.get(field, "x"), taken)


def default_name(field: str, taken: Iterable[str]) -> str:
    """A new item's readable name (``Unité 3``), or "" for a list whose items are not named by a word."""
    word = ITEM_WORDS.get(field)
    return numbered(str(word), taken) if word else ""


def numbered(base: str, taken: Iterable[str]) -> str:
    """``base n`` with the smallest ``n`` (from 1) whose name is not in ``taken``."""
    used = {str(name).casefold() for name in taken}
    number = 1
    while f"{base} {number}".casefold() in used:
        number += 1
    return f"{base} {number}"


def names_in(items) -> list[str]:
    """The names of a list of items, or of the values of an object keyed by id."""
    values = items.values() if isinstance(items, dict) else items if isinstance(items, list) else []
    return [item.get("name") or "" for item in values if isinstance(item, dict)]


def ids_in(items) -> list[str]:
    """The ids of a list of items (their ``id``), or the keys of an object keyed by id."""
    if isinstance(items, dict):
        return list(items)
    return [str(item.get("id")) for item in items if isinstance(item, dict)] if isinstance(items, list) else []
