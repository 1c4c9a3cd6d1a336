"""What one side may see of a battle state (S11.3): enemy creatures that are
hidden are removed (and the units and riders they would betray, see
:mod:`rules.dnd5e.fog`), enemy hit points become a coarse marker, and enemy
stat blocks, spell uses and commander effects are masked.
"""

from __future__ import annotations

import copy

from rules.dnd5e.fog import unknown_to


def health(hp: int, hp_max: int, status: str) -> str:
    """The coarse indicator of S11.3."""
    if status in ("casualty", "dying", "stable", "dead") or hp == 0:
        return "casualty"
    return "unhurt" if hp >= hp_max else "wounded"


def visible_state(st: dict, side: str) -> tuple[dict, list[str]]:
    view = copy.deepcopy(st)
    hidden: list[str] = []
    units = view["units"]
    profiles = view["profiles"]
    unknown = unknown_to(st, side)

    def enemy_unit(uid: str) -> bool:
        return units[uid]["side"] != side

    removed: set[str] = set()
    for sid in sorted(view["stands"]):
        s = view["stands"][sid]
        if not enemy_unit(s["unit"]):
            continue
        if sid in unknown:
            del view["stands"][sid]
            removed.add(sid)
            hidden.append(f"stands.{sid}")
            continue
        s["health"] = health(s["hp"], profiles[s["profile"]]["hp_max"], s["status"])
        s["hp"] = None
        s["spell_uses"] = {}
        hidden += [f"stands.{sid}.hp", f"stands.{sid}.spell_uses"]
    for uid in sorted(units):
        u = units[uid]
        if not enemy_unit(uid):
            continue
        if uid in unknown:  # every stand in play hidden: the unit itself is unknown (S11.3)
            del units[uid]
            removed.add(uid)
            hidden.append(f"units.{uid}")
            continue
        if any(s in removed for s in u["stands"]):
            u["stands"] = [s for s in u["stands"] if s not in removed]
            hidden.append(f"units.{uid}.stands")
        for field in ("prepare_until_round", "motivate_until_round"):
            if u[field] is not None:
                u[field] = None
                hidden.append(f"units.{uid}.{field}")
    for hid in sorted(view["solos"]):
        h = view["solos"][hid]
        if h["side"] == side:
            continue
        if hid in unknown:
            del view["solos"][hid]
            removed.add(hid)
            hidden.append(f"solos.{hid}")
            continue
        h["health"] = health(h["hp"], profiles[h["profile"]]["hp_max"], h["condition"])
        for field in ("hp", "death_save_successes", "death_save_failures"):
            h[field] = None
            hidden.append(f"solos.{hid}.{field}")
        h["spell_uses"] = {}
        hidden.append(f"solos.{hid}.spell_uses")
    view["initiative_order"] = [e for e in view["initiative_order"] if e["id"] not in removed]
    used_by_own = {s["profile"] for s in view["stands"].values() if units[s["unit"]]["side"] == side}
    used_by_own |= {h["profile"] for h in view["solos"].values() if h["side"] == side}
    for pid in sorted(profiles):
        if pid in used_by_own:
            continue
        kept = {k: profiles[pid][k] for k in ("name", "size") if k in profiles[pid]}
        if kept != profiles[pid]:
            profiles[pid] = kept
            hidden.append(f"profiles.{pid}")
    for oid in sorted(view["objectives"]):
        o = view["objectives"][oid]
        if o["side"] != side and o["type"] == "custom" and o.get("description"):
            o["description"] = ""
            hidden.append(f"objectives.{oid}.description")
    return view, hidden
