"""Heroic opportunities: starting one (S7.3, S7.4, S9.8) and advancing the effects each round (S9.9).

The numbers of every opportunity (reputation, general modifiers, inputs and
their defaults, imposed engagements) are read from the S6.10 data; this
module holds only what each one *does* when it starts and at the end of a
round, in the words of S7.4.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import Refusal, say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.effects import all_rolls_modifier, dice_penalty
from rules.seventh_sea.entities import (Engagement, Hero, Knack, OpportunityType, Trait, effect_dict, hero_dict,
                                        log_defaults, running)
from rules.seventh_sea.rolls import penalised, roll_keep

LEVELS = tables.ENGAGEMENTS  # support → front_line: "back" is toward index 0
NEEDS_LAST_ENGAGEMENT = ("hold_the_position", "capture_enemy_banner", "carry_the_message")
# Numbers of S7.4 written in its text rather than in the S6.10 data:
FLEE_AT = 6  # S7.4.12 (H25): the unit flees once this many of its brutes are dead
CARRY_TOTAL = 10  # S7.4.14 (H26): the message moves on a personal total of 10 or more
CARRY_BONUS = 6  # S7.4.14: bonus = 6 minus the rounds taken, minimum 0


def _default(kind: str, name: str) -> Any:
    return tables.opportunity_input(kind, name)["default"]


Tn = Annotated[int, Field(ge=5, le=100)]
Loss = Annotated[int, Field(ge=0, le=50)]
OpponentId = Annotated[str, Field(min_length=1, max_length=80)]


class OpportunityDecl(Input):
    """S9.8 ``opportunity``: the GM's choice and inputs, the player's answer and inputs."""

    type: OpportunityType
    accept: bool
    attack_trait: Trait | None = None
    attack_knack: Knack | None = None
    tn: Tn = _default("easy_shot", "tn")
    captured: bool | None = None
    duel_won: bool | None = None
    opponent_id: OpponentId | None = None
    refusal_reputation_loss: Loss = _default("prepare_to_die", "refusal_reputation_loss")
    tn_to_be_hit: Tn | None = None


def required_if_accepted(kind: str) -> list[str]:
    """Inputs of S6.10 needed when the offer is accepted (no default and not marked optional)."""
    entry = tables.opportunity(kind)
    return [field["name"] for field in entry.get("gm_inputs", []) + entry.get("player_inputs", [])
            if field.get("required_if_accepted") or ("default" not in field and field.get("required", True))]


def refusal(hero: dict, kind: str) -> tuple[str, str, str, dict] | None:
    """Why ``hero`` may not be offered ``kind`` at all (S7.3.3), as ``(reason, rule, message key, params)``;
    ``None`` if he may.  The key's sentence is the reason as a sentence of its own."""
    if hero["status"] != "active":
        return "an unconscious hero is offered no opportunity", "H16", "refusal.opportunity.unconscious", {}
    if any(running(effect) for effect in hero["effects"]):
        return "the hero already holds a running opportunity", "H16", "refusal.opportunity.running", {}
    if any(effect["type"] == kind for effect in hero["effects"]):
        return f"the hero already holds a {kind} effect", "S3.6", "refusal.opportunity.held", {"type": kind}
    prerequisite = tables.opportunity(kind).get("prerequisite") or {}
    if prerequisite.get("commission") == "not_none" and hero["commission"] == "none":
        return "it needs a commission of Sergeant or higher", "S7.4.12", "refusal.opportunity.commission", {}
    if kind in NEEDS_LAST_ENGAGEMENT and hero["last_engagement"] is None:
        return ("it needs the engagement of the round that offered it, and the hero did not fight", "S7.3",
                "refusal.opportunity.last_engagement", {})
    return None


