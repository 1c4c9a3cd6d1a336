"""Losses to units, dead and wounded, crews and characters (S4.13, S7.15, table S6.12)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal, Union

from pydantic import Discriminator, Field, Tag

from rules.dice import D6, Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.entities import BIG, Id, category_tag
from rules.synapse.sheets import damage_state
from rules.synapse.tables import tables

# S4.13 gives one d3 per full 10 % of losses; a formation can lose many times its
# strength in one blow, so the count is bounded (100 dice = 1000 % losses).
MAX_WOUND_DICE = 100


def share_losses(total: int, strengths: list[int]) -> list[int]:
    """S4.13 / H35: shares proportional to strength, by largest remainder (ties: earlier unit)."""
    whole = sum(strengths)
    shares = [total * s // whole for s in strengths]
    remainders = [total * s % whole for s in strengths]
    leftover = total - sum(shares)
    for index in sorted(range(len(strengths)), key=lambda i: (-remainders[i], i))[:leftover]:
        shares[index] += 1
    return shares


def troop_casualties(share: int, strength: int, headcount: int, soldier_points: int, killed: int | None,
                     path: str, log: Log, label: str) -> dict:
    """S4.13: men out of action (at least half of them dead), light wounds and what is left."""
    out = min(headcount, share // soldier_points)
    killed_min = out // 2
    if killed is not None and not killed_min <= killed <= out:
        raise InvalidInput.field(path, f"must be between {killed_min} and {out}")
    dead = killed_min if killed is None else killed
    minor = share - out * soldier_points
    log.add("S4.13", "casualties.unit", "{unit}: {losses} points / {soldier_points} per man = {out_of_action} out of action (at least {killed_min} dead), {minor_points} points of light wounds.",
            unit=label, losses=share, soldier_points=soldier_points, out_of_action=out, killed_min=killed_min,
            minor_points=minor)
    return {"losses": share, "loss_pct": 100 * share // strength, "out_of_action": out, "killed_min": killed_min,
            "killed": dead, "wounded": out - dead, "minor_points": minor, "headcount_after": headcount - out}


def vehicle_casualties(share: int, strength: int, crew_total: int, log: Log, label: str) -> dict:
    """S4.13 / table S6.12: crews suffer by the unit's damage state."""
    state = damage_state(share, strength)
    pct = tables()["crew_losses_by_state"][state]["pct"]
    if not isinstance(pct, int):  # engaged: proportional, under 10 % (H39)
        pct = 20 * share // strength
    lost = crew_total * pct // 100
    log.add("S6.12", "casualties.crew", "{unit}: {state} after {losses} damage, {crew_loss_pct} % of the crew ({crew_lost}) lost.",
            unit=label, state=state, losses=share, crew_loss_pct=pct, crew_lost=lost)
    return {"losses": share, "damage_state": state, "crew_loss_pct": pct, "crew_lost": lost}


def character_wounds(character_id: str, unit_id: str, armour: int, group_loss_pct: int, dice: Dice,
                     log: Log) -> dict:
    """S7.15 / H60: 1d3 (a d6 halved, rounded up) per full 10 % of losses, minus armour."""
    count = min(MAX_WOUND_DICE, group_loss_pct // 10)
    d6 = dice.roll_many(f"character:{character_id}", D6, count) if count else []
    d3 = [(v + 1) // 2 for v in d6]
    damage = max(0, sum(d3) - armour)
    log.add("S7.15", "aftermath.character", "{character}: {group_loss_pct} % losses, {dice_count}d3 = {total} - armour {armour} = {damage} damage.",
            character=character_id, group_loss_pct=group_loss_pct, dice_count=count, total=sum(d3), armour=armour,
            damage=damage)
    return {"unit_id": unit_id, "group_loss_pct": group_loss_pct, "dice_count": count, "d3": d3, "damage": damage}


def distribute(losses_before: int, winner: bool, units: list[dict], killed: dict[str, int],
               killed_path: Callable[[str], str], log: Log, label: str) -> dict:
    """S4.13 for one formation: recovery of the winner (S5.14), then the shares per unit.

    ``units`` hold ``id``, ``category``, ``strength``, ``headcount`` and
    ``soldier_points`` or ``crew_total``; ``killed_path(unit_id)`` gives the
    JSON path of a declared number of dead.
    """
    recovered = losses_before // 2 if winner else 0
    if recovered:
        log.add("S5.14", "aftermath.recovery", "The winner recovers half of {formation}'s {losses} losses: {recovered}.",
                formation=label, losses=losses_before, recovered=recovered)
    net = losses_before - recovered
    shares = share_losses(net, [u["strength"] for u in units])
    out = {}
    for unit, share in zip(units, shares):
        if unit.get("category", "troop") == "vehicle":
            out[unit["id"]] = vehicle_casualties(share, unit["strength"], unit["crew_total"], log, unit["id"])
        else:
            out[unit["id"]] = troop_casualties(share, unit["strength"], unit["headcount"], unit["soldier_points"],
                                               killed.get(unit["id"]), killed_path(unit["id"]), log, unit["id"])
    return {"recovered": recovered, "net_losses": net, "units": out}


class TroopLosses(Input):
    id: Id
    category: Literal["troop"] = "troop"
    strength: int = Field(ge=1, le=BIG)
    headcount: int = Field(ge=1, le=10**9)
    soldier_points: int = Field(ge=1, le=BIG)
    killed: int | None = Field(None, ge=0, le=10**9)


class VehicleLosses(Input):
    id: Id
    category: Literal["vehicle"]
    strength: int = Field(ge=1, le=BIG)
    headcount: int = Field(ge=1, le=10**9)
    crew_total: int = Field(ge=0, le=10**9)


class CharacterIn(Input):
    id: Id
    unit_id: str = Field(max_length=32)
    armour: int = Field(0, ge=0, le=100)


class CasualtiesInput(Input):
    group_losses: int = Field(ge=0, le=BIG)
    winner: bool = False
    units: list[Annotated[Union[Annotated[TroopLosses, Tag("troop")], Annotated[VehicleLosses, Tag("vehicle")]],
                          Discriminator(category_tag)]] = Field(min_length=1, max_length=60)
    characters: list[CharacterIn] = Field(default_factory=list, max_length=200)


@ruleset.operation("casualties", CasualtiesInput, rolls=True, summary="Losses to units, dead and wounded, characters (S4.13, S7.15).")
def casualties_op(data: CasualtiesInput, ctx: Context) -> dict:
    index_of: dict[str, int] = {}
    for index, unit in enumerate(data.units):
        if unit.id in index_of:
            raise InvalidInput.field(f"units[{index}].id", f"duplicate unit id {unit.id!r}")
        index_of[unit.id] = index
    for index, ch in enumerate(data.characters):
        if ch.unit_id not in index_of:
            raise InvalidInput.field(f"characters[{index}].unit_id", f"no unit {ch.unit_id!r} in units")
    units = [u.model_dump() for u in data.units]
    strength = sum(u["strength"] for u in units)
    pct = 100 * data.group_losses // strength
    killed = {u["id"]: u["killed"] for u in units if u.get("killed") is not None}
    shared = distribute(data.group_losses, data.winner, units, killed,
                        lambda uid: f"units[{index_of[uid]}].killed", ctx.log, "group")
    characters = {
        ch.id: character_wounds(ch.id, ch.unit_id, ch.armour, pct, ctx.dice, ctx.log) for ch in data.characters
    }
    return {"group_strength": strength, "group_losses": data.group_losses, "group_loss_pct": pct,
            "recovered": shared["recovered"], "net_losses": shared["net_losses"], "units": shared["units"],
            "characters": characters}
