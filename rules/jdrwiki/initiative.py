"""The initiative phase (S5.4): who rolls, the roll, the grace-round cost, the orders."""

from __future__ import annotations

from rules.dice import D20
from rules.errors import InvalidInput
from rules.explain import Listed
from rules.jdrwiki import sheets
from rules.jdrwiki.battle import Battle


def roll(battle: Battle, cid: str) -> int:
    """S5.4.2: a new pool, d20 + effective Initiative, at least 0."""
    die = battle.dice.roll(f"{cid}/initiative", D20)
    pool = max(0, die + battle.eff_init(cid))
    battle.corps(cid)["initiative"] = pool
    battle.log.add("S5.4", "initiative.roll", "{corps} rolls initiative: {die} + {skill} = pool {pool}.",
                   corps=cid, die=die, skill=battle.eff_init(cid), pool=pool)
    battle.event("initiative", corps=cid, pool=pool)
    return pool


def phase(battle: Battle, rerolls: list[str], path: str) -> list[str]:
    """S5.4.1–S5.4.5; returns the ids that rolled, in resolution order."""
    for index, cid in enumerate(rerolls):
        where = f"{path}[{index}]"
        if cid not in battle.state["corps"] or not battle.active(cid):
            raise InvalidInput.field(where, "must be an active corps")
        cap = battle.sheet_of(cid)["reroll_cap"]
        if battle.corps(cid)["initiative"] > cap:
            raise InvalidInput.field(where, f"a voluntary re-roll needs a pool of {cap} or less (S5.4.1)")
    rolling = [c for c in battle.active_corps() if battle.corps(c)["initiative"] == 0 or c in rerolls]
    for cid in rolling:
        forced = battle.corps(cid)["initiative"] == 0
        roll(battle, cid)
        army = battle.army_of(cid)
        rank = army["commander"]["strategist_rank"]
        delta = sheets.grace_delta(rank, army["talents"])
        battle.log.add("S5.4.3", "initiative.reroll", "{corps} re-rolls ({why}): grace {grace:+d}, strategist {rank:+d}.",
                       corps=cid, why="forced" if forced else "chosen", grace=delta, rank=rank)
        battle.change_advantage(cid, delta + rank, "S5.4.3", "re-roll")
    battle.state["phase"] = "declaration"
    order = battle.resolution_order()
    battle.log.add("S5.4.4", "initiative.order", "Resolution order: {order}.", order=Listed(order))
    return [c for c in order if c in rolling]


def max_spend(battle: Battle, cid: str) -> int:
    return min(battle.sheet_of(cid)["spend_cap"], battle.corps(cid)["initiative"])