def validate(hero: dict, decl: OpportunityDecl, path: str, *, pending_required: bool) -> None:
    """S7.3.3, whether accepted or not; ``path`` is the JSON path of the ``opportunity`` object."""
    if pending_required and not hero["opportunity_pending"]:
        raise Refusal(path, "this hero has no heroic opportunity offered (S7.3)", "S7.3", "refusal.no_offer")
    problem = refusal(hero, decl.type)
    if problem:
        reason, rule, key, params = problem
        raise Refusal(f"{path}.type", f"{reason} ({rule})", rule, key, **params)
    if decl.accept:
        for name in required_if_accepted(decl.type):
            if getattr(decl, name) is None:
                raise Refusal(f"{path}.{name}", f"required when a {decl.type} is accepted", "S7.3",
                              "refusal.required_if_accepted", type=decl.type)


def one_level_back(level: str) -> str:
    return LEVELS[max(0, LEVELS.index(level) - 1)]


def _modifier(ctx: Context, hero: dict, kind: str, amount: int, side: str | None = None) -> list[dict]:
    """A general modifier of S6.10 (``side`` own/enemy there); amount 0 creates nothing (S7.3)."""
    if amount == 0:
        return []
    if side is None:
        rule_side = tables.opportunity(kind)["general_modifier"]["side"]
        side = hero["side"] if rule_side == "own" else tables.other(hero["side"])
    modifier = {"side": side, "amount": amount, "source": kind, "hero_id": hero["id"]}
    say(ctx.log, "S7.3", "modifier.queued", **modifier)
    return [modifier]


def remove_effects(ctx: Context, hero: dict, reason: str) -> list[dict]:
    """Drop every effect of ``hero`` (taken out): the list of ``{type, reason}`` ended."""
    ended = [{"type": effect["type"], "reason": reason} for effect in hero["effects"]]
    for item in ended:
        say(ctx.log, "S7.3", "opportunity.ended", hero_id=hero["id"], **item)
    hero["effects"] = []
    return ended


def new_effect(hero: dict, decl: OpportunityDecl) -> dict:
    """S3.6 effect of an accepted, non-instant opportunity, with its starting fields (S7.4)."""
    last = hero["last_engagement"]
    extra: dict[str, Any] = {
        "hold_the_position": lambda: {"locked_engagement": last},
        "capture_enemy_banner": lambda: {"position": one_level_back(last)},
        "carry_the_message": lambda: {"position": last,
                                      "destination": LEVELS[-1] if LEVELS.index(last) <= 1 else LEVELS[0]},
        "charge_their_ranks": lambda: {"tn_to_be_hit": decl.tn_to_be_hit},
        "commander_is_dead": lambda: {"brutes_alive": tables.opportunity("commander_is_dead")["unit"]["brutes"],
                                      "brutes_dead": 0},
    }.get(decl.type, dict)()
    return effect_dict({"type": decl.type, "rounds_done": 0, **extra})


def start(ctx: Context, hero: dict, decl: OpportunityDecl, die_name: str) -> dict:
    """S7.3.4 on a hero dict (changed in place): every S9.8 output field but ``hero``.

    A duel opponent is only reported (``duel.opponent_id``); taking a tracked
    opponent out is the battle's business (S7.4.9).
    """
    kind = decl.type
    out: dict[str, Any] = {"type": kind, "accepted": decl.accept, "effect": None, "reputation_gained": 0,
                           "reputation_lost": 0, "general_modifiers": [], "attack": None, "duel": None,
                           "taken_out": False, "opponent_taken_out": False}
    hero["opportunity_pending"] = False
    entry = tables.opportunity(kind)
    if not decl.accept:
        if kind == "prepare_to_die":
            out["reputation_lost"] = decl.refusal_reputation_loss
            hero["reputation_lost"] += decl.refusal_reputation_loss
        say(ctx.log, "S7.3", "opportunity.declined", hero_id=hero["id"], type=kind,
            reputation_lost=out["reputation_lost"])
        return out
    if kind == "easy_shot":
        rolled, kept = penalised(decl.attack_trait + decl.attack_knack, decl.attack_trait,
                                 dice_penalty(hero["effects"]))
        roll = roll_keep(ctx, die_name, rolled, kept, "S7.4.5")
        modifier = all_rolls_modifier(hero["effects"])
        total = roll["total"] + modifier
        hit = total >= decl.tn
        out["attack"] = {"pool": roll["pool"], "dice": roll["dice"], "kept": roll["kept"], "modifier": modifier,
                         "total": total, "tn": decl.tn, "hit": hit}
        if hit:
            out["reputation_gained"] = entry["reputation"]["on_hit"]
            out["general_modifiers"] = _modifier(ctx, hero, kind, entry["general_modifier"]["amount"])
    elif kind == "prepare_to_die":
        out["duel"] = {"won": decl.duel_won, "opponent_id": decl.opponent_id}
        penalty = entry["on_accept"]["loser_general_modifier"]
        if decl.duel_won:
            out["opponent_taken_out"] = True
            out["general_modifiers"] = _modifier(ctx, hero, kind, penalty, tables.other(hero["side"]))
        else:
            out["taken_out"] = True
            hero["status"] = "unconscious"
            say(ctx.log, "S7.4.9", "hero.taken_out", hero_id=hero["id"], cause="duel")
            remove_effects(ctx, hero, "taken_out")
            out["general_modifiers"] = _modifier(ctx, hero, kind, penalty, hero["side"])
    elif kind != "capture_enemy_banner" or decl.captured:
        out["effect"] = new_effect(hero, decl)
        out["reputation_gained"] = entry["reputation"].get("on_start", 0)
        hero["effects"] = hero["effects"] + [out["effect"]]
    hero["battle_reputation"] += out["reputation_gained"]
    say(ctx.log, "S7.3", "opportunity.started", hero_id=hero["id"], type=kind, effect=out["effect"],
        reputation_gained=out["reputation_gained"])
    return out


