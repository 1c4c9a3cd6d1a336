"""Resolving one action (S5.9–S5.13, S7.1–S7.3, S7.7.3, S7.9).

:func:`resolve_slot` is the single entry point: it checks that the action is
still possible (else its fallback, else it is cancelled), resolves it and
records its outcome object (S9.8) in ``battle.outcomes``.  Effects, success
and failure consequences come from the S6.5 data wherever the table states
them.
"""

from __future__ import annotations

from rules.dice import D6, D20
from rules.jdrwiki import damage, entities, tables, terrain
from rules.jdrwiki.battle import Battle
from rules.jdrwiki.declare import ENEMY_TARGETED, terrain_skill

ROLL_ONLY_IF_CONFLICT = frozenset(a for a, r in tables.ACTIONS.items() if r.get("roll_only_if_conflict_started"))


def full_action(**fields) -> dict:
    """An action object with every field defaulted, as declarations carry them."""
    return entities.Action.model_validate(fields).model_dump(by_alias=True)


def new_outcome(action: dict, cid: str, slot: int | None) -> dict:
    return {
        "action": action["action"], "type": tables.ACTIONS[action["action"]]["type"], "corps_id": cid, "slot": slot,
        "target": action["target"] if action["action"] in ENEMY_TARGETED else None,
        "status": "resolved", "replaced_by": None, "attack_skill": None, "defense_skill": None, "roll": None,
        "attack_total": None, "defense_mode": "none", "defense_roll": None, "defense_total": None, "success": None,
        "critical": False, "critical_choice": None, "critical_hero": None, "damage_dealt": 0, "damage_taken": 0,
        "return_damage": 0, "advantage_delta": {}, "duration_rounds": None, "moves_achieved": None,
        "moved_to": None, "terrain_change": None,
    }


# ---------------------------------------------------------------- who opposes


def nearest_enemy(battle: Battle, cid: str) -> str | None:
    """H17: the nearest active enemy, then the highest passive reflex, then the id."""
    enemies = battle.enemies(cid)
    if not enemies:
        return None
    return min(enemies, key=lambda e: (battle.distance(cid, e), -(10 + battle.eff(e, "reflex", cid)), e))


def opponent_of(battle: Battle, cid: str, action: dict) -> str | None:
    """The enemy corps an action targets or is opposed by (None: automatic success)."""
    act = action["action"]
    if act in ENEMY_TARGETED:
        return action["target"]
    if act == "modify_terrain":
        return enemy_occupant(battle, cid, action["zone"])
    if not battle.enemies(cid):
        return None
    if act == "withdraw":
        partner = battle.corps(cid)["total_melee_with"]
        if partner is not None and battle.active(partner):
            return partner
    elif act in ROLL_ONLY_IF_CONFLICT and not battle.state["conflict_started"]:
        return None
    if action["opposed_by"] is not None and battle.active(action["opposed_by"]):
        return action["opposed_by"]
    base = action["into"] if act == "regroup" and action["into"] else cid
    return nearest_enemy(battle, base)


def enemy_occupant(battle: Battle, cid: str, zone: str | None) -> str | None:
    side = battle.side_of(cid)
    found = [c for c in battle.occupants(zone) if battle.side_of(c) != side] if zone else []
    return found[0] if found else None


def free(battle: Battle, zone: str, ignoring: str | None = None) -> bool:
    return all(c == ignoring for c in battle.occupants(zone))


# ---------------------------------------------------------------- possibility (S7.9)


