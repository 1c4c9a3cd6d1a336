"""Operation ``resolve-round`` (S5.2-S5.14, S9.13): one bound of the active side.

The state given is validated, copied, and changed step by step in the order of
the S5.2 table; any declaration the rules refuse raises ``InvalidInput`` before
anything is returned, so an invalid round changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional

from pydantic import Field, model_validator

from rules.contract import Answer, is_flat, participant_key
from rules.errors import InvalidInput
from rules.heros import aftermath, bounds, caps, command, hexgrid, movement, ruleset, sheets
from rules.heros.actions import ActionRunner
from rules.heros.declarations import Declarations
from rules.heros.merge import is_answers, merge, with_defaults
from rules.heros.fighting import Fights
from rules.heros.movement import bad
from rules.heros.state import Battle, StateModel, dump_state, normalise
from rules.model import ClosedInput
from rules.explain import Log
from rules.registry import Context
from rules.validate import parse

AnswerMap = Annotated[dict[Annotated[str, Field(max_length=80)], Answer], Field(max_length=caps.PARTICIPANTS)]

HEAL = {"unconscious": "serious", "serious": "light", "light": "malus"}
DETECTION = 2


class ResolveRoundInput(ClosedInput):
    state: StateModel
    declarations: Declarations = Declarations()
    answers: Optional[AnswerMap] = Field(None, description="Set from ``declarations`` when they come as "
                                         "{participant key: answer}; merged by the engine (merge-declarations).")

    @model_validator(mode="before")
    @classmethod
    def answers_apart(cls, data: Any) -> Any:
        """Declarations given as answers are merged against the state, after it is validated."""
        return split_answers(data)


def split_answers(data: Any) -> Any:
    """Move ``declarations`` written as ``{participant key: answer}`` to ``answers`` (see ``merge.is_answers``)."""
    if isinstance(data, dict) and isinstance(data.get("declarations"), dict) and "answers" not in data:
        declared = data["declarations"]
        if is_answers(declared) or is_flat(declared):
            data = {**data, "declarations": {}, "answers": declared if is_answers(declared) else {"": declared}}
    return data


def engine_declarations(state: dict[str, Any], declarations: Declarations, answers: dict | None,
                        log: Log) -> tuple[dict[str, Any], list[str]]:
    """The S9.13 declarations object, merged from answers when they came so, the defaults of those who
    had to declare and did not added (``merge.with_defaults``); and these participants' keys."""
    if answers is None:
        return declarations.model_dump(by_alias=True), []
    answers, applied = with_defaults(state, answers, log)
    return validated(merge(state, answers).result), applied


def validated(merged: dict[str, Any]) -> dict[str, Any]:
    """Merged declarations checked against the S9.13 shapes; problems named by their ``declarations.`` path."""
    try:
        return parse(Declarations, merged).model_dump(by_alias=True)
    except InvalidInput as exc:
        fields = {f"declarations.{path}": text for path, text in exc.fields.items()}
        said = {f"declarations.{path}": message for path, message in exc.messages.items()}
        raise InvalidInput(str(exc), fields, said) from None


def check_references(state: dict[str, Any]) -> None:
    """Cross references of a state given back to the engine (S3.7)."""
    sides = {s["id"] for s in state["sides"]}
    corps = {c["id"]: c for c in state["corps"]}
    if state["active_side"] not in sides:
        raise InvalidInput.field("state.active_side", "unknown side")
    for i, u in enumerate(state["units"]):
        if u["corps_id"] not in corps:
            raise InvalidInput.field(f"state.units[{i}].corps_id", "unknown corps")
        u["side"] = corps[u["corps_id"]]["side"]
    for i, c in enumerate(state["characters"]):
        if c["corps_id"] not in corps:
            raise InvalidInput.field(f"state.characters[{i}].corps_id", "unknown corps")
        c["side"] = corps[c["corps_id"]]["side"]
        if c["combat_bonus"] is None:
            c["combat_bonus"] = sheets.default_bonus(c["role"])
    for i, c in enumerate(state["corps"]):
        if c["general_id"] not in {ch["id"] for ch in state["characters"]}:
            raise InvalidInput.field(f"state.corps[{i}].general_id", "unknown character")


def load_state(model: StateModel) -> dict[str, Any]:
    state = dump_state(model)
    check_references(state)
    for i, u in enumerate(state["units"]):
        entered = dict(u, mounted=u["mounted"] if u["troop_type"] == "St" else None)
        state["units"][i] = {**u, **sheets.fill_unit(entered, f"state.units[{i}]")}
    return state