class StartInput(Input):
    hero: Hero
    opportunity: OpportunityDecl


@ruleset.operation("start-opportunity", StartInput, rolls=True,
                   summary="Start or decline a heroic opportunity (S7.3, S7.4).")
def start_opportunity(data: StartInput, ctx: Context) -> dict:
    hero = hero_dict(data.hero)
    validate(hero, data.opportunity, "opportunity", pending_required=False)
    log_defaults(ctx.log, data)
    out = start(ctx, hero, data.opportunity, "easy_shot")
    out["hero"] = hero
    return out


# -- advance (R7) -------------------------------------------------------------


def _per_round(effect: dict, facts: dict) -> int:
    reputation = tables.opportunity(effect["type"])["reputation"]
    if "per_round_by_engagement" in reputation:
        return reputation["per_round_by_engagement"].get(facts["engagement"], 0) if facts["engagement"] else 0
    value = reputation.get("per_round", 0)
    return value if isinstance(value, int) else 0


def _ends_after(effect: dict) -> int | None:
    return tables.opportunity(effect["type"]).get("duration_rounds")


def _advance_one(ctx: Context, hero: dict, effect: dict, facts: dict, out: dict) -> str | None:
    """S7.3 common rules then S7.4.x: the end reason, or ``None`` if the effect goes on."""
    kind = effect["type"]
    entry = tables.opportunity(kind)
    conscious = hero["status"] == "active"
    effect["rounds_done"] += 1
    gained = _per_round(effect, facts)
    if kind == "commander_is_dead":
        gained += _commander_volley(ctx, hero, effect, facts, out)
    out["effect_reputation"] += gained
    say(ctx.log, _rule(kind), "opportunity.advanced", hero_id=hero["id"], type=kind,
        rounds_done=effect["rounds_done"], gained=gained)
    if not conscious:
        # S7.3: an unconscious hero loses every effect, the medic's included (its heal is then not applied;
        # S6.10's "requires_conscious: false" cannot arise in a round, since a resting hero takes no damage).
        return "taken_out"
    if kind == "medic":
        hero["flesh_wounds"] = 0
        hero["dramatic_wounds"] = max(0, hero["dramatic_wounds"] - 1)
        return "completed"
    if kind in ("take_the_position", "push_them_back", "hold_the_position", "rescue_comrade", "charge_their_ranks"):
        if effect["rounds_done"] < _ends_after(effect):
            return None
        out["effect_reputation"] += entry["reputation"].get("on_success", 0)
        if entry.get("general_modifier"):
            out["general_modifiers"] += _modifier(ctx, hero, kind, entry["general_modifier"]["amount"])
        return "completed"
    if kind == "capture_enemy_banner":
        if effect["position"] != LEVELS[0]:
            effect["position"] = one_level_back(effect["position"])
            return None
        out["effect_reputation"] += entry["reputation"]["on_success"]
        out["general_modifiers"] += _modifier(ctx, hero, kind, entry["general_modifier"]["amount"])
        return "delivered"
    if kind == "carry_the_message":
        return _carry(ctx, hero, effect, facts, out)
    if kind == "commander_is_dead" and effect["brutes_dead"] >= FLEE_AT:
        return "fled"
    return None  # save_the_banner, unhorsed_rider, wounded_porte_mage, commander_is_dead: go on


