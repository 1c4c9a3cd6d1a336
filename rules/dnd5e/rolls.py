"""The spec's dice conventions (S9.0.2, H27) on top of :class:`rules.dice.Dice`.

Every roll is a list of die results (a bare integer is accepted for one die);
a d20 made with advantage or disadvantage holds two dice.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.dice import BY_SIDES, D20, Die
from rules.registry import Context


def d20(ctx: Context, name: str, mode: str) -> tuple[list[int], int]:
    """Roll a d20 in ``mode`` (normal/advantage/disadvantage): (dice, kept natural)."""
    count = 1 if mode == "normal" else 2
    values = ctx.dice.roll_many(name, D20, count, scalar_ok=True)
    if mode == "advantage":
        return values, max(values)
    if mode == "disadvantage":
        return values, min(values)
    return values, values[0]


def one_d20(ctx: Context, name: str) -> int:
    return ctx.dice.roll_many(name, D20, 1, scalar_ok=True)[0]


def dice(ctx: Context, name: str, count: int, faces: int) -> list[int]:
    return ctx.dice.roll_many(name, BY_SIDES[faces], count, scalar_ok=True)


def sequence(ctx: Context, name: str, die: Die, limit: int, done: Callable[[list[int]], bool]) -> list[int]:
    """Dice rolled one after another until ``done`` says stop (at most ``limit``, H27)."""
    return ctx.dice.roll_until(name, die, limit, done)
