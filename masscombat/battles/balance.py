"""The balance of a battle before it starts: many simulated battles from the GM's choices.

The setup page asks, while the GM picks armies and a map, who is likely to
win (``docs/simulation.md``).  Simulating takes seconds, so it never runs in
the request: :func:`balance` starts a run and answers at once with what is
known.  A run is played in parts (``FIRST_PART`` battles, then twice as many
each time up to ``PART``), each part a job of the task queue or of this
server's worker processes (:mod:`masscombat.battles.simulation_runs`), so
that the page shows the first odds, with their wider interval, after a few
battles, and several workers share the rest.  Every battle has its own seed:
the last figures are exactly those of one ``simulate_battles`` run.

The cache holds everything, under a digest of the ``new-battle`` input and
the simulation's size: the final figures (so the same choices are computed
once), the run being computed (taken with ``cache.add``, atomic, so that a
stampede of identical requests from any server process starts one run) and
each part's records as it comes.  The GM's setup page follows one set-up at
a time: when the GM changes an army or the map, the run of the set-up left
behind is cancelled (its waiting parts dropped, its running ones stopped,
its records deleted), and the workers go to the new one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import pgettext_lazy

from masscombat.battles import simulation_runs
from masscombat.core import explain
from masscombat.core.engines import Job, battle_figures, battle_part

logger = logging.getLogger(__name__)

KIND = "balance"
# Past this many seconds a run still computing is said to be slow (the page keeps polling).
SLOW_SECONDS = 2
# A run's marks outlive a server process that died mid-run by at most this long.
PENDING_SECONDS = 900
RESULT_SECONDS = 24 * 3600
# Each side closes on the enemy and strikes (docs/simulation.md): the spec default orders of most rulesets
# only hold, and random orders wander or withdraw, so neither ends a battle.
POLICY = "engage"
SEED = 0
# The first figures come after this many battles; each part after is twice the one before, up to PART.  A D&D 5e
# demo battle takes most of a second of one core, a HÉROS one more, so the first part is tiny.
FIRST_PART = 2
PART = 20
# Why a run failed, as a code the page turns into a sentence in the reader's language.
REFUSED, UNEXPECTED = simulation_runs.REFUSED, simulation_runs.UNEXPECTED


@dataclass(frozen=True)
class Balance:
    """What the setup page shows: a result, an error, or how far the run has gone."""

    result: dict | None = None
    error: str | None = None
    waited: float = 0.0
    partial: dict | None = None
    """The figures of the battles played so far, while the run goes on."""
    done: int = 0
    """Battles played so far (those of the parts still running included), for the progress bar."""
    total: int = 0

    @property
    def ready(self) -> bool:
        return self.result is not None or self.error is not None

    @property
    def slow(self) -> bool:
        return not self.ready and self.waited >= SLOW_SECONDS


def settings_used() -> dict:
    """The simulation's size: small enough for a demo battle's balance to come in a couple of seconds."""
    return {"battles": settings.BALANCE_BATTLES, "round_cap": settings.BALANCE_ROUND_CAP,
            "policy": POLICY}


def digest(slug: str, setup: dict) -> str:
    """The cache key of a set-up: the ruleset, the ``new-battle`` input and the simulation's size."""
    text = json.dumps({"slug": slug, "setup": setup, **settings_used()}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def parts(battles: int) -> list[range]:
    """The battle indices of each part: a tiny first one for the first figures, then doubling up to ``PART``."""
    return simulation_runs.parts(battles, FIRST_PART, PART)


def balance(slug: str, setup: dict, *, page: str | None = None) -> Balance:
    """The balance of ``setup`` if known, else start computing it (once) and say how far it has gone.

    ``page`` names the setup page asking (a GM in a campaign): the run it asked
    for before, if another set-up's, is cancelled.
    """
    key = digest(slug, setup)
    if page is not None:
        _follow(page, key)
    found = cache.get(_result_key(key))
    if found is not None:
        return Balance(result=found.get("result"), error=found.get("error"))
    run = cache.get(_run_key(key))
    if run is None:
        run = _start(key, slug, setup)
    records, done = _gathered(key, run)
    partial = battle_figures(_job(slug), records) if records else None
    return Balance(waited=max(0.0, time.time() - run["started"]), partial=partial, done=done, total=run["total"])


def _follow(page: str, key: str) -> None:
    """The page now follows ``key``: the run it followed before is cancelled."""
    before = cache.get(_page_key(page))
    if before != key:
        cache.set(_page_key(page), key, PENDING_SECONDS)
        if before is not None:
            cancel(before)


def cancel(key: str) -> None:
    """Stop the run of set-up ``key`` and forget its parts (its final figures, if any, are kept)."""
    run = cache.get(_run_key(key))
    if run is None:
        return
    cache.delete(_run_key(key))  # its parts stop at their next look
    simulation_runs.cancel(_run_name(key, run["token"]), run.get("jobs") or [])
    cache.delete_many(_part_keys(key, run))


def _start(key: str, slug: str, setup: dict) -> dict:
    used = settings_used()
    sizes = parts(used["battles"])
    run = {"token": secrets.token_hex(8), "started": time.time(), "slug": slug, "parts": len(sizes),
           "total": used["battles"], "jobs": []}
    if not cache.add(_run_key(key), run, PENDING_SECONDS):
        return cache.get(_run_key(key)) or run  # another request started it
    payloads = [{"slug": slug, "setup": setup, "seed": SEED, "policy": used["policy"], "round_cap": used["round_cap"],
                 "start": part.start, "stop": part.stop} for part in sizes]
    jobs = simulation_runs.submit(KIND, _run_name(key, run["token"]), payloads)
    if jobs and _current(key, run["token"]):
        run = {**run, "jobs": jobs}
        cache.set(_run_key(key), run, PENDING_SECONDS)
    return run


def _gathered(key: str, run: dict) -> tuple[list[dict], int]:
    """The records of the parts done, and how many battles are played (running parts' progress included)."""
    found = cache.get_many(_part_keys(key, run))
    records, done = [], 0
    for index in range(run["parts"]):
        part = found.get(_piece(key, run["token"], "part", index))
        if part is not None:
            records.extend(part)
            done += len(part)
        else:
            done += found.get(_piece(key, run["token"], "done", index)) or 0
    return records, done


def _job(slug: str) -> Job:
    used = settings_used()
    return Job(slug, SEED, used["policy"], used["round_cap"], 3)


def _current(key: str, token: str) -> bool:
    run = cache.get(_run_key(key))
    return run is not None and run["token"] == token


class _Parts:
    """The balance's parts for :mod:`masscombat.battles.simulation_runs`: a run is named ``<digest>:<token>``."""

    function = staticmethod(battle_part)

    def wanted(self, run: str) -> bool:
        return _current(*run.split(":"))

    def arguments(self, run: str, payload: dict) -> dict:
        return {"slug": payload["slug"], "setup": payload["setup"], "seed": payload["seed"],
                "policy": payload["policy"], "round_cap": payload["round_cap"],
                "indices": range(payload["start"], payload["stop"])}

    def progressed(self, run: str, index: int, done: int) -> None:
        key, token = run.split(":")
        cache.set(_piece(key, token, "done", index), done, PENDING_SECONDS)

    def finished(self, run: str, index: int, records: list[dict]) -> None:
        """Keep the part's records; the part that finds every part in writes the final figures."""
        key, token = run.split(":")
        found = cache.get(_run_key(key))
        if found is None or found["token"] != token:
            return
        cache.set(_piece(key, token, "part", index), records, PENDING_SECONDS)
        everything, _done = _gathered(key, found)
        if len(everything) == found["total"]:
            cache.set(_result_key(key), {"result": battle_figures(_job(found["slug"]), everything)}, RESULT_SECONDS)
            cancel(key)

    def failed(self, run: str, code: str) -> None:
        """A refused set-up is kept as refused (not run again and again); a lost part is said briefly, and a
        later request tries again."""
        key, token = run.split(":")
        if _current(key, token):
            cache.set(_result_key(key), {"error": code}, RESULT_SECONDS if code == REFUSED else 30)
            cancel(key)


simulation_runs.register(KIND, _Parts())


def _run_name(key: str, token: str) -> str:
    return f"{key}:{token}"


def _result_key(key: str) -> str:
    return f"balance:{key}"


def _run_key(key: str) -> str:
    return f"balance:{key}:run"


def _page_key(page: str) -> str:
    return f"balance:page:{page}"


def _piece(key: str, token: str, what: str, index: int) -> str:
    """Where part ``index`` of a run keeps its records (``part``) or how many battles it has played (``done``)."""
    return f"balance:{key}:{token}:{what}:{index}"


def _part_keys(key: str, run: dict) -> list[str]:
    return [_piece(key, run["token"], what, index) for index in range(run["parts"]) for what in ("part", "done")]


# What becomes of a unit (rules.simulate_units.STATES) and what its figure counts, said of any unit.
STATE_WORDS = {"fighting": pgettext_lazy("unit state", "still fighting"),
               "broken": pgettext_lazy("unit state", "morale broken"),
               "routed": pgettext_lazy("unit state", "in flight"),
               "destroyed": pgettext_lazy("unit state", "destroyed"),
               "out": pgettext_lazy("unit state", "out of the battle")}
MEASURE_WORDS = {"hit_points": pgettext_lazy("unit figure", "hit points"),
                 "morale_points": pgettext_lazy("unit figure", "morale points"),
                 "strength_points": pgettext_lazy("unit figure", "strength"),
                 "rounds_won": pgettext_lazy("unit figure", "rounds won")}


def figures(found: Balance, names: dict[str, str]) -> dict | None:
    """The result in whole percents for the page: each side's wins with the 95 % interval's half-width,
    the draws and battles still running at the round cap, the length of the finished battles, and what
    becomes of each unit by the end."""
    result = found.result or found.partial
    if result is None:
        return None
    wins = [{"side": names.get(side, side), "percent": percent(rate),
             "margin": percent((result["intervals"]["wins"][side]["high"] - result["intervals"]["wins"][side]["low"]) / 2)}
            for side, rate in result["wins"].items()]
    rounds = result["rounds"]
    return {"wins": wins, "draws": percent(result["draws"]), "unfinished": percent(result["unfinished"]),
            "errors": percent(result["errors"]), "battles": result["battles"], "round_cap": result["round_cap"],
            "rounds_low": rounds.get("p10"), "rounds_high": rounds.get("p90"), "total": settings.BALANCE_BATTLES,
            "final": found.result is not None, "done": found.done, "units": units_at_the_end(result, names)}


def units_at_the_end(result: dict, sides: dict[str, str]) -> list[dict]:
    """Per unit, by side: how its battles leave it (the shares of each state, most telling first) and its
    figure at the end, where the ruleset gives one.  Units are named by the engine's names for the GM; none
    is shown before those names are known (never an id)."""
    if not result.get("names"):
        return []
    named = explain.names(result["ruleset"], result["names"])
    measure = MEASURE_WORDS.get(result.get("unit_measure"), "")
    rows = []
    for uid, entry in (result.get("units") or {}).items():
        if uid not in named:
            continue
        end = entry.get("end")
        side = sides.get(entry["side"], named.get(entry["side"], ""))
        rows.append({"name": named[uid], "side": "" if side == named[uid] else side,
                     "states": state_shares(entry["states"]), "measure": measure,
                     "start": end and entry["start"]["median"], "end": end})
    return rows


def state_shares(states: dict[str, float]) -> list[dict]:
    """``[{word, percent}]``: the states a unit ends in, the likeliest first, in the reader's language."""
    ordered = sorted(states.items(), key=lambda item: -item[1])
    return [{"word": STATE_WORDS.get(word, word), "percent": percent(rate)} for word, rate in ordered if rate]


def percent(rate: float | None) -> int | None:
    """A share as a whole percent for the page."""
    return None if rate is None else round(rate * 100)
