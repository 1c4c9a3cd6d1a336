"""Operations that need no battle state: conversions, sheets, area templates
and the SRD preset library (S9.1-S9.4).
"""

from __future__ import annotations

import copy
from functools import cache
from importlib import resources
from typing import Annotated, Literal

import yaml
from pydantic import Field, model_validator

from rules.dnd5e import caps, ruleset
from rules.dnd5e.entities import (
    Configuration, Direction, Ident, Profile, Shape, Square, UnitType, metres,
)
from rules.dnd5e.geometry import clipped_area, convert, dm
from rules.dnd5e.sheets import (
    ability_mods, canonical, creature_sheet, morale_check_due, unit_initiative_modifier,
)
from rules.dnd5e.tables import STAND_ALLOWED
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context

_CONVERT_TEXT = {
    "movement": "{metres} m of movement = {decimetres} dm // 15 = {squares} squares.",
    "effect": "{metres} m of effect = {decimetres} dm // 15 = {squares} squares.",
    "range": "A range of {metres} m ({decimetres} dm) reaches {squares} squares (at least 3 m into a square).",
    "area": "An area of {metres} m = {decimetres} dm // 30 = {squares} squares.",
}


class ConvertInput(Input):
    metres: metres(0, 10_000)
    kind: Literal["movement", "effect", "range", "area"]


@ruleset.operation("convert-distance", ConvertInput, summary="Metres to squares (S4.3).")
def convert_distance(data: ConvertInput, ctx: Context) -> dict:
    squares = convert(data.kind, data.metres)
    decimetres = dm(data.metres)
    ctx.log.add("S4.3", f"convert.{data.kind}", _CONVERT_TEXT[data.kind],
                metres=data.metres, decimetres=decimetres, squares=squares)
    return {"metres": data.metres, "kind": data.kind, "decimetres": decimetres, "squares": squares}


class CreatureSheetInput(Input):
    profile: Profile
    role: Literal["stand", "solo"] = "stand"
    unit_type: UnitType | None = None
    configuration: Configuration | None = None


def _sheet_log(ctx: Context, sheet: dict) -> None:
    ctx.log.add("S4.1", "sheet.mods", "Ability modifiers: {mods}.", mods=sheet["ability_mods"])
    ctx.log.add("S6.1", "sheet.footprint", "Size {size}: a footprint of {footprint} x {footprint} squares.",
                size=sheet["size"], footprint=sheet["footprint"])
    ctx.log.add("S4.6", "sheet.speed", "Speed {speed} squares, swim {swim} squares.",
                speed=sheet["speed_squares"], swim=sheet["swim_squares"])
    ctx.log.add("S4.6", "sheet.allowance", "Movement {move} squares, {dash} with Dash.",
                move=sheet["movement_allowance"], dash=sheet["dash_allowance"])
    for name, a in sheet["attacks"].items():
        if a["kind"] == "ranged":
            ctx.log.add("S4.3", "sheet.range", "{attack}: range {range} squares, long range {long} squares.",
                        attack=name, range=a["range_squares"], long=a["long_range_squares"])
    ctx.log.add("S4.14", "sheet.reach_bonus", "Attacks per action {per_action}, reach bonus attack: {reach}.",
                per_action=sheet["attacks_per_action"], reach=sheet["reach_bonus_attack"])
    ctx.log.add("S6.5", "sheet.actions", "Allowed actions: {actions}.", actions=sheet["allowed_actions"])


@ruleset.operation("creature-sheet", CreatureSheetInput, summary="Derived values of a profile (S9.2).")
def creature_sheet_op(data: CreatureSheetInput, ctx: Context) -> dict:
    p = data.profile
    if data.role == "stand" and not STAND_ALLOWED[p.size]:
        raise InvalidInput.field("profile.size", "a Gargantuan creature cannot form a stand (S3.3)")
    if data.role == "solo" and data.unit_type is not None:
        raise InvalidInput.field("unit_type", "a solo has no unit type")
    configuration = data.configuration
    if data.unit_type == "regiment":
        configuration = configuration or "march"
    elif configuration is not None:
        raise InvalidInput.field("configuration", "only regiments have a configuration")
    sheet = creature_sheet(p, data.role, data.unit_type, configuration)
    _sheet_log(ctx, sheet)
    return sheet


