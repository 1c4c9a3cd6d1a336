"""The GM's round preview: what the orders declared so far are likely to do this round.

``round_part`` (``rules.simulate``) resolves the current round many times on
the GM's full state (which holds what the sides may not see), the silent
participants answering by the default policy, as the engine will answer for
them.  The resolutions are played in parts (``FIRST_PART``, then twice as
many each time up to ``PART``), each a job of the task queue or of this
server's worker processes (:mod:`masscombat.battles.simulation_runs`): the
first figures come after a few dozen resolutions and refine as the parts come
in.  Progress and each new set of figures go out as ``preview`` events of the
GM's audience alone (``live.emit(..., audience=GM)``), which the room's
progress bar follows; a side never hears of a preview.

A preview is kept in the cache under the battle, marked with what it was
computed from: the battle's ``version`` (a resolution, an undo, a placement
bumps it), its round, and a digest of the declarations made so far (a
declaration does not bump the version).  Whenever the battle moves on
(:data:`masscombat.battles.live.committed`, any event but the preview's own)
or the page finds the mark no longer matching, the preview is dropped: its
waiting parts cancelled, its running ones stopped, its records deleted.  A
stale figure is never shown; a preview dropped by a new declaration says so.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from masscombat.battles import live, pages, selectors, simulation_runs
from masscombat.battles.balance import MEASURE_WORDS, percent, state_shares
from masscombat.battles.models import Battle
from masscombat.core.engines import round_figures, round_part

logger = logging.getLogger(__name__)

KIND = EVENT = "preview"
POLICY = "default"  # the silent get the engine's own default orders, as they will if they stay silent
PROGRESS_STEPS = 10  # progress events per preview: enough for a bar, few enough for the events table
KEEP_SECONDS = 3600
# The first figures after this many resolutions (a D&D 5e demo round costs some 10 ms of a loaded core), then
# parts twice as big each time up to PART (benchmarks/simulate.py measures them).
FIRST_PART = 25
PART = 200
# Why a preview failed, as a code the page turns into a sentence in the reader's language.
REFUSED, UNEXPECTED = simulation_runs.REFUSED, simulation_runs.UNEXPECTED
# Events that change nothing a preview depends on.
QUIET_EVENTS = {EVENT, "presence", "deadline"}


def resolutions() -> int:
    return settings.PREVIEW_RESOLUTIONS


def parts(count: int) -> list[range]:
    """The resolution indices of each part: a small first one for the first figures, then doubling up to PART."""
    return simulation_runs.parts(count, FIRST_PART, PART)


def answers(battle: Battle) -> dict[str, dict]:
    """The declarations made so far this round, by participant key: what the preview keeps as given."""
    return {row.participant: row.data for row in battle.declarations.filter(round=battle.current_round)}


def digest(declared: dict[str, dict]) -> str:
    return hashlib.sha256(json.dumps(declared, sort_keys=True, default=str).encode()).hexdigest()


def current(battle: Battle) -> dict | None:
    """The preview of the battle as it stands now: running (with the figures of the parts done), done,
    refused, or dropped by a declaration made since; None when there is none.  A stale one is dropped here."""
    entry = cache.get(_key(battle.pk))
    if entry is None:
        return None
    if entry["version"] != battle.version or entry["round"] != battle.current_round:
        _drop(battle.pk, entry, forget=True)  # another round, another state: nothing to say of the old one
        return None
    if entry.get("dropped") or entry.get("error"):
        return entry
    if entry["digest"] != digest(answers(battle)):
        return _drop(battle.pk, entry)
    return {**entry, **_gathered(battle.pk, entry)}


def start(battle: Battle) -> dict:
    """Start a preview of ``battle``'s current round with the declarations made so far; its entry.

    Asking again for a battle standing as it did (a second click) changes
    nothing: the running or finished preview answers.  The dice are drawn
    from a fresh seed, never the battle's: a preview must not foretell the
    real round.
    """
    declared = digest(answers(battle))
    entry = cache.get(_key(battle.pk))
    if entry is not None:
        same = (entry["version"], entry["round"], entry["digest"]) == (battle.version, battle.current_round, declared)
        if same and not entry.get("dropped") and not entry.get("error"):
            return entry
        _drop(battle.pk, entry, forget=True)
    sizes = parts(resolutions())
    entry = {"token": secrets.token_hex(8), "version": battle.version, "round": battle.current_round,
             "digest": declared, "seed": secrets.randbits(62), "requested": resolutions(), "parts": len(sizes),
             "slug": battle.ruleset, "jobs": [], "error": None}
    cache.set(_key(battle.pk), entry, KEEP_SECONDS)
    payloads = [{"battle_id": battle.pk, "version": battle.version, "round": battle.current_round,
                 "digest": declared, "seed": entry["seed"], "start": part.start, "stop": part.stop} for part in sizes]
    jobs = simulation_runs.submit(KIND, _run(battle.pk, entry["token"]), payloads)
    if jobs:
        _update(battle.pk, entry["token"], jobs=jobs)
    _send(battle.pk, entry["token"], {"progress": 0.0, "figures": False, "done": False})  # the GM's bar appears
    return entry


def forget(battle_id: int) -> None:
    """Drop the battle's preview, whatever it stands at: its parts stopped, its records deleted."""
    entry = cache.get(_key(battle_id))
    if entry is not None:
        _drop(battle_id, entry, forget=True)


