"""Army morale of a battle state and the end of a battle (S4.6, S5.13, S5.15, house H48)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from rules.explain import Log
from rules.heros import morale

FATES = ("unconscious", "serious", "light", "malus")


def captive_roles(state: dict[str, Any], side: str) -> list[str]:
    """Roles of the enemy characters held by units of ``side`` (S4.6 captor's reduction)."""
    holders = {u["id"] for u in state["units"] if u["side"] == side}
    return [c["role"] for c in state["characters"] if c["status"] == "captured" and c["captured_by"] in holders]


def side_morale(state: dict[str, Any], side: str, log: Log | None = None) -> tuple[list[dict], dict]:
    """Corps lines and army line of one side of a battle state."""
    corps = [c for c in state["corps"] if c["side"] == side]
    chars = [c for c in state["characters"] if c["side"] == side]
    rows = morale.corps_ep(corps, state["units"], chars)
    lines = [morale.corps_morale(c, rows[c["id"]], log) for c in corps]
    return lines, morale.army_morale(side, rows, captive_roles(state, side), log)


def loss_ratio(army: dict[str, Any]) -> float:
    if not army["ep_total"]:
        return 0.0
    ratio = Decimal(str(army["ep_lost_effective"])) / Decimal(str(army["ep_total"]))
    return float(ratio.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))


def fate(c: dict[str, Any]) -> str:
    if c["status"] in ("dead", "captured"):
        return c["status"]
    if c["wound_state"] == "dead":
        return "dead"
    return c["wound_state"] if c["wound_state"] in FATES else "fit"


def result(state: dict[str, Any], reason: str, log: Log, conceding: str | None = None,
           named_winner: str | None = None) -> dict[str, Any]:
    """The S9.14 ``result`` object, winner decided by S5.15."""
    lines = []
    for side in state["sides"]:
        sid = side["id"]
        corps_lines, army = side_morale(state, sid)
        holders = {u["id"] for u in state["units"] if u["side"] == sid}
        lines.append({
            "id": sid,
            "ep_total": army["ep_total"],
            "ep_lost_effective": army["ep_lost_effective"],
            "loss_ratio": loss_ratio(army),
            "broken": army["broken"],
            "demoralised_corps": [c["id"] for c in corps_lines if c["demoralised"]],
            "units_lost": [u["id"] for u in state["units"] if u["side"] == sid and u["status"] in ("destroyed", "fled_off")],
            "characters": [{"id": c["id"], "fate": fate(c)} for c in state["characters"] if c["side"] == sid],
            "prisoners_held": [c["id"] for c in state["characters"]
                               if c["status"] == "captured" and c["captured_by"] in holders],
        })
    ids = [line["id"] for line in lines]
    broken = [line["id"] for line in lines if line["broken"]]
    if reason == "concession":
        winner = next(i for i in ids if i != conceding)
    elif reason == "gm_decision":
        winner = named_winner
    elif len(broken) == 1:
        winner = next(i for i in ids if i != broken[0])
    elif len(broken) == 2:
        winner = None
    else:
        exact = [Decimal(str(line["ep_lost_effective"])) / Decimal(str(line["ep_total"])) if line["ep_total"] else Decimal(0)
                 for line in lines]
        winner = None if exact[0] == exact[1] else ids[0] if exact[0] < exact[1] else ids[1]
    log.add("S5.15", "battle.end", "The battle ends ({reason}); winner: {winner}.", reason=reason, winner=winner)
    return {"status": "ended", "reason": reason, "winner": winner, "sides": lines}

