"""Preparatory phase (S4.3, S5.2): the quartermaster's and the general's rolls give free raises."""

from __future__ import annotations

from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.entities import General, Quartermaster, log_defaults
from rules.seventh_sea.rolls import roll_keep


def _raises(ctx: Context, name: str, wits: int, knack: int) -> dict:
    """One preparatory roll ``(wits + knack) k wits`` and its free raises, counted on its own (H8)."""
    result = roll_keep(ctx, name, wits + knack, wits, rule="S4.3")
    result["free_raises"] = result["total"] // tables.preparation()["free_raise_per"]
    return result


def prepare(ctx: Context, general: dict, quartermaster: dict | None, suffix: str = "", side: str = "") -> dict:
    """``{logistics, incitation, free_raises}``; dice ``logistics<suffix>``, ``incitation<suffix>``."""
    logistics = None
    if quartermaster is not None:
        logistics = _raises(ctx, f"logistics{suffix}", quartermaster["wits"], quartermaster["logistics"])
    incitation = _raises(ctx, f"incitation{suffix}", general["wits"], general["incitation"])
    free_raises = incitation["free_raises"] + (logistics["free_raises"] if logistics else 0)
    say(ctx.log, "S4.3", "prep.free_raises", side=side or "-",
        logistics_total=logistics["total"] if logistics else None, incitation_total=incitation["total"],
        free_raises=free_raises)
    return {"logistics": logistics, "incitation": incitation, "free_raises": free_raises}


class PreparationInput(Input):
    general: General
    quartermaster: Quartermaster | None = None


@ruleset.operation("preparation-roll", PreparationInput, rolls=True,
                   summary="Preparatory phase: Logistics and Incitation rolls, free raises (S4.3, S5.2).")
def preparation_roll(data: PreparationInput, ctx: Context) -> dict:
    log_defaults(ctx.log, data)
    quartermaster = data.quartermaster.model_dump() if data.quartermaster else None
    return prepare(ctx, data.general.model_dump(), quartermaster)
