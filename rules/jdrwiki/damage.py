"""Damage events (S4.15) and their application to a corps (S5.13).

:func:`amount` is the formula alone (the ``damage`` operation); :func:`normal`
and :func:`apply` put it to work in a battle: flat bonuses of the dealer,
protection of the receiver, *save from fatal*, *Dernière chance* returns and
destruction.
"""

from __future__ import annotations

from rules.dice import D4
from rules.jdrwiki import sheets
from rules.jdrwiki.battle import Battle


def amount(*, attacker_hp: int, k: int, absorption: int, damage_d4: list[int], critical_d4: list[int] | None,
           ruthless: bool, flat: int, protection: int, mode: str) -> dict:
    """S4.15 for one event; ``mode`` is ``normal``, ``critical_extra`` or ``critical_only``."""
    db = sheets.db_effective(attacker_hp, ruthless)
    vdb = sheets.vdb(attacker_hp)
    if mode == "critical_only":  # H22: only the critical adjustment, no DB, no flat bonus
        multiplier = sum(critical_d4 or []) + k - absorption
        raw = multiplier * vdb - protection
    else:
        multiplier = sum(damage_d4) + k - absorption
        if mode == "critical_extra":
            multiplier += sum(critical_d4 or []) + k
        raw = db + multiplier * vdb + flat - protection
    return {"db": db, "vdb": vdb, "multiplier": multiplier, "raw": raw, "amount": max(1, raw)}  # H9


def return_amount(defender_hp_before: int, defender_ruthless: bool, attacker_protection: int) -> int:
    """S7.7.6 / H31: half the dying corps' DB, flat, minus the dealer's protection, at least 1."""
    return max(1, sheets.ceil_div(sheets.db_effective(defender_hp_before, defender_ruthless), 2) - attacker_protection)


def higher_characteristic(battle: Battle, cid: str, choice: str | None) -> str:
    """H23: the dealer's choice of STR or DEX, default its higher modifier, tie STR."""
    if choice is not None:
        return choice
    mods = battle.sheet_of(cid)["modifiers"]
    return "dex" if mods["dex"] > mods["str"] else "str"


def flat_bonus(battle: Battle, cid: str) -> int:
    """H10: fury, hero damage bonuses and the GM's manual damage of the dealer."""
    return battle.allocation(cid)["fury"] + battle.hero_bonus(cid, "damage") + battle.manual(cid, "damage")


def protection(battle: Battle, cid: str) -> int:
    return battle.allocation(cid)["protection"] + battle.hero_bonus(cid, "protection") + battle.manual(cid, "protection")


def normal(battle: Battle, attacker: str, defender: str, *, characteristic: str, dice_name: str, dice_count: int,
           action_flat: int = 0, critical_name: str | None = None, rule: str = "S4.15") -> int:
    """The amount of one damage event of ``attacker`` on ``defender`` (not applied)."""
    d4 = battle.dice.roll_many(dice_name, D4, dice_count)
    crit = battle.dice.roll_many(critical_name, D4, dice_count) if critical_name else None
    army = battle.army_of(attacker)
    result = amount(
        attacker_hp=battle.corps(attacker)["hp"], k=battle.sheet_of(attacker)["modifiers"][characteristic],
        absorption=battle.sheet_of(defender)["absorption"], damage_d4=d4, critical_d4=crit,
        ruthless=army["ruthless"], flat=flat_bonus(battle, attacker) + action_flat,
        protection=protection(battle, defender), mode="critical_extra" if crit else "normal")
    battle.log.add(rule, "damage.event", "{attacker} deals {amount} to {defender}: DB {db} + {multiplier} x VDB {vdb}"
                   " + flat {flat} - protection {protection}.", attacker=attacker, defender=defender,
                   amount=result["amount"], db=result["db"], multiplier=result["multiplier"], vdb=result["vdb"],
                   flat=flat_bonus(battle, attacker) + action_flat, protection=protection(battle, defender))
    return result["amount"]


def critical_only(battle: Battle, attacker: str, defender: str, *, characteristic: str, dice_name: str,
                  dice_count: int) -> int:
    """S5.12.1 / H22: the critical 'damage' option of an action that deals no damage."""
    crit = battle.dice.roll_many(dice_name, D4, dice_count)
    result = amount(attacker_hp=battle.corps(attacker)["hp"], k=battle.sheet_of(attacker)["modifiers"][characteristic],
                    absorption=battle.sheet_of(defender)["absorption"], damage_d4=[], critical_d4=crit,
                    ruthless=False, flat=0, protection=protection(battle, defender), mode="critical_only")
    battle.log.add("S5.12", "damage.critical", "{attacker} deals {amount} critical damage to {defender}"
                   " ({multiplier} x VDB {vdb} - protection {protection}).", attacker=attacker, defender=defender,
                   amount=result["amount"], multiplier=result["multiplier"], vdb=result["vdb"],
                   protection=protection(battle, defender))
    return result["amount"]


def apply(battle: Battle, attacker: str, defender: str, value: int, *, allow_return: bool = True) -> tuple[int, int]:
    """S5.13: apply one event; returns (amount counted, return damage dealt back)."""
    target = battle.corps(defender)
    army = battle.army_of(defender)
    pool = battle.ctx.save_from_fatal.get(army["id"])
    if (value >= target["hp"] and pool is not None and army["id"] not in battle.ctx.save_used
            and battle.heroism_pool(army["id"], pool) >= 1):
        battle.spend_heroism(army["id"], pool)
        battle.ctx.save_used.add(army["id"])
        battle.log.add("S7.5.3", "damage.saved", "A heroism point of {army} ({pool}) cancels a fatal blow on {corps}.",
                       army=army["id"], pool=pool, corps=defender, amount=0)
        battle.event("fatal_blow_cancelled", corps=defender)
        return 0, 0
    hp_before = target["hp"]
    target["hp"] = max(0, hp_before - value)
    battle.event("damage", attacker=attacker, defender=defender, amount=value, hp=target["hp"])
    returned = 0
    if allow_return and "last_chance" in army["talents"] and battle.active(attacker):
        returned = return_amount(hp_before, army["ruthless"], protection(battle, attacker))
        battle.log.add("S7.7.6", "damage.return", "Last chance: {defender} strikes back at {attacker} for {amount}.",
                       defender=defender, attacker=attacker, amount=returned)
        apply(battle, defender, attacker, returned, allow_return=False)
    if target["hp"] == 0 and target["status"] == "active":
        battle.destroy(defender)
    return value, returned

