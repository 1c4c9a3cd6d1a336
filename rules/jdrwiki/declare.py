"""Declarations: validation (S5.6) and the round-start application (S5.7).

Anything the rules forbid at declaration time raises :class:`InvalidInput`
with the path of the offending field, and nothing is resolved.  Conditions
that depend on positions are left to resolution (they make an action
*impossible*, S7.9, not invalid).
"""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.jdrwiki import sheets, tables, terrain
from rules.jdrwiki.battle import Battle

ENEMY_TARGETED = frozenset(a for a, row in tables.ACTIONS.items() if row["target"] == "enemy_corps")


def action_type(action: dict) -> str:
    return tables.ACTIONS[action["action"]]["type"]


def ruthless_this_round(battle: Battle, army_id: str, decl: dict) -> bool:
    choice = decl["armies"].get(army_id, {}).get("ruthless")
    return battle.state["armies"][army_id]["ruthless"] if choice is None else choice


def spend_cap(battle: Battle, cid: str, corps_decl: dict) -> int:
    """S4.16: the army's cap, or 6 this round with the opportune 'category_6' mode (S7.7.3)."""
    opportune = corps_decl.get("opportune")
    if opportune and opportune["mode"] == "category_6":
        return tables.TALENTS["opportune_attack"]["effect"]["category_6"]["spend_cap"]
    return battle.sheet_of(cid)["spend_cap"]


def spend(battle: Battle, cid: str, corps_decl: dict, decl: dict) -> int:
    """S4.16: actions, defensive counter and the ruthless point."""
    return (sum(tables.action_cost(a) for a in corps_decl["actions"])
            + (1 if corps_decl["defensive_counter"] else 0)
            + (1 if ruthless_this_round(battle, battle.corps(cid)["army_id"], decl) else 0))


# ---------------------------------------------------------------- GM (S5.5.6, S5.7 step 1)


def gm_modifiers(battle: Battle, gm: dict, path: str) -> None:
    """Manual modifiers first: the initiative roll already sees them (S4.16)."""
    for index, mod in enumerate(gm["manual_modifiers"]):
        if mod["corps_id"] not in battle.state["corps"]:
            raise InvalidInput.field(f"{path}manual_modifiers[{index}].corps_id", "unknown corps")
        bucket = battle.ctx.manual.setdefault(mod["corps_id"], {})
        bucket[mod["target"]] = bucket.get(mod["target"], 0) + mod["value"]
        battle.log.add("S7.10", "gm.modifier", "GM modifier {value:+d} on {target} for {corps}: {reason}.",
                       value=mod["value"], target=mod["target"], corps=mod["corps_id"], reason=mod["reason"])


def apply_gm(battle: Battle, gm: dict, path: str, *, adjustments: bool = True) -> None:
    if adjustments:
        for index, adj in enumerate(gm["adjustments"]):
            if adj["corps_id"] not in battle.state["corps"]:
                raise InvalidInput.field(f"{path}adjustments[{index}].corps_id", "unknown corps")
        for adj in gm["adjustments"]:
            corps = battle.corps(adj["corps_id"])
            corps[adj["field"]] = corps[adj["field"]] + adj["delta"]
            if adj["field"] != "advantage":
                corps[adj["field"]] = max(0, corps[adj["field"]])
            battle.log.add("S7.10", "gm.adjustment", "GM adjustment: {corps} {field} {delta:+d}.",
                           corps=adj["corps_id"],
                           field=adj["field"], delta=adj["delta"])
            if adj["field"] == "hp" and corps["hp"] == 0 and corps["status"] == "active":
                battle.destroy(adj["corps_id"])
    for zone, level in gm["weather"].items():
        if zone not in battle.state["map"]["zones"]:
            raise InvalidInput.field(f"{path}weather.{zone}", "unknown zone")
        battle.state["map"]["zones"][zone]["terrain"]["weather"] = level
        battle.log.add("S5.7", "terrain.weather_set", "The GM sets the weather of {zone} to {level}.",
                       zone=zone, level=level)
    for army_id, change in gm["commander_changes"].items():
        where = f"{path}commander_changes.{army_id}"
        if army_id not in battle.state["armies"]:
            raise InvalidInput.field(where, "unknown army")
        army = battle.state["armies"][army_id]
        army["commander"] = change["commander"]
        if change["aides"] is not None:
            army["aides"] = change["aides"]
        if change["talents"] is not None:
            army["talents"] = change["talents"]
        battle.refresh_sheet(army_id, f"{where}.")
        battle.log.add("S7.5.4", "army.commander_change", "New commander for {army}: level {level}.", army=army_id,
                       level=battle.sheets[army_id]["level"])
    if gm["conflict_started"] is not None:
        battle.state["conflict_started"] = gm["conflict_started"]


