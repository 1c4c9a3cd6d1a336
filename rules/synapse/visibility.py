"""``visible-state``: the battle as one side may see it (S11.2).

A side sees its own army exactly.  Of the enemy it sees what happens on the
field: each formation's status and damage state, contacts, routs; it never
sees the enemy's uncommitted reserve (not even that one exists), the exact
characteristics of its troops (headcount, attack power, strength, thresholds,
losses), its commander's ratings, its characters, or the enemy's score in the
command test.  Everything removed is listed by JSON path in ``hidden``.
"""

from __future__ import annotations

from rules.contract import GM, PUBLIC, Viewer
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.declarations import SIDES, enemy
from rules.synapse.entities import Side
from rules.synapse.names import name_keys_for, names_for
from rules.synapse.standing import stamp, strength_of
from rules.synapse.state import StateIn, load_state

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


def mask_public(state: dict) -> tuple[dict, list[str]]:
    """Remove from ``state`` (a private copy) what either side may not know: each side's secrets, as
    :func:`mask` removes them for its enemy; return it with the removed paths."""
    hidden: list[str] = []
    for side in SIDES:
        state, more = mask(state, side)
        hidden += more
    return state, hidden


def check_viewer(viewer: str | None, path: str = "viewer", *, public: bool = False) -> str:
    """``"gm"`` (also when no viewer is given) or a side; also ``PUBLIC`` where ``public`` (reading only)."""
    if viewer is None or viewer == GM:
        return GM
    if viewer not in SIDES and not (public and viewer == PUBLIC):
        raise InvalidInput.field(path, 'must be "gm", "A" or "B"' + (' or "public"' if public else ""))
    return viewer


def seen_by(state: dict, viewer: str | None, side: str | None = None, gm_part: bool = False) -> dict:
    """``state`` (a private copy) as ``viewer`` knows it, for a participant of ``side`` (or the GM's part).

    A side may only ask about its own participants: it cannot declare for the
    enemy or the GM, and what they may declare is none of its business.
    """
    viewer = check_viewer(viewer)
    if viewer == GM:
        return state
    if gm_part or (side is not None and side != viewer):
        raise InvalidInput.field("participant", f"side {viewer} does not declare for this participant")
    return mask(state, viewer)[0]


class VisibleStateInput(Input):
    state: StateIn
    side: Side | None = None
    viewer: Viewer | None = None


@ruleset.operation("visible-state", VisibleStateInput, summary="The battle state as one side may see it (S11.2).")
def visible_state(data: VisibleStateInput, ctx: Context) -> dict:
    if data.side is None and data.viewer is None:
        raise InvalidInput.field("viewer", "this field is required")
    viewer = check_viewer(data.viewer if data.viewer is not None else data.side, public=True)
    full = load_state(data.state)
    if viewer == GM:
        state, hidden = stamp(full), []
    elif viewer == PUBLIC:  # neither side's strength: each is kept from the enemy (S11.2)
        state, hidden = mask_public(full)
        stamp(state, {})
    else:
        strength = {viewer: strength_of(full)[viewer]}
        state, hidden = mask(full, viewer)
        stamp(state, strength)
    ctx.log.add("S11.2", "visibility.masked", "What side {side} sees: {count} hidden item(s).", side=viewer,
                count=len(hidden))
    return {"state": state, "hidden": hidden, "names": names_for(state), "name_keys": name_keys_for(state)}
