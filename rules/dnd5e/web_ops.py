"""Operations for the web layer: ``declaration-options`` and ``visible-state``
(so that forms and maps never re-implement a rule)."""

from __future__ import annotations

from typing import Literal

from rules.dnd5e import ruleset
from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import BattleState, Ident
from rules.dnd5e.options import gm_options, side_options, solo_options, unit_options
from rules.dnd5e.visibility import visible_state
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context


class Participant(Input):
    kind: Literal["side", "unit", "solo", "commander", "hero", "gm"]
    id: Ident | None = None


class OptionsInput(Input):
    state: BattleState
    participant: Participant


@ruleset.operation("declaration-options", OptionsInput,
                   summary="What a side, unit, solo or the GM may declare now, and why anything else is forbidden.")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    kind, pid = data.participant.kind, data.participant.id
    kind = "solo" if kind in ("commander", "hero") else kind
    tables = {"side": b.st["sides"], "unit": b.units, "solo": b.solos}
    if kind != "gm" and pid not in tables[kind]:
        raise InvalidInput.field("participant.id", f"no {kind} has this id")
    if b.st["battle_over"]:
        must, options = False, []
        ctx.log.add("S5.13.5", "options.over", "The battle is over: nothing to declare.")
    elif kind == "unit":
        must, options = unit_options(b, pid)
        if b.units[pid]["broken"]:
            must = False
            ctx.log.add("S5.13.3", "options.broken", "{unit} is broken: the GM gives its orders.", unit=pid)
    elif kind == "solo":
        must, options = solo_options(b, pid)
    elif kind == "side":
        must, options = False, side_options(b, pid)
    else:
        must, options = False, gm_options(b)
    ctx.log.add("S9.13.2", "options.list", "{count} options for {kind} {id} in round {round}.", count=len(options),
                kind=kind, id=pid, round=b.round)
    return {"participant": data.participant.model_dump(), "round": b.round,
            "phase": "over" if b.st["battle_over"] else "declarations", "must_declare": must, "options": options}


class VisibleInput(Input):
    state: BattleState
    side: Ident


@ruleset.operation("visible-state", VisibleInput, summary="The battle state as one side may see it (S11.3).")
def visible_state_op(data: VisibleInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    if data.side not in b.st["sides"]:
        raise InvalidInput.field("side", "unknown side")
    view, hidden = visible_state(b.st, data.side)
    ctx.log.add("S11.3", "visible.masked", "{count} fields hidden from side {side}.", count=len(hidden),
                side=data.side)
    return {"state": view, "hidden": hidden}