# ---------------------------------------------------------------- validation (S5.6)


def validate(battle: Battle, decl: dict, path: str) -> None:
    for army_id, army_decl in decl["armies"].items():
        _validate_army(battle, army_id, army_decl, decl, f"{path}armies.{army_id}")
    intervening: set[str] = set()
    transferring = {t["hero_id"] for c in decl["corps"].values() for t in c["hero_transfers"]}
    supports: set[str] = set()
    commander_heroism: dict[str, int] = {}
    for cid, corps_decl in decl["corps"].items():
        where = f"{path}corps.{cid}"
        if cid not in battle.state["corps"]:
            raise InvalidInput.field(where, "unknown corps")
        if not battle.active(cid):
            raise InvalidInput.field(where, "the corps is not active")
        _validate_actions(battle, cid, corps_decl, decl, where)
        _validate_heroes(battle, cid, corps_decl, where, intervening, transferring, supports, commander_heroism)
        _validate_transfers(battle, cid, corps_decl, where)
        counter = corps_decl["defensive_counter"]
        if counter is not None and counter not in battle.enemies(cid):
            raise InvalidInput.field(f"{where}.defensive_counter", "must be an active enemy corps")
        if corps_decl["opportune"] is not None and "opportune_attack" not in battle.talents_of(cid):
            raise InvalidInput.keyed(f"{where}.opportune", "refusal.needs_talent", "needs the army talent {talent} ({rule})",
                                     talent="opportune_attack", rule="S7.7.3")
        cost, cap = spend(battle, cid, corps_decl, decl), spend_cap(battle, cid, corps_decl)
        pool = battle.corps(cid)["initiative"]
        if (corps_decl["actions"] or corps_decl["defensive_counter"]) and cost > min(cap, pool):
            raise InvalidInput.field(f"{where}.actions",
                                     f"costs {cost} initiative points for a cap of {cap} and a pool of {pool} (S4.16)")
    for army_id, used in commander_heroism.items():
        army_decl = decl["armies"].get(army_id, {"heroism": []})
        total = used + sum(1 for h in army_decl["heroism"] if h["pool"] == "commander")
        if total > battle.state["armies"][army_id]["commander"]["heroism_points"]:
            raise InvalidInput.keyed(f"{path}armies.{army_id}.heroism", "refusal.commander_heroism",
                                     "more heroism points than the commander has")
    _validate_regroups(battle, decl, path)


def _validate_army(battle: Battle, army_id: str, army_decl: dict, decl: dict, where: str) -> None:
    if army_id not in battle.state["armies"]:
        raise InvalidInput.field(where, "unknown army")
    army = battle.state["armies"][army_id]
    if army_decl["ruthless"] is not None and "ruthless" not in army["talents"]:
        raise InvalidInput.keyed(f"{where}.ruthless", "refusal.needs_talent", "needs the army talent {talent} ({rule})",
                                 talent="ruthless", rule="S7.7.9")
    for pool in ("commander", "army"):
        wanted = sum(1 for h in army_decl["heroism"] if h["pool"] == pool)
        if wanted > battle.heroism_pool(army_id, pool):
            raise InvalidInput.keyed(f"{where}.heroism", "refusal.pool_short", "more points than the {pool} pool holds "
                                     "(S7.5.3)", pool=pool)


