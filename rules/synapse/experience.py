"""Experience: the award of a battle and its spending (S4.15, table S6.8)."""

from __future__ import annotations

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.entities import Result
from rules.synapse.sheets import break_pct_of
from rules.synapse.tables import experience_row


def step_cost(current: int) -> int:
    """H34: raising combat from c to c + 1 costs the score reached, at least 1."""
    return max(1, current + 1)


class ExperienceInput(Input):
    result: Result
    xp: int | None = Field(None, ge=0, le=1_000_000)
    xp_banked: int = Field(0, ge=0, le=1_000_000)
    combat_base: int = Field(ge=-10, le=30)
    target_combat: int | None = Field(None, ge=-10, le=100)
    break_pct_override: int | None = Field(None, ge=0, le=1000)


@ruleset.operation("experience", ExperienceInput, summary="XP award and improvement (S4.15, S6.8).")
def experience_op(data: ExperienceInput, ctx: Context) -> dict:
    row = experience_row(data.result)
    awarded = row["default"] if data.xp is None else data.xp
    available = data.xp_banked + awarded
    ctx.log.add("S4.15", "xp.award", "{result}: {xp_awarded} XP awarded, {xp_available} available.",
                result=data.result, xp_awarded=awarded, xp_available=available)
    target = data.combat_base if data.target_combat is None else data.target_combat
    if data.target_combat is not None and data.target_combat <= data.combat_base:
        raise InvalidInput.field("target_combat", "must be greater than combat_base")
    steps = []
    for c in range(data.combat_base, target):
        steps.append({"from": c, "to": c + 1, "cost": step_cost(c)})
        ctx.log.add("S4.15", "xp.step", "Raising combat from {from} to {to} costs {cost} XP.", **steps[-1])
    cost = sum(s["cost"] for s in steps)
    if cost > available:
        raise InvalidInput.field("target_combat", f"costs {cost} XP, only {available} available")
    return {
        "xp_range": {"min": row["min"], "max": row["max"], "open_ended": row["open_ended"]},
        "xp_awarded": awarded, "xp_available": available, "steps": steps, "cost": cost,
        "new_combat_base": target, "xp_left": available - cost,
        "new_break_pct": break_pct_of(target, data.break_pct_override),
    }
