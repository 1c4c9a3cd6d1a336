"""7th Sea dice on top of :class:`rules.dice.Dice`: exploding d10s and roll-and-keep (S4.1, S3.8).

Every die of this ruleset explodes (H3, H7).  A pool that loses dice to a
penalty never keeps more than it rolls; a pool of 0 dice is not rolled at all
(total 0) and is therefore not echoed.
"""

from __future__ import annotations

from rules.dice import OPEN_D10
from rules.registry import Context
from rules.seventh_sea.messages import say


def pool(rolled: int, kept: int) -> str:
    return f"{rolled}k{kept}"


def penalised(rolled: int, kept: int, penalty: int) -> tuple[int, int]:
    """S4.1: a dice penalty removes rolled dice; kept never exceeds rolled."""
    rolled = max(0, rolled - penalty)
    return rolled, min(kept, rolled)


def roll_keep(ctx: Context, name: str, rolled: int, kept: int, rule: str = "S4.1") -> dict:
    """``{pool, dice, kept, total}`` of an ``XkY`` roll named ``name``."""
    kept = min(kept, rolled)
    if rolled > 0:
        dice, best = ctx.dice.roll_and_keep(name, rolled, kept)
    else:
        dice, best = [], []
    result = {"pool": pool(rolled, kept), "dice": dice, "kept": best, "total": sum(best)}
    say(ctx.log, rule, "roll.keep", name=name, **result)
    return result


def exploding(ctx: Context, name: str) -> int:
    """One exploding d10 (the personal roll)."""
    return ctx.dice.roll(name, OPEN_D10)


def exploding_many(ctx: Context, name: str, count: int) -> list[int]:
    """``count`` exploding d10 all kept (damage dice, volleys); none rolled for 0."""
    return ctx.dice.roll_many(name, OPEN_D10, count) if count > 0 else []

