"""``new-battle``: from the GM's description of a battle to its initial state (S5.1, S9.12)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.standing import stamp
from rules.synapse.army import reserve_significant, unit_sheets
from rules.synapse.entities import (
    Army, CombatType, Distance, Fortification, Mode, Options, SheetContext, Side, Terrain, VehicleUnit, Weather,
)
from rules.synapse.formations import aggregate, army_ratings, group_members
from rules.synapse.scale import ScaleUnit, sequence_duration
from rules.synapse.tables import fortification as fort_row, tables, vehicle_combat

SIDES = ("A", "B")


class BattleInput(Input):
    mode: Mode = "field"
    terrain: Terrain = "open"
    weather: Weather = Field(default_factory=Weather)
    options: Options = Field(default_factory=Options)
    engagement_distance: Distance | None = None
    combat_type: CombatType | None = None
    base_difficulty: int | None = Field(None, ge=0, le=100)
    numbers_advantage_allowed: bool = True
    surprise_allowed: bool = True
    mobility_edge: Side | None = None
    scale_unit: ScaleUnit | None = None
    fortification: Fortification | None = None
    armies: dict[Annotated[str, Field(max_length=8)], Army] = Field(max_length=2)


def _refuse(path: str, problem: str) -> InvalidInput:
    return InvalidInput(f"Invalid battle at {path}: {problem}.", {path: problem})


def check_battle(data: BattleInput) -> None:
    """The S9.12 checks that a field's own type cannot express."""
    if sorted(data.armies) != list(SIDES):
        raise _refuse("armies", "must have exactly the keys A and B")
    vehicles = data.mode == "vehicles"
    if vehicles and data.combat_type is None:
        raise _refuse("combat_type", "required in a vehicle battle")
    if not vehicles and data.combat_type is not None:
        raise _refuse("combat_type", "only for a vehicle battle")
    if data.mode == "assault" and data.fortification is None:
        raise _refuse("fortification", "required in an assault")
    if data.mode != "assault" and data.fortification is not None:
        raise _refuse("fortification", "a fortified place means an assault (H53)")
    characters: set[str] = set()
    for side in SIDES:
        army = data.armies[side]
        if army.longest_range and not vehicles:
            raise _refuse(f"armies.{side}.longest_range", "only for a vehicle battle")
        unit_ids = {u.id for u in army.units}
        for index, unit in enumerate(army.units):
            if isinstance(unit, VehicleUnit) and not vehicles:
                raise _refuse(f"armies.{side}.units[{index}].category", "vehicle units fight only in a vehicle battle")
        for index, ch in enumerate(army.characters):
            if ch.id in characters:
                raise _refuse(f"armies.{side}.characters[{index}].id", f"duplicate character id {ch.id!r}")
            characters.add(ch.id)
            if ch.unit_id not in unit_ids:
                raise _refuse(f"armies.{side}.characters[{index}].unit_id", f"no unit {ch.unit_id!r} in this army")


def _formation(fid: str, side: str, group: str, values: dict, armour, weapon_lines: list, reserve: bool) -> dict:
    """A fresh formation (S3.9, S5.1 step 4)."""
    return {
        "id": fid, "side": side, "group": group, "order": 0, "combat_mode": values["combat_mode"],
        "unit_ids": values["unit_ids"], "headcount": values["headcount"], "strength": values["strength"],
        "attack_power": values["attack_power"], "attack_power_contact": values["attack_power_contact"],
        "combat": values["combat"], "combat_initial": values["combat"], "defence": values["defence"],
        "defence_contact": values["defence_contact"], "break_pct": values["break_pct"],
        "break_threshold": values["break_threshold"], "fearless": values["fearless"], "armour": armour,
        "weapon_lines": weapon_lines, "losses": 0, "damage_state": "fresh",
        "status": "reserve" if reserve else "active", "routed_round": None, "pursued": False, "counter_bonus": 0,
        "retreat_penalty": 0, "in_contact_with": [], "engaged": False,
    }


def vehicle_formation(side: str, sheet: dict) -> dict:
    """S4.8, vehicles mode: one formation per unit, its values copied from the sheet."""
    if sheet["category"] == "vehicle":
        armour = sheet["armour"]
        lines = [{k: line[k] for k in ("weapon_damage", "attack_power", "usable")} for line in sheet["weapon_lines"]]
    else:
        armour = sheet["armour_effective"]
        lines = [{"weapon_damage": sheet["weapon_damage_effective"], "attack_power": sheet["attack_power"],
                  "usable": True}]
    values = {**sheet, "unit_ids": [sheet["id"]], "combat_mode": "ranged"}
    return _formation(f"{side}.{sheet['id']}", side, sheet["group"], values, armour, lines,
                      sheet["group"] == "reserve")


