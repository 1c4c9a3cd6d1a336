"""How long one battle sequence lasts (S4.1, table S6.1)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.tables import tables

ScaleUnit = Literal["cycle", "minute", "tour", "hour"]


def sequence_duration(total: int, *, assault: bool, scale_unit: str | None, log: Log) -> dict:
    """S4.1 with the half-open brackets of H2; an assault sequence lasts twice as long (S7.9)."""
    scale = tables()["time_scale"]
    if scale_unit is not None:
        row = next(r for r in scale if r["unit"] == scale_unit)
    else:
        row = next(r for r in scale if r["min"] <= total and (r["max"] is None or total <= r["max"]))
    tenths = max(tables()["minimum_amount_tenths"], total * 10 // row["per"])
    if assault:
        tenths *= tables()["assault_factor"]
    log.add("S4.1", "scale.duration", "{headcount_total} combatants: one {unit} per {per} soldiers, a sequence lasts {amount} {unit}(s).",
            headcount_total=total, unit=row["unit"], per=row["per"], amount_tenths=tenths, amount=tenths / 10)
    return {
        "headcount_total": total,
        "unit": row["unit"],
        "per": row["per"],
        "amount_tenths": tenths,
        "amount": tenths / 10,
        "assault_doubled": assault,
    }


class BattleScaleInput(Input):
    headcounts: list[Annotated[int, Field(ge=0, le=10**9)]] = Field(min_length=1, max_length=100)
    assault: bool = False
    scale_unit: ScaleUnit | None = None


@ruleset.operation("battle-scale", BattleScaleInput, summary="Duration of one battle sequence (S4.1, S6.1).")
def battle_scale(data: BattleScaleInput, ctx: Context) -> dict:
    total = sum(data.headcounts)
    if total < 1:
        raise InvalidInput.field("headcounts", "the total must be at least 1")
    return sequence_duration(total, assault=data.assault, scale_unit=data.scale_unit, log=ctx.log)
