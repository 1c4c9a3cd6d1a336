"""Combat resolution common to shooting and melee (S5.8): factors, tactical modifiers
(S6.6), totals and comparison (S4.4), the result lists (S6.8) and their adjustments (S6.9).

A *combatant* here is a plain dict built by :func:`combatant` from a filled unit
(or lone characters, ``Id``, or a spell, ``Spell``) and its situation; the
same resolver serves the ``combat`` operation and ``resolve-round``.
"""

from __future__ import annotations

from typing import Any

from rules.explain import Log
from rules.heros import sheets
from rules.heros.tables import (
    BEATEN, DOUBLED, HIGHER_EQUAL, MODIFIERS, NUMBERS, PRECEDENCE, SPIRIT, modifier,
)

OPEN_HEX = {"terrain": "open", "wooded": False, "built_up": False, "elevation": 0, "wall": False,
            "fortified": False, "river_bank": False}
LEAVES_HEX = ("recoil", "flee", "destroyed")


def combatant(unit: dict[str, Any] | None, troop_type: str, situation: dict[str, Any]) -> dict[str, Any]:
    """A combatant from a filled unit (``None`` for ``Id``/``Spell``) and its situation fields (S9.6)."""
    c: dict[str, Any] = {
        "hex": {**OPEN_HEX, **(situation.get("hex") or {})},
        "contacts": {"overlaps": 0, "flank": 0, "rear": 0, **(situation.get("contacts") or {})},
        "rear_support": None, "characters": [], "star_id": None, "adventurers_stacked": False,
        "demoralised": False, "friendly_god_adjacent": False, "surrounded": False, "retreat_blocked": "none",
        "adventurer_flee": False, "extra_shooters": 0, "decline_pursuit": False, "modifiers": [], "factor": None,
    }
    for field in c:
        if field not in ("hex", "contacts") and situation.get(field) is not None:
            c[field] = situation[field]
    c["id"] = situation["id"]
    c["troop_type"] = troop_type
    if unit is not None:
        c["unit"] = unit
        derived = sheets.derive(unit)
        c.update(
            cls=unit["class"], mounted=derived["mounted"], infantry=derived["infantry"],
            movement_class=derived["movement_class"], impetuous=bool(unit["impetuous"]),
            enemy_malus=unit["enemy_malus"], supported_by=unit["supported_by"], move=unit["move"],
            pursues=derived["pursues"], fear_immune_effective=derived["fear_immune_effective"],
            magician=unit["magician"], undead=unit["undead"],
        )
    else:
        star = _star(c)
        c.update(
            unit=None, cls=situation.get("class") or "O", infantry=False, movement_class=None,
            impetuous=False, enemy_malus=0, supported_by=[], pursues=False,
            move=situation.get("move") if situation.get("move") is not None else 5,
            fear_immune_effective=False, undead=any(ch.get("undead") for ch in c["characters"]),
            mounted=troop_type == "Id" and star is not None and bool(star.get("mounted")),
            magician=troop_type == "Spell" or (star is not None and bool(star.get("magician"))),
        )
    c["fear_immune_effective"] = c["fear_immune_effective"] or c["friendly_god_adjacent"]
    return c


def engaged_characters(c: dict[str, Any]) -> list[dict[str, Any]]:
    if c["troop_type"] == "Id":
        return [ch for ch in c["characters"] if ch.get("status", "active") == "active"]
    return [ch for ch in c["characters"] if ch.get("engaged", True) and ch.get("status", "active") == "active"]


def _star(c: dict[str, Any]) -> dict[str, Any] | None:
    return sheets.choose_star(engaged_characters(c), c.get("star_id"))


def star_value(c: dict[str, Any]) -> int:
    """Star value of the engaged characters of ``c`` (0 when none, S4.2)."""
    star = _star(c)
    if star is None:
        return 0
    others = [ch for ch in engaged_characters(c) if ch["id"] != star["id"]]
    return sheets.star_value(star, others)