def _validate_actions(battle: Battle, cid: str, corps_decl: dict, decl: dict, where: str) -> None:
    actions = corps_decl["actions"]
    talents = battle.talents_of(cid)
    if "adaptation" in talents:
        ok = len(actions) <= 2 or (len(actions) == 3 and len({a["action"] for a in actions}) == 3)
        rule = "at most two actions, or three different actions (S7.7.1)"
    else:
        ok = len(actions) <= 2 and len({action_type(a) for a in actions}) == len(actions)
        rule = "at most two actions of different types (S5.5.1)"
    if not ok:
        raise InvalidInput.field(f"{where}.actions", rule)
    army_id = battle.corps(cid)["army_id"]
    auto = any(h["use"] == "auto_success" for h in decl["armies"].get(army_id, {"heroism": []})["heroism"])
    heroic = [i for i, a in enumerate(actions) if a["heroic"]]
    if heroic and not auto:
        raise InvalidInput.field(f"{where}.actions[{heroic[0]}].heroic",
                                 "the army spends no auto_success point (S7.5.3)")
    if len(heroic) > 1:
        raise InvalidInput.field(f"{where}.actions[{heroic[1]}].heroic", "only one heroic action per corps (S7.5.3)")
    moved = False
    for index, action in enumerate(actions):
        at = f"{where}.actions[{index}]"
        validate_action(battle, cid, action, corps_decl, at, first_move=not moved)
        moved = moved or action["action"] == "move"
        fallback = action["fallback"]
        if fallback is not None:
            cheaper = tables.action_cost(fallback) < tables.action_cost(action)
            if action_type(fallback) != action_type(action) or not cheaper:
                raise InvalidInput.field(f"{at}.fallback",
                                         "must be an action of the same type and strictly lower cost (S7.9)")
            validate_action(battle, cid, fallback, corps_decl, f"{at}.fallback", first_move=False)


def validate_action(battle: Battle, cid: str, action: dict, corps_decl: dict, at: str, *, first_move: bool) -> None:
    """S5.6 checks of one action object (positions are left to resolution)."""
    act, row = action["action"], tables.ACTIONS[action["action"]]
    corps = battle.corps(cid)
    zones = battle.state["map"]["zones"]
    if corps["total_melee_with"] is not None:
        if (row["type"] == "maneuver" and act != "withdraw") or act == "total_melee":
            raise InvalidInput.field(f"{at}.action", "not allowed to a corps in total melee (S7.1.3)")
    if act in ENEMY_TARGETED and action["target"] not in battle.enemies(cid):
        raise InvalidInput.field(f"{at}.target", "must be an active enemy corps")
    if action["attack_skill"] is not None and action["attack_skill"] not in _active_skills(action, battle, cid):
        raise InvalidInput.field(f"{at}.attack_skill", "not a skill this action may use (S6.5)")
    if action["defense_skill"] is not None and action["defense_skill"] not in _defense_skills(action, battle):
        raise InvalidInput.field(f"{at}.defense_skill", "not a defence this action may be opposed by (S6.5)")
    if action["as_counter"] and not (act == "barrage" or act in tables.OFFENSIVE_COUNTER_ALLOWED):
        raise InvalidInput.field(f"{at}.as_counter", "only barrage and the offensive actions may be counters (S7.8)")
    if action["opposed_by"] is not None and action["opposed_by"] not in battle.enemies(cid):
        raise InvalidInput.field(f"{at}.opposed_by", "must be an active enemy corps")
    if action["critical_hero"] is not None:
        hero = battle.state["heroes"].get(action["critical_hero"])
        if hero is None or battle.state["armies"][hero["army_id"]]["side"] == battle.side_of(cid):
            raise InvalidInput.field(f"{at}.critical_hero", "must be a hero of the other side")
    for key in ("to_zone", "push_to_zone", "zone"):
        if action[key] is not None and action[key] not in zones:
            raise InvalidInput.field(f"{at}.{key}", "unknown zone")
    if act == "move":
        if action["moves"] is None:
            raise InvalidInput.field(f"{at}.moves", "a move needs 1 to 5 move steps")
        if not action["path"]:
            raise InvalidInput.field(f"{at}.path", "a move needs a path")
        for index, zone in enumerate(action["path"]):
            if zone not in zones:
                raise InvalidInput.field(f"{at}.path[{index}]", "unknown zone")
        start = corps["zone"] if first_move else action["path"][0]
        if not terrain.path_valid(battle.state["map"], start, action["path"][0 if first_move else 1:]):
            raise InvalidInput.field(f"{at}.path",
                                     "must be a chain of adjacent zones starting next to the corps (S5.6)")
    elif act == "mining":
        if (corps_decl["allocation"] or {}).get("preparation", 0) != 1:
            raise InvalidInput.field(f"{at}.action", "mining needs preparation: 1 in the allocation (S6.13)")
    elif act == "modify_terrain":
        _validate_terrain(battle, cid, action, at)
    elif act == "divide":
        _validate_divide(battle, cid, action, corps_decl, at)
    elif act == "regroup":
        if not action["with"] or action["into"] is None:
            raise InvalidInput.field(f"{at}.with",
                                     "a regroup names its partners (with) and the corps that remains (into)")


