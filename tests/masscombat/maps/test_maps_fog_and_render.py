"""What a viewer sees on the map: only the engine's visible state for their side; and how it is drawn."""

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

from masscombat.maps.render import legend, render_map_svg
from masscombat.maps.selectors import map_view
from rules import registry

RULES_TESTS = Path(__file__).resolve().parents[2] / "rules"


def _kit(name: str, path: Path):
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def dnd_state():
    kit = _kit("dnd5e_testkit", RULES_TESTS / "dnd5e" / "conftest.py")
    state = registry.run("dnd5e", "new-battle", kit.big_setup(), seed=11)["state"]
    state["stands"]["bs1"]["hidden"] = True  # a skirmisher of side B hid (S5.8.5)
    state["stands"]["br1"]["hp"] = 5
    return state


@pytest.fixture
def heros_state():
    kit = _kit("heros_helpers_for_maps", RULES_TESTS / "heros" / "heros_helpers.py")
    state = registry.run("heros", "new-battle", copy.deepcopy(kit.NEW_BATTLE), seed=1)["state"]
    lurker = next(u for u in state["units"] if u["id"] == "b-ps")
    lurker["hidden"] = True  # an ambush (S7.14)
    return state


def _ids(view):
    return {p["id"] for p in view["pieces"]}


def test_hidden_stand_never_reaches_the_other_side(dnd_state):
    for_a = map_view(dnd_state, "dnd5e", "A")
    svg = render_map_svg(for_a["source"], pieces=for_a["pieces"])
    assert "bs1" not in _ids(for_a) and "bs1" not in svg
    hidden_at = dnd_state["stands"]["bs1"]["position"]
    assert f'data-piece="bs1"' not in svg
    assert all(p["at"] != hidden_at for p in for_a["pieces"])
    assert "stands.bs1" in for_a["hidden"]
    # Its own side and the GM see it, marked hidden.
    for viewer in ("B", None):
        view = map_view(dnd_state, "dnd5e", viewer)
        mine = next(p for p in view["pieces"] if p["id"] == "bs1")
        assert "hidden" in mine["badges"]


def test_the_other_side_sees_a_wound_not_hit_points(dnd_state):
    for_a = map_view(dnd_state, "dnd5e", "A")
    br1 = next(p for p in for_a["pieces"] if p["id"] == "br1")
    assert "wounded" in br1["badges"] and br1["side"] == "B" and not br1["mine"]
    assert all(p["mine"] == (p["side"] == "A") for p in for_a["pieces"])


def test_selecting_an_enemy_or_hidden_piece_shows_no_moves(dnd_state):
    assert map_view(dnd_state, "dnd5e", "A", selected_piece="br1")["highlights"] == []
    assert map_view(dnd_state, "dnd5e", "A", selected_piece="bs1")["highlights"] == []


def test_legal_moves_come_from_the_engine(dnd_state):
    view = map_view(dnd_state, "dnd5e", "A", selected_piece="as1")
    assert view["highlights"]
    for square in view["highlights"][:5]:
        path_ok = registry.run("dnd5e", "declaration-options",
                               {"state": dnd_state, "participant": {"kind": "unit", "id": "a_sk"}})
        paths = next(o for o in path_ok["options"] if o["path"] == "units.a_sk.stands[0].move")["allowed"]
        assert any(path[-1] == square for path in paths)
    svg = render_map_svg(view["source"], pieces=view["pieces"], highlights=view["highlights"])
    assert svg.count('class="hl"') == len(view["highlights"])


def test_after_a_stand_falls_the_next_ones_moves_are_its_own(dnd_state):
    """The engine numbers a unit's stands among those in play: ``stands[1]`` is ar3 once ar2 is eliminated."""
    assert dnd_state["units"]["a_reg"]["stands"][:3] == ["ar1", "ar2", "ar3"]
    dnd_state["stands"]["ar2"].update(status="eliminated", position=None)
    view = map_view(dnd_state, "dnd5e", "A", selected_piece="ar3")
    options = registry.run("dnd5e", "declaration-options",
                           {"state": dnd_state, "participant": {"kind": "unit", "id": "a_reg"}})["options"]
    assert next(o for o in options if o["path"] == "units.a_reg.stands[1].stand")["allowed"] == ["ar3"]
    second = next(o for o in options if o["path"] == "units.a_reg.stands[1].move")["allowed"]
    ends = {tuple(path[-1]) for path in second}
    assert ends and {tuple(square) for square in view["highlights"]} == ends


