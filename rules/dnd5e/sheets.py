"""Derived values of a profile, a stand, a solo and a unit (S4.1-S4.6, S4.9,
S4.11, S4.12, S4.14, S6.5): the numbers a GM would otherwise work out by hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.dnd5e.entities import ABILITIES, Profile
from rules.dnd5e.geometry import area_size, dm, squares_movement, squares_range
from rules.dnd5e.tables import (
    ALLOWED_ACTIONS, ACTION_ORDER, CONFIG_AC_BONUS, FOOTPRINT, HALF_SPEED_CONFIGS, NUMBERS, STAND_ALLOWED,
)


def mod(score: int) -> int:
    """S4.1."""
    return (score - 10) // 2


def ability_mods(p: Profile) -> dict[str, int]:
    return {a: mod(getattr(p.abilities, a)) for a in ABILITIES}


def save_bonus(p: Profile, ability: str) -> int:
    """S4.2."""
    return p.save_bonuses.get(ability, mod(getattr(p.abilities, ability)))


def stealth_bonus(p: Profile) -> int:
    return p.stealth_bonus if p.stealth_bonus is not None else mod(p.abilities.dex)


def passive_perception(p: Profile) -> int:
    return p.passive_perception if p.passive_perception is not None else 10 + mod(p.abilities.wis)


def cha_check_bonus(p: Profile) -> int:
    return p.cha_check_bonus if p.cha_check_bonus is not None else mod(p.abilities.cha)


def speed_squares(p: Profile) -> int:
    return squares_movement(p.speed_m)


def swim_squares(p: Profile) -> int:
    return squares_movement(p.swim_speed_m)


def allowance(p: Profile, dashing: bool, half_speed_config: bool) -> int:
    """S4.6: ``half_speed_config`` = a stand of a regiment in support or defense (H7)."""
    speed = speed_squares(p)
    if half_speed_config:
        return speed if dashing else speed // 2
    return speed * 2 if dashing else speed


def is_half_speed(role: str, unit_type: str | None, configuration: str | None) -> bool:
    return role == "stand" and unit_type == "regiment" and configuration in HALF_SPEED_CONFIGS


def reach_bonus_attack(p: Profile, is_stand: bool) -> bool:
    """S4.14: a stand with a melee attack of reach 3 m or more."""
    threshold = dm(NUMBERS["reach_bonus_threshold_m"])
    return is_stand and any(a.kind == "melee" and dm(a.reach_m) >= threshold for a in p.attacks)


def attacks_per_action(p: Profile) -> int:
    return len(p.multiattack) if p.multiattack else 1


def allowed_actions(p: Profile, role: str, unit_type: str | None, configuration: str | None) -> list[str]:
    """S6.5 ``allowed_actions_lists`` filtered by what the profile has."""
    if role == "solo":
        key = "solo"
    elif unit_type == "skirmishers":
        key = "skirmisher_stand"
    elif unit_type == "regiment":
        key = "regiment_stand_defense" if configuration == "defense" else "regiment_stand_march_or_support"
    else:
        key = "stand_without_unit_type"
    actions = list(ALLOWED_ACTIONS[key])
    if not p.attacks and "attack" in actions:
        actions.remove("attack")
    if not p.spells and "cast_spell" in actions:
        actions.remove("cast_spell")
    return actions


def canonical(actions: Iterable[str]) -> list[str]:
    wanted = set(actions)
    return [a for a in ACTION_ORDER if a in wanted]


def attack_sheet(p: Profile, is_stand: bool) -> dict[str, dict]:
    threshold = dm(NUMBERS["reach_bonus_threshold_m"])
    out = {}
    for a in p.attacks:
        melee = a.kind == "melee"
        out[a.name] = {
            "kind": a.kind,
            "to_hit": a.to_hit,
            "reach_squares": 1 if melee else None,
            "range_squares": None if melee else squares_range(a.range_m),
            "long_range_squares": None if melee else squares_range(a.long_range),
            "grants_reach_bonus": melee and is_stand and dm(a.reach_m) >= threshold,
        }
    return out


def spell_sheet(p: Profile, is_stand: bool) -> dict[str, dict]:
    out = {}
    for s in p.spells:
        targeted = s.targeting == "targeted"
        out[s.name] = {
            "targeting": s.targeting,
            "resolution": s.resolution,
            "self_range": s.self_range,
            "range_squares": None if s.self_range else squares_range(s.range_m),
            "area_shape": None if targeted else s.area.shape,
            "area_squares": None if targeted else area_size(s.area.shape, s.area.size_m),
            "max_targets": s.max_targets,
            "stand_targets": (s.max_targets if is_stand else s.max_targets // 5) if targeted else None,
            "uses": s.uses,
        }
    return out


def creature_sheet(p: Profile, role: str, unit_type: str | None, configuration: str | None) -> dict:
    """The ``creature-sheet`` output without dice and log (S9.2)."""
    is_stand = role == "stand"
    mods = ability_mods(p)
    half = is_half_speed(role, unit_type, configuration)
    defense = is_stand and unit_type == "regiment" and configuration is not None
    actions = allowed_actions(p, role, unit_type, configuration)
    reach = reach_bonus_attack(p, is_stand)
    return {
        "name": p.name,
        "size": p.size,
        "role": role,
        "footprint": FOOTPRINT[p.size],
        "can_be_stand": STAND_ALLOWED[p.size],
        "ability_mods": mods,
        "save_bonuses": {a: save_bonus(p, a) for a in ABILITIES},
        "hp_max": p.hp_max,
        "ac": p.ac,
        "ac_effective": p.ac + (CONFIG_AC_BONUS[configuration] if defense else 0),
        "speed_squares": speed_squares(p),
        "swim_squares": swim_squares(p),
        "can_enter_deep_water": swim_squares(p) > 0,
        "movement_allowance": allowance(p, False, half),
        "dash_allowance": allowance(p, True, half),
        "initiative_modifier": mods["dex"],
        "passive_perception": passive_perception(p),
        "stealth_bonus": stealth_bonus(p),
        "stealth_disadvantage": p.stealth_disadvantage,
        "cha_check_bonus": cha_check_bonus(p),
        "dex_save_advantage": is_stand and unit_type == "skirmishers",
        "reach_bonus_attack": reach,
        "attacks_per_action": attacks_per_action(p),
        "max_attacks": attacks_per_action(p) + (1 if reach else 0),
        "attacks": attack_sheet(p, is_stand),
        "spells": spell_sheet(p, is_stand),
        "allowed_actions": actions,
        "can_attack": "attack" in actions,
    }


def unit_initiative_modifier(unit_type: str, dex_mods: list[int]) -> int:
    """S4.11: best DEX modifier for skirmishers, worst for a regiment."""
    return max(dex_mods) if unit_type == "skirmishers" else min(dex_mods)


def morale_check_due(broken: bool, starting: int, surviving: int) -> bool:
    """S4.12: more than half the starting stands lost."""
    return (not broken) and surviving >= 1 and (starting - surviving) * 2 > starting
