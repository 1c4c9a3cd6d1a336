"""``visible-round``: what one viewer may read of a resolved round (S11.2).

The GM reads everything.  A side reads the events, its own formations' log
steps in full, and of the rest what S11.2 shows both sides: the command
test's outcome, the enemy formations' status and damage state, hits and
misses, the battle's end, never the enemy's numbers (scores, powers, exact
losses, thresholds).  A step about an enemy formation is kept in a shape
without numbers (its key ending ``.seen``) or left out when nothing would
remain; the enemy's dice are left out; a formation still hidden in the
enemy's reserve is never mentioned (with ``before``, a reserve that left
without being committed stays unknown).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from rules.contract import GM, PUBLIC as PUBLIC_VIEWER, Viewer
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.messages import MESSAGES
from rules.synapse.names import name_keys_for, names_for
from rules.synapse.state import StateIn, load_state
from rules.synapse.visibility import check_viewer, mask, mask_public

# Steps anyone may read once the round is resolved (the GM's changes show through their effects, S5.3).
PUBLIC = {"gm.weather", "gm.change", "battle.over", "retreat.both", "numbers.not_allowed", "defaults.applied"}
# Steps about the enemy, without their numbers: the params kept (the sentence is the ``.seen`` key's).
SEEN = {
    "command.result": ("initiative", "surprised"), "retreat.army": ("side", "outcome"), "rally.result": ("formation",),
    "retreat.vehicle": ("unit", "outcome"), "numbers.band": ("band",), "reserve.committed": ("side", "formations"),
    "attack.failed": ("attack",), "attack.cap": ("attack",), "attack.friendly_fire": ("attack", "formation"),
    "state.change": ("formation", "state"), "status.routed": ("formation",),
}
# Steps whose numbers are both sides' (scores, powers): a side reads them without numbers.
BOTH_SIDES = {"command.result", "numbers.band"}
# Steps that say nothing once their numbers are gone.
NUMBERS_ONLY = {"attack.power", "attack.score", "attack.difficulty", "attack.losses", "attack.pursuit_halved"}


Entry = Annotated[dict[Annotated[str, Field(max_length=80)], Any], Field(max_length=40)]


class ResolvedRound(Input):
    """A ``resolve-round`` output (the fields read), with ``before``, the state the round started from."""

    state: StateIn
    before: StateIn | None = None
    results: Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(max_length=2000)] = {}
    events: list[Entry] = Field(default_factory=list, max_length=2000)
    log: list[Entry] = Field(default_factory=list, max_length=20000)
    dice: Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(max_length=2000)] = {}
    defaults_applied: list[Annotated[str, Field(max_length=120)]] = Field(default_factory=list, max_length=10)


class VisibleRoundInput(Input):
    round: ResolvedRound
    viewer: Viewer


def concerned(params: dict, results: dict) -> set[str]:
    """The formations a step or event is about: named, or the two ends of the attack it names."""
    found = set()
    for name in ("formation", "unit", "target"):
        if isinstance(params.get(name), str):
            found.add(params[name])
    if isinstance(params.get("formations"), list):
        found |= {f for f in params["formations"] if isinstance(f, str)}
    for name in ("attack", "key"):
        result = results.get(params.get(name)) if isinstance(params.get(name), str) else None
        if isinstance(result, dict):
            found |= {result.get("attacker"), result.get("target"), result.get("friendly_fire_target")} - {None}
    return found


def dice_owner(name: str) -> str:
    """The formation (or side) a named die belongs to: ``attack:A.melee`` -> ``A.melee``,
    ``retreat_oppose:A.x:B.y`` -> ``B.y``, ``command:A`` -> ``A``."""
    return name.split(":")[-1]


class Reader:
    """What side ``viewer`` may read of one round."""

    def __init__(self, viewer: str, after: dict, before: dict | None, round_: ResolvedRound):
        self.viewer = viewer
        self.results = round_.results
        self.side_of = {fid: f["side"] for fid, f in after["formations"].items()}
        committed = {fid for event in round_.events if event.get("type") == "reserve_committed"
                     for fid in event.get("formations") or [] if isinstance(fid, str)}
        start = before if before is not None else after
        self.hidden = {fid for fid, f in start["formations"].items()
                       if f["side"] != viewer and f["status"] == "reserve" and fid not in committed}

    def own(self, fid: str) -> bool:
        return self.side_of.get(fid, fid[:1]) == self.viewer

    def step(self, step: dict) -> dict | None:
        key, params = step.get("key"), step.get("params") or {}
        if not isinstance(params, dict):
            return None
        about = concerned(params, self.results)
        side = params.get("side")
        if about & self.hidden or (key == "reserve.auto" and side != self.viewer):
            return None  # it would tell of a reserve the enemy keeps hidden
        if key in PUBLIC or (key not in BOTH_SIDES and all(self.own(f) for f in about)
                             and side in (None, self.viewer)):
            return step
        if key in NUMBERS_ONLY:
            return None
        if key in SEEN:
            shown = {name: params.get(name) for name in SEEN[key]}
            seen = f"{key}.seen"
            return {"rule": step.get("rule"), "key": seen, "params": shown, "text": MESSAGES[seen]["en"].format(**shown)}
        return step

    def event(self, event: dict) -> dict | None:
        about = concerned(event, self.results)
        if about & self.hidden:
            return None
        if event.get("type") in ("attack", "friendly_fire"):
            victim = event.get("formation")
            if not isinstance(victim, str):
                result = self.results.get(event["key"]) if isinstance(event.get("key"), str) else None
                victim = result.get("target") if isinstance(result, dict) else None
            if not isinstance(victim, str) or not self.own(victim):
                return {k: v for k, v in event.items() if k != "losses"}  # the enemy's exact losses stay secret
        return event


@ruleset.operation("visible-round", VisibleRoundInput, summary="What one viewer may read of a resolved round (S11.2).")
def visible_round(data: VisibleRoundInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer, public=True)
    round_ = data.round
    after = load_state(round_.state, "round.state")
    before = load_state(round_.before, "round.before") if round_.before is not None else None
    events, log, dice, applied = round_.events, round_.log, round_.dice, round_.defaults_applied
    if viewer == GM:
        seen = after
    else:
        reader = Reader(viewer, after, before, round_)
        events = [e for e in map(reader.event, events) if e is not None]
        log = [s for s in map(reader.step, log) if s is not None]
        dice = {name: value for name, value in dice.items() if reader.own(dice_owner(name))}
        seen = (mask_public(after) if viewer == PUBLIC_VIEWER else mask(after, viewer))[0]
    ctx.log.extend(log)  # the output's log is the round's, as this viewer may read it
    return {"events": events, "dice": dice, "defaults_applied": applied, "names": names_for(seen),
            "name_keys": name_keys_for(seen)}
