"""The S6 tables of the spec, loaded once from ``tables.yaml``.

The YAML file is the spec's blocks transcribed once, keyed by section id
(``"S6.8.2"``); every rule module reads its numbers from here so that no
table is ever retyped in code.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml


def _load(name: str) -> dict[str, Any]:
    text = resources.files("rules.heros").joinpath(name).read_text(encoding="utf-8")
    return yaml.safe_load(text)


TABLES: dict[str, Any] = _load("tables.yaml")
# English labels of the risk, wound and rally modifiers (the spec gives French ones only).
LABELS: dict[str, Any] = _load("labels.yaml")

TROOP_TYPES: dict[str, dict[str, Any]] = TABLES["S6.2"]["troop_types"]
PSEUDO_TYPES: dict[str, dict[str, Any]] = TABLES["S6.2"]["pseudo_types"]
NOT_INFANTRY: frozenset[str] = frozenset(TABLES["S6.2"]["not_infantry"])
MOUNTED_FOR_CHARACTER_MOVEMENT: frozenset[str] = frozenset(TABLES["S6.2"]["mounted_for_character_movement"])
DEFAULTS: dict[str, Any] = TABLES["S6.2"]["defaults_everything_else"]
MOVEMENT = TABLES["S6.3"]
ACTION_COSTS = TABLES["S6.4"]
LIMITS_MARCH: int = ACTION_COSTS["limits"]["march_move_enemy_distance"]
MOVE_COST: int = ACTION_COSTS["action_costs"]["move"]["base"]
HOLD_COST: int = TABLES["S6.5"]["hold"]["cost"]
MODIFIERS: dict[str, dict[str, Any]] = TABLES["S6.6"]["modifiers"]
PRECEDENCE = TABLES["S6.8.0"]
HIGHER_EQUAL = TABLES["S6.8.1"]
BEATEN = TABLES["S6.8.2"]["beaten"]
DOUBLED = TABLES["S6.8.3"]["doubled"]
SPIRIT = TABLES["S6.8.5"]["spirit"]
RISK = TABLES["S6.10"]
WOUNDS = TABLES["S6.11"]
WOUND_MODIFIERS = TABLES["S6.12"]["wound_modifiers"]
EVOLUTION = TABLES["S6.13"]["wound_evolution"]
CAPTIVES = TABLES["S6.14"]
RALLY = TABLES["S6.15"]["rally"]
NUMBERS: dict[str, Any] = TABLES["S6.17"]["numbers"]

TYPE_CODES: tuple[str, ...] = tuple(TROOP_TYPES)
COMBATANT_CODES: tuple[str, ...] = TYPE_CODES + tuple(PSEUDO_TYPES)
SEVERITY: list[str] = WOUNDS["wound_table"]["severity_order"]


def modifier(mid: str, value: int, label: str | None = None) -> dict[str, Any]:
    """One entry of an output ``modifiers`` list (S9.0)."""
    if label is None:
        label = MODIFIERS[mid]["label"] if mid in MODIFIERS else LABELS["modifiers"][mid]
    return {"id": mid, "label": label, "value": value}
