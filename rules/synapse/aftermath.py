"""``end-battle``: the aftermath of a battle (S5.14): recovery, casualties, experience, abandoned guns, wounds."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.casualties import character_wounds, distribute
from rules.synapse.entities import Result
from rules.synapse.standing import stamp
from rules.synapse.state import MAX_UNITS, StateIn, load_state, ordered
from rules.synapse.tables import experience_row

SIDES = ("A", "B")


class SideResults(Input):
    A: Result | None = None
    B: Result | None = None


PerUnit = Annotated[dict[Annotated[str, Field(max_length=80)], Annotated[int, Field(ge=0, le=10**9)]],
                    Field(max_length=MAX_UNITS)]


class EndBattleInput(Input):
    state: StateIn
    winner: str | None = Field(None, pattern="^(A|B|none)$")
    results: SideResults = Field(default_factory=SideResults)
    xp: dict[Annotated[str, Field(max_length=8)], PerUnit] = Field(default_factory=dict, max_length=2)
    killed: dict[Annotated[str, Field(max_length=8)], PerUnit] = Field(default_factory=dict, max_length=2)


def closed(state: dict, winner: str | None) -> dict:
    """The state the battle ends in: over, with the winner retained (the GM's, if overridden)."""
    if state["status"] != "over":
        state.update(status="over", end_reason="gm")
    state["winner"] = winner
    return stamp(state)


def _check_side_map(name: str, value: dict[str, dict[str, int]], state: dict) -> None:
    for side, per_unit in value.items():
        if side not in SIDES:
            raise InvalidInput.field(f"{name}.{side}", "must be A or B")
        for uid in per_unit:
            if uid not in state["armies"][side]["units"]:
                raise InvalidInput.field(f"{name}.{side}.{uid}", f"no unit {uid!r} in army {side}")


def _unit_losses(state: dict, side: str, uid: str) -> dict:
    """The S9.9 unit fields of ``uid`` (S3.10 names what is read)."""
    unit = state["armies"][side]["units"][uid]
    category = unit.get("category", "troop")
    needed = "crew_total" if category == "vehicle" else "soldier_points"
    if unit.get(needed) is None:
        raise InvalidInput.field(f"state.armies.{side}.units.{uid}.{needed}", "required to share losses")
    return {"id": uid, "category": category, "strength": unit["strength"], "headcount": unit["headcount"],
            needed: unit[needed]}


def _untouched(unit: dict) -> dict:
    if unit["category"] == "vehicle":
        return {"losses": 0, "damage_state": "fresh", "crew_loss_pct": 0, "crew_lost": 0}
    return {"losses": 0, "loss_pct": 0, "out_of_action": 0, "killed_min": 0, "killed": 0, "wounded": 0,
            "minor_points": 0, "headcount_after": unit["headcount"]}


@ruleset.operation("end-battle", EndBattleInput, rolls=True, summary="Aftermath: recovery, casualties, XP, wounds (S5.14).")
def end_battle(data: EndBattleInput, ctx: Context) -> dict:
    state = load_state(data.state)
    _check_side_map("xp", data.xp, state)
    _check_side_map("killed", data.killed, state)
    log = ctx.log
    winner = state["winner"] if data.winner is None else (None if data.winner == "none" else data.winner)
    sides = {}
    for side in SIDES:
        army = state["armies"][side]
        result = getattr(data.results, side) or (
            "status_quo" if winner is None else ("victory" if winner == side else "defeat"))
        xp_default = experience_row(result)["default"]
        log.add("S6.8", "aftermath.result", "Side {side}: {result}, {xp} XP by default.", side=side, result=result,
                xp=xp_default)
        killed = data.killed.get(side, {})
        formation_of: dict[str, dict] = {}
        formations, units = {}, {}
        for f in ordered(state):
            if f["side"] != side:
                continue
            members = [_unit_losses(state, side, uid) for uid in f["unit_ids"]]
            losses = f["losses"] if f["engaged"] else 0
            shared = distribute(losses, winner == side, members, killed,
                                lambda uid, s=side: f"killed.{s}.{uid}", log, f["id"])
            formations[f["id"]] = {"losses": f["losses"], "loss_pct": 100 * f["losses"] // f["strength"],
                                   "recovered": shared["recovered"], "net_losses": shared["net_losses"]}
            for uid in f["unit_ids"]:
                formation_of[uid] = f
                units[uid] = {"formation": f["id"], **shared["units"][uid]}
        for uid in army["units"]:
            if uid not in units:
                units[uid] = {"formation": None, **_untouched(_unit_losses(state, side, uid))}
        for uid, entry in units.items():
            f = formation_of.get(uid)
            gm_xp = data.xp.get(side, {}).get(uid)
            entry["xp"] = gm_xp if gm_xp is not None else (xp_default if f and f["engaged"] else 0)
        abandoned = list(army["abandoned_units"])
        if state["end_reason"] == "rout" and winner is not None and side != winner:
            abandoned += [uid for uid, u in army["units"].items()
                          if u.get("unit_type") == "artillery" and uid not in abandoned]
            if abandoned:
                log.add("S5.14", "aftermath.abandoned", "Side {side} was routed and abandons its guns: {units}.",
                        side=side, units=abandoned)
        characters = {}
        for ch in army["characters"]:
            f = formation_of.get(ch["unit_id"])
            pct = 100 * f["losses"] // f["strength"] if f and f["engaged"] else 0
            wounds = character_wounds(ch["id"], ch["unit_id"], ch.get("armour", 0), pct, ctx.dice, log)
            characters[ch["id"]] = {**wounds, "formation": f["id"] if f else None}
        sides[side] = {"result": result, "xp_default": xp_default, "formations": formations, "units": units,
                       "abandoned_units": abandoned, "characters": characters}
    return {"winner": winner, "end_reason": state["end_reason"], "sides": sides, "state": closed(state, winner)}