def star_of(c: dict[str, Any]) -> dict[str, Any] | None:
    return _star(c)


def factor(x: dict[str, Any], y: dict[str, Any], kind: str, is_target: bool) -> int:
    if x["troop_type"] == "Spell":
        return x["factor"] or 0
    if x["troop_type"] == "Id":
        return NUMBERS["individual_vs_shooting_factor"] if (kind == "shooting" and is_target) else star_value(x)
    return sheets.factor_against(x["unit"], y["mounted"])


def _effective_class(x: dict[str, Any], y: dict[str, Any]) -> str:
    return sheets.effective_class(x["troop_type"], x["cls"], y["troop_type"])


def tactical_modifiers(x: dict[str, Any], y: dict[str, Any], kind: str, x_active: bool, is_target: bool) -> list[dict[str, Any]]:
    """Non-zero S6.6 modifiers of X fighting Y, in table order."""
    values: dict[str, int] = {}
    t, yt = x["troop_type"], y["troop_type"]
    is_unit = x["unit"] is not None
    if kind == "melee" and t != "Spell":
        if is_unit:
            values["M1"] = star_value(x)
            values["M2"] = 1 if x["adventurers_stacked"] else 0
        if t != "Gd":
            values["M3"] = -(y["enemy_malus"] + (1 if y["adventurers_stacked"] else 0))
        overlaps = x["contacts"]["overlaps"]
        if t == "Gd":
            overlaps = max(0, overlaps - 1)
        values["M4"] = -(overlaps + x["contacts"]["flank"] + x["contacts"]["rear"])
        if x["hex"]["elevation"] > y["hex"]["elevation"] and "Fl" not in (t, yt):
            values["M5"] = 1
        hx = x["hex"]
        if not x_active and (hx["wall"] or hx["fortified"] or hx["river_bank"]):
            values["M6"] = 1
        if x["movement_class"] == "close":
            values["M7"] = {"rough": -1, "difficult": -2}.get(hx["terrain"], 0)
        if t == "Fl" and is_unit and not x["unit"]["flyer_terrain_exempt"] and any(
            h["wooded"] or h["built_up"] for h in (hx, y["hex"])
        ):
            values["M8"] = -2
        if t == "Sh" and yt == "Fl":
            values["M9"] = -1
        if t == "Ma":
            y_class = _effective_class(y, x)
            values["M10a"] = 1 if x_active and y["infantry"] else 0
            values["M10b"] = 1 if y["infantry"] and y_class in ("I", "F") else 0
            values["M10c"] = -1 if yt == "Hu" or (yt in ("Bd", "Sp") and y_class == "S") else 0
        if x["rear_support"] in x["supported_by"] and x["contacts"]["flank"] == 0 and x["contacts"]["rear"] == 0:
            values["M12"] = 1
    if t != "Spell":
        values["M11"] = sheets.grade_modifier(t, x["cls"], yt)
        values["M13"] = -1 if x["demoralised"] else 0
    if kind == "shooting" and is_target:
        values["M14"] = -x["extra_shooters"]
    values["M15"] = sum(m["value"] for m in x["modifiers"])
    return [modifier(mid, values[mid]) for mid in MODIFIERS if values.get(mid)]


def comparison(total: int, other: int) -> str:
    if total > other:
        return "higher"
    if total == other:
        return "equal"
    return "beaten" if 2 * total > other else "doubled"


# -- result lists (S6.8) ---------------------------------------------------------

def _token(token: str, w: dict[str, Any]) -> bool:
    if token == "mounted":
        return w["mounted"]
    if token == "spell":
        return w["troop_type"] == "Spell"
    if token == "magician":
        return bool(w["magician"])
    if token == "magician_individual":
        return w["troop_type"] == "Spell" or (w["troop_type"] == "Id" and bool(w["magician"]))
    return w["troop_type"] == token


def _flag(c: dict[str, Any], name: str) -> bool:
    return bool(c["unit"] and c["unit"].get(name))


