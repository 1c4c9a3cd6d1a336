"""Combats inside a round: shooting (S5.9), spell attacks (S5.7), duels (S5.10), melee (S5.11),
their application (S5.8 steps 8-10) and the characters' fate after each combat (S5.12)."""

from __future__ import annotations

from typing import Any

from rules.dice import D6
from rules.errors import InvalidInput
from rules.heros import bounds, combat, hexgrid, movement, sheets, wounds
from rules.heros.movement import bad
from rules.heros.state import Battle

ESCAPE_RADIUS = 4
COMBAT_HEX_FIELDS = ("terrain", "wooded", "built_up", "elevation", "wall", "fortified", "river_bank")


class Fights:
    """Combat phase runner for one round; ``decl`` maps a side id to its declarations (dicts)."""

    def __init__(self, b: Battle, decl: dict[str, dict[str, Any]], gm_modifiers: list[dict[str, Any]],
                 engaged_at_start: set[frozenset[str]]):
        self.b = b
        self.decl = decl
        self.modifiers: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for m in gm_modifiers:
            self.add_modifier(m["combat_id"], m["combatant_id"], m["value"], m["label"] or "GM")
        self.engaged_at_start = engaged_at_start
        self.captured_now: set[str] = set()
        self.shot: set[str] = set()

    def add_modifier(self, combat_id: str, combatant_id: str, value: int, label: str) -> None:
        self.modifiers.setdefault((combat_id, combatant_id), []).append({"label": label, "value": value})

    # -- building combatants ------------------------------------------------------
    def build(self, cid: str, combat_id: str, *, contacts: dict | None = None, surrounded: bool = False,
              extra_shooters: int = 0) -> dict[str, Any]:
        b = self.b
        kind, ref = b.combatant_ref(cid)
        side = b.side_of(cid)
        pos = b.position_of(cid)
        decl = self.decl[side]
        situation: dict[str, Any] = {
            "id": cid, "hex": {k: b.hex(pos)[k] for k in COMBAT_HEX_FIELDS}, "contacts": contacts or {},
            "star_id": decl["stars"].get(cid), "surrounded": surrounded, "extra_shooters": extra_shooters,
            "modifiers": self.modifiers.get((combat_id, cid), []),
            "friendly_god_adjacent": any(u["troop_type"] == "Gd" and u["side"] == side and hexgrid.distance(u["position"], pos) == 1
                                         for u in b.s["units"] if b.grounded(u) and u["id"] != cid),
        }
        if kind == "unit":
            unit = ref
            rear = b.rear_unit(pos) if b.front_unit(pos) is unit else None
            situation.update(
                rear_support=rear["troop_type"] if rear else None,
                characters=[self.fighter(c) for c in b.stacked_on(unit)],
                adventurers_stacked=unit["troop_type"] != "Av" and b.stacked_adventurer(pos) is not None,
                demoralised=b.corps[unit["corps_id"]]["demoralised"],
                adventurer_flee=unit["id"] in decl["adventurer_flee"],
                decline_pursuit=unit["id"] in decl["decline_pursuit"],
            )
            return combat.combatant(unit, unit["troop_type"], situation)
        chars = ref
        star = sheets.choose_star([c for c in chars if sheets.conscious(c)], situation["star_id"])
        situation.update(
            characters=[self.fighter(c) | {"engaged": True} for c in chars],
            demoralised=b.corps[chars[0]["corps_id"]]["demoralised"],
            move=movement.character_allowance(b, star or chars[0], []),
        )
        return combat.combatant(None, "Id", situation)

    @staticmethod
    def fighter(c: dict[str, Any]) -> dict[str, Any]:
        keys = ("id", "combat_bonus", "wound_state", "wound_malus", "status", "engaged", "dwarf", "undead", "mounted",
                "magician", "very_large", "humanoid")
        return {k: c[k] for k in keys}

    def blocked(self, cid: str, direction: int) -> str:
        """What the first retreat hex holds (S5.8 step 8): ``none``, ``friends`` or ``enemy``."""
        b = self.b
        if cid not in b.units:
            return "none"
        unit = b.units[cid]
        h = hexgrid.neighbour(unit["position"], direction)
        if not b.inside(h) or movement.enter_cost(b, unit["troop_type"], sheets.derive(unit)["movement_class"], h) is None:
            return "enemy"
        side = b.side_at(h)
        if side is None:
            return "none"
        return "friends" if side == unit["side"] else "enemy"

    # -- applying results ------------------------------------------------------------
    def stack_units(self, unit: dict[str, Any]) -> list[dict[str, Any]]:
        pos = unit["position"]
        if b_front := self.b.front_unit(pos):
            if b_front is unit:
                return self.b.units_at(pos)
        return [unit]

    def move_stack(self, unit: dict[str, Any], to: dict, hexes: int) -> None:
        """The whole stack retreats together, keeping its ranks (H36)."""
        stack = self.stack_units(unit)
        ranks = [u["rank"] for u in stack]
        for u in stack:
            self.b.move_unit(u, to, hexes)
        for u, rank in zip(stack, ranks):
            u["rank"] = rank

    def destroy(self, unit: dict[str, Any], status: str = "destroyed") -> dict | None:
        b = self.b
        pos = hexgrid.copy(unit["position"])
        stack = [u for u in b.units_at(pos) if u["troop_type"] == "Av" and u is not unit] if unit["troop_type"] != "Av" else []
        for u in [unit, *stack]:
            u["status"], u["position"] = status, None
            u["high_altitude"], u["climb_hex"] = False, None
            b.drop_engagements(u["id"])
            b.unit_event("unit_dispersed" if status == "dispersed" else "unit_destroyed", u,
                         unit_id=u["id"], **{"from": pos}, to=None)
        b.normalise_ranks(pos)
        return pos

    def flee(self, unit: dict[str, Any], direction: int) -> str:
        """Flight straight on, up to ``move`` hexes (S5.8 step 8, house H36)."""
        b = self.b
        start = hexgrid.copy(unit["position"])
        pos, moved = unit["position"], 0
        mclass = sheets.derive(unit)["movement_class"]
        for _ in range(movement.unit_allowance(unit)):
            nxt = hexgrid.neighbour(pos, direction)
            if not b.inside(nxt):
                if moved == 0:
                    self.destroy(unit)
                    return "destroyed"
                for u in self.stack_units(unit):
                    u["status"], u["position"] = "fled_off", None
                    b.drop_engagements(u["id"])
                    for c in b.stacked_on(u):
                        c["position"] = None
                    b.unit_event("unit_fled_off", u, unit_id=u["id"], **{"from": start}, to=None)
                return "fled_off"
            side = b.side_at(nxt)
            if movement.enter_cost(b, unit["troop_type"], mclass, nxt) is None or side is not None:
                if moved == 0 and side != unit["side"]:
                    self.destroy(unit)
                    return "destroyed"
                break
            pos, moved = nxt, moved + 1
        if moved:
            self.move_stack(unit, pos, moved)
            b.unit_event("unit_fled", unit, unit_id=unit["id"], **{"from": start}, to=hexgrid.copy(pos))
        return "fled"

    def apply(self, cid: str, result: str, direction: int, blocked: str | None) -> dict | None:
        """Apply a unit's result; returns the hex it left (for pursuit), if any."""
        b = self.b
        if cid not in b.units or result == "none":
            return None
        unit = b.units[cid]
        start = hexgrid.copy(unit["position"])
        if result == "recoil":
            if blocked == "friends":
                return None
            to = hexgrid.neighbour(unit["position"], direction)
            self.move_stack(unit, to, 1)
            b.unit_event("unit_recoiled", unit, unit_id=cid, **{"from": start}, to=hexgrid.copy(to))
            return start
        if result == "flee":
            if blocked == "friends":
                return None
            self.flee(unit, direction)
            return start
        if result in ("destroyed", "dispersed"):
            self.destroy(unit, result)
            return start
        return None

    # -- characters after a combat (S5.12) ---------------------------------------------
    def characters_after(self, combat_id: str, kind: str, x: dict, y: dict, outcome: dict, exchange: bool,
                         x_side: str, y_side: str, destroyed_hexes: dict[str, dict | None]) -> None:
        b = self.b
        if b.s["options"]["simple_generals"]:
            for side, c in (("a", x), ("b", y)):
                if outcome[side]["result"] == "destroyed" and c["unit"] is not None:
                    for ch in c["characters"]:
                        bounds.kill(b, b.chars[ch["id"]])
            return
        sides = {"a": (x, y), "b": (y, x)}
        for test in combat.risk_tests(kind, x, y, outcome, exchange):
            me, enemy = sides[test["side"]]
            cid = test["character_id"]
            names = {k: f"{k}.{combat_id}.{cid}" for k in ("risk", "wound", "capture")}
            if cid in b.units:
                unit = b.units[cid]
                out = wounds.risk_test(b.dice, b.log, names, {"id": cid, "wound_state": unit["wound_state"],
                                       "wound_malus": unit["wound_malus"], "unit_profile": True}, test["row"], test["context"])
                self.risk_events(combat_id, cid, test["row"], out)
                unit["wound_state"], unit["wound_malus"] = out["character"]["wound_state"], out["character"]["wound_malus"]
                if out["character"]["ep_lost"] and unit["status"] == "active":
                    self.destroy(unit)
                continue
            ch = b.chars[cid]
            if ch["status"] != "active":
                continue
            out = wounds.risk_test(b.dice, b.log, names, ch, test["row"], test["context"])
            self.risk_events(combat_id, cid, test["row"], out)
            ch["wound_state"], ch["wound_malus"] = out["character"]["wound_state"], out["character"]["wound_malus"]
            if ch["wound_state"] == "dead":
                bounds.kill(b, ch)
            elif out["character"]["captured"]:
                self.capture(ch, enemy)
            elif out["risk"]["escape"]:
                self.escape(ch)
        for c in (x, y):
            for ch in combat.engaged_characters(c):
                if ch["id"] in b.chars:
                    b.chars[ch["id"]]["fought"] = True
        for side, c in (("a", x), ("b", y)):
            pos = destroyed_hexes.get(side)
            if pos is not None and c["unit"] is not None:
                for ch in c["characters"]:
                    self.place_survivor(b.chars[ch["id"]], pos)

    def risk_events(self, combat_id: str, cid: str, row: str, out: dict[str, Any]) -> None:
        self.b.event("risk_tested", combat_id=combat_id, character_id=cid, row=row, outcome=out["risk"]["outcome"])
        if out["wound"] is not None and out["wound"]["band"] != "nothing":
            self.b.event("character_wounded", character_id=cid, band=out["wound"]["band"],
                         wound_state=out["character"]["wound_state"])

    def capture(self, ch: dict[str, Any], enemy: dict[str, Any]) -> None:
        b = self.b
        holder = enemy["id"] if enemy["unit"] is not None else None
        if holder is None:
            pos = ch["position"]
            near = sorted((hexgrid.distance(pos, u["position"]), u["id"]) for u in b.s["units"]
                          if u["side"] != ch["side"] and b.grounded(u) and hexgrid.distance(pos, u["position"]) <= ESCAPE_RADIUS)
            holder = near[0][1] if near else None
        if holder is None:
            return
        ch.update(status="captured", captured_by=holder, position=None, stacked_on=None, engaged=False)
        self.captured_now.add(ch["id"])
        b.event("character_captured", character_id=ch["id"], by_unit_id=holder)

    def friendly_refuge(self, ch: dict[str, Any], pos: dict) -> dict[str, Any] | None:
        b = self.b
        near = sorted((hexgrid.distance(pos, u["position"]), u["id"]) for u in b.s["units"]
                      if u["side"] == ch["side"] and b.grounded(u) and sheets.derive(u)["can_stack"]
                      and hexgrid.distance(pos, u["position"]) <= ESCAPE_RADIUS and not b.in_engagement(u["id"]))
        return b.units[near[0][1]] if near else None

    def escape(self, ch: dict[str, Any]) -> None:
        """A natural 2 when surrounded: up to 4 hexes away (S5.12)."""
        b = self.b
        pos = ch["position"]
        wanted = self.decl[ch["side"]]["escapes"].get(ch["id"])
        if wanted is not None and b.inside(wanted) and hexgrid.distance(pos, wanted) <= ESCAPE_RADIUS \
                and movement.enter_cost(b, None, None, wanted) is not None and b.side_at(wanted) in (None, ch["side"]) \
                and not b.units_at(wanted):
            b.move_character(ch, wanted, hexgrid.distance(pos, wanted))
            ch.update(stacked_on=None, engaged=True)
        else:
            refuge = self.friendly_refuge(ch, pos)
            if refuge is None:
                return
            b.move_character(ch, refuge["position"], hexgrid.distance(pos, refuge["position"]))
            ch.update(stacked_on=refuge["id"], engaged=False)
        b.event("character_escaped", character_id=ch["id"], to=hexgrid.copy(ch["position"]))

    def place_survivor(self, ch: dict[str, Any], pos: dict) -> None:
        if ch["status"] != "active" or ch["stacked_on"] is None or self.b.units[ch["stacked_on"]]["status"] == "active":
            return
        refuge = self.friendly_refuge(ch, pos)
        if refuge is None:
            ch.update(stacked_on=None, engaged=True, position=hexgrid.copy(pos))
            return
        self.b.move_character(ch, refuge["position"], hexgrid.distance(pos, refuge["position"]))
        ch.update(stacked_on=refuge["id"], engaged=False)

    def recover_captives(self, combat_id: str, loser: dict, loser_result: str, winner: dict, winner_side: str,
                         loser_pos: dict | None) -> None:
        b = self.b
        if loser["unit"] is None or loser_result not in ("recoil", "flee", "destroyed"):
            return
        for ch in b.s["characters"]:
            if ch["status"] != "captured" or ch["captured_by"] != loser["id"] or ch["side"] != winner_side:
                continue
            after_rally = winner["unit"] is not None and winner["unit"]["rally_moved"]
            out = wounds.recovery(b.dice, b.log, f"recovery.{combat_id}.{ch['id']}", ch["id"], loser_result, after_rally)
            b.event("captive_recovered", character_id=ch["id"], outcome=out["outcome"])
            if out["outcome"] == "recovered_dead":
                bounds.kill(b, ch)
            elif out["outcome"] == "recovered_alive":
                unit = winner["unit"]
                if unit is not None and b.grounded(unit) and sheets.derive(unit)["can_stack"]:
                    ch.update(status="active", captured_by=None, stacked_on=unit["id"], engaged=False,
                              position=hexgrid.copy(unit["position"]))
                else:
                    ch.update(status="active", captured_by=None, stacked_on=None, engaged=True, position=hexgrid.copy(loser_pos))

    def lone_retreat(self, c: dict[str, Any], direction: int) -> None:
        """A beaten lone character moves 1 hex back if still free (S5.12, A3)."""
        b = self.b
        for ch in c["characters"]:
            real = b.chars[ch["id"]]
            if not sheets.conscious(real) or real["position"] is None:
                continue
            to = hexgrid.neighbour(real["position"], direction)
            if b.inside(to) and movement.enter_cost(b, None, None, to) is not None and b.side_at(to) in (None, real["side"]) \
                    and not b.units_at(to):
                b.move_character(real, to, 1)

    # -- one combat ------------------------------------------------------------------
    def resolve(self, combat_id: str, kind: str, x: dict, y: dict, die_names: tuple[str, str], *, first: bool,
                exchange: bool, x_active: bool, labels: tuple[str, str] = ("attacker", "defender")) -> dict:
        """Resolve and apply one combat between ``x`` (attacker/shooter) and ``y``."""
        b = self.b
        xid, yid = x["id"], y["id"]
        x_side, y_side = b.side_of(xid), b.side_of(yid)
        x_pos, y_pos = hexgrid.copy(b.position_of(xid)), hexgrid.copy(b.position_of(yid))
        if kind == "melee":
            y_dir, x_dir = hexgrid.direction_to(x_pos, y_pos), hexgrid.direction_to(y_pos, x_pos)
        else:
            y_dir = (self.facing_of(yid) + 3) % 6
            x_dir = (self.facing_of(xid) + 3) % 6 if xid in b.units else 0
        x["retreat_blocked"], y["retreat_blocked"] = self.blocked(xid, x_dir), self.blocked(yid, y_dir)
        dx, dy = b.dice.roll(die_names[0], D6), b.dice.roll(die_names[1], D6)
        out = combat.resolve(kind, x, y, a_active=x_active, first_melee=first, exchange=exchange,
                             dice_a=dx, dice_b=dy, log=b.log)
        lone_shot = kind == "shooting" and y["troop_type"] == "Id"
        if lone_shot:
            self.shoot_lone(combat_id, x, y, out)
        b.event("combat_resolved", combat_id=combat_id, kind=kind,
                **{labels[0]: self.summary(out["a"]), labels[1]: self.summary(out["b"])})
        for c in (x, y):
            if c["unit"] is not None:
                movement.reveal(b, c["unit"])
        left: dict[str, dict | None] = {}
        destroyed: dict[str, dict | None] = {}
        for side, c, direction in (("a", x, x_dir), ("b", y, y_dir)):
            result = out[side]["result"]
            if lone_shot and side == "b":
                continue
            if c["unit"] is None:
                continue
            left[side] = self.apply(c["id"], result, direction, out["blocked"].get(side))
            if c["unit"]["status"] in ("destroyed",):
                destroyed[side] = left[side]
        if not lone_shot:
            self.characters_after(combat_id, kind, x, y, out, exchange, x_side, y_side, destroyed)
        for side, c, direction in (("a", x, x_dir), ("b", y, y_dir)):
            if c["troop_type"] == "Id" and out[side]["result"] in ("recoil", "flee", "destroyed") and not lone_shot:
                self.lone_retreat(c, direction)
        self.recover_captives(combat_id, y, out["b"]["result"], x, x_side, left.get("b"))
        self.recover_captives(combat_id, x, out["a"]["result"], y, y_side, left.get("a"))
        if kind == "melee":
            for side, c, other in (("a", x, "b"), ("b", y, "a")):
                target = left.get(other)
                if out[side]["pursues"] and target is not None:
                    self.pursue(c, target)
        return out

    def facing_of(self, cid: str) -> int:
        return self.b.units[cid]["facing"] if cid in self.b.units else 0

    @staticmethod
    def summary(line: dict[str, Any]) -> dict[str, Any]:
        return {"id": line["id"], "total": line["total"], "comparison": line["comparison"], "result": line["result"]}

    def shoot_lone(self, combat_id: str, x: dict, y: dict, out: dict) -> None:
        """A lone character shot at (S7.5): wounded when the shooter scores higher."""
        b = self.b
        for ch in combat.engaged_characters(y):
            b.chars[ch["id"]]["fought"] = True
        if out["a"]["total"] > out["b"]["total"]:
            hx = y["hex"]
            for ch in combat.engaged_characters(y):
                real = b.chars[ch["id"]]
                ctx = {"behind_wall": hx["wall"], "vs_shooting": True, "cover": combat.cover(hx)}
                mods = wounds.lone_shot_modifiers(real, ctx, bool(x["undead"]))
                w = wounds.wound_roll(b.dice, b.log, f"wound.{combat_id}.{real['id']}", real["id"], mods, False)
                real["wound_state"], real["wound_malus"] = wounds.apply_band(real["wound_state"], real["wound_malus"], w.pop("_band"))
                if w["band"] != "nothing":
                    b.event("character_wounded", character_id=real["id"], band=w["band"], wound_state=real["wound_state"])
                if real["wound_state"] == "dead":
                    bounds.kill(b, real)
        star = combat.star_of(y)
        if not (star is not None and b.chars[star["id"]]["can_riposte"] and out["b"]["total"] > out["a"]["total"]):
            out["a"]["result"] = "none"

    def pursue(self, c: dict[str, Any], target: dict) -> None:
        """S5.8 step 10: the pursuer enters the hex the loser left, if empty and enterable."""
        b = self.b
        unit = c["unit"]
        if unit is None or not b.grounded(unit) or b.units_at(target) or b.chars_at(target):
            return
        if hexgrid.distance(unit["position"], target) != 1:
            return
        if movement.enter_cost(b, unit["troop_type"], sheets.derive(unit)["movement_class"], target) is None:
            return
        start = hexgrid.copy(unit["position"])
        av = b.stacked_adventurer(start)
        follow = av is not None and self.decl[unit["side"]]["adventurers_follow"].get(av["id"], True)
        rear = b.rear_unit(start) if b.front_unit(start) is unit else None
        b.move_unit(unit, target, 1, carry_adventurer=follow)
        unit["rank"] = "front"
        if rear is not None:
            rear["rank"] = "front"
        b.log.add("S5.8", "combat.pursuit", "{unit_id} pursues into the hex the loser left.", unit_id=unit["id"],
                  to=hexgrid.copy(target))
        b.unit_event("unit_pursued", unit, unit_id=unit["id"], **{"from": start}, to=hexgrid.copy(target))

    # -- phases ---------------------------------------------------------------------
    def shootings(self, shootings: list[dict[str, Any]]) -> None:
        b = self.b
        for i, sh in enumerate(shootings):
            where = f"declarations.active.shootings[{i}]"
            shooters = [s for s in sh["shooters"] if not (s in b.units and b.units[s]["projection_failed"])]
            for j, sid in enumerate(sh["shooters"]):
                u = b.units.get(sid)
                if (u is None or u["side"] != b.active or not b.grounded(u) or u["range"] <= 0
                        or b.in_engagement(sid) or sid in self.shot):
                    raise bad(f"{where}.shooters[{j}]", "must be an active, unengaged unit of the active side able to shoot, once a bound")
            target_ref = b.combatant_ref(sh["target_id"])
            tpos = b.position_of(sh["target_id"])
            if (target_ref is None or b.side_of(sh["target_id"]) == b.active or tpos is None
                    or b.in_engagement(sh["target_id"])
                    or (target_ref[0] == "unit" and (target_ref[1]["hidden"] or not b.grounded(target_ref[1])))):
                raise bad(f"{where}.target_id", "must be a visible, unengaged enemy unit or lone character")
            for j, sid in enumerate(sh["shooters"]):
                if hexgrid.distance(b.units[sid]["position"], tpos) > b.units[sid]["range"]:
                    raise InvalidInput.keyed(f"{where}.shooters[{j}]", "refusal.range", "out of range ({range} hexes)",
                                             range=b.units[sid]["range"])
            self.shot.update(sh["shooters"])
            if not shooters:
                continue
            main = b.units[shooters[0]]
            for sid in shooters[1:]:
                movement.reveal(b, b.units[sid])
            x = self.build(main["id"], sh["id"])
            y = self.build(sh["target_id"], sh["id"], extra_shooters=len(shooters) - 1)
            target_unit = y["unit"]
            exchange = (target_unit is not None and target_unit["range"] > 0
                        and hexgrid.distance(target_unit["position"], main["position"]) <= target_unit["range"])
            if y["troop_type"] == "Id":
                star = combat.star_of(y)
                exchange = star is not None and b.chars[star["id"]]["can_riposte"]
            self.resolve(sh["id"], "shooting", x, y, (f"shoot.{sh['id']}.shooter", f"shoot.{sh['id']}.target"),
                         first=False, exchange=exchange, x_active=True, labels=("attacker", "defender"))

    def spell_attack(self, spell: dict[str, Any], caster_side: str, caster_pos: dict, where: str) -> None:
        b = self.b
        effect = spell["effect"]
        tid = effect["target_id"] or ""
        ref = b.combatant_ref(tid)
        tpos = b.position_of(tid)
        if ref is None or b.side_of(tid) == caster_side:
            raise bad(f"{where}.effect.target_id", "must be a visible enemy unit or lone character")
        gone = tpos is None or (ref[0] == "unit" and (ref[1]["hidden"] or not b.grounded(ref[1])))
        far = not gone and hexgrid.distance(caster_pos, tpos) > effect["range"]
        if (gone or far) and caster_side != b.active:
            # the passive side aimed before the active side moved, without knowing its orders (S11.3):
            # its spell finds nobody; the power points stay spent (S7.17)
            b.log.add("S5.7", "spell.missed", "{spell_id} finds no target: {target_id} is out of its reach now.",
                      spell_id=spell["id"], target_id=tid)
            return
        if gone:
            raise bad(f"{where}.effect.target_id", "must be a visible enemy unit or lone character")
        if far:
            raise bad(f"{where}.effect.target_id", "out of the spell's range")
        x = combat.combatant(None, "Spell", {"id": spell["id"], "factor": effect["factor"], "hex": {}})
        y = self.build(tid, spell["id"])
        self.resolve_spell(spell["id"], x, y, caster_side)

    def resolve_spell(self, sid: str, x: dict, y: dict, caster_side: str) -> None:
        """A magic missile: shooting with pseudo-type Spell (S5.7); the spell itself never suffers (A5)."""
        b = self.b
        yid = y["id"]
        y_dir = (self.facing_of(yid) + 3) % 6
        y["retreat_blocked"] = self.blocked(yid, y_dir)
        x["retreat_blocked"] = "none"
        dx, dy = b.dice.roll(f"spell.{sid}.caster", D6), b.dice.roll(f"spell.{sid}.target", D6)
        out = combat.resolve("shooting", x, y, a_active=caster_side == b.active, first_melee=False, exchange=False,
                             dice_a=dx, dice_b=dy, log=b.log)
        b.event("combat_resolved", combat_id=sid, kind="shooting", attacker=self.summary(out["a"]),
                defender=self.summary(out["b"]))
        if y["troop_type"] == "Id":
            self.shoot_lone(sid, x, y, out)
            return
        pos = self.apply(yid, out["b"]["result"], y_dir, out["blocked"].get("b"))
        destroyed = {"b": pos} if y["unit"] is not None and y["unit"]["status"] == "destroyed" else {}
        self.characters_after(sid, "shooting", x, y, out, False, caster_side, b.side_of(yid), destroyed)

    def duel(self, melee: dict[str, Any], x: dict, y: dict) -> bool:
        """S5.10; returns True when the duel is the whole combat (two lone groups)."""
        b = self.b
        sx, sy = combat.star_of(x), combat.star_of(y)
        if sx is None or sy is None or b.s["options"]["simple_generals"]:
            return False
        mid = melee["id"]
        stars = {}
        for side, c, star in (("a", x, sx), ("b", y, sy)):
            real = b.chars[star["id"]]
            stars[side] = {**real, "star_value": combat.star_value(c), "modifiers": []}
        names = {"a": f"duel.{mid}.attacker", "b": f"duel.{mid}.defender", "wound": f"duel.{mid}.wound"}
        out = wounds.duel(b.dice, b.log, names, stars["a"], stars["b"])
        winner = {"a": sx["id"], "b": sy["id"]}.get(out["winner"])
        b.event("duel_fought", combat_id=mid, attacker_star=sx["id"], defender_star=sy["id"], winner=winner)
        for star in (sx, sy):
            b.chars[star["id"]]["fought"] = True
        wound = out["loser_wound"]
        if wound is not None:
            real = b.chars[wound["character_id"]]
            real["wound_state"], real["wound_malus"] = wound["wound_state"], wound["wound_malus"]
            if wound["band"] != "nothing":
                b.event("character_wounded", character_id=real["id"], band=wound["band"], wound_state=real["wound_state"])
            if real["wound_state"] == "dead":
                bounds.kill(b, real)
        return x["troop_type"] == "Id" and y["troop_type"] == "Id"

    # -- melee (S5.11) -----------------------------------------------------------------
    def is_combatant(self, cid: str) -> bool:
        """The combatant of its hex: front-rank non-adventurer unit, else adventurer, else lone characters."""
        b = self.b
        ref = b.combatant_ref(cid)
        pos = b.position_of(cid)
        if ref is None or pos is None:
            return False
        if ref[0] == "unit":
            return b.grounded(ref[1]) and b.front_unit(pos) is ref[1]
        return not b.units_at(pos)

    def check_melee(self, m: dict[str, Any], where: str, mains: set[str]) -> None:
        b = self.b
        for field, side_ok in (("attacker_id", lambda s: s == b.active), ("defender_id", lambda s: s == b.passive)):
            cid = m[field]
            if not self.is_combatant(cid) or not side_ok(b.side_of(cid)):
                raise bad(f"{where}.{field}", "must be the combatant of its hex, of the right side")
            if cid in mains:
                raise bad(f"{where}.{field}", "a combatant is the main combatant of one melee per bound")
        if hexgrid.distance(b.position_of(m["attacker_id"]), b.position_of(m["defender_id"])) != 1:
            raise bad(f"{where}.defender_id", "attacker and defender must be in adjacent hexes")
        mains.update((m["attacker_id"], m["defender_id"]))

    def check_supports(self, melees: list[dict[str, Any]], wheres: list[str]) -> None:
        b = self.b
        mains = {m[k] for m in melees for k in ("attacker_id", "defender_id")}
        for m, where in zip(melees, wheres):
            for field, own, enemy in (("attacker_support", m["attacker_id"], m["defender_id"]),
                                      ("defender_support", m["defender_id"], m["attacker_id"])):
                for j, sup in enumerate(m.get(field, [])):
                    u = b.units.get(sup["unit_id"])
                    epos = b.position_of(enemy)
                    ok = (u is not None and u["side"] == b.side_of(own) and b.grounded(u) and u["id"] not in mains
                          and b.front_unit(u["position"]) is u and epos is not None
                          and hexgrid.distance(u["position"], epos) == 1)
                    if ok and u["troop_type"] == "Bm" and own in b.units:
                        helped = b.units[own]
                        d = sheets.derive(helped)
                        ok = not d["mounted"] or helped["troop_type"] == "Bm" or d["fear_immune_effective"]
                    if not ok:
                        raise bad(f"{where}.{field}[{j}]", "not an eligible supporter of this melee")

    def melee_list(self, declared: list[dict], lurkers: list[dict], advances: list[dict]) -> list[dict[str, Any]]:
        b = self.b
        mains: set[str] = set()
        wheres = []
        for i, m in enumerate(declared):
            where = f"declarations.active.melees[{i}]"
            self.check_melee(m, where, mains)
            wheres.append(where)
        self.check_supports(declared, wheres)
        listed = [dict(m, first=frozenset((m["attacker_id"], m["defender_id"])) not in self.engaged_at_start)
                  for m in declared]
        listed += [m for m in lurkers + advances if m["attacker_id"] not in mains and m["defender_id"] not in mains]
        pairs = {frozenset((m["attacker_id"], m["defender_id"])) for m in listed}
        for e in b.s["engagements"]:
            pair = frozenset((e["attacker_id"], e["defender_id"]))
            if pair in pairs:
                continue
            att, dfd = (e["attacker_id"], e["defender_id"])
            if b.side_of(att) != b.active:
                att, dfd = dfd, att
            listed.append({"id": e["id"], "attacker_id": att, "defender_id": dfd, "contact": "front", "first": False})
            pairs.add(pair)
        return listed

    def melees(self, listed: list[dict[str, Any]]) -> None:
        b = self.b
        for m in listed:
            att, dfd = m["attacker_id"], m["defender_id"]
            if not (self.is_combatant(att) and self.is_combatant(dfd)
                    and hexgrid.distance(b.position_of(att), b.position_of(dfd)) == 1):
                b.log.add("S5.11", "combat.skipped", "Melee {combat_id} is skipped: its combatants are no longer in contact.",
                          combat_id=m["id"])
                continue
            if att in b.units and b.units[att]["projection_failed"]:
                continue
            # a supporter that failed its power projection does not fight (S5.5.3)
            sup_a = [x for x in m.get("attacker_support", []) if not b.units[x["unit_id"]]["projection_failed"]]
            sup_d = m.get("defender_support", [])
            a_contacts = {k: sum(1 for s in sup_d if s["kind"] == kind) for k, kind in
                          (("overlaps", "overlap"), ("flank", "flank"), ("rear", "rear"))}
            d_contacts = {k: sum(1 for s in sup_a if s["kind"] == kind) for k, kind in
                          (("overlaps", "overlap"), ("flank", "flank"), ("rear", "rear"))}
            if m.get("contact") in ("flank", "rear"):
                d_contacts[m["contact"]] += 1
            a_sur = m.get("attacker_surrounded", False) or a_contacts["rear"] >= 1
            d_sur = m.get("defender_surrounded", False) or (
                d_contacts["rear"] >= 1 and (m.get("contact") == "front" or d_contacts["flank"] >= 1))
            x = self.build(att, m["id"], contacts=a_contacts, surrounded=a_sur)
            y = self.build(dfd, m["id"], contacts=d_contacts, surrounded=d_sur)
            for c in (x, y):
                if c["unit"] is not None:
                    movement.reveal(b, c["unit"])
            if self.duel(m, x, y) or not (self.is_combatant(att) and self.is_combatant(dfd)):
                continue
            x = self.build(att, m["id"], contacts=a_contacts, surrounded=a_sur)
            y = self.build(dfd, m["id"], contacts=d_contacts, surrounded=d_sur)
            self.resolve(m["id"], "melee", x, y, (f"melee.{m['id']}.attacker", f"melee.{m['id']}.defender"),
                         first=m["first"], exchange=True, x_active=True)
            self.engagement(m, att, dfd)

    def engagement(self, m: dict[str, Any], att: str, dfd: str) -> None:
        b = self.b
        pair = frozenset((att, dfd))
        existing = [e for e in b.s["engagements"] if frozenset((e["attacker_id"], e["defender_id"])) == pair]
        still = (self.is_combatant(att) and self.is_combatant(dfd)
                 and hexgrid.distance(b.position_of(att), b.position_of(dfd)) == 1)
        if still and not existing:
            b.s["engagements"].append({"id": f"e{b.s['bound']}-{m['id']}", "attacker_id": att, "defender_id": dfd,
                                       "since_bound": b.s["bound"]})
        elif not still and existing:
            b.s["engagements"] = [e for e in b.s["engagements"] if e not in existing]
