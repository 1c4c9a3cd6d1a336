"""Operations on a battle state: ``new-battle``, ``check-movement`` and
``apply-damage`` (S9.5, S9.6, S9.9)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from rules.dnd5e import caps, ruleset
from rules.dnd5e.battle import Battle, check_state
from rules.dnd5e.entities import (
    BattleState, Configuration, Controller, Direction, Ident, MapInput, Objective, ObjectiveSquareSetup, Profiles,
    ShortText, Square, UnitType,
)
from rules.dnd5e.movement import Mover
from rules.dnd5e.orders import validate_path
from rules.dnd5e.rolls import one_d20
from rules.dnd5e.sheets import mod, unit_initiative_modifier
from rules.dnd5e.standing import stamp
from rules.dnd5e.tables import NUMBERS
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context

Hp = Annotated[int, Field(ge=0, le=2000)]


class StandSetup(Input):
    id: Ident
    profile: Ident
    position: Square
    hp: Hp | None = None


class UnitSetup(Input):
    side: Ident
    name: ShortText | None = None
    controller: Controller = None
    type: UnitType
    configuration: Configuration | None = None
    surprised: bool = False
    stands: Annotated[list[StandSetup], Field(min_length=1, max_length=caps.STANDS_PER_UNIT)]


class SoloSetup(Input):
    side: Ident
    name: ShortText | None = None
    controller: Controller = None
    profile: Ident
    position: Square | None = None
    attached_to: Ident | None = None
    commander_of: Ident | None = None
    uses_death_saves: bool = True
    hp: Hp | None = None
    surprised: bool = False

    @model_validator(mode="after")
    def _placement(self) -> "SoloSetup":
        if (self.position is None) == (self.attached_to is None):
            raise ValueError("give exactly one of position and attached_to")
        if self.commander_of is not None and self.attached_to is None:
            raise ValueError("only an attached solo can command a unit")
        return self


class SideSetup(Input):
    name: ShortText = ""
    controller: Controller = None


class NewBattleInput(Input):
    name: ShortText = ""
    map: MapInput
    profiles: Profiles
    sides: Annotated[dict[Ident, SideSetup], Field(min_length=2, max_length=2)]
    units: Annotated[dict[Ident, UnitSetup], Field(min_length=1, max_length=caps.UNITS)]
    solos: Annotated[dict[Ident, SoloSetup], Field(max_length=caps.SOLOS)] = {}
    objective_squares: Annotated[dict[Ident, ObjectiveSquareSetup], Field(max_length=caps.OBJECTIVE_SQUARES)] = {}
    objectives: Annotated[dict[Ident, Objective], Field(max_length=caps.OBJECTIVES)] = {}
    victory_threshold: Annotated[int, Field(ge=1, le=100)] = NUMBERS["victory_threshold"]


def _setup_paths(data: NewBattleInput):
    stand_path = {s.id: f"units.{uid}.stands[{i}]" for uid, u in data.units.items() for i, s in enumerate(u.stands)}

    def where(kind: str, key: str, field: str) -> str:
        if kind == "stand":
            base = stand_path[key]
        elif kind == "cell":
            base = f"map.cells[{key}]"
        elif kind == "initiative":
            base = "units"
        else:
            base = {"solo": "solos", "unit": "units", "objective_square": "objective_squares",
                    "objective": "objectives", "side": "sides"}[kind] + f".{key}"
        return f"{base}.{field}" if field else base

    return where


def _spell_uses(profile) -> dict[str, int]:
    return {s.name: s.uses for s in profile.spells if s.uses is not None}


def build_state(data: NewBattleInput) -> dict:
    """The state before initiative: every entity with its derived fields (S5.1)."""
    profiles = data.profiles
    units, stands, solos = {}, {}, {}
    for uid, u in data.units.items():
        for i, s in enumerate(u.stands):
            if s.profile not in profiles:
                raise InvalidInput.field(f"units.{uid}.stands[{i}].profile", "unknown profile")
            if s.id in stands:
                raise InvalidInput.field(f"units.{uid}.stands[{i}].id", "id already used")
            hp = profiles[s.profile].hp_max if s.hp is None else s.hp
            stands[s.id] = {"unit": uid, "profile": s.profile, "hp": hp, "status": "active" if hp > 0 else "casualty",
                            "position": list(s.position), "hidden": False, "isolated": False,
                            "spell_uses": _spell_uses(profiles[s.profile])}
            if hp == 0:  # the spec is silent; a stand at 0 hp would be a casualty before the first round
                raise InvalidInput.field(f"units.{uid}.stands[{i}].hp", "a stand starts the battle with hp above 0")
        units[uid] = {"side": u.side, "name": u.name if u.name is not None else uid, "controller": u.controller,
                      "type": u.type, "configuration": u.configuration, "stands": [s.id for s in u.stands],
                      "starting_stands": len(u.stands), "broken": False, "commander": None,
                      "prepare_until_round": None, "motivate_until_round": None, "initiative": 0,
                      "surprised": u.surprised, "eliminated_round": None}
    for hid, h in data.solos.items():
        if h.profile not in profiles:
            raise InvalidInput.field(f"solos.{hid}.profile", "unknown profile")
        p = profiles[h.profile]
        hp = p.hp_max if h.hp is None else h.hp
        condition = "active" if hp > 0 else ("dying" if h.uses_death_saves else "dead")
        dead = condition == "dead"
        solos[hid] = {"side": h.side, "name": h.name if h.name is not None else hid, "controller": h.controller,
                      "profile": h.profile, "hp": hp, "condition": condition,
                      "position": None if dead or h.position is None else list(h.position),
                      "attached_to": None if dead else h.attached_to, "uses_death_saves": h.uses_death_saves,
                      "death_save_successes": 0, "death_save_failures": 0, "hidden": False, "isolated": False,
                      "initiative": 0, "surprised": h.surprised, "spell_uses": _spell_uses(p)}
    squares = {oid: {**o.model_dump(), "hp": o.hp_max, "destroyed_round": None}
               for oid, o in data.objective_squares.items()}
    objectives = {}
    for oid, o in data.objectives.items():
        objectives[oid] = o.model_dump()
    return {
        "ruleset": "dnd5e", "name": data.name, "round": 1, "battle_over": False,
        "victory_threshold": data.victory_threshold, "map": data.map.model_dump(),
        "profiles": {k: p.model_dump(exclude_unset=True) for k, p in profiles.items()},
        "sides": {k: {"name": s.name, "controller": s.controller, "victory_points": 0} for k, s in data.sides.items()},
        "units": units, "stands": stands, "solos": solos, "objective_squares": squares,
        "objectives": objectives, "initiative_order": [],
    }


def _check_setup(data: NewBattleInput, b: Battle) -> None:
    for side in data.sides:
        if not any(u.side == side for u in data.units.values()) and not any(
                h.side == side for h in data.solos.values()):
            raise InvalidInput.field(f"sides.{side}", "every side needs at least one unit or solo")
    for hid, h in data.solos.items():
        if h.attached_to is None:
            continue
        if h.attached_to not in b.stands:
            raise InvalidInput.field(f"solos.{hid}.attached_to", "unknown stand")
        if b.side(h.attached_to) != h.side:
            raise InvalidInput.field(f"solos.{hid}.attached_to", "the stand must be of the solo's side")
        if not b.size_rule(hid, h.attached_to):
            raise InvalidInput.field(f"solos.{hid}.attached_to",
                                     "a solo may be at most one size larger than the stand's creatures")
        if h.commander_of is not None:
            if b.stands[h.attached_to]["unit"] != h.commander_of:
                raise InvalidInput.field(f"solos.{hid}.commander_of", "must name the unit of the solo's stand")
            unit = b.units[h.commander_of]
            if unit["commander"] is not None:
                raise InvalidInput.field(f"solos.{hid}.commander_of", "a unit has at most one commander")
            if b.solos[hid]["condition"] != "active":
                raise InvalidInput.field(f"solos.{hid}.commander_of", "a commander must be able to act")
            unit["commander"] = hid


def roll_initiative(b: Battle, ctx: Context) -> None:
    """S5.2 / H10: once, at setup; attached solos share their unit's entry."""
    entries = []
    attached: dict[str, list[str]] = {}
    for hid in sorted(b.solos):
        h = b.solos[hid]
        if h["attached_to"] is not None:
            attached.setdefault(b.stands[h["attached_to"]]["unit"], []).append(hid)
    for uid, u in b.units.items():
        dex = [mod(b.profile(s).abilities.dex) for s in u["stands"]]
        dex += [mod(b.profile(h).abilities.dex) for h in attached.get(uid, [])]
        modifier = unit_initiative_modifier(u["type"], dex)
        natural = one_d20(ctx, f"init.{uid}")
        entries.append({"id": uid, "kind": "unit", "total": natural + modifier, "modifier": modifier})
        ctx.log.add("S5.2", "setup.initiative", "{id} rolls initiative {natural} + {modifier} = {total}.",
                    id=uid, natural=natural, modifier=modifier, total=natural + modifier)
    for hid, h in b.solos.items():
        if h["position"] is None:
            continue
        modifier = mod(b.profile(hid).abilities.dex)
        natural = one_d20(ctx, f"init.{hid}")
        entries.append({"id": hid, "kind": "solo", "total": natural + modifier, "modifier": modifier})
        ctx.log.add("S5.2", "setup.initiative", "{id} rolls initiative {natural} + {modifier} = {total}.",
                    id=hid, natural=natural, modifier=modifier, total=natural + modifier)
    entries.sort(key=lambda e: (-e["total"], -e["modifier"], e["id"]))
    order = []
    for e in entries:
        order.append(e)
        if e["kind"] == "unit":
            order += [{"id": h, "kind": "solo", "total": e["total"], "modifier": e["modifier"]}
                      for h in attached.get(e["id"], [])]
    # a solo dead at setup is neither placed nor attached; it still gets an entry (S5.2), last
    listed = {e["id"] for e in order}
    for hid in sorted(set(b.solos) - listed):
        modifier = mod(b.profile(hid).abilities.dex)
        order.append({"id": hid, "kind": "solo", "total": modifier, "modifier": modifier})
    for e in order:
        (b.units if e["kind"] == "unit" else b.solos)[e["id"]]["initiative"] = e["total"]
    b.st["initiative_order"] = order
    ctx.log.add("S5.2", "setup.order", "Initiative order: {order}.", order=[e["id"] for e in order])