def impossible(battle: Battle, cid: str, action: dict) -> str | None:
    """Why the action cannot happen now, or None."""
    act, row = action["action"], tables.ACTIONS[action["action"]]
    corps = battle.corps(cid)
    game_map = battle.state["map"]
    in_melee = corps["total_melee_with"] is not None
    if row["type"] == "maneuver" and act != "withdraw" and in_melee:
        return "the corps is in total melee"
    if act in ENEMY_TARGETED:
        target = action["target"]
        if not battle.active(target):
            return "the target is no longer on the field"
        if act == "total_melee" and (in_melee or battle.corps(target)["total_melee_with"] is not None):
            return "a total melee joins two corps that are in no other"
        if corps["total_melee_with"] != target:
            reach = 1
            if _active_skill_guess(battle, cid, action) == "deft_attack":
                reach = terrain.deft_range(game_map, corps["zone"], battle.corps(target)["zone"])
            if battle.distance(cid, target) > reach:
                return "the target is out of range"
    elif act == "move":
        if not terrain.adjacent(game_map, corps["zone"], action["path"][0]):
            return "the path does not start next to the corps"
    elif act == "withdraw":
        if withdraw_destination(battle, cid, action) is None:
            return "no free zone to withdraw to"
    elif act == "divide":
        zones = [n["zone"] for n in action["new_corps"]]
        if len(set(zones)) != len(zones) or not all(terrain.adjacent(game_map, corps["zone"], z) and free(battle, z)
                                                    for z in zones):
            return "the new corps' zones are not free zones next to the corps"
        if sum(n["hp"] for n in action["new_corps"]) >= corps["hp"]:
            return "the corps has too few hit points left to divide"
    elif act == "regroup":
        into = action["into"]
        members = [cid, *action["with"]]
        if not all(battle.active(m) and battle.corps(m)["total_melee_with"] is None for m in members):
            return "a participant is gone or in total melee"
        if not all(m == into or terrain.adjacent(game_map, battle.corps(m)["zone"], battle.corps(into)["zone"])
                   for m in members):
            return "the participants are not next to the corps that remains"
    elif act == "modify_terrain":
        zone = action["zone"]
        if zone != corps["zone"] and not terrain.adjacent(game_map, corps["zone"], zone):
            return "the zone is neither the corps' zone nor next to it"
        if _terrain_target_level(battle, action) is None:
            return "the terrain level cannot change that way any more"
    return None


def _active_skill_guess(battle: Battle, cid: str, action: dict) -> str:
    choices = tables.ACTIONS[action["action"]]["active"]
    if action["attack_skill"] is not None:
        return action["attack_skill"]
    return choices[0] if len(choices) == 1 else max(choices, key=lambda s: (battle.eff(cid, s, action["target"], True),
                                                                           -choices.index(s)))


def _terrain_target_level(battle: Battle, action: dict) -> int | None:
    key = action["characteristic"]
    current = battle.state["map"]["zones"][action["zone"]]["terrain"][key]
    new = action["level"] if key == "weather" else current + (1 if action["direction"] == "up" else -1)
    if new is None or new == current or not 0 <= new <= tables.TERRAIN_MAX[key]:
        return None
    return new


# ---------------------------------------------------------------- resolution


def resolve_slot(battle: Battle, cid: str, slot: int) -> dict:
    """Resolve declared action ``slot`` of ``cid`` (S5.9 step 4, S7.9) and record its outcome."""
    action = battle.ctx.declarations["corps"][cid]["actions"][slot]
    key = f"{cid}/a{slot}"
    out = new_outcome(action, cid, slot)
    chosen = action
    reason = impossible(battle, cid, action)
    if reason is not None:
        fallback = action["fallback"]
        if fallback is not None and impossible(battle, cid, {**fallback, "fallback": None}) is None:
            chosen = {**fallback, "fallback": None}
            out.update(status="replaced", replaced_by=fallback["action"],
                       target=chosen["target"] if chosen["action"] in ENEMY_TARGETED else None)
            battle.log.add("S7.9", "action.cancelled", "{corps}: {action} is impossible ({reason}); {fallback} instead.",
                           corps=cid, action=action["action"], reason=reason, fallback=fallback["action"])
        else:
            out["status"] = "cancelled"
            battle.log.add("S7.9", "action.cancelled", "{corps}: {action} is cancelled ({reason}).",
                           corps=cid, action=action["action"], reason=reason)
            battle.outcomes[key] = out
            battle.event("action", corps=cid, slot=slot, action=action["action"], status="cancelled")
            return out
    run(battle, cid, chosen, key, out, heroic=(cid, slot) in battle.ctx.heroic)
    battle.outcomes[key] = out
    battle.event("action", corps=cid, slot=slot, action=chosen["action"], status=out["status"],
                 target=out["target"], success=out["success"], damage=out["damage_dealt"])
    after_failure(battle, cid, chosen, out)
    return out


