"""What one viewer may know: ``visible-state``, ``visible-round`` and the masked state (S11.2, H35).

The other side's general and quartermaster keep their names but lose their
Traits and knacks, its free-raise pool is removed, and its heroes show only
who they are, their status and what the last resolution revealed (engagement,
running effects): their wounds, battle Reputation and pending opportunities
are removed.  Declarations are never part of a state, so nothing secret of
the coming round can leak from it.  The GM sees everything.

Nothing else is hidden in 7th Sea: there is no map and no unseen unit, every
hero's name and status is known to both sides, so ``names`` is the same for
every viewer.  The forms of a side are computed from :func:`masked`, the
state with exactly those hidden fields set to neutral values, so that no
answer given to a side can depend on them.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any

from pydantic import Field, model_validator

from rules.contract import GM, PUBLIC, Viewer
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.entities import Side, State
from rules.seventh_sea.messages import say
from rules.seventh_sea.standing import standing

# S11.2 rows "general's Traits/knacks, free-raise pool" (own side only), with the neutral value a side's
# forms are computed with (the lowest each field may hold, S3.4).
HIDDEN_SIDE = {"general": {"wits": 1, "strategy": 0, "incitation": 0}, "quartermaster": {"wits": 1, "logistics": 0}}
HIDDEN_SIDE_FIELDS = {"free_raises": 0}
# S11.2 rows "heroes' wounds" (only status of the other side), "battle Reputation" (own side),
# "pending opportunity" (that player and his side).
HIDDEN_HERO_FIELDS = {"flesh_wounds": 0, "dramatic_wounds": 0, "battle_reputation": 0, "reputation_lost": 0,
                      "opportunity_pending": False}
# Events and log steps about another side's hero that the viewer may not read (S11.2): the offer, an answer
# that started nothing, and the steps that carry the hero's wound or Reputation totals.  A started
# opportunity, the rolls and the falls are public after resolution (S11.2, S11.3).
SECRET_EVENTS = frozenset({"opportunity_offered", "opportunity_declined", "opportunity_lapsed"})
SECRET_STEPS = frozenset({"opportunity.offered", "opportunity.declined", "opportunity.lapsed",
                          "opportunity.incomplete", "damage.roll", "wound_check.result", "adjustment.applied",
                          "opportunity.summary"})
MAX_EVENTS, MAX_STEPS, MAX_DICE = 2_000, 10_000, 2_000
Entry = Annotated[dict[str, Any], Field(max_length=20)]  # one event or log step (a handful of fields)


def check_viewer(viewer: str, path: str = "viewer", *, public: bool = False) -> str:
    """The GM or a side; also ``PUBLIC`` where ``public`` (reading only: it is the enemy of both sides)."""
    if viewer != GM and viewer not in tables.SIDES and not (public and viewer == PUBLIC):
        raise InvalidInput.field(path, "must be gm, a or b" + (" or public" if public else ""))
    return viewer


def _copy(state: dict) -> dict:
    """A copy of ``state`` whose sides and heroes may be changed; the history (which nothing here changes, and
    which may hold thousands of rounds) is shared."""
    return {**state, "sides": copy.deepcopy(state["sides"]), "heroes": copy.deepcopy(state["heroes"])}


def visible(state: dict, side: str) -> tuple[dict, list[str]]:
    """A masked copy of ``state`` for ``side`` and the JSON paths removed."""
    view = _copy(state)
    hidden: list[str] = []
    enemy = tables.other(side)
    enemy_side = view["sides"][enemy]
    for holder, fields in HIDDEN_SIDE.items():
        if enemy_side[holder] is None:
            continue
        for name in fields:
            del enemy_side[holder][name]
            hidden.append(f"sides.{enemy}.{holder}.{name}")
    for name in HIDDEN_SIDE_FIELDS:
        del enemy_side[name]
        hidden.append(f"sides.{enemy}.{name}")
    for index, hero in enumerate(view["heroes"]):
        if hero["side"] == side:
            continue
        for name in HIDDEN_HERO_FIELDS:
            del hero[name]
            hidden.append(f"heroes[{index}].{name}")
    return view, hidden


def seen_by_public(state: dict) -> tuple[dict, list[str]]:
    """What both sides may see: each side's hidden fields removed, as its enemy's view removes them."""
    view, hidden = visible(state, "a")
    view, more = visible(view, "b")
    return view, hidden + more


def masked(state: dict, viewer: str) -> dict:
    """The whole state as ``viewer`` knows it: what it may not see set to neutral values (the GM: as is)."""
    if viewer == GM:
        return state
    view = _copy(state)
    enemy_side = view["sides"][tables.other(viewer)]
    for holder, fields in HIDDEN_SIDE.items():
        if enemy_side[holder] is not None:
            enemy_side[holder].update(fields)
    enemy_side.update(HIDDEN_SIDE_FIELDS)
    for hero in view["heroes"]:
        if hero["side"] != viewer:
            hero.update(HIDDEN_HERO_FIELDS)
    return view


def names(state: dict) -> dict[str, str]:
    """Display names of the sides (``a``, ``b``) and of every hero, all known to both sides (S11.2)."""
    return {**{letter: state["sides"][letter]["name"] for letter in tables.SIDES},
            **{hero["id"]: hero["name"] for hero in state["heroes"]}}


class VisibleInput(Input):
    state: State
    viewer: Viewer | None = None
    side: Side | None = None

    @model_validator(mode="after")
    def _who(self) -> "VisibleInput":
        if self.viewer is None and self.side is None:
            raise ValueError("give viewer (gm, a or b)")
        return self


@ruleset.operation("visible-state", VisibleInput,
                   summary="The battle state with what one viewer may not know removed (S11.2).")
def visible_state(data: VisibleInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer, public=True) if data.viewer is not None else data.side
    state = standing(load_state(data.state))
    if viewer == GM:
        view, hidden = state, []
    elif viewer == PUBLIC:
        view, hidden = seen_by_public(state)
    else:
        view, hidden = visible(state, viewer)
    say(ctx.log, "S11.2", "visibility.hidden", side=viewer, count=len(hidden))
    return {"state": view, "hidden": hidden, "names": names(state)}


class RoundOutput(Input):
    """A ``resolve-round`` output (the fields a viewer may read some of)."""

    state: State
    events: Annotated[list[Entry], Field(max_length=MAX_EVENTS)] = []
    log: Annotated[list[Entry], Field(max_length=MAX_STEPS)] = []
    dice: Annotated[dict[str, Any], Field(max_length=MAX_DICE)] = {}
    defaults_applied: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=40)] = []


class VisibleRoundInput(Input):
    round: RoundOutput
    viewer: Viewer


def _enemy_hero(entry: dict, sides: dict[str, str], viewer: str) -> bool:
    hero_id = entry.get("hero_id") or (entry.get("params") or {}).get("hero_id")
    return hero_id in sides and sides[hero_id] != viewer


def _secret_default(step: dict, sides: dict[str, str], viewer: str) -> bool:
    """An ``input.default`` step about an enemy hero's opportunity or about the GM's adjustments."""
    if step.get("key") != "input.default":
        return False
    field = str((step.get("params") or {}).get("field", ""))
    parts = field.split(".")
    if field.startswith("declarations.adjustments"):
        return True
    return (len(parts) > 3 and parts[:2] == ["declarations", "heroes"] and parts[3] == "opportunity"
            and sides.get(parts[2], viewer) != viewer)


@ruleset.operation("visible-round", VisibleRoundInput,
                   summary="The events, dice and log steps of a resolved round that one viewer may read (S11.2).")
def visible_round(data: VisibleRoundInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer, public=True)
    round_ = data.round
    state = load_state(round_.state, "round.state")
    events, log = round_.events, round_.log
    if viewer != GM:
        sides = {hero["id"]: hero["side"] for hero in state["heroes"]}
        events = [event for event in events
                  if not (event.get("type") in SECRET_EVENTS and _enemy_hero(event, sides, viewer))]
        log = [step for step in log
               if not (step.get("key") in SECRET_STEPS and _enemy_hero(step, sides, viewer))
               and not _secret_default(step, sides, viewer)]
    # The registry writes the output's ``log`` and ``dice`` from the context (this ruleset echoes its dice
    # always): the round's steps and dice, as this viewer may read them, are put there, then this step.
    ctx.log.extend(log)
    ctx.dice.used.update(round_.dice)
    say(ctx.log, "S11.2", "visibility.round", round=state["round"], viewer=viewer, events=len(events),
        steps=len(log))
    return {"events": events, "defaults_applied": round_.defaults_applied, "names": names(state)}
