"""Playing one simulated battle, or one resolution of the current round, and recording what happened.

Each record is plain JSON-ready data, computed from the battle's own seed
only, so that battles can be played in any order, in any process, and summed
up afterwards (``rules.simulate``) into the same figures.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.errors import InvalidInput
from rules.simulate_engine import Engine, derive_seed
from rules.simulate_policy import Chooser, Picker
from rules.simulate_units import units


GONE = (None, None, "out")
"""A unit the state no longer holds: out of the battle, with no figure."""


class Cancelled(Exception):
    """The caller's ``cancel`` said stop: what was being played is dropped (a superseded run)."""


@dataclass(frozen=True)
class Job:
    """What every battle of one simulation shares: picklable, so that worker processes receive it whole."""

    slug: str
    seed: int
    policy: str | dict[str, str]
    round_cap: int
    candidates: int
    setup: dict | None = None
    state: dict | None = None
    fixed: dict = field(default_factory=dict)

    def chooser(self, battle_seed: int) -> Chooser:
        return Chooser(Engine(self.slug), self.policy, Picker(derive_seed(battle_seed, "policy")),
                       candidates=self.candidates)


def numbers(strength: dict) -> dict[str, float]:
    """A state's ``strength`` with only its numeric figures (what can be summed up)."""
    return {side: value for side, value in (strength or {}).items()
            if isinstance(value, int | float) and not isinstance(value, bool)}


def result_of(outcome: dict) -> tuple[str, str | None]:
    """``("win", side)``, ``("draw", None)`` (over without a winner, ties included) or ``("unfinished", None)``."""
    if not outcome.get("over"):
        return "unfinished", None
    if outcome.get("winner") is not None:
        return "win", outcome["winner"]
    return "draw", None


def play_battle(job: Job, index: int, cancel: Callable[[], bool] | None = None) -> dict:
    """Battle ``index`` of the job, played until it is over or ``round_cap`` rounds have been resolved.

    An engine refusing what the contract says it accepts (a checked answer
    failing ``resolve-round``) ends that battle as an ``error``, with the
    engine's sentence, so that the figures of the others stay honest and the
    fault stays visible.  ``cancel`` is asked before each round (a HÉROS
    battle takes seconds): :class:`Cancelled` when it says stop.  The record
    keeps each unit's strength at the start and at the end, and its state at
    the end (``rules.simulate_units``); battle 0's, the names the GM's view
    gives the units.
    """
    engine = Engine(job.slug)
    battle_seed = derive_seed(job.seed, "battle", index)
    chooser = job.chooser(battle_seed)
    record: dict = {"index": index, "seed": battle_seed, "rounds": 0, "strength": []}
    try:
        if job.state is not None:
            state = copy.deepcopy(job.state)
        else:
            state = engine.new_battle(copy.deepcopy(job.setup), derive_seed(battle_seed, "setup"))
        record["strength"].append(numbers(state.get("strength")))
        first = units(job.slug, state)
        if index == 0:  # the names of the units, for the figures' readers: once per simulation is enough
            record["names"] = engine.names(state)
        while not state["outcome"]["over"] and record["rounds"] < job.round_cap:
            if cancel is not None and cancel():
                raise Cancelled
            number = record["rounds"] + 1
            participants = engine.participants(state)
            answers = chooser.answers(state, participants, {}, derive_seed(battle_seed, "look-ahead", number))
            state = engine.resolve(state, engine.merge(state, answers), derive_seed(battle_seed, "round", number))["state"]
            record["rounds"] = number
            record["strength"].append(numbers(state.get("strength")))
    except InvalidInput as refusal:
        record.update(result="error", winner=None, error=refusal.error)
        return record
    record["result"], record["winner"] = result_of(state["outcome"])
    last = units(job.slug, state)
    record["units"] = {uid: [side, start, *last.get(uid, GONE)[1:]] for uid, (side, start, _) in first.items()}
    return record


@dataclass(frozen=True)
class RoundStart:
    """What every resolution of one round preview starts from, asked of the engine once."""

    round: int | None
    participants: list[dict]
    names: dict[str, str]
    units: dict

    @classmethod
    def of(cls, engine: Engine, state: dict) -> RoundStart:
        asked = engine.round_participants(state)
        return cls(asked.get("round"), asked["participants"], engine.visible_names(state), units(engine.slug, state))


def play_round(job: Job, index: int, start: RoundStart) -> dict:
    """Resolution ``index`` of the job's current round: the fixed answers, the others by the policy.

    Recorded: how the battle stands after it, each side's strength change, the
    ids the GM's view of the state no longer names (what the contract shows of
    a unit leaving the field), the participants who no longer declare in the
    next round, and each unit's strength change and state after the round
    (``rules.simulate_units``).
    """
    engine = Engine(job.slug)
    state = job.state
    resolution_seed = derive_seed(job.seed, "resolution", index)
    chooser = job.chooser(resolution_seed)
    answers = chooser.answers(state, start.participants, job.fixed, derive_seed(resolution_seed, "look-ahead"))
    try:
        after = engine.resolve(state, engine.merge(state, answers), derive_seed(resolution_seed, "round"))["state"]
        still = engine.participants(after)
        names = engine.visible_names(after)
    except InvalidInput as refusal:
        return {"index": index, "result": "error", "winner": None, "error": refusal.error}
    before, end = numbers(state.get("strength")), numbers(after.get("strength"))
    result, winner = result_of(after["outcome"])
    now = units(job.slug, after)
    return {
        "index": index,
        "result": result,
        "winner": winner,
        "change": {side: end.get(side, 0) - value for side, value in before.items()},
        "gone": sorted(set(start.names) - set(names)),
        "silenced": sorted({p["key"] for p in start.participants} - {p["key"] for p in still}),
        "units": {uid: [side, _change(strength, now.get(uid, GONE)[1]), now.get(uid, GONE)[2]]
                  for uid, (side, strength, _) in start.units.items()},
    }


def _change(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before
