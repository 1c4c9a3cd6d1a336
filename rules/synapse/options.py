"""``declaration-options``: what a participant may declare now, and why the rest is forbidden.

Built on the very checks ``resolve-round`` applies (:mod:`rules.synapse.declarations`),
so a declaration made only of allowed values is always accepted.  The other
side's declarations are secret: where a target's legality depends on them (an
enemy melee reserve that may enter this round), the option errs on the safe side.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.declarations import (
    SIDES, allowed_actions, commits_reserve, target_problem, uncommitted_reserve,
)
from rules.synapse.entities import MOD
from rules.synapse.state import is_present, load_state, ordered

DISTANCES = ["short", "medium", "long", "very_long"]


def option(path: str, label: str, type_: str, default: Any, *, allowed: list | None = None, required: bool = False,
           forbidden: list | None = None, **extra: Any) -> dict:
    entry = {"path": path, "label": label, "type": type_}
    if allowed is not None:
        entry["allowed"] = allowed
    entry.update(extra)
    entry.update(default=default, required=required, forbidden=forbidden or [])
    return entry


def forbid(value: Any, reason: str, rule: str) -> dict:
    return {"value": value, "reason": reason, "rule": rule}


def can_act(state: dict, f: dict) -> bool:
    """Present formations act; a reserve acts only when it is sure to enter this round (auto commitment)."""
    return is_present(f) or (f["status"] == "reserve" and commits_reserve(state, f["side"], False))


def formation_options(state: dict, f: dict) -> list[dict]:
    """The order of one formation: its action, and its target when it attacks (S5.3)."""
    side = f["side"]
    base = f"sides.{side}.orders.{f['id']}"
    targets, refused = [], []
    for t in ordered(state):
        if t["side"] == side or not (is_present(t) or t["status"] in ("fled", "destroyed", "withdrawn")):
            continue  # an enemy reserve is secret: it is neither offered nor named
        problem = target_problem(state, f, t["id"], None)
        if problem:
            refused.append(forbid(t["id"], problem[0], problem[1]))
        else:
            targets.append(t["id"])
    actions, forbidden = [], []
    for action, problem in allowed_actions(state, f).items():
        if problem is None and action == "attack" and not targets:
            problem = ("no enemy formation may be attacked now", "S5.3")
        if problem:
            forbidden.append(forbid(action, problem[0], problem[1]))
        else:
            actions.append(action)
    entries = [option(f"{base}.action", f"Order of {f['id']}", "choice", "hold", allowed=actions, forbidden=forbidden)]
    if "attack" in actions:
        entries.append(option(f"{base}.target", f"Target of {f['id']} (when it attacks)", "choice", targets[0],
                              allowed=targets, forbidden=refused))
    return entries


def side_options(state: dict, side: str) -> list[dict]:
    vehicles = state["mode"] == "vehicles"
    base = f"sides.{side}"
    entries = []
    if vehicles:
        entries.append(option(f"{base}.retreat", "Withdraw the whole army", "boolean", False, allowed=[False],
                              forbidden=[forbid(True, "no army retreat in a vehicle battle", "S5.3")]))
    else:
        entries.append(option(f"{base}.retreat", "Withdraw the whole army", "boolean", False, allowed=[False, True]))
    if uncommitted_reserve(state, side):
        entries.append(option(f"{base}.commit_reserve", "Commit the reserve", "boolean", False, allowed=[False, True]))
    else:
        entries.append(option(f"{base}.commit_reserve", "Commit the reserve", "boolean", False, allowed=[False],
                              forbidden=[forbid(True, "the side has no uncommitted reserve", "S5.4")]))
    own = [f for f in ordered(state) if f["side"] == side]
    routed = [f["id"] for f in own if f["status"] == "routed"]
    if vehicles:
        entries.append(option(f"{base}.rally", "Formations that try to rally", "list", [], allowed=[],
                              forbidden=[forbid(fid, "no rally in a vehicle battle", "H26") for fid in routed]))
    else:
        entries.append(option(f"{base}.rally", "Formations that try to rally", "list", [], allowed=routed,
                              forbidden=[forbid(f["id"], "only a routed formation rallies", "S5.7")
                                         for f in own if is_present(f) and f["status"] != "routed"]))
    for f in own:
        if can_act(state, f):
            entries += formation_options(state, f)
    return entries


def gm_options(state: dict) -> list[dict]:
    formations = [f["id"] for f in ordered(state)]
    present = [f["id"] for f in ordered(state) if is_present(f)]
    routed = [f["id"] for f in ordered(state) if f["status"] == "routed"]
    entries = [
        option("gm.new_command_test", "Call a new command test", "boolean", False, allowed=[False, True]),
        option("gm.end_battle", "End the battle", "boolean", False, allowed=[False, True]),
        option("gm.weather.visibility", "Visibility", "choice", state["weather"]["visibility"],
               allowed=["good", "poor", "very_poor"]),
    ]
    for name in ("strong_wind", "extreme_temperature", "gruelling_climate"):
        entries.append(option(f"gm.weather.{name}", name.replace("_", " ").capitalize(), "boolean",
                              state["weather"][name], allowed=[False, True]))
    entries += [
        option("gm.engagement_distance", "Engagement distance", "choice", state["engagement_distance"],
               allowed=DISTANCES),
        option("gm.mobility_edge", "Side with the more mobile troops", "choice", state["mobility_edge"] or "none",
               allowed=["A", "B", "none"]),
        option("gm.numbers_advantage_allowed", "Numerical advantage allowed", "boolean",
               state["numbers_advantage_allowed"], allowed=[False, True]),
        option("gm.surprise_allowed", "Surprise allowed", "boolean", state["surprise_allowed"], allowed=[False, True]),
        option("gm.encircled", "Encircled formations", "list", [], allowed=present),
    ]
    for side in SIDES:
        entries.append(option(f"gm.command_modifiers.{side}", f"Command test modifier of side {side}", "integer", 0,
                              min=-20, max=20))
    for fid in routed:
        entries.append(option(f"gm.rally_modifiers.{fid}", f"Rally modifier of {fid}", "integer", 0, min=-MOD, max=MOD))
    for fid in formations:
        base = f"gm.formation_modifiers.{fid}"
        for name in ("attack", "defence", "ranged_cover"):
            entries.append(option(f"{base}.{name}", f"{name.replace('_', ' ').capitalize()} modifier of {fid}",
                                  "integer", 0, min=-MOD, max=MOD))
        entries.append(option(f"{base}.distance", f"Distance of {fid}'s shots", "choice", None, allowed=DISTANCES))
        entries.append(option(f"{base}.attack_power_factor", f"Firepower of {fid} against its target", "choice",
                              "full", allowed=["full", "half", "none"]))
    return entries


class Participant(Input):
    """``side`` (or its ``commander``: the same orders) A/B, a ``formation``, the ``gm``, or a
    ``character``, who declares nothing in mass combat (S1.3)."""

    kind: Literal["side", "commander", "formation", "gm", "character"]
    id: str = Field(max_length=80)


class OptionsInput(Input):
    state: dict
    participant: Participant


@ruleset.operation("declaration-options", OptionsInput, summary="What a participant may declare this round, and why not the rest (S5.3).")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    state = load_state(data.state)
    p = data.participant
    ongoing = state["status"] == "ongoing"
    if p.kind in ("side", "commander") and p.id not in SIDES:
        raise InvalidInput.field("participant.id", "a side is A or B")
    if p.kind == "formation" and p.id not in state["formations"]:
        raise InvalidInput.field("participant.id", f"no formation {p.id!r}")
    characters = {c["id"] for army in state["armies"].values() for c in army["characters"]}
    if p.kind == "character" and p.id not in characters:
        raise InvalidInput.field("participant.id", f"no character {p.id!r}")
    options: list[dict] = []
    must = False
    if ongoing and p.kind == "gm":
        options = gm_options(state)
    elif ongoing and p.kind in ("side", "commander"):
        options = side_options(state, p.id)
        must = any(can_act(state, f) for f in state["formations"].values() if f["side"] == p.id)
    elif ongoing and p.kind == "formation":
        f = state["formations"][p.id]
        if can_act(state, f):
            options = formation_options(state, f)
            must = True
    ctx.log.add("S5.3", "options.listed", "{count} declaration option(s) for {kind} {id} in round {round}.",
                count=len(options), kind=p.kind, id=p.id, round=state["round"] + 1)
    return {"participant": p.model_dump(), "round": state["round"] + 1,
            "phase": "declarations" if ongoing else "over", "must_declare": must, "options": options}
