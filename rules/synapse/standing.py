"""How the battle stands: the ``outcome`` and ``strength`` every returned state carries.

``strength`` is what the room's timeline charts: for each side, the strength
points (S4.8 *Force*) its formations still have on the field or in reserve,
``strength - losses`` of every active, routed or reserve formation.  A side
at 0 has nothing left that can fight: the S5.13 test of a beaten side.
"""

from __future__ import annotations

from rules.contract import outcome

SIDES = ("A", "B")
STANDING = ("active", "routed", "reserve")


def outcome_of(state: dict) -> dict:
    """S5.13/S5.14: over or not, the winner, and why (a key of the engine's messages)."""
    if state["status"] != "over":
        return outcome(over=False, reason="battle.ongoing")
    # No ruleset tie here: a battle over without a winner is settled, the GM is asked nothing more.
    return outcome(over=True, winner=state["winner"], reason=f"battle.{state['end_reason'] or 'gm'}")


def strength_of(state: dict) -> dict[str, int]:
    out = {side: 0 for side in SIDES}
    for f in state["formations"].values():
        if f["status"] in STANDING:
            out[f["side"]] += max(0, f["strength"] - f["losses"])
    return out


def stamp(state: dict, strength: dict[str, int] | None = None) -> dict:
    """Write ``outcome`` and ``strength`` into ``state``; a side's view passes its own ``strength``
    only, as it does not learn the enemy's (S11.2)."""
    state["outcome"] = outcome_of(state)
    state["strength"] = strength_of(state) if strength is None else strength
    return state