def _active_skills(action: dict, battle: Battle, cid: str) -> list[str]:
    active = tables.ACTIONS[action["action"]]["active"]
    if active == "by_terrain_table":
        return [terrain_skill(battle, action)] if action["characteristic"] else []
    return active


def _defense_skills(action: dict, battle: Battle) -> list[str]:
    defense = tables.ACTIONS[action["action"]]["defense"]
    if defense == "by_terrain_table":
        key = action["characteristic"]
        if key in ("unstable_ground", "stronghold", "cover"):
            return [tables.TERRAIN_MODIFICATION[key]["up"]["enemy_occupant_defense"]]
        return ["will"]
    return defense


def terrain_skill(battle: Battle, action: dict) -> str:
    """S6.7: the skill of a terrain modification, by characteristic and direction."""
    key = action["characteristic"]
    rules = tables.TERRAIN_MODIFICATION[key]
    if key == "weather":
        current = battle.state["map"]["zones"][action["zone"]]["terrain"]["weather"] if action["zone"] else 0
        return rules["up" if (action["level"] or 0) > current else "down"]["skill"]
    return rules[action["direction"] or "up"]["skill"]


def _validate_terrain(battle: Battle, cid: str, action: dict, at: str) -> None:
    key = action["characteristic"]
    if action["zone"] is None:
        raise InvalidInput.field(f"{at}.zone", "a terrain modification names its zone")
    if key is None:
        raise InvalidInput.field(f"{at}.characteristic", "a terrain modification names its characteristic")
    if key == "heights":
        raise InvalidInput.field(f"{at}.characteristic", "heights cannot be modified (S7.3)")
    current = battle.state["map"]["zones"][action["zone"]]["terrain"][key]
    if key == "weather":
        if not battle.army_of(cid)["has_magic"]:
            raise InvalidInput.field(f"{at}.characteristic", "changing the weather needs has_magic (S7.3)")
        if action["level"] is None or action["level"] == current:
            raise InvalidInput.field(f"{at}.level", "the weather level wanted, different from the current one")
        return
    if action["direction"] is None:
        raise InvalidInput.field(f"{at}.direction", "up or down")
    new = current + (1 if action["direction"] == "up" else -1)
    if not 0 <= new <= tables.TERRAIN_MAX[key]:
        raise InvalidInput.field(f"{at}.direction", f"{key} would leave 0..{tables.TERRAIN_MAX[key]} (S7.3)")


def _validate_divide(battle: Battle, cid: str, action: dict, corps_decl: dict, at: str) -> None:
    new = action["new_corps"]
    if not new:
        raise InvalidInput.field(f"{at}.new_corps", "a divide lists the new corps (S7.2.2)")
    seen: set[str] = set()
    intervening = {h["hero_id"] for h in corps_decl["heroes"]} | {t["hero_id"] for t in corps_decl["hero_transfers"]}
    for index, item in enumerate(new):
        if item["id"] in battle.state["corps"] or item["id"] in seen:
            raise InvalidInput.field(f"{at}.new_corps[{index}].id", "this corps id is already used")
        seen.add(item["id"])
        if item["zone"] not in battle.state["map"]["zones"]:
            raise InvalidInput.field(f"{at}.new_corps[{index}].zone", "unknown zone")
        for k, hero_id in enumerate(item["heroes"]):
            hero = battle.state["heroes"].get(hero_id)
            if hero is None or hero["corps_id"] != cid or hero_id in intervening:
                raise InvalidInput.field(f"{at}.new_corps[{index}].heroes[{k}]",
                                         "must be a hero of this corps neither intervening nor transferring")
    if sum(item["hp"] for item in new) >= battle.corps(cid)["hp"]:
        raise InvalidInput.field(f"{at}.new_corps", "the new corps must take less than the corps' hit points (S7.2.2)")


