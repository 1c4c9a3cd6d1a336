"""The S6 tables of the SYNAPSE spec, read once from ``tables.yaml``.

The YAML file is the only place where table values live; every rule reads
them through :func:`tables` (a cached, read-only load) and the small lookups
below, so that a number of the source is never retyped in the code.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def tables() -> dict[str, Any]:
    """All tables of S6, keyed as in the spec's YAML blocks."""
    text = resources.files(__package__).joinpath("tables.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def troop_type(unit_type: str) -> dict[str, Any]:
    """S6.2 row of a troop type."""
    return tables()["troop_types"][unit_type]


def quality_of(combat: int, table: str = "troop_quality") -> str:
    """S6.3 (troops) or S6.10 (crews): the quality label of a combat rating."""
    for row in tables()[table]:
        low, high = row["combat_min"], row["combat_max"]
        if (low is None or combat >= low) and (high is None or combat <= high):
            return row["quality"]
    raise AssertionError(f"no quality row for combat {combat}")  # the rows cover every integer


def distance_modifier(distance: str) -> int:
    """S6.13: the difficulty a range adds."""
    return tables()["distance_modifier"][distance]["modifier"]


def state_penalty(damage_state: str, routed: bool) -> int:
    """S6.5: the combat penalty of the worst applicable state (H20)."""
    if routed:
        return tables()["routed"]["combat"]
    return tables()["damage_states"][damage_state]["combat"]


def fortification(cls: str) -> dict[str, Any]:
    """S6.9 row of a fortification class."""
    return tables()["fortifications"][cls]


def vehicle_combat(combat_type: str) -> dict[str, Any]:
    """S6.11 row of a vehicle combat type."""
    return tables()["vehicle_combat"][combat_type]


def experience_row(result: str) -> dict[str, Any]:
    """S6.8 row of a battle result."""
    return tables()["experience_by_result"][result]