def _matches(when: dict[str, Any], me: dict[str, Any], w: dict[str, Any], ctx: dict[str, Any]) -> bool:
    w_class, my_class = _effective_class(w, me), _effective_class(me, w)
    checks = {
        "by": lambda v: any(_token(t, w) for t in v),
        "by_not": lambda v: not any(_token(t, w) for t in v),
        "by_class": lambda v: w_class in v,
        "by_class_not": lambda v: w_class not in v,
        "by_flag": lambda v: _flag(w, v),
        "except": lambda v: not any(w["troop_type"] == e["type"] and w_class == e["class"] for e in v),
        "self_type": lambda v: me["troop_type"] in v,
        "self_class": lambda v: my_class in v,
        "self_flag": lambda v: _flag(me, v),
        "self_fear_immune_effective": lambda v: me["fear_immune_effective"] == v,
        "terrain": lambda v: me["hex"]["terrain"] in v,
        "wooded": lambda v: (me["hex"]["wooded"] or w["hex"]["wooded"]) == v,
        "combat": lambda v: ctx["kind"] == v,
        "bound": lambda v: w["active"] if v == "winner" else not w["active"],
        "first_melee": lambda v: ctx["first_melee"] == v,
        "speed": lambda v: (me["move"] >= w["move"]) == (v == "faster_or_equal"),
    }
    return all(checks[key](value) for key, value in when.items())


def _list_for(step: str, heading: dict[str, Any], me: dict[str, Any], w: dict[str, Any]) -> list | None:
    t, wt = me["troop_type"], w["troop_type"]
    if step == "self_is_Gd":
        return heading["self_is_Gd"] if t == "Gd" else None
    if step == "self_is_St":
        return heading["self_is_St"] if t == "St" else None
    if step == "self_is_Exp_or_LF":
        return heading["self_is_Exp_or_LF"] if t in ("Exp", "LF") else None
    if step == "winner_is_Gd":
        return heading["winner_is_Gd"] if wt == "Gd" else None
    if step == "winner_is_Av_special":
        return heading["winner_is_Av_special"] if wt == "Av" else None
    if step == "winner_is_Bm_or_Ent":
        return heading["winner_is_Bm_or_Ent"] if wt in ("Bm", "Ent") else None
    if step == "self_type_list":
        return heading["self_type_list"].get(t)
    fallback = heading["fallback"]
    if "all" in fallback:
        return fallback["all"]
    return fallback["other_mounted"] if me["mounted"] else fallback["other_foot"]


