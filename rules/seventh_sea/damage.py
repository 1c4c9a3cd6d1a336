"""Damage dice, wound checks, dramatic wounds and unconsciousness (S4.10, S4.11, H4–H6)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset
from rules.seventh_sea.effects import all_rolls_modifier, dice_penalty
from rules.seventh_sea.entities import Hero, Modifier, hero_dict, log_defaults, unconscious_at
from rules.seventh_sea.rolls import exploding_many, penalised, roll_keep

SHORTFALL_STEP = 20  # core rule (H5): one more dramatic wound per full 20 points missed


def wound_check(ctx: Context, name: str, who: str, brawn: int, penalty: int, modifier: int, tn: int) -> dict:
    """S4.11 roll: ``(brawn − penalty) k (same)`` + modifier against the current flesh wounds."""
    rolled, kept = penalised(brawn, brawn, penalty)
    roll = roll_keep(ctx, name, rolled, kept, "S4.11")
    total = roll["total"] + modifier
    passed = total >= tn
    shortfall = max(0, tn - total)
    added = 0 if passed else 1 + shortfall // SHORTFALL_STEP
    result = {"pool": roll["pool"], "dice": roll["dice"], "kept": roll["kept"], "modifier": modifier,
              "total": total, "tn": tn, "passed": passed, "shortfall": shortfall, "dramatic_wounds_added": added}
    say(ctx.log, "S4.11", "wound_check.result", hero_id=who, total=total, tn=tn, passed=passed,
        dramatic_wounds_added=added)
    return result


def wound(ctx: Context, hero: dict, added: int, check: bool, modifier: int, name: str,
          cause: str) -> tuple[dict | None, bool]:
    """Add flesh wounds to ``hero`` (a dict, changed in place) and make its one wound check.

    Returns ``(wound_check or None, taken_out)``.  ``modifier`` is the GM's
    wound-check modifier; the all-rolls modifier of the effects is added here.
    A volley target without Resolve never falls unconscious automatically.
    """
    hero["flesh_wounds"] += added
    if added < 1 or not check:
        return None, False
    effects = hero["effects"]
    result = wound_check(ctx, name, hero["id"], hero["brawn"], dice_penalty(effects),
                         all_rolls_modifier(effects) + modifier, hero["flesh_wounds"])
    if result["passed"]:
        return result, False
    hero["dramatic_wounds"] += result["dramatic_wounds_added"]
    hero["flesh_wounds"] = 0
    if hero["status"] == "active" and hero.get("resolve") and hero["dramatic_wounds"] >= unconscious_at(hero):
        hero["status"] = "unconscious"
        say(ctx.log, "S4.11", "hero.taken_out", hero_id=hero["id"], cause=cause)
        return result, True
    return result, False


def apply_damage(ctx: Context, hero: dict, damage_dice: int, extra: int, check: bool, modifier: int,
                 damage_name: str, check_name: str) -> dict:
    """S9.6 on a hero dict (changed in place): every field of the output but ``hero``."""
    before = hero["flesh_wounds"]
    roll = exploding_many(ctx, damage_name, damage_dice)
    added = sum(roll) + extra
    say(ctx.log, "S4.10", "damage.roll", hero_id=hero["id"], dice=roll, extra=extra, flesh_wounds_added=added,
        flesh_wounds=before + added)
    check_result, taken_out = wound(ctx, hero, added, check, modifier, check_name, "wounds")
    return {"damage_roll": roll, "flesh_wounds_before": before, "flesh_wounds_added": added,
            "wound_check": check_result, "flesh_wounds": hero["flesh_wounds"],
            "dramatic_wounds": hero["dramatic_wounds"], "status": hero["status"], "taken_out": taken_out}


class ApplyDamageInput(Input):
    hero: Hero
    damage_dice: Annotated[int, Field(ge=0, le=20)] = 0
    extra_flesh_wounds: Annotated[int, Field(ge=0, le=999)] = 0
    wound_check: bool = True
    wound_check_modifier: Modifier = 0


@ruleset.operation("apply-damage", ApplyDamageInput, rolls=True,
                   summary="Damage dice and wound check (S4.10, S4.11).")
def apply_damage_op(data: ApplyDamageInput, ctx: Context) -> dict:
    hero = hero_dict(data.hero)
    if hero["status"] != "active":
        raise InvalidInput.field("hero.status", "the hero is unconscious: no more damage is applied (S9.6)")
    log_defaults(ctx.log, data)
    result = apply_damage(ctx, hero, data.damage_dice, data.extra_flesh_wounds, data.wound_check,
                          data.wound_check_modifier, "damage", "wound_check")
    result["hero"] = hero
    return result
