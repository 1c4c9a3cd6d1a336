"""The S6 tables, read once from ``tables.yaml`` and exposed as lookups.

The YAML file is the only place the spec's numbers live; this module only
reshapes them into the dictionaries the engine queries (by skill, by action,
by terrain characteristic...).  Nothing here is mutable after import.
"""

from __future__ import annotations

from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml

_DATA: dict[str, Any] = yaml.safe_load(resources.files(__package__).joinpath("tables.yaml").read_text("utf-8"))

CRITERIA: tuple[str, ...] = tuple(c["id"] for c in _DATA["criteria"])
CHARACTERISTICS: tuple[str, ...] = ("str", "dex", "con", "int", "wis", "cha")
CHAR_CRITERIA = MappingProxyType({c["id"]: tuple(c["criteria"]) for c in _DATA["characteristics"]})
CAPPED_CHARACTERISTICS = tuple(c["id"] for c in _DATA["characteristics"] if c.get("capped_by_commander"))
CHARACTERISTIC_BASE: int = _DATA["characteristic_base"]

SKILLS: tuple[str, ...] = tuple(s["id"] for s in _DATA["skills"])
SKILL_GROUP = MappingProxyType({s["id"]: s["group"] for s in _DATA["skills"]})
SKILL_CHAR = MappingProxyType({s["id"]: s["characteristic"] for s in _DATA["skills"]})
SKILL_CRITERIA = MappingProxyType({s["id"]: tuple(s["criteria"]) for s in _DATA["skills"]})
OFFENSIVE_SKILLS = tuple(s for s in SKILLS if SKILL_GROUP[s] == "offensive")
DEFENSIVE_SKILLS = tuple(s for s in SKILLS if SKILL_GROUP[s] == "defensive")
PASSIVE_SKILLS = DEFENSIVE_SKILLS + ("perception",)

ACTIONS = MappingProxyType({a["id"]: a for a in _DATA["actions"]})
OFFENSIVE_COUNTER_ALLOWED = frozenset(_DATA["offensive_counter_allowed"])

TERRAIN = MappingProxyType(_DATA["terrain"])
TERRAIN_KEYS: tuple[str, ...] = tuple(_DATA["terrain"])
TERRAIN_MAX = MappingProxyType({k: v["max_level"] for k, v in _DATA["terrain"].items()})
EXIT_COST_BASE: int = _DATA["exit_cost_base"]
TERRAIN_MODIFICATION = MappingProxyType(_DATA["terrain_modification"])

HERO_CLASSES: tuple[dict, ...] = tuple(_DATA["hero_classes"])
HERO_BONUS_TARGETS: tuple[str, ...] = tuple(_DATA["hero_bonus_targets"])

STRATEGIST = MappingProxyType({r["rank"]: r for r in _DATA["strategist_ranks"]} | {0: _DATA["no_strategist"]})
TALENTS = MappingProxyType({t["id"]: t for t in _DATA["talents"]})
TALENT_ALLOWANCE = MappingProxyType(_DATA["talent_allowance"])
ARMY_LEVEL = MappingProxyType(_DATA["army_level"])

MINIMUM_PARTICIPANTS: int = _DATA["minimum_participants"]
ROUND_DURATIONS: tuple[dict, ...] = tuple(_DATA["round_durations"])
FATIGUE_AFTER_MINUTES: int = _DATA["fatigue_after_minutes"]

ADVANTAGE_CRITERIA = MappingProxyType({c["id"]: c for c in _DATA["advantage_criteria"]})
ATTENTION = tuple(c["id"] for c in _DATA["advantage_criteria"] if c["kind"] == "attention")
SPENT = tuple(c["id"] for c in _DATA["advantage_criteria"] if c["kind"] == "spent")
COMMANDER_HEROISM_POINT: int = _DATA["commander_heroism_point"]

CRITICAL_OPTIONS: tuple[str, ...] = tuple(o["id"] for o in _DATA["critical_options"])
DURATION = MappingProxyType({int(k): v for k, v in _DATA["duration_d6_2_4"].items()})


def round_minutes(participants: int) -> int | None:
    """S6.12: minutes per round, or ``None`` below the battle minimum."""
    for row in ROUND_DURATIONS:
        if participants >= row["min"] and (row["max"] is None or participants <= row["max"]):
            return row["minutes"]
    return None


def action_cost(action: dict) -> int:
    """S6.5 cost; a move costs one point per move step."""
    cost = ACTIONS[action["action"]]["cost"]
    return action.get("moves") or 1 if cost == "moves" else cost
