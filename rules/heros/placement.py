"""``place-piece``: the GM moves one piece of a set-up before the first bound (battle room contract).

The web keeps the ``new-battle`` input it set a battle up with; before the
first bound the GM may move a unit or a character on the map, and the web
runs ``new-battle`` again on the moved input.  Where the piece lands follows
the stacking of S5.5.4, as a move would end: a unit put on a hex of a friendly
unit stands behind it (the rear rank), anywhere else in the front rank; a
character put on a friendly unit stacks on it, anywhere else stands alone.
``new-battle`` then judges the result (two ranks at most, no enemy, no
impassable hex).  The input comes back as it was given but for that piece.
"""

from __future__ import annotations

import copy

from rules.contract import Setup, setup_as
from rules.errors import InvalidInput
from rules.heros import ruleset
from rules.heros.entities import HexRef, Id
from rules.heros.setup import NewBattleInput
from rules.model import ClosedInput
from rules.registry import Context


class PlaceInput(ClosedInput):
    setup: Setup  # a new-battle input, returned as given but for the piece moved
    piece: Id
    cell: HexRef


@ruleset.operation("place-piece", PlaceInput,
                   summary="A set-up with one unit or character moved to a hex before the first bound (S5.5.4).")
def place_piece(data: PlaceInput, ctx: Context) -> dict:
    valid = setup_as(NewBattleInput, data.setup)
    cell = {"col": data.cell.col, "row": data.cell.row}
    if not (cell["col"] < valid.map.width and cell["row"] < valid.map.height):
        raise InvalidInput.keyed("cell", "refusal.place.outside", "This hex is outside the map.")
    setup = copy.deepcopy(data.setup)
    sides = {corps.id: corps.side for corps in valid.corps}
    units, characters = setup["units"], setup["characters"]
    unit = next((u for u in units if u["id"] == data.piece), None)
    if unit is not None:
        if unit.get("position") is None:
            raise InvalidInput.keyed("piece", "refusal.place.not_placed", "This unit is not on the map yet.")
        if unit["position"] != cell:  # onto a friendly unit: behind it, as a move would end
            side = sides.get(unit.get("corps_id"))
            friend = next((u for u in units if u is not unit and u.get("position") == cell
                           and sides.get(u.get("corps_id")) == side), None)
            unit["position"], unit["rank"] = cell, "rear" if friend else "front"
            if friend:
                ctx.log.add("S5.5.4", "placement.rear", "{unit} stands behind {friend}, in the rear rank.",
                            unit=unit["id"], friend=friend["id"])
        ctx.log.add("S5.1", "placement.moved", "{piece} is placed on hex {col},{row}.", piece=data.piece, **cell)
        return {"setup": setup}
    character = next((c for c in characters if c["id"] == data.piece), None)
    if character is None:
        raise InvalidInput.keyed("piece", "refusal.place.unknown", "No unit or character of this battle has this name.")
    side = sides.get(character.get("corps_id"))
    here = next((u for u in units if u.get("position") == cell and sides.get(u.get("corps_id")) == side), None)
    character["stacked_on"] = here["id"] if here else None
    character["position"] = None if here else cell
    if here:
        ctx.log.add("S5.5.4", "placement.stacked", "{character} stacks on {unit}.", character=data.piece,
                    unit=here["id"])
    ctx.log.add("S5.1", "placement.moved", "{piece} is placed on hex {col},{row}.", piece=data.piece, **cell)
    return {"setup": setup}
