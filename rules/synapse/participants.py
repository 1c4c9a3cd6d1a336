"""``round-participants``: who declares this round (S5.3), and what each gets if it declares nothing.

The GM declares the round's circumstances (key ``"gm"``, side null); it is
never waited for, every circumstance having its default (no change).  Each
side's commander gives the orders of its side (``side:A``, ``side:B``), and
is waited for while one of its formations can act; its default is the
spec's: every formation holds (S5.3, "a formation without an order holds").
Characters declare nothing in mass combat (S1.3): they are not listed.
"""

from __future__ import annotations

import copy

from rules.contract import GM, Viewer, hidden_from, participant_key
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.answers import split_path
from rules.synapse.declarations import SIDES
from rules.synapse.names import names_for
from rules.synapse.options import can_act
from rules.synapse.state import StateIn, load_state, ordered
from rules.synapse.visibility import check_viewer, mask


def side_default(state: dict, side: str) -> dict:
    """The answer of a side that declared nothing: each formation that can act holds."""
    return {f"sides.{side}.orders.{f['id']}.action": "hold"
            for f in ordered(state) if f["side"] == side and can_act(state, f)}


def participants(state: dict) -> list[dict]:
    """Every participant of the coming round (none once the battle is over), as the GM knows them."""
    if state["status"] != "ongoing":
        return []
    names = names_for(state)
    out = [{"key": GM, "participant": {"kind": "gm", "id": GM}, "side": None, "commands": [],
            "name": "Game master", "must_declare": False, "default": {}}]
    for side in SIDES:
        own = [f for f in ordered(state) if f["side"] == side]
        out.append({
            "key": participant_key("side", side), "participant": {"kind": "side", "id": side}, "side": side,
            "commands": [f["id"] for f in own if f["status"] in ("active", "routed", "reserve")],
            "name": names[side], "must_declare": any(can_act(state, f) for f in own),
            "default": side_default(state, side),
        })
    return out


class ParticipantsInput(Input):
    state: StateIn
    viewer: Viewer | None = None


@ruleset.operation("round-participants", ParticipantsInput, summary="Who declares this round, and their default orders (S5.3).")
def round_participants(data: ParticipantsInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer)
    state = load_state(data.state)
    found = participants(state)
    if viewer != GM:
        # A side learns who declares, never what the enemy commands that it may not see (its reserve).
        seen = mask(state, viewer)[0]
        for entry in found:
            entry["commands"] = [fid for fid in entry["commands"] if fid in seen["formations"]]
            if entry["side"] not in (None, viewer):
                entry["default"] = {path: value for path, value in entry["default"].items()
                                    if split_path(path)[3] in seen["formations"]}
        state = seen
    names = names_for(state)
    mentioned = {fid for entry in found for fid in entry["commands"]} | set(SIDES)
    ctx.log.add("S5.3", "participants.listed", "Round {round}: {count} participant(s) may declare.",
                round=state["round"] + 1, count=len(found))
    answer = {"round": state["round"] + 1, "participants": found,
              "names": {i: n for i, n in names.items() if i in mentioned}}
    if viewer == GM:  # what each side may not know of: the enemy's reserve and characters (S11.2)
        answer["hidden_from"] = hidden_from(names, {side: names_for(mask(copy.deepcopy(state), side)[0])
                                                    for side in SIDES})
        ctx.log.add("S11.2", "participants.hidden", "What each side may not know of: {counts}.",
                    counts={side: len(ids) for side, ids in answer["hidden_from"].items()})
    return answer

