"""A stored map in the words of its campaign's rules engine.

:func:`engine_map` is what the battles app puts under ``"map"`` in the
engine's ``new-battle`` input; :func:`new_battle_fields` adds what else of a
battle's setup the map carries (D&D 5e objective squares).  The engines own
the meaning of every value: nothing here interprets terrain.
"""

from __future__ import annotations

import copy


def _parts(battle_map) -> tuple[str, int, int, dict]:
    return battle_map.kind, battle_map.width, battle_map.height, battle_map.data or {}


def engine_map(battle_map) -> dict:
    """The map exactly as the engine's ``new-battle`` reads it (dnd5e S3.7, heros S3.1, jdrwiki S3.6)."""
    kind, width, height, data = _parts(battle_map)
    if kind == "square":
        return {"width": width, "height": height, "cells": copy.deepcopy(data.get("cells", []))}
    if kind == "hex":
        return {"width": width, "height": height, "hexes": copy.deepcopy(data.get("hexes", []))}
    zones = data.get("zones", {})
    return {
        "zones": {
            zone_id: {"name": zone.get("name", ""), "neighbors": list(zone.get("neighbors", [])),
                      "terrain": dict(zone.get("terrain", {}))}
            for zone_id, zone in zones.items()
        }
    }


def new_battle_fields(battle_map) -> dict:
    """The fields of a ``new-battle`` input that come from the map: ``map`` and, in D&D 5e, ``objective_squares``.

    The battle's objectives (which side pursues which square) are chosen at
    battle setup; the squares themselves, with their hit points and victory
    points (dnd5e S3.8), are part of the map.
    """
    fields = {"map": engine_map(battle_map)}
    if battle_map.kind == "square":
        fields["objective_squares"] = copy.deepcopy((battle_map.data or {}).get("objective_squares", {}))
    return fields

