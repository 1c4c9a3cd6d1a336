"""Advantage allocation (S4.11, S6.13): what a round's points buy."""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.explain import Log
from rules.jdrwiki import tables
from rules.jdrwiki.declare import check_allocation


def allocate(advantage: int, heroism_points: int, allocation: dict, log: Log) -> dict:
    """S9.4: check an allocation against the points available and list its effects."""
    available = advantage + tables.COMMANDER_HEROISM_POINT * heroism_points
    problem = check_allocation(available, allocation)
    if problem is not None:
        raise InvalidInput.field("allocation", problem)
    attention = sum(allocation[k] for k in tables.ATTENTION)
    spent = sum(allocation[k] for k in tables.SPENT)
    modifiers = {s: sum(allocation[c] for c in tables.ATTENTION if s in tables.ADVANTAGE_CRITERIA[c]["skills"])
                 for s in tables.SKILLS}
    log.add("S4.11", "advantage.allocation", "{available} points: attention {attention}, spent {spent},"
            " {left} left after spending.", available=available, attention=attention, spent=spent,
            left=available - spent, corps="corps", allocation=allocation)
    return {"available": available, "attention_total": attention, "spent": spent,
            "unallocated": available - attention - spent, "advantage_after_spend": available - spent,
            "skill_modifiers": modifiers, "protection": allocation["protection"], "fury": allocation["fury"],
            "preparation": allocation["preparation"], "movement_bonus": allocation["preparation"],
            "mining_allowed": allocation["preparation"] == 1}
