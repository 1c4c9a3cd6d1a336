"""A demo map for each ruleset played on one, for ``manage.py demo``.

Running it again finds the map by name and creates nothing.
"""

from masscombat.maps import services
from masscombat.maps.kinds import kind_of_campaign
from masscombat.maps.models import BattleMap


def _ford() -> dict:
    """D&D 5e, 20 x 14 squares: a river with a ford and a bridge, woods, a hill."""
    cells = {}
    for y in range(14):
        cells[(10, y)] = {"terrain": "deep_water"}
        cells[(11, y)] = {"terrain": "shallow_water"}
    for y in (6, 7):
        cells[(10, y)] = {"terrain": "shallow_water"}
    for x in range(20):
        if x not in (10, 11):
            cells[(x, 3)] = {"terrain": "road"}
    for x, y in [(3, 8), (4, 8), (3, 9), (4, 9), (5, 9), (4, 10), (15, 10), (16, 10), (16, 11), (17, 11)]:
        cells[(x, y)] = {"terrain": "forest"}
    for x, y, level in [(15, 2, 1), (16, 2, 1), (15, 1, 2), (16, 1, 1), (17, 2, 1)]:
        cells[(x, y)] = {"terrain": "open", "elevation": level}
    for x, y in [(6, 12), (7, 12), (7, 13)]:
        cells[(x, y)] = {"terrain": "open", "difficult": True}
    return {
        "cells": [{"at": [x, y], **cell} for (x, y), cell in cells.items()],
        "objective_squares": {"pont": {"at": [10, 3], "hp_max": 40, "vp": 3, "ac": 15}},
    }


def _plain() -> dict:
    """HÉROS, 16 x 12 hexes: a wood, a river with its banks, a village, a hill."""
    hexes = {}
    for row in range(12):
        hexes[(8, row)] = {"river": True}
        hexes[(7, row)] = {"river_bank": True}
    for col, row in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3)]:
        hexes[(col, row)] = {"terrain": "rough", "wooded": True, "feature_id": "Bois Noir"}
    for col, row in [(11, 8), (12, 8), (12, 9)]:
        hexes[(col, row)] = {"built_up": True, "wall": col == 12 and row == 8, "feature_id": "Hameau"}
    for col, row, level in [(13, 2, 1), (14, 2, 1), (13, 3, 2), (14, 3, 1)]:
        hexes[(col, row)] = {"elevation": level}
    hexes[(4, 9)] = {"terrain": "difficult", "feature_id": "Marais"}
    hexes[(5, 9)] = {"terrain": "difficult", "feature_id": "Marais"}
    return {"hexes": [{"col": c, "row": r, **h} for (c, r), h in hexes.items()]}


def _valley() -> dict:
    """JdRWiki, six zones: a ford between two banks, a hill, a wood and a walled town."""
    return {"zones": {
        "north": {"name": "Rive nord", "neighbors": ["ford", "hill"], "at": [0, 0]},
        "hill": {"name": "Colline des Guetteurs", "neighbors": ["north", "wood"], "terrain": {"heights": 2},
                 "at": [2, 0]},
        "ford": {"name": "Le gué", "neighbors": ["north", "south"], "terrain": {"unstable_ground": 2},
                 "at": [1, 1]},
        "wood": {"name": "Bois de Loreval", "neighbors": ["hill", "south"], "terrain": {"cover": 2}, "at": [3, 1]},
        "south": {"name": "Rive sud", "neighbors": ["ford", "wood", "town"], "at": [1, 2]},
        "town": {"name": "Loreval", "neighbors": ["south"], "terrain": {"stronghold": 2}, "at": [3, 2]},
    }}


DEMO = {
    "square": ("Le gué de la Rivière-Grise", 20, 14, _ford),
    "hex": ("Plaine de Cendres", 16, 12, _plain),
    "zones": ("Vallée de Loreval", 4, 3, _valley),
}


def load(campaign) -> BattleMap | None:
    kind = kind_of_campaign(campaign)
    if kind is None:
        return None
    name, width, height, data = DEMO[kind]
    existing = BattleMap.objects.filter(campaign=campaign, name=name).first()
    return existing or services.create_map(campaign, name=name, width=width, height=height, data=data())
