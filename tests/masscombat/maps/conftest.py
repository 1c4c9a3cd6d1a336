"""Maps of each kind in campaigns of the three rulesets that play on one."""

import pytest

from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.maps import services

SQUARE_DATA = {
    "cells": [
        {"at": [1, 1], "terrain": "forest"},
        {"at": [2, 1], "terrain": "road"},
        {"at": [3, 2], "terrain": "deep_water"},
        {"at": [0, 3], "terrain": "open", "difficult": True, "elevation": 2},
    ],
    "objective_squares": {"bridge": {"at": [4, 2], "hp_max": 40, "vp": 3}},
}
HEX_DATA = {
    "hexes": [
        {"col": 1, "row": 1, "terrain": "rough", "wooded": True, "feature_id": "Dark wood"},
        {"col": 2, "row": 2, "river": True},
        {"col": 3, "row": 0, "terrain": "difficult", "elevation": 2, "built_up": True},
    ]
}
ZONES_DATA = {
    "zones": {
        "ford": {"name": "The ford", "neighbors": ["hill"], "terrain": {"unstable_ground": 1}, "at": [0, 0]},
        "hill": {"name": "Grey hill", "neighbors": ["woods"], "terrain": {"heights": 2}, "at": [1, 0]},
        "woods": {"name": "Old woods", "neighbors": [], "terrain": {"cover": 2}, "at": [1, 1]},
    }
}


@pytest.fixture
def square_map(campaign):
    return services.create_map(campaign, name="The ford", width=8, height=6, data=SQUARE_DATA)


@pytest.fixture
def campaign_of(gm, player):
    def make(ruleset: str):
        made = campaign_services.create_campaign(gm, name=f"A {ruleset} campaign", ruleset=ruleset)
        made.memberships.create(user=player, role=Role.PLAYER)
        return made

    return make


@pytest.fixture
def hex_map(campaign_of):
    return services.create_map(campaign_of("heros"), name="Plain of Ash", width=6, height=5, data=HEX_DATA)


@pytest.fixture
def zones_map(campaign_of):
    return services.create_map(campaign_of("jdrwiki"), name="Loreval", width=3, height=2, data=ZONES_DATA)


def _browser_fixtures():
    """The browser tests' chromium and screenshot fixtures, shared rather than copied."""
    import importlib.util
    import sys
    from pathlib import Path

    name = "masscombat_browser_conftest"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "browser" / "conftest.py"
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


browser = _browser_fixtures().browser
screenshot = _browser_fixtures().screenshot