def test_heros_lurker_is_invisible_to_the_other_side(heros_state):
    for_red = map_view(heros_state, "heros", "red")
    assert "b-ps" not in _ids(for_red)
    assert "b-ps" not in render_map_svg(for_red["source"], pieces=for_red["pieces"])
    assert "b-ps" in _ids(map_view(heros_state, "heros", "blue"))
    assert "b-ps" in _ids(map_view(heros_state, "heros", None))


def test_heros_moves_are_hexes(heros_state):
    view = map_view(heros_state, "heros", "red", selected_piece="r-bd")
    assert view["highlights"] and all(set(h) == {"col", "row"} for h in view["highlights"])


def test_each_kind_draws_its_cells_and_pieces():
    square = render_map_svg({"width": 3, "height": 2, "cells": [{"at": [1, 0], "terrain": "forest"}]},
                            pieces=[{"id": "s1", "at": [0, 0], "label": "Orc", "side_index": 1,
                                     "badges": ["wounded", "isolated"], "kind": "stand"}],
                            template=[[2, 1]])
    assert square.count('class="cell ') == 6 and 't-forest" data-c="1,0"' in square
    assert 'data-piece="s1"' in square and "side-1" in square and "b-wounded" in square and "b-isolated" in square
    assert square.count('class="tpl"') == 1
    hexes = render_map_svg({"width": 4, "height": 3, "hexes": [{"col": 1, "row": 2, "terrain": "impassable"}]},
                           pieces=[{"id": "u1", "at": {"col": 1, "row": 1}, "kind": "unit"},
                                   {"id": "c1", "at": {"col": 1, "row": 1}, "kind": "character"}])
    assert hexes.count("<polygon") == 12 and 'data-c="1,2"' in hexes and "<circle" in hexes
    zones = render_map_svg({"zones": {"a": {"neighbors": ["b"], "terrain": {"cover": 2}}, "b": {"neighbors": ["a"]}}},
                           pieces=[{"id": "n1", "at": "b", "kind": "corps"}], highlights=["a"])
    assert zones.count('class="link"') == 1 and 'data-c="a"' in zones and 'class="hl"' in zones


def test_text_is_escaped():
    svg = render_map_svg({"kind": "zones", "width": 2, "height": 1,
                          "data": {"zones": {"z<1>": {"name": "<script>alert(1)</script>", "at": [0, 0]}}}},
                         pieces=[{"id": '"><b>', "at": "z<1>", "label": "<i>", "title": "&"}])
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg


def test_legend_lists_what_is_drawn():
    source = {"width": 3, "height": 3, "hexes": [{"col": 0, "row": 0, "terrain": "rough", "river": True}]}
    keys = dict(legend(source, [{"id": "u", "badges": ["routed"]}]))
    assert {"t-open", "t-rough", "f-river", "b-routed"} <= set(keys)


def test_area_preview_is_the_engines_template_drawn_on_the_map(dnd_state):
    from masscombat.maps.selectors import area_preview
    from rules.errors import InvalidInput

    squares = area_preview(dnd_state, shape="sphere", size_m=6, origin=[8, 6])
    engine = registry.run("dnd5e", "area-template", {"shape": "sphere", "size_m": 6, "origin": [8, 6],
                                                     "map": {"width": dnd_state["map"]["width"],
                                                             "height": dnd_state["map"]["height"]}})
    assert squares == engine["squares"] and len(squares) > 1
    view = map_view(dnd_state, "dnd5e", "A")
    svg = render_map_svg(view["source"], pieces=view["pieces"], template=squares)
    assert svg.count('class="tpl"') == len(squares)
    with pytest.raises(InvalidInput):
        area_preview(dnd_state, shape="cone", size_m=9, origin=[8, 6])


def test_pieces_of_a_visible_state_and_zone_placement(zones_map):
    from masscombat.maps.engine import engine_map
    from masscombat.maps.selectors import battle_source, pieces_of

    state = {"map": engine_map(zones_map), "armies": {"n": {"side": "a", "name": "Nord"}, "s": {"side": "b"}},
             "corps": {"c1": {"army_id": "n", "zone": "ford", "status": "active"},
                       "c2": {"army_id": "s", "zone": "woods", "status": "active"}}}
    pieces = pieces_of(state, "jdrwiki", "a")
    assert {(p["id"], p["at"], p["mine"]) for p in pieces} == {("c1", "ford", True), ("c2", "woods", False)}
    source = battle_source(state, zones_map)
    assert source["data"]["zones"]["woods"]["at"] == zones_map.data["zones"]["woods"]["at"]
    svg = render_map_svg(source, pieces=pieces)
    assert 'data-piece="c1"' in svg and 'data-c="hill"' in svg
