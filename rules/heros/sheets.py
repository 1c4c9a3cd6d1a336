"""Unit and character sheets: the defaults and derived values of S4.1 and S4.2.

Everything that later rules need to know about a unit (is it mounted, does it
pursue, its factor against an opponent, its effective class) is derived here
once, so that movement, combat and morale never re-derive it differently.
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.explain import Log
from rules.heros.tables import (
    DEFAULTS,
    MOUNTED_FOR_CHARACTER_MOVEMENT,
    NOT_INFANTRY,
    NUMBERS,
    PSEUDO_TYPES,
    TROOP_TYPES,
    WOUNDS,
)

GENERAL_ROLES = ("cinc", "sub_general", "ally_general")
NO_PURSUIT = frozenset({"Art", "WWg", "Bg", "LF"})
SKIRMISHERS = frozenset(code for code, row in TROOP_TYPES.items() if row.get("skirmisher"))
# Effective class of an exceptional martial artist (S4.1, S7.2).
MA_X_AS_SUPERIOR = frozenset({"Ma", "Be", "Bw"})
MA_X_AS_INFERIOR = frozenset({"Bd", "Pk", "Sp"})


def _join(path: str, field: str) -> str:
    return f"{path}.{field}" if path else field


def fill_unit(unit: dict[str, Any], path: str = "unit", log: Log | None = None) -> dict[str, Any]:
    """The unit with every definition default of S4.1 filled in, validated against S6.2.

    ``unit`` uses the JSON names (``class``); ``None`` marks a field not entered.
    Raises :class:`InvalidInput` for a class the type does not allow, ``mounted``
    on a type other than St, or a missing factor or move without a default.
    """
    code = unit["troop_type"]
    row = TROOP_TYPES[code]
    filled = dict(unit)

    def default(field: str, value: Any, rule: str = "S6.2") -> None:
        if filled.get(field) is None:
            filled[field] = value
            if log is not None:
                log.add(rule, "unit.default", "{field} takes its default value {value}.", field=field, value=value)

    default("class", DEFAULTS["class"])
    if filled["class"] not in row["classes"]:
        raise InvalidInput.field(
            _join(path, "class"), f"class {filled['class']} is not allowed for {code} (allowed: {', '.join(row['classes'])})"
        )
    if unit.get("mounted") is not None and not row.get("mounted_may_be_entered"):
        raise InvalidInput.field(_join(path, "mounted"), "may be given only for spirits (St)")
    if filled.get("name") is None:
        filled["name"] = filled["id"]
    default("regular", DEFAULTS["regular"])
    default("ep", float(row.get("default_ep", DEFAULTS["ep"])))
    default("factor_vs_foot", row.get("default_factor_vs_foot"))
    default("factor_vs_mounted", row.get("default_factor_vs_mounted"))
    move_default = row.get("default_move")
    if code == "Lu" and filled["class"] == "X":
        move_default = 0
    default("move", move_default)
    for field in ("factor_vs_foot", "factor_vs_mounted", "move"):
        if filled.get(field) is None:
            raise InvalidInput.field(_join(path, field), f"is required for troop type {code}")
    default("impetuous", filled["class"] in row.get("default_impetuous_classes", []))
    default("enemy_malus", row.get("default_enemy_malus", DEFAULTS["enemy_malus"]))
    default("supported_by", list(row.get("default_supported_by", DEFAULTS["supported_by"])))
    for field, value in row.get("forced", {}).items():
        if filled.get(field) is not value:
            filled[field] = value
            if log is not None:
                log.add("S6.2", "unit.default", "{field} is forced to {value}.", field=field, value=value)
    filled["mounted"] = category(filled) == "mounted"
    return filled


def category(unit: dict[str, Any]) -> str:
    """``mounted`` or ``foot`` for combat factors (S4.1); St may be entered mounted."""
    code = unit["troop_type"]
    if code in PSEUDO_TYPES:
        return "foot"
    if code == "St" and unit.get("mounted"):
        return "mounted"
    return TROOP_TYPES[code]["category"]


def derive(unit: dict[str, Any]) -> dict[str, Any]:
    """The derived values of S4.1 for a filled unit."""
    code = unit["troop_type"]
    row = TROOP_TYPES[code]
    cat = category(unit)
    fixed = code == "Lu" and unit["class"] == "X"
    return {
        "category": cat,
        "mounted": cat == "mounted",
        "infantry": cat == "foot" and code not in NOT_INFANTRY,
        "movement_class": row["movement_class"],
        "terrain_combat_penalty": row["movement_class"] == "close",
        "skirmisher": code in SKIRMISHERS,
        "fixed": fixed,
        "pursues": (bool(unit["impetuous"]) or code == "Bm") and not fixed and code not in NO_PURSUIT,
        "can_stack": code not in ("Gd", "Lu") and not unit["character_unit"],
        "can_shoot": unit["range"] > 0,
        "fear_immune_effective": bool(unit["fear_immune"] or unit["undead"] or unit["causes_fear"] or code == "Gd"),
        "power_projection_factor": unit["factor_vs_foot"],
    }


SHEET_FIELDS = (
    "id", "name", "troop_type", "troop_type_fr", "troop_type_en", "class", "regular", "category", "mounted",
    "infantry", "factor_vs_foot", "factor_vs_mounted", "move", "range", "can_shoot", "ep", "impetuous", "pursues",
    "skirmisher", "movement_class", "terrain_combat_penalty", "causes_fear", "undead", "fear_immune",
    "fear_immune_effective", "magician", "power_points", "enemy_malus", "supported_by", "fixed", "character_unit",
    "can_stack", "power_projection_factor", "dragon", "axes_or_halberds", "mobile", "flyer_terrain_exempt",
    "profile_note",
)


def unit_sheet(filled: dict[str, Any]) -> dict[str, Any]:
    row = TROOP_TYPES[filled["troop_type"]]
    merged = {**filled, **derive(filled), "troop_type_fr": row["fr"], "troop_type_en": row["en"]}
    sheet = {field: merged[field] for field in SHEET_FIELDS}
    sheet["ep"] = num(sheet["ep"])
    return sheet


def effective_class(unit_type: str, unit_class: str, opponent_type: str) -> str:
    """Class used in every class condition (S4.1): Ma(X) count as S or I against some types."""
    if unit_type == "Ma" and unit_class == "X":
        if opponent_type in MA_X_AS_SUPERIOR:
            return "S"
        if opponent_type in MA_X_AS_INFERIOR:
            return "I"
    return unit_class


def grade_modifier(unit_type: str, unit_class: str, opponent_type: str) -> int:
    """M11 (house H18): +1 when a Ma(X) counts as S, -1 when it counts as I."""
    if unit_type != "Ma" or unit_class != "X":
        return 0
    return {"S": 1, "I": -1}.get(effective_class(unit_type, unit_class, opponent_type), 0)


def factor_against(unit: dict[str, Any], opponent_mounted: bool) -> int:
    """Factor used against an opponent (S4.1), less a character-unit's wounds (S7.6)."""
    base = unit["factor_vs_mounted"] if opponent_mounted else unit["factor_vs_foot"]
    return base - {"light": 1, "serious": 2}.get(unit.get("wound_state", "none"), 0)


