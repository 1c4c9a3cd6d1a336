"""The spec's dice conventions (S9.0.2, H27) on top of :class:`rules.dice.Dice`.

Every roll is a list of die results (a bare integer is accepted for one die);
a d20 made with advantage or disadvantage holds two dice.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.dice import BY_SIDES, D20, Die
from rules.errors import InvalidInput
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
    """Dice rolled one after another until ``done`` says stop (at most ``limit``).

    Given results may run longer than needed (the extra ones are ignored and
    not echoed, H27) but not shorter.
    """
    dice_ = ctx.dice
    if name in dice_.used:
        return list(dice_.used[name])
    given = dice_._given.get(name) if dice_.given(name) else None  # the core keeps given rolls private
    if given is not None and not isinstance(given, list):
        given = [given]
    rolls: list[int] = []
    while len(rolls) < limit and not done(rolls):
        index = len(rolls)
        if given is None:
            rolls.append(die.draw(dice_._rng))
            continue
        if index >= len(given):
            problem = "not enough results for the rolls needed"
            raise InvalidInput(f"Invalid die {name}: {problem}.", {f"dice.{name}": problem})
        problem = die.problem(given[index])
        if problem:
            problem = f"die {index + 1}: {problem}"
            raise InvalidInput(f"Invalid die {name}: {problem}.", {f"dice.{name}": problem})
        rolls.append(given[index])
    dice_.used[name] = list(rolls)
    return rolls