def run(battle: Battle, cid: str, action: dict, prefix: str, out: dict, *, heroic: bool = False) -> None:
    battle.log.add("S5.10", "action.declared", "{corps} resolves {action}.", corps=cid, action=action["action"])
    handler = {"move": run_move, "withdraw": run_withdraw, "divide": run_divide, "regroup": run_regroup,
               "modify_terrain": run_terrain}.get(action["action"], run_targeted)
    handler(battle, cid, action, prefix, out, heroic)


def opposed_roll(battle: Battle, cid: str, action: dict, prefix: str, out: dict, defender: str, *,
                 attack_skill: str, defense_skill: str, roll_bonus: int = 0, heroic: bool = False) -> bool:
    """S4.14 against a corps; fills the roll fields of ``out``; returns success."""
    if heroic:  # S7.5.3: the die is not drawn, it shows 20
        d20 = battle.dice.used[f"{prefix}/attack"] = 20
    else:
        d20 = battle.dice.roll(f"{prefix}/attack", D20)
    roll_bonus += battle.manual(cid, "attack_rolls")  # S4.14: the GM's modifier applies to every roll
    attack_total = d20 + battle.eff(cid, attack_skill, defender, actor=True) + roll_bonus
    special = terrain.special_defence(battle.zone_terrain(defender), action["action"], defense_skill)
    base = battle.eff(defender, defense_skill, cid) + special
    if (defender, cid) in battle.ctx.active_defence:
        defense_roll = battle.dice.roll(f"{prefix}/defense", D20)
        out.update(defense_mode="active", defense_roll=defense_roll, defense_total=defense_roll + base)
    else:
        out.update(defense_mode="passive", defense_total=10 + base)
    critical = d20 >= battle.sheet_of(cid)["crit_min"]
    success = critical or attack_total >= out["defense_total"]  # H4
    out.update(attack_skill=attack_skill, defense_skill=defense_skill, roll=d20, attack_total=attack_total,
               critical=critical, success=success)
    _log_roll(battle, cid, out)
    return success


def _log_roll(battle: Battle, cid: str, out: dict) -> None:
    battle.log.add("S4.14", "action.roll", "{corps} {action}: {roll} -> {attack} against {defense} ({mode}).",
                   corps=cid, action=out["action"], roll=out["roll"], attack=out["attack_total"],
                   defense=out["defense_total"], mode=out["defense_mode"])
    key = ("action.success" if out["success"] else "action.failure") + (".critical" if out["critical"] else "")
    battle.log.add("S4.14", key, "{corps} {action}: {result}{critical}.", corps=cid, action=out["action"],
                   result="success" if out["success"] else "failure", critical=" (critical)" if out["critical"] else "")


def choose_skills(battle: Battle, cid: str, action: dict, defender: str) -> tuple[str, str]:
    """S5.10 step 1 / H13: declared skills, else the best attack and the weakest defence."""
    row = tables.ACTIONS[action["action"]]
    attack = action["attack_skill"] or max(row["active"], key=lambda s: (battle.eff(cid, s, defender, True),
                                                                         -row["active"].index(s)))
    defence = action["defense_skill"] or min(
        row["defense"], key=lambda s: (battle.eff(defender, s, cid)
                                       + terrain.special_defence(battle.zone_terrain(defender), action["action"], s),
                                       row["defense"].index(s)))
    return attack, defence


