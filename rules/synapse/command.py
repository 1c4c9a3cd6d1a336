"""Command test and army retreat (S5.5, S5.6), rally (S5.7) and vehicle retreat (S5.8, S7.14).

Each rule is a small function shared by its standalone operation and by
``resolve-round``; the operations only translate their inputs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.dice import OPEN_D10, Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.combat import SURPRISE_PENALTY
from rules.synapse.entities import MOD, Commander, DamageState, Id, Mode, Options, Side, Weather
from rules.synapse.sheets import damage_state
from rules.synapse.tables import state_penalty, tables

SIDES = ("A", "B")
INITIATIVE_MARGIN = 2  # S5.5: "wins by 2 or more"
SURPRISE_MARGIN = 5


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def weather_penalty(weather: Weather, radio: bool) -> int:
    """S5.5 / H31: bad weather hampers messengers (-2, not cumulative) unless the army has radio."""
    bad = weather.visibility in ("poor", "very_poor") or weather.strong_wind
    return tables()["weather_effects"]["poor_visibility"]["command"] if bad and not radio else 0


def retreat_mobility(side: str, mobility_edge: str | None) -> int:
    """S5.5: a retreating side gains 2 with the mobility edge, loses 2 against it."""
    if mobility_edge is None:
        return 0
    return 2 if mobility_edge == side else -2


def command_test(ratings: dict[str, int], modifiers: dict[str, int], dice: Dice, surprise_allowed: bool,
                 log: Log) -> dict:
    """S5.5: both commanders roll; a margin of 2 gives the initiative, 5 surprises the loser."""
    rolls = {x: dice.roll(f"command:{x}", OPEN_D10) for x in SIDES}
    scores = {x: ratings[x] + rolls[x] + modifiers[x] for x in SIDES}
    margin = scores["A"] - scores["B"]
    initiative = "A" if margin >= INITIATIVE_MARGIN else "B" if margin <= -INITIATIVE_MARGIN else None
    surprised = other(initiative) if initiative and abs(margin) >= SURPRISE_MARGIN and surprise_allowed else None
    log.add("S5.5", "command.result", "Command test {score_A} against {score_B} (margin {margin}): initiative {initiative}, surprised {surprised}.",
            score_A=scores["A"], score_B=scores["B"], margin=margin, initiative=initiative, surprised=surprised)
    return {"ratings": dict(ratings), "modifiers": dict(modifiers), "rolls": rolls, "scores": scores,
            "margin": margin, "initiative": initiative, "surprised": surprised}


def army_retreat(side: str, scores: dict[str, int], log: Log) -> dict:
    """S5.6 / H19: the retreating side must win the initiative; by 5 it even saves its artillery."""
    m = scores[side] - scores[other(side)]
    success = m >= INITIATIVE_MARGIN
    result = {
        "side": side, "margin": m, "success": success,
        "artillery_saved": success and m >= SURPRISE_MARGIN,
        "combat_penalty": 0 if success else -2,
        "routed": m <= -SURPRISE_MARGIN,
    }
    log.add("S5.6", "retreat.army", "Side {side} tries to withdraw with margin {margin}: {outcome}.",
            side=side, margin=m, outcome="success" if success else ("rout" if result["routed"] else "failure, -2"))
    return result


def rally_test(rating: int, combat_initial: int, losses: int, strength: int, modifier_total: int, roll: int,
               log: Log, label: str) -> dict:
    """S5.7 / H26: 20 - initial combat to beat; 10 % of the losses back per full 2 points of margin."""
    difficulty = 20 - combat_initial
    score = rating + roll + modifier_total
    margin = score - difficulty
    success = margin >= 0
    pct = 10 * (margin // 2) if success else 0
    recovered = min(losses, losses * pct // 100) if success else 0
    after = losses - recovered
    log.add("S5.7", "rally.result", "{formation}: rally {score} against {difficulty}, margin {margin}: {recovered_pct} % of the losses ({recovered}) recovered.",
            formation=label, score=score, difficulty=difficulty, margin=margin, recovered_pct=pct, recovered=recovered)
    return {
        "rating": rating, "modifier_total": modifier_total, "roll": roll, "score": score, "difficulty": difficulty,
        "success": success, "margin": margin, "recovered_pct": pct, "recovered": recovered, "losses_after": after,
        "damage_state": damage_state(after, strength), "status": "active" if success else "routed",
    }


def test_modifiers(damage: str, routed: bool, surprised: bool, retreat_penalty: int, weather: Weather,
                   options: Options, modifier: int) -> int:
    """S5.8: the modifiers of a vehicle retreat test (or of a pursuer's opposing test)."""
    return (
        state_penalty(damage, routed)
        + (SURPRISE_PENALTY if surprised else 0)
        + retreat_penalty
        + (tables()["weather_effects"]["extreme_temperature"]["all_attacks"] if weather.extreme_temperature else 0)
        + (tables()["weather_effects"]["poor_visibility"]["combat_if_option"]
           if options.poor_visibility_combat_penalty and weather.visibility in ("poor", "very_poor") else 0)
        + modifier
    )


def vehicle_retreat(combat: int, mods: int, opponents: list[tuple[str, int, int]], roll_unit, roll_opponent,
                    current_penalty: int, log: Log, label: str) -> dict:
    """S5.8 / H40.  ``opponents`` are (id, combat, modifiers); the rollers draw the named dice."""
    if not opponents:
        log.add("S5.8", "retreat.free", "{unit}: no enemy engaged it, it breaks off freely.", unit=label)
        return {"roll": None, "modifier_total": None, "score": None, "opponent_scores": {},
                "best_opponent_score": None, "margin": None, "outcome": "withdrawn", "retreat_penalty": 0}
    roll = roll_unit()
    score = combat + roll + mods
    opp = {oid: ocombat + roll_opponent(oid) + omods for oid, ocombat, omods in opponents}
    best = max(opp.values())
    margin = score - best
    if margin >= 2:
        outcome, penalty = "withdrawn", 0
    elif margin >= 0:
        outcome, penalty = "pinned", -2
    elif margin >= -4:
        outcome, penalty = "failed", -4
    else:
        # The spec sets no penalty for a rout: the unit keeps the one it had.
        outcome, penalty = "routed", current_penalty
    log.add("S7.14", "retreat.vehicle", "{unit}: retreat {score} against a best pursuer of {best}, margin {margin}: {outcome}.",
            unit=label, score=score, best=best, margin=margin, outcome=outcome)
    return {"roll": roll, "modifier_total": mods, "score": score, "opponent_scores": opp,
            "best_opponent_score": best, "margin": margin, "outcome": outcome, "retreat_penalty": penalty}


# --- operations ------------------------------------------------------------------

class CommandSide(Input):
    commander: Commander | None = None
    army_combat: int | None = Field(None, ge=-MOD, le=MOD)
    radio: bool = False
    modifier: int = Field(0, ge=-20, le=20)
    retreat: bool = False
    assault_role: Literal["attacker", "defender"] | None = None
    siege_equipment: bool = True
    garrison_headcount: int | None = Field(None, ge=1, le=10**9)
    optimal_garrison: int | None = Field(None, ge=1, le=10**9)
    longest_range: bool = False


class CommandSides(Input):
    A: CommandSide
    B: CommandSide


class CommandInput(Input):
    mode: Mode = "field"
    weather: Weather = Field(default_factory=Weather)
    surprise_allowed: bool = True
    mobility_edge: Side | None = None
    sides: CommandSides


def properly_held(garrison_now: int, optimal: int) -> bool:
    """S4.16 / H32: held while the garrison is at least half the optimum."""
    return 2 * garrison_now >= optimal


@ruleset.operation("command-test", CommandInput, rolls=True, summary="Command test: initiative, surprise, army retreat (S5.5, S5.6).")
def command_test_op(data: CommandInput, ctx: Context) -> dict:
    sides = {"A": data.sides.A, "B": data.sides.B}
    problems: dict[str, str] = {}
    for x, s in sides.items():
        if s.commander is None and s.army_combat is None:
            problems[f"sides.{x}.army_combat"] = "required when the side has no commander"
        if s.retreat and data.mode == "vehicles":
            problems[f"sides.{x}.retreat"] = "no army retreat in a vehicle battle"
        if data.mode == "assault":
            if s.assault_role is None:
                problems[f"sides.{x}.assault_role"] = "required in an assault"
            elif s.assault_role == "defender":
                for name in ("garrison_headcount", "optimal_garrison"):
                    if getattr(s, name) is None:
                        problems[f"sides.{x}.{name}"] = "required for the defender of an assault"
    if data.mode == "assault" and sides["A"].assault_role and sides["A"].assault_role == sides["B"].assault_role:
        problems["sides.B.assault_role"] = "one side attacks and the other defends"
    if sides["A"].retreat and sides["B"].retreat:
        problems["sides.B.retreat"] = "both sides cannot retreat in the same test"
    if problems:
        first = next(iter(problems))
        raise InvalidInput(f"Invalid command test at {first}: {problems[first]}.", problems)

    held = None
    ratings, modifiers = {}, {}
    for x, s in sides.items():
        c = s.commander
        ratings[x] = c.mental_mod + c.combat + c.art_of_war if c else s.army_combat
        mods = s.modifier + weather_penalty(data.weather, s.radio)
        if data.mode == "assault" and s.assault_role == "defender":
            held = properly_held(s.garrison_headcount, s.optimal_garrison)
            mods += tables()["defender_command_bonus_if_held"] if held else 0
        if data.mode == "assault" and s.assault_role == "attacker" and not s.siege_equipment:
            mods += tables()["attacker_command_penalty_without_siege_equipment"]
        if data.mode == "vehicles" and s.longest_range:
            mods += 2
        if s.retreat:
            mods += retreat_mobility(x, data.mobility_edge)
        modifiers[x] = mods
    result = command_test(ratings, modifiers, ctx.dice, data.surprise_allowed, ctx.log)
    retreating = next((x for x in SIDES if sides[x].retreat), None)
    return {**result, "properly_held": held,
            "retreat": army_retreat(retreating, result["scores"], ctx.log) if retreating else None}


class RallyCommander(Input):
    presence_mod: int = Field(0, ge=-5, le=10)
    combat: int = Field(ge=-5, le=20)
    art_of_war: int = Field(0, ge=0, le=20)


class RallyInput(Input):
    commander: RallyCommander | None = None
    army_combat: int | None = Field(None, ge=-MOD, le=MOD)
    combat_initial: int = Field(ge=-MOD, le=MOD)
    losses: int = Field(ge=0, le=10**12)
    strength: int = Field(ge=1, le=10**12)
    weather: Weather = Field(default_factory=Weather)
    radio: bool = False
    modifier: int = Field(0, ge=-MOD, le=MOD)


@ruleset.operation("rally", RallyInput, rolls=True, summary="Rallying a routed formation (S5.7).")
def rally_op(data: RallyInput, ctx: Context) -> dict:
    c = data.commander
    if c is None and data.army_combat is None:
        raise InvalidInput.field("army_combat", "required without a commander")
    rating = c.presence_mod + c.combat + c.art_of_war if c else data.army_combat
    mods = weather_penalty(data.weather, data.radio) + data.modifier
    roll = ctx.dice.roll("rally", OPEN_D10)
    return rally_test(rating, data.combat_initial, data.losses, data.strength, mods, roll, ctx.log, "formation")


class RetreatingUnit(Input):
    combat: int = Field(ge=-MOD, le=MOD)
    damage_state: DamageState = "fresh"
    routed: bool = False
    surprised: bool = False
    retreat_penalty: Literal[0, -2, -4] = 0
    modifier: int = Field(0, ge=-MOD, le=MOD)


class Opponent(RetreatingUnit):
    id: Id


class VehicleRetreatInput(Input):
    unit: RetreatingUnit
    opponents: list[Opponent] = Field(default_factory=list, max_length=20)
    weather: Weather = Field(default_factory=Weather)
    options: Options = Field(default_factory=Options)


@ruleset.operation("vehicle-retreat", VehicleRetreatInput, rolls=True, summary="A vehicle unit breaking off (S5.8, S7.14).")
def vehicle_retreat_op(data: VehicleRetreatInput, ctx: Context) -> dict:
    seen: set[str] = set()
    for index, o in enumerate(data.opponents):
        if o.id in seen:
            raise InvalidInput.field(f"opponents[{index}].id", f"duplicate opponent id {o.id!r}")
        seen.add(o.id)

    def mods(u: RetreatingUnit) -> int:
        return test_modifiers(u.damage_state, u.routed, u.surprised, u.retreat_penalty, data.weather, data.options,
                              u.modifier)

    u = data.unit
    return vehicle_retreat(
        u.combat, mods(u), [(o.id, o.combat, mods(o)) for o in data.opponents],
        lambda: ctx.dice.roll("retreat", OPEN_D10), lambda oid: ctx.dice.roll(f"oppose:{oid}", OPEN_D10),
        u.retreat_penalty, ctx.log, "unit",
    )
