"""EP accounting, demoralised corps and broken armies (S4.6, house H30/H31).

All arithmetic runs on whole numbers of half-points, so the thresholds of
S4.6 ("smallest multiple of 0.5 at least a third / half") are exact.
"""

from __future__ import annotations

from typing import Any

from rules.explain import Log
from rules.heros.sheets import ceil_div, counts_as_lost, is_general, num

COUNTED = frozenset({"active", "pool", "destroyed", "fled_off", "dispersed"})
LOST = frozenset({"destroyed", "fled_off"})
CAPTIVE_HALVES = {"ally_general": 6, "sub_general": 4}


def halves(value: float) -> int:
    return round(value * 2)


def ep_home(character: dict[str, Any], corps_by_id: dict[str, dict[str, Any]], cinc_corps_id: str) -> str:
    """The corps whose EP a character counts in (S4.6): generals and allied champions their own."""
    own = corps_by_id.get(character["corps_id"])
    if is_general(character) or (own is not None and own["kind"] == "ally"):
        return character["corps_id"]
    return cinc_corps_id


def corps_ep(
    corps: list[dict[str, Any]],
    units: list[dict[str, Any]],
    characters: list[dict[str, Any]],
    adjustments: list[dict[str, Any]] = (),
) -> dict[str, dict[str, int]]:
    """``{corps_id: {"total": halves, "lost": halves, "active": halves, "impetuous": halves, "inferior": halves}}``.

    ``corps`` are one side's corps; units and characters of other sides are ignored.
    """
    by_id = {c["id"]: c for c in corps}
    cinc_corps = next(c["id"] for c in corps if c["kind"] == "cinc")
    rows = {c["id"]: {"total": 0, "lost": 0, "active": 0, "impetuous": 0, "inferior": 0} for c in corps}
    for unit in units:
        row = rows.get(unit["corps_id"])
        if row is None:
            continue
        ep = halves(unit["ep"])
        if unit["status"] in COUNTED:
            row["total"] += ep
        elif unit["status"] == "departed" and unit["troop_type"] == "Gd":
            row["total"] += ep // 2
        if unit["status"] in LOST:
            row["lost"] += ep
        if unit["status"] == "active":
            row["active"] += ep
            row["impetuous"] += ep if unit.get("impetuous") else 0
            row["inferior"] += ep if unit.get("class") == "I" else 0
    for character in characters:
        if character["corps_id"] not in by_id:
            continue
        row = rows[ep_home(character, by_id, cinc_corps)]
        row["total"] += halves(character["ep"])
        if counts_as_lost(character):
            row["lost"] += halves(character["ep"])
    for adjustment in adjustments:
        row = rows.get(adjustment["corps_id"])
        if row is not None:
            row["total"] += halves(adjustment.get("ep_total", 0))
            row["lost"] += halves(adjustment.get("ep_lost", 0))
    return rows


def corps_morale(corps: dict[str, Any], row: dict[str, int], log: Log | None = None) -> dict[str, Any]:
    """One corps' EP line with its threshold and demoralisation (S4.6)."""
    total, lost = row["total"], row["lost"]
    at = ceil_div(total, 3)
    rallied_at = corps.get("rallied_at_loss")
    still_rallied = corps.get("rallied") and rallied_at is not None and lost <= halves(rallied_at)
    demoralised = total > 0 and lost >= at and not still_rallied
    result = {
        "id": corps["id"],
        "ep_total": num(total / 2),
        "ep_lost": num(lost / 2),
        "demoralised_at": num(at / 2),
        "demoralised": demoralised,
        "majority_impetuous": 2 * row["impetuous"] > row["active"],
        "majority_inferior": 2 * row["inferior"] > row["active"],
    }
    if log is not None:
        log.add(
            "S4.6", "ep.corps",
            "Corps {corps_id}: {ep_lost} EP lost of {ep_total}; demoralised from {demoralised_at} lost.",
            corps_id=corps["id"], ep_total=result["ep_total"], ep_lost=result["ep_lost"],
            demoralised_at=result["demoralised_at"],
        )
    return result


def army_morale(
    side: str, rows: dict[str, dict[str, int]], captive_roles: list[str], log: Log | None = None
) -> dict[str, Any]:
    """The army line of S4.6: totals, the captor's reduction and the broken test."""
    total = sum(r["total"] for r in rows.values())
    lost = sum(r["lost"] for r in rows.values())
    reduction = 0
    for role in captive_roles:
        if role == "cinc":
            reduction += lost // 4
        else:
            reduction += CAPTIVE_HALVES.get(role, 0)
    effective = max(0, lost - reduction)
    at = ceil_div(total, 2)
    result = {
        "ep_total": num(total / 2),
        "ep_lost_raw": num(lost / 2),
        "captive_reduction": num(reduction / 2),
        "ep_lost_effective": num(effective / 2),
        "broken_at": num(at / 2),
        "broken": total > 0 and effective >= at,
    }
    if log is not None:
        log.add(
            "S4.6", "ep.army",
            "Army {side}: {lost_raw} EP lost of {total}, {reduction} off for captives held: {lost_effective}; "
            "broken from {broken_at}.",
            side=side, total=result["ep_total"], lost_raw=result["ep_lost_raw"], reduction=result["captive_reduction"],
            lost_effective=result["ep_lost_effective"], broken_at=result["broken_at"],
        )
    return result