def _consume(battle: Battle, cid: str, kind: str, target: str | None = None) -> dict | None:
    effects = battle.corps(cid)["effects"]
    for index, effect in enumerate(effects):
        if effect["kind"] == kind and (target is None or effect.get("target") == target):
            battle.log.add("S3.8", "effect.expired", "{corps} uses its {kind} effect.", corps=cid, kind=kind)
            return effects.pop(index)
    return None


def run_targeted(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """Every action against an enemy corps, driven by its S6.5 row."""
    act, row = action["action"], tables.ACTIONS[action["action"]]
    target = action["target"]
    attack_skill, defense_skill = choose_skills(battle, cid, action, target)
    roll_bonus, flat = 0, 0
    consumed_charge = None
    # S6.5 lists what massive and subtle assaults consume; S5.11.10 adds the pincer to the combined assault.
    kinds = row.get("consumes", []) + (["pincer"] if act == "combined_assault" else [])
    for kind in kinds:
        effect = _consume(battle, cid, kind, target if kind == "charge" else None)
        if effect is not None:
            roll_bonus += effect["attack"]
            flat += effect["damage"] if act != "total_melee" else 0  # S5.11.4: charge helps the roll only
            consumed_charge = consumed_charge or (effect if kind == "charge" else None)
    if row["type"] == "offensive":  # H28: weaken hits offensive actions only
        roll_bonus += sum(e["value"] for e in battle.corps(cid)["effects"] if e["kind"] == "attack_rolls")
    if attack_skill == "force_attack" and "brute" in battle.talents_of(cid):
        brute = tables.TALENTS["brute"]["effect"]["force_attack_actions"]
        double = consumed_charge is not None or battle.corps(cid)["total_melee_with"] is not None
        roll_bonus += brute["attack"] * (2 if double else 1)
        flat += brute["damage"] * (2 if double else 1)
    success = opposed_roll(battle, cid, action, prefix, out, target, attack_skill=attack_skill,
                           defense_skill=defense_skill, roll_bonus=roll_bonus, heroic=heroic)
    choice, hero = critical_choice(battle, cid, action, target) if out["critical"] else (None, None)
    consequences = row["success"] if success else row["failure"]
    deltas = out["advantage_delta"]
    if "damage" in consequences:
        spec = consequences["damage"]
        if spec["characteristic"] == "by_active_skill":
            characteristic = "str" if attack_skill == "force_attack" else "dex"
        elif spec["characteristic"] == "str_or_dex":
            characteristic = damage.higher_characteristic(battle, cid, action["damage_characteristic"])
        else:
            characteristic = spec["characteristic"]
        value = damage.normal(battle, cid, target, characteristic=characteristic, dice_name=f"{prefix}/damage",
                              dice_count=spec["d4"], action_flat=flat,
                              critical_name=f"{prefix}/critical" if choice == "damage" else None)
        dealt, returned = damage.apply(battle, cid, target, value)
        out["damage_dealt"] += dealt
        out["return_damage"] += returned
    battle.change_advantage(cid, consequences.get("advantage_self", 0), "S5.11", act, deltas)
    if battle.active(target):
        battle.change_advantage(target, consequences.get("advantage_target", 0), "S5.11", act, deltas)
    if "target_effect" in consequences and battle.active(target):
        _add_effect(battle, target, cid, act, consequences["target_effect"], prefix, out)
    if "self_effect" in consequences:
        _add_effect(battle, cid, cid, act, consequences["self_effect"], prefix, out, target=target)
    if consequences.get("enter_total_melee") and battle.active(target):
        _enter_melee(battle, cid, target)
    if consequences.get("target_retreats") and battle.active(target):
        _push_back(battle, cid, target, action, out)
    if "damage_from_target" in consequences and battle.active(target):
        characteristic = damage.higher_characteristic(
            battle, target, battle.ctx.declarations.get("corps", {}).get(target, {}).get("melee_characteristic"))
        value = damage.normal(battle, target, cid, characteristic=characteristic, dice_name=f"{prefix}/riposte",
                              dice_count=consequences["damage_from_target"]["d4"])
        taken, returned = damage.apply(battle, target, cid, value)
        out["damage_taken"] += taken
        out["return_damage"] += returned
    if out["critical"]:
        apply_critical(battle, cid, action, target, choice, hero, out, damaged=row["damaging"])


def _add_effect(battle: Battle, holder: str, actor: str, act: str, spec: dict, prefix: str, out: dict,
                target: str | None = None) -> None:
    if "duration" in spec:
        d6 = battle.dice.roll(f"{prefix}/duration", D6)
        rounds = tables.DURATION[d6]  # S6.15 / H12
        out["duration_rounds"] = rounds
    else:
        rounds = spec["rounds_left"]
    kind = spec["kind"]
    if kind == "skill":
        effect = {"kind": kind, "skills": list(spec["skills"]), "value": spec["value"], "rounds_left": rounds,
                  "source": act, "from_corps": actor}
    elif kind == "attack_rolls":
        effect = {"kind": kind, "value": spec["value"], "rounds_left": rounds, "source": act, "from_corps": actor}
    else:
        effect = {"kind": kind, "attack": spec["attack"], "damage": spec["damage"], "rounds_left": rounds}
        if kind == "charge":
            effect["target"] = target
    battle.add_effect(holder, effect, "S5.11")


def _enter_melee(battle: Battle, cid: str, target: str) -> None:
    """S7.1.1: the actor moves into the target's zone; the pair is recorded."""
    battle.corps(cid)["zone"] = battle.corps(target)["zone"]
    battle.corps(cid)["total_melee_with"] = target
    battle.corps(target)["total_melee_with"] = cid
    battle.log.add("S7.1", "melee.entered", "{corps} enters total melee with {target} in {zone}.",
                   corps=cid, target=target, zone=battle.corps(target)["zone"])


def _push_back(battle: Battle, cid: str, target: str, action: dict, out: dict) -> None:
    """S7.1.4 / H26: one zone away from the actor, into a free zone, else nobody moves."""
    if battle.corps(target)["total_melee_with"] is not None:
        return
    game_map = battle.state["map"]
    here = battle.corps(target)["zone"]
    away = terrain.distances_from(game_map, battle.corps(cid)["zone"])
    far = lambda z: away.get(z, float("inf"))  # noqa: E731
    options = [z for z in game_map["zones"][here]["neighbors"] if free(battle, z) and far(z) > far(here)]
    wanted = action["push_to_zone"]
    dest = wanted if wanted in options else (min(options, key=lambda z: (-far(z), z)) if options else None)
    if dest is not None:
        battle.corps(target)["zone"] = dest
        battle.log.add("S7.1.4", "move.step", "{corps} is pushed back to {zone}.", corps=target, zone=dest)


def critical_choice(battle: Battle, cid: str, action: dict, enemy: str | None) -> tuple[str, str | None]:
    """S5.12 / H21: the declared option, else the default; hero death needs an intervening enemy hero."""
    row = tables.ACTIONS[action["action"]]
    default = "damage" if row["damaging"] else "advantage"
    if enemy is None:
        return "advantage", None
    choice = action["on_critical"] or default
    if choice == "hero_death":
        side = battle.side_of(cid)
        candidates = [h for h in battle.ctx.interventions
                      if battle.state["armies"][battle.state["heroes"][h]["army_id"]]["side"] != side
                      and battle.state["heroes"][h]["status"] == "active"]
        if action["critical_hero"] in candidates:
            return choice, action["critical_hero"]
        if candidates:
            return choice, min(candidates, key=lambda h: (-battle.hero_info[h]["class_level"], h))
        return default, None
    return choice, None


def apply_critical(battle: Battle, cid: str, action: dict, enemy: str | None, choice: str, hero: str | None,
                   out: dict, *, damaged: bool) -> None:
    out.update(critical_choice=choice, critical_hero=hero)
    battle.log.add("S5.12", "action.critical", "{corps} critical success: {choice}.", corps=cid, choice=choice)
    if choice == "advantage":
        battle.change_advantage(cid, 1, "S5.12", "critical", out["advantage_delta"])
    elif choice == "hero_death":
        battle.hero_death(hero, "critical")
    elif not damaged and enemy is not None and battle.active(enemy):
        characteristic = damage.higher_characteristic(battle, cid, action["damage_characteristic"])
        count = tables.ACTIONS[action["action"]].get("critical_damage_d4", 1)
        value = damage.critical_only(battle, cid, enemy, characteristic=characteristic,
                                     dice_name=f"{out_prefix(out)}/critical", dice_count=count)
        dealt, returned = damage.apply(battle, cid, enemy, value)
        out["damage_dealt"] += dealt
        out["return_damage"] += returned


def out_prefix(out: dict) -> str:
    return f"{out['corps_id']}/a{out['slot']}" if out["slot"] is not None else f"{out['corps_id']}/opportune"


def _self_roll(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool,
               opponent: str | None) -> bool:
    """Manoeuvres opposed by the reflex of an opposing corps; automatic without one (S4.14)."""
    if opponent is None:
        out.update(status="automatic", success=True, attack_skill="maneuver")
        battle.log.add("S4.14", "action.success", "{corps} {action}: automatic success.", corps=cid,
                       action=action["action"], result="automatic", critical="")
        return True
    return opposed_roll(battle, cid, action, prefix, out, opponent, attack_skill="maneuver", defense_skill="reflex",
                        heroic=heroic)


def _finish_self(battle: Battle, cid: str, action: dict, out: dict, opponent: str | None, success: bool) -> None:
    if not success:
        battle.change_advantage(cid, tables.ACTIONS[action["action"]]["failure"].get("advantage_self", 0), "S5.11",
                                action["action"], out["advantage_delta"])
    if out["critical"]:
        choice, hero = critical_choice(battle, cid, action, opponent)
        apply_critical(battle, cid, action, opponent, choice, hero, out, damaged=False)


def run_move(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """S5.8: roll (once the conflict started), moves achieved, extra-move penalty, walk."""
    opponent = opponent_of(battle, cid, action)
    success = _self_roll(battle, cid, action, prefix, out, heroic, opponent)
    moves = action["moves"]
    achieved = moves if success else moves - 1
    out["moves_achieved"] = achieved
    _finish_self(battle, cid, action, out, opponent, success)
    if moves >= 2:  # H17
        battle.add_effect(cid, {"kind": "skill", "skills": list(tables.OFFENSIVE_SKILLS + tables.DEFENSIVE_SKILLS),
                                "value": -(moves - 1), "rounds_left": 1, "source": "move", "from_corps": cid}, "S5.8")
    corps = battle.corps(cid)
    budget = achieved * battle.sheet_of(cid)["speed_effective"] + battle.allocation(cid)["preparation"]
    start = corps["zone"]
    for zone in action["path"]:
        cost = terrain.exit_cost(battle.state["map"]["zones"][corps["zone"]]["terrain"])
        if not terrain.adjacent(battle.state["map"], corps["zone"], zone) or not free(battle, zone) or cost > budget:
            break
        budget -= cost
        corps["zone"] = zone
        battle.log.add("S5.8", "move.step", "{corps} moves to {zone} ({cost} units).", corps=cid, zone=zone, cost=cost)
    out["moved_to"] = corps["zone"] if corps["zone"] != start else None


def withdraw_destination(battle: Battle, cid: str, action: dict) -> str | None:
    """S7.1.5: ``to_zone`` if next and free, else the free neighbour farthest from the opposing corps."""
    game_map = battle.state["map"]
    here = battle.corps(cid)["zone"]
    options = [z for z in game_map["zones"][here]["neighbors"] if free(battle, z)]
    if action["to_zone"] in options:
        return action["to_zone"]
    if not options:
        return None
    opponent = opponent_of(battle, cid, action)
    away = terrain.distances_from(game_map, battle.corps(opponent)["zone"]) if opponent else {}
    return min(options, key=lambda z: (-away.get(z, float("inf")) if opponent else 0, z))


def run_withdraw(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """S5.11.12: one zone back whatever the roll; the total melee ends."""
    opponent = opponent_of(battle, cid, action)
    dest = withdraw_destination(battle, cid, action)
    success = _self_roll(battle, cid, action, prefix, out, heroic, opponent)
    battle.end_melee(cid)
    battle.corps(cid)["zone"] = dest
    out["moved_to"] = dest
    battle.log.add("S5.11", "move.step", "{corps} withdraws to {zone}.", corps=cid, zone=dest, cost=0)
    if success:
        _add_effect(battle, cid, cid, "withdraw", tables.ACTIONS["withdraw"]["success"]["self_effect"], prefix, out)
    _finish_self(battle, cid, action, out, opponent, success)


def run_divide(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """S7.2.2: the new corps appear whatever the roll; a failure costs the original corps 1 point."""
    opponent = opponent_of(battle, cid, action)
    success = _self_roll(battle, cid, action, prefix, out, heroic, opponent)
    corps = battle.corps(cid)
    for item in action["new_corps"]:
        battle.state["corps"][item["id"]] = {
            "id": item["id"], "army_id": corps["army_id"], "zone": item["zone"], "hp": item["hp"],
            "advantage": item["advantage"], "initiative": corps["initiative"], "status": "active",
            "total_melee_with": None, "effects": [dict(e, skills=list(e["skills"])) if "skills" in e else dict(e)
                                                  for e in corps["effects"]]}
        corps["hp"] -= item["hp"]
        corps["advantage"] -= item["advantage"]
        for hero_id in item["heroes"]:
            battle.state["heroes"][hero_id]["corps_id"] = item["id"]
        battle.log.add("S7.2.2", "corps.divided", "{corps} detaches {new} ({hp} hp) to {zone}.", corps=cid,
                       new=item["id"], hp=item["hp"], zone=item["zone"])
    _finish_self(battle, cid, action, out, opponent, success)


def run_regroup(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """S7.2.3: the participants merge into ``into`` whatever the roll."""
    into = action["into"]
    members = sorted({cid, *action["with"]})
    opponent = opponent_of(battle, cid, action)
    success = _self_roll(battle, into if opponent else cid, action, prefix, out, heroic, opponent)
    target = battle.corps(into)
    others = [m for m in members if m != into]
    target["initiative"] = min(battle.corps(m)["initiative"] for m in members)
    for m in others:
        corps = battle.corps(m)
        target["hp"] += corps["hp"]
        target["advantage"] += corps["advantage"]
        target["effects"].extend(corps["effects"])
        corps.update(status="merged", effects=[], hp=0, advantage=0)  # everything now counts in ``into``
        for hero in battle.state["heroes"].values():
            if hero["corps_id"] == m:
                hero["corps_id"] = into
        battle.log.add("S7.2.3", "corps.merged", "{corps} merges into {into}.", corps=m, into=into, zone=target["zone"])
    _finish_self(battle, into, action, out, opponent, success)


def run_terrain(battle: Battle, cid: str, action: dict, prefix: str, out: dict, heroic: bool) -> None:
    """S7.3: opposed by an enemy occupant, else an absolute difficulty (H25)."""
    zone = battle.state["map"]["zones"][action["zone"]]
    key = action["characteristic"]
    old, new = zone["terrain"][key], _terrain_target_level(battle, action)
    skill = terrain_skill(battle, action)
    occupant = enemy_occupant(battle, cid, action["zone"])
    if key == "weather":
        absolute = 10 * (new if new > old else old)
        if occupant is not None and battle.army_of(occupant)["has_magic"]:
            absolute = max(absolute, 10 + battle.eff(occupant, "will", cid))
        occupant_opposes = False
    else:
        absolute = 5 * max(old, new)
        occupant_opposes = occupant is not None
    if occupant_opposes:
        defence = tables.TERRAIN_MODIFICATION[key][action["direction"]]["enemy_occupant_defense"]
        success = opposed_roll(battle, cid, action, prefix, out, occupant, attack_skill=skill, defense_skill=defence,
                               heroic=heroic)
    else:
        d20 = 20 if heroic else battle.dice.roll(f"{prefix}/attack", D20)
        if heroic:
            battle.dice.used[f"{prefix}/attack"] = 20
        total = d20 + battle.eff(cid, skill, occupant, actor=occupant is not None) + battle.manual(cid, "attack_rolls")
        critical = d20 >= battle.sheet_of(cid)["crit_min"]
        out.update(attack_skill=skill, roll=d20, attack_total=total, defense_mode="absolute", defense_total=absolute,
                   critical=critical, success=critical or total >= absolute)
        _log_roll(battle, cid, out)
        success = out["success"]
    if success:
        _change_terrain(battle, action["zone"], key, old, new)
        out["terrain_change"] = {"zone": action["zone"], "characteristic": key, "from": old, "to": new}
    if out["critical"]:
        choice, hero = critical_choice(battle, cid, action, occupant)
        apply_critical(battle, cid, action, occupant, choice, hero, out, damaged=False)


def _change_terrain(battle: Battle, zone_id: str, key: str, old: int, new: int) -> None:
    """S7.3 step 4: one level (weather: the level wanted, spilling over the zones around)."""
    zones = battle.state["map"]["zones"]
    zones[zone_id]["terrain"][key] = new
    battle.log.add("S7.3", "terrain.changed", "{zone} {characteristic}: {old} -> {new}.", zone=zone_id,
                   characteristic=key, old=old, new=new)
    if key != "weather":
        return
    top = tables.TERRAIN_MAX["weather"]
    for other, d in sorted(terrain.distances_from(battle.state["map"], zone_id).items()):
        if d == 0:
            continue
        level = zones[other]["terrain"]["weather"]
        spilled = max(level, new - d) if new > old else min(level, new + d)
        spilled = min(top, max(0, spilled))
        if spilled != level:
            zones[other]["terrain"]["weather"] = spilled
            battle.log.add("S7.3", "terrain.changed", "{zone} {characteristic}: {old} -> {new}.", zone=other,
                           characteristic=key, old=level, new=spilled)


# ---------------------------------------------------------------- opportune counter (S7.7.3)


def after_failure(battle: Battle, actor: str, action: dict, out: dict) -> None:
    """H30: a failed enemy action may trigger an opportune counter-attack of the corps it aimed at."""
    if out["success"] is not False or out["status"] == "cancelled":
        return
    enemy = out["target"] if out["target"] else opponent_of(battle, actor, action)
    if enemy is None or not battle.active(enemy) or not battle.active(actor):
        return
    if "opportune_attack" not in battle.talents_of(enemy) or enemy in battle.ctx.opportune_used:
        return
    setting = battle.ctx.declarations.get("corps", {}).get(enemy, {}).get("opportune") or {
        "mode": "counter", "action": "massive_assault"}
    if setting["mode"] != "counter" or battle.corps(enemy)["initiative"] < 1:
        return
    counter = full_action(action=setting["action"], target=actor)
    if impossible(battle, enemy, counter) is not None:
        return
    battle.ctx.opportune_used.add(enemy)
    battle.corps(enemy)["initiative"] -= 1
    key = f"{enemy}/opportune"
    result = new_outcome(counter, enemy, None)
    battle.log.add("S7.7.3", "action.opportune", "{corps} strikes back at {target} (opportune attack).",
                   corps=enemy, target=actor, action=setting["action"])
    run_targeted(battle, enemy, counter, key, result, False)
    battle.outcomes[key] = result
    battle.event("action", corps=enemy, slot="opportune", action=counter["action"], status=result["status"],
                 target=actor, success=result["success"], damage=result["damage_dealt"])
    after_failure(battle, enemy, counter, result)
