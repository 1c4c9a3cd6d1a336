"""A whole round (S5.3): initiative, declarations, movement, actions, end of round, end of battle."""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.explain import Listed
from rules.jdrwiki import combat, damage, declare, defaults, initiative, tables
from rules.jdrwiki.battle import Battle


def start(battle: Battle, decl: dict, path: str, *, spend_points: bool = True,
          roll_initiative: bool = True, silent: list[str] = (), must: list[str] = ()) -> tuple[list[str], list[str]]:
    """R1–R3; returns the ids that rolled initiative and the resolution order.

    S5.4.4: the order is fixed right after the initiative phase; spending and
    the GM's adjustments of this round do not change it.  ``silent`` sides
    declared nothing and get their defaults once the advantage they must
    allocate is known (:mod:`rules.jdrwiki.defaults`); ``must`` are the keys of
    those the round waited for, listed in ``battle.ctx.defaults_applied`` too.
    """
    declare.gm_modifiers(battle, decl["gm"], f"{path}gm.")
    rolled: list[str] = []
    if decl["rerolls"] and battle.state["phase"] != "initiative":
        raise InvalidInput.field(f"{path}rerolls", "re-rolls are declared only in the initiative phase (S5.6)")
    if roll_initiative and battle.state["phase"] == "initiative":
        rolled = initiative.phase(battle, decl["rerolls"], f"{path}rerolls")
    order = battle.resolution_order()
    declare.apply_gm(battle, decl["gm"], f"{path}gm.", adjustments=spend_points)
    battle.ctx.defaults_applied = sorted(set(must) | set(defaults.fill(battle, decl, list(silent))))
    for key in battle.ctx.defaults_applied:
        battle.log.add("S5.5.2", "defaults.applied", "{participant} declared nothing: default orders.",
                       participant=key)
    declare.validate(battle, decl, path)
    declare.apply(battle, decl, path, spend_points=spend_points)
    return rolled, [c for c in order if battle.active(c)]


def resolve(battle: Battle, decl: dict, path: str, silent: list[str] = (), must: list[str] = ()) -> dict:
    """R1–R7 (S5.3)."""
    rolled, order = start(battle, decl, path, silent=silent, must=must)
    battle.log.add("S5.4.4", "initiative.order", "Resolution order: {order}.", order=Listed(order))
    counters = Counters(battle, decl)
    # R4: every move first, corps by corps (S5.8)
    for cid in order:
        for slot, action in enumerate(decl["corps"].get(cid, {"actions": []})["actions"]):
            if action["action"] == "move" and not action["as_counter"] and battle.active(cid):
                counters.resolve(cid, slot)
    # R5: the other actions (S5.9)
    regroup_turn = _regroup_turns(decl, order)
    for cid in order:
        for slot, action in enumerate(decl["corps"].get(cid, {"actions": []})["actions"]):
            if not battle.active(cid):
                break
            if action["action"] == "move" or action["as_counter"]:
                continue
            if action["action"] == "regroup":
                if regroup_turn.get(cid) != slot:
                    continue
                counters.resolve(cid, slot)
                _share_regroup(battle, decl, cid, slot)
                continue
            counters.resolve(cid, slot)
    counters.leftovers(order)
    _cancel_unresolved(battle, decl)
    end_of_round(battle, decl)
    return {"rolled": rolled, "order": order}


def _share_regroup(battle: Battle, decl: dict, cid: str, slot: int) -> None:
    """S7.2.3: the concerted regroup is one resolution; every participant's slot records it."""
    outcome = battle.outcomes.get(f"{cid}/a{slot}")
    if outcome is None:
        return
    for member in decl["corps"][cid]["actions"][slot]["with"]:
        for other_slot, action in enumerate(decl["corps"].get(member, {"actions": []})["actions"]):
            if action["action"] == "regroup":
                battle.outcomes[f"{member}/a{other_slot}"] = {**outcome, "corps_id": member, "slot": other_slot}


def _regroup_turns(decl: dict, order: list[str]) -> dict[str, int]:
    """S7.2.3: a concerted regroup resolves at the turn of its participant that comes last."""
    turns: dict[str, int] = {}
    for cid, corps_decl in decl["corps"].items():
        for slot, action in enumerate(corps_decl["actions"]):
            if action["action"] == "regroup" and not action["as_counter"]:
                members = {cid, *action["with"]}
                last = max((m for m in members if m in order), key=order.index, default=None)
                if last == cid:
                    turns[cid] = slot
    return turns


