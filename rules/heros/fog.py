"""Fog of war (S7.14, S11.3, H59): what one side may know of a battle state.

Hidden from a side: the enemy's ambushing units (``hidden``, on the map), its
lurker pool, the characters standing on either and the engagements they are
in; masked: enemy magicians' power points, enemy champions' personal PA and
enemy lurkers' activation counts.  ``visible-state`` shows the masked values
as ``null``; the rules that answer a side (``declaration-options``,
``check-declaration``) run on :func:`view_of`, the same state with the masked
numbers set to zero so that the rule code can read it, so that nothing the
side cannot see can change their answer.  See ``docs/rules/heros.md``.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.contract import GM

MASKED_UNIT = ("power_points", "lurker_activations")
MASKED_CHAMPION = ("personal_pa", "personal_pa_spent")


def hidden_from(state: dict[str, Any], side: str) -> tuple[set[str], set[str]]:
    """Ids of enemy units and characters the side may not see."""
    units = {u["id"] for u in state["units"] if u["side"] != side
             and ((u["hidden"] and u["status"] == "active") or u["status"] == "pool")}
    chars = {c["id"] for c in state["characters"] if c["side"] != side and c["stacked_on"] in units}
    return units, chars


def filtered(state: dict[str, Any], side: str, masked: Any) -> tuple[dict[str, Any], list[str]]:
    """A copy of ``state`` as ``side`` sees it, masked values set to ``masked``; and the JSON paths left out."""
    state = copy.deepcopy(state)
    gone_units, gone_chars = hidden_from(state, side)
    hidden: list[str] = []
    units = []
    for i, u in enumerate(state["units"]):
        if u["id"] in gone_units:
            hidden.append(f"units[{i}]")
            continue
        if u["side"] != side:
            if u["magician"]:
                u["power_points"] = masked
                hidden.append(f"units[{i}].power_points")
            if u["troop_type"] == "Lu":
                u["lurker_activations"] = masked
                hidden.append(f"units[{i}].lurker_activations")
        units.append(u)
    characters = []
    for i, c in enumerate(state["characters"]):
        if c["id"] in gone_chars:
            hidden.append(f"characters[{i}]")
            continue
        if c["side"] != side:
            if c["magician"]:
                c["power_points"] = masked
                hidden.append(f"characters[{i}].power_points")
            if c["role"] == "champion":
                c["personal_pa"], c["personal_pa_spent"] = masked, masked
                hidden += [f"characters[{i}].personal_pa", f"characters[{i}].personal_pa_spent"]
        characters.append(c)
    gone = gone_units | gone_chars
    engagements = []
    for i, e in enumerate(state["engagements"]):
        if e["attacker_id"] in gone or e["defender_id"] in gone:
            hidden.append(f"engagements[{i}]")
        else:
            engagements.append(e)
    pending = state["pending"]["impetuous"]
    if any(u in gone for u in pending):
        hidden.append("pending.impetuous")
    gods_pa = {k: v for k, v in state["gods_pa"].items() if k not in gone}
    if len(gods_pa) != len(state["gods_pa"]):
        hidden.append("gods_pa")
    state.update(units=units, characters=characters, engagements=engagements, gods_pa=gods_pa,
                 pending={"impetuous": [u for u in pending if u not in gone]})
    return state, hidden


def view_of(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The state the rules answer ``viewer`` from: all of it for the GM, else what the side sees."""
    if viewer in (None, GM):
        return state
    return filtered(state, viewer, 0)[0]


def names(state: dict[str, Any], viewer: str | None = None) -> dict[str, str]:
    """``{id: display name}`` of the sides, corps, units and characters ``viewer`` may know (the id when unnamed)."""
    seen = view_of(state, viewer) if viewer not in (None, GM) else state
    out = {}
    for key in ("sides", "corps", "units", "characters"):
        for item in seen[key]:
            out[item["id"]] = item.get("name") or item["id"]
    return out


def hidden_enemy_at(state_units: list[dict[str, Any]], side: str, h: dict) -> bool:
    """Whether hex ``h`` holds an enemy unit hidden from ``side`` (an ambusher still unrevealed)."""
    return any(u["side"] != side and u["hidden"] and u["status"] == "active" and u["position"] is not None
               and not u.get("high_altitude") and u["position"]["col"] == h["col"] and u["position"]["row"] == h["row"]
               for u in state_units)
