"""What a side does not know of the battle (S11.3), as the contract needs it.

An enemy stand or detached solo with ``hidden: true`` is unknown to the other
side; so is a solo riding inside such a stand, and a unit all of whose stands
in play are hidden (its name would give the ambush away).  Everything a side
is told (options, refusals, the state, a round's report, names) is computed
from :func:`fogged`, the state without those, so that nothing the side may not
know can change an answer it gets.
"""

from __future__ import annotations

import copy
import re

from rules.contract import GM

IN_PLAY = ("active", "casualty")


def unknown_to(st: dict, side: str | None) -> set[str]:
    """Ids of the stands, solos and units ``side`` may not know of (None or ``gm``: nothing is unknown)."""
    if side in (None, GM):
        return set()
    units, stands, solos = st["units"], st["stands"], st["solos"]
    hidden = {sid for sid, s in stands.items() if s["hidden"] and units[s["unit"]]["side"] != side}
    for uid, u in units.items():
        in_play = [sid for sid in u["stands"] if stands[sid]["status"] in IN_PLAY]
        if u["side"] != side and in_play and all(sid in hidden for sid in in_play):
            hidden.add(uid)
            hidden.update(u["stands"])  # its fallen stands too: they would name it
    for hid, h in solos.items():
        if h["side"] != side and (h["hidden"] or h["attached_to"] in hidden):
            hidden.add(hid)
    return hidden


def fogged(st: dict, side: str | None) -> dict:
    """The state without what ``side`` may not know: the battle as that side's orders are judged."""
    unknown = unknown_to(st, side)
    if not unknown:
        return st
    view = copy.deepcopy(st)
    for key in ("stands", "solos", "units"):
        view[key] = {k: v for k, v in view[key].items() if k not in unknown}
    for u in view["units"].values():
        u["stands"] = [sid for sid in u["stands"] if sid not in unknown]
    view["initiative_order"] = [e for e in view["initiative_order"] if e["id"] not in unknown]
    return view


def names_any(value, ids: set[str]) -> bool:
    """Whether a value (an event, a log step, a die's name) mentions one of ``ids``.

    Ids are whole words of ``[A-Za-z0-9_-]``: ``u1`` is found in ``u1.atk1.d20`` but not in ``u10``.
    """
    if not ids:
        return False
    if isinstance(value, str):
        return value in ids or any(word in ids for word in re.findall(r"[A-Za-z][A-Za-z0-9_-]*", value))
    if isinstance(value, dict):
        return any(names_any(v, ids) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(names_any(v, ids) for v in value)
    return False
