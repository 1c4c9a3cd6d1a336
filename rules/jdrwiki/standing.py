"""How the battle stands: the contract's ``outcome`` and ``strength`` of a state (S5.15.1).

Both are read from the state alone, so every operation that returns a state
(``new-battle``, ``roll-initiative``, ``resolve-round``, ``end-battle``,
``visible-state``) carries the same figures, and the web layer never decides
who won.  ``strength`` is the hit points of each side's active corps (fled,
destroyed and merged corps no longer count): the quantity that S5.15.1 watches
(a side with no active corps has lost) and that S5.16 counts losses in.
"""

from __future__ import annotations

from rules.contract import outcome as contract_outcome

SIDES = ("a", "b")


def _side_of(state: dict, corps: dict) -> str | None:
    army = state["armies"].get(corps["army_id"])
    return army.get("side") if army else None


def standing_sides(state: dict) -> list[str]:
    """The sides that still have an active corps (S5.15.1)."""
    return [side for side in SIDES
            if any(c["status"] == "active" and _side_of(state, c) == side for c in state["corps"].values())]


def outcome(state: dict) -> dict:
    """``{over, winner, tie, reason, ...}``; the reason is a log key saying which S5.15.1 case applies.  Where
    the rules name no winner the GM may set one (S5.15.1), also once a round has ended the battle:
    ``gm_names_winner`` stays true until a winner is named."""
    if not state["ended"]:
        return contract_outcome(over=False, reason="outcome.ongoing")
    standing = standing_sides(state)
    reason = {0: "outcome.none_standing", 1: "outcome.last_standing"}.get(len(standing), "outcome.gm_ended")
    winner = state["winner"]
    return contract_outcome(over=True, winner=winner, tie=winner is None, reason=reason,
                            gm_names_winner=winner is None)


def strength(state: dict) -> dict[str, int]:
    """Hit points of each side's active corps.  A side with a corps whose hit points the state leaves
    out (``visible-state`` under fog, S11.3) is left out: a partial sum would tell a false story."""
    totals: dict[str, int] = {side: 0 for side in SIDES}
    for corps in state["corps"].values():
        side = _side_of(state, corps)
        if side not in totals or corps["status"] != "active":
            continue
        if "hp" not in corps:
            totals[side] = None  # type: ignore[assignment]
        elif totals[side] is not None:
            totals[side] += corps["hp"]
    return {side: value for side, value in totals.items() if value is not None}


def stamp(state: dict) -> dict:
    """The state with its ``outcome`` and ``strength`` (keys kept sorted, S3.7)."""
    state["outcome"] = outcome(state)
    state["strength"] = strength(state)
    return dict(sorted(state.items()))
