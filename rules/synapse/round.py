"""``resolve-round``: one battle sequence, every step of S5.2 in order.

The round works on a private copy of the state (S3.10) and records, besides
the log, a ``results`` object (one entry per test, keyed as S9.13 says) and a
chronological list of ``events`` for narration.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import Field

from rules.contract import expand, merge_into
from rules.dice import OPEN_D10
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.answers import Declared, nested, split_path
from rules.synapse.combat import (
    COUNTER_KINDS, FIRE_FACTOR, SHOCK_TYPE, Conditions, Striker, Target, apply_losses, evaluate, numerical_advantage,
    power_halvings,
)
from rules.synapse.command import (
    army_retreat, command_test, properly_held, rally_test, retreat_mobility, test_modifiers, vehicle_retreat,
    weather_penalty,
)
from rules.synapse.declarations import Declarations, check_declarations, commits_reserve, enemy
from rules.synapse.entities import Options, Weather
from rules.synapse.participants import participants
from rules.synapse.standing import stamp
from rules.synapse.state import StateIn, is_out, is_present, load_state, ordered, parse_at
from rules.synapse.tables import tables
from rules.errors import InvalidInput

SIDES = ("A", "B")
STATUS_TEXT = {
    "fled": ("status.fled", "{formation} flees the battlefield."),
    "withdrawn": ("status.withdrawn", "{formation} leaves the battlefield in good order."),
    "routed": ("status.routed_retreat", "{formation} routs while trying to retreat."),
}


def current_headcount(f: dict) -> int:
    """S4.16: the headcount left, in proportion to the losses."""
    return max(0, f["headcount"] - f["headcount"] * f["losses"] // f["strength"])


class Round:
    """One resolution of S5.2 on a private copy of the state."""

    def __init__(self, state: dict, decl: Declarations, ctx: Context):
        self.state, self.decl, self.dice, self.log = state, decl, ctx.dice, ctx.log
        self.f = state["formations"]
        self.no = state["round"] + 1
        self.results: dict[str, Any] = {}
        self.events: list[dict] = []
        self.sides = {"A": decl.sides.A, "B": decl.sides.B}
        self.gm = decl.gm
        self.vehicles = state["mode"] == "vehicles"
        self.committed: set[str] = set()  # reserve formations that entered this round (S5.4)

    # -- helpers ----------------------------------------------------------------
    @property
    def weather(self) -> Weather:
        return Weather(**self.state["weather"])

    @property
    def options(self) -> Options:
        return Options(**self.state["options"])

    @property
    def initiative(self) -> str | None:
        return (self.state["command"] or {}).get("initiative")

    @property
    def surprised(self) -> str | None:
        return (self.state["command"] or {}).get("surprised")

    def phase_order(self) -> list[dict]:
        """S5.12: the initiative side's formations first (A's without initiative), each in formation order."""
        first = self.initiative or "A"
        rank = {first: 0, enemy(first): 1}
        return sorted(ordered(self.state), key=lambda f: (rank[f["side"]], f["order"]))

    def order_of(self, fid: str):
        return self.sides[self.f[fid]["side"]].orders.get(fid)

    def mods_of(self, fid: str):
        return self.gm.formation_modifiers.get(fid)

    def event(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": type_, **fields})

    def set_status(self, f: dict, status: str, rule: str) -> None:
        """A change of status that is not the effect of losses (those are logged by :func:`apply_losses`)."""
        f["status"] = status
        key, text = STATUS_TEXT[status]
        self.log.add(rule, key, text, formation=f["id"])
        self.event(status, formation=f["id"])

    # -- step 1 -------------------------------------------------------------------
    def gm_updates(self) -> bool:
        """S5.4: GM changes, then reserves; returns whether a significant reserve entered."""
        gm, s = self.gm, self.state
        patch = {k: v for k, v in gm.weather.model_dump().items() if v is not None}
        if patch:
            s["weather"] = {**s["weather"], **patch}
            self.log.add("S5.4", "gm.weather", "The GM changes the weather: {changes}.", changes=patch)
        for name in ("engagement_distance", "numbers_advantage_allowed", "surprise_allowed"):
            value = getattr(gm, name)
            if value is not None:
                s[name] = value
                self.log.add("S5.4", "gm.change", "The GM sets {field} to {value}.", field=name, value=value)
        if gm.mobility_edge is not None:
            s["mobility_edge"] = None if gm.mobility_edge == "none" else gm.mobility_edge
            self.log.add("S5.4", "gm.change", "The GM sets {field} to {value}.", field="mobility_edge",
                         value=s["mobility_edge"])
        significant = False
        for side in SIDES:
            army = s["armies"][side]
            if not commits_reserve(s, side, self.sides[side].commit_reserve):
                continue
            entering = [f for f in ordered(s) if f["side"] == side and f["status"] == "reserve"]
            for f in entering:
                f["status"] = "active"
                self.committed.add(f["id"])
            army["auto_commit_reserve"] = False
            significant = significant or bool(army["reserve_significant"])
            self.log.add("S7.8", "reserve.committed", "Side {side} commits its reserve ({formations}); significant: {significant}.",
                         side=side, formations=[f["id"] for f in entering], significant=bool(army["reserve_significant"]))
            self.event("reserve_committed", side=side, formations=[f["id"] for f in entering])
        return significant

    # -- steps 2 and 3 ---------------------------------------------------------------
    def garrison_held(self) -> bool | None:
        fort = self.state["fortification"]
        if self.state["mode"] != "assault" or fort is None:
            return None
        now = sum(current_headcount(f) for f in self.f.values()
                  if f["side"] == fort["defender"] and f["status"] in ("active", "routed", "reserve"))
        return properly_held(now, fort["optimal_garrison"])

    def command(self, retreating: list[str]) -> dict | None:
        """S5.5: a new command test when one is due; its result stays in force until the next."""
        s = self.state
        ratings, modifiers = {}, {}
        held = self.garrison_held()
        fort = s["fortification"]
        for x in SIDES:
            army = s["armies"][x]
            ratings[x] = army["command_rating"]
            mods = army["command_modifier"] + getattr(self.gm.command_modifiers, x)
            mods += weather_penalty(self.weather, army["radio"])
            if s["mode"] == "assault" and fort is not None:
                if x == fort["defender"]:
                    mods += tables()["defender_command_bonus_if_held"] if held else 0
                elif not army["siege_equipment"]:
                    mods += tables()["attacker_command_penalty_without_siege_equipment"]
            if self.vehicles and army["longest_range"]:
                mods += 2
            if x in retreating:
                mods += retreat_mobility(x, s["mobility_edge"])
            modifiers[x] = mods
        result = command_test(ratings, modifiers, self.dice, s["surprise_allowed"], self.log)
        s["command"] = {"round": self.no, **result}
        self.results["command"] = {**result, "properly_held": held, "retreat": None}
        self.event("command_test", initiative=result["initiative"], surprised=result["surprised"])
        return result

    def withdraw_all(self, sides: tuple[str, ...]) -> None:
        for f in ordered(self.state):
            if f["side"] in sides and (is_present(f) or f["status"] == "reserve"):
                self.set_status(f, "withdrawn", "S5.6")

    def end(self, winner: str | None, reason: str) -> None:
        s = self.state
        s.update(status="over", winner=winner, end_reason=reason)
        self.log.add("S5.13", "battle.over", "The battle is over: winner {winner} ({reason}).", winner=winner,
                     reason=reason)
        self.event("battle_over", winner=winner, end_reason=reason)

    def army_retreats(self, retreating: list[str], scores: dict | None) -> bool:
        """S5.6; returns whether the battle ended here."""
        s = self.state
        if len(retreating) == 2:
            self.log.add("S5.6", "retreat.both", "Both sides withdraw: the battle ends without a winner.")
            self.withdraw_all(SIDES)
            for side in SIDES:
                s["armies"][side]["withdrawn"] = True
            self.end(None, "withdrawal")
            return True
        if not retreating:
            return False
        side = retreating[0]
        result = army_retreat(side, scores, self.log)
        self.results[f"retreat:{side}"] = result
        self.results["command"]["retreat"] = result
        self.event("retreat", side=side, success=result["success"], routed=result["routed"])
        if result["success"]:
            self.withdraw_all((side,))
            army = s["armies"][side]
            army["withdrawn"] = True
            if not result["artillery_saved"]:
                army["abandoned_units"] = sorted(set(army["abandoned_units"]) | {
                    uid for uid, u in army["units"].items() if u.get("unit_type") == "artillery"})
            self.end(enemy(side), "withdrawal")
            return True
        for f in ordered(s):
            if f["side"] == side:
                f["retreat_penalty"] = -2
                if result["routed"] and f["status"] == "active":
                    f.update(routed_round=self.no, pursued=False)
                    self.set_status(f, "routed", "S5.6")
        return False

    # -- step 4 -----------------------------------------------------------------
    def rallies(self) -> None:
        """S5.7: each listed routed formation tries once to rally."""
        first = self.initiative or "A"
        for side in (first, enemy(first)):
            army = self.state["armies"][side]
            for fid in self.sides[side].rally:
                f = self.f[fid]
                if f["status"] != "routed":
                    continue
                mods = weather_penalty(self.weather, army["radio"]) + self.gm.rally_modifiers.get(fid, 0)
                roll = self.dice.roll(f"rally:{fid}", OPEN_D10)
                result = rally_test(army["rally_rating"], f["combat_initial"], f["losses"], f["strength"], mods, roll,
                                    self.log, fid)
                self.results[f"rally:{fid}"] = {**result, "formation": fid}
                self.event("rally", formation=fid, success=result["success"])
                if result["success"]:
                    f.update(losses=result["losses_after"], damage_state=result["damage_state"], status="active",
                             routed_round=None, pursued=False)

    # -- step 5 -----------------------------------------------------------------
    def vehicle_retreats(self) -> set[str]:
        """S5.8: units ordered to retreat try to break off; they do not fire this round."""
        tried = set()
        weather, options = self.weather, self.options
        for f in self.phase_order():
            order = self.order_of(f["id"])
            if order is None or order.action != "retreat" or not is_present(f):
                continue
            tried.add(f["id"])

            def mods(g: dict) -> int:
                m = self.mods_of(g["id"])
                return test_modifiers(g["damage_state"] if g["damage_state"] != "annihilated" else "decimated",
                                      g["status"] == "routed", self.surprised == g["side"], g["retreat_penalty"],
                                      weather, options, m.attack if m else 0)

            opponents = [self.f[e] for e in f["in_contact_with"] if is_present(self.f[e]) and self.f[e]["side"] != f["side"]]
            fid = f["id"]
            result = vehicle_retreat(
                f["combat"], mods(f), [(e["id"], e["combat"], mods(e)) for e in opponents],
                lambda: self.dice.roll(f"retreat:{fid}", OPEN_D10),
                lambda eid: self.dice.roll(f"retreat_oppose:{fid}:{eid}", OPEN_D10),
                f["retreat_penalty"], self.log, fid,
            )
            self.results[f"retreat:{fid}"] = result
            self.event("retreat", formation=fid, outcome=result["outcome"])
            if result["outcome"] == "withdrawn":
                self.set_status(f, "withdrawn", "S5.8")
            elif result["outcome"] == "routed":
                f.update(routed_round=self.no, pursued=False)
                self.set_status(f, "routed", "S5.8")
            else:
                f["retreat_penalty"] = result["retreat_penalty"]
        return tried

    # -- one attack ------------------------------------------------------------
    def distance_of(self, a: dict) -> str:
        m = self.mods_of(a["id"])
        if m and m.distance:
            return m.distance
        fort = self.state["fortification"]
        if self.state["mode"] == "assault" and fort and a["side"] != fort["defender"] and a["group"] in ("ranged", "artillery"):
            return tables()["assault_distance"][a["group"]]
        return self.state["engagement_distance"]

    def power_of(self, kind: str, a: dict, t: dict) -> int:
        """S4.12 A: the power the kind uses (before the halvings)."""
        if kind == "contact" or (kind == "riposte" and a["combat_mode"] == "ranged"):
            return a["attack_power_contact"]
        if kind != "fire":
            return a["attack_power"]
        armour = t["armour"] or 0
        power = sum(line["attack_power"] for line in a["weapon_lines"]
                    if line["usable"] and (line["weapon_damage"] is None or 2 * line["weapon_damage"] >= armour))
        m = self.mods_of(a["id"])
        return FIRE_FACTOR[m.attack_power_factor if m else "full"](power)

    def conditions(self, a: dict) -> Conditions:
        s = self.state
        return Conditions(s["mode"], s["terrain"], self.weather, self.options, self.distance_of(a),
                          s["base_difficulty"] if s["base_difficulty"] is not None else 0)

    def strike(self, kind: str, aid: str, tid: str, view: dict, key: str, die: str, numbers: dict | None,
               pending: dict | None) -> None:
        """S4.12 on formations: evaluated on ``view``, landed on the live state."""
        a, t = view[aid], view[tid]
        fort = self.state["fortification"]
        am, tm = self.mods_of(aid), self.mods_of(tid)
        bonus = 0
        if numbers and kind in SHOCK_TYPE and numbers["advantaged_side"] == a["side"]:
            bonus = numbers["bonus"]
        striker = Striker(a["combat"], self.power_of(kind, a, t), _state(a), a["status"] == "routed",
                          self.surprised == a["side"], a["retreat_penalty"], bonus, a["counter_bonus"],
                          am.attack if am else 0)
        defended = fort is not None and fort["defender"] == t["side"]
        target = Target(t["defence"], t["defence_contact"], t["combat_mode"], t["status"] == "routed",
                        self.surprised == t["side"], tm.defence if tm else 0, tm.ranged_cover if tm else 0,
                        fort["class"] if defended else None, fort["defence_mod"] if defended else 0,
                        self.state["mobility_edge"] == t["side"])
        roll = self.dice.roll(die, OPEN_D10)
        result = evaluate(kind, striker, target, self.conditions(a), roll, self.log, key)
        live_a, live_t = self.f[aid], self.f[tid]
        if kind in COUNTER_KINDS:
            live_a["counter_bonus"] = 0
        before = live_t["status"]
        landed = apply_losses(live_t, result["losses_inflicted"], encircled=tid in self.gm.encircled,
                              round_no=self.no, log=self.log, key=key)
        gain = result["counter_bonus_gained"]
        if gain:
            if pending is None:
                live_t["counter_bonus"] += gain
            else:
                pending[tid] = pending.get(tid, 0) + gain
        friendly_target = None
        if kind == "ranged" and not result["success"]:
            friends = sorted((view[x] for x in t["in_contact_with"]
                              if view[x]["side"] == a["side"] and is_present(view[x])), key=lambda g: g["order"])
            if friends and result["friendly_fire_losses"] > 0:
                friendly_target = friends[0]["id"]
            else:
                result["friendly_fire_losses"] = 0
        if kind == "pursuit":
            live_t["pursued"] = True
        live_a["engaged"] = live_t["engaged"] = True
        if kind in SHOCK_TYPE or kind in ("contact", "fire"):
            _touch(live_a, tid)
            _touch(live_t, aid)
        self.results[key] = {**result, "attacker": aid, "target": tid, "void": False, **landed,
                             "friendly_fire_target": friendly_target}
        self.event("attack", key=key, losses=landed["losses_applied"])
        self._status_events(live_t, before)
        if friendly_target:
            victim = self.f[friendly_target]
            before = victim["status"]
            hit = apply_losses(victim, result["friendly_fire_losses"], encircled=friendly_target in self.gm.encircled,
                               round_no=self.no, log=self.log, key=key)
            victim["engaged"] = True
            self.log.add("S7.5", "attack.friendly_fire", "{attack}: the missed volley falls on {formation}: {losses} losses.",
                         attack=key, formation=friendly_target, losses=hit["losses_applied"])
            self.event("friendly_fire", key=key, formation=friendly_target, losses=hit["losses_applied"])
            self._status_events(victim, before)

    def _status_events(self, f: dict, before: str) -> None:
        if f["status"] != before and f["status"] in ("routed", "destroyed"):
            self.event(f["status"], formation=f["id"])

    def void(self, key: str, kind: str, aid: str, tid: str, reason: str) -> None:
        self.results[key] = {"kind": kind, "attacker": aid, "target": tid, "void": True, "reason": reason}
        if reason == "screened":
            self.log.add("S7.4", "attack.screened", "{attack} stops: a reserve of melee troops committed this round "
                         "now screens {target}.", attack=key, target=tid)
        else:
            self.log.add("S5.9", "attack.void", "{attack} does not take place ({reason}).", attack=key, reason=reason)

    def screened(self, m: dict, t: dict) -> bool:
        """S7.4: ranged troops whose side just committed a melee reserve are out of a charge's reach.

        The charge was declared without knowing of that reserve (secret, S11.2),
        so it is stopped here rather than refused at declaration."""
        return (m["combat_mode"] == "melee" and t["combat_mode"] == "ranged" and t["status"] == "active"
                and any(self.f[c]["side"] == t["side"] and self.f[c]["combat_mode"] == "melee"
                        and self.f[c]["status"] == "active" for c in self.committed))

    # -- steps 6 and 7 -------------------------------------------------------------
    def view(self) -> tuple[dict, dict | None]:
        """S5.12: sequential phases read the live state; simultaneous ones a snapshot of the phase's start."""
        if self.initiative is None:
            return copy.deepcopy(self.f), {}
        return self.f, None

    def ranged_phase(self, skip: set[str]) -> None:
        view, _ = self.view()
        for f in self.phase_order():
            order = self.order_of(f["id"])
            if order is None or order.action != "attack" or f["id"] in skip:
                continue
            if not self.vehicles and f["combat_mode"] != "ranged":
                continue
            a, t = view[f["id"]], view[order.target]
            kind = "fire" if self.vehicles else "ranged"
            key = f"attack:{a['id']}"
            able = is_present(a) if self.vehicles else a["status"] == "active"
            if not able:
                self.void(key, kind, a["id"], t["id"], "attacker_not_active")
            elif is_out(t):
                self.void(key, kind, a["id"], t["id"], "target_out")
            else:
                self.strike(kind, a["id"], t["id"], view, key, key, None, None)

    def numbers(self) -> dict:
        """S5.10 step 1 / H28: effective shock power of each side, plus the contact power of charged ranged troops."""
        charged = {o.target for side in SIDES for fid, o in self.sides[side].orders.items()
                   if o.action == "attack" and self.f[fid]["combat_mode"] == "melee"
                   and not self.screened(self.f[fid], self.f[o.target])}
        power = {"A": 0, "B": 0}
        for f in ordered(self.state):
            if f["status"] != "active":
                continue
            c = self.conditions(f)
            if f["combat_mode"] == "melee":
                power[f["side"]] += f["attack_power"] // 2 ** power_halvings("shock", _state(f), False, c)
            elif f["id"] in charged:
                power[f["side"]] += f["attack_power_contact"] // 2 ** power_halvings("contact", _state(f), False, c)
        fort = self.state["fortification"]
        allowed = self.state["numbers_advantage_allowed"] and not (fort and fort["inaccessible_site"])
        result = numerical_advantage(power["A"], power["B"], allowed, self.log)
        self.results["numbers"] = result
        return result

    def shock_phase(self) -> None:
        """S5.10: charges, pursuits and ripostes, contact strikes of exposed ranged troops."""
        numbers = self.numbers()
        attackers = [f for f in self.phase_order() if f["combat_mode"] == "melee"
                     and (o := self.order_of(f["id"])) is not None and o.action == "attack"]
        view, pending = self.view()
        struck, riposted, pursued = set(), set(), set()
        for f in attackers:
            mid, tid = f["id"], self.order_of(f["id"]).target
            key = f"attack:{mid}"
            m, t = view[mid], view[tid]
            if m["status"] != "active":
                self.void(key, "shock", mid, tid, "attacker_not_active")
            elif self.screened(m, t):
                self.void(key, "shock", mid, tid, "screened")
            elif is_out(t):
                self.void(key, "shock", mid, tid, "target_out")
            elif t["status"] == "routed":
                if t["pursued"] or tid in pursued:
                    self.void(key, "pursuit", mid, tid, "already_pursued")
                    continue
                pursued.add(tid)
                self.strike("pursuit", mid, tid, view, key, key, numbers, pending)
                answer = self.order_of(tid)
                if answer and answer.action == "riposte" and is_present(view[tid]) and tid not in riposted:
                    riposted.add(tid)
                    self.strike("riposte", tid, mid, view, f"attack:{tid}", f"attack:{tid}", numbers, pending)
            elif t["combat_mode"] == "ranged":
                if t["attack_power_contact"] > 0 and tid not in struck:
                    struck.add(tid)
                    self.strike("contact", tid, mid, view, f"contact:{tid}", f"contact:{tid}", numbers, pending)
                if view[mid]["status"] == "active":
                    self.strike("shock", mid, tid, view, key, key, numbers, pending)
                else:
                    self.void(key, "shock", mid, tid, "attacker_not_active")
            else:
                self.strike("shock", mid, tid, view, key, key, numbers, pending)
        for tid, gain in (pending or {}).items():
            self.f[tid]["counter_bonus"] += gain

    # -- step 8 -----------------------------------------------------------------
    def end_of_round(self) -> None:
        """S5.13: routed troops of an earlier round flee; contacts with the departed end; is a side beaten?"""
        s = self.state
        for f in ordered(s):
            if f["status"] == "routed" and (f["routed_round"] is None or f["routed_round"] < self.no):
                self.set_status(f, "fled", "S5.13")
        for f in self.f.values():
            f["in_contact_with"] = [] if is_out(f) else [x for x in f["in_contact_with"] if not is_out(self.f[x])]
        present = {x: any(is_present(f) for f in self.f.values() if f["side"] == x) for x in SIDES}
        reserve = {x: any(f["status"] == "reserve" for f in self.f.values() if f["side"] == x) for x in SIDES}
        beaten = [x for x in SIDES if not present[x] and not reserve[x]]
        if self.gm.end_battle:
            self.end(enemy(beaten[0]) if len(beaten) == 1 else None, "gm")
        elif len(beaten) == 2:
            self.end(None, "mutual")
        elif len(beaten) == 1:
            self.end(enemy(beaten[0]), "rout")
        else:
            for x in SIDES:
                if not present[x] and reserve[x]:
                    s["armies"][x]["auto_commit_reserve"] = True
                    self.log.add("S7.8", "reserve.auto", "Side {side} has nothing left on the field: its reserve enters next round.",
                                 side=x)

    # -- the whole round ------------------------------------------------------------
    def run(self) -> None:
        s = self.state
        significant = self.gm_updates()
        retreating = [x for x in SIDES if self.sides[x].retreat] if not self.vehicles else []
        scores = None
        if len(retreating) < 2 and (self.no == 1 or self.gm.new_command_test or significant or retreating):
            scores = self.command(retreating)["scores"]
        ended = self.army_retreats(retreating, scores)
        if not ended:
            if not self.vehicles:
                self.rallies()
            tried = self.vehicle_retreats() if self.vehicles else set()
            self.ranged_phase(tried)
            if not self.vehicles:
                self.shock_phase()
            self.end_of_round()
        s["round"] = self.no