def _gathered(battle_id: int, entry: dict) -> dict:
    """``progress`` (0 to 1), the figures of the parts done (``result``, None before the first) and whether they
    are the last (``final``).  The figures are computed once per part that comes in."""
    done, finished = _counts(battle_id, entry)
    token, result = entry["token"], None
    if finished:
        known = cache.get(_piece(battle_id, token, "figures"))
        if known is not None and known["finished"] == finished:
            result = known["result"]
        else:
            found = cache.get_many([_piece(battle_id, token, "part", index) for index in range(entry["parts"])])
            records = [record for part in found.values() for record in part]
            result = round_figures(entry["slug"], records, round=entry["round"], requested=entry["requested"],
                                   policy=POLICY, seed=entry["seed"])
            cache.set(_piece(battle_id, token, "figures"), {"finished": len(found), "result": result}, KEEP_SECONDS)
    return {"progress": min(1.0, done / entry["requested"]), "result": result, "final": finished == entry["parts"]}


def _counts(battle_id: int, entry: dict) -> tuple[int, int]:
    """Resolutions played (running parts' included) and parts finished: small numbers, read at every step."""
    token = entry["token"]
    found = cache.get_many(_count_keys(battle_id, token, entry["parts"]))
    done = sum(value for key, value in found.items() if ":done:" in key)
    return done, sum(1 for key in found if ":finished:" in key)


def _drop(battle_id: int, entry: dict, *, forget: bool = False) -> dict | None:
    """Stop the preview's parts and delete its records; keep a mark that it was dropped unless ``forget``."""
    token = entry["token"]
    if forget:
        cache.delete(_key(battle_id))
        dropped = None
    else:
        dropped = {**entry, "dropped": True, "jobs": []}
        cache.set(_key(battle_id), dropped, KEEP_SECONDS)
    simulation_runs.cancel(_run(battle_id, token), entry.get("jobs") or [])
    cache.delete_many([_piece(battle_id, token, "part", index) for index in range(entry["parts"])]
                      + _count_keys(battle_id, token, entry["parts"]) + [_piece(battle_id, token, "figures")]
                      + [_piece(battle_id, token, "step", step) for step in range(PROGRESS_STEPS + 1)])
    return dropped


def _battle_changed(sender, battle: Battle, kind: str, payload: dict, **kwargs) -> None:
    """Any committed change of a battle with a preview running or shown: drop the preview if it is stale."""
    if kind in QUIET_EVENTS or cache.get(_key(battle.pk)) is None:
        return
    fresh = Battle.objects.filter(pk=battle.pk).first()
    if fresh is None:
        cache.delete(_key(battle.pk))
    else:
        current(fresh)


live.committed.connect(_battle_changed, dispatch_uid="battles.preview.battle_changed")


class _Parts:
    """The preview's parts for :mod:`masscombat.battles.simulation_runs`: a run is named ``<battle>:<token>``."""

    function = staticmethod(round_part)

    def wanted(self, run: str) -> bool:
        battle_id, token = run.split(":")
        entry = cache.get(_key(int(battle_id)))
        return entry is not None and entry["token"] == token and not entry.get("dropped") and not entry.get("error")

    def arguments(self, run: str, payload: dict) -> dict | None:
        """The battle as it stands, if it still stands as the preview was asked for: never an old state."""
        battle = Battle.objects.filter(pk=payload["battle_id"]).first()
        if battle is None or (battle.version, battle.current_round) != (payload["version"], payload["round"]):
            return None
        declared = answers(battle)
        if digest(declared) != payload["digest"]:
            return None
        return {"slug": battle.ruleset, "state": battle.state, "declarations_so_far": declared,
                "seed": payload["seed"], "policy": POLICY, "indices": range(payload["start"], payload["stop"])}

    def progressed(self, run: str, index: int, done: int) -> None:
        battle_id, token = _split(run)
        cache.set(_piece(battle_id, token, "done", index), done, KEEP_SECONDS)
        self._tell(battle_id, token)

    def finished(self, run: str, index: int, records: list[dict]) -> None:
        battle_id, token = _split(run)
        if self.wanted(run):
            cache.set_many({_piece(battle_id, token, "part", index): records,
                            _piece(battle_id, token, "done", index): len(records),
                            _piece(battle_id, token, "finished", index): 1}, KEEP_SECONDS)
            self._tell(battle_id, token, figures=True)

    def failed(self, run: str, code: str) -> None:
        battle_id, token = _split(run)
        if self.wanted(run):
            _update(battle_id, token, error=code)
            _send(battle_id, token, {"error": True})

    def _tell(self, battle_id: int, token: str, *, figures: bool = False) -> None:
        """The GM's bar moves on by tenths (each tenth told once, whichever worker reaches it); new figures are
        always told."""
        entry = cache.get(_key(battle_id))
        if entry is None or entry["token"] != token or entry.get("dropped"):
            return
        done, finished = _counts(battle_id, entry)
        progress = min(1.0, done / entry["requested"])
        step = int(progress * PROGRESS_STEPS)
        if figures or (step and cache.add(_piece(battle_id, token, "step", step), 1, KEEP_SECONDS)):
            _send(battle_id, token, {"progress": round(progress, 3), "figures": figures,
                                     "done": finished == entry["parts"]})