def build_side(data: BattleInput, side: str, log: Log) -> tuple[dict, list[dict]]:
    """One side's army state and formations (S5.1 steps 2-5)."""
    army = data.armies[side]
    fort = data.fortification
    defender = data.mode == "assault" and fort.defender == side
    factor = (fort.factor or fort_row(fort.class_)["factor"]) if defender else 1
    context = SheetContext(mode=data.mode, terrain=data.terrain, assault_role="defender" if defender else "attacker",
                           fortification_factor=factor, combat_type=data.combat_type or "ground", target_armour=0)
    sheets = unit_sheets(army, context, log, f"armies.{side}")
    if data.mode == "vehicles":
        formations = [vehicle_formation(side, s) for s in sheets]
    else:
        formations = []
        for group, members in group_members(sheets, defender=defender).items():
            values = aggregate(f"{side}.{group}", group, members, defender=defender,
                               round5=data.options.round_break_pct_to_5, log=log)
            formations.append(_formation(f"{side}.{group}", side, group, values, None, [], group == "reserve"))
    if not any(f["group"] != "reserve" for f in formations):
        raise _refuse(f"armies.{side}.units", "the side has no deployable unit outside its reserve")
    for f in formations:
        log.add("S4.8", "formation.built", "{formation}: attack power {attack_power}, strength {strength}, routs above {break_threshold} losses.",
                formation=f["id"], attack_power=f["attack_power"], strength=f["strength"],
                break_threshold=f["break_threshold"])
    ratings = army_ratings(army.commander, sheets, log, army.name)
    state = {
        "name": army.name,
        "commander": army.commander.model_dump() if army.commander else None,
        "notes": army.notes,
        **ratings,
        "radio": army.radio,
        "siege_equipment": army.siege_equipment,
        "longest_range": army.longest_range,
        "command_modifier": army.command_modifier,
        "reserve_significant": reserve_significant(formations),
        "auto_commit_reserve": False,
        "withdrawn": False,
        "abandoned_units": [],
        "undeployed_units": [s["id"] for s in sheets if not s.get("deployable", True)],
        "units": {s["id"]: s for s in sheets},
        "characters": [{"id": c.id, "name": c.name if c.name is not None else c.id, "unit_id": c.unit_id,
                        "armour": c.armour} for c in army.characters],
    }
    return state, formations


@ruleset.operation("new-battle", BattleInput, summary="Set up a battle: sheets, formations, ratings (S5.1).")
def new_battle(data: BattleInput, ctx: Context) -> dict:
    check_battle(data)
    log = ctx.log
    armies, formations = {}, []
    for side in SIDES:
        armies[side], side_formations = build_side(data, side, log)
        formations += side_formations
    for order, f in enumerate(formations):
        f["order"] = order
    fort = None
    if data.fortification is not None:
        f = data.fortification
        row = fort_row(f.class_)
        fort = {"class": f.class_, "defender": f.defender, "optimal_garrison": f.optimal_garrison,
                "factor": f.factor or row["factor"],
                "defence_mod": row["defence_mod"] if f.defence_mod is None else f.defence_mod,
                "inaccessible_site": f.inaccessible_site,
                "capacity": tables()["capacity_factor"] * f.optimal_garrison}
        garrison = sum(u["headcount"] for u in armies[f.defender]["units"].values())
        if garrison > fort["capacity"]:
            raise _refuse(f"armies.{f.defender}.units",
                          f"{garrison} defenders exceed the capacity of the place ({fort['capacity']})")
    if data.mode == "vehicles":
        distance = data.engagement_distance or vehicle_combat(data.combat_type)["distance"]
        base = data.base_difficulty if data.base_difficulty is not None else vehicle_combat(data.combat_type)["base_difficulty"]
    else:
        short = data.terrain == "urban" or data.mode == "assault"
        distance = data.engagement_distance or ("short" if short else "medium")
        base = None  # vehicle battles only (S3.1)
    total = sum(u["headcount"] for side in SIDES for u in armies[side]["units"].values())
    duration = sequence_duration(total, assault=data.mode == "assault", scale_unit=data.scale_unit, log=log)
    state = {
        "ruleset": "synapse",
        "mode": data.mode,
        "terrain": data.terrain,
        "weather": data.weather.model_dump(),
        "options": data.options.model_dump(),
        "engagement_distance": distance,
        "combat_type": data.combat_type,
        "base_difficulty": base,
        "numbers_advantage_allowed": data.numbers_advantage_allowed,
        "surprise_allowed": data.surprise_allowed,
        "mobility_edge": data.mobility_edge,
        "fortification": fort,
        "sequence_duration": duration,
        "round": 0,
        "status": "ongoing",
        "winner": None,
        "end_reason": None,
        "command": None,
        "armies": armies,
        "formations": {f["id"]: f for f in formations},
    }
    return {"state": stamp(state)}
