"""The S9 operations, registered on the ruleset: input models and thin wrappers.

Each wrapper turns the validated input into plain data, calls the module that
owns the rule and shapes the output exactly as S9 lists it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rules.contract import GM, Known, Viewer, is_flat, participant_key
from rules.dice import D4
from rules.errors import InvalidInput
from rules.jdrwiki import (answers, checks, combat, damage, defaults, entities, initiative, options, room, setup,
                           sheets, standing, tables, terrain, visibility)
from rules.jdrwiki import round as round_
from rules.jdrwiki import ruleset
from rules.jdrwiki.advantage import allocate
from rules.jdrwiki.battle import Battle, dump_state
from rules.jdrwiki.entities import Id
from rules.jdrwiki.names import names
from rules.model import Input
from rules.registry import Context


def load(ctx: Context, state: entities.State, path: str = "state.") -> Battle:
    return Battle(dump_state(state), ctx.dice, ctx.log, path)


# ---------------------------------------------------------------- S9.1


class ArmySheetInput(Input):
    army: entities.ArmyDefinition


@ruleset.operation("army-sheet", ArmySheetInput, summary="Derive an army's sheet (S4.2–S4.8).")
def army_sheet(data: ArmySheetInput, ctx: Context) -> dict:
    army = data.army.model_dump(by_alias=True)
    sheets.validate_army(army, "army.")
    return sheets.army_sheet(army, ctx.log)


# ---------------------------------------------------------------- S9.2


class InterventionInput(Input):
    heroism: bool = False
    sacrifice: bool = False
    on_cooldown: bool = False
    moderation: int = Field(default=0, ge=0, le=10)
    dropped_bonuses: list[entities.BonusTarget] = Field(default_factory=list, max_length=20)  # type: ignore[valid-type]
    support: entities.Support | None = None


class HeroSheetInput(Input):
    hero: entities.HeroDefinition
    intervention: InterventionInput | None = None
    army_talents: list[entities.TalentId] = Field(default_factory=list, max_length=20)  # type: ignore[valid-type]


@ruleset.operation("hero-sheet", HeroSheetInput, rolls=False,
                   summary="Classify a hero, check its bonuses, compute an intervention (S4.9–S4.10).")
def hero_sheet(data: HeroSheetInput, ctx: Context) -> dict:
    hero = data.hero.model_dump(by_alias=True)
    info = sheets.validate_hero_bonuses(hero, "hero.")
    ctx.log.add("S4.9", "hero.class", "Level {level} (race power {race_power}): {cls}, class level {class_level},"
                " {points} points, cooldown {cooldown}.", level=hero["level"], race_power=hero["race_power"],
                cls=info["class"], class_level=info["class_level"], points=info["points"], cooldown=info["cooldown"])
    result = dict(info)
    if data.intervention is not None:
        choice = data.intervention.model_dump(by_alias=True)
        result["intervention"] = sheets.intervention(
            hero, info, choice, on_cooldown=choice["on_cooldown"], heroism_available=hero["heroism_points"],
            talents=list(data.army_talents), path="intervention.")
        ctx.log.add("S4.10", "hero.intervention", "Intervention of {hero}: {bonuses}; cooldown {cooldown}.",
                    hero=hero["name"] or "hero",
                    bonuses=result["intervention"]["effective_bonuses"],
                    cooldown=result["intervention"]["cooldown_after"])
    return result


# ---------------------------------------------------------------- S9.3


class TerrainInput(Input):
    map: entities.Map
    actor_zone: Id
    opponent_zone: Id | None = None
    path: list[Id] | None = Field(default=None, max_length=entities.MAX_ZONES)


@ruleset.operation("terrain-modifiers", TerrainInput, rolls=False,
                   summary="Terrain modifiers, exit and path costs (S4.6, S4.12, S6.6).")
def terrain_modifiers(data: TerrainInput, ctx: Context) -> dict:
    game_map = terrain.normalise_map(data.model_dump(by_alias=True)["map"]["zones"])
    zones = game_map["zones"]
    for field in ("actor_zone", "opponent_zone"):
        value = getattr(data, field)
        if value is not None and value not in zones:
            raise InvalidInput.field(field, "unknown zone")
    for index, zone in enumerate(data.path or []):
        if zone not in zones:
            raise InvalidInput.field(f"path[{index}]", "unknown zone")
    actor, opponent = data.actor_zone, data.opponent_zone
    own = zones[actor]["terrain"]
    result: dict = {"actor_modifiers": terrain.actor_modifiers(game_map, actor, opponent)}
    other = zones[opponent]["terrain"] if opponent is not None else None
    result.update({
        "opponent_modifiers": terrain.defender_modifiers(game_map, opponent, actor) if other else None,
        "opponent_special": {"parry_vs_push_back": terrain.special_defence(other, "push_back", "parry"),
                             "vigor_vs_total_melee": terrain.special_defence(other, "total_melee", "vigor")}
        if other else None,
        "actor_effective_weather": terrain.effective_weather(own),
        "opponent_effective_weather": terrain.effective_weather(other) if other else None,
        "actor_exit_cost": terrain.exit_cost(own),
        "opponent_exit_cost": terrain.exit_cost(other) if other else None,
        "height_difference": own["heights"] - other["heights"] if other else None,
        "distance": _finite(terrain.distance(game_map, actor, opponent)) if other else None,
        "deft_attack_range": terrain.deft_range(game_map, actor, opponent) if other else None,
    })
    for skill, value in result["actor_modifiers"].items():
        if value:
            ctx.log.add("S4.12", "terrain.modifier", "Actor in {zone}: {skill} {value:+d}.", zone=actor, skill=skill,
                        value=value)
    for skill, value in (result["opponent_modifiers"] or {}).items():
        if value:
            ctx.log.add("S4.12", "terrain.modifier", "Opponent in {zone}: {skill} {value:+d}.", zone=opponent,
                        skill=skill, value=value)
    ctx.log.add("S4.6", "terrain.exit_cost", "Leaving {zone} costs {cost} movement units.", zone=actor,
                cost=result["actor_exit_cost"])
    if data.path is not None:
        result["path_cost"] = terrain.path_cost(game_map, actor, data.path) if data.path else 0
        result["path_valid"] = terrain.path_valid(game_map, actor, data.path)
        ctx.log.add("S4.6", "terrain.path", "The path costs {cost} movement units (valid: {valid}).",
                    cost=result["path_cost"], valid=result["path_valid"], zone=actor)
    return result


def _finite(value: float) -> int | None:
    return None if value == float("inf") else int(value)


# ---------------------------------------------------------------- S9.4


class AllocateInput(Input):
    advantage: entities.BigInt
    heroism_advantage_points: int = Field(default=0, ge=0, le=1000)
    allocation: entities.Allocation = Field(default_factory=entities.Allocation)


@ruleset.operation("allocate-advantage", AllocateInput, rolls=False,
                   summary="Check an advantage allocation and give its effects (S4.11).")
def allocate_advantage(data: AllocateInput, ctx: Context) -> dict:
    return allocate(data.advantage, data.heroism_advantage_points, data.allocation.model_dump(), ctx.log)


# ---------------------------------------------------------------- S9.5


class DamageInput(Input):
    attacker_hp: int = Field(ge=1, le=10**12)
    characteristic_modifier: int = Field(ge=-100, le=100)
    dice_count: Literal[1, 2] = 1
    ruthless: bool = False
    flat_bonus: int = Field(default=0, ge=-10**6, le=10**6)
    defender_absorption: int = Field(default=0, ge=-100, le=100)
    defender_protection: int = Field(default=0, ge=0, le=10**6)
    defender_hp: int | None = Field(default=None, ge=0, le=10**12)
    mode: Literal["normal", "critical_extra", "critical_only"] = "normal"
    defender_last_chance: bool = False
    defender_ruthless: bool = False
    attacker_protection: int = Field(default=0, ge=0, le=10**6)


@ruleset.operation("damage", DamageInput, summary="One damage event (S4.15).", rolls=True)
def damage_event(data: DamageInput, ctx: Context) -> dict:
    if data.defender_last_chance and data.defender_hp is None:
        raise InvalidInput.field("defender_hp", "needed to compute the last-chance return (S7.7.6)")
    d4 = ctx.dice.roll_many("damage", D4, data.dice_count) if data.mode != "critical_only" else []
    crit = ctx.dice.roll_many("critical", D4, data.dice_count) if data.mode != "normal" else None
    result = damage.amount(attacker_hp=data.attacker_hp, k=data.characteristic_modifier,
                           absorption=data.defender_absorption, damage_d4=d4, critical_d4=crit, ruthless=data.ruthless,
                           flat=data.flat_bonus, protection=data.defender_protection, mode=data.mode)
    ctx.log.add("S4.15", "damage.event", "DB {db} + {multiplier} x VDB {vdb} + flat {flat} - protection {protection}"
                " = {raw}; damage {amount}.", db=result["db"], multiplier=result["multiplier"], vdb=result["vdb"],
                flat=data.flat_bonus, protection=data.defender_protection, raw=result["raw"], amount=result["amount"],
                attacker="attacker", defender="defender")
    if data.defender_hp is not None:
        result["hp_after"] = max(0, data.defender_hp - result["amount"])
    if data.defender_last_chance:
        result["return_damage"] = damage.return_amount(data.defender_hp, data.defender_ruthless,
                                                       data.attacker_protection)
        ctx.log.add("S7.7.6", "damage.return", "Last chance return: {amount}.", amount=result["return_damage"],
                    defender="defender", attacker="attacker")
    return result


# ---------------------------------------------------------------- S9.6


class RoundDurationInput(Input):
    participants: int = Field(ge=0, le=10**11)
    rounds_played: int = Field(default=0, ge=0, le=10**6)
    start_time: entities.Time | None = None


@ruleset.operation("round-duration", RoundDurationInput, rolls=False,
                   summary="Round length, elapsed time, fatigue (S4.17, S6.12).")
def round_duration(data: RoundDurationInput, ctx: Context) -> dict:
    minutes = tables.round_minutes(data.participants)
    elapsed = data.rounds_played * minutes if minutes else 0
    if minutes is None:
        ctx.log.add("S6.12", "battle.too_small", "{participants} participants: fewer than {minimum}, not a battle.",
                    participants=data.participants, minimum=tables.MINIMUM_PARTICIPANTS)
    else:
        ctx.log.add("S6.12", "battle.clock", "{participants} participants: rounds of {minutes} minutes.",
                    participants=data.participants, minutes=minutes)
    return {"is_battle": minutes is not None, "round_minutes": minutes, "elapsed_minutes": elapsed,
            "fatigue": elapsed > tables.FATIGUE_AFTER_MINUTES,
            "time_of_day": round_.time_of_day(data.start_time, elapsed)}


# ---------------------------------------------------------------- S9.7


class RollInitiativeInput(Input):
    state: entities.State
    rerolls: list[Id] = Field(default_factory=list, max_length=entities.MAX_CORPS)


@ruleset.operation("roll-initiative", RollInitiativeInput, rolls=True,
                   summary="The initiative phase of a round (S5.4).")
def roll_initiative(data: RollInitiativeInput, ctx: Context) -> dict:
    if data.state.phase != "initiative":
        raise InvalidInput.field("state.phase", "the initiative phase is already done")
    battle = load(ctx, data.state)
    rolled = initiative.phase(battle, list(data.rerolls), "rerolls")
    order = battle.resolution_order()
    return {"state": battle.export(),
            "initiative": {c: battle.corps(c)["initiative"] for c in battle.active_corps()},
            "advantage": {c: battle.corps(c)["advantage"] for c in battle.active_corps()},
            "rerolled": rolled, "resolution_order": order, "declaration_order": list(reversed(order)),
            "max_spend": {c: initiative.max_spend(battle, c) for c in battle.active_corps()}}


# ---------------------------------------------------------------- S9.8


class ResolveActionInput(Input):
    state: entities.State
    declarations: entities.Declarations = Field(default_factory=entities.Declarations)
    corps_id: Id
    slot: int = Field(default=0, ge=0, le=2)


@ruleset.operation("resolve-action", ResolveActionInput, rolls=True,
                   summary="Resolve one declared action (S5.10–S5.13, S7).")
def resolve_action(data: ResolveActionInput, ctx: Context) -> dict:
    if data.state.phase != "declaration":
        raise InvalidInput.field("state.phase", "must be 'declaration'")
    battle = load(ctx, data.state)
    decl = data.declarations.model_dump(by_alias=True)
    corps_decl = decl["corps"].get(data.corps_id)
    if corps_decl is None:
        raise InvalidInput.field("corps_id", "this corps declares no action")
    if data.slot >= len(corps_decl["actions"]):
        raise InvalidInput.field("slot", "no declared action at this index")
    round_.start(battle, decl, "declarations.", spend_points=False, roll_initiative=False)
    if not battle.active(data.corps_id):
        raise InvalidInput.field("corps_id", "the corps is not active")
    outcome = combat.resolve_slot(battle, data.corps_id, data.slot)
    return {"outcome": outcome,
            "hp": {c: corps["hp"] for c, corps in sorted(battle.state["corps"].items())},
            "advantage": {c: corps["advantage"] for c, corps in sorted(battle.state["corps"].items())},
            "state": battle.export(), "events": battle.events}


# ---------------------------------------------------------------- S9.9


class CorpsSetup(Input):
    id: Id
    zone: Id
    hp: int | None = Field(default=None, ge=1, le=10**12)


class ArmySetup(entities.ArmyDefinition):
    id: Id
    side: entities.Side
    corps: list[CorpsSetup] = Field(min_length=1, max_length=entities.MAX_CORPS)


class NewBattleInput(Input):
    name: entities.Name = ""
    start_time: entities.Time | None = None
    conflict_started: bool = False
    map: entities.Map
    armies: list[ArmySetup] = Field(min_length=1, max_length=entities.MAX_ARMIES)
    heroes: list[entities.Hero] = Field(default_factory=list, max_length=entities.MAX_HEROES)


@ruleset.operation("new-battle", NewBattleInput, summary="Setup -> initial battle state (S5.2).", rolls=True)
def new_battle(data: NewBattleInput, ctx: Context) -> dict:
    plain = data.model_dump(by_alias=True)
    built = setup.new_battle(plain, ctx.dice, ctx.log)
    battle = built.pop("battle")
    state = battle.export()
    return {"state": state, "sheets": {a: battle.sheets[a] for a in sorted(battle.sheets)}, **built}


# ---------------------------------------------------------------- S9.10


class ResolveRoundInput(Input):
    state: entities.State
    declarations: entities.Declarations = Field(default_factory=entities.Declarations)

    @model_validator(mode="before")
    @classmethod
    def _answers(cls, data):
        """The contract: ``declarations`` may come as answers (``{option path: value}``), merged here."""
        if isinstance(data, dict) and isinstance(data.get("state"), dict) and isinstance(data.get("declarations"), dict):
            if is_flat(data["declarations"]):
                return {**data, "declarations": answers.declarations(data["state"], data["declarations"])}
        return data


@ruleset.operation("resolve-round", ResolveRoundInput, rolls=True,
                   summary="State + all declarations -> new state (S5.3–S5.15).")
def resolve_round(data: ResolveRoundInput, ctx: Context) -> dict:
    if data.state.ended:
        raise InvalidInput.field("state.ended", "the battle is over")
    battle = load(ctx, data.state)
    played = battle.round
    decl = data.declarations.model_dump(by_alias=True)
    silent = defaults.silent_sides(battle, decl)
    awaited = [participant_key("side", side) for side in silent if defaults.must_declare(battle, side)]
    result = round_.resolve(battle, decl, "declarations.", silent=silent, must=awaited)
    return {"state": battle.export(), "outcomes": dict(sorted(battle.outcomes.items())),
            "summary": round_.summary(battle), "round_resolved": played, "resolution_order": result["order"],
            "battle_over": battle.state["ended"], "winner": battle.state["winner"], "events": battle.events,
            "defaults_applied": battle.ctx.defaults_applied}


# ---------------------------------------------------------------- S9.11


class AftermathInput(Input):
    state: entities.State


@ruleset.operation("battle-aftermath", AftermathInput, rolls=False,
                   summary="Losses, heroes' fates, army outcomes (S5.16).")
def battle_aftermath(data: AftermathInput, ctx: Context) -> dict:
    return setup.aftermath(load(ctx, data.state))


# ---------------------------------------------------------------- web layer


class Participant(Input):
    kind: Literal["side", "army", "commander", "corps", "unit", "hero", "gm"]
    id: Id = "gm"


class DeclarationOptionsInput(Input):
    state: entities.State
    participant: Participant
    viewer: Viewer | None = None
    declarations: Known | None = None  # the draft the choices that depend on another field are computed from


@ruleset.operation("declaration-options", DeclarationOptionsInput,
                   summary="What a participant may declare now, with the reason for anything forbidden.")
def declaration_options(data: DeclarationOptionsInput, ctx: Context) -> dict:
    """With a side ``viewer``, only that side's participants are answered: their choices are computed
    from their own side's figures and the other side's public ones (positions, statuses, S11.3), so
    nothing the viewer may not see changes them (``docs/rules/jdrwiki.md``)."""
    battle = load(ctx, data.state)
    kind, pid = data.participant.kind, data.participant.id
    viewer = room.check_viewer(data.viewer) if data.viewer is not None else None
    if viewer not in (None, GM) and checks.side_of_participant(battle, kind, pid) != viewer:
        raise InvalidInput.field("viewer", "a side sees only its own participants' options")
    draft = None
    if viewer is not None or data.declarations is not None:
        draft = answers.declarations(battle.state, data.declarations)
    if battle.state["ended"]:
        must, found = False, []
    else:
        must, found = options.options(battle, kind, pid, draft)
    ctx.log.add("S5.5", "options.listed", "{count} declaration options for {kind} {id}.", count=len(found),
                kind=kind, id=pid)
    result = {"participant": data.participant.model_dump(), "round": battle.round, "phase": battle.state["phase"],
              "must_declare": must, "options": found,
              "names": room.seen_names(battle.export(), viewer or GM)}
    if viewer is not None:
        result["viewer"] = viewer
    return result


class VisibleStateInput(Input):
    state: entities.State
    side: Literal["a", "b", "gm"] | None = None  # the GM sees everything (S11.3)
    viewer: Viewer | None = None  # the contract's name for ``side``
    fog: bool = True
    declarations: entities.Declarations | None = None


@ruleset.operation("visible-state", VisibleStateInput, rolls=False,
                   summary="The battle state as one side may see it (S11.3).")
def visible_state(data: VisibleStateInput, ctx: Context) -> dict:
    if data.viewer is None and data.side is None:
        raise InvalidInput.field("viewer", 'required: "gm", "a" or "b"')
    side = room.check_viewer(data.viewer, public=True) if data.viewer is not None else data.side
    state = load(ctx, data.state).export()
    view, hidden = visibility.visible(state, side, data.fog, ctx.log)
    view["strength"] = standing.strength(view)  # figures the viewer may not see are not summed
    result = {"state": view, "hidden": hidden, "names": names(view)}
    if data.declarations is not None:
        public, secret = visibility.public_declarations(state, data.declarations.model_dump(by_alias=True), side)
        result["declarations"] = public
        result["hidden"] = hidden + secret
    return result
