"""Unit sheets (S4.2–S4.7): what one unit is worth, from its S3.4/S3.5 description.

A sheet is plain data: the ``unit-sheet`` output, the rows of the
order-of-battle sheet and the pieces formations are built from.  Rates of fire
are exact fractions and each product is floored once, at the end (H11).
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import floor

from rules.errors import InvalidInput
from rules.explain import Log
from rules.synapse.entities import SheetContext, TroopUnit, VehicleUnit
from rules.synapse.tables import quality_of, tables, troop_type

RATE = re.compile(r"^([1-9][0-9]*)(?:/([1-9][0-9]*))?(R?)$")
RATE_MAX = 1000  # no weapon fires more than this per cycle; keeps fractions small


def parse_rate(value: int | str, path: str) -> tuple[Fraction, bool]:
    """``rate_of_fire`` as (exact shots per cycle, burst)."""
    if isinstance(value, int):
        if value < 1:
            raise InvalidInput.field(path, "must be at least 1")
        return Fraction(value), False
    match = RATE.match(value)
    if not match:
        raise InvalidInput.field(path, 'must look like 2, "1/2" or "4R"')
    num, den = int(match.group(1)), int(match.group(2) or 1)
    if num > RATE_MAX or den > RATE_MAX:
        raise InvalidInput.field(path, f"numbers above {RATE_MAX} are not accepted")
    return Fraction(num, den), bool(match.group(3))


def combat_mode_of(unit: TroopUnit) -> str:
    return unit.combat_mode or troop_type(unit.unit_type)["default_combat_mode"]


def group_of(unit: TroopUnit | VehicleUnit) -> str:
    if isinstance(unit, VehicleUnit):
        return unit.group
    return unit.group or ("ranged" if combat_mode_of(unit) == "ranged" else "melee")


def check_troop(unit: TroopUnit, path: str) -> None:
    """S9.2 cross-field rules of a troop unit, each reported at its own path."""
    problems: dict[str, str] = {}
    mode = combat_mode_of(unit)
    if unit.unit_type == "artillery":
        if unit.pieces is None:
            problems[f"{path}.pieces"] = "required for artillery"
        if mode == "melee":
            problems[f"{path}.combat_mode"] = "artillery fights at range"
    elif unit.pieces is not None:
        problems[f"{path}.pieces"] = "only artillery has pieces"
    if mode == "ranged":
        if unit.rate_of_fire is None:
            problems[f"{path}.rate_of_fire"] = "required for a ranged unit"
        if unit.weapon_range is None:
            problems[f"{path}.weapon_range"] = "required for a ranged unit"
        if unit.secondary_damage > 0:
            problems[f"{path}.secondary_damage"] = "only melee units add a secondary weapon"
        if unit.thrown_only:
            problems[f"{path}.thrown_only"] = "only melee units have thrown weapons"
    elif unit.group in ("ranged", "artillery"):
        problems[f"{path}.group"] = "only ranged units belong to this group"
    if problems:
        first = next(iter(problems))
        raise InvalidInput(f"Invalid unit at {first}: {problems[first]}.", problems)
    if mode == "ranged":
        parse_rate(unit.rate_of_fire, f"{path}.rate_of_fire")


def damage_state(losses: int, strength: int) -> str:
    """S4.11 / S6.5: the damage state of a loss total."""
    if losses <= 0:
        return "fresh"
    if 2 * losses < strength:
        return "engaged"
    if losses < strength:
        return "shaken"
    if losses < 2 * strength:
        return "decimated"
    return "annihilated"


def break_pct_of(combat_base: int, override: int | None) -> int:
    """S4.5 with H3: 10 % plus 10 % per combat point, never under 10 %."""
    if override is not None:
        return override
    return max(10, 10 + 10 * combat_base)


def thresholds(strength: int, break_threshold: int | None) -> dict:
    """S4.5: the loss totals at which the state changes."""
    return {
        "shaken_at": (strength + 1) // 2,
        "decimated_at": strength,
        "annihilated_at": 2 * strength,
        "rout_above": break_threshold,
    }


def type_multiplier_applied(unit: TroopUnit, ctx: SheetContext) -> tuple[int, bool]:
    """S4.3: the type multiplier where the unit fights, and whether it can deploy at all."""
    row = troop_type(unit.unit_type)
    base = unit.type_multiplier if unit.type_multiplier is not None else row["attack_multiplier"]
    assault = ctx.mode == "assault"
    deployable = True
    m = base
    if row["charge_only"]:
        charges = ctx.terrain in tables()["charge_terrain"][unit.unit_type] and not assault
        if unit.unit_type == "war_chariots":
            deployable = charges
            m = base if charges else 0
        else:
            m = base if charges else 1  # no charge: counts as infantry (H9, H10)
    if assault and ctx.assault_role == "attacker" and unit.flying:
        m *= unit.assault_multiplier
    return m, deployable


def troop_sheet(unit: TroopUnit, ctx: SheetContext, log: Log, path: str = "unit") -> dict:
    """S4.2–S4.6 for a troop unit."""
    check_troop(unit, path)
    row = troop_type(unit.unit_type)
    mode = combat_mode_of(unit)
    ranged = mode == "ranged"
    dmg_eff = unit.weapon_damage if ranged else unit.weapon_damage + unit.secondary_damage // 2
    n = unit.pieces if unit.unit_type == "artillery" else unit.headcount
    if ranged:
        rof, burst = parse_rate(unit.rate_of_fire, f"{path}.rate_of_fire")
        raw = n * unit.weapon_damage * rof * unit.area_of_effect * (2 if burst else 1)
    else:
        raw = Fraction(n * dmg_eff)
    m, deployable = type_multiplier_applied(unit, ctx)
    halvings = (1 if unit.thrown_only else 0) + (
        1 if ranged and unit.weapon_range in tables()["halved_attack_power_ranges"] else 0
    )
    attack_power = floor(raw * m / 2**halvings)
    if m != (unit.type_multiplier or row["attack_multiplier"]):
        log.add("S4.3", "unit.multiplier", "{unit}: type multiplier x{multiplier} here ({terrain}, {mode}).",
                unit=unit.id, multiplier=m, terrain=ctx.terrain, mode=ctx.mode)
    if unit.attack_power_override is not None:
        attack_power = unit.attack_power_override
    log.add("S4.2", "unit.attack_power", "{unit}: {headcount} x Dmg {weapon_damage} x {multiplier} = attack power {attack_power}.",
            unit=unit.id, headcount=n, weapon_damage=dmg_eff, multiplier=m, attack_power=attack_power)

    toughness = unit.toughness if unit.toughness is not None else row["toughness"]
    armour_eff = (unit.armour // 2 if unit.partial_armour else unit.armour) + unit.armour_extra
    soldier_points = (toughness + armour_eff) * ctx.fortification_factor
    strength = unit.headcount * soldier_points
    log.add("S4.4", "unit.strength", "{unit}: {headcount} x (SDG {toughness} + Arm {armour}) = strength {strength}.",
            unit=unit.id, headcount=unit.headcount, toughness=toughness, armour=armour_eff, strength=strength)

    combat = unit.combat_base + unit.attack_mod
    defence = max(0, unit.combat_base)
    break_pct = break_pct_of(unit.combat_base, unit.break_pct_override)
    break_threshold = None if unit.fearless else strength * break_pct // 100
    log.add("S4.5", "unit.break", "{unit}: combat {combat_base} gives a break threshold of {break_pct} % = {break_threshold} points.",
            unit=unit.id, combat_base=unit.combat_base, break_pct=break_pct, break_threshold=break_threshold)

    if not ranged:
        ap_contact, def_contact = attack_power, defence
    else:
        capable = unit.contact_capable
        if capable is None:
            capable = not (unit.unit_type == "artillery" and unit.weapon_tech == "archaic")
        zero_def = unit.zero_defence_in_contact
        if zero_def is None:
            zero_def = unit.unit_type == "artillery" and unit.weapon_tech == "firearm"
        if not capable:
            ap_contact = 0
        elif unit.weapon_tech == "firearm":
            ap_contact = attack_power
        else:
            ap_contact = attack_power // 2
        def_contact = 0 if zero_def else defence
        log.add("S4.6", "unit.contact", "{unit}: at contact attack power {attack_power_contact}, defence {defence_contact}.",
                unit=unit.id, attack_power_contact=ap_contact, defence_contact=def_contact)

    return {
        "id": unit.id,
        "name": unit.name if unit.name is not None else unit.id,
        "category": "troop",
        "unit_type": unit.unit_type,
        "group": group_of(unit),
        "combat_mode": mode,
        "headcount": unit.headcount,
        "pieces": unit.pieces,
        "weapon_damage_effective": dmg_eff,
        "type_multiplier_applied": m,
        "deployable": deployable,
        "attack_power": attack_power,
        "attack_power_contact": ap_contact,
        "toughness": toughness,
        "armour_effective": armour_eff,
        "soldier_points": soldier_points,
        "fortification_factor": ctx.fortification_factor,
        "strength": strength,
        "combat": combat,
        "defence": defence,
        "defence_contact": def_contact,
        "break_pct": break_pct,
        "break_threshold": break_threshold,
        "fearless": unit.fearless,
        "quality": quality_of(unit.combat_base),
        "weight_class": "light" if unit.thrown_only else ("heavy" if armour_eff >= 3 or unit.shield else "light"),
        "weapon_range": unit.weapon_range if ranged else None,
        "thresholds": thresholds(strength, break_threshold),
    }


def vehicle_sheet(unit: VehicleUnit, ctx: SheetContext, log: Log, path: str = "unit") -> dict:
    """S4.7 for a vehicle unit."""
    lines = []
    for t_index, vtype in enumerate(unit.vehicle_types):
        for w_index, weapon in enumerate(vtype.weapons):
            rof, burst = parse_rate(weapon.rate_of_fire, f"{path}.vehicle_types[{t_index}].weapons[{w_index}].rate_of_fire")
            halvings = (1 if weapon.role == "secondary" else 0) + (1 if weapon.short_range else 0)
            per_vehicle = floor(
                weapon.count * rof * weapon.weapon_damage * weapon.area_of_effect * (2 if burst else 1) / 2**halvings
            )
            usable = ctx.combat_type in weapon.usable_in
            line = {
                "vehicle_type": vtype.name,
                "weapon": weapon.name,
                "role": weapon.role,
                "weapon_damage": weapon.weapon_damage,
                "attack_power": vtype.count * per_vehicle,
                "usable": usable,
                "effective": usable and 2 * weapon.weapon_damage >= ctx.target_armour,
            }
            lines.append(line)
            log.add("S4.7", "vehicle.line", "{unit}: {count} x {weapon} ({per_vehicle} each) = {attack_power}; usable {usable}, counted {effective}.",
                    unit=unit.id, count=vtype.count, weapon=weapon.name, per_vehicle=per_vehicle,
                    attack_power=line["attack_power"], usable=usable, effective=line["effective"])
    attack_power = sum(line["attack_power"] for line in lines if line["effective"])
    if unit.attack_power_override is not None:
        attack_power = unit.attack_power_override
        lines = [{"weapon_damage": None, "attack_power": attack_power, "usable": True, "effective": True}]
    headcount = sum(t.count for t in unit.vehicle_types)
    crew_total = sum(t.count * t.crew for t in unit.vehicle_types)
    strength = sum(t.count * (t.toughness + t.armour) for t in unit.vehicle_types)
    majority = max(unit.vehicle_types, key=lambda t: t.count)  # max keeps the first on a tie
    mains = [w for w in majority.weapons if w.role == "main"]
    attack_mod_mean = 0 if not mains else sum(w.count * w.attack_mod for w in mains) // sum(w.count for w in mains)
    combat = unit.crew_combat + majority.control_mod + attack_mod_mean
    defence = max(0, unit.crew_combat + majority.defence_mod)
    log.add("S4.7", "vehicle.combat", "{unit}: crew {crew_combat}, Mod(Ctl) {control_mod}: combat {combat}; defence {defence}.",
            unit=unit.id, crew_combat=unit.crew_combat, control_mod=majority.control_mod,
            attack_mod_mean=attack_mod_mean, combat=combat, defence=defence)
    break_pct = break_pct_of(unit.crew_combat, unit.break_pct_override)
    break_threshold = None if unit.fearless else strength * break_pct // 100
    log.add("S4.5", "unit.break", "{unit}: combat {combat_base} gives a break threshold of {break_pct} % = {break_threshold} points.",
            unit=unit.id, combat_base=unit.crew_combat, break_pct=break_pct, break_threshold=break_threshold)
    return {
        "id": unit.id,
        "name": unit.name if unit.name is not None else unit.id,
        "category": "vehicle",
        "unit_type": None,
        "group": unit.group,
        "combat_mode": "ranged",
        "headcount": headcount,
        "crew_total": crew_total,
        "majority_type": majority.name,
        "weapon_lines": lines,
        "attack_power": attack_power,
        "attack_power_contact": attack_power,
        "strength": strength,
        "armour": majority.armour,
        "control_mod": majority.control_mod,
        "attack_mod_mean": attack_mod_mean,
        "combat": combat,
        "defence": defence,
        "defence_contact": defence,
        "break_pct": break_pct,
        "break_threshold": break_threshold,
        "fearless": unit.fearless,
        "quality": quality_of(unit.crew_combat, "crew_quality"),
        "thresholds": thresholds(strength, break_threshold),
    }


def unit_sheet(unit: TroopUnit | VehicleUnit, ctx: SheetContext, log: Log, path: str = "unit") -> dict:
    if isinstance(unit, VehicleUnit):
        return vehicle_sheet(unit, ctx, log, path)
    return troop_sheet(unit, ctx, log, path)


def is_deployable(sheet: dict) -> bool:
    return sheet.get("deployable", True)
