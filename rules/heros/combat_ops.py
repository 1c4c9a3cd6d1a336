"""Operations ``combat``, ``character-duel``, ``combat-risk``, ``wound-evolution`` and
``captive-recovery`` (S9.6-S9.9, S9.11)."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rules.dice import D6
from rules.errors import InvalidInput
from rules.heros import combat, ruleset, sheets, wounds
from rules.heros.entities import CharacterStatus, CombatantType, Factor, Id, OtherEngaged, Terrain, UnitDef, WoundState
from rules.model import ClosedInput, Input
from rules.registry import Context

Count = Annotated[int, Field(ge=0, le=20)]


class Listed(Input):
    label: Annotated[str, Field(max_length=200)] = ""
    value: Annotated[int, Field(ge=-20, le=20)]


class CombatHex(Input):
    terrain: Terrain = "open"
    wooded: bool = False
    built_up: bool = False
    elevation: Annotated[int, Field(ge=-3, le=5)] = 0
    wall: bool = False
    fortified: bool = False
    river_bank: bool = False


class Contacts(Input):
    overlaps: Count = 0
    flank: Count = 0
    rear: Count = 0


class CombatCharacter(Input):
    id: Id
    combat_bonus: Annotated[int, Field(ge=0, le=6)] = 0
    wound_state: WoundState = "none"
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0
    status: CharacterStatus = "active"
    engaged: bool = True
    dwarf: bool = False
    undead: bool = False
    mounted: bool = False
    magician: bool = False
    very_large: bool = False
    humanoid: bool = False


class Combatant(UnitDef):
    troop_type: CombatantType
    hex: CombatHex = CombatHex()
    contacts: Contacts = Contacts()
    rear_support: Optional[CombatantType] = None
    characters: Annotated[list[CombatCharacter], Field(max_length=30)] = []
    star_id: Optional[Id] = None
    adventurers_stacked: bool = False
    demoralised: bool = False
    friendly_god_adjacent: bool = False
    surrounded: bool = False
    retreat_blocked: Literal["none", "friends", "enemy"] = "none"
    adventurer_flee: bool = False
    extra_shooters: Count = 0
    decline_pursuit: bool = False
    modifiers: Annotated[list[Listed], Field(max_length=20)] = []
    factor: Optional[Factor] = None


class CombatInput(ClosedInput):
    kind: Literal["melee", "shooting"]
    active: Literal["a", "b"]
    first_melee: bool = False
    exchange: bool = False
    a: Combatant
    b: Combatant


def build(side: str, raw: Combatant, kind: str) -> dict:
    data = raw.model_dump(by_alias=True)
    t = data["troop_type"]
    if t == "Spell":
        if side != "a" or kind != "shooting":
            raise InvalidInput.field(f"{side}.troop_type", "a spell attacks only, as the shooter (a) of a shooting")
        if data["factor"] is None:
            raise InvalidInput.field(f"{side}.factor", "is required for a spell attack")
    unit = None
    if t not in ("Id", "Spell"):
        unit = sheets.fill_unit({k: data.get(k) for k in UnitDef.model_fields if k != "class_"} | {"class": data["class"]}, side)
    return combat.combatant(unit, t, data)


@ruleset.operation("combat", CombatInput, rolls=True, summary="One shooting or melee between two combatants (S5.8, S6.6-S6.9).")
def combat_op(data: CombatInput, ctx: Context) -> dict:
    a, b = build("a", data.a, data.kind), build("b", data.b, data.kind)
    exchange = data.kind == "melee" or data.exchange
    out = combat.resolve(
        data.kind, a, b, a_active=data.active == "a", first_melee=data.first_melee, exchange=exchange,
        dice_a=ctx.dice.roll("a", D6), dice_b=ctx.dice.roll("b", D6), log=ctx.log,
    )
    tests = combat.risk_tests(data.kind, a, b, out, exchange)
    return {"a": out["a"], "b": out["b"], "winner": out["winner"], "risk_tests": tests}


class Duelist(Input):
    id: Id
    combat_bonus: Annotated[int, Field(ge=0, le=6)] = 0
    wound_state: WoundState = "none"
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0
    dwarf: bool = False
    undead: bool = False
    mounted: bool = False
    very_large: bool = False
    humanoid: bool = False
    other_engaged_characters: Annotated[list[OtherEngaged], Field(max_length=30)] = []
    modifiers: Annotated[list[Listed], Field(max_length=20)] = []


class DuelInput(ClosedInput):
    a: Duelist
    b: Duelist


@ruleset.operation("character-duel", DuelInput, rolls=True, summary="The character duel phase (S5.10).")
def character_duel(data: DuelInput, ctx: Context) -> dict:
    stars = {}
    for side in ("a", "b"):
        d = getattr(data, side).model_dump()
        d["star_value"] = sheets.star_value(d, d["other_engaged_characters"]) if sheets.conscious(d) else 0
        stars[side] = d
    return wounds.duel(ctx.dice, ctx.log, {"a": "a", "b": "b", "wound": "wound"}, stars["a"], stars["b"])


class RiskCharacter(Input):
    id: Id
    wound_state: WoundState = "none"
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0
    dwarf: bool = False
    unit_profile: bool = False
    ep: Annotated[float, Field(ge=0, le=10, multiple_of=0.5)] = 1


class RiskContext(Input):
    engaged: bool = True
    melee: bool = True
    on_foot_vs_mounted: bool = False
    flank_contacts: Count = 0
    on_impetuous: bool = False
    facing_impetuous: bool = False
    faster_than_enemy: bool = False
    mounted_in_difficult: bool = False
    facing_dwarf: bool = False
    surrounded: bool = False
    vs_shooting: bool = False
    cover: Literal["none", "wooded_difficult", "built_up"] = "none"
    behind_wall: bool = False
    by_impetuous: bool = False
    vs_undead: bool = False


class RiskInput(ClosedInput):
    character: RiskCharacter
    row: Literal["victory", "tie", "recoil", "flee", "destroyed"]
    context: RiskContext = RiskContext()


@ruleset.operation("combat-risk", RiskInput, rolls=True, summary="Risk test, wound roll and capture of one character (S6.10-S6.12).")
def combat_risk(data: RiskInput, ctx: Context) -> dict:
    return wounds.risk_test(ctx.dice, ctx.log, {"risk": "risk", "wound": "wound", "capture": "capture"},
                            data.character.model_dump(), data.row, data.context.model_dump())


class EvolutionCharacter(Input):
    id: Id
    wound_state: Literal["light", "serious", "unconscious"]
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0


class EvolutionInput(ClosedInput):
    character: EvolutionCharacter
    rested: bool = False
    fought: bool = False


@ruleset.operation("wound-evolution", EvolutionInput, rolls=True, summary="Start-of-bound test of a wounded character (S6.13).")
def wound_evolution(data: EvolutionInput, ctx: Context) -> dict:
    if data.rested and data.fought:
        raise InvalidInput.field("fought", "a character who fought has not rested")
    return wounds.evolution(ctx.dice, ctx.log, "evolution", data.character.model_dump(), data.rested, data.fought)


class RecoveryInput(ClosedInput):
    holder_result: Literal["recoil", "flee", "destroyed"]
    after_rally: bool = False


@ruleset.operation("captive-recovery", RecoveryInput, rolls=True, summary="Recovering a captured leader (S6.14).")
def captive_recovery(data: RecoveryInput, ctx: Context) -> dict:
    return wounds.recovery(ctx.dice, ctx.log, "recovery", "captive", data.holder_result, data.after_rally)
