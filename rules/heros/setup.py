"""Operation ``new-battle`` (S5.1, S9.12): validate a set-up and build the initial state."""

from __future__ import annotations

from typing import Annotated, Optional

from pydantic import Field

from rules.errors import InvalidInput
from rules.heros import bounds, caps, hexgrid, ruleset, sheets
from rules.heros.entities import CharacterPlaced, Id, MapDef, UnitPlaced
from rules.heros.sheet_ops import fill_character
from rules.heros.state import HEX_DEFAULTS, Battle, Options, normalise
from rules.model import ClosedInput, Input
from rules.registry import Context

KIND_ROLE = {"cinc": "cinc", "sub": "sub_general", "ally": "ally_general"}
HIDING_GROUND = ("rough", "difficult")
ALONE_TYPES = ("Gd", "Lu")


class SideDef(Input):
    id: Id
    name: Optional[Annotated[str, Field(max_length=200)]] = None
    cinc_id: Id


class CorpsDef(Input):
    id: Id
    side: Id
    name: Optional[Annotated[str, Field(max_length=200)]] = None
    kind: str = Field(pattern="^(cinc|sub|ally)$")
    general_id: Id
    dwarf: bool = False


class NewBattleInput(ClosedInput):
    battle_id: Optional[Annotated[str, Field(max_length=120)]] = None
    map: MapDef
    sides: Annotated[list[SideDef], Field(min_length=2, max_length=2)]
    corps: Annotated[list[CorpsDef], Field(min_length=2, max_length=caps.CORPS)]
    units: Annotated[list[UnitPlaced], Field(max_length=caps.UNITS)]
    characters: Annotated[list[CharacterPlaced], Field(max_length=caps.CHARACTERS)]
    first_side: Id
    max_turns: Optional[Annotated[int, Field(ge=1, le=99)]] = None
    options: Options = Options()


UNIT_STATE_DEFAULTS = {"high_altitude": False, "climb_hex": None, "activations": 0, "lurker_activations": 0,
                       "projection_failed": False, "rally_moved": False, "arrived_mid_battle": False,
                       "wound_state": "none", "wound_malus": 0}
CHARACTER_STATE_DEFAULTS = {"captured_by": None, "rally_failed": False, "has_moved": False, "moved_hexes": 0,
                            "fought": False, "spell_cast": False, "personal_pa_spent": 0, "pa_benefit": 0}
UNIT_ORDER = (
    "id", "name", "corps_id", "side", "troop_type", "class", "regular", "mounted", "factor_vs_foot",
    "factor_vs_mounted", "move", "range", "ep", "impetuous", "causes_fear", "undead", "fear_immune", "magician",
    "power_points", "enemy_malus", "axes_or_halberds", "dragon", "mobile", "flyer_terrain_exempt", "supported_by",
    "character_unit", "profile_note", "position", "facing", "rank", "hidden", "status", "high_altitude",
    "climb_hex", "activations", "lurker_activations", "projection_failed", "rally_moved", "arrived_mid_battle",
    "wound_state", "wound_malus",
)
CHARACTER_ORDER = (
    "id", "name", "corps_id", "side", "role", "player_id", "combat_bonus", "ep", "mounted", "dwarf", "undead",
    "magician", "power_points", "personal_pa", "can_riposte", "very_large", "humanoid", "wound_state",
    "wound_malus", "position", "stacked_on", "engaged", "status", "captured_by", "rally_failed", "has_moved",
    "moved_hexes", "fought", "spell_cast", "personal_pa_spent", "pa_benefit",
)


def _bad(path: str, problem: str) -> InvalidInput:
    return InvalidInput.field(path, problem)


def check_stacking(b: Battle, h: hexgrid.Hex, path: str, *, with_characters: bool = True) -> None:
    """The stacking limits of S5.5.4 for one hex."""
    units = b.units_at(h)
    chars = b.chars_at(h) if with_characters else []
    if len({u["side"] for u in units} | {c["side"] for c in chars}) > 1:
        raise _bad(path, "units and characters of both sides share a hex")
    ranked = [u for u in units if u["troop_type"] != "Av"]
    adventurers = [u for u in units if u["troop_type"] == "Av"]
    if len(ranked) > 2 or len(adventurers) > 1 or sum(1 for u in ranked if u["rank"] == "rear") > 1 \
            or sum(1 for u in ranked if u["rank"] == "front") > 1:
        raise _bad(path, "too many units in one hex (one front rank, one rear rank, one adventurer unit)")
    alone = [u for u in units if u["troop_type"] in ALONE_TYPES or u["character_unit"]]
    if alone and (len(units) > 1 or chars):
        raise _bad(path, "a god, a lurker or a character-unit is always alone in its hex")
    if units and any(c["stacked_on"] is None for c in chars):
        raise _bad(path, "a lone character cannot share a hex with a unit")
    if b.hex(h)["terrain"] == "impassable" and units and not all(u["troop_type"] == "Fl" for u in units):
        raise _bad(path, "the hex is impassable")


