"""One attack (S4.12), the numerical advantage (S4.10) and their operations.

An attack is split in two so that simultaneous phases can be resolved as the
spec asks (S5.12): :func:`evaluate` computes everything from the values *at
the start* (power, score, difficulty, margin, losses inflicted), and
:func:`apply_losses` lands the losses on the *live* target (cap, state, rout).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from rules.dice import OPEN_D10
from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.entities import (
    BIG, MOD, CombatType, DamageState, Distance, FortClass, Mode, Options, Terrain, Weather,
)
from rules.synapse.sheets import damage_state
from rules.synapse.tables import distance_modifier, fortification, state_penalty, tables, vehicle_combat

SHOCK_TYPE = ("shock", "pursuit", "riposte")
RANGED_TYPE = ("ranged", "contact", "fire")
COUNTER_KINDS = ("shock", "pursuit", "riposte", "contact")  # kinds that use up a counter bonus (H27)
SURPRISE_PENALTY = -5  # S5.5
Kind = Literal["ranged", "shock", "pursuit", "riposte", "contact", "fire"]


def numerical_advantage(power_a: int, power_b: int, allowed: bool, log: Log) -> dict:
    """S4.10 / table S6.4: the band of the ratio of attack powers and its bonus."""
    big, small = max(power_a, power_b), min(power_a, power_b)
    band, bonus = "none", 0
    if big != small:
        for row in sorted(tables()["numerical_advantage"], key=lambda r: -r["bonus"]):
            if small == 0 or row["den"] * big >= row["num"] * small:
                band, bonus = row["band"], row["bonus"]
                break
    side = None if bonus == 0 else ("A" if power_a > power_b else "B")
    log.add("S4.10", "numbers.band", "{big} against {small}: band {band}, bonus +{bonus}.",
            big=big, small=small, band=band, bonus=bonus)
    if not allowed:
        bonus, side = 0, None
        log.add("S4.10", "numbers.not_allowed", "The ground prevents any numerical advantage.")
    return {"attack_power": {"A": power_a, "B": power_b}, "band": band, "bonus": bonus,
            "advantaged_side": side, "allowed": allowed}


@dataclass(frozen=True)
class Striker:
    """What the attack needs of its author (S4.12 A-B)."""

    combat: int
    power: int  # the power for the kind: contact power, per-target firepower... before halvings
    damage_state: str = "fresh"
    routed: bool = False
    surprised: bool = False
    retreat_penalty: int = 0
    numbers_bonus: int = 0
    counter_bonus: int = 0
    modifier: int = 0


@dataclass(frozen=True)
class Target:
    """What the attack needs of its target (S4.12 C)."""

    defence: int
    defence_contact: int
    combat_mode: str = "melee"
    routed: bool = False
    surprised: bool = False
    defence_modifier: int = 0
    ranged_cover: int = 0
    fort_class: str | None = None
    fort_defence_mod: int = 0
    mobility_edge: bool = False


@dataclass(frozen=True)
class Conditions:
    mode: str
    terrain: str
    weather: Weather
    options: Options
    distance: str = "medium"
    base_difficulty: int = 10


def _weather(name: str, field: str) -> int:
    return tables()["weather_effects"][name][field]


def power_halvings(kind: str, state: str, routed: bool, c: Conditions) -> int:
    """S4.12 A: how many times the attack power is halved (state once, H20; terrain; weather option)."""
    terrain = tables()["terrain_effects"][c.terrain]
    bad_for_shots = c.weather.visibility == "very_poor" or c.weather.strong_wind
    return (
        (1 if routed or tables()["damage_states"][state].get("halve_attack_power") else 0)
        + (1 if terrain.get("attack_power_halved") else 0)
        + (1 if terrain.get("attack_power_halved_in_contact") and kind in COUNTER_KINDS else 0)
        + (1 if kind in RANGED_TYPE and c.options.halve_ranged_power_in_bad_conditions and bad_for_shots else 0)
    )


def evaluate(kind: str, s: Striker, t: Target, c: Conditions, roll: int, log: Log, key: str) -> dict:
    """S4.12 A-D: everything an attack computes before its losses land."""
    shock_type, ranged_type = kind in SHOCK_TYPE, kind in RANGED_TYPE
    terrain = tables()["terrain_effects"][c.terrain]
    w = c.weather
    bad_for_shots = w.visibility == "very_poor" or w.strong_wind
    halvings = power_halvings(kind, s.damage_state, s.routed, c)
    power = s.power // 2**halvings
    log.add("S4.12", "attack.power", "{attack}: attack power {power}, halved {halvings} time(s): {used}.",
            attack=key, power=s.power, halvings=halvings, used=power)

    mods = (
        state_penalty(s.damage_state, s.routed)
        + (SURPRISE_PENALTY if s.surprised else 0)
        + s.retreat_penalty
        + (s.numbers_bonus if shock_type else 0)
        + (s.counter_bonus if kind in COUNTER_KINDS else 0)
        + (_weather("extreme_temperature", "all_attacks") if w.extreme_temperature else 0)
        + (_weather("poor_visibility", "combat_if_option")
           if c.options.poor_visibility_combat_penalty and w.visibility in ("poor", "very_poor") else 0)
        + (_weather("very_poor_visibility", "ranged_attacks") if ranged_type and bad_for_shots else 0)
        + s.modifier
    )
    score = s.combat + roll + mods
    log.add("S4.12", "attack.score", "{attack}: combat {combat} + roll {roll} + modifiers {modifiers} = {score}.",
            attack=key, combat=s.combat, roll=roll, modifiers=mods, score=score)

    base_def = t.defence_contact if shock_type and t.combat_mode == "ranged" else t.defence
    entrenched = t.fort_class == "entrenchment"
    all_mods = (
        base_def
        + (t.fort_defence_mod if t.fort_class and not entrenched else 0)
        + terrain.get("defence_mod_all", 0)
        + t.defence_modifier
    )
    def_halvings = (
        (1 if t.surprised and c.mode != "vehicles" else 0)
        + (1 if t.routed else 0)
        + (1 if ranged_type else 0)
        + (1 if ranged_type and terrain.get("defence_halved_vs_ranged") else 0)
    )
    defence_used = max(0, all_mods) // 2**def_halvings
    cover = 0 if shock_type else (
        terrain.get("ranged_cover", 0) + (t.fort_defence_mod if entrenched else 0) + t.ranged_cover
    )
    if kind == "ranged":
        dist = distance_modifier(c.distance)
    elif kind == "contact":
        dist = distance_modifier(tables()["contact_strike_distance"])
    elif kind == "fire":
        dist = c.base_difficulty
    else:
        dist = 0
    difficulty = defence_used + cover + dist
    if kind == "fire" and t.surprised:  # H52: the surprised unit's defence and cover are ignored
        defence_used, difficulty = 0, c.base_difficulty
    log.add("S4.12", "attack.difficulty", "{attack}: defence {defence}, halved {halvings} time(s) = {defence_used}, + cover {cover} + distance {distance} = difficulty {difficulty}.",
            attack=key, defence=all_mods, halvings=def_halvings, defence_used=defence_used, cover=cover,
            distance=dist, difficulty=difficulty)

    margin = score - difficulty
    success = margin >= 0
    losses = tables()["attack_losses"]
    result = {
        "kind": kind, "attack_power_used": power, "modifier_total": mods, "roll": roll, "score": score,
        "defence_used": defence_used, "difficulty": difficulty, "success": success, "margin": margin,
        "loss_pct": 0, "losses_inflicted": 0, "counter_bonus_gained": 0, "friendly_fire_losses": 0,
    }
    if success:
        loss_pct = losses["base_pct"] + losses["pct_per_two_margin"] * (margin // 2) + (
            _weather("gruelling_climate", "loss_pct") if w.gruelling_climate else 0)
        inflicted = power * loss_pct // 100
        log.add("S4.12", "attack.losses", "{attack}: margin {margin} gives {loss_pct} % of {attack_power} = {inflicted} losses.",
                attack=key, margin=margin, loss_pct=loss_pct, attack_power=power, inflicted=inflicted)
        if kind == "pursuit" and t.mobility_edge:
            inflicted //= 2
            log.add("S4.12", "attack.pursuit_halved", "{attack}: the pursued side is more mobile, losses halved to {inflicted}.",
                    attack=key, inflicted=inflicted)
        result.update(loss_pct=loss_pct, losses_inflicted=inflicted)
    else:
        mte = -margin
        if shock_type:
            result["counter_bonus_gained"] = (mte // 2) * losses["failed_shock_counter_bonus_per_two_mte"]
        if kind == "ranged":
            result["friendly_fire_losses"] = power * losses["friendly_fire_pct_per_two_mte"] * (mte // 2) // 100
        log.add("S4.12", "attack.failed", "{attack}: failed by {mte}; the target gains a counter bonus of {counter_bonus}.",
                attack=key, mte=mte, counter_bonus=result["counter_bonus_gained"])
    return result


def apply_losses(target: dict, inflicted: int, *, encircled: bool, round_no: int, log: Log, key: str) -> dict:
    """S4.12 D (cap) and E (state, rout, destruction) on a live formation-like dict.

    ``target`` needs ``losses``, ``strength``, ``break_threshold``, ``fearless``
    and ``status``; ``damage_state``, ``routed_round`` and ``pursued`` are set.
    """
    threshold = target["break_threshold"]
    routed = target["status"] == "routed"
    capped = (not routed and not target["fearless"] and not encircled
              and threshold is not None and inflicted > threshold)
    applied = threshold if capped else inflicted
    if capped:
        log.add("S4.12", "attack.cap", "{attack}: {inflicted} exceeds the break threshold {break_threshold}: losses cut to it and the target routs.",
                attack=key, inflicted=inflicted, break_threshold=threshold)
    target["losses"] += applied
    before = target.get("damage_state")
    target["damage_state"] = damage_state(target["losses"], target["strength"])
    if target["damage_state"] != before:
        log.add("S4.11", "state.change", "{formation}: {losses} losses of {strength}, now {state}.",
                formation=target.get("id", "target"), losses=target["losses"], strength=target["strength"],
                state=target["damage_state"])
    if target["damage_state"] == "annihilated":
        target["status"] = "destroyed"
        log.add("S4.12", "status.destroyed", "{formation} is annihilated.", formation=target.get("id", "target"))
    elif (target["status"] == "active" and not target["fearless"] and threshold is not None
          and (capped or (applied > 0 and target["losses"] > threshold))):
        target.update(status="routed", routed_round=round_no, pursued=False)
        log.add("S4.12", "status.routed", "{formation} routs ({losses} losses above {break_threshold}).",
                formation=target.get("id", "target"), losses=target["losses"], break_threshold=threshold)
    return {
        "losses_applied": applied, "capped": capped, "target_break_threshold": threshold,
        "target_losses": target["losses"], "target_damage_state": target["damage_state"],
        "target_status": target["status"],
    }


# --- operations ------------------------------------------------------------------

Power = Field(ge=0, le=BIG)


class NumbersInput(Input):
    class Powers(Input):
        A: int = Power
        B: int = Power

    attack_power: Powers
    allowed: bool = True


@ruleset.operation("numerical-advantage", NumbersInput, summary="Ratio of attack powers and its bonus (S4.10, S6.4).")
def numerical_advantage_op(data: NumbersInput, ctx: Context) -> dict:
    return numerical_advantage(data.attack_power.A, data.attack_power.B, data.allowed, ctx.log)


class AttackerIn(Input):
    combat: int = Field(ge=-MOD, le=MOD)
    attack_power: int = Power
    damage_state: DamageState = "fresh"
    routed: bool = False
    surprised: bool = False
    retreat_penalty: Literal[0, -2, -4] = 0
    numbers_bonus: int = Field(0, ge=0, le=5)
    counter_bonus: int = Field(0, ge=0, le=1000)
    modifier: int = Field(0, ge=-MOD, le=MOD)
    attack_power_factor: Literal["full", "half", "none"] = "full"


class TargetIn(Input):
    defence: int = Field(ge=0, le=MOD * 10)
    defence_contact: int | None = Field(None, ge=0, le=MOD * 10)
    combat_mode: Literal["melee", "ranged"] = "melee"
    strength: int = Field(ge=1, le=BIG)
    losses: int = Field(0, ge=0, le=BIG)
    break_pct: int | None = Field(None, ge=0, le=1000)
    fearless: bool = False
    routed: bool = False
    surprised: bool = False
    encircled: bool = False
    defence_modifier: int = Field(0, ge=-MOD, le=MOD)
    ranged_cover: int = Field(0, ge=-MOD, le=MOD)
    fortification: FortClass | None = None
    fortification_defence_mod: int | None = Field(None, ge=0, le=50)
    mobility_edge: bool = False
    friendly_contact: bool = False


class ConditionsIn(Input):
    mode: Mode = "field"
    terrain: Terrain = "open"
    distance: Distance = "medium"
    combat_type: CombatType = "ground"
    base_difficulty: int | None = Field(None, ge=0, le=100)
    weather: Weather = Field(default_factory=Weather)
    options: Options = Field(default_factory=Options)


class AttackInput(Input):
    kind: Kind
    attacker: AttackerIn
    target: TargetIn
    conditions: ConditionsIn = Field(default_factory=ConditionsIn)


FIRE_FACTOR = {"full": lambda p: p, "half": lambda p: p // 2, "none": lambda p: 0}


@ruleset.operation("attack", AttackInput, rolls=True, summary="One attack test and its losses (S4.11, S4.12).")
def attack_op(data: AttackInput, ctx: Context) -> dict:
    a, t, c = data.attacker, data.target, data.conditions
    if t.break_pct is None and not t.fearless:
        raise InvalidInput.field("target.break_pct", "required unless the target is fearless")
    power = FIRE_FACTOR[a.attack_power_factor](a.attack_power) if data.kind == "fire" else a.attack_power
    striker = Striker(a.combat, power, a.damage_state, a.routed, a.surprised, a.retreat_penalty,
                      a.numbers_bonus, a.counter_bonus, a.modifier)
    fort_mod = 0
    if t.fortification is not None:
        fort_mod = t.fortification_defence_mod
        if fort_mod is None:
            fort_mod = fortification(t.fortification)["defence_mod"]
    target = Target(t.defence, t.defence if t.defence_contact is None else t.defence_contact, t.combat_mode,
                    t.routed, t.surprised, t.defence_modifier, t.ranged_cover, t.fortification, fort_mod,
                    t.mobility_edge)
    base = c.base_difficulty if c.base_difficulty is not None else vehicle_combat(c.combat_type)["base_difficulty"]
    conditions = Conditions(c.mode, c.terrain, c.weather, c.options, c.distance, base)
    roll = ctx.dice.roll("attack", OPEN_D10)
    result = evaluate(data.kind, striker, target, conditions, roll, ctx.log, "attack")
    live = {
        "id": "target", "losses": t.losses, "strength": t.strength, "fearless": t.fearless,
        "break_threshold": None if t.fearless else t.strength * t.break_pct // 100,
        "status": "routed" if t.routed else "active", "damage_state": damage_state(t.losses, t.strength),
    }
    landed = apply_losses(live, result["losses_inflicted"], encircled=t.encircled, round_no=0, log=ctx.log, key="attack")
    if not (data.kind == "ranged" and t.friendly_contact):
        result["friendly_fire_losses"] = 0
    elif result["friendly_fire_losses"]:
        ctx.log.add("S7.5", "attack.friendly_fire", "{attack}: the missed volley falls on {formation}: {losses} losses.",
                    attack="attack", formation="friends in contact", losses=result["friendly_fire_losses"])
    return {**result, **landed}
