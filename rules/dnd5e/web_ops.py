"""Operations for the web layer: ``declaration-options`` and ``visible-state``
(so that forms and maps never re-implement a rule).

With a side ``viewer`` both are computed from the battle as that side knows it
(:func:`rules.dnd5e.fog.fogged`): a hidden enemy is neither an obstacle nor a
target, and no answer changes when it moves.
"""

from __future__ import annotations

import re
from typing import Literal

from rules.contract import GM, PUBLIC, Known, Viewer
from rules.dnd5e import ruleset
from rules.dnd5e.answers import known
from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import BattleState, Ident
from rules.dnd5e.fog import fogged
from rules.dnd5e.forms import adjustment_fields, fallback_fields, labelled
from rules.dnd5e.options import gm_options, option, side_options, solo_options, unit_options
from rules.dnd5e.participants import names
from rules.dnd5e.standing import battle_outcome, strength
from rules.dnd5e.visibility import visible_state
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context


class Participant(Input):
    kind: Literal["side", "unit", "solo", "commander", "hero", "gm"]
    id: Ident | None = None


def viewer_side(b: Battle, viewer: str | None, path: str = "viewer", *, public: bool = False) -> str | None:
    """The side a viewer stands for (None: the GM, who sees everything).  ``PUBLIC``, where ``public``, stands
    for no side: every side is its enemy, so what is hidden from any side is hidden from it."""
    if viewer in (None, GM):
        return None
    if viewer not in b.st["sides"] and not (public and viewer == PUBLIC):
        raise InvalidInput.field(path, 'must be "gm" or a side id' + (' or "public"' if public else ""))
    return viewer


def as_known_by(b: Battle, side: str | None) -> Battle:
    """The battle as ``side`` knows it (the GM: the battle itself)."""
    if side is None:
        return b
    return Battle(fogged(b.st, side), b.profiles, b.log)


def participant_side(b: Battle, kind: str, pid: str | None) -> str | None:
    """The side a participant belongs to, refusing an id the battle (as known) does not hold."""
    tables = {"side": b.st["sides"], "unit": b.units, "solo": b.solos}
    if kind == "gm":
        return None
    if pid not in tables[kind]:
        raise InvalidInput.field("participant.id", f"no {kind} has this id")
    return pid if kind == "side" else tables[kind][pid]["side"]


def for_participant(state: BattleState, viewer: str | None, participant: Participant, ctx: Context
                    ) -> tuple[Battle, str | None, str]:
    """The battle as ``viewer`` knows it, the viewer's side and the participant's kind, refusing a side
    that asks about a participant not its own (the GM asks about anyone)."""
    full = Battle.from_input(state, ctx.log)
    side = viewer_side(full, viewer)
    b = as_known_by(full, side)
    kind = "solo" if participant.kind in ("commander", "hero") else participant.kind
    owner = participant_side(b, kind, participant.id)
    if side is not None and owner != side:
        raise InvalidInput.field("participant", "a side declares only for its own participants")
    return b, side, kind


class OptionsInput(Input):
    state: BattleState
    participant: Participant
    viewer: Viewer | None = None
    declarations: Known | None = None


@ruleset.operation("declaration-options", OptionsInput,
                   summary="What a side, unit, solo or the GM may declare now, and why anything else is forbidden.")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    b, side, kind = for_participant(data.state, data.viewer, data.participant, ctx)
    known(data.declarations)  # the draft is read like check-declaration's: no option of S9.13.2 depends on it
    pid = data.participant.id
    if b.st["battle_over"]:
        must, options = False, []
        ctx.log.add("S5.13.5", "options.over", "The battle is over: nothing to declare.")
    elif kind == "unit":
        must, options = unit_options(b, pid)
        if data.viewer is not None:  # a room's form offers a stand's own action only when it can be used
            options = without_idle_own_actions(options, pid, ctx)
        if b.units[pid]["broken"]:
            must = False
            ctx.log.add("S5.13.3", "options.broken", "{unit} is broken: the GM gives its orders.", unit=pid)
            if side is not None:  # its side writes only the orders for after a rally (S5.3)
                options = [o for o in options if o["path"] == f"units.{pid}.if_rallied"]
    elif kind == "solo":
        must, options = solo_options(b, pid)
        fallback = fallback_fields(b, b.solos[pid]["side"]).get(pid)
        if data.viewer is not None and must and fallback:  # the player's own fallback (S11.1)
            options.append(option(f"solo_fallbacks.{pid}", "Where the solo goes if its stand falls", "object",
                                  default=None, items=fallback))
    elif kind == "side":
        must, options = False, side_options(b, pid)
        for o in options:
            if o["path"] == "solo_fallbacks":
                o["items"] = fallback_fields(b, pid)
    else:
        must, options = False, gm_options(b)
        options[0]["items"] = adjustment_fields(b)
    ctx.log.add("S9.13.2", "options.list", "{count} options for {kind} {id} in round {round}.", count=len(options),
                kind=kind, id=pid, round=b.round)
    out = {"participant": data.participant.model_dump(), "round": b.round,
           "phase": "over" if b.st["battle_over"] else "declarations", "must_declare": must,
           "options": labelled(options), "names": names(b.st)}
    if data.viewer is not None:
        out["viewer"] = data.viewer
    return out


def without_idle_own_actions(options: list[dict], uid: str, ctx: Context) -> list[dict]:
    """The options less each stand's own action (``units.<u>.stands[i].action``) when the unit may not
    Cast a Spell now: a stand acts on its own only while its unit casts (S5.8.2), so the choice could
    never be used this round."""
    unit_action = next((o for o in options if o["path"] == f"units.{uid}.action"), None)
    if unit_action is None or "cast_spell" in (unit_action.get("allowed") or []):
        return options
    own = re.compile(rf"^units\.{re.escape(uid)}\.stands\[\d+\]\.action$")
    kept = [o for o in options if not own.match(o["path"])]
    if len(kept) < len(options):
        ctx.log.add("S5.8.2", "options.own_action_idle", "{unit} cannot cast a spell now: its stands take no "
                    "action of their own.", unit=uid)
    return kept


class VisibleInput(Input):
    state: BattleState
    side: Ident | None = None
    viewer: Viewer | None = None


@ruleset.operation("visible-state", VisibleInput, summary="The battle state as one side (or the GM) may see it (S11.3).")
def visible_state_op(data: VisibleInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    if data.viewer is None and data.side is None:
        raise InvalidInput.field("viewer", 'required: "gm" or a side id')
    if data.viewer is None and data.side not in b.st["sides"]:
        raise InvalidInput.field("side", "unknown side")
    side = viewer_side(b, data.viewer, public=True) if data.viewer is not None else data.side
    if side is None:
        view, hidden = b.st, []
    else:
        view, hidden = visible_state(b.st, side)
    view["outcome"] = battle_outcome(b.st)
    view["strength"] = strength(b.st, side)
    ctx.log.add("S11.3", "visible.masked", "{count} fields hidden from side {side}.", count=len(hidden),
                side=side or GM)
    return {"state": view, "hidden": hidden, "names": names(fogged(b.st, side))}
