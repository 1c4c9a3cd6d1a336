"""Siege: holding time, attrition, surrender negotiation (S4.14, S7.10, S7.11)."""

from __future__ import annotations

from pydantic import Field

from rules.dice import OPEN_D10
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.combat import numerical_advantage
from rules.synapse.entities import BIG, MOD, FortClass
from rules.synapse.tables import fortification, tables


class Garrison(Input):
    combat: int = Field(ge=-MOD, le=MOD)
    headcount: int = Field(ge=1, le=10**9)
    strength: int = Field(ge=1, le=BIG)
    break_pct: int = Field(ge=0, le=1000)
    losses: int = Field(0, ge=0, le=BIG)
    attack_power: int = Field(0, ge=0, le=BIG)
    fearless: bool = False


class Place(Input):
    class_: FortClass = Field(alias="class")
    factor: int | None = Field(None, ge=1, le=10)


class Negotiator(Input):
    presence_mod: int = Field(0, ge=-5, le=10)
    combat: int = Field(ge=-5, le=20)
    diplomacy: int = Field(0, ge=0, le=20)


class Besieger(Input):
    headcount: int = Field(ge=0, le=10**9)
    engineers: int = Field(0, ge=0, le=10**9)
    attack_power: int = Field(0, ge=0, le=BIG)
    commander: Negotiator | None = None


class SiegeInput(Input):
    garrison: Garrison
    fortification: Place
    besieger: Besieger
    weeks_elapsed: int = Field(0, ge=0, le=10_000)
    negotiate: bool = False
    modifier: int = Field(0, ge=-MOD, le=MOD)


@ruleset.operation("siege", SiegeInput, rolls=True, summary="Holding time, attrition and surrender negotiation (S4.14).")
def siege_op(data: SiegeInput, ctx: Context) -> dict:
    g, b, log = data.garrison, data.besieger, ctx.log
    if data.negotiate and b.commander is None:
        raise InvalidInput.field("besieger.commander", "a negotiation needs the besiegers' commander")
    factor = data.fortification.factor or fortification(data.fortification.class_)["factor"]
    holding = max(0, g.combat) * factor
    engineers_halve = 2 * b.engineers >= g.headcount
    if engineers_halve:
        holding //= 2
    log.add("S4.14", "siege.holding", "Combat {combat} x fortification {factor} (halved by engineers: {engineers_halve}): the garrison holds {holding_weeks} weeks.",
            combat=g.combat, factor=factor, engineers_halve=engineers_halve, holding_weeks=holding)
    blockade = b.headcount >= tables()["siege_min_ratio_headcount"] * g.headcount
    tranche = max(1, holding // 10)
    extra = max(0, data.weeks_elapsed - holding)
    attrition_pct = 10 * (extra // tranche) if blockade else 0
    attrition = g.strength * attrition_pct // 100
    log.add("S4.14", "siege.attrition", "{extra_weeks} weeks beyond, in tranches of {tranche_weeks}, blockade {blockade}: {attrition_pct} % losses = {attrition_losses} points.",
            extra_weeks=extra, tranche_weeks=tranche, blockade=blockade, attrition_pct=attrition_pct,
            attrition_losses=attrition)
    losses_after = g.losses + attrition
    loss_pct = 100 * losses_after // g.strength
    threshold = None if g.fearless else g.strength * g.break_pct // 100
    negotiation = None
    if data.negotiate:
        c = b.commander
        rating = c.presence_mod + c.combat + c.diplomacy
        ratio = numerical_advantage(b.attack_power, g.attack_power, True, log)
        bonus = ratio["bonus"] if b.attack_power > g.attack_power else 0
        difficulty = max(0, holding - 2 * (loss_pct // 10))
        roll = ctx.dice.roll("negotiation", OPEN_D10)
        score = rating + bonus + roll + data.modifier
        margin = score - difficulty
        negotiation = {"rating": rating, "ratio_bonus": bonus, "difficulty": difficulty, "roll": roll,
                       "modifier": data.modifier, "score": score, "success": margin >= 0, "margin": margin,
                       "unconditional": margin >= 5}
        log.add("S7.11", "siege.negotiation", "Negotiation {score} against {difficulty}: margin {margin}.",
                score=score, difficulty=difficulty, margin=margin)
    return {
        "factor": factor, "holding_weeks": holding, "engineers_halve": engineers_halve,
        "blockade_effective": blockade, "tranche_weeks": tranche, "extra_weeks": extra,
        "attrition_pct": attrition_pct, "attrition_losses": attrition, "losses_after": losses_after,
        "loss_pct": loss_pct, "break_threshold": threshold,
        "surrender_threshold_reached": threshold is not None and losses_after >= threshold,
        "negotiation": negotiation,
    }
