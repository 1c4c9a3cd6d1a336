"""Volley fire (S4.13, S7.5, S7.6, S6.8, S6.9): salvo, hits, spread over a group, wounds.

Used by ``resolve-volley`` and by two heroic opportunities of a round
(``charge_their_ranks``, ``commander_is_dead``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from rules.dice import OPEN_D10
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.damage import wound
from rules.seventh_sea.entities import Id, Knack, Trait, check_unique_ids, log_defaults

TargetKind = Literal[tables.TARGET_KINDS]
# S6.8 ``brute_squad_of_5_or_more``: a squad adds its threat once it has this many brutes.
SQUAD_THREAT_SIZE = 5


def hits_of(value: int) -> int:
    """Hits of one exploding die total (S4.13): every 10 rolled hits, and the last face if a hit face."""
    faces = tables.hit_faces()
    tens, last = divmod(value, 10)
    return (tens if 10 in faces else 0) + (1 if last in faces else 0)


def dice_count(salvo_level: int) -> int:
    """``ceil(salvo / 2)``: the only round-up of the seed (S6.8)."""
    return (salvo_level + 1) // 2


def salvo_of(brute_squads: list[dict], henchmen: int, heroes: int) -> tuple[int, dict]:
    """S4.13 / S6.8: the salvo level and its breakdown in salvo points."""
    points = tables.salvo_contribution()
    breakdown = {
        "brutes": points["brute"] * sum(squad["size"] for squad in brute_squads),
        "squad_threat": sum(squad["threat"] for squad in brute_squads if squad["size"] >= SQUAD_THREAT_SIZE),
        "henchmen": points["henchman"] * henchmen,
        "heroes": points["hero"] * heroes,
    }
    return sum(breakdown.values()), breakdown


def fire(ctx: Context, name: str, salvo_level: int, rule: str = "S4.13") -> dict:
    """Roll the salvo's dice (``name``) and count the hits."""
    count = dice_count(salvo_level)
    roll = ctx.dice.roll_many(name, OPEN_D10, count) if count else []
    hits = sum(hits_of(value) for value in roll)
    say(ctx.log, rule, "volley.salvo", salvo_level=salvo_level, dice_count=count)
    say(ctx.log, rule, "volley.hits", name=name, roll=roll, hits=hits)
    return {"salvo_level": salvo_level, "dice_count": count, "volley_roll": roll, "hits": hits}


def share(ctx: Context, name: str, hits: int, members: int) -> dict:
    """Share hits evenly over ``members``; the leftover go to distinct members drawn by ``name``."""
    if members == 0:
        return {"members": 0, "hits_per_member": 0, "remainder": 0, "spread": [], "per_member": []}
    per, remainder = divmod(hits, members)
    spread = ctx.dice.pick(name, remainder, members) if remainder else []
    per_member = [per] * members
    for index in spread:
        per_member[index] += 1
    say(ctx.log, "S4.13", "volley.spread", hits=hits, members=members, hits_per_member=per, remainder=remainder,
        spread=spread)
    return {"members": members, "hits_per_member": per, "remainder": remainder, "spread": spread,
            "per_member": per_member}


def wounds_from_hits(ctx: Context, target_id: str, hits: int, dracheneisen: int, tn_to_be_hit: int) -> dict:
    """Dracheneisen (S7.6) then flesh wounds per hit by TN (S6.9, H36)."""
    ignored = min(hits, dracheneisen)
    effective = hits - ignored
    tn_row, per_hit = tables.volley_wounds(tn_to_be_hit)
    added = effective * per_hit
    say(ctx.log, "S4.13", "volley.target", target_id=target_id, hits=hits, ignored=ignored, effective_hits=effective,
        tn_row=tn_row, flesh_wounds_per_hit=per_hit, flesh_wounds_added=added)
    return {"hits": hits, "ignored": ignored, "effective_hits": effective, "tn_row": tn_row,
            "flesh_wounds_per_hit": per_hit, "flesh_wounds_added": added}


class BruteSquad(Input):
    size: Annotated[int, Field(ge=1, le=200)]
    threat: Annotated[int, Field(ge=1, le=10)]


class Shooters(Input):
    brute_squads: Annotated[list[BruteSquad], Field(max_length=100)] = []
    henchmen: Annotated[int, Field(ge=0, le=200)] = 0
    heroes: Annotated[int, Field(ge=0, le=50)] = 0


