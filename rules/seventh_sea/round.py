"""``resolve-round``: one round of battle, steps R0 to R9 of S5.4.

State in, new state out: the given state is copied first and never touched.
The round is first *planned* on a scratch copy (R0 and R1 need no die but the
easy shot's, which changes neither status nor engagement), so that every
declaration is checked before a single real die is drawn (S9.0).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar

from pydantic import Field, model_validator

from rules.dice import Dice
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.answers import engine_object
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.damage import apply_damage, wound
from rules.seventh_sea.defaults import DEFAULT_STRATEGY, default_engagement
from rules.seventh_sea.effects import REST, forced_engagement
from rules.seventh_sea.entities import (ROUND_LIMIT, Engagement, Fortification, Id, Modifier, State, Status, Strategy,
                                        TerrainUpdate, Troops, log_defaults, unconscious_at)
from rules.seventh_sea.entities import running as running_effect
from rules.seventh_sea.messages import Refusal, say
from rules.seventh_sea.general import check_spent, opposed_roll
from rules.seventh_sea.opportunities import OpportunityDecl, advance, remove_effects, start, validate
from rules.seventh_sea.personal import personal_roll
from rules.seventh_sea.standing import WIN_STREAK, standing
from rules.seventh_sea.volley import fire, salvo_of, share, wounds_from_hits

NpcCount = Annotated[int, Field(ge=0, le=50)]


class SideDecl(Input):
    # absent = unchanged; a missing strategy gets the default orders (logged as ``defaults.applied``)
    silent_defaults: ClassVar[set[str]] = {"troops", "fortification_level", "terrain", "strategy"}
    strategy: Strategy | None = None
    free_raises_spent: Annotated[int, Field(ge=0, le=1000)] = 0
    gm_modifier: Modifier = 0
    troops: Troops | None = None
    fortification_level: Fortification | None = None
    terrain: TerrainUpdate | None = None
    npc_heroes_front_line: NpcCount = 0
    npc_heroes_taken_out: NpcCount = 0


class SidesDecl(Input):
    silent_defaults: ClassVar[set[str]] = {"a", "b"}  # a side that declared nothing gets the default orders
    a: SideDecl = Field(default_factory=SideDecl)
    b: SideDecl = Field(default_factory=SideDecl)


class HeroDecl(Input):
    silent_defaults: ClassVar[set[str]] = {"opportunity", "engagement"}  # absent = none declared
    engagement: Engagement | None = None
    help_general: bool = False
    gm_modifier: Modifier = 0
    wound_check_modifier: Modifier = 0
    opportunity: OpportunityDecl | None = None


class Adjustment(Input):
    hero_id: Id
    flesh_wounds: Annotated[int, Field(ge=0, le=999)] | None = None
    dramatic_wounds: Annotated[int, Field(ge=0, le=20)] | None = None
    status: Status | None = None
    clear_effects: bool = False


class Declarations(Input):
    silent_defaults: ClassVar[set[str]] = {"sides"}
    sides: SidesDecl = Field(default_factory=SidesDecl)
    heroes: Annotated[dict[str, HeroDecl], Field(max_length=30)] = {}
    adjustments: Annotated[list[Adjustment], Field(max_length=100)] = []


class ResolveRoundInput(Input):
    state: State
    declarations: Declarations = Field(default_factory=Declarations)

    @model_validator(mode="before")
    @classmethod
    def _answers(cls, data: Any) -> Any:
        """Declarations written as merged answers (``{option path: value}``) become the engine's object."""
        if isinstance(data, dict) and isinstance(data.get("declarations"), dict):
            data = {**data, "declarations": engine_object(data["declarations"])}
        return data


def side_defaults(log, decl: Declarations) -> list[str]:
    """A side whose commander declared no strategy gets the default orders (``docs/rules/seventh_sea.md``)."""
    applied = []
    for letter in tables.SIDES:
        given = getattr(decl.sides, letter)
        if given.strategy is None:
            given.strategy = DEFAULT_STRATEGY
            applied.append(f"side:{letter}")
            say(log, "S5.3", "defaults.applied", participant=f"side:{letter}",
                orders={f"sides.{letter}.strategy": DEFAULT_STRATEGY}, default=DEFAULT_STRATEGY)
    return applied


