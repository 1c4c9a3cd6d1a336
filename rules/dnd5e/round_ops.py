"""``resolve-round`` (S9.13): one whole round of a battle; participants who declared nothing get their
default orders (``defaults_applied``, docs/battle-contract.md)."""

from __future__ import annotations

from rules.dnd5e import ruleset
from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import BattleState
from rules.dnd5e.orders import Declarations
from rules.dnd5e.round import Round
from rules.dnd5e.standing import stamp
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context


class ResolveRoundInput(Input):
    state: BattleState
    declarations: Declarations = Declarations()


@ruleset.operation("resolve-round", ResolveRoundInput, summary="Resolve one whole round (S9.13).", rolls=True)
def resolve_round(data: ResolveRoundInput, ctx: Context) -> dict:
    if data.state.battle_over:
        raise InvalidInput.field("state.battle_over", "the battle is over; set it back to false for an extra round")
    b = Battle.from_input(data.state, ctx.log)
    played = Round(b, data.declarations, ctx)
    played.run()
    return {
        "state": stamp(b.st),
        "events": b.events,
        "victory_points": {k: v["victory_points"] for k, v in b.st["sides"].items()},
        "battle_over": b.st["battle_over"],
        "defaults_applied": played.defaults_applied,
    }
