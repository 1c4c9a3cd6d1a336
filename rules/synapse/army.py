"""The ``unit-sheet`` and ``army-sheet`` operations (S9.2, S9.3) and the order-of-battle sheet (S6.15)."""

from __future__ import annotations

from pydantic import Field

from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.entities import Army, SheetContext, Unit
from rules.synapse.formations import aggregate, army_ratings, group_members
from rules.synapse.sheets import unit_sheet
from rules.synapse.tables import tables


def unit_sheets(army: Army, ctx: SheetContext, log: Log, path: str) -> list[dict]:
    """Every unit's sheet in input order; ids must be unique within the army."""
    seen: set[str] = set()
    sheets = []
    for index, unit in enumerate(army.units):
        if unit.id in seen:
            raise InvalidInput.field(f"{path}.units[{index}].id", f"duplicate unit id {unit.id!r}")
        seen.add(unit.id)
        sheets.append(unit_sheet(unit, ctx, log, f"{path}.units[{index}]"))
    return sheets


def order_of_battle(name: str, commander_name: str | None, command_rating: int, notes: str,
                    sheets: list[dict], groups: dict[str, dict]) -> dict:
    """S6.15: rows are unit sheets, totals the group values, damage tracks the precomputed thresholds."""
    by_id = {s["id"]: s for s in sheets}
    sheet: dict = {"army": name, "commander": commander_name, "command_rating": command_rating, "notes": notes}
    for section in tables()["order_of_battle_sheet"]["sections"]:
        if "groups" not in section:
            continue
        rows, totals = [], []
        for group in section["groups"]:
            if group not in groups:
                continue
            g = groups[group]
            for unit_id in g["unit_ids"]:
                u = by_id[unit_id]
                rows.append({"unit": u["name"], "headcount": u["headcount"], "attack_power": u["attack_power"],
                             "weapon_range": u.get("weapon_range"), "strength": u["strength"], "combat": u["combat"],
                             "defence": u["defence"], "break_pct": u["break_pct"]})
            totals.append({"group": group, "headcount": g["headcount"], "attack_power": g["attack_power"],
                           "weapon_range": None, "strength": g["strength"], "combat": g["combat"],
                           "defence": g["defence"], "break_pct": g["break_pct"]})
        sheet[section["id"]] = {"rows": rows, "totals": totals}
    sheet["damage_tracks"] = {
        group: {"losses": 0, "strength": g["strength"], **g["thresholds"]}
        for group, g in groups.items()
    }
    return sheet


def reserve_significant(formations: list[dict]) -> bool | None:
    """S5.1 step 5 / S7.8: a reserve matters when it holds at least 10 % of the other attack power."""
    reserve = [f for f in formations if f["group"] == "reserve"]
    if not reserve:
        return None
    others = sum(f["attack_power"] for f in formations if f["group"] != "reserve")
    return 10 * sum(f["attack_power"] for f in reserve) >= others


class UnitSheetInput(Input):
    unit: Unit
    context: SheetContext = Field(default_factory=SheetContext)


@ruleset.operation("unit-sheet", UnitSheetInput, summary="One unit's characteristics (S4.2-S4.7).")
def unit_sheet_op(data: UnitSheetInput, ctx: Context) -> dict:
    return unit_sheet(data.unit, data.context, ctx.log, "unit")


class SheetOptions(Input):
    round_break_pct_to_5: bool = False


class ArmySheetInput(Input):
    army: Army
    context: SheetContext = Field(default_factory=SheetContext)
    options: SheetOptions = Field(default_factory=SheetOptions)


@ruleset.operation("army-sheet", ArmySheetInput, summary="Groups, ratings and order-of-battle sheet of an army (S4.8, S4.9, S6.15).")
def army_sheet_op(data: ArmySheetInput, ctx: Context) -> dict:
    army, log = data.army, ctx.log
    sheets = unit_sheets(army, data.context, log, "army")
    defender = data.context.mode == "assault" and data.context.assault_role == "defender"
    groups = {
        group: aggregate(group, group, members, defender=defender, round5=data.options.round_break_pct_to_5, log=log)
        for group, members in group_members(sheets, defender=defender).items()
    }
    ratings = army_ratings(army.commander, sheets, log, army.name)
    commander = army.commander.model_dump() if army.commander else None
    significant = reserve_significant([{"group": g, **v} for g, v in groups.items()])
    return {
        "name": army.name,
        "commander": commander,
        **ratings,
        "units": {s["id"]: s for s in sheets},
        "undeployed_units": [s["id"] for s in sheets if not s.get("deployable", True)],
        "groups": groups,
        "reserve_significant": significant,
        "sheet": order_of_battle(army.name, army.commander.name if army.commander else None,
                                 ratings["command_rating"], army.notes, sheets, groups),
    }