def _validate_regroups(battle: Battle, decl: dict, path: str) -> None:
    """S7.2.3: every participant names the same set and the same remaining corps."""
    for cid, corps_decl in decl["corps"].items():
        for index, action in enumerate(corps_decl["actions"]):
            if action["action"] != "regroup":
                continue
            at = f"{path}corps.{cid}.actions[{index}]"
            group = {cid, *action["with"]}
            if action["into"] not in group:
                raise InvalidInput.field(f"{at}.into", "must be one of the participants")
            for other in action["with"]:
                if other not in battle.state["corps"] or battle.corps(other)["army_id"] != battle.corps(cid)["army_id"]:
                    raise InvalidInput.field(f"{at}.with", "partners must be corps of the same army")
                match = [a for a in decl["corps"].get(other, {"actions": []})["actions"] if a["action"] == "regroup"]
                if not match or {other, *match[0]["with"]} != group or match[0]["into"] != action["into"]:
                    raise InvalidInput.field(f"{at}.with", f"{other} must declare the same regroup (S7.2.3)")


def _validate_heroes(battle: Battle, cid: str, corps_decl: dict, where: str, intervening: set[str],
                     transferring: set[str], supports: set[str], commander_heroism: dict[str, int]) -> None:
    for index, choice in enumerate(corps_decl["heroes"]):
        at = f"{where}.heroes[{index}]"
        hero_id = choice["hero_id"]
        hero = battle.state["heroes"].get(hero_id)
        if hero is None or hero["corps_id"] != cid:
            raise InvalidInput.field(f"{at}.hero_id", "must be a hero assigned to this corps")
        if hero["status"] != "active":
            raise InvalidInput.field(f"{at}.hero_id", "the hero is out of the battle")
        if hero_id in transferring or hero_id in intervening:
            raise InvalidInput.field(f"{at}.hero_id", "the hero is transferring or already intervenes this round")
        intervening.add(hero_id)
        army = battle.state["armies"][hero["army_id"]]
        if choice["support"] is not None:
            if hero["army_id"] in supports:
                raise InvalidInput.field(f"{at}.support", "hero support is given to one hero per army per round")
            supports.add(hero["army_id"])
        pool = army["commander"]["heroism_points"] if hero["is_commander"] else hero["heroism_points"]
        if hero["is_commander"] and choice["heroism"]:
            commander_heroism[hero["army_id"]] = commander_heroism.get(hero["army_id"], 0) + 1
        on_cooldown = battle.round < hero["available_from_round"]
        sheets.intervention(hero, battle.hero_info[hero_id], choice, on_cooldown=on_cooldown,
                            heroism_available=pool, talents=army["talents"], path=f"{at}.")


def _validate_transfers(battle: Battle, cid: str, corps_decl: dict, where: str) -> None:
    for index, transfer in enumerate(corps_decl["hero_transfers"]):
        at = f"{where}.hero_transfers[{index}]"
        hero = battle.state["heroes"].get(transfer["hero_id"])
        if hero is None or hero["corps_id"] != cid or hero["status"] != "active":
            raise InvalidInput.field(f"{at}.hero_id", "must be an active hero of this corps")
        dest = transfer["to_corps"]
        if (dest == cid or dest not in battle.state["corps"] or not battle.active(dest)
                or battle.corps(dest)["army_id"] != battle.corps(cid)["army_id"]):
            raise InvalidInput.field(f"{at}.to_corps", "must be another active corps of the same army")
        if battle.distance(cid, dest) > 20:
            raise InvalidInput.field(f"{at}.to_corps", "a hero transfers within 20 zones (S4.18)")


# ---------------------------------------------------------------- application (S5.7 steps 2-5)