class UnitStandInput(Input):
    id: Ident
    profile: Ident
    hp: Annotated[int, Field(ge=0, le=2000)] | None = None
    status: Literal["active", "casualty", "eliminated", "fled"] = "active"


class AttachedSoloInput(Input):
    id: Ident
    profile: Ident
    hp: Annotated[int, Field(ge=0, le=2000)] | None = None


class UnitSheetInput(Input):
    type: UnitType
    configuration: Configuration | None = None
    profiles: Annotated[dict[Ident, Profile], Field(min_length=1, max_length=caps.PROFILES)]
    stands: Annotated[list[UnitStandInput], Field(min_length=1, max_length=caps.STANDS_PER_UNIT)]
    attached_solos: Annotated[list[AttachedSoloInput], Field(max_length=caps.SOLOS)] = []
    starting_stands: Annotated[int, Field(ge=1, le=caps.STANDS_PER_UNIT)] | None = None
    commander: Ident | None = None
    broken: bool = False

    @model_validator(mode="after")
    def _configuration(self) -> "UnitSheetInput":
        if self.type == "regiment" and self.configuration is None:
            raise ValueError("a regiment needs a configuration")
        if self.type == "skirmishers" and self.configuration is not None:
            raise ValueError("skirmishers have no configuration")
        return self


@ruleset.operation("unit-sheet", UnitSheetInput, summary="Derived values of a unit (S9.3).")
def unit_sheet_op(data: UnitSheetInput, ctx: Context) -> dict:
    profiles = data.profiles
    seen: set[str] = set()
    for i, s in enumerate(data.stands):
        if s.profile not in profiles:
            raise InvalidInput.field(f"stands[{i}].profile", "unknown profile")
        if not STAND_ALLOWED[profiles[s.profile].size]:
            raise InvalidInput.field(f"stands[{i}].profile", "a Gargantuan creature cannot form a stand")
        if s.hp is not None and s.hp > profiles[s.profile].hp_max:
            raise InvalidInput.field(f"stands[{i}].hp", "must not exceed hp_max")
        if s.id in seen:
            raise InvalidInput.field(f"stands[{i}].id", "ids must be unique")
        seen.add(s.id)
    for i, h in enumerate(data.attached_solos):
        if h.profile not in profiles:
            raise InvalidInput.field(f"attached_solos[{i}].profile", "unknown profile")
        if h.hp is not None and h.hp > profiles[h.profile].hp_max:
            raise InvalidInput.field(f"attached_solos[{i}].hp", "must not exceed hp_max")
        if h.id in seen:
            raise InvalidInput.field(f"attached_solos[{i}].id", "ids must be unique")
        seen.add(h.id)
    starting = data.starting_stands if data.starting_stands is not None else len(data.stands)
    if starting < len(data.stands):
        raise InvalidInput.field("starting_stands", "must be at least the number of stands listed")
    solos = {h.id: h for h in data.attached_solos}
    if data.commander is not None and data.commander not in solos:
        raise InvalidInput.field("commander", "must be the id of an attached solo")

    dex = [ability_mods(profiles[s.profile])["dex"] for s in data.stands]
    dex += [ability_mods(profiles[h.profile])["dex"] for h in data.attached_solos]
    initiative = unit_initiative_modifier(data.type, dex)
    in_play = [s for s in data.stands if s.status in ("active", "casualty")]
    wis = [ability_mods(profiles[s.profile])["wis"] for s in in_play]
    wis += [
        ability_mods(profiles[h.profile])["wis"]
        for h in data.attached_solos
        if (h.hp if h.hp is not None else profiles[h.profile].hp_max) > 0
    ]
    morale = max(wis) if wis else None
    rally = None
    if data.commander is not None and morale is not None:
        rally = morale + ability_mods(profiles[solos[data.commander].profile])["cha"]
    surviving = len(in_play)
    due = morale_check_due(data.broken, starting, surviving)

    stands: dict[str, dict] = {}
    actions: set[str] = set()
    for s in data.stands:
        sheet = creature_sheet(profiles[s.profile], "stand", data.type, data.configuration)
        actions.update(sheet["allowed_actions"])
        stands[s.id] = {
            "status": s.status,
            **{k: sheet[k] for k in ("footprint", "speed_squares", "movement_allowance", "dash_allowance",
                                     "ac_effective", "dex_save_advantage", "max_attacks")},
        }
    ctx.log.add("S4.11", "unit.initiative", "Initiative modifier {modifier} ({choice} of DEX modifiers {mods}).",
                modifier=initiative, choice="best" if data.type == "skirmishers" else "worst", mods=dex)
    ctx.log.add("S4.12", "unit.morale_modifier", "Morale modifier {modifier} (best WIS modifier of {mods}); rally {rally}.",
                modifier=morale, mods=wis, rally=rally)
    ctx.log.add("S4.12", "unit.losses", "{lost} of {starting} starting stands lost, {surviving} in play.",
                lost=starting - surviving, starting=starting, surviving=surviving)
    ctx.log.add("S4.12", "unit.morale_due", "Morale check due: {due}.", due=due)
    return {
        "initiative_modifier": initiative,
        "morale_modifier": morale,
        "rally_modifier": rally,
        "starting_stands": starting,
        "surviving_stands": surviving,
        "lost_stands": starting - surviving,
        "morale_check_due": due,
        "broken": data.broken,
        "allowed_actions": canonical(actions),
        "stands": stands,
    }


