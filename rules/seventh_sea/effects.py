"""What a hero's effects do to his rolls and his engagement (S4.12), read from S6.10.

Every number here comes from the opportunity definitions of ``tables.yaml``
(``personal_modifier``, ``all_rolls_modifier``, ``dice_penalty``,
``engagement``); the functions only add them up.
"""

from __future__ import annotations

from rules.seventh_sea import tables

REST = "rest"


def _personal(effect: dict) -> int:
    value = tables.opportunity(effect["type"]).get("personal_modifier", 0)
    if isinstance(value, dict):  # unhorsed rider: -2 during its first two rounds, +1 afterwards
        return value["while_rounds_done_below_2"] if effect["rounds_done"] < 2 else value["afterwards"]
    return value


def personal_effect_modifier(effects: list[dict]) -> int:
    return sum(_personal(effect) for effect in effects)


def all_rolls_modifier(effects: list[dict]) -> int:
    return sum(tables.opportunity(effect["type"]).get("all_rolls_modifier", 0) for effect in effects)


def dice_penalty(effects: list[dict]) -> int:
    return sum(tables.opportunity(effect["type"]).get("dice_penalty", 0) for effect in effects)


def forced_engagement(effects: list[dict]) -> tuple[str | None, str | None]:
    """``(engagement or "rest", effect type)`` imposed by the effects, or ``(None, None)``."""
    for effect in effects:
        rule = tables.opportunity(effect["type"]).get("engagement")
        if rule == REST:
            return REST, effect["type"]
        if rule == "locked":
            return effect["locked_engagement"], effect["type"]
        if rule == "position":
            return effect["position"], effect["type"]
        if rule in tables.ENGAGEMENTS:
            return rule, effect["type"]
    return None, None


def has(effects: list[dict], kind: str) -> bool:
    return any(effect["type"] == kind for effect in effects)
