"""How the battle stands, carried by every state an operation returns (``docs/rules/seventh_sea.md``).

``outcome`` says whether the battle is over, who won and why (a log key of
this engine); ``strength`` is the figure a timeline charts: each general's
total in the last resolved round (S4.2), the number that decides the round.
7th Sea has no drawn end that the GM must settle: ``tie`` is always false (a
battle the GM ends without a winner is over with ``winner`` null, S5.5).
"""

from __future__ import annotations

from rules.contract import outcome
from rules.seventh_sea import tables

WIN_STREAK = 3  # S5.5: three consecutive round wins end the battle


def battle_outcome(state: dict) -> dict:
    if not state["finished"]:
        return outcome(over=False, reason="battle.running")
    won = state["winner"] is not None and state["sides"][state["winner"]]["streak"] >= WIN_STREAK
    return outcome(over=True, winner=state["winner"], reason="battle.won" if won else "battle.ended")


def strength(state: dict) -> dict[str, int]:
    """Each general's total in the last resolved round (0 before round 1)."""
    history = state["history"]
    return {letter: history[-1]["totals"][letter] if history else 0 for letter in tables.SIDES}


def standing(state: dict) -> dict:
    """``state`` with its ``outcome`` and ``strength`` (set in place, and returned)."""
    state["outcome"] = battle_outcome(state)
    state["strength"] = strength(state)
    return state