def _commander_volley(ctx: Context, hero: dict, effect: dict, facts: dict, out: dict) -> int:
    """S7.4.12: the penalty of a volley fired this round, then the brutes lost; returns the Reputation."""
    gained = 0
    hits = facts.get("commander_volley_hits")
    if hits is not None:
        penalty = hits // 2
        if penalty >= 1:
            gained = penalty
            out["general_modifiers"] += _modifier(ctx, hero, "commander_is_dead", -penalty)
    brutes = tables.opportunity("commander_is_dead")["unit"]["brutes"]
    effect["brutes_dead"] = min(brutes, effect["brutes_dead"] + facts.get("damage_dice", 0))
    effect["brutes_alive"] = max(0, brutes - effect["brutes_dead"])
    return gained


def _carry(ctx: Context, hero: dict, effect: dict, facts: dict, out: dict) -> str | None:
    """S7.4.14: one level toward the destination on a personal total of 10 or more."""
    total = facts.get("personal_total")
    if total is None or total < CARRY_TOTAL:
        return None
    step = 1 if LEVELS.index(effect["destination"]) > LEVELS.index(effect["position"]) else -1
    effect["position"] = LEVELS[LEVELS.index(effect["position"]) + step]
    if effect["position"] != effect["destination"]:
        return None
    bonus = max(0, CARRY_BONUS - effect["rounds_done"])
    out["effect_reputation"] += bonus
    out["general_modifiers"] += _modifier(ctx, hero, "carry_the_message", bonus)
    return "delivered"


def _rule(kind: str) -> str:
    return f"S7.4.{tables.OPPORTUNITIES.index(kind) + 1}"


def advance(ctx: Context, hero: dict, facts: dict) -> dict:
    """S7.3 advance on a hero dict (changed in place): ``effect_reputation, general_modifiers, ended``."""
    out: dict[str, Any] = {"effect_reputation": 0, "general_modifiers": [], "ended": []}
    kept = []
    for effect in [dict(effect) for effect in hero["effects"]]:
        reason = _advance_one(ctx, hero, effect, facts, out)
        if reason is None:
            kept.append(effect)
        else:
            out["ended"].append({"type": effect["type"], "reason": reason})
            say(ctx.log, _rule(effect["type"]), "opportunity.ended", hero_id=hero["id"], type=effect["type"],
                reason=reason)
    hero["effects"] = kept
    hero["battle_reputation"] += out["effect_reputation"]
    say(ctx.log, "S7.3", "opportunity.summary", hero_id=hero["id"], effect_reputation=out["effect_reputation"],
        battle_reputation=hero["battle_reputation"], running=[effect["type"] for effect in kept])
    return out


class RoundFacts(Input):
    engagement: Engagement | None = None
    personal_total: Annotated[int, Field(ge=-1000, le=100_000)] | None = None
    damage_dice: Annotated[int, Field(ge=0, le=20)] = 0
    commander_volley_hits: Annotated[int, Field(ge=0, le=100_000)] | None = None


class AdvanceInput(Input):
    hero: Hero
    round: RoundFacts = Field(default_factory=RoundFacts)


@ruleset.operation("advance-opportunities", AdvanceInput,
                   summary="End-of-round advance of a hero's heroic opportunity effects (S7.3, S7.4).")
def advance_opportunities(data: AdvanceInput, ctx: Context) -> dict:
    hero = hero_dict(data.hero)
    log_defaults(ctx.log, data)
    out = advance(ctx, hero, data.round.model_dump())
    out["hero"] = hero
    return out
