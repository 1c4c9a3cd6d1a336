"""``visible-state``: the battle state as one side may see it (S11.2, H35).

The other side's general and quartermaster keep their names but lose their
Traits and knacks, its free-raise pool is removed, and its heroes show only
who they are, their status and what the last resolution revealed (engagement,
running effects): their wounds, battle Reputation and pending opportunities
are removed.  Declarations are never part of a state, so nothing secret of
the coming round can leak from it.
"""

from __future__ import annotations

import copy

from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.entities import Side, State
from rules.seventh_sea.messages import say

# S11.2 rows "general's Traits/knacks, free-raise pool" (own side only).
HIDDEN_SIDE = {"general": ("wits", "strategy", "incitation"), "quartermaster": ("wits", "logistics")}
HIDDEN_SIDE_FIELDS = ("free_raises",)
# S11.2 rows "heroes' wounds" (only status of the other side), "battle Reputation" (own side),
# "pending opportunity" (that player and his side).
HIDDEN_HERO_FIELDS = (
    "flesh_wounds", "dramatic_wounds", "battle_reputation", "reputation_lost", "opportunity_pending")


def visible(state: dict, side: str) -> tuple[dict, list[str]]:
    """A masked copy of ``state`` for ``side`` and the JSON paths removed."""
    view = copy.deepcopy(state)
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


class VisibleInput(Input):
    state: State
    side: Side


@ruleset.operation("visible-state", VisibleInput,
                   summary="The battle state with what one side may not know removed (S11.2).")
def visible_state(data: VisibleInput, ctx: Context) -> dict:
    view, hidden = visible(load_state(data.state), data.side)
    say(ctx.log, "S11.2", "visibility.hidden", side=data.side, count=len(hidden))
    return {"state": view, "hidden": hidden}
