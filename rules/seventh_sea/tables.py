"""The S6 tables, read once from ``tables.yaml`` and looked up by rule.

The YAML file is the only place where a table value is written; this module
turns it into the small lookups the engine needs (personal table cell, unit
modifier, strategy matrix cell, numerical advantage band, volley wounds...).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def data() -> dict[str, Any]:
    """The parsed YAML (read on first use; never mutated)."""
    text = resources.files(__package__).joinpath("tables.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def enum(name: str) -> tuple[str, ...]:
    """An enumeration of S6.12, in its spec order."""
    return tuple(data()[name])


SIDES: tuple[str, ...] = enum("side")
ENGAGEMENTS: tuple[str, ...] = enum("engagement")
SITUATIONS: tuple[str, ...] = enum("situation")
UNIT_TYPES: tuple[str, ...] = enum("unit_type")
COMMISSIONS: tuple[str, ...] = enum("commission")
STRATEGIES: tuple[str, ...] = enum("strategy")
OPPORTUNITIES: tuple[str, ...] = enum("opportunity")
STATUSES: tuple[str, ...] = enum("status")
TARGET_KINDS: tuple[str, ...] = enum("volley_target_kind")


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


# -- S6.1 personal table ----------------------------------------------------
def personal_column(engagement: str, situation: str) -> int:
    column = data()["personal_roll_column"]
    return column["engagement_index"][engagement] + column["situation_offset"][situation]


def personal_row(total: int) -> dict[str, Any]:
    """The row of S6.1 for a total; totals below the first row use it (H2)."""
    for row in data()["personal_roll_table"]:
        if (row["min"] is None or total >= row["min"]) and (row["max"] is None or total <= row["max"]):
            return row
    raise AssertionError(f"S6.1 has no row for {total}")  # the table covers every integer


def personal_cell(total: int, engagement: str, situation: str) -> tuple[str, int, int, int, bool]:
    """``(row, column, damage_dice, reputation, heroic_opportunity)`` for a total."""
    row = personal_row(total)
    column = personal_column(engagement, situation)
    damage, reputation, opportunity = row["cells"][column]
    return row["row"], column, damage, reputation, opportunity


# -- S6.2 to S6.7 general and personal modifiers -----------------------------
def unit_modifiers(unit_type: str) -> dict[str, int]:
    return dict(data()["unit_modifiers"][unit_type])


def strategy_modifier(attacker_strategy: str, defender_strategy: str) -> int:
    tables = data()
    return tables["strategy_matrix"][attacker_strategy][tables["strategy_order"].index(defender_strategy)]


def strategy_code(strategy: str) -> str:
    return data()["strategy_codes"][strategy]


def terrain_modifiers() -> dict[str, int]:
    return dict(data()["terrain_modifiers"])


def numbers_modifier(ratio: int) -> int:
    """S6.5: the band of the largest ratio reached (ratios above the last use the last)."""
    best = 0
    for band in data()["numerical_advantage"]:
        if ratio >= band["ratio"]:
            best = band["modifier"]
    return best


def hero_impact() -> dict[str, int]:
    return dict(data()["hero_impact"])


def fortification_range() -> tuple[int, int]:
    low, high = data()["fortification"]["level_range"]
    return low, high


# -- S6.8 / S6.9 volleys -----------------------------------------------------
def salvo_contribution() -> dict[str, Any]:
    return dict(data()["salvo_contribution"])


def hit_faces() -> tuple[int, ...]:
    return tuple(data()["hit_faces"])


def charge_salvo() -> int:
    return data()["charge_their_ranks_salvo"]


def volley_wounds(tn_to_be_hit: int) -> tuple[int, int]:
    """``(tn_row, flesh wounds per hit)``: TN rounded down to a multiple of 5, capped at the last row (H36)."""
    table = data()["volley_wounds_by_tn"]
    step = min(table)
    tn_row = min(max(table), step * (tn_to_be_hit // step))
    return tn_row, table[tn_row]


# -- S6.10 heroic opportunities -----------------------------------------------
@cache
def _opportunities() -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in data()["heroic_opportunities"]}


def opportunity(kind: str) -> dict[str, Any]:
    return _opportunities()[kind]


def opportunity_input(kind: str, name: str) -> dict[str, Any]:
    """The S6.10 definition of one GM or player input of an opportunity."""
    entry = opportunity(kind)
    for field in entry.get("gm_inputs", []) + entry.get("player_inputs", []):
        if field["name"] == name:
            return field
    raise KeyError(name)


# -- S6.11 preparation ---------------------------------------------------------
def preparation() -> dict[str, Any]:
    return dict(data()["preparation"])