def adjust(ctx: Context, hero: dict, adjustment: Adjustment, path: str) -> tuple[bool, list[dict]]:
    """S7.9 GM adjustment of a hero dict (changed in place): ``(fell unconscious, effects ended)``."""
    was_active = hero["status"] == "active"
    ended = []
    for name in ("flesh_wounds", "dramatic_wounds"):
        if getattr(adjustment, name) is not None:
            hero[name] = getattr(adjustment, name)
    if adjustment.clear_effects:
        # S6.12 has no "cleared" end reason: a GM clearance is reported as completed.
        ended += remove_effects(ctx, hero, "completed")
    if adjustment.status == "active" and not was_active:
        if hero["dramatic_wounds"] >= unconscious_at(hero):
            raise Refusal(f"{path}.status", f"{hero['id']} has {hero['dramatic_wounds']} dramatic wounds: cannot "
                          f"be active below {unconscious_at(hero)} (S7.9)", "S7.9", "refusal.revival",
                          hero_id=hero["id"], dramatic_wounds=hero["dramatic_wounds"],
                          unconscious_at=unconscious_at(hero))
        hero["status"] = "active"
    if adjustment.status == "unconscious" or hero["dramatic_wounds"] >= unconscious_at(hero):
        hero["status"] = "unconscious"
    say(ctx.log, "S7.9", "adjustment.applied", hero_id=hero["id"], flesh_wounds=hero["flesh_wounds"],
        dramatic_wounds=hero["dramatic_wounds"], status=hero["status"])
    fell = was_active and hero["status"] == "unconscious"
    if fell:
        say(ctx.log, "S7.9", "hero.taken_out", hero_id=hero["id"], cause="gm")
    if hero["status"] == "unconscious":
        ended += remove_effects(ctx, hero, "taken_out")
    return fell, ended