class Counters:
    """S7.8: counters wait for the first action of their target against their corps."""

    def __init__(self, battle: Battle, decl: dict):
        self.battle = battle
        self.pending: list[tuple[str, int, str]] = [
            (cid, slot, a["target"]) for cid, c in sorted(decl["corps"].items())
            for slot, a in enumerate(c["actions"]) if a["as_counter"]]

    def _take(self, actor: str, against: str | None, barrage: bool) -> list[tuple[str, int]]:
        found = [(c, s) for c, s, t in self.pending if t == actor and c == against
                 and (self.battle.ctx.declarations["corps"][c]["actions"][s]["action"] == "barrage") == barrage]
        self.pending = [p for p in self.pending if (p[0], p[1]) not in found]
        return found

    def resolve(self, cid: str, slot: int) -> None:
        battle = self.battle
        action = battle.ctx.declarations["corps"][cid]["actions"][slot]
        against = combat.opponent_of(battle, cid, action) if combat.impossible(battle, cid, action) is None else None
        for c, s in self._take(cid, against, barrage=True):
            if battle.active(c):
                combat.resolve_slot(battle, c, s)
        if battle.active(cid):
            combat.resolve_slot(battle, cid, slot)
        for c, s in self._take(cid, against, barrage=False):
            if battle.active(c):
                combat.resolve_slot(battle, c, s)

    def leftovers(self, order: list[str]) -> None:
        for c, s, _ in sorted(self.pending, key=lambda p: (order.index(p[0]) if p[0] in order else len(order), p[1])):
            if self.battle.active(c):
                combat.resolve_slot(self.battle, c, s)
        self.pending = []


def _cancel_unresolved(battle: Battle, decl: dict) -> None:
    """S5.9 step 3: actions of a corps gone before its turn are recorded as cancelled."""
    for cid, corps_decl in sorted(decl["corps"].items()):
        for slot, action in enumerate(corps_decl["actions"]):
            key = f"{cid}/a{slot}"
            if key not in battle.outcomes:
                battle.outcomes[key] = {**combat.new_outcome(action, cid, slot), "status": "cancelled"}
                battle.log.add("S5.9", "action.cancelled", "{corps}: {action} is cancelled (the corps is gone).",
                               corps=cid, action=action["action"], reason="gone")


# ---------------------------------------------------------------- R6 / R7


def end_of_round(battle: Battle, decl: dict) -> None:
    """S5.14 steps 1–8."""
    _melee_damage(battle, decl)
    for hero_id, info in sorted(battle.ctx.interventions.items()):
        if info["sacrifice"]:
            battle.hero_death(hero_id, "sacrifice")
    for hero_id, info in sorted(battle.ctx.interventions.items()):
        battle.state["heroes"][hero_id]["available_from_round"] = battle.round + info["cooldown_after"] + 1
    for hero_id, dest in sorted(battle.ctx.transfers.items()):
        hero = battle.state["heroes"][hero_id]
        if hero["status"] == "active" and battle.active(dest):
            hero["corps_id"] = dest
            if hero["available_from_round"] > battle.round:
                hero["available_from_round"] += 1
            battle.log.add("S7.4.7", "hero.transfer", "{hero} joins {corps}.", hero=hero_id, corps=dest)
    _tick_effects(battle)
    _confusion(battle)
    _withdrawals(battle, decl)
    if _any_enemy_targeted(battle):
        battle.state["conflict_started"] = True
    battle.state["clock"]["elapsed_minutes"] += battle.state["clock"]["round_minutes"]
    _end_check(battle, decl["gm"]["end_battle"])
    battle.state["round"] += 1
    battle.state["phase"] = "initiative"


def _any_enemy_targeted(battle: Battle) -> bool:
    return any(o["target"] is not None and o.get("status") != "cancelled" for o in battle.outcomes.values())


def _melee_damage(battle: Battle, decl: dict) -> None:
    """S7.1.2 / H50: simultaneous normal damage, then the perception point."""
    pairs = sorted({tuple(sorted((c, battle.corps(c)["total_melee_with"]))) for c in battle.active_corps()
                    if battle.corps(c)["total_melee_with"] is not None})
    for a, b in pairs:
        amounts = {}
        for dealer, receiver in ((a, b), (b, a)):
            choice = decl["corps"].get(dealer, {}).get("melee_characteristic")
            characteristic = damage.higher_characteristic(battle, dealer, choice)
            amounts[dealer] = damage.normal(battle, dealer, receiver, characteristic=characteristic,
                                            dice_name=f"{dealer}/melee/damage", dice_count=1, rule="S7.1.2")
        for dealer, receiver in ((a, b), (b, a)):
            dealt, _ = damage.apply(battle, dealer, receiver, amounts[dealer])
            battle.outcomes[f"{dealer}/melee"] = {"target": receiver, "damage_dealt": dealt, "perception_gain": False}
        pa, pb = battle.eff(a, "perception"), battle.eff(b, "perception")
        winner = a if pa > pb else b if pb > pa else None
        battle.log.add("S7.1.2", "melee.perception", "Total melee perception {a} {pa} / {b} {pb}.",
                       a=a, pa=pa, b=b, pb=pb)
        if winner is not None and battle.active(winner):
            battle.change_advantage(winner, 1, "S7.1.2", "total melee perception")
            battle.outcomes[f"{winner}/melee"]["perception_gain"] = True
        battle.event("melee", corps=[a, b], damage={a: amounts[a], b: amounts[b]})