@ruleset.operation("new-battle", NewBattleInput, summary="Setup: the initial battle state (S5.1).", rolls=True)
def new_battle(data: NewBattleInput, ctx: Context) -> dict:
    st = build_state(data)
    b = Battle(st, dict(data.profiles), ctx.log)
    _check_setup(data, b)
    check_state(b, _setup_paths(data))
    for uid, u in b.units.items():
        ctx.log.add("S5.1", "setup.unit", "{unit}: {type}, {count} stands.", unit=uid, type=u["type"],
                    count=len(u["stands"]))
    for hid, h in b.solos.items():
        if h["attached_to"]:
            ctx.log.add("S5.1", "setup.solo.attached", "{solo}: attached to {stand}.", solo=hid, stand=h["attached_to"])
        else:
            ctx.log.add("S5.1", "setup.solo.placed", "{solo}: at {position}.", solo=hid, position=h["position"])
    roll_initiative(b, ctx)
    b.evaluate_isolation()
    ctx.log.add("S4.13", "setup.isolation", "Isolated at setup: {ids}.",
                ids=sorted([k for k, v in {**b.stands, **b.solos}.items() if v["isolated"]]))
    return {"state": stamp(st)}


class CheckMovementInput(Input):
    state: BattleState
    mover: Ident
    move: Annotated[list[Square], Field(max_length=caps.PATH)] = []
    move_after: Annotated[list[Square], Field(max_length=caps.PATH)] = []
    road_step: Direction | None = None
    dash: bool = False
    disengage: bool = False
    join: Ident | None = None


