"""Size caps (docs/battle-contract.md "Size caps", rules/dnd5e/caps.py): refused over a cap by the input's
validation, before any rule runs, in the schema, and an at-caps battle answered.  How long an at-caps
battle takes is measured by benchmarks/engine_caps.py, not here (the machine is shared)."""

from __future__ import annotations

import copy

import pytest
from dnd5e_testkit import FORD_SETUP, PROFILES, run

from rules.dnd5e import caps, ruleset
from rules.errors import InvalidInput


def refused(op: str, payload: dict) -> dict:
    with pytest.raises(InvalidInput) as err:
        run(op, payload)
    return err.value.fields


def test_the_review_request_is_refused_at_once():
    """A 200 x 200 map and one unit of 50 stands walking 100 m (55.6 s and 176 MB before the caps)."""
    setup = copy.deepcopy(FORD_SETUP)
    setup["map"] = {"width": 200, "height": 200, "cells": []}
    setup["profiles"]["orc"] = {**PROFILES["orc"], "speed_m": 100}
    setup["units"]["u_a"]["stands"] = [{"id": f"s{i}", "profile": "orc", "position": [i, 0]} for i in range(50)]
    fields = refused("new-battle", setup)
    assert {"map.width", "map.height", "profiles.orc.speed_m", "units.u_a.stands"} <= set(fields)


@pytest.mark.parametrize("where, value", [
    (("map", "width"), caps.MAP_SIDE + 1),
    (("profiles", "orc", "speed_m"), caps.SPEED_M + 1),
])
def test_one_over_a_cap_names_the_field(where, value):
    setup = copy.deepcopy(FORD_SETUP)
    node = setup
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    assert ".".join(where) in refused("new-battle", setup)
    node[where[-1]] = value - 1 if where[-1] != "width" else caps.MAP_SIDE
    run("new-battle", setup)


def test_list_caps_name_their_field(ford_state):
    stands = [{"id": f"s{i}", "profile": "orc", "position": [0, 0]} for i in range(caps.STANDS_PER_UNIT + 1)]
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_a"]["stands"] = stands
    assert "units.u_a.stands" in refused("new-battle", setup)
    path = [[1, 1]] * (caps.PATH + 1)
    decl = {"units": {"u_a": {"stands": [{"stand": "sa1", "move": path}]}}}
    assert "declarations.units.u_a.stands[0].move" in refused("resolve-round", {"state": ford_state,
                                                                               "declarations": decl})
    answers = {f"unit:u{i}": {} for i in range(caps.UNITS + caps.SOLOS + 4)}
    assert "declarations" in refused("merge-declarations", {"state": ford_state, "declarations": answers})


def test_caps_are_in_the_ops_schema():
    schema = ruleset.describe()["operations"]["new-battle"]["input_schema"]
    text = str(schema)
    assert f"'maximum': {caps.MAP_SIDE}" in text and f"'maxItems': {caps.STANDS_PER_UNIT}" in text
    assert f"'maxProperties': {caps.UNITS}" in text and f"'maximum': {caps.SPEED_M}" in text


def test_a_battle_at_every_cap_is_answered(engine_caps):
    case = engine_caps.dnd5e_at_caps()
    assert len(case["state"]["stands"]) == caps.STANDS and len(case["state"]["solos"]) == caps.SOLOS
    options = run("declaration-options", {"state": case["state"], "participant": case["participant"]})
    assert options["options"] and all(option["path"] for option in options["options"])
    resolved = run("resolve-round", {"state": case["state"], "declarations": case["declarations"]})
    assert resolved["state"]["round"] == case["state"]["round"] + 1 and resolved["log"]