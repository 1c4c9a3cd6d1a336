"""What became of each unit: its strength and its state, read from an engine's state.

The contract gives a side's ``strength`` and the battle's ``outcome``, not a
unit's: a round preview that says "the left flank breaks in 40 % of the
tries" must read the units in the engine's own state.  Each reader here
reads one ruleset's documented state (``docs/rules/<slug>.md``), read-only,
and answers, for every unit (and hero where the ruleset has them), its side,
a number on the ruleset's own yardstick (the one the side's ``strength``
sums, where there is one) and one of :data:`STATES`.  Nothing here decides a
rule: the engine already wrote the unit's status; this only names it in
words every ruleset shares, so the web can say them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

STATES = ("fighting", "broken", "routed", "destroyed", "out")
"""``fighting``: in the fight; ``broken``: still on the field, its morale gone (D&D 5e broken, HÉROS
demoralised corps, SYNAPSE routed); ``routed``: fled the field; ``destroyed``: wiped out, dead;
``out``: out of the battle otherwise (withdrawn, captured, unconscious, merged, gone)."""

Unit = tuple[str | None, float | None, str]
"""``(side, strength, state)``; strength ``None`` where the ruleset has no figure for that unit."""


def _jdrwiki(state: dict) -> dict[str, Unit]:
    """Corps: their hit points while active (S5.15.1's figure); fled, destroyed, merged."""
    armies = state.get("armies") or {}
    found = {}
    for cid, corps in (state.get("corps") or {}).items():
        status = corps.get("status")
        side = (armies.get(corps.get("army_id")) or {}).get("side")
        word = {"active": "fighting", "fled": "routed", "destroyed": "destroyed"}.get(status, "out")
        found[cid] = (side, corps.get("hp", 0) if status == "active" else 0, word)
    return found


def _seventh_sea(state: dict) -> dict[str, Unit]:
    """Each side's army by the rounds it has won (its troops never change, S5.5 counts rounds) and each hero,
    on their feet or taken out: 7th Sea has no units."""
    found: dict[str, Unit] = {}
    for letter, side in (state.get("sides") or {}).items():
        found[letter] = (letter, side.get("rounds_won", 0), "fighting")
    for hero in state.get("heroes") or []:
        found[hero["id"]] = (hero.get("side"), None, "fighting" if hero.get("status") == "active" else "out")
    return found


_HEROS_UNIT = {"active": "fighting", "pool": "fighting", "reserve": "fighting", "destroyed": "destroyed",
               "fled_off": "routed", "dispersed": "destroyed", "departed": "out"}


def _heros(state: dict) -> dict[str, Unit]:
    """Units by their morale points (EP) while on the field, a demoralised corps' units broken; characters."""
    demoralised = {corps["id"] for corps in state.get("corps") or [] if corps.get("demoralised")}
    found: dict[str, Unit] = {}
    for unit in state.get("units") or []:
        word = _HEROS_UNIT.get(unit.get("status"), "out")
        if word == "fighting" and unit.get("corps_id") in demoralised:
            word = "broken"
        found[unit["id"]] = (unit.get("side"), unit.get("ep", 0) if word in ("fighting", "broken") else 0, word)
    for character in state.get("characters") or []:
        status = character.get("status")
        word = "destroyed" if status == "dead" else "out" if status == "captured" else "fighting"
        if word == "fighting" and character.get("wound_state") in ("unconscious", "dead"):
            word = "destroyed" if character.get("wound_state") == "dead" else "out"
        found[character["id"]] = (character.get("side"), None, word)
    return found


_SYNAPSE = {"active": "fighting", "reserve": "fighting", "routed": "broken", "fled": "routed",
            "destroyed": "destroyed", "withdrawn": "out"}


def _synapse(state: dict) -> dict[str, Unit]:
    """Formations: strength less losses while on the field or in reserve (the side's figure, S4.8)."""
    found = {}
    for fid, formation in (state.get("formations") or {}).items():
        word = _SYNAPSE.get(formation.get("status"), "out")
        left = max(0, formation.get("strength", 0) - formation.get("losses", 0))
        found[fid] = (formation.get("side"), left if word in ("fighting", "broken") else 0, word)
    return found


def _dnd5e(state: dict) -> dict[str, Unit]:
    """Units by the hit points of their stands in play (S-strength), broken or eliminated; solos likewise."""
    stands = state.get("stands") or {}
    found: dict[str, Unit] = {}
    for uid, unit in (state.get("units") or {}).items():
        hp = sum(stands[sid].get("hp", 0) for sid in unit.get("stands", [])
                 if sid in stands and stands[sid].get("status") in ("active", "casualty"))
        word = "destroyed" if unit.get("eliminated_round") is not None or not hp else \
            "broken" if unit.get("broken") else "fighting"
        found[uid] = (unit.get("side"), hp, word)
    for sid, solo in (state.get("solos") or {}).items():
        condition = solo.get("condition")
        word = {"active": "fighting", "dead": "destroyed", "fled": "routed"}.get(condition, "out")
        found[sid] = (solo.get("side"), solo.get("hp", 0) if condition not in ("dead", "fled") else 0, word)
    return found


MEASURES = {"jdrwiki": "hit_points", "seventh_sea": "rounds_won", "heros": "morale_points",
            "synapse": "strength_points", "dnd5e": "hit_points"}
"""What a unit's number counts, per ruleset, for the words that go with it."""

READERS: dict[str, Callable[[dict], dict[str, Unit]]] = {
    "jdrwiki": _jdrwiki, "seventh_sea": _seventh_sea, "heros": _heros, "synapse": _synapse, "dnd5e": _dnd5e}


def units(slug: str, state: dict) -> dict[str, Unit]:
    """``{unit id: (side, strength, state)}`` of a state (the GM's, whole); empty for a ruleset without a reader."""
    reader = READERS.get(slug)
    return reader(state) if reader else {}
