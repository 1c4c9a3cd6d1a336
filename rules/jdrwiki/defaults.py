"""Who must declare, and what a side that declares nothing gets (the contract's ``default``).

S5.5.2: a corps may declare nothing only when its available advantage is not
negative; S5.4.1: a corps with an empty initiative pool must re-roll.  So a
side commander must declare exactly when one of his active corps is in either
case, and the default answer is the one the spec leaves him no choice about:
the forced re-rolls (the engine rolls them anyway, S5.4.1) and, for a corps in
deficit, the whole deficit placed on ``environment`` (the allocation form's
default, S4.11: ``S <= available`` with nothing spent).  Everything else
defaults to nothing: no action, no hero, no heroism spent.  The deficit is
computed at resolution, after the initiative phase and the GM's adjustments
(S5.7: the allocation is checked against the advantage available then).
"""

from __future__ import annotations

from rules.contract import participant_key
from rules.jdrwiki import entities, sheets
from rules.jdrwiki.answers import REROLL
from rules.jdrwiki.battle import Battle


def forced_reroll(battle: Battle, cid: str) -> bool:
    """S5.4.1: in the initiative phase an empty pool is rolled whatever the commander says."""
    return battle.state["phase"] == "initiative" and battle.corps(cid)["initiative"] == 0


def projected_advantage(battle: Battle, cid: str) -> int:
    """The advantage available after this round's forced re-roll (S5.4.3 does not depend on the die)."""
    advantage = battle.corps(cid)["advantage"]
    if forced_reroll(battle, cid):
        army = battle.army_of(cid)
        rank = army["commander"]["strategist_rank"]
        advantage += sheets.grace_delta(rank, army["talents"]) + rank
    return advantage


def side_corps(battle: Battle, side: str) -> list[str]:
    return [c for c in battle.active_corps() if battle.side_of(c) == side]


def must_declare(battle: Battle, side: str) -> bool:
    """A forced re-roll or an advantage deficit among the side's active corps (S5.4.1, S5.5.2)."""
    if battle.state["ended"]:
        return False
    return any(forced_reroll(battle, c) or battle.corps(c)["advantage"] < 0 for c in side_corps(battle, side))


def default_answer(battle: Battle, side: str) -> dict:
    """The side's answer when it declares nothing (option paths of ``declaration-options``)."""
    answer: dict = {}
    if battle.state["ended"]:
        return answer
    for cid in side_corps(battle, side):
        if forced_reroll(battle, cid):
            answer[f"{REROLL}{cid}"] = True
        deficit = projected_advantage(battle, cid)
        if deficit < 0:
            answer[f"corps.{cid}.allocation.environment"] = deficit
    return answer


def silent_sides(battle: Battle, decl: dict) -> list[str]:
    """The sides of which ``decl`` (the engine's object, defaults filled) holds nothing at all."""
    armies = battle.state["armies"]
    spoken = {armies[a]["side"] for a in decl["armies"] if a in armies}
    spoken |= {battle.side_of(c) for c in [*decl["corps"], *decl["rerolls"]] if c in battle.state["corps"]}
    return [side for side in sorted({a["side"] for a in armies.values()}) if side not in spoken]


def fill(battle: Battle, decl: dict, silent: list[str]) -> list[str]:
    """Give the deficit allocation to the silent sides' corps; returns the keys of the sides defaulted.

    Called after the initiative phase and the GM's adjustments, so the deficit
    is the one S5.7 step 5 checks.
    """
    blank_corps = entities.CorpsDeclaration().model_dump(by_alias=True)
    blank_allocation = entities.Allocation().model_dump()
    applied = []
    for side in silent:
        filled = False
        for cid in side_corps(battle, side):
            deficit = battle.corps(cid)["advantage"]
            if deficit < 0 and cid not in decl["corps"]:
                entry = {**blank_corps, "allocation": {**blank_allocation, "environment": deficit}}
                decl["corps"][cid] = entry
                filled = True
        if filled:
            applied.append(participant_key("side", side))
    return applied
