"""Derived values of a hero (S9.1) and of both armies (S9.2): no dice, pure arithmetic."""

from __future__ import annotations

from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.effects import all_rolls_modifier, dice_penalty, personal_effect_modifier
from rules.seventh_sea.entities import Hero, Sides, hero_dict, log_defaults, unconscious_at
from rules.seventh_sea.rolls import penalised, pool


def effective_strength(side: dict) -> int:
    """S4.4 / S7.7: troops multiplied by the fortification level."""
    return side["troops"] * side["fortification_level"]


def numbers(sides: dict, letter: str, log: Log) -> tuple[int, int]:
    """``(numbers_ratio, numbers_modifier)`` of one side (S4.4, S6.5)."""
    own = effective_strength(sides[letter])
    opposed = effective_strength(sides[tables.other(letter)])
    ratio = own // opposed
    value = tables.numbers_modifier(ratio)
    say(log, "S4.4", "general.numbers", side=letter, effective_strength=own, other_effective_strength=opposed,
        ratio=ratio, value=value)
    return ratio, value


def terrain_modifier(terrain: dict, letter: str, log: Log) -> int:
    """S4.5: the terrain flags of a side, cumulative (H11)."""
    value = sum(amount for flag, amount in tables.terrain_modifiers().items() if terrain.get(flag))
    say(log, "S4.5", "general.component", side=letter, component="terrain_modifier", value=value)
    return value


def general_pool(general: dict) -> str:
    return pool(general["wits"] + general["strategy"], general["wits"])


class HeroSheetInput(Input):
    hero: Hero


@ruleset.operation("hero-sheet", HeroSheetInput, summary="Hero derivations: personal base, unit modifiers, "
                   "wound check pool, effect modifiers (S4.8, S6.2, S4.11, S4.12).")
def hero_sheet(data: HeroSheetInput, ctx: Context) -> dict:
    log_defaults(ctx.log, data)
    hero = hero_dict(data.hero)
    effects = hero["effects"]
    base = hero["wits"] + hero["tactics"]
    units = tables.unit_modifiers(hero["unit_type"])
    by_engagement = {level: base + units[level] for level in tables.ENGAGEMENTS}
    penalty = dice_penalty(effects)
    rolled, kept = penalised(hero["brawn"], hero["brawn"], penalty)
    out = {
        "hero": hero,
        "personal_base": base,
        "unit_modifiers": units,
        "personal_base_by_engagement": by_engagement,
        "leadership_bonus": hero["leadership"],
        "wound_check_pool": pool(rolled, kept),
        "unconscious_at": unconscious_at(hero),
        "status": hero["status"],
        "personal_effect_modifier": personal_effect_modifier(effects),
        "all_rolls_modifier": all_rolls_modifier(effects),
        "dice_penalty": penalty,
    }
    log = ctx.log
    say(log, "S4.8", "sheet.personal_base", hero_id=hero["id"], wits=hero["wits"], tactics=hero["tactics"], base=base)
    say(log, "S6.2", "sheet.unit_modifiers", hero_id=hero["id"], unit_type=hero["unit_type"], modifiers=units,
        bases=by_engagement)
    say(log, "S7.1", "sheet.leadership", hero_id=hero["id"], leadership=hero["leadership"])
    say(log, "S4.11", "sheet.wounds", hero_id=hero["id"], pool=out["wound_check_pool"],
        unconscious_at=out["unconscious_at"], status=hero["status"])
    say(log, "S4.12", "sheet.effects", hero_id=hero["id"], personal=out["personal_effect_modifier"],
        all_rolls=out["all_rolls_modifier"], dice_penalty=penalty)
    return out


class ArmySheetInput(Input):
    sides: Sides


@ruleset.operation("army-sheet", ArmySheetInput, summary="Army derivations of both sides: pools, effective "
                   "strength, numerical advantage, terrain (S4.2, S4.4, S4.5).")
def army_sheet(data: ArmySheetInput, ctx: Context) -> dict:
    log_defaults(ctx.log, data)
    sides = {letter: getattr(data.sides, letter).model_dump() for letter in tables.SIDES}
    out = {}
    for letter, side in sides.items():
        general, quartermaster = side["general"], side["quartermaster"]
        ratio, modifier = numbers(sides, letter, ctx.log)
        out[letter] = {
            "general_pool": general_pool(general),
            "incitation_pool": pool(general["wits"] + general["incitation"], general["wits"]),
            "logistics_pool": None if quartermaster is None
            else pool(quartermaster["wits"] + quartermaster["logistics"], quartermaster["wits"]),
            "effective_strength": effective_strength(side),
            "numbers_ratio": ratio,
            "numbers_modifier": modifier,
            "terrain_modifier": terrain_modifier(side["terrain"], letter, ctx.log),
        }
        say(ctx.log, "S4.2", "sheet.pools", side=letter, general_pool=out[letter]["general_pool"],
            incitation_pool=out[letter]["incitation_pool"], logistics_pool=out[letter]["logistics_pool"])
    return {"sides": out}
