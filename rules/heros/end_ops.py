"""Operation ``end-battle`` (S5.15, S9.14): end a battle and report its aftermath."""

from __future__ import annotations

from typing import Literal, Optional

from rules.errors import InvalidInput
from rules.heros import aftermath, ruleset
from rules.heros.entities import Id
from rules.heros.round import load_state
from rules.heros.state import StateModel, normalise
from rules.model import ClosedInput
from rules.registry import Context


class EndBattleInput(ClosedInput):
    state: StateModel
    reason: Optional[Literal["army_broken", "turn_limit", "concession", "gm_decision"]] = None
    conceding_side: Optional[Id] = None
    winner: Optional[Id] = None


@ruleset.operation("end-battle", EndBattleInput, summary="End the battle and report losses, fates and prisoners (S5.15).")
def end_battle(data: EndBattleInput, ctx: Context) -> dict:
    state = load_state(data.state)
    sides = [s["id"] for s in state["sides"]]
    reason = data.reason
    if reason is None:
        if not any(aftermath.side_morale(state, s)[1]["broken"] for s in sides):
            raise InvalidInput.field("reason", "is required when no army is broken")
        reason = "army_broken"
    if reason == "concession" and data.conceding_side not in sides:
        raise InvalidInput.field("conceding_side", "name the conceding side")
    if reason == "gm_decision" and data.winner is not None and data.winner not in sides:
        raise InvalidInput.field("winner", "unknown side")
    for side in sides:
        aftermath.side_morale(state, side, ctx.log)
    result = aftermath.result(state, reason, ctx.log, data.conceding_side, data.winner)
    state["status"], state["result"] = "ended", result
    return {"result": result, "state": normalise(state)}
