"""Command rules: action-point costs and holds (S4.3, S5.4, S6.4, S6.5), power projection
(S5.5.3, S7.11, H41) and the rally test (S5.6, S6.15)."""

from __future__ import annotations

from typing import Any

from rules.dice import D6
from rules.explain import Log
from rules.heros.tables import ACTION_COSTS, HOLD_COST, LABELS, MOVE_COST, NUMBERS, RALLY, modifier

SURCHARGES: dict[str, dict[str, Any]] = ACTION_COSTS["surcharges"]
LIMITS: dict[str, Any] = ACTION_COSTS["limits"]


def surcharges(
    units: list[dict[str, Any]],
    characters: int,
    distance_to_general: int,
    general_absent: bool,
    *,
    landing: bool = False,
) -> list[dict[str, Any]]:
    """Applicable surcharges of a move, climb or land action, in S6.4 order.

    ``units``: ``{"troop_type", "regular", "high_altitude", "general_unit"}`` each.
    """
    types = [u["troop_type"] for u in units]
    adventurers_only = bool(types) and all(t == "Av" for t in types)
    applies = {
        "S_ABS": general_absent and not adventurers_only,
        "S_DIST": distance_to_general > LIMITS["distance_to_general_free"] and not adventurers_only,
        "S_ELE": any(t in ("El", "Bm") for t in types),
        "S_FLY_MIX": "Fl" in types and (any(t != "Fl" for t in types) or characters > 0),
        "S_FLY_HIGH": landing or any(u["troop_type"] == "Fl" and u.get("high_altitude") for u in units),
        "S_HU_MIX": any(u["troop_type"] == "Hu" and not u.get("regular", True) for u in units)
        and any(not (u["troop_type"] == "Hu" and not u.get("regular", True)) and not u.get("general_unit") for u in units),
    }
    return [{"id": sid, "value": SURCHARGES[sid]["value"]} for sid in SURCHARGES if applies[sid]]


def character_surcharges(role: str, distance_to_general: int, general_absent: bool) -> list[dict[str, Any]]:
    """A character moving alone on corps PA: generals pay 1, champions 1 + S_ABS + S_DIST (S4.3)."""
    if role != "champion":
        return []
    found = []
    if general_absent:
        found.append({"id": "S_ABS", "value": SURCHARGES["S_ABS"]["value"]})
    if distance_to_general > LIMITS["distance_to_general_free"]:
        found.append({"id": "S_DIST", "value": SURCHARGES["S_DIST"]["value"]})
    return found


def hold_problem(
    natural_roll: int | None,
    any_irregular: bool,
    exception: str | None,
    *,
    first_hold: bool,
    contains_unmoved_general: bool,
    cinc_extra_available: bool,
    strong_position: bool,
) -> str | None:
    """Why a hold is refused (S5.4.1, S6.5), or ``None`` when it is allowed."""
    if exception == "sub_general_unmoved" and not (first_hold and contains_unmoved_general):
        return "the exception needs the corps' first hold of the bound, on the unmoved general's unit"
    if exception == "cinc_extra_pa" and not (first_hold and cinc_extra_available):
        return "the exception needs the corps' first hold of the bound and the C-in-C's unused extra PA"
    if exception == "strong_position" and not strong_position:
        return "the group is not in a strong position (rough or difficult ground, higher ground, river bank)"
    if natural_roll == 2 and any_irregular and exception is None:
        return "the corps rolled a 2 and the group holds irregulars: it cannot be held back without an exception"
    return None


def log_cost(log: Log, action_id: str, base: int, found: list[dict[str, Any]]) -> int:
    cost = base + sum(s["value"] for s in found)
    log.add(
        "S6.4", "pa.cost", "Action {action_id} costs {base} + surcharges {surcharges} = {cost} PA.",
        action_id=action_id, base=base, surcharges=[s["id"] for s in found], cost=cost,
    )
    return cost


# -- power projection (S5.5.3, S7.11, H41) --------------------------------------

def projection_required(unit: dict[str, Any], friendly_god_adjacent: bool) -> bool:
    """A fear-immune unit (or one beside a friendly god) need not test."""
    immune = unit.get("fear_immune") or unit.get("undead") or unit.get("causes_fear") or unit["troop_type"] == "Gd"
    return not (immune or friendly_god_adjacent)


def projection_test(
    dice, log: Log, die_name: str, unit_id: str, factor: int, star_bonus: int, required: bool
) -> dict[str, Any]:
    if not required:
        log.add("S7.11", "projection.test", "{unit_id} is immune to fear: no power projection test.",
                unit_id=unit_id, roll=None, target=None, passed=True)
        return {"required": False, "target": None, "roll": None, "passed": True}
    target = factor + star_bonus
    roll = dice.roll(die_name, D6)
    passed = roll <= target
    log.add("S5.5.3", "projection.test", "{unit_id} rolls {roll} against {target}: {passed}.",
            unit_id=unit_id, roll=roll, target=target, passed=passed)
    return {"required": True, "target": target, "roll": roll, "passed": passed}


# -- rally (S5.6, S6.15) -----------------------------------------------------------

def rally_problem(role: str, condition: str, rally_failed: bool, own_corps: bool, attempted: bool, distance: int) -> tuple[str, str] | None:
    """``(field, problem)`` when the rally may not be tried (S5.6 points 2-5), else ``None``."""
    if role not in RALLY["who"] or (role == "ally_general" and not own_corps):
        return "general.role", "only the C-in-C (any corps) or an allied general (his own corps) may rally"
    if condition == "dead":
        return "general.condition", "a dead general cannot rally"
    if rally_failed:
        return "general.rally_failed", "a general who failed a rally may never try again"
    if attempted:
        return "corps.rally_attempted", "this corps has already been the object of a rally attempt"
    if distance > RALLY["range_hexes"]:
        return "distance", f"the corps is more than {RALLY['range_hexes']} hexes from the general"
    return None


def rally_modifiers(flags: dict[str, bool]) -> list[dict[str, Any]]:
    """Non-zero rally modifiers in S6.15 order."""
    return [
        modifier(mid, spec["value"], LABELS["modifiers"][mid])
        for mid, spec in RALLY["modifiers"].items()
        if flags.get(mid)
    ]


def rally_test(dice, log: Log, general_id: str, flags: dict[str, bool], die_name: str, units_die_name: str) -> dict[str, Any]:
    roll = dice.roll(die_name, D6)
    mods = rally_modifiers(flags)
    modified = roll + sum(m["value"] for m in mods)
    success = modified >= NUMBERS["rally_success"]
    log.add("S6.15", "rally.roll", "Rally by {general_id}: {roll} modified to {modified}: {success}.",
            general_id=general_id, roll=roll, modified=modified, success=success)
    units = 0
    if success:
        units = sum(dice.roll_many(units_die_name, D6, 2))
    return {"roll": roll, "modifiers": mods, "modified": modified, "success": success, "units_to_move": units}