def lookup(me: dict[str, Any], w: dict[str, Any], comp: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """The first S6.8 rule that applies to ``me`` with comparison ``comp`` against ``w`` (S6.8.0)."""
    if comp == "higher":
        return HIGHER_EQUAL["higher"]["St" if me["troop_type"] == "St" else "other"][0]
    if comp == "equal":
        key = me["troop_type"] if me["troop_type"] in ("Exp", "St") else "other"
        return HIGHER_EQUAL["equal"][key][0]
    heading = BEATEN if comp == "beaten" else DOUBLED
    for step in PRECEDENCE[comp]:
        rules = _list_for(step, heading, me, w)
        for rule in rules or []:
            if _matches(rule.get("when", {}), me, w, ctx):
                if rule["result"] == "continue":
                    break
                return rule
    raise AssertionError("the fallback lists always end with an unconditional rule")


def spirit_result(rule: dict[str, Any], me: dict[str, Any], w: dict[str, Any], comp: str, my_die: int, w_die: int) -> str:
    """S6.8.5: is the spirit destroyed, dispersed or unaffected?"""
    lost = comp in ("beaten", "doubled")
    if lost and w["troop_type"] in SPIRIT["also_destroyed_if_beaten_or_doubled_by"]:
        return "destroyed"
    cls = me["cls"]
    if (w_die == 6) or (cls in ("O", "I") and my_die == 6) or (cls == "I" and 5 in (my_die, w_die)):
        return "destroyed"
    return "dispersed" if rule.get("dispersal") else "none"


# -- the whole combat ----------------------------------------------------------------

def resolve(
    kind: str, a: dict[str, Any], b: dict[str, Any], *, a_active: bool, first_melee: bool, exchange: bool,
    dice_a: int, dice_b: int, log: Log,
) -> dict[str, Any]:
    """Resolve one combat (S5.8 steps 1-7 and the pursuit flag of step 10).

    ``a`` is the attacker (the main shooter in shooting), ``b`` the defender (target).
    Returns ``{"a": line, "b": line, "winner": "a"|"b"|None, "blocked": {...}}``.
    """
    a["active"], b["active"] = a_active, not a_active
    ctx = {"kind": kind, "first_melee": first_melee}
    lines: dict[str, dict[str, Any]] = {}
    pair = {"a": (a, b, dice_a), "b": (b, a, dice_b)}
    for side, (x, y, die) in pair.items():
        is_target = side == "b"
        f = factor(x, y, kind, is_target)
        log.add("S5.8", "combat.factor", "{combatant} fights with factor {factor} against {against}.",
                combatant=x["id"], factor=f, against=y["id"])
        mods = tactical_modifiers(x, y, kind, x["active"], is_target)
        for m in mods:
            log.add("S6.6", "combat.modifier", "{combatant}: {id} {value:+d}.", combatant=x["id"], id=m["id"], value=m["value"])
        total = max(0, die + f + sum(m["value"] for m in mods))
        log.add("S4.4", "combat.total", "{combatant} rolls {die}: total {total}.", combatant=x["id"], die=die, total=total)
        lines[side] = {"id": x["id"], "die": die, "factor": f, "modifiers": mods, "total": total}
    blocked: dict[str, str | None] = {}
    for side, (x, y, die) in pair.items():
        other = "b" if side == "a" else "a"
        comp = comparison(lines[side]["total"], lines[other]["total"])
        lines[side]["comparison"] = comp
        log.add("S4.4", "combat.comparison", "{combatant}: {comparison}.", combatant=x["id"], comparison=comp)
        rule = lookup(x, y, comp, ctx)
        result = rule["result"]
        if result == "spirit":
            result = spirit_result(rule, x, y, comp, die, pair[other][2])
        log.add("S6.8", "combat.result", "{combatant}: rule {rule_id} gives {result}.",
                combatant=x["id"], rule_id=rule["id"], result=result)
        lines[side]["rule"] = rule["id"]
        result, blocked[side] = _adjust(side, x, y, comp, result, kind, exchange, log)
        lines[side]["result"] = result
    for side, (x, y, _die) in pair.items():
        other = "b" if side == "a" else "a"
        lines[side]["pursues"] = (
            kind == "melee" and x["unit"] is not None and x["pursues"] and lines[side]["comparison"] == "higher"
            and lines[side]["result"] == "none" and lines[other]["result"] in LEAVES_HEX
            and blocked[other] != "friends"
            and not (x["decline_pursuit"] and x["troop_type"] == "Bm"
                     and (y["troop_type"] == "Ps" or (y["troop_type"] == "Lu" and y["cls"] in ("I", "X"))))
        )
    winner = "a" if lines["a"]["comparison"] == "higher" else "b" if lines["b"]["comparison"] == "higher" else None
    return {"a": lines["a"], "b": lines["b"], "winner": winner, "blocked": blocked}


def _adjust(side: str, x: dict, y: dict, comp: str, result: str, kind: str, exchange: bool, log: Log) -> tuple[str, str | None]:
    """S6.9 adjustments A1-A7, in order; returns the result and what blocks its retreat."""

    def note(adjustment: str, new: str) -> str:
        log.add("S6.9", "combat.adjust", "{combatant}: {adjustment} makes the result {result}.",
                combatant=x["id"], adjustment=adjustment, result=new)
        return new

    blocked = None
    if result == "flee" and x["friendly_god_adjacent"] and x["troop_type"] != "Gd":
        result = note("A1", "recoil")
    if x["troop_type"] == "Av" and result == "recoil" and x["adventurer_flee"]:
        result = note("A2", "flee")
    if x["troop_type"] == "Id" and result == "destroyed":
        note("A3", result)
    if comp in ("beaten", "doubled") and y["troop_type"] == "Id" and star_value(y) == 0 and result != "none":
        result = note("A4", "none")
    if x["troop_type"] == "Spell" and result != "none":
        result = note("A5", "none")
    if kind == "shooting" and not exchange and side == "a" and result != "none":
        result = note("A6", "none")
    if result in ("recoil", "flee") and x["troop_type"] != "Id" and x["retreat_blocked"] != "none":
        blocked = x["retreat_blocked"]
        if blocked == "enemy":
            result = note("A7", "destroyed")
        else:
            note("A7", result)
    return result, blocked


def risk_row(comp: str, result: str) -> str:
    """Combat-risk row of a combatant's outcome (S5.12)."""
    if comp == "higher":
        return "victory"
    if result == "none":
        return "tie"
    if result in ("flee", "dispersed"):
        return "flee"
    return result


def cover(hx: dict[str, Any]) -> str:
    """Cover against shooting for the wound modifier W8 (S6.12)."""
    if hx["terrain"] == "difficult" and hx["wooded"]:
        return "wooded_difficult"
    return "built_up" if hx["built_up"] else "none"


def risk_context(x: dict[str, Any], y: dict[str, Any], character: dict[str, Any], kind: str, result: str,
                 blocked: str | None) -> dict[str, Any]:
    """The ``context`` of a combat-risk test of a character on X facing Y (S9.6)."""
    on_foot = (x["troop_type"] == "Id" and not character.get("mounted")) or (
        x["troop_type"] != "Id" and not x["mounted"])
    hx = x["hex"]
    y_engaged = engaged_characters(y)
    impetuous_loss = result in LEAVES_HEX
    return {
        "engaged": True if x["troop_type"] == "Id" else bool(character.get("engaged", True)),
        "melee": kind == "melee",
        "on_foot_vs_mounted": kind == "melee" and on_foot and y["mounted"] and x["troop_type"] != "Pk",
        "flank_contacts": x["contacts"]["flank"],
        "on_impetuous": x["impetuous"],
        "facing_impetuous": y["impetuous"],
        "faster_than_enemy": x["move"] > y["move"],
        "mounted_in_difficult": x["mounted"] and hx["terrain"] == "difficult",
        "facing_dwarf": any(ch.get("dwarf") for ch in y_engaged),
        "surrounded": bool(x["surrounded"]) or (result == "destroyed" and blocked is not None),
        "vs_shooting": kind == "shooting",
        "cover": cover(hx),
        "behind_wall": hx["wall"],
        "by_impetuous": y["impetuous"] and impetuous_loss,
        "vs_undead": bool(y["undead"]) or any(ch.get("undead") for ch in y_engaged),
    }


def risk_tests(kind: str, a: dict, b: dict, outcome: dict[str, Any], exchange: bool) -> list[dict[str, Any]]:
    """Who tests on the combat-risk table after this combat, with row and context (S5.12, S9.6)."""
    tests = []
    for side, x, y in (("a", a, b), ("b", b, a)):
        line = outcome[side]
        if kind == "shooting" and not exchange and (side == "a" or line["result"] not in LEAVES_HEX):
            continue
        if kind == "shooting" and side == "b" and x["troop_type"] == "Id":
            continue  # a lone character shot at rolls on the wound table directly (S7.5)
        row = risk_row(line["comparison"], line["result"])
        testers = [ch for ch in x["characters"] if ch.get("status", "active") == "active"]
        if x["unit"] is not None and x["unit"]["character_unit"]:
            testers = [{"id": x["id"], "engaged": True, "unit_profile": True}] + testers
        for ch in testers:
            tests.append({"character_id": ch["id"], "side": side, "row": row,
                          "context": risk_context(x, y, ch, kind, line["result"], outcome["blocked"].get(side))})
    return tests
