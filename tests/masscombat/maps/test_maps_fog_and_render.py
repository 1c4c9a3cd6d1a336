"""What a viewer sees on the map, as the battle room builds it: pieces from the engine's visible state for
their side (``pieces_of``), moves from the engine's declaration options for them; and how it is drawn."""

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

from masscombat.battles import adapters
from masscombat.battles.forms import map_pieces
from masscombat.core import engines, explain
from masscombat.maps.render import legend, render_map_svg
from masscombat.maps.selectors import battle_source, pieces_of

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
    state = engines.call("dnd5e", "new-battle", kit.big_setup(), seed=11)["state"]
    state["stands"]["bs1"]["hidden"] = True  # a skirmisher of side B hid (S5.8.5)
    state["stands"]["br1"]["hp"] = 5
    return state


@pytest.fixture
def heros_state():
    kit = _kit("heros_helpers_for_maps", RULES_TESTS / "heros" / "heros_helpers.py")
    state = engines.call("heros", "new-battle", copy.deepcopy(kit.NEW_BATTLE), seed=1)["state"]
    lurker = next(u for u in state["units"] if u["id"] == "b-ps")
    lurker["hidden"] = True  # an ambush (S7.14)
    return state


def _view(state: dict, ruleset: str, side: str | None) -> dict:
    """The map as the room draws it for ``side`` (None: the GM): the engine's visible state, its pieces."""
    answer = engines.visible_state(ruleset, state, side or engines.GM)
    seen = answer["state"]
    return {"source": battle_source(seen), "pieces": pieces_of(seen, ruleset, side, explain.names(ruleset, answer)),
            "hidden": answer["hidden"]}


def _moves(state: dict, ruleset: str, side: str, participant: dict, piece: str) -> list:
    """The cells ``piece`` may end a move on, as the room's forms offer them to ``side``: the last cell of each
    path of the engine's options (for that viewer) whose map piece is ``piece``."""
    adapter = adapters.get(ruleset)
    options = engines.declaration_options(ruleset, state, participant, side)["options"]
    ends = []
    for option in options:
        if map_pieces([option], adapter, state) == [piece]:
            ends += [path[-1] for path in option.get("allowed") or [] if isinstance(path, list) and path]
    return ends


def _ids(view):
    return {p["id"] for p in view["pieces"]}


def test_hidden_stand_never_reaches_the_other_side(dnd_state):
    for_a = _view(dnd_state, "dnd5e", "A")
    svg = render_map_svg(for_a["source"], pieces=for_a["pieces"])
    assert "bs1" not in _ids(for_a) and "bs1" not in svg
    hidden_at = dnd_state["stands"]["bs1"]["position"]
    assert 'data-piece="bs1"' not in svg
    assert all(p["at"] != hidden_at for p in for_a["pieces"])
    assert "stands.bs1" in for_a["hidden"]
    # Its own side and the GM see it, marked hidden.
    for viewer in ("B", None):
        view = _view(dnd_state, "dnd5e", viewer)
        mine = next(p for p in view["pieces"] if p["id"] == "bs1")
        assert "hidden" in mine["badges"]


def test_the_other_side_sees_a_wound_not_hit_points(dnd_state):
    for_a = _view(dnd_state, "dnd5e", "A")
    br1 = next(p for p in for_a["pieces"] if p["id"] == "br1")
    assert "wounded" in br1["badges"] and br1["side"] == "B" and not br1["mine"]
    assert all(p["mine"] == (p["side"] == "A") for p in for_a["pieces"])


def test_a_side_is_offered_no_move_of_an_enemy_or_hidden_piece(dnd_state):
    with pytest.raises(engines.Refused):  # a side asks only about its own participants
        engines.declaration_options("dnd5e", dnd_state, {"kind": "unit", "id": dnd_state["stands"]["br1"]["unit"]}, "A")
    adapter = adapters.get("dnd5e")
    for unit in ("a_sk", "a_reg"):
        options = engines.declaration_options("dnd5e", dnd_state, {"kind": "unit", "id": unit}, "A")["options"]
        moved = set(map_pieces(options, adapter, dnd_state))
        assert moved and moved <= set(dnd_state["units"][unit]["stands"])


