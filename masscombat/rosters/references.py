"""Fields that name another part of the roster, offered as a pick list of names instead of an id to type.

Per ruleset, per field name: where its choices come from in the data being
edited (``root``) or in the object holding the field (``parent``), as
``(id, name)`` pairs; the campaign's players and the characters of its other
armies come from the page (``known``: :data:`PLAYERS`, :data:`CHARACTERS`).
A value that is not among them stays in the list, marked unknown, so the
engine's refusal shows on the field.  :data:`TALLIES` are lists of names that
may repeat (a D&D 5e Multiattack: two greataxe attacks), offered as a count
per name.  :data:`SET_BY_THE_BATTLE` are the fields a battle fills in from
the hero's settings (its player, its army), which the editor leaves hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from masscombat.rosters import labels

Choices = list[tuple[str, str]]
PLAYERS = "__players"  # the campaign's players, as the engines name a player: (player id, shown name)
CHARACTERS = "__characters"  # the characters of the campaign's other armies: (id, "name (army)")
ARMY = "__army"  # a hero's army, as its settings give it: (the army's id in its data, its name)


def _items(value: Any) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _profiles(root: dict, parent: dict) -> Choices:
    profiles = root.get("profiles") if isinstance(root.get("profiles"), dict) else {}
    return [(key, str((profile or {}).get("name") or key)) for key, profile in profiles.items()]


def profile_name(root: dict, key: str) -> str:
    """A D&D 5e profile's display name (a stand is called by its creature)."""
    return dict(_profiles(root, {})).get(key, key)


def _solos(root: dict, parent: dict) -> Choices:
    solos = _items(parent.get("attached_solos"))
    return [(str(solo.get("id")), profile_name(root, str(solo.get("profile")))) for solo in solos]


def _named(list_name: str, fallback) -> Callable[[dict, dict], Choices]:
    def choices(root: dict, parent: dict) -> Choices:
        return [(str(item.get("id")), str(item.get("name") or fallback(item, n))) for n, item in
                enumerate(_items(root.get(list_name)), start=1)]

    return choices


def _known(what: str) -> Callable[[dict, dict], Choices]:
    def choices(root: dict, parent: dict) -> Choices:
        return list(root.get(what) or [])

    return choices


def _attacks(root: dict, parent: dict) -> Choices:
    return [(str(attack.get("name")), str(attack.get("name"))) for attack in _items(parent.get("attacks"))
            if attack.get("name")]


def _corps_name(item: dict, n: int) -> str:
    return _("Corps %(number)s") % {"number": n}


def _character_name(item: dict, n: int) -> str:
    return f"{labels.choice('heros', item.get('role', '')).capitalize()} {n}"


REFERENCES: dict[str, dict[str, Callable[[dict, dict], Choices]]] = {
    "dnd5e": {"profile": _profiles, "commander": _solos},
    "heros": {
        "corps_id": _named("corps", _corps_name),
        "general_id": _named("characters", _character_name),
        "player_id": _known(PLAYERS),
        "character_id": _known(CHARACTERS),
    },
    "jdrwiki": {"army_id": _known(ARMY)},
    "synapse": {"unit_id": _named("units", lambda item, n: _("Unit %(number)s") % {"number": n})},
}
TALLIES: dict[str, dict[str, Callable[[dict, dict], Choices]]] = {"dnd5e": {"multiattack": _attacks}}
# Filled in by the battle from the hero's settings (its player, its army's one corps): never typed.
SET_BY_THE_BATTLE = {"jdrwiki": {"hero": {"corps_id"}}, "heros": {"hero": {"player_id"}},
                     "seventh_sea": {"hero": {"player"}}}


def choices(slug: str, name: str, root: Any, parent: Any) -> Choices | None:
    """The pick list of field ``name`` (None if it is not a reference in this ruleset)."""
    found = REFERENCES.get(slug, {}).get(name)
    if found is None or not isinstance(root, dict):
        return None
    return found(root, parent if isinstance(parent, dict) else {})


def tally(slug: str, name: str, root: Any, parent: Any) -> Choices | None:
    """The names a repeating list of field ``name`` picks from (None if it is not one in this ruleset)."""
    found = TALLIES.get(slug, {}).get(name)
    if found is None:
        return None
    return found(root if isinstance(root, dict) else {}, parent if isinstance(parent, dict) else {})
