"""One whole round (S5.4-S5.13): adjustments, turns in initiative order,
end of round.  Each creature's actions go through the shared attack, spell,
movement and damage code; this module only sequences them and records the
events of S9.13.4.
"""

from __future__ import annotations

from rules.dnd5e.adjustments import apply_adjustment, free_and_enterable, place_fallen_solo
from rules.dnd5e.battle import Battle
from rules.dnd5e.checks_ops import command_check, death_save_run, morale_roll, rally_roll
from rules.dnd5e.combat import resolve_attack, resolve_spell
from rules.dnd5e.geometry import DIRECTIONS, Box, clipped_area, dist, squares_range
from rules.dnd5e.movement import Mover
from rules.dnd5e.participants import participants
from rules.dnd5e.orders import (
    Declarations, SoloOrder, StandOrder, UnitOrders, unit_actions, validate, validate_paths,
)
from rules.dnd5e.rolls import d20
from rules.dnd5e.sheets import cha_check_bonus, mod, passive_perception, save_bonus, stealth_bonus
from rules.registry import Context


class Round:
    def __init__(self, b: Battle, decl: Declarations, ctx: Context):
        self.b = b
        self.decl = decl
        self.ctx = ctx
        self.r = b.round
        self.acted: set[str] = set()
        self.supporters: dict[str, list[str]] = {}
        self.defaults_applied: list[str] = []

    # -- S5.4 -------------------------------------------------------------------
    def run(self) -> None:
        b = self.b
        validate(b, self.decl)
        self.apply_defaults()
        start = {cid: e["position"] for cid, e in (*b.stands.items(), *b.solos.items()) if e["position"] is not None}
        for i, adj in enumerate(self.decl.gm.adjustments):
            apply_adjustment(b, i, adj)
        for cid in validate_paths(b, self.decl, start):
            self.ctx.log.add("S5.3", "round.path_moved", "{actor} was moved by the GM: its path is walked as far "
                             "as it still joins up.", actor=cid)
        b.overrides = dict(self.decl.gm.isolation_overrides)
        b.evaluate_isolation()
        self.ctx.log.add("S5.4", "round.start", "Round {round} begins.", round=self.r)
        for entry in list(b.st["initiative_order"]):
            if entry["kind"] == "unit":
                self.unit_turn(entry["id"])
            else:
                self.solo_entry(entry["id"])
        self.end_of_round()

    def apply_defaults(self) -> None:
        """Participants who must declare and did not get their default orders: no action, no movement (S11.1)."""
        for p in participants(self.b.st):
            if not p["must_declare"]:
                continue
            kind, ident = p["participant"]["kind"], p["participant"]["id"]
            if ident in (self.decl.units if kind == "unit" else self.decl.solos):
                continue
            self.defaults_applied.append(p["key"])
            self.ctx.log.add("S11.1", "defaults.applied", "{participant} declared nothing: no action, no movement.",
                             participant=p["key"])

    # -- S5.5 --------------------------------------------------------------------
    def unit_turn(self, uid: str) -> None:
        b, u = self.b, self.b.units[uid]
        if u["eliminated_round"] is not None or not any(b.in_play(s) for s in u["stands"]):
            b.event("turn_skipped", actor=uid, reason="eliminated")
            return
        if self.r == 1 and u["surprised"]:
            b.event("turn_skipped", actor=uid, reason="surprised")
            self.ctx.log.add("S7.1", "round.surprised", "{unit} is surprised and does not act.", unit=uid)
            for hid in self.attached_solos(uid):
                self.acted.add(hid)
            return
        b.event("turn", actor=uid, kind="unit")
        declared = self.decl.units.get(uid)
        orders: UnitOrders = declared if declared is not None else UnitOrders()
        bonus_spent: set[str] = set()
        commander = u["commander"]
        if u["broken"] and commander is not None and b.solo_can_act(commander):
            wish = self.solo_order(commander).bonus_action
            if wish in (None, "rally"):
                bonus_spent.add(commander)
                modifier = self.morale_modifier(uid) + mod(b.profile(commander).abilities.cha)
                roll = rally_roll(self.ctx, f"{uid}.rally", b.prepared(uid), modifier)
                b.event("rally", unit=uid, commander=commander, d20=roll["d20"], total=roll["total"],
                        success=roll["success"])
                if roll["success"]:
                    u["broken"] = False
                    orders = (declared.if_rallied if declared is not None else None) or UnitOrders()
        reason = unit_actions(b, uid)[orders.action]
        if reason:  # the GM's adjustments changed the unit since the orders were given (H5)
            self.ctx.log.add("S5.3", "round.orders_cut", "{unit} cannot {action} now: {reason}.", unit=uid,
                             action=orders.action, reason=reason)
            orders = orders.model_copy(update={"action": "none"})
        solos = self.attached_solos(uid)
        for hid in solos:
            if hid not in bonus_spent:
                self.bonus_action(hid, uid)
        for hid in solos:
            if self.solo_order(hid).timing == "before_stands":
                self.attached_solo_act(hid)
        if orders.action == "attack":
            for so in orders.stands:
                if so.support is not None:
                    self.supporters.setdefault(so.support, []).append(so.stand)
        for so in orders.stands:
            self.stand_turn(uid, orders, so)
        for hid in solos:
            if hid not in self.acted:
                self.attached_solo_act(hid)
        # T7
        if orders.action == "configure" and orders.configuration and u["configuration"] != orders.configuration:
            b.event("configure", unit=uid, **{"from": u["configuration"], "to": orders.configuration})
            self.ctx.log.add("S5.8.3", "round.configure", "{unit} changes to the {to} configuration.",
                             unit=uid, to=orders.configuration)
            u["configuration"] = orders.configuration
        for field in ("prepare_until_round", "motivate_until_round"):
            if u[field] == self.r:
                u[field] = None
        b.evaluate_isolation()

    def attached_solos(self, uid: str) -> list[str]:
        stands = set(self.b.units[uid]["stands"])
        return sorted(h for h, s in self.b.solos.items()
                      if s["attached_to"] in stands and self.b.solo_can_act(h) and h not in self.acted)

    def solo_order(self, hid: str) -> SoloOrder:
        return self.decl.solos.get(hid) or SoloOrder()

    def morale_modifier(self, uid: str) -> int:
        b = self.b
        stands = [s for s in b.units[uid]["stands"] if b.in_play(s)]
        mods = [b.wis_mod(s) for s in stands]
        mods += [b.wis_mod(h) for h, x in b.solos.items() if x["attached_to"] in stands and x["condition"] == "active"]
        return max(mods) if mods else 0

    def bonus_action(self, hid: str, uid: str) -> None:
        """T3 (S5.12): judged when the unit's turn starts; an impossible one is logged and lost."""
        b, u = self.b, self.b.units[uid]
        bonus = self.solo_order(hid).bonus_action
        if bonus is None or bonus == "rally":
            return
        commands = next((k for k, v in b.units.items() if v["commander"] == hid), None)
        if bonus == "become_commander":
            if u["commander"] is None and commands is None:
                u["commander"] = hid
                b.event("commander_change", unit=uid, commander=hid, reason="become_commander")
                b.event("bonus_action", solo=hid, unit=uid, bonus_action=bonus, d20=None, total=None, success=True)
                self.ctx.log.add("S5.12", "command.become", "{solo} takes command of {unit}.", solo=hid, unit=uid)
                return
        elif commands == uid:
            if bonus == "cease_commander":
                u["commander"] = None
                b.event("commander_change", unit=uid, commander=None, reason="cease_commander")
                b.event("bonus_action", solo=hid, unit=uid, bonus_action=bonus, d20=None, total=None, success=True)
                self.ctx.log.add("S5.12", "command.cease", "{solo} gives up command of {unit}.", solo=hid, unit=uid)
                return
            check = command_check(self.ctx, f"{hid}.command", bonus, cha_check_bonus(b.profile(hid)), self.r)
            if check["success"]:
                u[f"{bonus}_until_round"] = check["until_round"]
            b.event("bonus_action", solo=hid, unit=uid, bonus_action=bonus, d20=[check["natural"]],
                    total=check["total"], success=check["success"])
            return
        b.event("bonus_action", solo=hid, unit=uid, bonus_action=bonus, d20=None, total=None, success=False)
        self.ctx.log.add("S5.12", "command.impossible", "{solo} cannot {bonus} now.", solo=hid, bonus=bonus)

    # -- T5: one stand -------------------------------------------------------------
    def stand_turn(self, uid: str, orders: UnitOrders, so: StandOrder) -> None:
        b, sid = self.b, so.stand
        if not b.in_play(sid) or sid in self.acted:
            return
        self.acted.add(sid)
        action = orders.action
        if action == "cast_spell" and not b.profile(sid).spells:
            action = so.action or "none"
        mover = Mover(b, sid, dashing=action == "dash", disengaging=action == "disengage")
        start = list(b.stands[sid]["position"])
        mover.segment([list(p) for p in so.move], is_move=True)
        if so.road_step and not so.move_after:
            mover.road_step(so.road_step)
        if b.in_play(sid) and b.stands[sid]["position"] is not None:
            self.stand_action(sid, action, so)
        mover.segment([list(p) for p in so.move_after], is_move=False)
        if so.road_step and so.move_after:
            mover.road_step(so.road_step)
        self.move_event(sid, start, mover, bool(so.move or so.move_after or so.road_step))

    def move_event(self, cid: str, start, mover: Mover, declared: bool) -> None:
        if not declared:
            return
        report = mover.report()
        self.b.event("move", actor=cid, **{"from": start}, to=report["final_position"], cost=report["cost"],
                     allowance=report["allowance"], steps_declared=report["steps_declared"],
                     steps_taken=report["steps_taken"], stopped_reason=report["stopped_reason"],
                     road_step_used=report["road_step_used"])
        self.ctx.log.add("S5.7", "move.stop", "{actor} ends at {position} after {cost} of {allowance}.", actor=cid,
                         position=report["final_position"], cost=report["cost"], allowance=report["allowance"])

    def stand_action(self, sid: str, action: str, so: StandOrder) -> None:
        b = self.b
        if action == "attack":
            if so.support is not None:
                b.event("support", stand=sid, supports=so.support)
                self.ctx.log.add("S5.8.1.1", "round.support", "{stand} supports {to}.", stand=sid, to=so.support)
            for n, order in enumerate(so.attacks, start=1):
                self.attack(sid, n, order)
        elif action == "cast_spell" and so.spell is not None:
            self.cast(sid, so.spell)
        elif action == "hide" and so.hide:
            self.hide(sid)

    # -- attacks (S5.9) -------------------------------------------------------------
    def attack(self, cid: str, n: int, order) -> None:
        b = self.b
        attack = b.profile(cid).attack(order.attack)
        target = order.target
        reason = self.target_problem(cid, target, attack)
        if reason:
            b.event("attack_skipped", attacker=cid, index=n, target=target, reason=reason)
            self.ctx.log.add("S5.9.1", "round.attack_skipped", "Attack {index} of {attacker} on {target} is lost: "
                             "{reason}.", index=n, attacker=cid, target=target, reason=reason)
            return
        distance = dist(b.box(cid), b.box(target))
        attacker = self.attacker_situation(cid)
        attacker["supported"] = attack.kind == "melee" and any(
            b.in_play(s) and dist(b.box(s), b.box(cid)) == 1 for s in self.supporters.get(cid, []))
        out = resolve_attack(self.ctx, f"{cid}.atk{n}.", attack, attacker, self.target_situation(target), distance,
                             advantage=order.advantage, disadvantage=order.disadvantage,
                             to_hit_modifier=order.to_hit_modifier, damage_modifier=order.damage_modifier)
        self.reveal(cid)
        b.event("attack", attacker=cid, index=n, attack=attack.name, target=target, roll_mode=out["roll_mode"],
                d20=out["d20"], natural=out["natural"], total=out["attack_total"], ac=out["target_ac"],
                auto_hit=out["auto_hit"], hit=out["hit"], critical=out["critical"], damage=out["damage"])
        if out["hit"]:
            b.damage(target, out["damage"], out["critical"])

    def target_problem(self, cid: str, target: str, attack) -> str | None:
        """S5.9.1, judged when the attack is resolved."""
        b = self.b
        if target in b.squares:
            if b.squares[target]["hp"] <= 0:
                return "destroyed"
        elif target in b.stands:
            if not b.in_play(target):
                return "not_in_play"
        elif b.solos[target]["position"] is None:
            return "not_on_grid"
        d = dist(b.box(cid), b.box(target))
        if attack.kind == "melee":
            ok = d == 1 or (target in b.squares and d == 0)
        else:
            ok = d <= squares_range(attack.long_range)
        return None if ok else "out_of_reach"

    def attacker_situation(self, cid: str) -> dict:
        b = self.b
        is_stand = cid in b.stands
        entity = b.stands[cid] if is_stand else b.solos[cid]
        return {"kind": "stand" if is_stand else "solo", "isolated": b.isolated(cid),
                "motivated": is_stand and b.motivated(b.stands[cid]["unit"]), "hidden": entity["hidden"],
                "elevation": b.elevation(cid), "adjacent_enemy": b.adjacent_enemy_fighter(cid)}

    def target_situation(self, tid: str) -> dict:
        b = self.b
        if tid in b.squares:
            return {"kind": "objective", "ac": b.squares[tid]["ac"], "elevation": b.elevation(tid), "id": tid}
        p = b.profile(tid)
        is_stand = tid in b.stands
        entity = b.stands[tid] if is_stand else b.solos[tid]
        unit = b.unit_of(tid) if is_stand else None
        return {
            "id": tid, "kind": "stand" if is_stand else "solo", "ac": p.ac, "isolated": b.isolated(tid),
            "hidden": entity["hidden"], "unconscious": not is_stand and entity["condition"] in ("dying", "stable"),
            "elevation": b.elevation(tid), "forest_cover": b.forest_cover(tid),
            "defense_configuration": is_stand and unit["type"] == "regiment" and unit["configuration"] == "defense",
            "skirmisher": is_stand and unit["type"] == "skirmishers",
            "prepared": is_stand and b.prepared(entity["unit"]),
            "resistances": list(p.resistances), "vulnerabilities": list(p.vulnerabilities),
            "immunities": list(p.immunities),
        }

    def reveal(self, cid: str) -> None:
        entity = self.b.stands.get(cid) or self.b.solos[cid]
        if entity["hidden"]:
            entity["hidden"] = False
            self.ctx.log.add("S5.8.5", "round.revealed", "{actor} is revealed.", actor=cid)

    # -- spells (S5.10) ---------------------------------------------------------------
    def cast(self, cid: str, order) -> None:
        b = self.b
        entity = b.stands.get(cid) or b.solos[cid]
        spell = b.profile(cid).spell(order.name)
        if spell.uses is not None and entity["spell_uses"].get(spell.name, 0) <= 0:
            self.ctx.log.add("S5.8.2", "round.spell_spent", "{caster} has no use of {spell} left.",
                             caster=cid, spell=spell.name)
            return
        caster_box = b.box(cid)
        area_squares = None
        if spell.targeting == "targeted":
            reach = squares_range(spell.range_m)
            ids = []
            for t in order.targets:
                valid = (t in b.stands and b.in_play(t)) or (t in b.solos and b.solos[t]["position"] is not None) \
                    or (t in b.squares and b.squares[t]["hp"] > 0)
                if valid and dist(caster_box, b.box(t)) <= reach:
                    ids.append(t)
                else:
                    self.ctx.log.add("S5.10.1", "round.target_dropped", "{target} is no longer a valid target of "
                                     "{spell}.", target=t, spell=spell.name)
            targets = [self.spell_target(t, caster_box, spell) for t in ids]
            for t in ids:
                if t in b.stands:
                    targets += [{**self.spell_target(h, caster_box, spell), "attached": True}
                                for h in sorted(b.solos) if b.solos[h]["attached_to"] == t]
        else:
            origin = list(order.origin)
            # an origin out of reach at resolution (the caster moved): the spell is not cast and no use is
            # spent (the spec only says invalid targets are dropped; an area has no target to drop)
            if not self.origin_ok(cid, spell, origin, order.direction):
                self.ctx.log.add("S5.10.2", "round.spell_lost", "{caster} cannot place the area of {spell} there.",
                                 caster=cid, spell=spell.name)
                return
            n, squares = clipped_area(spell.area.shape, spell.area.size_m, origin, order.direction, order.extra_side,
                                      b.terrain.width, b.terrain.height)
            area_squares = [list(s) for s in squares]
            targets = self.area_targets(cid, spell, set(squares))
        if spell.uses is not None:
            entity["spell_uses"][spell.name] -= 1
        b.event("spell", caster=cid, spell=spell.name, targets=[t["id"] for t in targets], area=area_squares)
        self.ctx.log.add("S5.10", "round.spell", "{caster} casts {spell} on {count} targets.", caster=cid,
                         spell=spell.name, count=len(targets))
        if targets:
            caster = self.attacker_situation(cid)
            _, results = resolve_spell(self.ctx, f"{cid}.spell.", spell, caster, targets,
                                       advantage=order.advantage, disadvantage=order.disadvantage,
                                       to_hit_modifier=order.to_hit_modifier, damage_modifier=order.damage_modifier)
            for t in sorted(targets, key=lambda t: ({"stand": 0, "solo": 1, "objective": 2}[t["kind"]], t["id"])):
                res = results[t["id"]]
                b.event("spell_effect", caster=cid, spell=spell.name, target=t["id"], affected=res["affected"],
                        hit=res["hit"], saved=res["saved"], damage=res["damage"])
                if res["damage"]:
                    b.damage(t["id"], res["damage"], bool(res["critical"]))
        self.reveal(cid)

    def spell_target(self, tid: str, caster_box: Box, spell) -> dict:
        b = self.b
        situation = self.target_situation(tid)
        if tid not in b.squares and spell.save_ability is not None:
            situation["save_bonus"] = save_bonus(b.profile(tid), spell.save_ability)
        box = b.box(tid)
        situation["distance"] = dist(caster_box, box) if box is not None else 0
        return situation

    def origin_ok(self, cid: str, spell, origin, direction) -> bool:
        b = self.b
        box = b.box(cid)
        if spell.self_range:
            if box.contains(origin) or dist(box, Box(origin)) != 1:
                return False
            if spell.area.shape in ("cone", "line"):
                dx, dy = DIRECTIONS[direction]
                return box.contains((origin[0] - dx, origin[1] - dy))
            return True
        return dist(box, Box(origin)) <= squares_range(spell.range_m)

    def area_targets(self, cid: str, spell, area: set) -> list[dict]:
        b = self.b
        caster_box = b.box(cid)
        excluded = {cid} if spell.self_range else set()
        if spell.self_range and cid in b.solos and b.solos[cid]["attached_to"]:
            excluded.add(b.solos[cid]["attached_to"])
        out = []
        affected_stands = []
        for sid in sorted(b.stands_in_play()):
            if sid in excluded:
                continue
            squares = b.box(sid).squares()
            inside = [sq for sq in squares if sq in area]
            if inside:
                affected_stands.append(sid)
                out.append({**self.spell_target(sid, caster_box, spell),
                            "coverage": "full" if len(inside) == len(squares) else "partial"})
        for hid in sorted(b.solos):
            h = b.solos[hid]
            if hid in excluded:
                continue
            if h["position"] is not None and any(sq in area for sq in b.box(hid).squares()):
                out.append(self.spell_target(hid, caster_box, spell))
            elif h["attached_to"] in affected_stands:
                out.append({**self.spell_target(hid, caster_box, spell), "attached": True})
        for oid in sorted(b.squares):
            o = b.squares[oid]
            if o["hp"] > 0 and tuple(o["at"]) in area:
                out.append(self.spell_target(oid, caster_box, spell))
        return out

    # -- hide (S5.8.5) --------------------------------------------------------------
    def hide(self, cid: str) -> None:
        b = self.b
        p = b.profile(cid)
        dc = self.hide_dc(cid)
        rolled, natural = d20(self.ctx, f"{cid}.stealth", "disadvantage" if p.stealth_disadvantage else "normal")
        total = natural + stealth_bonus(p)
        success = total >= dc
        (b.stands.get(cid) or b.solos[cid])["hidden"] = success or (b.stands.get(cid) or b.solos[cid])["hidden"]
        b.event("hide", actor=cid, d20=rolled, total=total, dc=dc, success=success)
        self.ctx.log.add("S5.8.5", "round.hide", "{actor} hides: {total} against DC {dc}: {result}.", actor=cid,
                         total=total, dc=dc, result="hidden" if success else "seen")

    def hide_dc(self, cid: str) -> int:
        """S4.15."""
        if self.decl.gm.hide_dc is not None:
            return self.decl.gm.hide_dc
        b = self.b
        values = [passive_perception(b.profile(s)) for s in b.stands_in_play() if b.enemy_of(cid, s)]
        values += [passive_perception(b.profile(h)) for h in b.solos if b.enemy_of(cid, h) and b.solo_can_act(h)]
        return max(values) if values else 10

    # -- solos (S5.6) ----------------------------------------------------------------
    def solo_entry(self, hid: str) -> None:
        b = self.b
        h = b.solos[hid]
        if hid in self.acted:
            b.event("turn_skipped", actor=hid, reason="acted")
            return
        if h["attached_to"] is not None:
            b.event("turn_skipped", actor=hid, reason="attached")
            return
        if h["position"] is None:
            b.event("turn_skipped", actor=hid, reason="unplaced" if h["condition"] in ("active",) else "cannot_act")
            return
        if not b.solo_can_act(hid):
            b.event("turn_skipped", actor=hid, reason="cannot_act")
            return
        if self.r == 1 and h["surprised"]:
            b.event("turn_skipped", actor=hid, reason="surprised")
            return
        self.acted.add(hid)
        b.event("turn", actor=hid, kind="solo")
        o = self.solo_order(hid)
        join = o.join if o.action == "join" else None
        mover = Mover(b, hid, dashing=o.action == "dash", disengaging=o.action == "disengage", join=join)
        start = list(h["position"])
        mover.segment([list(p) for p in o.move], is_move=True)
        if h["position"] is not None:
            if o.action == "join":
                self.join(hid, join)
            else:
                self.solo_action(hid, o)
                mover.segment([list(p) for p in o.move_after], is_move=False)
        self.move_event(hid, start, mover, bool(o.move or o.move_after))
        if o.bonus_action == "become_commander" and h["attached_to"] is not None:
            uid = b.stands[h["attached_to"]]["unit"]
            if b.units[uid]["commander"] is None and not any(u["commander"] == hid for u in b.units.values()):
                b.units[uid]["commander"] = hid
                b.event("commander_change", unit=uid, commander=hid, reason="become_commander")
                self.ctx.log.add("S5.12", "command.become", "{solo} takes command of {unit}.", solo=hid, unit=uid)
        b.evaluate_isolation()

    def join(self, hid: str, sid: str) -> None:
        b = self.b
        h = b.solos[hid]
        ok = b.in_play(sid) and b.box(hid).overlaps(b.box(sid)) and b.size_rule(hid, sid)
        if ok:
            h.update(attached_to=sid, position=None, hidden=False, isolated=False)
        b.event("join", solo=hid, stand=sid, success=ok)
        self.ctx.log.add("S5.8.6", "round.join", "{solo} joins {stand}: {result}.", solo=hid, stand=sid,
                         result="done" if ok else "failed")

    def solo_action(self, hid: str, o: SoloOrder) -> None:
        if o.action == "attack":
            for n, order in enumerate(o.attacks, start=1):
                if self.b.solo_can_act(hid) and self.b.box(hid) is not None:
                    self.attack(hid, n, order)
        elif o.action == "cast_spell" and o.spell is not None:
            self.cast(hid, o.spell)
        elif o.action == "hide" and o.hide:
            self.hide(hid)

    def attached_solo_act(self, hid: str) -> None:
        """S5.6.2: detach or switch before or after the action; the action is made from the stand."""
        b = self.b
        if hid in self.acted or not b.solo_can_act(hid):
            return
        self.acted.add(hid)
        b.event("turn", actor=hid, kind="solo")
        o = self.solo_order(hid)
        if o.detach_when == "before_action":
            self.detach_or_switch(hid, o)
        if b.solo_can_act(hid):
            self.solo_action(hid, o)
        if o.detach_when == "after_action" and b.solo_can_act(hid):
            self.detach_or_switch(hid, o)

    def detach_or_switch(self, hid: str, o: SoloOrder) -> None:
        b = self.b
        h = b.solos[hid]
        stand = h["attached_to"]
        if stand is None:
            return
        if o.detach_to is not None:
            box = Box(o.detach_to, b.side_of_box(hid))
            ok = dist(box, b.box(stand)) == 1 and free_and_enterable(b, hid, o.detach_to)
            if ok:
                h.update(attached_to=None, position=list(o.detach_to))
                b.end_command(hid, "detached")
            b.event("detach", solo=hid, stand=stand, to=list(o.detach_to), success=ok)
            self.ctx.log.add("S5.6.2", "round.detach", "{solo} leaves {stand}: {result}.", solo=hid, stand=stand,
                             result="done" if ok else "impossible")
        elif o.switch_to is not None:
            target = o.switch_to
            ok = (target != stand and b.in_play(target) and b.stands[target]["unit"] == b.stands[stand]["unit"]
                  and dist(b.box(target), b.box(stand)) == 1 and b.size_rule(hid, target))
            if ok:
                h["attached_to"] = target
            b.event("switch", solo=hid, **{"from": stand, "to": target}, success=ok)
            self.ctx.log.add("S5.6.2", "round.switch", "{solo} moves from {stand} to {to}: {result}.", solo=hid,
                             stand=stand, to=target, result="done" if ok else "impossible")

    # -- S5.13 ------------------------------------------------------------------------
    def end_of_round(self) -> None:
        b, r, log = self.b, self.r, self.ctx.log
        former: dict[str, tuple[list, Box]] = {}
        for sid in sorted(b.stands):
            s = b.stands[sid]
            if s["status"] == "casualty":
                former[sid] = (list(s["position"]), b.box(sid))
                s.update(status="eliminated", hp=0, position=None, isolated=False, hidden=False)
                b.event("stand_eliminated", stand=sid)
                log.add("S5.13.1", "end.eliminated", "{stand} is removed.", stand=sid)
        shifted: set[str] = set()
        for shift in self.decl.casualty_shifts:
            x, y = shift.if_eliminated, shift.shift
            if x not in former:
                continue
            anchor, box = former[x]
            ok = (b.stands[y]["status"] == "active" and y not in shifted and b.side(y) == b.side(x)
                  and dist(b.box(y), box) == 1 and free_and_enterable(b, y, anchor))
            if ok:
                b.stands[y]["position"] = anchor
                shifted.add(y)
            b.event("shift", stand=y, into=x, success=ok)
            log.add("S5.13.1", "end.shift", "{stand} steps into the place of {into}: {result}.", stand=y, into=x,
                    result="done" if ok else "impossible")
        for hid in sorted(b.solos):
            h = b.solos[hid]
            if h["attached_to"] in former:
                place_fallen_solo(b, hid, h["attached_to"], former[h["attached_to"]][1],
                                  self.decl.solo_fallbacks.get(hid))
        eliminated_now = []
        for uid, u in b.units.items():
            if u["eliminated_round"] is None and not any(b.in_play(s) for s in u["stands"]):
                u["eliminated_round"] = r
                eliminated_now.append(uid)
                if u["commander"] is not None:
                    b.end_command(u["commander"], "unit_eliminated")
                b.event("unit_eliminated", unit=uid)
                log.add("S5.13.1", "end.unit_eliminated", "{unit} is eliminated.", unit=uid)
        for hid in sorted(b.solos):
            h = b.solos[hid]
            if h["condition"] != "dying":
                continue
            run = death_save_run(self.ctx, f"{hid}.death_saves", h["death_save_successes"], h["death_save_failures"])
            outcome = run["outcome"]
            if outcome == "revived":
                h.update(condition="active", hp=1, death_save_successes=0, death_save_failures=0)
            elif outcome == "stable":
                h.update(condition="stable", death_save_successes=0, death_save_failures=0)
            elif outcome == "dead":
                b.kill(hid)
            b.event("death_saves", solo=hid, rolls=run["rolls"], outcome=outcome)
        for uid in sorted(b.units):
            u = b.units[uid]
            in_play = [s for s in u["stands"] if b.in_play(s)]
            if u["eliminated_round"] is not None or u["broken"] or not in_play:
                continue
            if (u["starting_stands"] - len(in_play)) * 2 <= u["starting_stands"]:
                continue
            roll = morale_roll(self.ctx, f"{uid}.morale", b.prepared(uid), self.morale_modifier(uid))
            u["broken"] = not roll["success"]
            b.event("morale", unit=uid, d20=roll["d20"], total=roll["total"], success=roll["success"])
        self.score(eliminated_now)
        for u in b.units.values():
            for field in ("prepare_until_round", "motivate_until_round"):
                if u[field] is not None and u[field] <= r:
                    u[field] = None
        b.overrides = {}
        b.evaluate_isolation()
        sides = b.st["sides"]
        over = any(s["victory_points"] >= b.st["victory_threshold"] for s in sides.values())
        for side in sides:
            if not b.stands_in_play(side) and not any(
                    h["side"] == side and b.solo_can_act(k) for k, h in b.solos.items()):
                over = True
        if not over and b.st.get("tie_break_round") == r:
            over = True  # the round fought after a tie ends the battle whatever the VP (S7.7)
            log.add("S7.7", "end.tie_break", "Round {round} was fought after a tie: the battle ends with it.", round=r)
        if over:
            b.st["battle_over"] = True
            b.event("battle_over", victory_points={k: v["victory_points"] for k, v in sides.items()})
            log.add("S5.13.5", "end.battle_over", "The battle is over.")
        b.st["round"] = r + 1

    def score(self, eliminated_now: list[str]) -> None:
        """S5.13.4, in its order."""
        b, r = self.b, self.r
        objectives = b.st["objectives"]
        for uid in eliminated_now:
            for oid, o in objectives.items():
                if o["type"] == "attrition" and o["side"] != b.units[uid]["side"]:
                    self.award(o["side"], o["vp_per_unit"], "attrition", oid)
        for qid, q in b.squares.items():
            if q["destroyed_round"] == r:
                for oid, o in objectives.items():
                    if o["type"] == "destruction" and qid in o["squares"]:
                        self.award(o["side"], q["vp"], "destruction", oid)
        for oid, o in objectives.items():
            if o["type"] != "protection":
                continue
            live = [Box(b.squares[q]["at"]) for q in o["squares"] if b.squares[q]["hp"] > 0]
            if not live:
                continue
            own = {s for s in b.stands_in_play(o["side"]) if any(dist(b.box(s), q) <= 1 for q in live)}
            enemies = [s for s in b.stands_in_play() if b.side(s) != o["side"]]
            enemies += [h for h in b.solos if b.solos[h]["side"] != o["side"] and b.solo_can_act(h)]
            threatened = any(b.box(e) is not None and any(dist(b.box(e), q) <= 2 for q in live) for e in enemies)
            if len(own) >= 2 and not threatened:
                self.award(o["side"], o["vp_per_round"], "protection", oid)
        for oid in self.decl.gm.custom_achieved:
            o = objectives[oid]
            if o.get("achieved_round") is None:
                o["achieved_round"] = r
                self.award(o["side"], o["vp"], "custom", oid)
        for award in self.decl.gm.award_vp:
            self.award(award.side, award.vp, "gm_award", None, award.reason)

    def award(self, side: str, vp: int, reason: str, objective: str | None, note: str = "") -> None:
        s = self.b.st["sides"][side]
        before = s["victory_points"]
        s["victory_points"] = max(0, before + vp)
        self.b.event("vp", side=side, vp=vp, reason=reason, objective=objective)
        self.ctx.log.add("S5.13.4", "end.vp", "{side} scores {vp} VP ({reason}{note}): {before} -> {after}.", side=side,
                         vp=vp, reason=reason, note=f": {note}" if note else "", before=before,
                         after=s["victory_points"])
