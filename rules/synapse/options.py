"""``declaration-options``: what a participant may declare now, and why the rest is forbidden.

Built on the very checks ``resolve-round`` applies (:mod:`rules.synapse.declarations`),
so a declaration made only of allowed values is always accepted.  The other
side's declarations are secret: where a target's legality depends on them (an
enemy melee reserve that may enter this round), the option errs on the safe side.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rules.contract import Viewer
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.answers import Declared, own_commitment
from rules.synapse.declarations import (
    SIDES, Problem, allowed_actions, commits_reserve, problem, target_problem, uncommitted_reserve,
)
from rules.synapse.entities import MOD
from rules.synapse.messages import MESSAGES
from rules.synapse.names import names_for
from rules.synapse.state import StateIn, is_present, load_state, ordered
from rules.synapse.visibility import seen_by

DISTANCES = ["short", "medium", "long", "very_long"]


def option(path: str, label: tuple[str, dict], type_: str, default: Any, *, allowed: list | None = None,
           required: bool = False, forbidden: list | None = None, **extra: Any) -> dict:
    """One option; ``label`` is its message key and params (the English label is the key's template)."""
    key, params = label
    entry = {"path": path, "label": MESSAGES[key]["en"].format(**params), "label_key": key, "label_params": params,
             "type": type_}
    if allowed is not None:
        entry["allowed"] = allowed
    entry.update(extra)
    entry.update(default=default, required=required, forbidden=forbidden or [])
    return entry


def forbid(value: Any, found: Problem) -> dict:
    return {"value": value, "reason": found.text, "rule": found.rule, "key": found.key, "params": found.params}


def can_act(state: dict, f: dict, commits: bool = False) -> bool:
    """Present formations act; a reserve acts only when it is sure to enter this round: by itself
    (auto commitment) or because ``commits``, its side's own draft, commits it."""
    return is_present(f) or (f["status"] == "reserve" and commits_reserve(state, f["side"], commits))


def formation_options(state: dict, f: dict, name: str) -> list[dict]:
    """The order of one formation: its action, and its target when it attacks (S5.3)."""
    side = f["side"]
    base = f"sides.{side}.orders.{f['id']}"
    targets, refused = [], []
    for t in ordered(state):
        if t["side"] == side or not (is_present(t) or t["status"] in ("fled", "destroyed", "withdrawn")):
            continue  # an enemy reserve is secret: it is neither offered nor named
        found = target_problem(state, f, t["id"], None)
        if found:
            refused.append(forbid(t["id"], found))
        else:
            targets.append(t["id"])
    actions, forbidden = [], []
    for action, found in allowed_actions(state, f).items():
        if found is None and action == "attack" and not targets:
            found = problem("S5.3", "refusal.nothing_to_attack")
        if found:
            forbidden.append(forbid(action, found))
        else:
            actions.append(action)
    label = {"formation": name}
    entries = [option(f"{base}.action", ("label.order", label), "choice", "hold", allowed=actions,
                      forbidden=forbidden)]
    if "attack" in actions:
        entries.append(option(f"{base}.target", ("label.target", label), "choice", targets[0],
                              allowed=targets, forbidden=refused))
    return entries


def side_options(state: dict, side: str, names: dict, commits: bool = False) -> list[dict]:
    vehicles = state["mode"] == "vehicles"
    base = f"sides.{side}"
    entries = []
    if vehicles:
        entries.append(option(f"{base}.retreat", ("label.retreat", {}), "boolean", False, allowed=[False],
                              forbidden=[forbid(True, problem("S5.3", "refusal.no_army_retreat"))]))
    else:
        entries.append(option(f"{base}.retreat", ("label.retreat", {}), "boolean", False, allowed=[False, True]))
    if uncommitted_reserve(state, side):
        entries.append(option(f"{base}.commit_reserve", ("label.commit_reserve", {}), "boolean", False,
                              allowed=[False, True]))
    else:
        entries.append(option(f"{base}.commit_reserve", ("label.commit_reserve", {}), "boolean", False,
                              allowed=[False], forbidden=[forbid(True, problem("S5.4", "refusal.no_reserve"))]))
    own = [f for f in ordered(state) if f["side"] == side]
    routed = [f["id"] for f in own if f["status"] == "routed"]
    if vehicles:
        entries.append(option(f"{base}.rally", ("label.rally", {}), "list", [], allowed=[],
                              forbidden=[forbid(fid, problem("H26", "refusal.no_vehicle_rally")) for fid in routed]))
    else:
        entries.append(option(f"{base}.rally", ("label.rally", {}), "list", [], allowed=routed,
                              forbidden=[forbid(f["id"], problem("S5.7", "refusal.only_routed_rally"))
                                         for f in own if is_present(f) and f["status"] != "routed"]))
    for f in own:
        if can_act(state, f, commits):
            entries += formation_options(state, f, names.get(f["id"], f["id"]))
    return entries


def gm_options(state: dict, names: dict) -> list[dict]:
    formations = [f["id"] for f in ordered(state)]
    present = [f["id"] for f in ordered(state) if is_present(f)]
    routed = [f["id"] for f in ordered(state) if f["status"] == "routed"]
    entries = [
        option("gm.new_command_test", ("label.new_command_test", {}), "boolean", False, allowed=[False, True]),
        option("gm.end_battle", ("label.end_battle", {}), "boolean", False, allowed=[False, True]),
        option("gm.weather.visibility", ("label.visibility", {}), "choice", state["weather"]["visibility"],
               allowed=["good", "poor", "very_poor"]),
    ]
    for name in ("strong_wind", "extreme_temperature", "gruelling_climate"):
        entries.append(option(f"gm.weather.{name}", (f"label.{name}", {}), "boolean", state["weather"][name],
                              allowed=[False, True]))
    entries += [
        option("gm.engagement_distance", ("label.engagement_distance", {}), "choice", state["engagement_distance"],
               allowed=DISTANCES),
        option("gm.mobility_edge", ("label.mobility_edge", {}), "choice", state["mobility_edge"] or "none",
               allowed=["A", "B", "none"]),
        option("gm.numbers_advantage_allowed", ("label.numbers_advantage_allowed", {}), "boolean",
               state["numbers_advantage_allowed"], allowed=[False, True]),
        option("gm.surprise_allowed", ("label.surprise_allowed", {}), "boolean", state["surprise_allowed"],
               allowed=[False, True]),
        option("gm.encircled", ("label.encircled", {}), "list", [], allowed=present),
    ]
    for side in SIDES:
        entries.append(option(f"gm.command_modifiers.{side}", ("label.command_modifier", {"side": side}), "integer",
                              0, min=-20, max=20))
    for fid in routed:
        entries.append(option(f"gm.rally_modifiers.{fid}", ("label.rally_modifier", {"formation": names[fid]}),
                              "integer", 0, min=-MOD, max=MOD))
    for fid in formations:
        base, label = f"gm.formation_modifiers.{fid}", {"formation": names[fid]}
        for name in ("attack", "defence", "ranged_cover"):
            entries.append(option(f"{base}.{name}", (f"label.{name}", label), "integer", 0, min=-MOD, max=MOD))
        entries.append(option(f"{base}.distance", ("label.distance", label), "choice", None, allowed=DISTANCES))
        entries.append(option(f"{base}.attack_power_factor", ("label.attack_power_factor", label), "choice",
                              "full", allowed=["full", "half", "none"]))
    return entries


class Participant(Input):
    """``side`` (or its ``commander``: the same orders) A/B, a ``formation``, the ``gm``, or a
    ``character``, who declares nothing in mass combat (S1.3)."""

    kind: Literal["side", "commander", "formation", "gm", "character"]
    id: str = Field(max_length=80)


class OptionsInput(Input):
    state: StateIn
    participant: Participant
    viewer: Viewer | None = None
    declarations: Declared | None = None


def participant_side(state: dict, p: Participant) -> str | None:
    """The side a participant declares for (``None``: the GM, or a character, who declares nothing)."""
    if p.kind in ("side", "commander"):
        if p.id not in SIDES:
            raise InvalidInput.field("participant.id", "a side is A or B")
        return p.id
    if p.kind == "formation":
        if p.id not in state["formations"]:
            raise InvalidInput.field("participant.id", f"no formation {p.id!r}")
        return state["formations"][p.id]["side"]
    if p.kind == "character":
        for side, army in state["armies"].items():
            if any(c["id"] == p.id for c in army["characters"]):
                return side
        raise InvalidInput.field("participant.id", f"no character {p.id!r}")
    return None


@ruleset.operation("declaration-options", OptionsInput,
                   summary="What a participant may declare this round, and why not the rest (S5.3).")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    full = load_state(data.state)
    p = data.participant
    side = participant_side(full, p)
    state = seen_by(full, data.viewer, side, p.kind == "gm")
    names = names_for(state)
    ongoing = state["status"] == "ongoing"
    options: list[dict] = []
    must = False
    if ongoing and p.kind == "gm":
        options = gm_options(state, names)
    elif ongoing and p.kind in ("side", "commander"):
        commits = own_commitment(data.declarations, side)
        options = side_options(state, side, names, commits)
        must = any(can_act(state, f) for f in state["formations"].values() if f["side"] == side)
    elif ongoing and p.kind == "formation":
        f = state["formations"][p.id]
        if can_act(state, f):
            options = formation_options(state, f, names[p.id])
            must = True
    ctx.log.add("S5.3", "options.listed", "{count} declaration option(s) for {kind} {id} in round {round}.",
                count=len(options), kind=p.kind, id=p.id, round=state["round"] + 1)
    out = {"participant": p.model_dump(), "round": state["round"] + 1,
           "phase": "declarations" if ongoing else "over", "must_declare": must, "options": options}
    out["names"] = names
    if data.viewer is not None:
        out["viewer"] = data.viewer
    return out