def apply(battle: Battle, decl: dict, path: str, *, spend_points: bool = True) -> None:
    """Steps 2–5.  ``spend_points`` is false for ``resolve-action`` (S9.8): context only."""
    ctx = battle.ctx
    ctx.declarations = decl
    for army_id, army_decl in sorted(decl["armies"].items()):
        army = battle.state["armies"][army_id]
        if army_decl["ruthless"] is not None:
            army["ruthless"] = army_decl["ruthless"]
            battle.log.add("S7.7.9", "army.ruthless", "{army} ruthless mode: {on}.", army=army_id, on=army["ruthless"])
        for spend_ in army_decl["heroism"]:
            if spend_points:
                battle.spend_heroism(army_id, spend_["pool"])
            if spend_["use"] == "advantage" and spend_points:
                for cid in battle.active_corps():
                    if battle.corps(cid)["army_id"] == army_id:
                        battle.change_advantage(cid, tables.COMMANDER_HEROISM_POINT, "S7.5.3", "heroism point")
        if army_decl["save_from_fatal"] is not None:
            ctx.save_from_fatal[army_id] = army_decl["save_from_fatal"]
    for cid, corps_decl in sorted(decl["corps"].items()):
        for index, action in enumerate(corps_decl["actions"]):
            if action["heroic"]:
                ctx.heroic.add((cid, index))
            if action["action"] == "barrage" and action["as_counter"]:
                ctx.active_defence.add((cid, action["target"]))
        if corps_decl["defensive_counter"] is not None:
            ctx.active_defence.add((cid, corps_decl["defensive_counter"]))
        if spend_points:
            cost = min(spend(battle, cid, corps_decl, decl), battle.corps(cid)["initiative"])
            battle.corps(cid)["initiative"] -= cost
            battle.log.add("S4.16", "initiative.spend", "{corps} spends {cost} initiative points: {pool} left.",
                           corps=cid, cost=cost, pool=battle.corps(cid)["initiative"])
    _charge_ruthless_idle(battle, decl, spend_points)
    for cid, corps_decl in sorted(decl["corps"].items()):
        _apply_heroes(battle, cid, corps_decl, spend_points)
        for transfer in corps_decl["hero_transfers"]:
            ctx.transfers[transfer["hero_id"]] = transfer["to_corps"]
    for cid in battle.active_corps():
        _apply_allocation(battle, cid, decl["corps"].get(cid), f"{path}corps.{cid}.allocation", spend_points)


def _charge_ruthless_idle(battle: Battle, decl: dict, spend_points: bool) -> None:
    """S7.7.9: a corps that declares nothing still pays its ruthless point, as far as its pool goes."""
    if not spend_points:
        return
    for cid in battle.active_corps():
        if cid not in decl["corps"] and ruthless_this_round(battle, battle.corps(cid)["army_id"], decl):
            corps = battle.corps(cid)
            corps["initiative"] = max(0, corps["initiative"] - 1)


def _apply_heroes(battle: Battle, cid: str, corps_decl: dict, spend_points: bool) -> None:
    for choice in corps_decl["heroes"]:
        hero = battle.state["heroes"][choice["hero_id"]]
        army = battle.state["armies"][hero["army_id"]]
        pool = army["commander"]["heroism_points"] if hero["is_commander"] else hero["heroism_points"]
        on_cooldown = battle.round < hero["available_from_round"]
        result = sheets.intervention(hero, battle.hero_info[hero["id"]], choice, on_cooldown=on_cooldown,
                                     heroism_available=pool, talents=army["talents"], path="")
        if spend_points and choice["heroism"]:
            if hero["is_commander"]:
                army["commander"]["heroism_points"] -= 1
            else:
                hero["heroism_points"] -= 1
        bucket = battle.ctx.hero_bonus.setdefault(cid, {})
        for target, value in result["effective_bonuses"].items():
            bucket[target] = bucket.get(target, 0) + value
        battle.ctx.interventions[hero["id"]] = {**result, "corps": cid, "sacrifice": choice["sacrifice"]}
        battle.log.add("S4.10", "hero.intervention", "{hero} intervenes in {corps}: {bonuses}; cooldown {cooldown}.",
                       hero=hero["id"], corps=cid, bonuses=result["effective_bonuses"],
                       cooldown=result["cooldown_after"])
        battle.event("hero_intervention", hero=hero["id"], corps=cid)


def _apply_allocation(battle: Battle, cid: str, corps_decl: dict | None, where: str, spend_points: bool) -> None:
    allocation = dict((corps_decl or {}).get("allocation") or {k: 0 for k in tables.ATTENTION + tables.SPENT})
    available = battle.corps(cid)["advantage"]
    check = check_allocation(available, allocation)
    if check is not None:
        raise InvalidInput.field(where, check)
    battle.ctx.allocation[cid] = allocation
    spent = sum(allocation[k] for k in tables.SPENT)
    if spend_points:
        battle.corps(cid)["advantage"] -= spent
    if corps_decl is not None or spent:
        battle.log.add("S4.11", "advantage.allocation",
                       "{corps} allocates {allocation} of {available} advantage points.",
                       corps=cid, allocation=allocation, available=available)
        battle.event("allocation", visible_to=battle.side_of(cid), corps=cid, allocation=allocation)


def check_allocation(available: int, allocation: dict) -> str | None:
    """S4.11: the problem with an allocation, or None."""
    total = sum(allocation[k] for k in tables.ATTENTION + tables.SPENT)
    if total > available:
        return f"allocates {total} points but only {available} are available (S4.11)"
    return None
