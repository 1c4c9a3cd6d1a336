"""Derived values of an army (S4.2–S4.8) and of a hero (S4.9–S4.10).

Everything here is a pure function of the definitions (plain dicts as dumped
from :mod:`rules.jdrwiki.entities`), so a battle state never needs to store
them: the engine rebuilds the sheets every time it reads a state.
"""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.explain import Log
from rules.jdrwiki import tables


def ceil_div(a: int, b: int) -> int:
    """S4.1: smallest integer >= a / b (a >= 0, b > 0)."""
    return -((-a) // b)


def db(hp: int) -> int:
    return ceil_div(hp, 10)


def vdb(hp: int) -> int:
    return ceil_div(db(hp), 10)


def db_effective(hp: int, ruthless: bool) -> int:
    """S4.5 / H11: *Impitoyable* raises DB by half, rounded up; never VDB."""
    base = db(hp)
    return ceil_div(3 * base, 2) if ruthless else base


def grace_delta(rank: int, talents: list[str]) -> int:
    """S5.4.3 (H19): advantage change of a re-roll, before the strategist gain."""
    delta = tables.STRATEGIST[rank]["grace_delta"]
    if "confidence" in talents:
        delta = max(delta, 0)
    return delta


# ---------------------------------------------------------------- army


def army_level(army: dict) -> dict:
    """S4.2 / S6.8: the level and its breakdown."""
    commander, aides = army["commander"], army["aides"]
    trainings = [t["id"] for t in tables.ARMY_LEVEL["commander_trainings"]]
    formations = sum(1 for t in trainings if commander[t] >= 1)
    aides_bonus = (
        (1 if aides else 0)
        + (1 if any(a["strategist_rank"] >= 1 for a in aides) else 0)
        + (1 if any(any(a[t] >= 1 for t in trainings) for a in aides) else 0)
    )
    aides_bonus = min(aides_bonus, tables.ARMY_LEVEL["aides_max"])
    breakdown = {
        "commander_level": commander["level"],
        "strategist_rank": commander["strategist_rank"],
        "formations": formations,
        "aides": aides_bonus,
    }
    return {"level": sum(breakdown.values()), "level_breakdown": breakdown}


def validate_army(army: dict, path: str) -> None:
    """S4.8 checks that pydantic's field ranges cannot express (exit 2)."""
    commander = army["commander"]
    if commander["strategist_rank"] > commander["level"] // 3:
        raise InvalidInput.field(
            f"{path}commander.strategist_rank",
            f"rank {commander['strategist_rank']} needs a commander of level {3 * commander['strategist_rank']} (S6.10)",
        )
    talents = army["talents"]
    for talent in set(talents):
        if talents.count(talent) > 1 and not tables.TALENTS[talent]["stackable"]:
            raise InvalidInput.field(f"{path}talents", f"{talent} may be taken only once (S6.11)")
    allowance = talent_allowance(army)
    if len(talents) > allowance:
        raise InvalidInput.field(f"{path}talents", f"{len(talents)} talents for an allowance of {allowance} (S4.8)")
    if sum(u["value"] * u["count"] for u in army["units"]) == 0:
        raise InvalidInput.field(f"{path}units", "the army has no combatant (total hit points 0, S4.8)")


def talent_allowance(army: dict) -> int:
    rule = tables.TALENT_ALLOWANCE
    level = army_level(army)["level"]
    return rule["base"] + (rule["if_army_level_at_least_10"] if level >= 10 else 0) + (
        rule["if_commander_is_pc"] if army["commander"]["is_pc"] else 0
    )


def army_sheet(army: dict, log: Log | None = None) -> dict:
    """S9.1 output (without ``log``); the army must have passed :func:`validate_army`."""
    log = log if log is not None else Log()
    commander, talents, criteria = army["commander"], army["talents"], army["criteria"]
    sheet = army_level(army)
    level = sheet["level"]
    log.add("S4.2", "army.level", "Army level {level} = commander {commander_level} + strategist {strategist_rank}"
            " + trainings {formations} + aides {aides}.", level=level, **sheet["level_breakdown"])

    raw = {c: tables.CHARACTERISTIC_BASE + sum(criteria[k] for k in tables.CHAR_CRITERIA[c])
           for c in tables.CHARACTERISTICS}
    score = dict(raw)
    if "autonomy" not in talents:  # H3: Autonomie lifts the commander's cap
        for c in tables.CAPPED_CHARACTERISTICS:
            score[c] = min(raw[c], commander[c])
    mods = {c: (score[c] - 10) // 2 for c in tables.CHARACTERISTICS}  # H1
    for c in tables.CHARACTERISTICS:
        log.add("S4.3", "army.characteristic", "{characteristic} {raw} (used {score}), modifier {modifier:+d}.",
                characteristic=c, raw=raw[c], score=score[c], modifier=mods[c])

    base = {s: level + sum(criteria[k] for k in tables.SKILL_CRITERIA[s]) + mods[tables.SKILL_CHAR[s]]
            for s in tables.SKILLS}
    skills = {s: base[s] + permanent_talent_bonus(s, talents) for s in tables.SKILLS}
    for s in tables.SKILLS:
        log.add("S4.4", "army.skill", "Skill {skill} {value} (base {base}, talents {talents:+d}).",
                skill=s, value=skills[s], base=base[s], talents=skills[s] - base[s])

    units = army["units"]
    hp = sum(u["value"] * u["count"] for u in units)
    speed = min((u["speed"] for u in units if u["count"] > 0), default=1)
    speed_effective = speed + ceil_div(speed, 2) if "forced_march" in talents else speed
    log.add("S4.5", "army.hp", "Hit points {hp}: base damage {db}, variation {vdb}, absorption {absorption}.",
            hp=hp, db=db(hp), vdb=vdb(hp), absorption=mods["con"])
    strategist = tables.STRATEGIST[commander["strategist_rank"]]
    crit_min = strategist["crit_min"] - (tables.TALENTS["shrewd_strategist"]["effect"]["crit_range_bonus"]
                                         if "shrewd_strategist" in talents else 0)
    cap = tables.TALENTS["forced_march"]["effect"]["spend_cap"] if "forced_march" in talents else 5
    warnings = []
    if min(u["value"] for u in units) > 1:
        warnings.append("The weakest unit type has a value above 1 (S7.11).")
    return {
        **sheet,
        "characteristics_uncapped": raw,
        "characteristics": score,
        "modifiers": mods,
        "skills_base": base,
        "skills": skills,
        "passive": {s: 10 + skills[s] for s in tables.PASSIVE_SKILLS},
        "hp": hp,
        "db": db(hp),
        "vdb": vdb(hp),
        "absorption": mods["con"],
        "units_total": sum(u["count"] for u in units),
        "speed": speed,
        "speed_effective": speed_effective,
        "crit_min": crit_min,
        "talent_allowance": talent_allowance(army),
        "talents_used": len(talents),
        "start_advantage": strategist["start_advantage"],
        "army_heroism_points": (tables.TALENTS["master_of_destiny"]["effect"]["army_heroism_points_at_battle_start"]
                                if "master_of_destiny" in talents else 0),
        "spend_cap": cap,
        "reroll_cap": cap,
        "warnings": warnings,
    }


def permanent_talent_bonus(skill: str, talents: list[str]) -> int:
    """S4.4: the skill bonuses of tactical advantage, iron hand and forced march (S6.11 data)."""
    bonus = talents.count("tactical_advantage") * tables.TALENTS["tactical_advantage"]["effect"][
        "skills_per_instance"].get(skill, 0)
    if "iron_hand" in talents:
        bonus += tables.TALENTS["iron_hand"]["effect"]["skills"].get(skill, 0)
    if "forced_march" in talents:
        bonus += tables.TALENTS["forced_march"]["effect"]["skills"].get(skill, 0)
    return bonus


# ---------------------------------------------------------------- heroes


def hero_class(hero: dict) -> dict:
    """S4.9: bracket from the level, one bracket up for a superior race or a PC (H34)."""
    index = next(i for i, row in enumerate(tables.HERO_CLASSES)
                 if hero["level"] >= row["levels"][0] and (row["levels"][1] is None or hero["level"] <= row["levels"][1]))
    if hero["race_power"] >= 5 or hero["is_pc"]:
        index = min(index + 1, len(tables.HERO_CLASSES) - 1)
    row = tables.HERO_CLASSES[index]
    bonuses = hero["bonuses"]
    return {
        "class": row["id"],
        "class_level": row["class_level"],
        "points": row["points"],
        "max_bonus": row["max_bonus"],
        "max_malus": row["max_malus"],
        "cooldown": row["cooldown"],
        "bonus_total": sum(v for v in bonuses.values() if v > 0),
        "malus_total": sum(-v for v in bonuses.values() if v < 0),
        "can_be_hero": row["class_level"] >= 1,
    }


def validate_hero_bonuses(hero: dict, path: str) -> dict:
    """S4.9 checks; returns the class.  ``path`` ends with the hero's prefix ("hero." ...)."""
    info = hero_class(hero)
    bonuses = hero["bonuses"]
    level = info["class_level"]
    if level == 0:
        if bonuses:
            raise InvalidInput.field(f"{path}bonuses", "an ordinary character gives no bonus (S4.9)")
        return info
    for target, value in bonuses.items():
        if value == 0 or abs(value) > level:
            raise InvalidInput.field(f"{path}bonuses.{target}",
                                     f"must be a nonzero value between -{level} and {level} (S4.9)")
    if info["bonus_total"] - info["malus_total"] != info["points"]:
        raise InvalidInput.field(
            f"{path}bonuses",
            f"bonuses {info['bonus_total']} minus maluses {info['malus_total']} must equal the {info['points']} class points (S4.9)",
        )
    if info["malus_total"] > info["points"]:
        raise InvalidInput.field(f"{path}bonuses", "maluses may not exceed the class points (S4.9)")
    return info


def intervention(hero: dict, info: dict, choice: dict, *, on_cooldown: bool, heroism_available: int,
                 talents: list[str], path: str) -> dict:
    """S4.10: effective bonuses and cooldown of one intervention; validates the choice (exit 2).

    ``heroism_available`` is the pool the hero's heroism point comes from (the
    commander's for a commander-hero, S7.5.1).  ``path`` prefixes error paths.
    """
    if not info["can_be_hero"]:
        raise InvalidInput.field(f"{path}hero_id", "an ordinary character cannot intervene as a hero (S4.9)")
    bonuses = hero["bonuses"]
    moderation, dropped = choice["moderation"], choice["dropped_bonuses"]
    if on_cooldown and not choice["sacrifice"]:
        raise InvalidInput.field(f"{path}sacrifice", "a hero on cooldown may only intervene through a sacrifice (S7.4.2)")
    if len(dropped) != 2 * moderation:
        raise InvalidInput.field(f"{path}dropped_bonuses", f"must list exactly {2 * moderation} bonuses (S4.10)")
    if len(set(dropped)) != len(dropped) or any(bonuses.get(t, 0) <= 0 for t in dropped):
        raise InvalidInput.field(f"{path}dropped_bonuses", "must be distinct positive bonuses of the hero (S4.10)")
    kept = {t: v for t, v in bonuses.items() if t not in dropped}
    if not any(v > 0 for v in kept.values()):
        raise InvalidInput.field(f"{path}moderation", "at least one positive bonus must be kept (H35)")
    if choice["heroism"] and heroism_available < 1:
        raise InvalidInput.field(f"{path}heroism", "no heroism point left (S7.4.5)")
    support = choice.get("support")
    if support is not None:
        if "hero_support" not in talents:
            raise InvalidInput.field(f"{path}support", "needs the army talent hero_support (S7.7.13)")
        if support["mode"] == "bonus" and kept.get(support.get("target"), 0) <= 0:
            raise InvalidInput.field(f"{path}support.target", "must be a positive bonus the hero gives (S7.7.13)")
    effective = {}
    for target, value in kept.items():
        e = value
        if value > 0 and hero["is_commander"]:
            e += 1
        if choice["heroism"]:
            e += 1
        if choice["sacrifice"] and not on_cooldown:
            e += 1
        if support is not None and support["mode"] == "bonus" and support.get("target") == target:
            e += 2
        effective[target] = e
    cooldown_after = max(0, info["cooldown"] - moderation - (1 if support and support["mode"] == "cooldown" else 0))
    spent = 1 if choice["heroism"] else 0
    return {
        "effective_bonuses": effective,
        "cooldown_after": cooldown_after,
        "heroism_spent": spent,
        "heroism_points_left": heroism_available - spent,
        "hero_death_at_end": bool(choice["sacrifice"]),
    }