def _state(f: dict) -> str:
    """The damage state that penalises an attacker (an annihilated formation is destroyed, never attacks)."""
    return "decimated" if f["damage_state"] == "annihilated" else f["damage_state"]


def _touch(f: dict, other: str) -> None:
    if other not in f["in_contact_with"]:
        f["in_contact_with"].append(other)


class ResolveRoundInput(Input):
    state: StateIn
    declarations: Declared = Field(default_factory=dict)


def with_defaults(state: dict, declarations: dict, ctx: Context) -> tuple[dict, list[str]]:
    """Give each participant who must declare and did not its default orders (S5.3: hold)."""
    sides = declarations.get("sides")
    declared = set(sides) if isinstance(sides, dict) else set()
    applied = []
    for entry in participants(state):
        if entry["must_declare"] and entry["side"] not in declared:
            merge_into(declarations, expand(entry["default"], split_path))
            applied.append(entry["key"])
            ctx.log.add("S5.3", "defaults.applied", "{participant} declared nothing: its formations hold.",
                        participant=entry["key"])
    return declarations, applied


@ruleset.operation("resolve-round", ResolveRoundInput, rolls=True, summary="Resolve one battle sequence (S5.2-S5.13).")
def resolve_round(data: ResolveRoundInput, ctx: Context) -> dict:
    state = load_state(data.state)
    if state["status"] != "ongoing":
        raise InvalidInput.field("state.status", "the battle is over")
    raw = nested(data.declarations)
    decl = parse_at(Declarations, raw, "declarations")
    check_declarations(state, decl)
    raw, applied = with_defaults(state, raw, ctx)
    rnd = Round(state, parse_at(Declarations, raw, "declarations"), ctx)
    rnd.run()
    return {"state": stamp(state), "results": rnd.results, "events": rnd.events, "defaults_applied": applied}