@ruleset.operation("check-movement", CheckMovementInput, summary="Check a movement without changing the state (S5.7).")
def check_movement(data: CheckMovementInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    cid = data.mover
    if cid in b.stands:
        if not b.in_play(cid):
            raise InvalidInput.field("mover", "the stand is not in play")
        if data.join is not None:
            raise InvalidInput.field("join", "only a solo joins a stand")
        if data.move and data.move_after and b.unit_of(cid)["type"] == "regiment":
            raise InvalidInput.field("move_after", "a regiment stand moves before or after its action, not both")
    elif cid in b.solos:
        if b.solos[cid]["position"] is None:
            raise InvalidInput.field("mover", "the solo has no position (attached, dead, fled or unplaced)")
        if data.road_step is not None:
            raise InvalidInput.field("road_step", "only stands take the road step")
        if data.join is not None:
            if data.move_after:
                raise InvalidInput.field("move_after", "nothing may follow a Join")
            if data.join not in b.stands or b.side(data.join) != b.side(cid) or not b.in_play(data.join):
                raise InvalidInput.field("join", "must be an allied stand in play")
    else:
        raise InvalidInput.field("mover", "unknown stand or solo")
    validate_path(b, cid, data.move, data.move_after, "")
    mover = Mover(b, cid, dashing=data.dash, disengaging=data.disengage, join=data.join)
    ctx.log.add("S4.6", "move.allowance", "{actor} may move {allowance} squares.", actor=cid, allowance=mover.allowance)
    mover.walk([list(p) for p in data.move], [list(p) for p in data.move_after], data.road_step)
    report = mover.report()
    ctx.log.add("S5.7.3", "move.stop", "{actor} ends at {position} after {cost} of {allowance}.", actor=cid,
                position=report["final_position"], cost=report["cost"], allowance=report["allowance"])
    return report


class ApplyDamageInput(Input):
    state: BattleState
    target: Ident
    amount: Annotated[int, Field(ge=0, le=100_000)]
    critical: bool = False


@ruleset.operation("apply-damage", ApplyDamageInput, summary="Apply final damage to a stand, solo or objective (S5.11).")
def apply_damage(data: ApplyDamageInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    t = data.target
    if t in b.stands:
        if not b.in_play(t):
            raise InvalidInput.field("target", "the stand is not in play")
    elif t in b.solos:
        if b.solos[t]["condition"] not in ("active", "dying", "stable"):
            raise InvalidInput.field("target", "the solo is dead or fled")
    elif t not in b.squares:
        raise InvalidInput.field("target", "unknown stand, solo or objective square")
    applied, wasted = b.damage(t, data.amount, data.critical)
    return {"state": stamp(b.st), "applied": applied, "wasted": wasted}


