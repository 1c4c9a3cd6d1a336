"""Groups as mini-armies (S4.8) and the ratings of an army (S4.9).

A *formation* is what fights: a group of units in land battles (a single unit
in vehicle battles).  Its values are sums and headcount-weighted means of its
units' sheets, rounded down; the same computation gives the ``groups`` of the
army sheet and the formations of a battle.
"""

from __future__ import annotations

from rules.explain import Log
from rules.synapse.entities import Commander
from rules.synapse.sheets import is_deployable, thresholds

GROUP_ORDER = ("melee", "ranged", "artillery", "reserve")
AVERAGE_TEXT = "{group} group: {field} weighted by headcount {sum} / {headcount}, rounded down to {value}."


def wavg(sheets: list[dict], field: str) -> tuple[int, int, int]:
    """Headcount-weighted mean, rounded down: (value, weighted sum, headcount)."""
    total = sum(s[field] * s["headcount"] for s in sheets)
    heads = sum(s["headcount"] for s in sheets)
    return total // heads, total, heads


def group_members(sheets: list[dict], *, defender: bool) -> dict[str, list[dict]]:
    """Deployable units by group, in S3.9 order; an assault defender's non-reserve units form one ``melee`` group (H32)."""
    groups: dict[str, list[dict]] = {}
    for sheet in sheets:
        if not is_deployable(sheet):
            continue
        group = sheet["group"]
        if defender and group != "reserve":
            group = "melee"
        groups.setdefault(group, []).append(sheet)
    return {g: groups[g] for g in GROUP_ORDER if g in groups}


def aggregate(label: str, group: str, members: list[dict], *, defender: bool, round5: bool, log: Log) -> dict:
    """S4.8: the values of one group from its units' sheets."""
    headcount = sum(s["headcount"] for s in members)
    strength = sum(s["strength"] for s in members)
    combat, combat_sum, _ = wavg(members, "combat")
    log.add("S4.8", "group.average", AVERAGE_TEXT, group=label, field="combat", sum=combat_sum, headcount=headcount,
            value=combat)
    break_pct, pct_sum, _ = wavg(members, "break_pct")
    log.add("S4.8", "group.average", AVERAGE_TEXT, group=label, field="break_pct", sum=pct_sum, headcount=headcount,
            value=break_pct)
    if round5:
        break_pct = 5 * (break_pct // 5)
        log.add("H6", "group.round5", "{group} group: break % rounded down to a multiple of 5: {value}.",
                group=label, value=break_pct)
    fearless = all(s["fearless"] for s in members)
    break_threshold = None if fearless else strength * break_pct // 100
    ranged_only = all(s["combat_mode"] == "ranged" for s in members)
    if defender and group == "melee":
        mode, normal = "melee", True  # H32: defenders on the walls use their normal values
    elif group in ("ranged", "artillery") or (group == "reserve" and ranged_only):
        mode, normal = "ranged", True
    else:
        mode, normal = "melee", False  # ranged units in a melee group fight at contact (H56)
    contact_power = sum(s["attack_power_contact"] for s in members)
    defence_contact = wavg(members, "defence_contact")[0]
    if normal:
        attack_power = sum(s["attack_power"] for s in members)
        defence = wavg(members, "defence")[0]
    else:
        attack_power, defence = contact_power, defence_contact
    log.add("S4.8", "group.sum", "{group} group: headcount {headcount}, attack power {attack_power}, strength {strength}.",
            group=label, headcount=headcount, attack_power=attack_power, strength=strength)
    return {
        "unit_ids": [s["id"] for s in members],
        "combat_mode": mode,
        "headcount": headcount,
        "strength": strength,
        "attack_power": attack_power,
        "attack_power_contact": contact_power,
        "combat": combat,
        "defence": defence,
        "defence_contact": defence_contact,
        "break_pct": break_pct,
        "break_threshold": break_threshold,
        "fearless": fearless,
        "thresholds": thresholds(strength, break_threshold),
    }


def army_ratings(commander: Commander | None, sheets: list[dict], log: Log, label: str) -> dict:
    """S4.9: command, rally and negotiation ratings and the army's combat (H57)."""
    fighting = [s for s in sheets if is_deployable(s) and s["group"] != "reserve"]
    # An army with nothing deployed outside its reserve has no fighting body to average: 0.
    army_combat = wavg(fighting, "combat")[0] if fighting else 0
    if commander is None:
        ratings = {"command_rating": army_combat, "rally_rating": army_combat,
                   "negotiation_rating": None, "army_combat": army_combat}
        log.add("S4.9", "army.command_default", "{army}: no commander, ratings are the army's combat {value}.",
                army=label, value=army_combat)
        return ratings
    ratings = {
        "command_rating": commander.mental_mod + commander.combat + commander.art_of_war,
        "rally_rating": commander.presence_mod + commander.combat + commander.art_of_war,
        "negotiation_rating": commander.presence_mod + commander.combat + commander.diplomacy,
        "army_combat": army_combat,
    }
    log.add("S4.9", "army.command_rating", "{army}: Mental mod {mental_mod} + Combat {combat} + Art of War {art_of_war} = command rating {value}.",
            army=label, mental_mod=commander.mental_mod, combat=commander.combat,
            art_of_war=commander.art_of_war, value=ratings["command_rating"])
    return ratings
