"""Who declares a round (``round-participants``, S5.3, S11.1) and what everything is called (``names``).

One participant per side (casualty shifts, fallbacks), per unit, per solo, and
the GM (adjustments and the other rulings of S7.9).  A broken unit's orders are
the GM's (S5.13.3): its participant waits for nobody and its orders are kept
from its own side until resolution (S11.3).
"""

from __future__ import annotations

from rules.contract import GM, participant_key

IN_PLAY = ("active", "casualty")


def unit_can_act(st: dict, uid: str) -> bool:
    u = st["units"][uid]
    return u["eliminated_round"] is None and any(st["stands"][s]["status"] in IN_PLAY for s in u["stands"])


def solo_can_act(st: dict, hid: str) -> bool:
    h = st["solos"][hid]
    return h["condition"] == "active" and (h["position"] is not None or h["attached_to"] is not None)


def names(st: dict) -> dict[str, str]:
    """Display names of sides, units, solos and stands (a stand: its unit's name and its rank in the unit)."""
    out = {side: s["name"] or side for side, s in st["sides"].items()}
    for uid, u in st["units"].items():
        out[uid] = u["name"] or uid
        for n, sid in enumerate(u["stands"], start=1):
            out[sid] = f"{out[uid]} {n}"
    for hid, h in st["solos"].items():
        out[hid] = h["name"] or hid
    return out


def participants(st: dict) -> list[dict]:
    """Every participant of the round, in initiative order after the sides (the GM last)."""
    over = st["battle_over"]
    named = names(st)
    order = [e["id"] for e in st["initiative_order"]]
    rank = {ident: i for i, ident in enumerate(order)}
    out = []
    for side in sorted(st["sides"]):
        out.append(_entry("side", side, side, [], named[side], False, {}))
    units = sorted(st["units"], key=lambda u: (rank.get(u, len(rank)), u))
    solos = sorted(st["solos"], key=lambda h: (rank.get(h, len(rank)), h))
    for uid in units:
        u = st["units"][uid]
        active = not over and unit_can_act(st, uid)
        entry = _entry("unit", uid, u["side"], [uid], named[uid], active and not u["broken"],
                       {f"units.{uid}.action": "none"})
        entry["declared_by"] = GM if u["broken"] else "controller"
        entry["orders_secret"] = bool(u["broken"])
        out.append(entry)
    for hid in solos:
        h = st["solos"][hid]
        out.append(_entry("solo", hid, h["side"], [hid], named[hid], not over and solo_can_act(st, hid),
                          {f"solos.{hid}.action": "none"}))
    out.append({**_entry("gm", "", None, [], "GM", False, {}), "participant": {"kind": "gm", "id": None}})
    return out


def _entry(kind: str, ident: str, side: str | None, commands: list, name: str, must: bool, default: dict) -> dict:
    return {"key": participant_key(kind, ident), "participant": {"kind": kind, "id": ident}, "side": side,
            "commands": commands, "name": name, "must_declare": must, "default": default,
            "declared_by": "controller", "orders_secret": False}
