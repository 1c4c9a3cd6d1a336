"""Who declares in a bound, what the round waits for, and what each gets when silent (S11.2, H34).

The participants of the battle room (``docs/battle-contract.md``): the GM
(arrivals, departures, modifiers); each side's commander (captives, rallies,
the C-in-C's extra PA, the raw lists of S9.13); each unit on the map or in a
lurker pool; each active character, a ``hero`` when a player owns it
(``player_id``), else a ``character`` of the army.  The round waits for the
impetuous units of ``pending.impetuous`` and for the active commander while
there are any: each such unit must be held back or advance (H34).  Silent,
it advances without leaving its hex (the reading of ``docs/rules/heros.md``:
the spec gives no path, and a path of no step is always legal), which still
brings on the melee against a target it already touches (S5.5.4).
"""

from __future__ import annotations

from typing import Any

from rules.contract import GM, participant_key
from rules.heros import fog

GM_NAME = "Game master"


def character_kind(c: dict[str, Any]) -> str:
    return "hero" if c.get("player_id") else "character"


def must_declare(state: dict[str, Any], kind: str, ref: str | None) -> bool:
    pending = state["pending"]["impetuous"] if state["status"] == "ongoing" else []
    if kind in ("side", "commander"):
        return ref == state["active_side"] and bool(pending)
    return kind == "unit" and ref in pending


def default_answer(state: dict[str, Any], kind: str, ref: str | None) -> dict[str, Any]:
    """The answer a silent participant gets: an impetuous unit's spontaneous advance of no step, else nothing."""
    if kind == "unit" and must_declare(state, kind, ref):
        return {"active.actions[].kind": "advance", f"active.actions[kind=advance].paths.{ref}": []}
    return {}


def roster(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every participant of the bound, the GM first, then the sides, the units and the characters."""
    hidden = {side["id"]: fog.hidden_from(state, side["id"]) for side in state["sides"]}

    def audience(side: str, item: str) -> str:
        """``all``, or only its own side while the enemy may not know it (S11.3)."""
        return side if any(item in units | chars for other, (units, chars) in hidden.items() if other != side) else "all"

    def entry(kind: str, ref: str | None, side: str | None, commands: list[str], name: str, visible: str) -> dict:
        return {"key": participant_key(kind, ref or ""), "participant": {"kind": kind, "id": ref or GM},
                "side": side, "commands": commands, "name": name, "must_declare": must_declare(state, kind, ref),
                "default": default_answer(state, kind, ref), "visible_to": visible}

    found = [entry(GM, None, None, [], GM_NAME, GM)]
    for side in state["sides"]:
        corps = [c["id"] for c in state["corps"] if c["side"] == side["id"]]
        found.append(entry("side", side["id"], side["id"], corps, side.get("name") or side["id"], "all"))
    for u in state["units"]:
        if u["status"] in ("active", "pool"):
            found.append(entry("unit", u["id"], u["side"], [u["id"]], u.get("name") or u["id"], audience(u["side"], u["id"])))
    for c in state["characters"]:
        if c["status"] == "active":
            found.append(entry(character_kind(c), c["id"], c["side"], [c["id"]], c.get("name") or c["id"],
                               audience(c["side"], c["id"])))
    return found
