"""Odds before the dice: many simulated battles, or many resolutions of the round being declared.

Two questions a game master asks before rolling anything:

* :func:`simulate_battles`: "with these armies, who wins, how often, in how
  many rounds?"  N whole battles from a ``new-battle`` input (or from a state),
  each side's participants answering by a policy (``rules.simulate_policy``).
* :func:`preview_round`: "with the orders declared so far, what is this round
  likely to do?"  N resolutions of the current round, the participants still
  silent answering by the policy.

Both only ask the battle room contract (``docs/battle-contract.md``) through
``Ruleset.run``, so they work the same for every ruleset.  Each battle (or
resolution) has its own seed, derived from the base seed and its index: the
figures are the same whatever the number of worker processes.  A preview reads
the GM's full state, so it is for the GM's eyes only (``docs/simulation.md``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context

from rules import registry
from rules.dice import is_int
from rules.errors import InvalidInput
from rules.simulate_engine import Engine, derive_seed
from rules.simulate_play import Cancelled, Job, RoundStart, numbers, play_battle, play_round
from rules.simulate_policy import POLICIES
from rules.simulate_stats import distribution, histogram, spread, wilson
from rules.simulate_units import MEASURES, STATES

ROUND_CAP = 60
MAX_ROUND_CAP = 1000
MAX_BATTLES = 100_000
MAX_WORKERS = 64
MAX_CANDIDATES = 10
ERRORS_SHOWN = 5


def simulate_battles(slug: str, *, setup: dict | None = None, state: dict | None = None, battles: int = 100,
                     seed: int = 0, policy: str | dict[str, str] = "default", workers: int = 1,
                     round_cap: int = ROUND_CAP, candidates: int = 3) -> dict:
    """Play ``battles`` whole battles from ``setup`` (a ``new-battle`` input) or from ``state``.

    ``policy`` is ``default``, ``random`` or ``greedy`` for every side, or
    ``{side: policy}`` (``"*"`` for the others); ``candidates`` bounds the
    greedy look-ahead.  A battle still running after ``round_cap`` rounds is
    *unfinished*, counted apart.  Raises :class:`InvalidInput` for bad
    settings or a setup or state the engine refuses, before any battle runs.
    """
    _check_settings(battles=battles, seed=seed, policy=policy, workers=workers, round_cap=round_cap,
                    candidates=candidates)
    job = battle_job(slug, setup=setup, state=state, seed=seed, policy=policy, round_cap=round_cap,
                     candidates=candidates)
    return battle_figures(job, _run_all(job, battles, workers), workers)


def battle_job(slug: str, *, setup: dict | None = None, state: dict | None = None, seed: int = 0,
               policy: str | dict[str, str] = "default", round_cap: int = ROUND_CAP, candidates: int = 3) -> Job:
    """The job every battle of a simulation shares, once the engine has taken the setup or state.

    Public so that a caller may play the battles in parts (:func:`play_battles`,
    the balance's first figures before the last battle) and still get the very
    figures :func:`simulate_battles` gives (:func:`battle_figures`).
    """
    _check_settings(battles=1, seed=seed, policy=policy, workers=1, round_cap=round_cap, candidates=candidates)
    if (setup is None) == (state is None):
        raise InvalidInput("Give either a new-battle input or a state.", {"setup": "give exactly one of setup, state"})
    engine = Engine(slug)
    if setup is not None:
        if not isinstance(setup, dict):
            raise InvalidInput.field("setup", "must be an object")
        engine.check_input(setup)
        engine.new_battle(copy.deepcopy(setup), derive_seed(derive_seed(seed, "battle", 0), "setup"))
    else:
        _check_state(engine, state)
    return Job(slug, seed, policy, round_cap, candidates, setup=copy.deepcopy(setup), state=copy.deepcopy(state))


def play_battles(job: Job, indices: range, *, progress: Callable[[int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> list[dict]:
    """The records of the job's battles ``indices`` (each from its own seed: any part, in any process).

    ``progress`` receives how many of them are done after each one; ``cancel``
    is asked before each round: :class:`Cancelled` when it says stop.
    """
    records = []
    for index in indices:
        records.append(play_battle(job, index, cancel))
        if progress is not None:
            progress(len(records))
    return records


def battle_part(slug: str, setup: dict, *, seed: int, policy: str | dict[str, str], round_cap: int,
                indices: range, progress: Callable[[int], None] | None = None,
                cancel: Callable[[], bool] | None = None) -> list[dict]:
    """The records of battles ``indices`` of the simulation of ``setup``: one part, for a worker process."""
    job = battle_job(slug, setup=setup, seed=seed, policy=policy, round_cap=round_cap)
    return play_battles(job, indices, progress=progress, cancel=cancel)


def battle_figures(job: Job, records: list[dict], workers: int = 1) -> dict:
    """What :func:`simulate_battles` answers for these records, whatever order the parts came back in."""
    ordered = sorted(records, key=lambda record: record["index"])
    return {"ruleset": job.slug, "policy": job.policy, "seed": job.seed, "round_cap": job.round_cap,
            "workers": workers, "unit_measure": MEASURES.get(job.slug), **summarize_battles(ordered)}


def preview_round(slug: str, state: dict, declarations_so_far: dict[str, dict] | None = None, n: int = 1000,
                  policy: str | dict[str, str] = "default", seed: int = 0, *,
                  progress: Callable[[float], None] | None = None, cancel: Callable[[], bool] | None = None,
                  candidates: int = 3) -> dict:
    """``n`` resolutions of the current round of ``state`` (the GM's full state, never a side's view).

    ``declarations_so_far`` (``{participant key: answer}``) are kept as given;
    every other side participant answers by ``policy``, the GM stays silent
    unless given.  ``progress`` receives the fraction done after each
    resolution; ``cancel``, asked before each one, stops the preview early when
    it returns true (the figures then cover the resolutions done, and
    ``cancelled`` says so).  The input state is never changed.
    """
    _check_settings(battles=n, seed=seed, policy=policy, workers=1, round_cap=1, candidates=candidates)
    job, start = _round_job(slug, state, declarations_so_far, seed=seed, policy=policy, candidates=candidates)
    records = []
    for index in range(n):
        if cancel is not None and cancel():
            break
        records.append(play_round(job, index, start))
        if progress is not None:
            progress((index + 1) / n)
    return round_figures(slug, records, round=start.round, requested=n, policy=policy, seed=seed,
                         sides=list(numbers(job.state.get("strength"))))


def round_part(slug: str, state: dict, declarations_so_far: dict[str, dict] | None, *, seed: int,
               policy: str | dict[str, str], indices: range, progress: Callable[[int], None] | None = None,
               cancel: Callable[[], bool] | None = None) -> list[dict]:
    """The records of resolutions ``indices`` of :func:`preview_round` (same seed, same records): one part of
    a preview, for a worker process.  ``progress`` receives how many are done; :class:`Cancelled` when
    ``cancel``, asked before each, says stop."""
    _check_settings(battles=1, seed=seed, policy=policy, workers=1, round_cap=1, candidates=3)
    job, start = _round_job(slug, state, declarations_so_far, seed=seed, policy=policy, candidates=3)
    records = []
    for index in indices:
        if cancel is not None and cancel():
            raise Cancelled
        records.append(play_round(job, index, start))
        if progress is not None:
            progress(len(records))
    return records


def round_figures(slug: str, records: list[dict], *, round: int | None, requested: int,
                  policy: str | dict[str, str], seed: int, sides: list[str] | None = None) -> dict:
    """What :func:`preview_round` answers for these records, whatever order the parts came back in; ``sides``
    defaults to those the records' strength changes name."""
    ordered = sorted(records, key=lambda record: record["index"])
    if sides is None:
        sides = list(dict.fromkeys(side for record in ordered for side in record.get("change", {})))
    return {"ruleset": slug, "policy": policy, "seed": seed, "round": round, "requested": requested,
            "cancelled": len(ordered) < requested, "unit_measure": MEASURES.get(slug),
            **summarize_round(ordered, sides)}


def _round_job(slug: str, state: dict, declarations_so_far, *, seed: int, policy, candidates: int
               ) -> tuple[Job, RoundStart]:
    """The job every resolution of a preview shares, once the engine has taken the state and the answers."""
    engine = Engine(slug)
    state = copy.deepcopy(state)
    _check_state(engine, state)
    if state["outcome"]["over"]:
        raise InvalidInput.field("state", "the battle is over: there is no round to preview")
    fixed = copy.deepcopy(declarations_so_far or {})
    if not isinstance(fixed, dict) or not all(isinstance(answer, dict) for answer in fixed.values()):
        raise InvalidInput.field("declarations", "must be an object of answers by participant key")
    start = RoundStart.of(engine, state)
    known = {participant["key"] for participant in start.participants}
    strangers = {f"declarations.{key}": "no such participant this round" for key in fixed if key not in known}
    if strangers:
        raise InvalidInput("Answers were given for participants this round does not have.", strangers)
    engine.check_input(fixed)
    engine.merge(state, fixed)  # refuses answers that are not the engine's to take, before anything runs
    return Job(slug, seed, policy, 1, candidates, state=state, fixed=fixed), start


# -- settings -------------------------------------------------------------------------------------

def _check_settings(*, battles, seed, policy, workers, round_cap, candidates) -> None:
    fields = {}
    if not is_int(battles) or not 1 <= battles <= MAX_BATTLES:
        fields["battles"] = f"must be an integer from 1 to {MAX_BATTLES}"
    if not is_int(seed) or abs(seed) >= registry.SEED_LIMIT:
        fields["seed"] = "must be an integer of magnitude below 2^63"
    if not is_int(workers) or not 1 <= workers <= MAX_WORKERS:
        fields["workers"] = f"must be an integer from 1 to {MAX_WORKERS}"
    if not is_int(round_cap) or not 1 <= round_cap <= MAX_ROUND_CAP:
        fields["round_cap"] = f"must be an integer from 1 to {MAX_ROUND_CAP}"
    if not is_int(candidates) or not 1 <= candidates <= MAX_CANDIDATES:
        fields["candidates"] = f"must be an integer from 1 to {MAX_CANDIDATES}"
    names = list(policy.values()) if isinstance(policy, dict) else [policy]
    if not names or any(name not in POLICIES for name in names):
        fields["policy"] = f"must be one of {', '.join(POLICIES)} (or an object of them by side)"
    if fields:
        raise InvalidInput("Invalid simulation settings.", fields)


def _check_state(engine: Engine, state) -> None:
    """A state the engine takes (``round-participants`` validates it) and that says how the battle stands."""
    if not isinstance(state, dict):
        raise InvalidInput.field("state", "must be an object")
    engine.check_input(state)
    engine.participants(state)
    if not isinstance(state.get("outcome"), dict) or "over" not in state["outcome"]:
        raise InvalidInput.field("state.outcome", "this field is required (a state returned by the engine)")


# -- running --------------------------------------------------------------------------------------

def _run_all(job: Job, count: int, workers: int) -> list[dict]:
    """Every battle's record, in index order, played here or in ``workers`` spawned processes.

    Spawned rather than forked: a fresh interpreter per worker is safe whatever
    threads the caller runs (the web server's), and the engines are pure, so a
    worker needs nothing but the job.
    """
    if workers == 1 or count == 1:
        return play_battles(job, range(count))
    chunk = max(1, -(-count // (workers * 4)))  # a few chunks a worker, so that a slow one does not hold the rest
    chunks = [range(start, min(start + chunk, count)) for start in range(0, count, chunk)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        return [record for part in pool.map(partial(play_battles, job), chunks) for record in part]


# -- summaries ------------------------------------------------------------------------------------

def summarize_battles(records: list[dict]) -> dict:
    """The figures of a set of battle records (``battles`` counts them all, errors included)."""
    total = len(records)
    sides = _sides(records)
    results = Counter(record["result"] for record in records)
    winners = Counter(record["winner"] for record in records if record["result"] == "win")
    finished = [record["rounds"] for record in records if record["result"] in ("win", "draw")]
    return {
        "battles": total,
        "wins": {side: _rate(winners[side], total) for side in sides},
        "draws": _rate(results["draw"], total),
        "unfinished": _rate(results["unfinished"], total),
        "errors": _rate(results["error"], total),
        "counts": {"wins": {side: winners[side] for side in sides}, "draws": results["draw"],
                   "unfinished": results["unfinished"], "errors": results["error"]},
        "intervals": {"wins": {side: _interval(winners[side], total) for side in sides},
                      "draws": _interval(results["draw"], total),
                      "unfinished": _interval(results["unfinished"], total)},
        "rounds": {**spread(finished), "histogram": histogram(finished)},
        "strength": _strength_by_round(records, sides),
        "units": _units_at_the_end(records),
        "names": next((record["names"] for record in records if "names" in record), None),
        "error_messages": _messages(records),
    }


def summarize_round(records: list[dict], sides: list[str]) -> dict:
    """The figures of a set of round resolutions."""
    total = len(records)
    results = Counter(record["result"] for record in records)
    winners = Counter(record["winner"] for record in records if record["result"] == "win")
    played = [record for record in records if record["result"] != "error"]
    over = results["win"] + results["draw"]
    return {
        "resolutions": total,
        "over": _rate(over, total),
        "wins": {side: _rate(winners[side], total) for side in sides},
        "draws": _rate(results["draw"], total),
        "errors": _rate(results["error"], total),
        "intervals": {"over": _interval(over, total),
                      "wins": {side: _interval(winners[side], total) for side in sides}},
        "change": {side: distribution([record["change"].get(side, 0) for record in played]) for side in sides},
        "gone": _share(played, "gone", total),
        "silenced": _share(played, "silenced", total),
        "units": _units_after_the_round(played),
        "error_messages": _messages(records),
    }


def _sides(records: list[dict]) -> list[str]:
    """The sides in the order the engine gave their strength, then any other winner."""
    sides: list[str] = []
    for record in records:
        for side in [*(record["strength"][0] if record.get("strength") else {}), record.get("winner")]:
            if side is not None and side not in sides:
                sides.append(side)
    return sides


def _strength_by_round(records: list[dict], sides: list[str]) -> list[dict]:
    """Per round (0: the start), each side's strength over the battles that were still being played."""
    longest = max((len(record["strength"]) for record in records), default=0)
    rows = []
    for number in range(longest):
        at = [record["strength"][number] for record in records if len(record["strength"]) > number]
        rows.append({"round": number, "battles": len(at),
                     "sides": {side: spread([row[side] for row in at if side in row]) for side in sides}})
    return rows


def _units_after_the_round(records: list[dict]) -> dict[str, dict]:
    """Per unit (``rules.simulate_units``): its side, its strength change over the resolutions and the share of
    them that leave it in each state."""
    found: dict[str, dict] = {}
    for record in records:
        for uid, (side, change, word) in record.get("units", {}).items():
            entry = found.setdefault(uid, {"side": side, "changes": [], "states": Counter()})
            entry["states"][word] += 1
            if change is not None:
                entry["changes"].append(change)
    return {uid: {"side": entry["side"], "change": distribution(entry["changes"]) if entry["changes"] else None,
                  "states": _rates(entry["states"], len(records))} for uid, entry in found.items()}


def _units_at_the_end(records: list[dict]) -> dict[str, dict]:
    """Per unit: its side, its strength at the start and at the end of the battles played through (median and
    spread), and the share of them it ends in each state."""
    found: dict[str, dict] = {}
    played = [record for record in records if "units" in record]
    for record in played:
        for uid, (side, start, end, word) in record["units"].items():
            entry = found.setdefault(uid, {"side": side, "start": [], "end": [], "states": Counter()})
            entry["states"][word] += 1
            if start is not None and end is not None:
                entry["start"].append(start)
                entry["end"].append(end)
    return {uid: {"side": entry["side"], "start": spread(entry["start"]) if entry["start"] else None,
                  "end": spread(entry["end"]) if entry["end"] else None,
                  "states": _rates(entry["states"], len(played))} for uid, entry in found.items()}


def _rates(counts: Counter, total: int) -> dict[str, float]:
    """Each state's share, in the order of :data:`rules.simulate_units.STATES`, those never reached left out."""
    return {word: count / total for word in STATES if (count := counts[word])}


def _share(records: list[dict], field: str, total: int) -> dict[str, float]:
    counts = Counter(item for record in records for item in record[field])
    return {item: _rate(count, total) for item, count in sorted(counts.items())}


def _messages(records: list[dict]) -> list[str]:
    seen: list[str] = []
    for record in records:
        if record["result"] == "error" and record["error"] not in seen:
            seen.append(record["error"])
    return seen[:ERRORS_SHOWN]


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def _interval(count: int, total: int) -> dict:
    bounds = wilson(count, total)
    return {"low": bounds["low"], "high": bounds["high"]}