class Target(Input):
    id: Id
    kind: TargetKind
    size: Annotated[int, Field(ge=1, le=200)] | None = None
    tn_to_be_hit: Annotated[int, Field(ge=5, le=100)] | None = None
    dracheneisen: Knack = 0
    brawn: Trait | None = None
    resolve: Trait | None = None
    flesh_wounds: Annotated[int, Field(ge=0, le=999)] = 0
    dramatic_wounds: Annotated[int, Field(ge=0, le=20)] = 0


class VolleyInput(Input):
    shooters: Shooters | None = None
    salvo_level: Annotated[int, Field(ge=0, le=2000)] | None = None
    targets: Annotated[list[Target], Field(max_length=100)] = []
    wound_checks: bool = True


def _validate(data: VolleyInput) -> None:
    if (data.shooters is None) == (data.salvo_level is None):
        problem = "give exactly one of shooters and salvo_level"
        raise InvalidInput("Invalid input: give either shooters or salvo_level, not both or neither (S9.7).",
                           {"shooters": problem, "salvo_level": problem})
    check_unique_ids(data.targets, "targets")
    for index, target in enumerate(data.targets):
        if target.kind == "brute_squad" and target.size is None:
            raise InvalidInput.field(f"targets[{index}].size", "a brute squad target needs its size")
        if target.kind != "brute_squad" and target.tn_to_be_hit is None:
            raise InvalidInput.field(f"targets[{index}].tn_to_be_hit", f"a {target.kind} target needs its TN")


@ruleset.operation("resolve-volley", VolleyInput, rolls=True,
                   summary="Volley fire: salvo, hits, spread, brutes killed, wounds (S4.13, S7.5, S7.6).")
def resolve_volley(data: VolleyInput, ctx: Context) -> dict:
    _validate(data)
    log_defaults(ctx.log, data)
    if data.shooters is not None:
        shooters = data.shooters.model_dump()
        salvo_level, breakdown = salvo_of(shooters["brute_squads"], shooters["henchmen"], shooters["heroes"])
    else:
        salvo_level, breakdown = data.salvo_level, None
    volley = fire(ctx, "volley", salvo_level)
    targets = [target.model_dump() for target in data.targets]
    sizes = [target["size"] if target["kind"] == "brute_squad" else 1 for target in targets]
    shared = share(ctx, "spread", volley["hits"], sum(sizes))
    results: dict[str, Any] = {}
    start = 0
    for target, size in zip(targets, sizes):
        member_hits = shared["per_member"][start:start + size]
        start += size
        results[target["id"]] = _target_result(ctx, target, member_hits, data.wound_checks)
    return {"salvo_level": salvo_level, "salvo_breakdown": breakdown, "dice_count": volley["dice_count"],
            "volley_roll": volley["volley_roll"], "hits": volley["hits"], "members": shared["members"],
            "hits_per_member": shared["hits_per_member"], "remainder": shared["remainder"],
            "spread": shared["spread"], "targets": results}


def _target_result(ctx: Context, target: dict, member_hits: list[int], wound_checks: bool) -> dict:
    hits = sum(member_hits)
    if target["kind"] == "brute_squad":
        killed = sum(1 for count in member_hits if count >= 1)  # one hit kills a brute (S6.9)
        say(ctx.log, "S4.13", "volley.brutes", target_id=target["id"], hits=hits, killed=killed,
            survivors=target["size"] - killed)
        return {"kind": target["kind"], "size": target["size"], "hits": hits, "killed": killed,
                "survivors": target["size"] - killed}
    result = {"kind": target["kind"], **wounds_from_hits(ctx, target["id"], hits, target["dracheneisen"],
                                                         target["tn_to_be_hit"])}
    body = {"id": target["id"], "brawn": target["brawn"], "resolve": target["resolve"], "effects": [],
            "flesh_wounds": target["flesh_wounds"], "dramatic_wounds": target["dramatic_wounds"],
            "status": "active"}
    checked = wound_checks and target["brawn"] is not None
    check, _ = wound(ctx, body, result["flesh_wounds_added"], checked, 0, f"wound_check:{target['id']}", "volley")
    result.update(wound_check=check, flesh_wounds=body["flesh_wounds"], dramatic_wounds=body["dramatic_wounds"],
                  unconscious=None if target["resolve"] is None
                  else body["dramatic_wounds"] >= 2 * target["resolve"])
    return result
