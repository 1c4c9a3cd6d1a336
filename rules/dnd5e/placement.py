"""``place-piece``: the GM moves one stand or detached solo of a set-up before round 1 (battle room contract).

The web keeps the ``new-battle`` input it set a battle up with (S5.1); before
round 1 the GM may anchor a stand or a detached solo on another square, and
the web runs ``new-battle`` again on the moved input, which judges it (room,
deep water, the map's edge).  An attached solo has no square of its own: it
moves with its stand (S3.5).  The input comes back as it was given (the web's
own fields included) but for that piece.
"""

from __future__ import annotations

import copy

from rules.contract import Setup, setup_as
from rules.dnd5e import ruleset
from rules.dnd5e.battle_ops import NewBattleInput
from rules.dnd5e.entities import Ident, Square
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context


class PlaceInput(Input):
    setup: Setup  # a new-battle input, returned as given but for the piece moved
    piece: Ident
    cell: Square


@ruleset.operation("place-piece", PlaceInput,
                   summary="A set-up with one stand or detached solo anchored on a square before round 1 (S5.1).")
def place_piece(data: PlaceInput, ctx: Context) -> dict:
    valid = setup_as(NewBattleInput, data.setup)
    setup = copy.deepcopy(data.setup)
    cell = list(data.cell)
    for uid, unit in valid.units.items():
        for index, stand in enumerate(unit.stands):
            if stand.id == data.piece:
                setup["units"][uid]["stands"][index]["position"] = cell
                ctx.log.add("S5.1", "placement.moved", "{piece} is placed on square {square}.", piece=data.piece,
                            square=cell)
                return {"setup": setup}
    solo = valid.solos.get(data.piece)
    if solo is None:
        raise InvalidInput.keyed("piece", "refusal.place.unknown", "No stand or solo of this battle is called {piece}.",
                                 piece=data.piece)
    if solo.attached_to:
        name = solo.name or data.piece
        raise InvalidInput.keyed("piece", "refusal.place.attached", "{name} is with a stand and moves with it.", name=name)
    setup["solos"][data.piece]["position"] = cell
    ctx.log.add("S5.1", "placement.moved", "{piece} is placed on square {square}.", piece=data.piece, square=cell)
    return {"setup": setup}
