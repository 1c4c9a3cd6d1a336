"""Operations ``unit-sheet``, ``character-sheet`` and ``army-sheet`` (S9.1-S9.3)."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rules.errors import InvalidInput
from rules.heros import ruleset, sheets
from rules.heros.entities import EP, BigEP, CharacterDef, CharacterStatus, CombatantType, Id, OtherEngaged, Role, TroopType, UnitClass, UnitDef, UnitStatus, WoundState
from rules.heros.morale import army_morale, corps_ep, corps_morale
from rules.heros.tables import NUMBERS, TROOP_TYPES
from rules.model import ClosedInput, Input
from rules.registry import Context


class Opponent(Input):
    troop_type: CombatantType
    class_: UnitClass = Field("O", alias="class")
    mounted: Optional[bool] = None


class UnitSheetInput(ClosedInput):
    unit: UnitDef
    opponent: Optional[Opponent] = None


def opponent_category(opponent: Opponent) -> str:
    if opponent.troop_type == "Id":
        return "mounted" if opponent.mounted else "foot"
    return sheets.category({"troop_type": opponent.troop_type})


@ruleset.operation("unit-sheet", UnitSheetInput, summary="Derive a unit's sheet and its factor against an opponent (S4.1).")
def unit_sheet(data: UnitSheetInput, ctx: Context) -> dict:
    filled = sheets.fill_unit(data.unit.model_dump(by_alias=True), "unit", ctx.log)
    sheet = sheets.unit_sheet(filled)
    for field in ("category", "infantry", "movement_class", "pursues", "fixed", "can_stack", "fear_immune_effective"):
        ctx.log.add("S4.1", "unit.derived", "{field} is {value}.", field=field, value=sheet[field])
    vs = None
    if data.opponent is not None:
        opp = data.opponent
        if opp.mounted is not None and opp.troop_type != "Id":
            raise InvalidInput.field("opponent.mounted", "may be given only for lone characters (Id)")
        cat = opponent_category(opp)
        vs = {
            "opponent_category": cat,
            "factor": sheets.factor_against(filled, cat == "mounted"),
            "effective_class": sheets.effective_class(filled["troop_type"], filled["class"], opp.troop_type),
            "grade_modifier": sheets.grade_modifier(filled["troop_type"], filled["class"], opp.troop_type),
        }
        ctx.log.add("S4.1", "unit.derived", "Against {field} it uses factor {value}.", field=opp.troop_type, value=vs["factor"])
    return {"sheet": sheet, "vs_opponent": vs}


class CharacterSheetInput(ClosedInput):
    character: CharacterDef
    army_has_mounted: bool = True
    in_difficult_terrain: bool = False
    other_engaged_characters: Annotated[list[OtherEngaged], Field(max_length=50)] = []


def fill_character(character: dict) -> dict:
    filled = dict(character)
    if filled.get("combat_bonus") is None:
        filled["combat_bonus"] = sheets.default_bonus(filled["role"])
    if filled.get("name") is None:
        filled["name"] = filled["id"]
    return filled


def character_sheet_of(c: dict, others: list[dict], army_has_mounted: bool, in_difficult: bool) -> dict:
    eff = sheets.effective_bonus(c)
    pa_mod = sheets.pa_modifier(c["wound_state"])
    return {
        "id": c["id"], "name": c["name"], "role": c["role"], "is_general": sheets.is_general(c), "ep": sheets.num(c["ep"]),
        "combat_bonus": c["combat_bonus"], "effective_bonus": eff, "solo_factor": eff,
        "star_value": sheets.star_value(c, others) if sheets.conscious(c) else 0,
        "vs_shooting_factor": NUMBERS["individual_vs_shooting_factor"],
        "move": sheets.character_move(c, army_has_mounted, in_difficult),
        "pa_modifier": pa_mod, "personal_pa_effective": max(0, c["personal_pa"] + pa_mod),
        "wound_state": c["wound_state"], "wound_malus": c["wound_malus"], "counts_as_lost": sheets.counts_as_lost(c),
        "can_cast": bool(c["magician"]) and sheets.conscious(c),
        "capture_thresholds": sheets.capture_thresholds(c["wound_state"]),
    }


@ruleset.operation("character-sheet", CharacterSheetInput, summary="Derive a character's values (S4.2).")
def character_sheet(data: CharacterSheetInput, ctx: Context) -> dict:
    c = fill_character(data.character.model_dump())
    others = [o.model_dump() for o in data.other_engaged_characters]
    sheet = character_sheet_of(c, others, data.army_has_mounted, data.in_difficult_terrain)
    for field in ("combat_bonus", "effective_bonus", "star_value", "move", "pa_modifier", "personal_pa_effective", "counts_as_lost"):
        ctx.log.add("S4.2", "character.derived", "{field} is {value}.", field=field, value=sheet[field])
    return {"sheet": sheet}


class ArmyCorps(Input):
    id: Id
    kind: Literal["cinc", "sub", "ally"]
    general_id: Optional[Id] = None
    dwarf: bool = False
    rallied: bool = False
    rallied_at_loss: Optional[BigEP] = None


class ArmyUnit(Input):
    id: Id
    corps_id: Id
    troop_type: TroopType
    class_: UnitClass = Field("O", alias="class")
    ep: Optional[EP] = None
    impetuous: bool = False
    status: UnitStatus = "active"


class ArmyCharacter(Input):
    id: Id
    corps_id: Id
    role: Role
    ep: EP = 1
    wound_state: WoundState = "none"
    status: CharacterStatus = "active"


class Captive(Input):
    character_id: Id
    role: Role


class Adjustment(Input):
    corps_id: Id
    ep_total: BigEP = 0
    ep_lost: BigEP = 0
    label: Annotated[str, Field(max_length=200)] = ""


class ArmySheetInput(ClosedInput):
    side_id: Id
    corps: Annotated[list[ArmyCorps], Field(min_length=1, max_length=50)]
    units: Annotated[list[ArmyUnit], Field(max_length=1000)]
    characters: Annotated[list[ArmyCharacter], Field(max_length=500)]
    captives_held: Annotated[list[Captive], Field(max_length=100)] = []
    adjustments: Annotated[list[Adjustment], Field(max_length=100)] = []


@ruleset.operation("army-sheet", ArmySheetInput, summary="EP of every corps, demoralisation and army break (S4.6).")
def army_sheet(data: ArmySheetInput, ctx: Context) -> dict:
    corps = [c.model_dump() for c in data.corps]
    if sum(1 for c in corps if c["kind"] == "cinc") != 1:
        raise InvalidInput.field("corps", "exactly one corps must be of kind cinc")
    ids = {c["id"] for c in corps}
    units = []
    for i, u in enumerate(data.units):
        unit = u.model_dump(by_alias=True)
        if unit["corps_id"] not in ids:
            raise InvalidInput.field(f"units[{i}].corps_id", "unknown corps")
        if unit["class"] not in TROOP_TYPES[unit["troop_type"]]["classes"]:
            raise InvalidInput.field(f"units[{i}].class", f"class not allowed for {unit['troop_type']}")
        if unit["ep"] is None:
            unit["ep"] = float(TROOP_TYPES[unit["troop_type"]].get("default_ep", 1))
        units.append(unit)
    characters = []
    for i, ch in enumerate(data.characters):
        if ch.corps_id not in ids:
            raise InvalidInput.field(f"characters[{i}].corps_id", "unknown corps")
        characters.append(ch.model_dump())
    for i, adj in enumerate(data.adjustments):
        if adj.corps_id not in ids:
            raise InvalidInput.field(f"adjustments[{i}].corps_id", "unknown corps")
    rows = corps_ep(corps, units, characters, [a.model_dump() for a in data.adjustments])
    lines = [corps_morale(c, rows[c["id"]], ctx.log) for c in corps]
    army = army_morale(data.side_id, rows, [c.role for c in data.captives_held], ctx.log)
    return {"corps": lines, "army": army}
