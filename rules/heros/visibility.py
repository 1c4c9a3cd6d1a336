"""Operation ``visible-state``: a battle state as one side may see it (S11.3, S7.14, H59).

Removed: enemy hidden (ambushing) units with the characters on them and their
engagements, and the enemy's lurker pool. Masked (set to null): enemy
magicians' power points, enemy champions' personal PA, and the activation
counts of enemy lurkers (their generation costs).
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.heros import ruleset
from rules.heros.entities import Id
from rules.heros.round import load_state
from rules.heros.state import StateModel, normalise
from rules.model import ClosedInput
from rules.registry import Context


class VisibleStateInput(ClosedInput):
    state: StateModel
    side: Id


def hidden_from(state: dict[str, Any], side: str) -> tuple[set[str], set[str]]:
    """Ids of enemy units and characters the side may not see."""
    units = {u["id"] for u in state["units"] if u["side"] != side
             and ((u["hidden"] and u["status"] == "active") or u["status"] == "pool")}
    chars = {c["id"] for c in state["characters"] if c["side"] != side and c["stacked_on"] in units}
    return units, chars


@ruleset.operation("visible-state", VisibleStateInput, summary="The battle state filtered to what one side may see (S11.3).")
def visible_state(data: VisibleStateInput, ctx: Context) -> dict:
    state = normalise(load_state(data.state))
    side = data.side
    if side not in {s["id"] for s in state["sides"]}:
        raise InvalidInput.field("side", "unknown side")
    gone_units, gone_chars = hidden_from(state, side)
    hidden: list[str] = []
    units = []
    for i, u in enumerate(state["units"]):
        if u["id"] in gone_units:
            hidden.append(f"units[{i}]")
            continue
        if u["side"] != side:
            if u["magician"]:
                u["power_points"] = None
                hidden.append(f"units[{i}].power_points")
            if u["troop_type"] == "Lu":
                u["lurker_activations"] = None
                hidden.append(f"units[{i}].lurker_activations")
        units.append(u)
    characters = []
    for i, c in enumerate(state["characters"]):
        if c["id"] in gone_chars:
            hidden.append(f"characters[{i}]")
            continue
        if c["side"] != side:
            if c["magician"]:
                c["power_points"] = None
                hidden.append(f"characters[{i}].power_points")
            if c["role"] == "champion":
                c["personal_pa"], c["personal_pa_spent"] = None, None
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
    state.update(units=units, characters=characters, engagements=engagements,
                 pending={"impetuous": [u for u in pending if u not in gone]})
    ctx.log.add("S11.3", "visibility.hidden", "{count} items hidden from side {side}.", count=len(hidden), side=side)
    return {"state": state, "hidden": hidden}