def _tick_effects(battle: Battle) -> None:
    for cid, corps in sorted(battle.state["corps"].items()):
        kept = []
        for effect in corps["effects"]:
            effect["rounds_left"] -= 1
            if effect["rounds_left"] > 0:
                kept.append(effect)
            else:
                battle.log.add("S5.14", "effect.expired", "{corps}: a {kind} effect ends.", corps=cid,
                               kind=effect["kind"])
        corps["effects"] = kept


def _confusion(battle: Battle) -> None:
    """S5.14 step 5 / S7.5.2."""
    for army_id, army in sorted(battle.state["armies"].items()):
        if army["confusion_round"] == battle.round:
            army["confusion_round"], army["confusion_penalty"] = None, 0
            if any(h["is_commander"] and h["army_id"] == army_id and h["fate"] == "dead"
                   for h in battle.state["heroes"].values()):
                battle.log.add("S7.5.2", "army.no_commander", "{army} fights on with its fallen commander's sheet until the GM"
                               " names a new one.", army=army_id)
    for army_id in sorted(battle.ctx.commander_down):
        army = battle.state["armies"][army_id]
        hero = next(h for h in battle.state["heroes"].values() if h["army_id"] == army_id and h["is_commander"])
        army["confusion_round"] = battle.round + 1
        army["confusion_penalty"] = 0 if "confidence" in army["talents"] else battle.hero_info[hero["id"]]["class_level"]
        battle.log.add("S7.5.2", "army.confusion", "{army} will be in confusion next round (penalty {penalty}).",
                       army=army_id, penalty=army["confusion_penalty"])


def _withdrawals(battle: Battle, decl: dict) -> None:
    """S5.15.2 / H44: corps not in total melee leave the battle."""
    for army_id, army_decl in sorted(decl["armies"].items()):
        if not army_decl["withdraw"]:
            continue
        for cid in battle.active_corps():
            corps = battle.corps(cid)
            if corps["army_id"] == army_id and corps["total_melee_with"] is None:
                corps["status"] = "fled"
                battle.log.add("S5.15.2", "corps.fled", "{corps} leaves the battlefield.", corps=cid)
                battle.event("fled", corps=cid)
        battle.update_army_status(army_id)


def _end_check(battle: Battle, gm_end: bool) -> None:
    """S5.15.1."""
    standing = {side: any(battle.side_of(c) == side for c in battle.active_corps()) for side in ("a", "b")}
    if not all(standing.values()) or gm_end:
        battle.state["ended"] = True
        if standing["a"] != standing["b"]:
            battle.state["winner"] = "a" if standing["a"] else "b"
        battle.log.add("S5.15", "battle.ended", "The battle ends; winner: {winner}.", winner=battle.state["winner"])
        battle.event("battle_ended", winner=battle.state["winner"])


def summary(battle: Battle) -> dict:
    st = battle.state
    clock = st["clock"]
    return {
        "corps": {cid: {k: c[k] for k in ("hp", "advantage", "initiative", "zone", "status", "total_melee_with")}
                  for cid, c in sorted(st["corps"].items())},
        "heroes": {hid: {k: h[k] for k in ("status", "corps_id", "available_from_round", "heroism_points", "fate")}
                   for hid, h in sorted(st["heroes"].items())},
        "armies": {aid: {"status": a["status"], "ruthless": a["ruthless"],
                         "army_heroism_points": a["army_heroism_points"],
                         "commander_heroism_points": a["commander"]["heroism_points"],
                         "confusion_round": a["confusion_round"]}
                   for aid, a in sorted(st["armies"].items())},
        "time_of_day": time_of_day(clock["start_time"], clock["elapsed_minutes"]),
        "fatigue": clock["elapsed_minutes"] > tables.FATIGUE_AFTER_MINUTES,
    }


def time_of_day(start_time: str | None, elapsed: int) -> str | None:
    """S4.17: (start + elapsed) modulo 24 hours."""
    if start_time is None:
        return None
    hours, minutes = map(int, start_time.split(":"))
    total = (hours * 60 + minutes + elapsed) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"
