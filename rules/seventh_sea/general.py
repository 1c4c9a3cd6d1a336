"""The generals' opposed roll with all its modifiers (S4.2–S4.7, S6.3–S6.6): who wins the round."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import Refusal, say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.entities import General, Modifier, Side, Strategy, Terrain, Fortification, Troops, log_defaults
from rules.seventh_sea.rolls import roll_keep
from rules.seventh_sea.sheets import numbers, terrain_modifier

FREE_RAISE_VALUE = tables.preparation()["free_raise_value"]


def component(log: Log, rule: str, side: str, name: str, value: int) -> None:
    say(log, rule, "general.component", side=side, component=name, value=value)


def check_spent(spent: int, available: int, path: str) -> None:
    """S7.2: a commander cannot spend more free raises than the army's pool."""
    if spent > available:
        raise Refusal(path, f"{spent} free raises spent but only {available} in the pool", "S7.2",
                      "refusal.free_raises_spent",
                      f"Invalid value for {path}: only {available} free raise(s) left (S7.2).", spent=spent,
                      available=available)


def hero_impact(side: dict) -> int:
    """S4.6 / S6.6."""
    impact = tables.hero_impact()
    return (impact["per_hero_front_line_last_round"] * side["heroes_front_line_last_round"]
            + impact["per_hero_taken_out_last_round"] * side["heroes_taken_out_last_round"])


def situations(winner: str | None) -> dict[str, str]:
    victory, tie, defeat = tables.SITUATIONS
    if winner is None:
        return {letter: tie for letter in tables.SIDES}
    return {letter: victory if letter == winner else defeat for letter in tables.SIDES}


def opposed_roll(ctx: Context, attacker: str, sides: dict[str, dict]) -> dict:
    """S4.2 for both sides: breakdowns, ``round_winner``, ``situations``, ``margin``.

    Each side dict holds ``general, strategy, troops, fortification_level,
    terrain, free_raises_spent, heroes_front_line_last_round,
    heroes_taken_out_last_round, leadership_modifier, opportunity_modifier,
    gm_modifier``.  Dice ``general:<side>``.
    """
    log = ctx.log
    defender = tables.other(attacker)
    matrix = tables.strategy_modifier(sides[attacker]["strategy"], sides[defender]["strategy"])
    say(log, "S4.7", "general.strategy", attacker=attacker, attacker_strategy=sides[attacker]["strategy"],
        defender_strategy=sides[defender]["strategy"], value=matrix)
    out: dict[str, dict] = {}
    for letter in tables.SIDES:
        side = sides[letter]
        general = side["general"]
        roll = roll_keep(ctx, f"general:{letter}", general["wits"] + general["strategy"], general["wits"], "S4.2")
        ratio, numbers_value = numbers(sides, letter, log)
        row = {
            "pool": roll["pool"], "dice": roll["dice"], "kept": roll["kept"], "roll": roll["total"],
            "free_raises_spent": side["free_raises_spent"],
            "free_raises_bonus": FREE_RAISE_VALUE * side["free_raises_spent"],
            "strategy_modifier": matrix if letter == attacker else 0,
            "terrain_modifier": terrain_modifier(side["terrain"], letter, log),
            "numbers_ratio": ratio, "numbers_modifier": numbers_value,
            "hero_impact_modifier": hero_impact(side),
            "leadership_modifier": side["leadership_modifier"],
            "opportunity_modifier": side["opportunity_modifier"],
            "gm_modifier": side["gm_modifier"],
        }
        component(log, "S4.3", letter, "free_raises_bonus", row["free_raises_bonus"])
        component(log, "S4.6", letter, "hero_impact_modifier", row["hero_impact_modifier"])
        component(log, "S7.1", letter, "leadership_modifier", row["leadership_modifier"])
        component(log, "S7.3", letter, "opportunity_modifier", row["opportunity_modifier"])
        component(log, "S7.9", letter, "gm_modifier", row["gm_modifier"])
        row["total"] = (row["roll"] + row["free_raises_bonus"] + row["strategy_modifier"] + row["terrain_modifier"]
                        + row["numbers_modifier"] + row["hero_impact_modifier"] + row["leadership_modifier"]
                        + row["opportunity_modifier"] + row["gm_modifier"])
        say(log, "S4.2", "general.total", side=letter, total=row["total"])
        out[letter] = row
    a, b = (out[letter]["total"] for letter in tables.SIDES)
    winner = tables.SIDES[0] if a > b else tables.SIDES[1] if b > a else None
    say(log, "S4.2", "round.result", totals={letter: out[letter]["total"] for letter in tables.SIDES},
        round_winner=winner)
    return {"attacker": attacker, "sides": out, "round_winner": winner, "situations": situations(winner),
            "margin": abs(a - b)}


class GeneralRollSide(Input):
    general: General
    strategy: Strategy
    troops: Troops
    fortification_level: Fortification = 1
    terrain: Terrain = Field(default_factory=Terrain)
    free_raises: Annotated[int, Field(ge=0, le=100)] = 0
    free_raises_spent: Annotated[int, Field(ge=0, le=100)] = 0
    heroes_front_line_last_round: Annotated[int, Field(ge=0, le=50)] = 0
    heroes_taken_out_last_round: Annotated[int, Field(ge=0, le=50)] = 0
    leadership_modifier: Annotated[int, Field(ge=0, le=100)] = 0
    opportunity_modifier: Modifier = 0
    gm_modifier: Modifier = 0


class GeneralRollSides(Input):
    a: GeneralRollSide
    b: GeneralRollSide


class GeneralRollInput(Input):
    attacker: Side
    sides: GeneralRollSides


@ruleset.operation("general-roll", GeneralRollInput, rolls=True,
                   summary="Opposed general roll with every modifier (S4.2–S4.7, S6.3–S6.6).")
def general_roll(data: GeneralRollInput, ctx: Context) -> dict:
    sides = {letter: getattr(data.sides, letter).model_dump() for letter in tables.SIDES}
    for letter, side in sides.items():
        check_spent(side["free_raises_spent"], side["free_raises"], f"sides.{letter}.free_raises_spent")
    log_defaults(ctx.log, data)
    return opposed_roll(ctx, data.attacker, sides)
