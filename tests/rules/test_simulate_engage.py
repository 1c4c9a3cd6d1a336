"""The engage policy (battles that end where the spec default orders only hold) and the simulator's fast path.

The fast path skips, on payloads built from the engine's own outputs, the
nesting check ``Ruleset.run`` makes on outside input: the figures must be
exactly those of the plain path, and outside input must still be checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import registry
from rules.errors import InvalidInput
from rules.simulate import preview_round, simulate_battles
from rules.simulate_engage import Sightings, distance, engaging_value, square, whereabouts
from rules.simulate_engine import Engine
from rules.simulate_policy import engage_answer

HERE = Path(__file__).parent


def _synapse() -> dict:
    return json.loads((HERE / "synapse" / "spec_examples.json").read_text())["new-battle"][0]


def _seventh_sea() -> dict:
    return json.loads((HERE / "seventh_sea" / "s9_examples.json").read_text())["new-battle"][0]


def test_squares_come_in_both_shapes_and_nothing_else():
    assert square([3, 4]) == (3, 4) and square({"col": 3, "row": 4}) == (3, 4)
    assert square([3]) is None and square([True, 1]) is None and square({"col": 1}) is None and square("b1") is None
    assert distance((0, 0), (3, -5)) == 5


PATHS = {"path": "units.u.stands[0].move", "type": "list", "default": [], "forbidden": [],
         "allowed": [[[0, 0], [0, 1]], [[0, 0], [1, 1], [2, 2]], [[0, 0], [0, 1], [0, 2]], [[0, 0]]]}


def test_a_path_option_closes_on_the_nearest_enemy_by_the_shortest_path():
    assert engaging_value(PATHS, PATHS["allowed"], [(0, 3), (9, 9)]) == [[0, 0], [0, 1], [0, 2]]
    assert engaging_value(PATHS, PATHS["allowed"], [(3, 3)]) == [[0, 0], [1, 1], [2, 2]]
    assert engaging_value(PATHS, PATHS["allowed"], [(0, -1)]) is None  # no path brings it nearer: it stays
    assert engaging_value(PATHS, PATHS["allowed"], []) is None  # no enemy seen: nothing to close on
    assert whereabouts([PATHS, {"path": "x", "type": "choice", "allowed": [[1, 2]]}]) == [(0, 0)]


def test_orders_that_strike_are_taken_and_the_rest_keeps_its_default():
    options = [
        {"path": "a.action", "type": "choice", "allowed": ["hold", "attack"], "default": "hold", "forbidden": []},
        {"path": "a.melees[].defender_id", "type": "choice", "allowed": [None, "b-1"], "default": None,
         "forbidden": []},
        {"path": "a.actions", "type": "list", "default": [], "forbidden": [],
         "allowed": [{"action": "rally"}, {"action": "assault", "target": "b1"}]},
        {"path": "a.retreat", "type": "boolean", "allowed": [False, True], "default": False, "forbidden": []},
        {"path": "a.stands[0].stand", "type": "choice", "allowed": ["s1"], "default": "s1", "required": True,
         "forbidden": []},
    ]
    assert engage_answer(options, {"a.action": "hold"}, []) == {
        "a.action": "attack", "a.melees[].defender_id": "b-1", "a.actions": [{"action": "assault", "target": "b1"}],
        "a.stands[0].stand": "s1"}


def test_sightings_forget_a_side_not_seen_for_a_while():
    seen = Sightings()
    seen.new_round()
    seen.saw("unit:b", [(5, 5)])
    seen.saw("unit:a", [(0, 0)])
    sides = {"unit:a": "a", "unit:b": "b"}
    assert seen.enemies_of("a", sides) == [(5, 5)] and seen.enemies_of("b", sides) == [(0, 0)]
    seen.new_round()
    seen.new_round()
    assert seen.enemies_of("a", sides) == [(5, 5)]  # still remembered: a side may move every other round
    seen.new_round()
    assert seen.enemies_of("a", sides) == []


def test_engage_ends_the_battles_that_default_orders_never_end():
    held = simulate_battles("synapse", setup=_synapse(), battles=6, seed=3, policy="default", round_cap=12)
    engaged = simulate_battles("synapse", setup=_synapse(), battles=6, seed=3, policy="engage", round_cap=12)
    assert held["unfinished"] == 1.0
    assert engaged["unfinished"] == 0.0 and engaged["errors"] == 0.0, engaged


def _plain(self, operation, payload, seed=None):
    """The simulator's calls as they were before the fast path: every payload checked as outside input."""
    return registry.get(self.slug).run(operation, payload, seed)


@pytest.mark.parametrize("slug,setup,policy", [("synapse", _synapse, "engage"), ("seventh_sea", _seventh_sea, "random")])
def test_the_fast_path_gives_the_figures_of_the_plain_path(slug, setup, policy, monkeypatch):
    fast = simulate_battles(slug, setup=setup(), battles=5, seed=11, policy=policy, round_cap=15)
    state = registry.run(slug, "new-battle", setup(), seed=2)["state"]
    fast_preview = preview_round(slug, state, {}, 20, policy, 4)
    monkeypatch.setattr(Engine, "_run", _plain)
    assert simulate_battles(slug, setup=setup(), battles=5, seed=11, policy=policy, round_cap=15) == fast
    assert preview_round(slug, state, {}, 20, policy, 4) == fast_preview


def _nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_outside_input_is_still_checked_for_nesting():
    with pytest.raises(InvalidInput) as refused:
        simulate_battles("synapse", setup={**_synapse(), "extra": _nested(80)}, battles=1)
    assert "nested" in refused.value.error
    state = registry.run("synapse", "new-battle", _synapse(), seed=2)["state"]
    with pytest.raises(InvalidInput, match="nested"):
        preview_round("synapse", {**state, "extra": _nested(80)}, {}, 2)
    with pytest.raises(InvalidInput, match="nested"):
        preview_round("synapse", state, {"side:A": {"x": _nested(80)}}, 2)