# -- characters (S4.2) ---------------------------------------------------------

def is_general(character: dict[str, Any]) -> bool:
    return character["role"] in GENERAL_ROLES


def default_bonus(role: str) -> int:
    return 1 if role in GENERAL_ROLES else 0


def attack_malus(wound_state: str) -> int:
    return {"light": 1, "serious": 2}.get(wound_state, 0)


def effective_bonus(character: dict[str, Any]) -> int:
    if character.get("wound_state") in ("unconscious", "dead") or character.get("status", "active") != "active":
        return 0
    return max(0, character["combat_bonus"] - attack_malus(character.get("wound_state", "none")))


def conscious(character: dict[str, Any]) -> bool:
    return character.get("status", "active") == "active" and character.get("wound_state") not in ("unconscious", "dead")


def star_value(star: dict[str, Any], others: list[dict[str, Any]]) -> int:
    """The star's effective bonus plus 1 per other engaged character of own bonus 3+ (S7.5, H39)."""
    threshold = NUMBERS["star_extra_per_character_if_base_at_least"]
    extra = sum(1 for other in others if conscious(other) and other["combat_bonus"] >= threshold)
    return effective_bonus(star) + extra


def choose_star(characters: list[dict[str, Any]], chosen: str | None = None) -> dict[str, Any] | None:
    """The star among engaged conscious characters: the chosen one, else the best (S7.5)."""
    candidates = [c for c in characters if conscious(c)]
    if not candidates:
        return None
    if chosen is not None:
        for c in candidates:
            if c["id"] == chosen:
                return c
    return sorted(candidates, key=lambda c: (-effective_bonus(c), -c["combat_bonus"], c["id"]))[0]


def character_move(character: dict[str, Any], army_has_mounted: bool, in_difficult: bool) -> int:
    base = NUMBERS["individual_move"] if army_has_mounted else NUMBERS["individual_move_if_no_mounted_units"]
    if in_difficult:
        base = NUMBERS["individual_move_in_difficult"]
    state = character.get("wound_state", "none")
    if state in ("unconscious", "dead") or character.get("status", "active") != "active":
        return 0
    if state == "light":
        return base - 1
    if state == "serious":
        return base // 2
    return base


def pa_modifier(wound_state: str) -> int:
    return {"light": -1, "serious": -2}.get(wound_state, 0)


def counts_as_lost(character: dict[str, Any]) -> bool:
    return character.get("wound_state") in ("unconscious", "dead") or character.get("status") in ("captured", "dead")


def capture_thresholds(wound_state: str) -> dict[str, int | None]:
    row = WOUNDS["capture_chance"].get(wound_state)
    conditions = ("surrounded", "flank", "flee", "recoil")
    if row is None:
        return {c: None for c in conditions}
    return {c: row[c] for c in conditions}


def army_has_mounted(unit_types: list[str]) -> bool:
    return any(t in MOUNTED_FOR_CHARACTER_MOVEMENT for t in unit_types)


def num(value: float | int) -> float | int:
    """An EP value for output: integral values as JSON integers (S9.0)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)