def rally_problem(b: Battle, general: dict[str, Any], corps: dict[str, Any]) -> tuple[str, str] | None:
    """Why ``general`` may not try to rally ``corps`` now (S5.6 points 2-5), else ``None``.

    A captured general rallies from his holder's hex; the range is measured to
    the nearest active unit of the corps.
    """
    if general["status"] == "dead" or general["wound_state"] == "dead":
        condition = "dead"
    elif general["status"] == "captured":
        condition = "captured"
    else:
        condition = "unconscious" if general["wound_state"] == "unconscious" else "fit"
    origin = general["position"]
    if condition == "captured":
        holder = b.units.get(general["captured_by"])
        origin = holder["position"] if holder is not None and b.grounded(holder) else None
    members = [u for u in b.s["units"] if u["corps_id"] == corps["id"] and b.grounded(u)]
    distance = min((hexgrid.distance(origin, u["position"]) for u in members), default=999) if origin else 999
    return command.rally_problem(general["role"], condition, general["rally_failed"],
                                 general["corps_id"] == corps["id"], corps["rally_attempted"], distance)


class Round:
    def __init__(self, b: Battle, decl: dict[str, Any]):
        self.b = b
        self.active, self.passive, self.gm = decl["active"], decl["passive"], decl["gm"]
        self.by_side = {b.active: self.active, b.passive: self.passive}
        starts = {frozenset((e["attacker_id"], e["defender_id"])) for e in b.s["engagements"]}
        self.fights = Fights(b, self.by_side, self.gm["modifiers"], starts)

    def run(self) -> None:
        b = self.b
        self.captives()
        self.arrivals()
        self.projection()
        runner = ActionRunner(b, self.active["melees"], self.active["adventurers_follow"])
        runner.run(self.active["actions"])
        self.detect()
        self.rallies("rallies", immediate=False)
        self.detect()
        listed = self.fights.melee_list(self.active["melees"], runner.lurker_melees, runner.advance_melees)
        self.spells()
        self.fights.shootings(self.active["shootings"])
        self.fights.melees(listed)
        self.cleanup_engagements()
        self.rallies("immediate_rallies", immediate=True)
        if bounds.recompute_morale(b):
            bounds.end_battle(b, "army_broken")
            return
        bounds.end_bound(b)

    # -- S5.5.1 captives --------------------------------------------------------------
    def held_by_active(self, cid: str) -> dict[str, Any] | None:
        c = self.b.chars.get(cid)
        if c is None or c["status"] != "captured" or c["captured_by"] not in self.b.units:
            return None
        return c if self.b.units[c["captured_by"]]["side"] == self.b.active else None

    def captives(self) -> None:
        b = self.b
        for i, cid in enumerate(self.active["executions"]):
            c = self.held_by_active(cid)
            if c is None:
                raise bad(f"declarations.active.executions[{i}]", "not a captive held by the active side")
            bounds.kill(b, c)
            b.event("captive_executed", character_id=cid)
        moved: set[str] = set()
        for i, t in enumerate(self.active["captive_transfers"]):
            c = self.held_by_active(t["character_id"])
            if c is None or c["id"] in moved:
                raise bad(f"declarations.active.captive_transfers[{i}].character_id", "not a captive held by the active side, or moved already")
            holder, to = b.units[c["captured_by"]], b.units.get(t["to_unit_id"])
            if (to is None or to["side"] != b.active or not b.grounded(to) or not b.grounded(holder)
                    or hexgrid.distance(to["position"], holder["position"]) != 1):
                raise bad(f"declarations.active.captive_transfers[{i}].to_unit_id", "must be an active friendly unit adjacent to the holder")
            c["captured_by"] = to["id"]
            moved.add(c["id"])
            b.event("captive_transferred", character_id=c["id"], to_unit_id=to["id"])

    # -- S5.5.2 arrivals and departures -----------------------------------------------
    def arrivals(self) -> None:
        b = self.b
        for i, a in enumerate(self.gm["arrivals"]):
            where = f"declarations.gm.arrivals[{i}]"
            u = b.units.get(a["unit_id"])
            if u is None or not (u["status"] == "reserve" or (u["status"] == "dispersed" and u["troop_type"] == "St")):
                raise bad(f"{where}.unit_id", "must be a unit in reserve or a dispersed spirit")
            if not b.inside(a["hex"]) or movement.enter_cost(b, u["troop_type"], sheets.derive(u)["movement_class"], a["hex"]) is None:
                raise bad(f"{where}.hex", "the unit cannot stand there")
            movement.check_destination(b, u, a["hex"], f"{where}.hex")
            others = [x for x in b.units_at(a["hex"]) if x["troop_type"] != "Av"]
            u.update(status="active", position=hexgrid.copy(a["hex"]), facing=a["facing"], arrived_mid_battle=True,
                     rank="rear" if others and u["troop_type"] != "Av" else "front")
            b.event("unit_arrived", unit_id=u["id"], hex=hexgrid.copy(a["hex"]))
        for i, d in enumerate(self.gm["departures"]):
            u = b.units.get(d["unit_id"])
            if u is None or u["status"] != "active":
                raise bad(f"declarations.gm.departures[{i}].unit_id", "must be an active unit")
            pos = u["position"]
            for c in b.stacked_on(u):
                c.update(stacked_on=None, engaged=True)
            u.update(status="departed", position=None, high_altitude=False, climb_hex=None)
            b.drop_engagements(u["id"])
            b.normalise_ranks(pos)
            b.event("unit_departed", unit_id=u["id"], reason=d["reason"])

    # -- S5.5.3 power projection ------------------------------------------------------
    def projection(self) -> None:
        b = self.b
        named: list[tuple[str, str]] = []
        for m in self.active["melees"]:
            for cid in [m["attacker_id"]] + [s["unit_id"] for s in m["attacker_support"]]:
                named.append((cid, m["defender_id"]))
        for sh in self.active["shootings"]:
            named += [(sid, sh["target_id"]) for sid in sh["shooters"]]
        tested: set[str] = set()
        for cid, target in named:
            god = b.units.get(target)
            if god is None or god["troop_type"] != "Gd" or b.side_of(cid) != b.active or cid in tested:
                continue
            if target in b.engaged_with(cid):
                continue
            pos = b.position_of(cid)
            if pos is None:
                continue
            tested.add(cid)
            adjacent_god = any(u["troop_type"] == "Gd" and u["side"] == b.active and b.grounded(u)
                               and hexgrid.distance(u["position"], pos) == 1 for u in b.s["units"])
            if cid in b.units:
                unit = b.units[cid]
                required = command.projection_required(unit, adjacent_god)
                stars = [c for c in b.stacked_on(unit) if c["engaged"]]
                star = sheets.choose_star(stars, self.active["stars"].get(cid))
                factor, bonus = unit["factor_vs_foot"], sheets.effective_bonus(star) if star else 0
            else:
                lone = b.lone_at(pos)
                star = sheets.choose_star(lone, self.active["stars"].get(cid))
                required = True
                factor = 0
                bonus = sheets.star_value(star, [c for c in lone if c is not star]) if star else 0
            out = command.projection_test(b.dice, b.log, f"projection.{cid}", cid, factor, bonus, required)
            if out["required"]:
                b.event("projection_tested", unit_id=cid, roll=out["roll"], target=out["target"], passed=out["passed"])
            if not out["passed"] and cid in b.units:
                b.units[cid]["projection_failed"] = True
                rear = b.rear_unit(pos)
                if rear is not None and b.front_unit(pos) is b.units[cid]:
                    rear["projection_failed"] = True

    # -- S5.5.6 ambush detection -----------------------------------------------------
    def detect(self) -> None:
        b = self.b
        for u in b.s["units"]:
            if not (u["hidden"] and b.grounded(u)):
                continue
            own_av = u["troop_type"] == "Av"
            for e in [x for x in b.s["units"] if x["side"] != u["side"] and b.grounded(x)] + \
                     [c for c in b.s["characters"] if c["side"] != u["side"] and c["status"] == "active"
                      and c["position"] is not None and not b.char_aloft(c)]:
                enemy_av = e.get("troop_type") == "Av" or (e.get("stacked_on") and b.units[e["stacked_on"]]["troop_type"] == "Av")
                reach = DETECTION + (1 if enemy_av else 0) - (1 if own_av else 0)
                if hexgrid.distance(u["position"], e["position"]) <= reach:
                    movement.reveal(b, u)
                    break

    # -- S5.6 rallies -----------------------------------------------------------------
    def rallies(self, key: str, immediate: bool) -> None:
        b = self.b
        lists = [(b.active, "active", self.active[key]), (b.passive, "passive", self.passive[key])]
        order = []
        for n in range(max(len(lists[0][2]), len(lists[1][2]))):
            for side, label, items in lists:
                if n < len(items):
                    order.append((side, f"declarations.{label}.{key}[{n}]", items[n]))
        for side, where, r in order:
            if immediate and r["general_id"] not in self.fights.captured_now:
                continue
            self.rally(side, where, r, immediate)

    def rally(self, side: str, where: str, r: dict[str, Any], immediate: bool) -> None:
        b = self.b
        general, corps = b.chars.get(r["general_id"]), b.corps.get(r["corps_id"])
        if general is None or general["side"] != side:
            raise bad(f"{where}.general_id", "must be a general of this side")
        if corps is None or corps["side"] != side:
            raise bad(f"{where}.corps_id", "must be a corps of this side")
        problem = rally_problem(b, general, corps)
        if problem and immediate:
            # whether an immediate rally may be tried depends on this bound's dice (the capture and where it
            # left the general), which no declaration can know: skipped, not an invalid declaration
            b.log.add("S5.6", "rally.skipped", "The immediate rally of {corps_id} by {general_id} cannot be tried: {reason}.",
                      corps_id=corps["id"], general_id=general["id"], reason=problem[1])
            return
        if problem:
            field, text = problem
            raise bad(f"{where}.{'corps_id' if field.startswith('corps') or field == 'distance' else 'general_id'}", text)
        lines, _army = aftermath.side_morale(b.s, side)
        line = next(x for x in lines if x["id"] == corps["id"])
        flags = {"majority_impetuous": line["majority_impetuous"], "dwarf": corps["dwarf"],
                 "majority_inferior": line["majority_inferior"], "demoralised": corps["demoralised"],
                 "immediate_after_capture": immediate}
        out = command.rally_test(b.dice, b.log, general["id"], flags, f"rally.{general['id']}", f"rally_units.{general['id']}")
        corps["rally_attempted"] = True
        b.event("rally_attempted", general_id=general["id"], corps_id=corps["id"], roll=out["roll"],
                modified=out["modified"], success=out["success"], units_to_move=out["units_to_move"])
        if not out["success"]:
            general["rally_failed"] = True
            return
        # the corps stops being demoralised at the morale step (S5.13): combats of this
        # round still use the value stored at its start
        corps["rallied"], corps["rallied_at_loss"] = True, corps["ep_lost"]
        for j, mv in enumerate(r["moves"][: out["units_to_move"]]):
            u = b.units.get(mv["unit_id"])
            if u is None or u["corps_id"] != corps["id"]:
                raise bad(f"{where}.moves[{j}].unit_id", "must be a unit of the rallied corps")
            if not self.rally_move(u, side, mv, f"rally-{general['id']}"):
                b.log.add("S5.6", "rally.move_skipped", "{unit_id} makes no rally move: its path no longer fits the ground.",
                          unit_id=u["id"])

    def rally_move(self, u: dict[str, Any], side: str, mv: dict[str, Any], action_id: str) -> bool:
        """One rally move (free, not a march move); ``False`` when its path no longer fits.

        Moves are declared before the bound, each side without the other's
        orders; their paths are weighed in the state the rally finds (after the
        actions, or after the combats for an immediate rally).  One that the
        bound made impossible is not made (see ``docs/rules/heros.md``).
        """
        b = self.b
        if not b.grounded(u):
            return False
        saved, u["activations"] = u["activations"], 0
        try:
            path = movement.fog_cut(b, side, u["id"], mv["path"],
                                    lambda p: movement.fits(lambda: movement.check_unit_path(b, u, p, "path")))
            if not movement.fits(lambda: movement.check_unit_path(b, u, path, "path")):
                return False
            cost = movement.check_unit_path(b, u, path, "path")
        finally:
            u["activations"] = saved
        movement.execute_path(b, u, path, mv["facing"], action_id, cost)
        u["rally_moved"] = True
        return True

    # -- S5.7 magic -------------------------------------------------------------------
    def caster(self, cid: str, side: str, where: str) -> tuple[dict[str, Any], dict]:
        b = self.b
        if cid in b.chars:
            c = b.chars[cid]
            ok = c["magician"] and c["side"] == side and sheets.conscious(c) and c["position"] is not None and not b.char_aloft(c)
            pos = c["position"]
        else:
            c = b.units.get(cid)
            ok = c is not None and c["magician"] and c["side"] == side and b.grounded(c)
            pos = c["position"] if c else None
        if not ok:
            raise bad(where, "must be an able magician of this side (not at high altitude, conscious, free)")
        return c, pos

    def spells(self) -> None:
        b = self.b
        countered: set[str] = set()
        cast_units: set[str] = set()
        for side, label in ((b.active, "active"), (b.passive, "passive")):
            for i, cs in enumerate(self.by_side[side]["counter_spells"]):
                where = f"declarations.{label}.counter_spells[{i}]"
                caster, _pos = self.caster(cs["caster_id"], side, f"{where}.caster_id")
                target = b.chars.get(cs["against_caster_id"]) or b.units.get(cs["against_caster_id"])
                if target is None or not target["magician"] or target["side"] == side:
                    raise bad(f"{where}.against_caster_id", "must be an enemy magician")
                self.pay_once(caster, cs["cost"], where, cast_units)
                countered.add(cs["against_caster_id"])
        for side, label in ((b.active, "active"), (b.passive, "passive")):
            for i, sp in enumerate(self.by_side[side]["spells"]):
                where = f"declarations.{label}.spells[{i}]"
                caster, pos = self.caster(sp["caster_id"], side, f"{where}.caster_id")
                self.pay_once(caster, sp["cost"], where, cast_units)
                is_countered = sp["caster_id"] in countered
                countered.discard(sp["caster_id"])
                b.event("spell_cast", spell_id=sp["id"], caster_id=sp["caster_id"], cost=sp["cost"],
                        countered=is_countered, effect_kind=sp["effect"]["kind"])
                b.log.add("S5.7", "spell.cast", "{caster_id} casts {spell_id} ({effect_kind}); countered: {countered}.",
                          caster_id=sp["caster_id"], spell_id=sp["id"], effect_kind=sp["effect"]["kind"], countered=is_countered)
                if is_countered:
                    continue
                self.effect(sp, side, pos, where)

    def pay_once(self, caster: dict[str, Any], cost: int, where: str, cast_units: set[str]) -> None:
        """One spell (or counter) per magician per bound; units keep the flag for this round only."""
        if caster["id"] in cast_units:
            raise bad(where, "a magician casts one spell per bound")
        if caster["power_points"] < cost:
            raise bad(f"{where}.cost", "not enough power points")
        if "spell_cast" in caster and caster["spell_cast"]:
            raise bad(where, "a magician casts one spell per bound")
        caster["power_points"] -= cost
        if "spell_cast" in caster:
            caster["spell_cast"] = True
        cast_units.add(caster["id"])

    def effect(self, sp: dict[str, Any], side: str, pos: dict, where: str) -> None:
        b = self.b
        e = sp["effect"]
        if e["kind"] == "attack":
            self.fights.spell_attack(sp, side, pos, where)
        elif e["kind"] == "modifier":
            if not e["combat_id"] or not e["combatant_id"]:
                raise bad(f"{where}.effect", "a modifier names a combat and a combatant")
            self.fights.add_modifier(e["combat_id"], e["combatant_id"], e["value"], f"spell {sp['id']}")
        elif e["kind"] == "heal":
            target = b.chars.get(e["character_id"] or "")
            if target is None or target["side"] != side or target["position"] is None \
                    or hexgrid.distance(target["position"], pos) > 1 or target["wound_state"] not in HEAL:
                raise bad(f"{where}.effect.character_id", "must be a wounded friendly character within 1 hex of the caster")
            b.log.add("S7.7", "character.derived", "{field} is {value}.", field=f"{target['id']}.wound_state",
                      value=HEAL[target["wound_state"]])
            target["wound_state"] = HEAL[target["wound_state"]]

    def cleanup_engagements(self) -> None:
        """Engagements last while both combatants stay in place and adjacent (S3.6)."""
        b = self.b
        keep = []
        for e in b.s["engagements"]:
            pa, pd = b.position_of(e["attacker_id"]), b.position_of(e["defender_id"])
            if pa is not None and pd is not None and hexgrid.distance(pa, pd) == 1 \
                    and self.fights.is_combatant(e["attacker_id"]) and self.fights.is_combatant(e["defender_id"]):
                keep.append(e)
        b.s["engagements"] = keep


@ruleset.operation("resolve-round", ResolveRoundInput, rolls=True, summary="Resolve one bound of the active side (S5.2-S5.14).")
def resolve_round(data: ResolveRoundInput, ctx: Context) -> dict:
    if data.state.status != "ongoing":
        raise InvalidInput.field("state.status", "the battle has ended")
    state = load_state(data.state)
    declarations, applied = engine_declarations(state, data.declarations, data.answers, ctx.log)
    b = Battle(state, ctx.dice, ctx.log)
    Round(b, declarations).run()
    return {"state": normalise(state), "events": b.events, "defaults_applied": applied}



