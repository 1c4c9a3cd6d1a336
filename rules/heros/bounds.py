"""Bound bookkeeping: morale after combats (S5.13), end of bound (S5.14) and start of the
next bound (S5.3: wound evolution, PA dice, impetuous units)."""

from __future__ import annotations

from rules.dice import AVERAGE
from rules.heros import aftermath, hexgrid, sheets, wounds
from rules.heros.state import Battle

IMPETUOUS_RADIUS = 6
LURKER_RADIUS = 6


def recompute_morale(b: Battle) -> list[str]:
    """Update every corps' EP and demoralisation and every side's ``broken``; returns broken sides."""
    broken = []
    for side in b.s["sides"]:
        lines, army = aftermath.side_morale(b.s, side["id"], b.log)
        for line in lines:
            corps = b.corps[line["id"]]
            corps["ep_total"], corps["ep_lost"] = line["ep_total"], line["ep_lost"]
            if line["demoralised"] != corps["demoralised"]:
                b.event("corps_demoralised" if line["demoralised"] else "corps_recovered", corps_id=corps["id"])
                b.log.add("S5.13", "morale.corps", "Corps {corps_id} demoralised: {demoralised}.",
                          corps_id=corps["id"], demoralised=line["demoralised"])
            corps["demoralised"] = line["demoralised"]
        if army["broken"] and not side["broken"]:
            b.event("army_broken", side=side["id"])
        if army["broken"] != side["broken"]:
            b.log.add("S5.13", "morale.army", "Army {side} broken: {broken}.", side=side["id"], broken=army["broken"])
        side["broken"] = army["broken"]
        if army["broken"]:
            broken.append(side["id"])
    return broken


def end_battle(b: Battle, reason: str, conceding: str | None = None, named_winner: str | None = None) -> None:
    b.s["status"] = "ended"
    b.s["result"] = aftermath.result(b.s, reason, b.log, conceding, named_winner)
    b.event("battle_ended", reason=reason, winner=b.s["result"]["winner"])


def start_bound(b: Battle) -> None:
    """S5.3 for ``b.active``: evolution, morale, PA dice, gods' PA, pending impetuous units."""
    s = b.s
    side = b.active
    b.event("bound_started", bound=s["bound"], turn=s["turn"], active_side=side)
    b.log.add("S5.3", "bound.start", "Bound {bound} (turn {turn}) of {side} begins.", bound=s["bound"], turn=s["turn"], side=side)
    for c in s["characters"]:
        if c["side"] != side:
            continue
        if c["wound_state"] in ("light", "serious", "unconscious") and c["status"] != "dead":
            rested = c["moved_hexes"] <= 1 and not c["fought"]
            out = wounds.evolution(b.dice, b.log, f"evolution.{c['id']}", c, rested, c["fought"])
            c["wound_state"] = out["wound_state"]
            if c["wound_state"] == "dead":
                kill(b, c)
            b.event("wound_evolved", character_id=c["id"], roll=out["roll"], modified=out["modified"],
                    **{"from": out["from"], "to": out["wound_state"]})
    for c in s["characters"]:
        if c["side"] == side:
            c["moved_hexes"], c["fought"] = 0, False
    if recompute_morale(b):
        end_battle(b, "army_broken")
        return
    for corps in b.side_corps(side):
        roll = b.dice.roll(f"pa.{corps['id']}", AVERAGE)
        general = b.general_of(corps)
        modifier = sheets.pa_modifier(general["wound_state"]) if b.present(general) else 0
        available = max(0, roll + modifier)
        corps["pa"] = {"roll": roll, "available": available, "spent": 0}
        b.log.add("S5.4", "pa.roll", "Corps {corps_id} rolls {roll}, {modifier:+d}: {available} PA.",
                  corps_id=corps["id"], roll=roll, modifier=modifier, available=available)
        b.event("pa_rolled", corps_id=corps["id"], roll=roll, available=available)
    s["gods_pa"] = {}
    for u in s["units"]:
        if u["side"] == side and u["troop_type"] == "Gd" and b.on_map(u):
            roll = b.dice.roll(f"god_pa.{u['id']}", AVERAGE)
            s["gods_pa"][u["id"]] = {"roll": roll, "available": roll, "spent": 0}
            b.log.add("S7.11", "pa.roll", "God {corps_id} rolls {roll}: {available} PA.",
                      corps_id=u["id"], roll=roll, modifier=0, available=roll)
            b.event("god_pa_rolled", unit_id=u["id"], roll=roll, available=roll)
    s["pending"] = {"impetuous": impetuous_units(b)}
    for corps in b.side_corps(b.passive):
        corps["pa"] = {"roll": None, "available": 0, "spent": 0}


def impetuous_units(b: Battle) -> list[str]:
    """S5.3 point 3 (house H34): impetuous units with a visible enemy within 6 hexes."""
    engaged = b.engaged_ids()
    enemies = b.visible_enemy_units(b.active)
    found = []
    for u in b.s["units"]:
        if (u["side"] == b.active and b.grounded(u) and u["impetuous"] and not sheets.derive(u)["fixed"]
                and u["id"] not in engaged
                and any(hexgrid.distance(u["position"], e["position"]) <= IMPETUOUS_RADIUS for e in enemies)):
            found.append(u["id"])
    return found


def kill(b: Battle, c: dict) -> None:
    """A character dies: off the map, no longer stacked or engaged."""
    c["status"] = "dead"
    c["wound_state"] = "dead"
    c["position"] = None
    c["stacked_on"] = None
    c["engaged"] = False
    c["captured_by"] = None


def end_bound(b: Battle) -> None:
    """S5.14: lurker removal, resets, next bound, turn limit, start of the next bound."""
    s = b.s
    for u in s["units"]:
        if u["troop_type"] == "Lu" and u["class"] != "X" and b.on_map(u):
            enemies = b.visible_enemy_units(u["side"])
            if not any(hexgrid.distance(u["position"], e["position"]) <= LURKER_RADIUS for e in enemies):
                u["status"], u["position"] = "pool", None
                b.drop_engagements(u["id"])
                b.unit_event("lurker_removed", u, unit_id=u["id"])
    for u in s["units"]:
        u["activations"], u["projection_failed"], u["rally_moved"] = 0, False, False
    for c in s["characters"]:
        c["spell_cast"], c["personal_pa_spent"], c["pa_benefit"] = False, 0, 0
    for side in s["sides"]:
        side["cinc_extra_used"] = False
    for corps in b.side_corps(b.active):
        corps["pa"] = {"roll": None, "available": 0, "spent": 0}
    s["bound"] += 1
    s["active_side"] = b.other(b.active)
    s["turn"] = (s["bound"] + 1) // 2
    if s["max_turns"] is not None and s["turn"] > s["max_turns"]:
        end_battle(b, "turn_limit")
        return
    start_bound(b)