def build_state(data: NewBattleInput, ctx: Context) -> dict:
    seen: dict[str, str] = {}

    def unique(identifier: str, path: str) -> None:
        if identifier in seen:
            raise _bad(path, f"id {identifier} is already used by {seen[identifier]}")
        seen[identifier] = path

    m = data.map.model_dump()
    for i, h in enumerate(m["hexes"]):
        if not hexgrid.inside(h, m["width"], m["height"]):
            raise _bad(f"map.hexes[{i}]", "outside the map")
    sides = []
    for i, sd in enumerate(data.sides):
        unique(sd.id, f"sides[{i}].id")
        sides.append({"id": sd.id, "name": sd.name or sd.id, "cinc_id": sd.cinc_id, "cinc_extra_used": False, "broken": False})
    side_ids = [s["id"] for s in sides]
    if data.first_side not in side_ids:
        raise _bad("first_side", "unknown side")
    corps = []
    for i, cd in enumerate(data.corps):
        unique(cd.id, f"corps[{i}].id")
        if cd.side not in side_ids:
            raise _bad(f"corps[{i}].side", "unknown side")
        corps.append({"id": cd.id, "side": cd.side, "name": cd.name or cd.id, "kind": cd.kind, "general_id": cd.general_id,
                      "dwarf": cd.dwarf, "ep_total": 0, "ep_lost": 0, "demoralised": False, "rallied": False,
                      "rallied_at_loss": None, "rally_attempted": False, "pa": {"roll": None, "available": 0, "spent": 0}})
    corps_by_id = {c["id"]: c for c in corps}
    for sid in side_ids:
        if sum(1 for c in corps if c["side"] == sid and c["kind"] == "cinc") != 1:
            raise _bad("corps", f"side {sid} must have exactly one cinc corps")
    units = []
    for i, ud in enumerate(data.units):
        path = f"units[{i}]"
        unique(ud.id, f"{path}.id")
        raw = ud.model_dump(by_alias=True)
        if raw["corps_id"] is None or raw["corps_id"] not in corps_by_id:
            raise _bad(f"{path}.corps_id", "unknown corps")
        filled = sheets.fill_unit(raw, path)
        owner = corps_by_id[filled["corps_id"]]
        if filled["troop_type"] == "Gd" and owner["kind"] == "sub":
            raise _bad(f"{path}.corps_id", "a god belongs to the C-in-C's corps or an allied corps")
        if filled["status"] not in ("active", "pool", "reserve"):
            raise _bad(f"{path}.status", "a unit starts active, in the pool (lurkers) or in reserve")
        if filled["status"] == "pool" and filled["troop_type"] != "Lu":
            raise _bad(f"{path}.status", "only lurkers start in the pool")
        if filled["status"] == "active":
            if filled["position"] is None:
                raise _bad(f"{path}.position", "an active unit needs a position")
            if not hexgrid.inside(filled["position"], m["width"], m["height"]):
                raise _bad(f"{path}.position", "outside the map")
        elif filled["position"] is not None:
            raise _bad(f"{path}.position", "a unit in the pool or in reserve has no position")
        unit = {**filled, **UNIT_STATE_DEFAULTS, "side": owner["side"]}
        units.append({k: unit[k] for k in UNIT_ORDER})
    units_by_id = {u["id"]: u for u in units}
    characters = []
    for i, cd in enumerate(data.characters):
        path = f"characters[{i}]"
        unique(cd.id, f"{path}.id")
        c = fill_character(cd.model_dump())
        if c["corps_id"] is None or c["corps_id"] not in corps_by_id:
            raise _bad(f"{path}.corps_id", "unknown corps")
        if data.options.simple_generals and c["role"] == "champion":
            raise _bad(f"{path}.role", "no champions with the simple generals option (S7.16)")
        side = corps_by_id[c["corps_id"]]["side"]
        if c["status"] == "active":
            if c["stacked_on"] is not None:
                unit = units_by_id.get(c["stacked_on"])
                if unit is None or unit["side"] != side or unit["status"] != "active":
                    raise _bad(f"{path}.stacked_on", "must be an active unit of the character's side")
                if unit["troop_type"] in ALONE_TYPES or unit["character_unit"]:
                    raise _bad(f"{path}.stacked_on", "no character stands on a god, a lurker or a character-unit")
                if c["position"] is not None and not hexgrid.same(c["position"], unit["position"]):
                    raise _bad(f"{path}.position", "a stacked character stands in its unit's hex")
                c["position"] = hexgrid.copy(unit["position"])
            else:
                if c["position"] is None:
                    raise _bad(f"{path}.position", "a character not stacked on a unit needs a position")
                if not hexgrid.inside(c["position"], m["width"], m["height"]):
                    raise _bad(f"{path}.position", "outside the map")
                c["engaged"] = True
            if data.options.simple_generals and (c["stacked_on"] is None or not c["engaged"]):
                raise _bad(f"{path}.stacked_on", "with simple generals every general starts stacked and engaged")
        else:
            c["position"], c["stacked_on"], c["engaged"] = None, None, False
        c = {**c, **CHARACTER_STATE_DEFAULTS, "side": side}
        characters.append({k: c[k] for k in CHARACTER_ORDER})
    chars_by_id = {c["id"]: c for c in characters}
    for i, sd in enumerate(sides):
        cinc = chars_by_id.get(sd["cinc_id"])
        if cinc is None or cinc["role"] != "cinc" or cinc["side"] != sd["id"]:
            raise _bad(f"sides[{i}].cinc_id", "must be a character of role cinc of this side")
    for i, c in enumerate(corps):
        general = chars_by_id.get(c["general_id"])
        if general is None or general["role"] != KIND_ROLE[c["kind"]] or general["corps_id"] != c["id"]:
            raise _bad(f"corps[{i}].general_id", f"must be a character of this corps with role {KIND_ROLE[c['kind']]}")
        if c["kind"] == "cinc" and general["id"] != next(s["cinc_id"] for s in sides if s["id"] == c["side"]):
            raise _bad(f"corps[{i}].general_id", "the cinc corps' general is the side's C-in-C")
    state = {
        "ruleset": "heros", "schema_version": 1, "battle_id": data.battle_id, "status": "ongoing", "result": None,
        "turn": 1, "bound": 1, "active_side": data.first_side, "first_side": data.first_side,
        "max_turns": data.max_turns, "options": data.options.model_dump(),
        "map": {"width": m["width"], "height": m["height"],
                "hexes": [{"col": h["col"], "row": h["row"], **{k: h[k] for k in HEX_DEFAULTS}} for h in m["hexes"]]},
        "sides": sides, "corps": corps, "units": units, "characters": characters, "engagements": [],
        "gods_pa": {}, "pending": {"impetuous": []},
    }
    b = Battle(state, ctx.dice, ctx.log)
    last = {hexgrid.key(u["position"]): i for i, u in enumerate(units) if u["position"] is not None}
    for i, u in enumerate(units):
        if u["position"] is None:
            continue
        if last[hexgrid.key(u["position"])] == i:
            check_stacking(b, u["position"], f"units[{i}].position", with_characters=False)
        ground = b.hex(u["position"])
        if u["hidden"] and not (ground["terrain"] in HIDING_GROUND or ground["wooded"] or ground["built_up"]):
            raise _bad(f"units[{i}].hidden", "only a unit in rough, difficult, wooded or built-up ground may hide")
    last = {hexgrid.key(c["position"]): i for i, c in enumerate(characters) if c["position"] is not None}
    for i, c in enumerate(characters):
        if c["position"] is not None and last[hexgrid.key(c["position"])] == i:
            check_stacking(b, c["position"], f"characters[{i}].position")
    ctx.log.add("S5.1", "validation.ok", "The set-up is valid.")
    return state


@ruleset.operation("new-battle", NewBattleInput, rolls=True, summary="Set-up to initial battle state (S5.1, S5.3).")
def new_battle(data: NewBattleInput, ctx: Context) -> dict:
    state = build_state(data, ctx)
    b = Battle(state, ctx.dice, ctx.log)
    bounds.start_bound(b)
    return {"state": normalise(state), "events": b.events}
