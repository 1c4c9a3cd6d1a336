"""``visible-state``: the battle as one side may see it (S11.2).

A side sees its own army exactly.  Of the enemy it sees what happens on the
field: each formation's status and damage state, contacts, routs; it never
sees the enemy's uncommitted reserve (not even that one exists), the exact
characteristics of its troops (headcount, attack power, strength, thresholds,
losses), its commander's ratings, its characters, or the enemy's score in the
command test.  Everything removed is listed by JSON path in ``hidden``.
"""

from __future__ import annotations

from typing import Literal

from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.declarations import enemy
from rules.synapse.state import load_state

SECRET_FORMATION_FIELDS = (
    "headcount", "strength", "attack_power", "attack_power_contact", "combat", "combat_initial", "defence",
    "defence_contact", "break_pct", "break_threshold", "armour", "weapon_lines", "losses", "counter_bonus",
    "retreat_penalty", "unit_ids",
)
SECRET_ARMY_FIELDS = (
    "commander", "notes", "command_rating", "rally_rating", "negotiation_rating", "army_combat", "command_modifier",
    "reserve_significant", "auto_commit_reserve", "undeployed_units", "characters", "radio",
)
VISIBLE_UNIT_FIELDS = ("id", "name", "category", "unit_type")
SECRET_COMMAND_FIELDS = ("ratings", "modifiers", "rolls", "scores")


def mask(state: dict, side: str) -> tuple[dict, list[str]]:
    """Remove from ``state`` (a private copy) what ``side`` may not know; return it with the removed paths."""
    foe = enemy(side)
    hidden: list[str] = []
    reserve_units: set[str] = set()
    for fid in list(state["formations"]):
        f = state["formations"][fid]
        if f["side"] != foe:
            continue
        if f["status"] == "reserve":
            reserve_units |= set(f["unit_ids"])
            del state["formations"][fid]
            hidden.append(f"formations.{fid}")
            continue
        for name in SECRET_FORMATION_FIELDS:
            if name in f:
                del f[name]
                hidden.append(f"formations.{fid}.{name}")
    army = state["armies"][foe]
    for name in SECRET_ARMY_FIELDS:
        if name in army:
            del army[name]
            hidden.append(f"armies.{foe}.{name}")
    for uid in list(army["units"]):
        if uid in reserve_units:
            del army["units"][uid]
            hidden.append(f"armies.{foe}.units.{uid}")
            continue
        unit = army["units"][uid]
        for name in [k for k in unit if k not in VISIBLE_UNIT_FIELDS]:
            del unit[name]
            hidden.append(f"armies.{foe}.units.{uid}.{name}")
    command = state.get("command")
    if command:
        for name in SECRET_COMMAND_FIELDS:
            if foe in command.get(name, {}):
                del command[name][foe]
                hidden.append(f"command.{name}.{foe}")
        if "margin" in command:
            del command["margin"]
            hidden.append("command.margin")
    if "headcount_total" in state.get("sequence_duration", {}):
        del state["sequence_duration"]["headcount_total"]  # it would reveal the enemy's reserve
        hidden.append("sequence_duration.headcount_total")
    return state, hidden


class VisibleStateInput(Input):
    state: dict
    side: Literal["A", "B"]


@ruleset.operation("visible-state", VisibleStateInput, summary="The battle state as one side may see it (S11.2).")
def visible_state(data: VisibleStateInput, ctx: Context) -> dict:
    state, hidden = mask(load_state(data.state), data.side)
    ctx.log.add("S11.2", "visibility.masked", "What side {side} sees: {count} hidden item(s).", side=data.side,
                count=len(hidden))
    return {"state": state, "hidden": hidden}
