"""Characters after combat: combat risk (S6.10), wound table and its modifiers (S6.11,
S6.12), capture chance, wound evolution (S6.13), captive recovery (S6.14) and duels (S5.10)."""

from __future__ import annotations

from typing import Any

from rules.dice import D6
from rules.explain import Log
from rules.heros import sheets
from rules.heros.tables import CAPTIVES, EVOLUTION, LABELS, RISK, SEVERITY, WOUND_MODIFIERS, WOUNDS, modifier

CAPTURE_OUTCOMES = ("captured", "wound_and_captured", "critical_and_captured")
WOUND_OUTCOMES = ("wound", "critical_wound", "wound_and_captured", "critical_and_captured")
CONDITIONS = ("surrounded", "flank", "flee", "recoil")


def label(mid: str) -> str:
    return LABELS["modifiers"][mid]


def _in_band(band: dict[str, Any], value: int) -> bool:
    return band.get("from", -999) <= value <= band.get("to", 999)


def effective_row(row: str, surrounded: bool, unit_profile: bool) -> str:
    if row == "destroyed" and (surrounded or unit_profile):
        return "destroyed_surrounded"
    return row


def risk_modifiers(row: str, dwarf: bool, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """Non-zero S6.10 modifiers K1-K8, in table order."""
    spec = RISK["modifiers"]
    applies = {
        "K1": ctx["melee"] and ctx["on_foot_vs_mounted"],
        "K2": ctx["flank_contacts"] >= 2,
        "K3": ctx["on_impetuous"],
        "K4": ctx["facing_impetuous"],
        "K5": row in ("flee", "destroyed", "destroyed_surrounded") and ctx["faster_than_enemy"]
        and ctx["flank_contacts"] == 0 and not ctx["mounted_in_difficult"],
        "K6": not ctx["engaged"],
        "K7": dwarf,
        "K8": ctx["facing_dwarf"],
    }
    return [modifier(k, spec[k]["value"], label(k)) for k in spec if applies[k]]


def risk_outcome(row: str, natural: int, modified: int) -> str:
    """S6.10 with the natural 2 and 12 read first (house H20)."""
    if natural == 2:
        return "unharmed"
    band_outcome = "unharmed"
    for band in RISK["risk_table"]["rows"][row]["bands"]:
        if _in_band(band, modified):
            band_outcome = band["outcome"]
    if natural == 12:
        return "critical_and_captured" if band_outcome in CAPTURE_OUTCOMES else "critical_wound"
    return band_outcome


def wound_band(natural: int, modified: int) -> dict[str, Any]:
    table = WOUNDS["wound_table"]
    if natural == 2:
        name = table["natural_2"]
    elif natural == 12:
        name = table["natural_12"]
    else:
        name = next(b["band"] for b in table["bands"] if _in_band(b, modified))
    return next(b for b in table["bands"] if b["band"] == name)


def apply_band(wound_state: str, wound_malus: int, band: dict[str, Any]) -> tuple[str, int]:
    """The more severe state wins; the table malus always adds (house H22)."""
    name = band["band"]
    if name == "nothing":
        return wound_state, wound_malus
    state = max(wound_state, name, key=SEVERITY.index)
    return state, wound_malus + band.get("wound_malus", 0)


def situation_wound_modifiers(row: str, dwarf: bool, wound_malus: int, ctx: dict[str, Any], critical: bool) -> list[dict[str, Any]]:
    """W1-W14 (no duel) for a wound after a unit combat (S6.12, house H23)."""
    w = WOUND_MODIFIERS
    values: dict[str, int] = {"W1": w["W1"]["value"] if dwarf else 0}
    if row != "tie":
        values["W2"] = w["W2"]["value"] if row == "victory" else 0
        values["W3"] = w["W3"]["value"] if ctx["on_impetuous"] else 0
        if row == "flee":
            values["W5"] = 1 if (ctx["faster_than_enemy"] or ctx["vs_shooting"]) else 2
        if row in ("destroyed", "destroyed_surrounded"):
            values["W6"] = w["W6"]["value"]
        if row in ("recoil", "flee", "destroyed", "destroyed_surrounded") and ctx["by_impetuous"]:
            values["W7"] = w["W7"]["value"]
    values.update(shot_wound_values(ctx))
    values["W11"] = ctx["flank_contacts"]
    values["W12"] = w["W12"]["value"] if ctx["vs_undead"] else 0
    values["W13"] = w["W13"]["value"] if critical else 0
    values["W14"] = wound_malus
    return [modifier(k, values[k], label(k)) for k in w if values.get(k)]


def shot_wound_values(ctx: dict[str, Any]) -> dict[str, int]:
    """W8 facing shooting (-1, -2 under cover) or W9 behind a wall (-2), never both (H23)."""
    if ctx["behind_wall"]:
        return {"W9": WOUND_MODIFIERS["W9"]["value"]}
    if ctx["vs_shooting"]:
        return {"W8": -2 if ctx["cover"] != "none" else -1}
    return {}


def lone_shot_modifiers(character: dict[str, Any], ctx: dict[str, Any], shooter_undead: bool) -> list[dict[str, Any]]:
    """W1, W8/W9, W12 and W14 for a lone character wounded by shooting (S7.5)."""
    values = shot_wound_values(ctx)
    values["W1"] = WOUND_MODIFIERS["W1"]["value"] if character.get("dwarf") else 0
    values["W12"] = WOUND_MODIFIERS["W12"]["value"] if shooter_undead else 0
    values["W14"] = character.get("wound_malus", 0)
    return [modifier(k, values[k], label(k)) for k in WOUND_MODIFIERS if values.get(k)]


def wound_roll(dice, log: Log, name: str, character_id: str, mods: list[dict[str, Any]], critical: bool) -> dict[str, Any]:
    roll = dice.roll_many(name, D6, 2)
    natural = sum(roll)
    modified = natural + sum(m["value"] for m in mods)
    band = wound_band(natural, modified)
    log.add("S6.11", "wound.roll", "{character_id} rolls {natural} on the wound table, modified {modified}: {band}.",
            character_id=character_id, natural=natural, modified=modified, band=band["band"])
    return {"roll": roll, "natural": natural, "critical": critical, "modifiers": mods, "modified": modified,
            "band": band["band"], "_band": band}


def capture_condition(wound_state: str, ctx: dict[str, Any], row: str) -> tuple[str, int] | None:
    """Lowest applicable capture threshold of the wound state, ties to the first condition (S6.11, H22)."""
    thresholds = sheets.capture_thresholds(wound_state)
    situation = {
        "surrounded": ctx["surrounded"],
        "flank": ctx["flank_contacts"] >= 1,
        "flee": row == "flee",
        "recoil": row == "recoil",
    }
    best = None
    for cond in CONDITIONS:
        value = thresholds[cond]
        if situation[cond] and value is not None and (best is None or value < best[1]):
            best = (cond, value)
    return best


def risk_test(dice, log: Log, names: dict[str, str], character: dict[str, Any], row: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """The whole S9.8 test: risk roll, wound roll, capture. ``names``: die names risk/wound/capture."""
    row = effective_row(row, ctx["surrounded"], character.get("unit_profile", False))
    roll = dice.roll_many(names["risk"], D6, 2)
    natural = sum(roll)
    mods = risk_modifiers(row, character.get("dwarf", False), ctx)
    modified = natural + sum(m["value"] for m in mods)
    outcome = risk_outcome(row, natural, modified)
    escape = natural == 2 and ctx["surrounded"]
    log.add("S6.10", "risk.roll", "{character_id} tests combat risk: {natural} modified {modified}: {outcome}.",
            character_id=character["id"], natural=natural, modified=modified, outcome=outcome)
    state, malus = character.get("wound_state", "none"), character.get("wound_malus", 0)
    wound = capture = None
    captured = outcome in CAPTURE_OUTCOMES
    if outcome in WOUND_OUTCOMES:
        critical = outcome.startswith("critical")
        wmods = situation_wound_modifiers(row, character.get("dwarf", False), malus, ctx, critical)
        wound = wound_roll(dice, log, names["wound"], character["id"], wmods, critical)
        state, malus = apply_band(state, malus, wound.pop("_band"))
    if state == "dead":
        captured = False
    elif outcome in ("wound", "critical_wound"):
        found = capture_condition(state, ctx, row)
        if found is not None:
            cond, threshold = found
            die = None if threshold <= 1 else dice.roll(names["capture"], D6)
            captured = die is None or die >= threshold
            capture = {"condition": cond, "threshold": threshold, "roll": die, "captured": captured}
            log.add("S6.11", "capture.roll", "{character_id}: capture on {threshold}+, rolled {roll}: {captured}.",
                    character_id=character["id"], threshold=threshold, roll=die, captured=captured)
    lost = state in ("unconscious", "dead") or captured
    return {
        "row": row,
        "risk": {"roll": roll, "natural": natural, "modifiers": mods, "modified": modified, "outcome": outcome,
                 "escape": escape},
        "wound": wound,
        "capture": capture,
        "character": {"wound_state": state, "wound_malus": malus, "captured": captured, "ep_lost": lost},
    }


def evolution(dice, log: Log, name: str, character: dict[str, Any], rested: bool, fought: bool) -> dict[str, Any]:
    """Start-of-bound test of a wounded character (S6.13, house H24)."""
    state = character["wound_state"]
    spec = EVOLUTION[state]
    mods = spec["modifiers"]
    mod = (mods.get("rested", 0) if rested else 0) + (mods.get("fought", 0) if fought else 0)
    roll = dice.roll(name, D6)
    modified = roll + mod
    if modified <= 2:
        change, new = "improved", spec["improve_to"]
    elif modified >= 5:
        change, new = "worsened", spec["worsen_to"]
    else:
        change, new = "unchanged", state
    log.add("S6.13", "evolution.roll", "{character_id}'s wound evolves: {roll} modified {modified}: {from} to {to}.",
            character_id=character["id"], roll=roll, modified=modified, **{"from": state, "to": new})
    return {
        "roll": roll, "modifier": mod, "modified": modified, "change": change, "from": state, "wound_state": new,
        "wound_malus": character.get("wound_malus", 0),
        "ep_recovered": state == "unconscious" and new == "serious",
        "ep_lost": state == "serious" and new == "unconscious",
    }


def recovery(dice, log: Log, name: str, character_id: str, holder_result: str, after_rally: bool) -> dict[str, Any]:
    """Captive recovery when the holding unit is beaten (S6.14, house H29)."""
    roll = dice.roll(name, D6)
    mod = CAPTIVES["recovery"]["modifier_after_rally"] if after_rally else 0
    modified = min(6, roll + mod)
    row = CAPTIVES["recovery"][holder_result]

    def within(bounds: list[int | None]) -> bool:
        low, high = bounds
        return (low is None or modified >= low) and (high is None or modified <= high)

    outcome = "recovered_alive" if within(row["alive"]) else "recovered_dead" if within(row["dead"]) else "still_captive"
    log.add("S6.14", "recovery.roll", "Recovery of {character_id}: {roll} modified {modified}: {outcome}.",
            character_id=character_id, roll=roll, modified=modified, outcome=outcome)
    return {"roll": roll, "modifier": mod, "modified": modified, "outcome": outcome}


def duel_wound_modifiers(loser: dict[str, Any], winner_star: dict[str, Any]) -> list[dict[str, Any]]:
    """W1, W10 (highest value only, H23), W12 and W14 for the loser of a duel."""
    values = {"W1": WOUND_MODIFIERS["W1"]["value"] if loser.get("dwarf") else 0}
    w10 = 2
    if winner_star.get("very_large"):
        w10 = max(w10, 5)
    if not loser.get("mounted") and winner_star.get("humanoid"):
        w10 = max(w10, 3)
    values["W10"] = w10
    values["W12"] = WOUND_MODIFIERS["W12"]["value"] if winner_star.get("undead") else 0
    values["W14"] = loser.get("wound_malus", 0)
    return [modifier(k, values[k], label(k)) for k in WOUND_MODIFIERS if values.get(k)]


def duel(dice, log: Log, names: dict[str, str], a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two stars fight (S5.10, H40). ``a``/``b``: the star with ``star_value`` and ``modifiers`` set."""
    lines = {}
    for side, star in (("a", a), ("b", b)):
        die = dice.roll(names[side], D6)
        mods = [modifier("M15", m["value"], m["label"]) for m in star.get("modifiers", []) if m["value"]]
        total = die + star["star_value"] + sum(m["value"] for m in mods)
        log.add("S5.10", "duel.total", "{character_id} rolls {die} in the duel: total {total}.",
                character_id=star["id"], die=die, total=total)
        lines[side] = {"id": star["id"], "die": die, "star_value": star["star_value"], "modifiers": mods, "total": total}
    winner = "a" if lines["a"]["total"] > lines["b"]["total"] else "b" if lines["b"]["total"] > lines["a"]["total"] else None
    loser_wound = None
    if winner is not None:
        win, lose = (a, b) if winner == "a" else (b, a)
        if win["star_value"] > 0 and lose.get("wound_state", "none") != "dead":
            mods = duel_wound_modifiers(lose, win)
            wound = wound_roll(dice, log, names["wound"], lose["id"], mods, False)
            state, malus = apply_band(lose.get("wound_state", "none"), lose.get("wound_malus", 0), wound.pop("_band"))
            loser_wound = {"character_id": lose["id"], "roll": wound["roll"], "natural": wound["natural"],
                           "modifiers": mods, "modified": wound["modified"], "band": wound["band"],
                           "wound_state": state, "wound_malus": malus}
    return {"a": lines["a"], "b": lines["b"], "winner": winner, "loser_wound": loser_wound}