class Round:
    """One resolution of a round on a private copy of the state."""

    def __init__(self, ctx: Context, state: dict, decl: Declarations):
        self.ctx, self.log = ctx, ctx.log
        # A private copy (plain JSON data: faster than deepcopy); past history entries are never changed (R9
        # only appends one), so the history list is copied but its thousands of entries are shared.
        history = state["history"]
        self.state = json.loads(json.dumps({**state, "history": []}))
        self.state["history"] = list(history)
        self.decl = decl
        self.k = state["round"] + 1
        self.heroes = {hero["id"]: hero for hero in self.state["heroes"]}
        self.events: list[dict] = []
        self.opportunities: dict[str, dict] = {}
        self.taken_out: list[str] = []          # tracked heroes fallen this round, in order
        self.untracked_out = {letter: 0 for letter in tables.SIDES}
        self.active_after_r0: list[str] = []
        self.fighting: dict[str, str] = {}      # hero id -> engagement
        self.forced_by: dict[str, str] = {}
        self.rows: dict[str, dict] = {hero_id: self._blank_row() for hero_id in self.heroes}
        self.started_reputation = {hero_id: 0 for hero_id in self.heroes}
        self.start_status = {hero_id: hero["status"] for hero_id, hero in self.heroes.items()}
        self.defaults_applied: list[str] = []   # heroes given the default engagement at R1

    @staticmethod
    def _blank_row() -> dict:
        return {"participated": False, "engagement": None, "forced_by": None, "help_general": False,
                "personal": None, "damage": None, "commander_volley": None, "charge_volley": None,
                "effect_reputation": 0, "effects_ended": []}

    def hero_decl(self, hero_id: str) -> HeroDecl:
        return self.decl.heroes.get(hero_id) or HeroDecl()

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})

    def fall(self, hero: dict, cause: str) -> None:
        """Bookkeeping of a hero who has just become unconscious this round (the step that did it logs it)."""
        self.taken_out.append(hero["id"])
        self.event("hero_taken_out", hero_id=hero["id"], cause=cause)

    def end_effects(self, hero: dict, reason: str) -> None:
        self.record_ended(hero, remove_effects(self.ctx, hero, reason))

    def record_ended(self, hero: dict, ended: list[dict]) -> None:
        for item in ended:
            self.rows[hero["id"]]["effects_ended"].append(item)
            self.event("opportunity_ended", hero_id=hero["id"], opportunity=item["type"], reason=item["reason"])

    def queue(self, modifiers: list[dict]) -> None:
        for modifier in modifiers:
            pending = {name: modifier[name] for name in ("amount", "source", "hero_id")}  # S3.3 shape
            self.state["sides"][modifier["side"]]["pending_modifiers"].append(pending)
            self.event("modifier_queued", **modifier)

    # -- R0 ------------------------------------------------------------------
    def r0(self) -> None:
        self._side_updates()
        for index, adjustment in enumerate(self.decl.adjustments):
            self._adjust(index, adjustment)
        self._check_hero_declarations()
        for hero in self.state["heroes"]:
            if hero["opportunity_pending"]:
                self._opportunity(hero)
        self.active_after_r0 = [hero["id"] for hero in self.state["heroes"] if hero["status"] == "active"]

    def _side_updates(self) -> None:
        for letter in tables.SIDES:
            given = getattr(self.decl.sides, letter)
            side = self.state["sides"][letter]
            for name in ("troops", "fortification_level"):
                if getattr(given, name) is not None:
                    side[name] = getattr(given, name)
                    say(self.log, "S7.9", "side.update", side=letter, field=name, value=side[name])
            if given.terrain is not None:
                for flag, value in given.terrain.model_dump().items():
                    if value is not None:
                        side["terrain"][flag] = value
                        say(self.log, "S7.9", "side.update", side=letter, field=f"terrain.{flag}", value=value)

    def _adjust(self, index: int, adjustment: Adjustment) -> None:
        path = f"declarations.adjustments[{index}]"
        hero = self.heroes.get(adjustment.hero_id)
        if hero is None:
            raise Refusal(f"{path}.hero_id", f"no hero {adjustment.hero_id!r} in this battle", "S7.9",
                          "refusal.no_such_hero", hero_id=adjustment.hero_id)
        fell, ended = adjust(self.ctx, hero, adjustment, path)
        self.record_ended(hero, ended)
        if fell:
            self.fall(hero, "gm")

    def _check_hero_declarations(self) -> None:
        """H35 / S9.11: declarations only for known heroes who can act this round.

        Judged after the adjustments: a hero the GM revives in R0 fights, so he must be able to declare
        (S5.4 R1); a hero the GM takes out in R0 has his declarations ignored.
        """
        for hero_id, decl in self.decl.heroes.items():
            path = f"declarations.heroes.{hero_id}"
            hero = self.heroes.get(hero_id)
            if hero is None:
                raise Refusal(path, f"no hero {hero_id!r} in this battle", "S9.11", "refusal.no_such_hero",
                              hero_id=hero_id)
            if hero["status"] != "active" and hero_id not in self.taken_out:
                raise Refusal(path, "this hero is unconscious: only GM adjustments concern him", "S9.11",
                              "refusal.unconscious_hero")
            if decl.opportunity is not None and hero["status"] == "active" and not hero["opportunity_pending"]:
                raise Refusal(f"{path}.opportunity", "this hero has no heroic opportunity offered (S7.3)", "S7.3",
                              "refusal.no_offer")

    def _opportunity(self, hero: dict) -> None:
        decl = self.hero_decl(hero["id"]).opportunity
        path = f"declarations.heroes.{hero['id']}.opportunity"
        if decl is None or hero["status"] != "active":
            hero["opportunity_pending"] = False
            self.opportunities[hero["id"]] = {"lapsed": True}
            say(self.log, "S7.3", "opportunity.lapsed", hero_id=hero["id"])
            self.event("opportunity_lapsed", hero_id=hero["id"], opportunity=decl.type if decl else None)
            return
        validate(hero, decl, path, pending_required=True)
        opponent = None
        if decl.accept and decl.type == "prepare_to_die" and decl.opponent_id is not None:
            # Checked against the round's starting state (what the GM saw when declaring): an opponent who
            # has fallen since (adjustment, an earlier duel of this R0) is simply already out.
            opponent = self.heroes.get(decl.opponent_id)
            if (opponent is None or opponent["side"] == hero["side"]
                    or self.start_status[opponent["id"]] != "active"):
                raise Refusal(f"{path}.opponent_id", "must name an active hero of the other side", "S7.4.9",
                              "refusal.opponent")
        held = [effect["type"] for effect in hero["effects"]]
        result = start(self.ctx, hero, decl, f"easy_shot:{hero['id']}")
        self.opportunities[hero["id"]] = result
        self.started_reputation[hero["id"]] = result["reputation_gained"]
        kind = "opportunity_started" if decl.accept else "opportunity_declined"
        self.event(kind, hero_id=hero["id"], opportunity=decl.type)
        if result["taken_out"]:
            self.fall(hero, "duel")
            for kind_held in held:  # start() removed them: record their end here
                self.rows[hero["id"]]["effects_ended"].append({"type": kind_held, "reason": "taken_out"})
                self.event("opportunity_ended", hero_id=hero["id"], opportunity=kind_held, reason="taken_out")
        if result["opponent_taken_out"]:
            if opponent is not None and opponent["status"] == "active":
                opponent["status"] = "unconscious"
                say(self.log, "S7.4.9", "hero.taken_out", hero_id=opponent["id"], cause="duel")
                self.fall(opponent, "duel")
                self.end_effects(opponent, "taken_out")
            elif opponent is None:
                self.untracked_out[tables.other(hero["side"])] += 1
        self.queue(result["general_modifiers"])

    # -- R1 ------------------------------------------------------------------
    def r1(self) -> None:
        """Engagements: rest, imposed, or declared (missing → exit 2)."""
        for hero_id in self.active_after_r0:
            hero, decl = self.heroes[hero_id], self.hero_decl(hero_id)
            path = f"declarations.heroes.{hero_id}"
            forced, by = forced_engagement(hero["effects"])
            if forced == REST:
                if decl.help_general:
                    raise Refusal(f"{path}.help_general", "a resting hero cannot help the general (S7.1)", "S7.1",
                                  "refusal.help_resting")
                self.forced_by[hero_id] = by
                say(self.log, "S7.4.1", "engagement.rest", hero_id=hero_id, by=by)
                continue
            if forced is not None:
                engagement = forced
                self.forced_by[hero_id] = by
                say(self.log, "S4.12", "engagement.forced", hero_id=hero_id, engagement=forced, by=by)
            elif decl.engagement is None:
                engagement = default_engagement(hero)
                self.defaults_applied.append(f"hero:{hero_id}")
                say(self.log, "S5.4", "defaults.applied", participant=f"hero:{hero_id}",
                    orders={f"heroes.{hero_id}.engagement": engagement}, default=engagement)
            else:
                engagement = decl.engagement
                say(self.log, "S5.4", "engagement.declared", hero_id=hero_id, engagement=engagement)
            self.fighting[hero_id] = engagement

    def plan(self) -> None:
        """R0 and R1: everything that can refuse the declarations."""
        self.r0()
        self.r1()

    # -- R2 ------------------------------------------------------------------
    def r2(self) -> dict:
        sides = {}
        for letter in tables.SIDES:
            side, given = self.state["sides"][letter], getattr(self.decl.sides, letter)
            helpers = [self.heroes[h] for h in self.fighting
                       if self.heroes[h]["side"] == letter and self.hero_decl(h).help_general]
            sides[letter] = {**side, "strategy": given.strategy, "free_raises_spent": given.free_raises_spent,
                             "leadership_modifier": sum(hero["leadership"] for hero in helpers),
                             "opportunity_modifier": sum(m["amount"] for m in side["pending_modifiers"]),
                             "gm_modifier": given.gm_modifier}
        result = opposed_roll(self.ctx, self.state["attacker"], sides)
        winner = result["round_winner"]
        for letter in tables.SIDES:
            side = self.state["sides"][letter]
            side["free_raises"] -= sides[letter]["free_raises_spent"]
            side["pending_modifiers"] = []
            side["streak"] = side["streak"] + 1 if letter == winner else 0
            side["rounds_won"] += 1 if letter == winner else 0
        streaks = {letter: self.state["sides"][letter]["streak"] for letter in tables.SIDES}
        say(self.log, "S5.4", "round.streak", streaks=streaks)
        self.event("round_result", round=self.k, round_winner=winner)
        return result

    # -- R3 ------------------------------------------------------------------
    def r3(self) -> dict[str, int]:
        hits = {}
        unit = tables.opportunity("commander_is_dead")["unit"]
        for hero_id, engagement in self.fighting.items():
            effect = next((e for e in self.heroes[hero_id]["effects"] if e["type"] == "commander_is_dead"), None)
            if effect is None or engagement != tables.ENGAGEMENTS[-1]:
                continue
            alive = effect["brutes_alive"]
            squads = [{"size": alive, "threat": unit["threat"]}] if alive else []
            salvo, _ = salvo_of(squads, 0, 1)
            volley = fire(self.ctx, f"commander_volley:{hero_id}", salvo, "S7.4.12")
            hits[hero_id] = volley["hits"]
            self.rows[hero_id]["commander_volley"] = {"brutes_alive": alive, **volley}
        return hits

    # -- R4, R5 --------------------------------------------------------------
    def r4_r5(self, situations: dict[str, str]) -> None:
        checks = self.state["options"]["wound_checks"]
        for hero_id, engagement in self.fighting.items():
            hero, decl = self.heroes[hero_id], self.hero_decl(hero_id)
            personal = personal_roll(self.ctx, hero, engagement, situations[hero["side"]], decl.help_general,
                                     decl.gm_modifier, f"personal:{hero_id}")
            self.rows[hero_id]["personal"] = personal
        for hero_id in self.fighting:
            hero, decl = self.heroes[hero_id], self.hero_decl(hero_id)
            damage = apply_damage(self.ctx, hero, self.rows[hero_id]["personal"]["damage_dice"], 0, checks,
                                  decl.wound_check_modifier, f"damage:{hero_id}", f"wound_check:{hero_id}")
            self.rows[hero_id]["damage"] = damage
            if damage["taken_out"]:
                self.fall(hero, "wounds")

    # -- R6 ------------------------------------------------------------------
    def r6(self) -> None:
        entry = tables.opportunity("charge_their_ranks")
        group = entry["extra_volley"]["group"]
        for hero_id in self.fighting:
            hero = self.heroes[hero_id]
            effect = next((e for e in hero["effects"] if e["type"] == "charge_their_ranks"), None)
            if effect is None or hero["status"] != "active":
                continue
            volley = fire(self.ctx, f"charge_volley:{hero_id}", entry["extra_volley"]["salvo_level"], "S7.4.11")
            shared = share(self.ctx, f"charge_spread:{hero_id}", volley["hits"], len(group))
            wounds = wounds_from_hits(self.ctx, hero_id, shared["per_member"][0], hero["dracheneisen"],
                                      effect["tn_to_be_hit"])
            decl = self.hero_decl(hero_id)
            checks = self.state["options"]["wound_checks"]
            check, taken_out = wound(self.ctx, hero, wounds["flesh_wounds_added"], checks, decl.wound_check_modifier,
                                     f"charge_wound_check:{hero_id}", "volley")
            self.rows[hero_id]["charge_volley"] = {
                "salvo_level": volley["salvo_level"], "dice_count": volley["dice_count"],
                "volley_roll": volley["volley_roll"], "hits": volley["hits"], "members": shared["members"],
                "hits_per_member": shared["hits_per_member"], "remainder": shared["remainder"],
                "spread": shared["spread"], "hero_hits": wounds["hits"], "ignored": wounds["ignored"],
                "effective_hits": wounds["effective_hits"], "flesh_wounds_per_hit": wounds["flesh_wounds_per_hit"],
                "flesh_wounds_added": wounds["flesh_wounds_added"],
                "brutes_killed": sum(1 for count in shared["per_member"][1:] if count >= 1), "wound_check": check}
            if taken_out:
                self.fall(hero, "volley")

    # -- R7 ------------------------------------------------------------------
    def r7(self, volley_hits: dict[str, int]) -> None:
        for hero_id in self.active_after_r0:
            hero, row = self.heroes[hero_id], self.rows[hero_id]
            personal = row["personal"]
            if personal is not None:
                hero["battle_reputation"] += personal["reputation"]
            if not hero["effects"]:
                continue
            facts = {"engagement": self.fighting.get(hero_id),
                     "personal_total": personal["total"] if personal else None,
                     "damage_dice": personal["damage_dice"] if personal else 0,
                     "commander_volley_hits": volley_hits.get(hero_id)}
            result = advance(self.ctx, hero, facts)
            row["effect_reputation"] = result["effect_reputation"]
            for item in result["ended"]:
                row["effects_ended"].append(item)
                self.event("opportunity_ended", hero_id=hero_id, opportunity=item["type"], reason=item["reason"])
            self.queue(result["general_modifiers"])

    # -- R8 ------------------------------------------------------------------
    def r8(self) -> None:
        for hero in self.state["heroes"]:
            personal = self.rows[hero["id"]]["personal"]
            offered = (personal is not None and personal["heroic_opportunity"] and hero["status"] == "active"
                       and not any(running_effect(effect) for effect in hero["effects"]))
            hero["opportunity_pending"] = bool(offered)
            if offered:
                say(self.log, "S7.3", "opportunity.offered", hero_id=hero["id"])
                self.event("opportunity_offered", hero_id=hero["id"])

    # -- R9 ------------------------------------------------------------------
    def r9(self, general: dict) -> None:
        state = self.state
        for hero in state["heroes"]:
            hero["last_engagement"] = self.fighting.get(hero["id"])
        for letter in tables.SIDES:
            given = getattr(self.decl.sides, letter)
            side = state["sides"][letter]
            front = sum(1 for h, e in self.fighting.items()
                        if e == tables.ENGAGEMENTS[-1] and self.heroes[h]["side"] == letter)
            out = sum(1 for h in set(self.taken_out) if self.heroes[h]["side"] == letter)
            side["heroes_front_line_last_round"] = front + given.npc_heroes_front_line
            side["heroes_taken_out_last_round"] = out + self.untracked_out[letter] + given.npc_heroes_taken_out
            say(self.log, "S4.6", "round.impact", side=letter, front_line=side["heroes_front_line_last_round"],
                taken_out=side["heroes_taken_out_last_round"])
        winner = general["round_winner"]
        attacker = state["attacker"]
        if winner is not None:
            state["attacker"] = winner
        state["round"] = self.k
        state["history"].append({"round": self.k, "attacker": attacker,
                                 "strategies": {l: getattr(self.decl.sides, l).strategy for l in tables.SIDES},
                                 "totals": {l: general["sides"][l]["total"] for l in tables.SIDES},
                                 "round_winner": winner})
        for letter in tables.SIDES:
            if state["sides"][letter]["streak"] >= WIN_STREAK:
                state["finished"], state["winner"] = True, letter
                say(self.log, "S5.5", "battle.won", winner=letter)
                self.event("battle_won", winner=letter)

    def run(self) -> dict:
        attacker = self.state["attacker"]
        self.plan()
        general = self.r2()
        volley_hits = self.r3()
        self.r4_r5(general["situations"])
        self.r6()
        self.r7(volley_hits)
        self.r8()
        self.r9(general)
        return {"state": standing(self.state), "report": self._report(attacker, general), "events": self.events,
                "defaults_applied": self.defaults_applied}

    def _report(self, attacker: str, general: dict) -> dict:
        heroes = {}
        for hero in self.state["heroes"]:
            hero_id, row = hero["id"], self.rows[hero["id"]]
            personal = row["personal"]
            fighting = hero_id in self.fighting
            gained = (self.started_reputation[hero_id] + (personal["reputation"] if personal else 0)
                      + row["effect_reputation"])
            heroes[hero_id] = {**row, "participated": fighting, "engagement": self.fighting.get(hero_id),
                               "forced_by": self.forced_by.get(hero_id),
                               "help_general": fighting and self.hero_decl(hero_id).help_general,
                               "reputation_gained": gained, "battle_reputation": hero["battle_reputation"],
                               "flesh_wounds": hero["flesh_wounds"], "dramatic_wounds": hero["dramatic_wounds"],
                               "status": hero["status"], "opportunity_pending": hero["opportunity_pending"]}
        return {"round": self.k, "attacker": attacker,
                "strategies": {l: getattr(self.decl.sides, l).strategy for l in tables.SIDES},
                "opportunities": self.opportunities, "general_rolls": general["sides"],
                "round_winner": general["round_winner"], "situations": general["situations"],
                "streaks": {l: self.state["sides"][l]["streak"] for l in tables.SIDES},
                "heroes": heroes, "battle_over": self.state["finished"], "winner": self.state["winner"]}