class GridSize(Input):
    width: Annotated[int, Field(ge=1, le=caps.MAP_SIDE)]
    height: Annotated[int, Field(ge=1, le=caps.MAP_SIDE)]


class AreaTemplateInput(Input):
    shape: Shape
    size_m: metres(0, 10_000, positive=True)
    origin: Square
    direction: Direction | None = None
    extra_side: Literal["high", "low"] = "high"
    map: GridSize | None = None

    @model_validator(mode="after")
    def _direction(self) -> "AreaTemplateInput":
        if self.shape in ("cone", "line") and self.direction is None:
            raise ValueError("a cone or a line needs a direction")
        return self


@ruleset.operation("area-template", AreaTemplateInput, summary="Squares of an area of effect (S6.9).")
def area_template_op(data: AreaTemplateInput, ctx: Context) -> dict:
    if dm(data.size_m) // 30 > 200:
        raise InvalidInput.field("size_m", "an area larger than 600 m does not fit any grid")
    grid = (data.map.width, data.map.height) if data.map else (None, None)
    n, squares = clipped_area(data.shape, data.size_m, data.origin, data.direction, data.extra_side, *grid)
    ctx.log.add("S4.3.1", "area.size", "{shape} of {metres} m: {n} squares.", shape=data.shape, metres=data.size_m, n=n)
    ctx.log.add("S6.9", "area.squares", "The area covers {count} squares.", count=len(squares))
    return {"size_squares": n, "squares": [list(s) for s in squares], "count": len(squares)}


# -- SRD presets ------------------------------------------------------------------


@cache
def _presets() -> tuple[str, dict[str, dict]]:
    raw = yaml.safe_load(resources.files(__package__).joinpath("srd_creatures.yaml").read_text(encoding="utf-8"))
    return raw["credit"], raw["creatures"]


class PresetsInput(Input):
    id: Ident | None = None


@ruleset.operation("creature-presets", PresetsInput, summary="SRD 5.1 creature profiles ready for stands and solos.")
def creature_presets(data: PresetsInput, ctx: Context) -> dict:
    credit, creatures = _presets()
    if data.id is not None:
        if data.id not in creatures:
            raise InvalidInput.field("id", "no preset has this id")
        creatures = {data.id: creatures[data.id]}
    ctx.log.add("S3.11", "presets.list", "{count} creature profiles from the SRD 5.1.", count=len(creatures))
    return {"creatures": {k: copy.deepcopy(v) for k, v in sorted(creatures.items())}, "credit": credit}


