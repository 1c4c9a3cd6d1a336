"""Operations ``action-points``, ``power-projection`` and ``rally`` (S9.4, S9.5, S9.10)."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rules.dice import AVERAGE
from rules.errors import InvalidInput
from rules.heros import command, ruleset, sheets
from rules.heros.entities import CombatantType, Factor, Id, Role
from rules.model import ClosedInput, Input
from rules.registry import Context

HoldException = Literal["sub_general_unmoved", "cinc_extra_pa", "strong_position"]
Distance = Annotated[int, Field(ge=0, le=200)]


class APUnit(Input):
    troop_type: CombatantType
    regular: bool = True
    high_altitude: bool = False
    general_unit: bool = False


class APAction(Input):
    id: Id
    kind: Literal["move", "land", "hold", "lurker", "character_move"]
    units: Annotated[list[APUnit], Field(max_length=100)] = []
    characters: Annotated[int, Field(ge=0, le=100)] = 0
    distance_to_general: Distance = 0
    adventurer_own_pa: bool = False
    adventurer_id: Optional[Id] = None
    lurker_activation: Optional[Annotated[int, Field(ge=1, le=100)]] = None
    character_role: Optional[Role] = None
    hold_exception: Optional[HoldException] = None
    contains_unmoved_general: bool = False
    strong_position: bool = False
    use_cinc_extra_pa: bool = False


class APChampion(Input):
    id: Id
    personal_pa: Annotated[int, Field(ge=0, le=5)] = 0
    wound_state: Literal["none", "malus", "light", "serious", "unconscious", "dead"] = "none"
    personal_spent: Annotated[int, Field(ge=0, le=100)] = 0
    corps_pa_benefit: Annotated[int, Field(ge=0, le=100)] = 0
    other_pa_benefit: Annotated[int, Field(ge=0, le=100)] = 0


class APGod(Input):
    id: Id
    own_spent: Annotated[int, Field(ge=0, le=100)] = 0
    followed_corps_pa: Annotated[int, Field(ge=0, le=100)] = 0


class ActionPointsInput(ClosedInput):
    corps_id: Id
    general_status: Literal["present", "absent"] = "present"
    general_wound: Literal["none", "malus", "light", "serious"] = "none"
    cinc_extra_available: bool = False
    actions: Annotated[list[APAction], Field(max_length=200)] = []
    champions: Annotated[list[APChampion], Field(max_length=50)] = []
    gods: Annotated[list[APGod], Field(max_length=20)] = []


@ruleset.operation("action-points", ActionPointsInput, rolls=True,
                   summary="A corps' PA, action costs, holds, champions' and gods' PA (S5.4, S6.4, S6.5).")
def action_points(data: ActionPointsInput, ctx: Context) -> dict:
    log = ctx.log
    roll = ctx.dice.roll("pa", AVERAGE)
    wound_mod = sheets.pa_modifier(data.general_wound) if data.general_status == "present" else 0
    available = max(0, roll + wound_mod)
    log.add("S5.4", "pa.roll", "Corps {corps_id} rolls {roll} on the average die, {modifier:+d} for its general: {available} PA.",
            corps_id=data.corps_id, roll=roll, modifier=wound_mod, available=available)
    absent = data.general_status == "absent"
    extra_free = data.cinc_extra_available
    spent = 0
    holds_seen = 0
    adventurers_used: set[str] = set()
    lines = []
    for i, a in enumerate(data.actions):
        path = f"actions[{i}]"
        units = [u.model_dump() for u in a.units]
        if a.kind == "lurker":
            if a.lurker_activation is None:
                raise InvalidInput.field(f"{path}.lurker_activation", "is required for a lurker action")
            base, found = a.lurker_activation, []
        elif a.kind == "hold":
            base, found = command.HOLD_COST, []
        elif a.kind == "character_move":
            if a.character_role is None:
                raise InvalidInput.field(f"{path}.character_role", "is required for a character move")
            base, found = command.MOVE_COST, command.character_surcharges(a.character_role, a.distance_to_general, absent)
        else:
            base, found = command.MOVE_COST, command.surcharges(units, a.characters, a.distance_to_general, absent, landing=a.kind == "land")
        cost = command.log_cost(log, a.id, base, found)
        by_extra = by_adventurer = 0
        if a.kind == "hold":
            problem = command.hold_problem(
                roll, any(not u["regular"] for u in units), a.hold_exception, first_hold=holds_seen == 0,
                contains_unmoved_general=a.contains_unmoved_general, cinc_extra_available=extra_free,
                strong_position=a.strong_position,
            )
            log.add("S5.4.1", "pa.hold", "Hold {action_id}: allowed {allowed} (exception {exception}).",
                    action_id=a.id, allowed=problem is None, exception=a.hold_exception)
            if problem:
                raise InvalidInput.field(f"{path}.hold_exception", problem)
            holds_seen += 1
            if a.hold_exception == "cinc_extra_pa":
                by_extra, extra_free = 1, False
        if a.adventurer_own_pa:
            if len(units) != 1 or units[0]["troop_type"] != "Av" or a.kind != "move" or a.adventurer_id is None:
                raise InvalidInput.field(f"{path}.adventurer_own_pa", "an adventurer's own PA moves one Av unit only")
            if a.adventurer_id in adventurers_used:
                raise InvalidInput.field(f"{path}.adventurer_own_pa", "this adventurer has already used its own PA")
            adventurers_used.add(a.adventurer_id)
            by_adventurer = min(cost, command.LIMITS["adventurer_own_pa_per_bound"])
        if a.use_cinc_extra_pa:
            if not extra_free or by_extra:
                raise InvalidInput.field(f"{path}.use_cinc_extra_pa", "the C-in-C's extra PA is not available")
            by_extra, extra_free = min(1, cost - by_adventurer), False
        from_corps = cost - by_extra - by_adventurer
        spent += from_corps
        if spent > available:
            raise InvalidInput.field(path, f"the corps has {available} PA and this action brings its spending to {spent}")
        lines.append({"id": a.id, "base": base, "surcharges": found, "cost": cost, "paid_from_corps": from_corps,
                      "paid_by_cinc_extra": by_extra, "paid_by_adventurer": by_adventurer})
    champions = []
    for i, ch in enumerate(data.champions):
        personal = max(0, ch.personal_pa + sheets.pa_modifier(ch.wound_state))
        total = ch.personal_spent + ch.corps_pa_benefit + ch.other_pa_benefit
        log.add("S7.8", "pa.cap", "Champion {character_id} benefits from {total} PA this bound (cap 5).",
                character_id=ch.id, total=total)
        if ch.personal_spent > personal:
            raise InvalidInput.field(f"champions[{i}].personal_spent", f"only {personal} personal PA are available")
        if total > command.LIMITS["champion_pa_per_bound"]:
            raise InvalidInput.field(f"champions[{i}]", f"{total} PA spent on one champion, above the cap of 5")
        champions.append({"id": ch.id, "personal_available": personal, "personal_spent": ch.personal_spent,
                          "total_benefit": total, "cap": command.LIMITS["champion_pa_per_bound"]})
    gods = []
    for i, god in enumerate(data.gods):
        god_roll = ctx.dice.roll(f"god_pa.{god.id}", AVERAGE)
        god_spent = god.own_spent + god.followed_corps_pa
        log.add("S7.11", "pa.roll", "God {corps_id} rolls {roll}: {available} PA.",
                corps_id=god.id, roll=god_roll, modifier=0, available=god_roll)
        if god_spent > god_roll:
            raise InvalidInput.field(f"gods[{i}]", f"the god spends {god_spent} PA of {god_roll}")
        gods.append({"id": god.id, "roll": god_roll, "available": god_roll, "spent": god_spent,
                     "remaining": god_roll - god_spent})
    return {
        "pa": {"roll": roll, "wound_modifier": wound_mod, "available": available},
        "actions": lines, "pa_spent": spent, "pa_remaining": available - spent,
        "cinc_extra_used": data.cinc_extra_available and not extra_free,
        "champions": champions, "gods": gods,
    }


class ProjectionUnit(Input):
    id: Id
    troop_type: CombatantType
    factor_vs_foot: Factor = 0
    causes_fear: bool = False
    undead: bool = False
    fear_immune: bool = False


class PowerProjectionInput(ClosedInput):
    unit: ProjectionUnit
    star_bonus: Annotated[int, Field(ge=0, le=20)] = 0
    friendly_god_adjacent: bool = False


@ruleset.operation("power-projection", PowerProjectionInput, rolls=True,
                   summary="Test before engaging or shooting at an enemy god (S5.5.3, S7.11).")
def power_projection(data: PowerProjectionInput, ctx: Context) -> dict:
    unit = data.unit.model_dump()
    required = command.projection_required(unit, data.friendly_god_adjacent)
    return command.projection_test(ctx.dice, ctx.log, "projection", unit["id"], unit["factor_vs_foot"], data.star_bonus, required)


class RallyGeneral(Input):
    id: Id
    role: Role
    condition: Literal["fit", "unconscious", "captured", "dead"] = "fit"
    rally_failed: bool = False


class RallyCorps(Input):
    id: Id
    is_generals_own_corps: bool = False
    rally_attempted: bool = False
    majority_impetuous: bool = False
    dwarf: bool = False
    majority_inferior: bool = False
    demoralised: bool = False


class RallyInput(ClosedInput):
    general: RallyGeneral
    corps: RallyCorps
    distance: Distance
    immediate_after_capture: bool = False


@ruleset.operation("rally", RallyInput, rolls=True, summary="Rally test of a corps (S5.6, S6.15).")
def rally(data: RallyInput, ctx: Context) -> dict:
    g, c = data.general, data.corps
    problem = command.rally_problem(g.role, g.condition, g.rally_failed, c.is_generals_own_corps, c.rally_attempted, data.distance)
    if problem:
        raise InvalidInput.field(*problem)
    flags = {"majority_impetuous": c.majority_impetuous, "dwarf": c.dwarf, "majority_inferior": c.majority_inferior,
             "demoralised": c.demoralised, "immediate_after_capture": data.immediate_after_capture}
    out = command.rally_test(ctx.dice, ctx.log, g.id, flags, "rally", "units")
    return {**out, "general_rally_failed": not out["success"], "corps_rally_attempted": True}
