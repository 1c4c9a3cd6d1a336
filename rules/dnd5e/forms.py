"""What the room's forms need besides the rules' choices (S11.2, S11.4): a message key for every
option label and refusal, and the fields of the GM's adjustments (S7.9) and of the attached solos'
fallbacks (S5.13.1) as choices instead of free JSON."""

from __future__ import annotations

import re

from rules.dnd5e.battle import Battle
from rules.dnd5e.refusals import describe

STAND_PATH = re.compile(r"^units\.([^.]+)\.(?:if_rallied\.)?stands\[\d+\]\.")


def labelled(options: list[dict]) -> list[dict]:
    """Each option with ``label_key``/``label_params``, each forbidden value with ``key``/``params``."""
    stand_of = {o["path"].rsplit(".", 1)[0]: o["allowed"][0] for o in options
                if o["path"].endswith(".stand") and o.get("allowed")}
    out = []
    for o in options:
        head, _sep, last = o["path"].rpartition(".")
        head = head.removesuffix(".spell")
        actor = stand_of.get(head) or (head.split(".")[1] if head.count(".") == 1 else None)
        key = f"option.{last}"
        params = {"actor": actor} if actor else {}
        if last == "action" and head in stand_of:
            key, params = "option.stand_action", {"stand": stand_of[head]}
        elif head == "solo_fallbacks":
            key, params = "option.solo_fallback", {"actor": last}
        entry = {**o, "label_key": key, "label_params": params}
        entry["forbidden"] = [f if "key" in f else {**f, **_keyed(f)} for f in o.get("forbidden") or []]
        out.append(entry)
    return out


def _keyed(entry: dict) -> dict:
    key, params = describe(entry.get("reason", ""))
    return {"key": key, "params": params}


def adjustment_fields(b: Battle) -> dict[str, dict]:
    """For each adjustment type of S7.9, its fields and the values ``resolve-round`` accepts now."""
    in_play = sorted(b.stands_in_play())
    living = sorted(h for h, s in b.solos.items() if s["condition"] not in ("dead", "fled"))
    on_field = sorted(h for h, s in b.solos.items() if s["position"] is not None)
    waiting = sorted(h for h, s in b.solos.items() if s["position"] is None and s["attached_to"] is None
                     and s["condition"] in ("active", "dying", "stable"))
    casters = sorted(c for c in [*b.stands, *b.solos] if any(s.uses is not None for s in b.profile(c).spells))
    square = {"type": "square", "min": [0, 0], "max": [b.terrain.width - 1, b.terrain.height - 1]}
    return {
        "set_hp": {"id": in_play + living + sorted(b.squares), "hp": {"type": "integer", "min": 0, "max": 2000}},
        "move": {"id": in_play + on_field, "position": square},
        "place_solo": {"id": waiting, "position": square},
        "remove": {"id": in_play + living},
        "set_hidden": {"id": sorted([*b.stands, *b.solos]), "hidden": [True, False]},
        "set_broken": {"id": sorted(b.units), "broken": [True, False]},
        "set_configuration": {"id": sorted(u for u, v in b.units.items() if v["type"] == "regiment"),
                              "configuration": ["support", "defense", "march"]},
        "set_condition": {"id": sorted(h for h, s in b.solos.items() if s["condition"] != "fled"),
                          "condition": ["active", "dying", "stable", "dead"],
                          "hp": {"type": "integer", "min": 0, "max": 2000}},
        "set_commander": {"id": sorted(b.units), "commander": [None, *sorted(
            h for h, s in b.solos.items() if s["attached_to"] is not None and b.solo_can_act(h))]},
        "set_spell_uses": {"id": casters, "spell": sorted({s.name for c in casters for s in b.profile(c).spells
                                                           if s.uses is not None}),
                           "uses": {"type": "integer", "min": 0, "max": 99}},
    }


def fallback_fields(b: Battle, side: str) -> dict[str, dict]:
    """For each attached solo of ``side``: the stands it may go back to, or a square (S5.13.1)."""
    own = sorted(b.stands_in_play(side))
    square = {"type": "square", "min": [0, 0], "max": [b.terrain.width - 1, b.terrain.height - 1]}
    return {h: {"reattach_to": own, "position": square}
            for h, s in sorted(b.solos.items()) if s["side"] == side and s["attached_to"] is not None}