simulation_runs.register(KIND, _Parts())


def _send(battle_id: int, token: str, payload: dict) -> None:
    """A GM-only event of the preview, unless the battle moved on or another preview replaced it meanwhile."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        entry = cache.get(_key(battle_id))
        if (battle is None or entry is None or entry["token"] != token or entry.get("dropped")
                or entry["version"] != battle.version):
            return
        live.emit(battle, EVENT, {"token": token, "version": battle.version, **payload}, audience=live.GM)


def _update(battle_id: int, token: str, **changes) -> None:
    """Write to the cached entry unless a newer preview has replaced it."""
    entry = cache.get(_key(battle_id))
    if entry is not None and entry["token"] == token:
        cache.set(_key(battle_id), {**entry, **changes}, KEEP_SECONDS)


def _run(battle_id: int, token: str) -> str:
    return f"{battle_id}:{token}"


def _split(run: str) -> tuple[int, str]:
    battle_id, token = run.split(":")
    return int(battle_id), token


def _key(battle_id: int) -> str:
    return f"preview:{battle_id}"


def _piece(battle_id: int, token: str, what: str, index: int = 0) -> str:
    """Where a preview keeps, per part ``index``, its records (``part``), how many resolutions it has played
    (``done``) and that it is in (``finished``); the tenths told (``step``) and its figures (``figures``)."""
    return f"preview:{battle_id}:{token}:{what}:{index}"


def _count_keys(battle_id: int, token: str, count: int) -> list[str]:
    return [_piece(battle_id, token, what, index) for index in range(count) for what in ("done", "finished")]


def figures(entry: dict, viewer) -> dict:
    """The preview's figures for the page: per side the strength change (mean, p10–p90) and the chance to win
    this round, the chance the battle ends, and in words what the round does to each unit."""
    result = entry["result"]
    sides = [{"name": pages.side_name(viewer, side), "mean": change["mean"], "p10": change["p10"],
              "p90": change["p90"], "wins": percent(result["wins"].get(side))}
             for side, change in result["change"].items()]
    units, quiet = unit_lines(result, viewer)
    return {"sides": sides, "over": percent(result["over"]), "units": units, "quiet": quiet,
            "resolutions": result["resolutions"], "requested": result["requested"], "final": entry.get("final"),
            "errors": percent(result["errors"])}


def unit_lines(result: dict, viewer) -> tuple[list[dict], int]:
    """One line per unit the round may touch, by side, the likeliest to be beaten first: its figure's change
    (median, p10 to p90) and the states the tries leave it in; and how many units no try touches."""
    names = selectors.seen_names(viewer)
    measure = MEASURE_WORDS.get(result.get("unit_measure"), "")
    lines, quiet = [], 0
    for uid, entry in (result.get("units") or {}).items():
        change = entry.get("change")
        moved = change is not None and (change["min"] or change["max"])
        beaten = 1 - entry["states"].get("fighting", 0)
        if not moved and not beaten:
            quiet += 1
            continue
        name, side = names.get(uid) or _("a unit"), pages.side_name(viewer, entry["side"])
        lines.append({"name": name, "side": "" if side == name else side,  # 7th Sea's armies are their sides
                      "order": (entry["side"] or "", -beaten, -abs((change or {}).get("median") or 0)),
                      "measure": measure, "change": _spread(change) if moved else None,
                      "states": state_shares(entry["states"])})
    lines.sort(key=lambda line: line["order"])
    return lines, quiet


def _spread(change: dict) -> dict:
    return {"median": _signed(change["median"]), "low": _signed(change["p10"]), "high": _signed(change["p90"])}


def _signed(value) -> str:
    """A change as people write it: "+3", "−27" (a true minus sign), "0"."""
    if not value:
        return "0"
    shown = number_format(abs(value), decimal_pos=0 if float(value).is_integer() else 1, force_grouping=True)
    return ("+" if value > 0 else "\u2212") + shown
