"""The stored maps are exactly what each engine's new-battle reads, and bad maps never get stored."""

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

from masscombat.maps import services
from masscombat.maps.engine import engine_map, new_battle_fields
from masscombat.maps.validation import MapInvalid, clean_map
from rules import registry

pytestmark = pytest.mark.django_db
RULES_TESTS = Path(__file__).resolve().parents[2] / "rules"


def _load(name: str, path: Path):
    """The engines' own test set-ups (armies), to start real battles on our maps."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_square_map_starts_a_dnd5e_battle(square_map):
    kit = _load("dnd5e_testkit", RULES_TESTS / "dnd5e" / "conftest.py")
    setup = copy.deepcopy(kit.FORD_SETUP)
    setup.update(new_battle_fields(square_map))
    state = registry.run("dnd5e", "new-battle", setup, seed=1)["state"]
    assert state["map"]["width"] == 8 and state["map"]["height"] == 6
    assert {tuple(c["at"]): c["terrain"] for c in state["map"]["cells"]}[(1, 1)] == "forest"
    assert state["objective_squares"]["bridge"]["hp"] == 40
    assert "objective_squares" in new_battle_fields(square_map)


def test_hex_map_starts_a_heros_battle(hex_map):
    kit = _load("heros_helpers_for_maps", RULES_TESTS / "heros" / "heros_helpers.py")
    setup = copy.deepcopy(kit.NEW_BATTLE)
    setup.update(new_battle_fields(hex_map))
    state = registry.run("heros", "new-battle", setup, seed=1)["state"]
    wood = next(h for h in state["map"]["hexes"] if (h["col"], h["row"]) == (1, 1))
    assert wood["wooded"] and wood["feature_id"] == "Dark wood"
    assert set(new_battle_fields(hex_map)) == {"map"}


def test_zone_map_starts_a_jdrwiki_battle(zones_map):
    kit = _load("jdrwiki_kit_for_maps", RULES_TESTS / "jdrwiki" / "conftest.py")
    setup = copy.deepcopy(kit.NEW_BATTLE)
    setup.pop("dice")
    setup["map"] = engine_map(zones_map)
    setup["armies"][0]["corps"] = [{"id": "n1", "zone": "ford"}]
    setup["armies"][1]["corps"] = [{"id": "s1", "zone": "woods"}]
    state = registry.run("jdrwiki", "new-battle", setup, seed=1)["state"]
    assert state["map"]["zones"]["hill"]["neighbors"] == ["ford", "woods"]
    assert state["map"]["zones"]["hill"]["terrain"]["heights"] == 2
    # The page-only layout never reaches the engine.
    assert all("at" not in zone for zone in engine_map(zones_map)["zones"].values())


def test_stored_links_go_both_ways_and_defaults_are_dropped(zones_map, square_map):
    assert zones_map.data["zones"]["woods"]["neighbors"] == ["hill"]
    assert zones_map.data["zones"]["ford"]["terrain"] == {"unstable_ground": 1}
    cleaned = clean_map("square", 4, 4, {"cells": [{"at": [0, 0]}, {"at": [1, 1], "terrain": "road"}]})
    assert cleaned["cells"] == [{"at": [1, 1], "terrain": "road", "difficult": False, "elevation": 0}]
    assert square_map.data["objective_squares"]["bridge"]["ac"] == 15


@pytest.mark.parametrize(
    ("kind", "width", "height", "data", "field"),
    [
        ("square", 0, 5, {}, "width"),
        ("square", 81, 5, {}, "width"),
        ("hex", 61, 5, {}, "width"),
        ("square", 5, 5, "cells", "data"),
        ("square", 5, 5, {"cells": [{"at": [1, 1], "terrain": "lava"}]}, "cells[0].terrain"),
        ("square", 5, 5, {"cells": [{"at": [7, 1]}]}, "cells[0].at"),
        ("square", 5, 5, {"cells": [{"at": [1, 1]}, {"at": [1, 1], "terrain": "road"}]}, "cells[1].at"),
        ("square", 5, 5, {"cells": [{"at": [1, 1], "elevation": 21}]}, "cells[0].elevation"),
        ("square", 5, 5, {"cells": [{"at": [0, 0]}, {"at": [1, 0], "terrain": "lava"}, {"at": [2, 0], "terrain": "lava"}]},
         "cells[1].terrain"),
        ("square", 5, 5, {"cells": ["forest"]}, "cells[0]"),
        ("square", 5, 5, {"cells": [{"at": [1, "b"]}]}, "cells[0].at"),
        ("square", 5, 5, {"cells": {"at": [1, 1]}}, "cells"),
        ("hex", 5, 5, {"hexes": [{"col": -1, "row": 1}]}, "hexes[0].col"),
        # Rules of the engine, found by its own new-battle (dnd5e S3.7, S3.8):
        ("square", 5, 5, {"cells": [{"at": [1, 1], "terrain": "deep_water", "elevation": 1}]}, "cells[0].elevation"),
        ("square", 5, 5, {"cells": [{"at": [1, 1], "terrain": "forest", "difficult": True}]}, "cells[0].difficult"),
        ("square", 5, 5, {"objective_squares": {"a": {"at": [1, 1], "hp_max": 20, "vp": 1},
                                                "b": {"at": [1, 1], "hp_max": 20, "vp": 1}}}, "objective_squares.b.at"),
        ("square", 5, 5, {"objective_squares": {"a": {"at": [1, 1], "hp_max": 5, "vp": 1}}}, "objective_squares.a.hp_max"),
        ("hex", 5, 5, {"hexes": [{"col": 1, "row": 1, "terrain": "swamp"}]}, "hexes[0].terrain"),
        ("hex", 5, 5, {"hexes": [{"col": 6, "row": 1}]}, "hexes[0]"),
        ("hex", 5, 5, {"hexes": [{"col": 1, "row": 1, "elevation": -4}]}, "hexes[0].elevation"),
        ("zones", 3, 3, {"zones": {"a": {"neighbors": ["nowhere"]}}}, "zones.a.neighbors"),
        ("zones", 3, 3, {"zones": {"a": {"neighbors": ["a"]}}}, "zones.a.neighbors"),
        ("zones", 3, 3, {"zones": {"a": {"terrain": {"cover": 4}}}}, "zones.a.terrain.cover"),
        ("zones", 3, 3, {"zones": {"a": {"at": [5, 0]}}}, "zones.a.at"),
        ("zones", 1, 1, {"zones": {"a": {}, "b": {}}}, "zones"),
        ("zones", 3, 3, {"zones": {}}, "zones"),
    ],
)
def test_bad_maps_are_refused_field_by_field(kind, width, height, data, field):
    with pytest.raises(MapInvalid) as refused:
        clean_map(kind, width, height, data)
    assert field in refused.value.fields, refused.value.fields


def test_a_campaign_without_maps_cannot_get_one(campaign_of):
    with pytest.raises(MapInvalid) as refused:
        services.create_map(campaign_of("synapse"), name="Nope")
    assert "kind" in refused.value.fields


def test_save_checks_the_version_and_a_replayed_save_has_one_effect(square_map):
    data = {"cells": [{"at": [0, 0], "terrain": "road"}]}
    saved = services.save_map(square_map, version=1, name="Ford", width=8, height=6, data=data)
    assert saved.version == 2
    again = services.save_map(square_map, version=1, name="Ford", width=8, height=6, data=data)
    assert again.version == 2
    with pytest.raises(services.StaleMap):
        services.save_map(square_map, version=1, name="Other", width=8, height=6, data=data)
    square_map.refresh_from_db()
    assert (square_map.name, square_map.version) == ("Ford", 2)


def test_invalid_save_changes_nothing(square_map):
    before = (square_map.width, square_map.data, square_map.version)
    with pytest.raises(MapInvalid):
        services.save_map(square_map, version=1, name="Ford", width=8, height=6,
                          data={"cells": [{"at": [0, 0], "terrain": "lava"}]})
    square_map.refresh_from_db()
    assert (square_map.width, square_map.data, square_map.version) == before


def test_export_import_round_trip_and_kind_check(square_map, hex_map, campaign):
    document = services.export_map(square_map)
    copy_ = services.import_map(campaign, document)
    assert (copy_.kind, copy_.width, copy_.data) == ("square", 8, square_map.data)
    with pytest.raises(MapInvalid) as refused:
        services.import_map(campaign, services.export_map(hex_map))
    assert "kind" in refused.value.fields
    with pytest.raises(MapInvalid):
        services.import_map(campaign, {"format": "something else"})


def test_duplicate_is_a_new_map_with_the_same_terrain(square_map):
    twin = services.duplicate_map(square_map)
    assert twin.pk != square_map.pk and twin.data == square_map.data and "The ford" in twin.name


def test_demo_maps_are_valid_and_loaded_once(campaign_of):
    from masscombat.maps import demo

    for ruleset in ("dnd5e", "heros", "jdrwiki"):
        made = campaign_of(ruleset)
        first = demo.load(made)
        assert demo.load(made) == first and made.maps.count() == 1
        assert first.data  # terrain was painted
    assert demo.load(campaign_of("seventh_sea")) is None
