"""A hero's personal roll and its cell of the six-column table (S4.8, S4.9, S6.1, S6.2)."""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.effects import all_rolls_modifier, dice_penalty, has, personal_effect_modifier
from rules.seventh_sea.entities import Engagement, Hero, Modifier, Situation, hero_dict, log_defaults
from rules.seventh_sea.rolls import exploding

LEADERSHIP_PENALTY = -2  # S7.1: the price of lending one's Leadership (a rule of the text, not a table)


def check_can_roll(hero: dict, path: str) -> None:
    """S9.5: only an active hero who is not at the doctor's makes a personal roll."""
    if hero["status"] != "active":
        raise InvalidInput.field(f"{path}.status", "an unconscious hero makes no personal roll")
    if has(hero["effects"], "medic"):
        raise InvalidInput.field(f"{path}.effects", "a hero with the medic rests: no personal roll (S7.4.1)")


def personal_roll(ctx: Context, hero: dict, engagement: str, situation: str, help_general: bool,
                  gm_modifier: int, die_name: str) -> dict:
    """S4.8 + S4.9; the die is not rolled while the hero carries the banner (H18)."""
    effects = hero["effects"]
    die_rolled = dice_penalty(effects) < 1
    die = exploding(ctx, die_name) if die_rolled else 0
    base = hero["wits"] + hero["tactics"]
    unit_modifier = tables.unit_modifiers(hero["unit_type"])[engagement]
    leadership_penalty = LEADERSHIP_PENALTY if help_general else 0
    opportunity_modifier = personal_effect_modifier(effects) + all_rolls_modifier(effects)
    total = die + base + unit_modifier + leadership_penalty + opportunity_modifier + gm_modifier
    row, column, damage_dice, reputation, opportunity = tables.personal_cell(total, engagement, situation)
    result = {"die_rolled": die_rolled, "die": die, "base": base, "unit_modifier": unit_modifier,
              "leadership_penalty": leadership_penalty, "opportunity_modifier": opportunity_modifier,
              "gm_modifier": gm_modifier, "total": total, "row": row, "column": column,
              "damage_dice": damage_dice, "reputation": reputation, "heroic_opportunity": opportunity}
    say(ctx.log, "S4.8", "personal.total", hero_id=hero["id"], die=die, base=base, unit_modifier=unit_modifier,
        leadership_penalty=leadership_penalty, opportunity_modifier=opportunity_modifier, gm_modifier=gm_modifier,
        total=total)
    say(ctx.log, "S4.9", "personal.lookup", hero_id=hero["id"], row=row, column=column, damage_dice=damage_dice,
        reputation=reputation, heroic_opportunity=opportunity)
    return result


class PersonalRollInput(Input):
    hero: Hero
    engagement: Engagement
    situation: Situation
    help_general: bool = False
    gm_modifier: Modifier = 0


@ruleset.operation("personal-roll", PersonalRollInput, rolls=True,
                   summary="Personal roll and personal table cell (S4.8, S4.9, S6.1, S6.2).")
def personal_roll_op(data: PersonalRollInput, ctx: Context) -> dict:
    hero = hero_dict(data.hero)
    check_can_roll(hero, "hero")
    log_defaults(ctx.log, data)
    return personal_roll(ctx, hero, data.engagement, data.situation, data.help_general, data.gm_modifier,
                         "personal")
