"""Dice: every roll named, drawn from a seeded generator or given by the caller.

An operation that rolls asks a :class:`Dice` for each roll by the name its
spec gives (``"command:A"``, ``"init.u1"``...).  A roll present in the input's
``"dice"`` object is checked against what the die can show and used as is;
any other roll is drawn from the generator, seeded by ``seed`` so that the
same input gives the same battle.  :attr:`Dice.used` is the complete record
the output echoes, so every result can be replayed; given rolls that were
never asked for are not echoed.

The die kinds of the five systems are module constants: ``D4`` ... ``D20``,
``OPEN_D10`` (SYNAPSE; also 7th Sea's exploding d10: on a 10 roll again and
add), and ``AVERAGE`` (HÉROS: faces 2, 3, 3, 4, 4, 5).  7th Sea's
roll-and-keep is :meth:`Dice.roll_and_keep`, and its volley spread
:meth:`Dice.pick`.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidInput

# An exploding die can in theory show any total; beyond this one the input is
# refused so that no arithmetic ever runs on absurd numbers.
EXPLODING_MAX = 999


def is_int(value: Any) -> bool:
    """A JSON integer: ``bool`` is a subclass of ``int`` in Python, not here."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Die:
    """A kind of die: how to draw it and which values it can show."""

    name: str
    faces: tuple[int, ...] = ()
    exploding: bool = False

    def draw(self, rng: random.Random) -> int:
        if not self.exploding:
            return rng.choice(self.faces)
        total = 0
        while True:
            face = rng.randint(1, 10)
            total += face
            if face != 10 or total > EXPLODING_MAX - 10:
                return total

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a result of this die, or ``None`` if it is."""
        if not is_int(value):
            return f"a {self.name} result must be an integer"
        if self.exploding:
            if value < 1 or value % 10 == 0:
                return f"{value} is not a {self.name} total (positive, not a multiple of 10)"
            if value > EXPLODING_MAX:
                return f"{value} is above the largest {self.name} total accepted ({EXPLODING_MAX})"
            return None
        if value not in self.faces:
            low, high = min(self.faces), max(self.faces)
            return f"{value} is not a face of a {self.name} ({low}–{high})"
        return None


def _faces(n: int) -> tuple[int, ...]:
    return tuple(range(1, n + 1))


D4 = Die("d4", _faces(4))
D6 = Die("d6", _faces(6))
D8 = Die("d8", _faces(8))
D10 = Die("d10", _faces(10))
D12 = Die("d12", _faces(12))
D20 = Die("d20", _faces(20))
OPEN_D10 = Die("open-ended d10", exploding=True)
AVERAGE = Die("average die", (2, 3, 3, 4, 4, 5))

BY_SIDES = {4: D4, 6: D6, 8: D8, 10: D10, 12: D12, 20: D20}


MAX_GIVEN_ROLLS = 20_000
"""More named rolls than any battle at the engines' size caps makes: a bound on untrusted input."""


class Dice:
    """The rolls of one operation call.

    >>> dice = Dice({"a": 4}, seed=1)
    >>> dice.roll("a", D6)
    4
    >>> b = dice.roll("b", D6)
    >>> sorted(dice.used) == ["a", "b"] and dice.roll("b", D6) == b
    True
    >>> Dice({"a": 7}, seed=1).roll("a", D6)
    Traceback (most recent call last):
    ...
    rules.errors.InvalidInput: Invalid die a: 7 is not a face of a d6 (1–6).
    """

    def __init__(self, given: Mapping[str, Any] | None = None, seed: int | None = None):
        if given is not None and not isinstance(given, Mapping):
            raise InvalidInput.field("dice", "must be an object of named rolls")
        if given is not None and len(given) > MAX_GIVEN_ROLLS:
            raise InvalidInput.field("dice", f"at most {MAX_GIVEN_ROLLS} named rolls")
        self._given = dict(given or {})
        self._rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.used: dict[str, Any] = {}

    # -- single values --------------------------------------------------
    def roll(self, name: str, die: Die) -> int:
        """One die, by name."""
        if name in self.used:
            return self.used[name]
        if name in self._given:
            value = self._given[name]
            problem = die.problem(value)
            if problem:
                raise self._bad(name, problem)
        else:
            value = die.draw(self._rng)
        self.used[name] = value
        return value

    def roll_many(self, name: str, die: Die, count: int, *, scalar_ok: bool = False) -> list[int]:
        """``count`` dice of one kind under one name, given as a list.

        With ``scalar_ok`` a bare integer is accepted for a single die (D&D
        5e); the echo is always a list.
        """
        if name in self.used:
            return list(self.used[name])
        if name in self._given:
            values = self._given[name]
            if scalar_ok and count == 1 and is_int(values):
                values = [values]
            if not isinstance(values, list):
                raise self._bad(name, f"must be a list of {count} {die.name} results")
            if len(values) != count:
                raise self._bad(name, f"must hold exactly {count} {die.name} results, not {len(values)}")
            for index, value in enumerate(values):
                problem = die.problem(value)
                if problem:
                    raise self._bad(name, f"die {index + 1}: {problem}")
            values = list(values)
        else:
            values = [die.draw(self._rng) for _ in range(count)]
        self.used[name] = values
        return list(values)

    def roll_until(
        self, name: str, die: Die, limit: int, done: Callable[[list[int]], bool]
    ) -> list[int]:
        """Dice rolled one after another until ``done(rolls)`` says stop, at most ``limit``.

        For rolls whose count depends on their own results (D&D 5e death
        saves).  Given results may run longer than needed (the extra ones are
        ignored and not echoed) but not shorter; a bare integer is one die.
        """
        if name in self.used:
            return list(self.used[name])
        given = self._given.get(name)
        if given is not None and not isinstance(given, list):
            given = [given]
        rolls: list[int] = []
        while len(rolls) < limit and not done(rolls):
            if given is None:
                rolls.append(die.draw(self._rng))
                continue
            index = len(rolls)
            if index >= len(given):
                raise self._bad(name, "not enough results for the rolls needed")
            problem = die.problem(given[index])
            if problem:
                raise self._bad(name, f"die {index + 1}: {problem}")
            rolls.append(given[index])
        self.used[name] = list(rolls)
        return rolls

    def roll_and_keep(self, name: str, rolled: int, kept: int) -> tuple[list[int], list[int]]:
        """7th Sea ``XkY``: roll X exploding d10, keep the best Y.

        Returns the dice in the order given (or drawn) and the kept ones
        sorted from highest to lowest.
        """
        values = self.roll_many(name, OPEN_D10, rolled)
        return values, sorted(values, reverse=True)[:kept]

    def pick(self, name: str, n: int, m: int) -> list[int]:
        """``n`` distinct integers in ``0..m-1`` (7th Sea volley spread)."""
        if name in self.used:
            return list(self.used[name])
        if name in self._given:
            values = self._given[name]
            if not isinstance(values, list) or len(values) != n:
                raise self._bad(name, f"must be a list of {n} distinct integers from 0 to {m - 1}")
            if not all(is_int(v) and 0 <= v < m for v in values) or len(set(values)) != n:
                raise self._bad(name, f"must be {n} distinct integers from 0 to {m - 1}")
            values = list(values)
        else:
            values = self._rng.sample(range(m), n)
        self.used[name] = values
        return list(values)

    # -- helpers for engines with composite rolls -------------------------
    def given(self, name: str) -> bool:
        return name in self._given or name in self.used

    @staticmethod
    def _bad(name: str, problem: str) -> InvalidInput:
        return InvalidInput(f"Invalid die {name}: {problem}.", {f"dice.{name}": problem})
