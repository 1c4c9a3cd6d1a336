"""Execution of the active side's ordered ``actions`` (S5.4, S5.5.4, S7.3, S7.8, S7.9, S7.11)."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.heros import command, fog, hexgrid, movement, sheets
from rules.heros.movement import bad
from rules.heros.state import Battle

CARRY_STATES = ("serious", "unconscious")


class ActionRunner:
    """Runs the actions in order; collects the melees that advances and lurkers add (S5.11)."""

    def __init__(self, b: Battle, declared_melees: list[dict[str, Any]], follow: dict[str, bool]):
        self.b = b
        self.payer = movement.Payer(b)
        self.declared_attackers = {m["attacker_id"] for m in declared_melees}
        self.follow = follow
        self.lurker_melees: list[dict[str, Any]] = []
        self.advance_melees: list[dict[str, Any]] = []
        self.carried: set[str] = set()
        self.accounted: set[str] = set()

    def run(self, actions: list[dict[str, Any]]) -> None:
        for i, action in enumerate(actions):
            where = f"declarations.active.actions[{i}]"
            getattr(self, f"do_{action['kind']}")(action, where)
        missing = [u for u in self.b.s["pending"]["impetuous"]
                   if u not in self.accounted and self.b.units[u]["status"] == "active"]
        if missing:
            raise bad("declarations.active.actions",
                      f"impetuous units {', '.join(missing)} must be held back or advance this bound (H34)")

    # -- helpers ------------------------------------------------------------------
    def corps_units(self, action: dict[str, Any], where: str, *, allow_aloft: bool = False) -> tuple[dict, list[dict]]:
        b = self.b
        corps = b.corps.get(action["corps_id"]) if action["corps_id"] else None
        if corps is None or corps["side"] != b.active:
            raise bad(f"{where}.corps_id", "must be a corps of the active side")
        if not action["units"]:
            raise bad(f"{where}.units", "name at least one unit")
        units = []
        for j, uid in enumerate(action["units"]):
            u = b.units.get(uid)
            if u is None or u["corps_id"] != corps["id"] or not b.on_map(u):
                raise bad(f"{where}.units[{j}]", "must be an active unit of this corps on the map")
            if u["high_altitude"] and not allow_aloft:
                raise bad(f"{where}.units[{j}]", "the unit is at high altitude")
            if u in units:
                raise bad(f"{where}.units[{j}]", "listed twice")
            units.append(u)
        if not movement.connected(units):
            raise bad(f"{where}.units", "the units of a group must be connected by adjacency")
        return corps, units

    def paths(self, action: dict[str, Any], units: list[dict], where: str) -> dict[str, list]:
        unknown = [uid for uid in action["paths"] if uid not in action["units"]]
        if unknown:
            raise bad(f"{where}.paths.{unknown[0]}", "not a unit of this action")
        return {u["id"]: action["paths"].get(u["id"], []) for u in units}

    def unit_path(self, unit: dict[str, Any], path: list, where: str) -> list:
        """The declared path, stopped before an enemy the side could not see (see :func:`movement.fog_cut`)."""
        b = self.b
        return movement.fog_cut(b, unit["side"], unit["id"], path,
                                lambda p: movement.fits(lambda: movement.check_unit_path(b, unit, p, where)))

    # -- kinds ---------------------------------------------------------------------
    def do_move(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        corps, units = self.corps_units(action, where)
        if any(u["troop_type"] in ("Gd", "Lu") for u in units):
            raise bad(f"{where}.units", "gods and lurkers have their own actions")
        adventurer = None
        if action["pa_source"] == "adventurer":
            if len(units) != 1 or units[0]["troop_type"] != "Av":
                raise bad(f"{where}.pa_source", "an adventurer's own PA moves one adventurer unit only")
            adventurer = units[0]["id"]
        found = movement.group_surcharges(b, corps, units)
        cost = command.log_cost(b.log, action["id"], command.MOVE_COST, found)
        from_corps = self.payer.pay(corps, cost, where, use_extra=action["use_cinc_extra_pa"], adventurer=adventurer)
        movement.charge_champions(b, units, cost, where)
        paths = self.paths(action, units, where)
        for u in units:
            if u["projection_failed"]:
                u["activations"] += 1
                continue
            path = self.unit_path(u, paths[u["id"]], f"{where}.paths.{u['id']}")
            mp = movement.check_unit_path(b, u, path, f"{where}.paths.{u['id']}")
            u["activations"] += 1
            movement.execute_path(b, u, path, action["facings"].get(u["id"]), action["id"], mp)
        for k, follow in enumerate(action["god_follows"]):
            self.god_follow(follow, from_corps, f"{where}.god_follows[{k}]")

    def do_climb(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        corps, units = self.corps_units(action, where)
        if any(u["troop_type"] != "Fl" for u in units):
            raise bad(f"{where}.units", "only flyers climb")
        cost = command.log_cost(b.log, action["id"], command.MOVE_COST, movement.group_surcharges(b, corps, units))
        self.payer.pay(corps, cost, where, use_extra=action["use_cinc_extra_pa"])
        movement.charge_champions(b, units, cost, where)
        for u in units:
            u["activations"] += 1
            if u["projection_failed"]:
                continue
            b.drop_engagements(u["id"])
            u["high_altitude"], u["climb_hex"] = True, hexgrid.copy(u["position"])
            b.unit_event("flyer_climbed", u, unit_id=u["id"])

    def do_land(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        corps, units = self.corps_units(action, where, allow_aloft=True)
        if any(u["troop_type"] != "Fl" or not u["high_altitude"] for u in units):
            raise bad(f"{where}.units", "only flyers at high altitude land")
        cost = command.log_cost(b.log, action["id"], command.MOVE_COST, movement.group_surcharges(b, corps, units, landing=True))
        self.payer.pay(corps, cost, where, use_extra=action["use_cinc_extra_pa"])
        for u in units:
            u["activations"] += 1
            h = action["hexes"].get(u["id"])
            if h is None:
                raise bad(f"{where}.hexes.{u['id']}", "a landing hex is required")
            if fog.hidden_enemy_at(b.s["units"], u["side"], h) and not movement.fits(
                    lambda: movement.landing_ok(b, u, h, "hex")):
                b.log.add("S7.14", "land.stopped_hidden", "{unit_id} cannot land: an unseen enemy holds the hex.",
                          unit_id=u["id"])
                continue
            movement.landing_ok(b, u, h, f"{where}.hexes.{u['id']}")
            hexes = hexgrid.distance(u["climb_hex"], h)
            u["high_altitude"], u["climb_hex"] = False, None
            movement.place_unit(b, u, h, hexes)
            u["facing"] = action["facings"].get(u["id"], u["facing"])
            b.unit_event("flyer_landed", u, unit_id=u["id"], hex=hexgrid.copy(h))

    def do_hold(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        corps, units = self.corps_units(action, where)
        general = b.general_of(corps)
        first = self.payer.holds.get(corps["id"], 0) == 0
        problem = command.hold_problem(
            corps["pa"]["roll"], any(not u["regular"] for u in units), action["hold_exception"], first_hold=first,
            contains_unmoved_general=general["stacked_on"] in {u["id"] for u in units} and not general["has_moved"],
            cinc_extra_available=self.payer.cinc_extra_available(), strong_position=movement.strong_position(b, units),
        )
        b.log.add("S5.4.1", "pa.hold", "Hold {action_id}: allowed {allowed} (exception {exception}).",
                  action_id=action["id"], allowed=problem is None, exception=action["hold_exception"])
        if problem:
            raise bad(f"{where}.hold_exception", problem)
        self.payer.holds[corps["id"]] = self.payer.holds.get(corps["id"], 0) + 1
        cost = command.log_cost(b.log, action["id"], command.HOLD_COST, [])
        if action["hold_exception"] == "cinc_extra_pa":
            self.payer.take_extra(where)
        else:
            self.payer.pay(corps, cost, where)
        for u in units:
            u["activations"] += 1
            self.accounted.add(u["id"])
        b.event("group_held", action_id=action["id"], units=[u["id"] for u in units], cost=cost)

    def do_advance(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        _corps, units = self.corps_units(action, where)
        paths = self.paths(action, units, where)
        for u in units:
            if not u["impetuous"] or sheets.derive(u)["fixed"]:
                raise bad(f"{where}.units", f"{u['id']} is not an impetuous unit")
            self.accounted.add(u["id"])
            if u["projection_failed"]:
                u["activations"] += 1
                continue
            target = movement.advance_target(b, u)
            here = f"{where}.paths.{u['id']}"
            path = self.unit_path(u, paths[u["id"]], here)
            if target is not None:
                prev = u["position"]
                for j, h in enumerate(path):
                    if hexgrid.distance(h, target["position"]) >= hexgrid.distance(prev, target["position"]):
                        raise bad(f"{here}[{j}]", f"each step of a spontaneous advance must get nearer {target['id']}")
                    prev = h
            mp = movement.check_unit_path(b, u, path, here)
            u["activations"] += 1
            follow = True
            av = b.stacked_adventurer(u["position"])
            if av is not None:
                follow = self.follow.get(av["id"], True)
            movement.execute_path(b, u, path, action["facings"].get(u["id"]), action["id"], mp, carry_adventurer=follow)
            if (target is not None and hexgrid.distance(u["position"], target["position"]) == 1
                    and u["id"] not in self.declared_attackers):
                self.advance_melees.append({"id": f"{action['id']}-{u['id']}", "attacker_id": u["id"],
                                            "defender_id": target["id"], "contact": "front", "first": True})

    def do_character(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        c = b.chars.get(action["character_id"] or "")
        if c is None or c["side"] != b.active or c["status"] != "active" or c["position"] is None:
            raise bad(f"{where}.character_id", "must be an active character of the active side on the map")
        if b.char_aloft(c):
            raise bad(f"{where}.character_id", "the character is at high altitude")
        path = action["path"]
        carry = action["carry"]
        source = action["pa_source"] or ("free" if (not path or carry) else "corps")
        if b.s["options"]["simple_generals"] and path:
            raise bad(f"{where}.path", "with simple generals a general never moves alone (S7.16)")
        if carry:
            if c["wound_state"] not in CARRY_STATES or len(path) != 1 or c["id"] in self.carried:
                raise bad(f"{where}.carry", "only a seriously wounded or unconscious character is carried, 1 hex, once a bound")
            self.carried.add(c["id"])
        elif path:
            allowance = movement.character_allowance(b, c, path)
            if len(path) > allowance:
                raise bad(f"{where}.path", f"the character moves at most {allowance} hexes")
            if b.in_engagement(c["id"]):
                enemy_moves = [b.units[e]["move"] for e in b.engaged_with(c["id"]) if e in b.units]
                if not all(allowance > m for m in enemy_moves):
                    raise bad(f"{where}.path", "a lone character leaves an engagement only against slower enemies")
        if source == "free" and path and not carry:
            raise bad(f"{where}.pa_source", "only an engage/withdraw toggle or a carry is free")
        path = movement.fog_cut(b, c["side"], c["id"], path,
                                lambda p: movement.fits(lambda: movement.check_character_path(b, c, p, f"{where}.path")))
        movement.check_character_path(b, c, path, f"{where}.path")
        final = path[-1] if path else c["position"]
        target = self.stack_target(c, action, final, where)
        cost = 0
        if source == "corps":
            corps = b.corps[c["corps_id"]]
            absent, distance = movement.general_distance(b, corps, [{"position": c["position"]}])
            cost = command.log_cost(b.log, action["id"], command.MOVE_COST, command.character_surcharges(c["role"], distance, absent))
            self.payer.pay(corps, cost, where, use_extra=action["use_cinc_extra_pa"])
        elif source == "personal":
            personal = max(0, c["personal_pa"] + sheets.pa_modifier(c["wound_state"]))
            if c["role"] != "champion" or c["personal_pa_spent"] + 1 > personal:
                raise InvalidInput.keyed(f"{where}.pa_source", "refusal.personal_pa", "no personal PA left")
            c["personal_pa_spent"] += 1
            cost = command.log_cost(b.log, action["id"], command.MOVE_COST, [])
        if c["role"] == "champion" and cost:
            c["pa_benefit"] += cost
            b.log.add("S7.8", "pa.cap", "Champion {character_id} has benefited from {total} PA this bound.",
                      character_id=c["id"], total=c["pa_benefit"])
            if c["pa_benefit"] > command.LIMITS["champion_pa_per_bound"]:
                raise bad(where, f"champion {c['id']} would benefit from more than 5 PA this bound")
        start = hexgrid.copy(c["position"])
        if path:
            b.drop_engagements(c["id"])
            b.move_character(c, final, len(path))
        c["stacked_on"] = target
        if target is None:
            c["engaged"] = True
        elif action["engaged"] is not None:
            c["engaged"] = action["engaged"]
        b.event("character_moved", character_id=c["id"], **{"from": start}, to=hexgrid.copy(final),
                stacked_on=c["stacked_on"], engaged=c["engaged"])

    def stack_target(self, c: dict[str, Any], action: dict[str, Any], final: dict, where: str) -> str | None:
        b = self.b
        units = b.units_at(final)
        if action["stack_on"] is not None:
            u = b.units.get(action["stack_on"])
            if u is None or u not in units or u["side"] != c["side"]:
                raise bad(f"{where}.stack_on", "must be a friendly unit in the character's final hex")
        else:
            u = b.front_unit(final) if units else None
        if u is None:
            return None
        if u["troop_type"] in ("Gd", "Lu") or u["character_unit"]:
            raise bad(f"{where}.stack_on", "no character stands on a god, a lurker or a character-unit")
        return u["id"]

    def god_pa(self, god: dict[str, Any], amount: int, where: str) -> None:
        pa = self.b.s["gods_pa"].get(god["id"])
        if pa is None or pa["spent"] + amount > pa["available"]:
            raise bad(where, f"god {god['id']} has not enough PA")
        pa["spent"] += amount

    def god_unit(self, god_id: str | None, where: str) -> dict[str, Any]:
        b = self.b
        god = b.units.get(god_id or "")
        if god is None or god["troop_type"] != "Gd" or god["side"] != b.active or not b.on_map(god):
            raise bad(where, "must be an active god of the active side")
        if god["projection_failed"]:
            raise bad(where, "this god cannot act")
        return god

    def god_path(self, god: dict[str, Any], path: list, facing: int | None, where: str, action_id: str) -> None:
        b = self.b
        path = self.unit_path(god, path, where)
        mp = movement.check_unit_path(b, god, path, where)
        start = hexgrid.copy(god["position"])
        movement.execute_path(b, god, path, facing, action_id, mp)
        if path:
            b.events.pop()  # the god's own event replaces unit_moved
            b.unit_event("god_moved", god, unit_id=god["id"], **{"from": start}, to=hexgrid.copy(god["position"]))

    def do_god(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        god = self.god_unit(action["god_id"], f"{where}.god_id")
        self.god_pa(god, 1, where)
        if action["action"] == "move":
            self.god_path(god, action["path"], action["facing"], f"{where}.path", action["id"])
            god["activations"] += 1
            return
        god["activations"] += 1
        front = hexgrid.neighbour(god["position"], god["facing"])
        other = b.units.get(action["swap_with"] or "")
        if (other is None or other["side"] != god["side"] or not b.grounded(other) or not hexgrid.same(other["position"], front)
                or other["facing"] != god["facing"] or b.in_engagement(other["id"]) or b.in_engagement(god["id"])
                or len(b.units_at(front)) != 1):
            raise bad(f"{where}.swap_with", "must be a lone, unengaged friendly unit in the god's front hex facing the same way")
        here, there = hexgrid.copy(god["position"]), hexgrid.copy(other["position"])
        god["position"] = there
        b.move_unit(other, here, 1)
        b.unit_event("god_swapped", god, unit_id=god["id"], with_unit_id=other["id"])

    def god_follow(self, follow: dict[str, Any], corps_cost: int, where: str) -> None:
        god = self.god_unit(follow["god_id"], f"{where}.god_id")
        self.god_pa(god, corps_cost, where)
        self.god_path(god, follow["path"], follow["facing"], f"{where}.path", "follow")

    def do_lurker(self, action: dict[str, Any], where: str) -> None:
        b = self.b
        lurker = b.units.get(action["unit_id"] or "")
        if lurker is None or lurker["troop_type"] != "Lu" or lurker["side"] != b.active or lurker["status"] != "pool":
            raise bad(f"{where}.unit_id", "must be a lurker of the active side in the pool")
        target = b.units.get(action["target_id"] or "")
        if (target is None or target["side"] == b.active or not b.grounded(target)
                or b.hex(target["position"])["terrain"] not in ("rough", "difficult")):
            raise bad(f"{where}.target_id", "must be an active enemy unit in rough or difficult ground")
        front = hexgrid.neighbour(target["position"], target["facing"])
        h = action["hex"] or front
        if action["contact"] == "flank" and not self.flank_allowed(lurker, target):
            raise bad(f"{where}.contact", "a lurker may take its target in flank only when its side outnumbers it in that feature")
        if action["contact"] == "front" and not hexgrid.same(h, front):
            raise bad(f"{where}.hex", "a lurker is placed on its target's front hex")
        if hexgrid.distance(h, target["position"]) == 1 and b.inside(h) and b.units_at(h) and not b.chars_at(h) and all(
                fog.hidden_enemy_at([x], lurker["side"], h) for x in b.units_at(h)):
            b.log.add("S7.14", "lurker.stopped_hidden", "{unit_id} stays in the pool: an unseen enemy holds the hex.",
                      unit_id=lurker["id"])
            return
        if hexgrid.distance(h, target["position"]) != 1 or not b.inside(h) or b.units_at(h) or b.chars_at(h) \
                or movement.enter_cost(b, "Lu", "free", h) is None:
            raise bad(f"{where}.hex", "must be an empty, enterable hex adjacent to the target")
        corps = b.corps[lurker["corps_id"]]
        cost = command.log_cost(b.log, action["id"], lurker["lurker_activations"] + 1, [])
        self.payer.pay(corps, cost, where, use_extra=action["use_cinc_extra_pa"])
        lurker["lurker_activations"] += 1
        lurker["status"], lurker["position"] = "active", hexgrid.copy(h)
        lurker["facing"] = hexgrid.direction_to(h, target["position"])
        lurker["activations"] += 1
        b.unit_event("lurker_generated", lurker, unit_id=lurker["id"], target_id=target["id"], hex=hexgrid.copy(h), cost=cost)
        self.lurker_melees.append({"id": action["id"], "attacker_id": lurker["id"], "defender_id": target["id"],
                                   "contact": action["contact"], "first": True})

    def flank_allowed(self, lurker: dict[str, Any], target: dict[str, Any]) -> bool:
        """More lurkers engaged in the feature than active enemy units in it (S7.9)."""
        b = self.b
        feature = b.hex(target["position"])["feature_id"]
        if feature is None:
            return False
        in_feature = [u for u in b.s["units"] if b.grounded(u) and b.hex(u["position"])["feature_id"] == feature]
        enemies = [u for u in in_feature if u["side"] != lurker["side"]]
        lurkers = [u for u in b.s["units"] if u["troop_type"] == "Lu" and u["side"] == lurker["side"] and b.grounded(u)
                   and any(e in {x["id"] for x in enemies} for e in b.engaged_with(u["id"]))]
        return len(lurkers) > len(enemies)