def check_round(state: dict, decl: Declarations) -> None:
    """Everything that refuses a round before any die: finished battle, free raises, declarations."""
    if state["finished"]:
        raise Refusal("state.finished", "the battle is over: no further round (S5.5)", "S5.5", "refusal.finished")
    if state["round"] >= ROUND_LIMIT:
        raise Refusal("state.round", f"the round limit ({ROUND_LIMIT}) is reached", "S3.7", "refusal.round_limit",
                      limit=ROUND_LIMIT)
    for letter in tables.SIDES:
        check_spent(getattr(decl.sides, letter).free_raises_spent, state["sides"][letter]["free_raises"],
                    f"declarations.sides.{letter}.free_raises_spent")
    Round(Context(Dice(None, 0)), state, decl).plan()


@ruleset.operation("resolve-round", ResolveRoundInput, rolls=True,
                   summary="Resolve one round, R0 to R9: opportunities, engagements, general rolls, personal "
                           "rolls, damage, volleys, effects, offers, bookkeeping (S5.4).")
def resolve_round(data: ResolveRoundInput, ctx: Context) -> dict:
    state = load_state(data.state)
    sides = side_defaults(ctx.log, data.declarations)
    check_round(state, data.declarations)
    log_defaults(ctx.log, data.declarations, "declarations")
    out = Round(ctx, state, data.declarations).run()
    return {**out, "defaults_applied": sides + out["defaults_applied"]}
