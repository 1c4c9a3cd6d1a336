"""Operation ``visible-state``: a battle state as one viewer may see it (S11.3, S7.14, H59).

Removed for a side: enemy hidden (ambushing) units with the characters on them
and their engagements, and the enemy's lurker pool. Masked (set to null):
enemy magicians' power points, enemy champions' personal PA, and the
activation counts of enemy lurkers (their generation costs).  The GM sees it
all (S11.4).  The rules of what is hidden are in :mod:`rules.heros.fog`.
"""

from __future__ import annotations

from typing import Optional

from pydantic import model_validator

from rules.contract import GM, PUBLIC, Viewer
from rules.errors import InvalidInput
from rules.heros import fog, ruleset
from rules.heros.entities import Id
from rules.heros.round import load_state
from rules.heros.state import StateModel, normalise
from rules.model import ClosedInput
from rules.registry import Context


class VisibleStateInput(ClosedInput):
    state: StateModel
    side: Optional[Id] = None
    viewer: Optional[Viewer] = None

    @model_validator(mode="after")
    def one_viewer(self) -> "VisibleStateInput":
        if self.side is None and self.viewer is None:
            raise ValueError("name the viewer (a side id or \"gm\")")
        return self


def check_viewer(state: dict, viewer: str | None, field: str = "viewer", *, public: bool = False) -> None:
    """A viewer is the GM or one of the battle's sides; also ``PUBLIC`` where ``public`` (reading only: it is
    the enemy of every side, so the fog hides from it what any side does not see)."""
    if public and viewer == PUBLIC:
        return
    if viewer is not None and viewer != GM and viewer not in {s["id"] for s in state["sides"]}:
        raise InvalidInput.field(field, "unknown side")


@ruleset.operation("visible-state", VisibleStateInput, summary="The battle state filtered to what one viewer may see (S11.3).")
def visible_state(data: VisibleStateInput, ctx: Context) -> dict:
    state = normalise(load_state(data.state))
    viewer = data.viewer if data.viewer is not None else data.side
    check_viewer(state, viewer, "viewer" if data.viewer is not None else "side", public=data.viewer is not None)
    if viewer == GM:
        shown, hidden = state, []
    else:
        shown, hidden = fog.filtered(state, viewer, None)
    ctx.log.add("S11.3", "visibility.hidden", "{count} items hidden from side {side}.", count=len(hidden), side=viewer)
    return {"state": shown, "hidden": hidden, "viewer": viewer, "names": fog.names(shown)}
