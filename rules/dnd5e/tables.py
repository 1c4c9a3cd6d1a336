"""The S6 tables of the spec, loaded once from ``tables.yaml``.

The YAML is the only place the numbers live; this module names the pieces
the engine reads so that no table is retyped in code.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def _tables() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("tables.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def table(key: str) -> Any:
    """One S6 table by its YAML key (``"S6.10_numbers"``...)."""
    return _tables()[key]


_SIZES = table("S6.1_size_space")
FOOTPRINT: dict[str, int] = {size: row["footprint_side"] for row in _SIZES["rows"] for size in row["sizes"]}
STAND_ALLOWED: dict[str, bool] = {size: row["stand_allowed"] for row in _SIZES["rows"] for size in row["sizes"]}
SIZE_RANK: dict[str, int] = dict(_SIZES["size_rank"])

NUMBERS: dict[str, Any] = dict(table("S6.10_numbers"))

_TERRAIN = table("S6.2_terrain")["terrains"]
ALWAYS_DIFFICULT = frozenset(t for t, row in _TERRAIN.items() if row["difficult"] == "always")
MAY_BE_ELEVATED = frozenset(t for t, row in _TERRAIN.items() if row["may_be_elevated"])
TERRAINS = tuple(_TERRAIN)

_CONFIGS = table("S6.4_configurations")
CONFIGURATIONS = tuple(c for c in _CONFIGS if isinstance(_CONFIGS[c], dict) and "ac_bonus" in _CONFIGS[c])
HALF_SPEED_CONFIGS = frozenset(c for c in CONFIGURATIONS if _CONFIGS[c]["movement"].startswith("half"))
CONFIG_AC_BONUS: dict[str, int] = {c: _CONFIGS[c]["ac_bonus"] for c in CONFIGURATIONS}
ATTACK_ALLOWED: dict[str, bool] = {c: _CONFIGS[c]["attack_allowed"] for c in CONFIGURATIONS}

_ACTIONS = table("S6.5_actions")
ACTION_ORDER: list[str] = list(_ACTIONS["canonical_order"])
ALLOWED_ACTIONS: dict[str, list[str]] = dict(_ACTIONS["allowed_actions_lists"])
BROKEN_ACTIONS: list[str] = list(_ACTIONS["broken_unit"])
ACTION_WHO: dict[str, dict[str, Any]] = {a: _ACTIONS[a] for a in ACTION_ORDER + ["none"]}

_MODS = table("S6.7_attack_modifiers")
ADVANTAGE_ORDER: list[str] = [row["id"] for row in _MODS["advantage"]]
DISADVANTAGE_ORDER: list[str] = [row["id"] for row in _MODS["disadvantage"]]

OCCUPANCY: dict[str, dict[str, list]] = {
    k: v for k, v in table("S6.15_occupancy").items() if isinstance(v, dict)
}

CONVERSIONS: dict[str, list[dict]] = {
    k: v for k, v in table("S6.14_conversions").items() if isinstance(v, list)
}
AREA_EXAMPLES: list[dict] = list(table("S6.9_area_templates")["examples"])