def test_moves_offered_on_the_map_are_the_engines_for_the_viewer(dnd_state):
    ends = _moves(dnd_state, "dnd5e", "A", {"kind": "unit", "id": "a_sk"}, "as1")
    assert ends
    answer = engines.call("dnd5e", "declaration-options",
                          {"state": dnd_state, "participant": {"kind": "unit", "id": "a_sk"}, "viewer": "A"})
    paths = next(o for o in answer["options"] if o["path"] == "units.a_sk.stands[0].move")["allowed"]
    assert [path[-1] for path in paths] == ends
    view = _view(dnd_state, "dnd5e", "A")
    svg = render_map_svg(view["source"], pieces=view["pieces"], highlights=ends)
    assert svg.count('class="hl"') == len(ends)


def test_after_a_stand_falls_the_next_ones_moves_are_its_own(dnd_state):
    """The engine numbers a unit's stands among those in play: ``stands[1]`` is ar3 once ar2 is eliminated."""
    assert dnd_state["units"]["a_reg"]["stands"][:3] == ["ar1", "ar2", "ar3"]
    dnd_state["stands"]["ar2"].update(status="eliminated", position=None)
    options = engines.declaration_options("dnd5e", dnd_state, {"kind": "unit", "id": "a_reg"}, "A")["options"]
    assert next(o for o in options if o["path"] == "units.a_reg.stands[1].stand")["allowed"] == ["ar3"]
    second = next(o for o in options if o["path"] == "units.a_reg.stands[1].move")["allowed"]
    ends = {tuple(path[-1]) for path in second}
    assert ends and {tuple(square) for square in _moves(dnd_state, "dnd5e", "A", {"kind": "unit", "id": "a_reg"},
                                                         "ar3")} == ends


def test_heros_lurker_is_invisible_to_the_other_side(heros_state):
    for_red = _view(heros_state, "heros", "red")
    assert "b-ps" not in _ids(for_red)
    assert "b-ps" not in render_map_svg(for_red["source"], pieces=for_red["pieces"])
    assert "b-ps" in _ids(_view(heros_state, "heros", "blue"))
    assert "b-ps" in _ids(_view(heros_state, "heros", None))


def test_heros_moves_are_hexes(heros_state):
    ends = _moves(heros_state, "heros", "red", {"kind": "unit", "id": "r-bd"}, "r-bd")
    assert ends and all(set(h) == {"col", "row"} for h in ends)


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


def test_pieces_of_a_visible_state_and_zone_placement(zones_map):
    from masscombat.maps.engine import engine_map

    state = {"map": engine_map(zones_map), "armies": {"n": {"side": "a", "name": "Nord"}, "s": {"side": "b"}},
             "corps": {"c1": {"army_id": "n", "zone": "ford", "status": "active"},
                       "c2": {"army_id": "s", "zone": "woods", "status": "active"}}}
    pieces = pieces_of(state, "jdrwiki", "a", {"n": "Nord", "c1": "Nord (c1)"})
    assert {(p["id"], p["at"], p["mine"]) for p in pieces} == {("c1", "ford", True), ("c2", "woods", False)}
    # labels and titles from the names given: an id the names leave out is never dressed as a name
    assert {(p["id"], p["label"], p["title"]) for p in pieces} == {("c1", "Nor", "Nord (c1)"), ("c2", "c2", "c2")}
    source = battle_source(state, zones_map)
    assert source["data"]["zones"]["woods"]["at"] == zones_map.data["zones"]["woods"]["at"]
    svg = render_map_svg(source, pieces=pieces)
    assert 'data-piece="c1"' in svg and 'data-c="hill"' in svg
