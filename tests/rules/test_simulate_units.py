"""What becomes of each unit in a preview and in whole battles: read from each engine's state, in shared words."""

from __future__ import annotations

import copy
import math

import pytest

from rules import registry
from rules.simulate import preview_round, simulate_battles
from rules.simulate_units import MEASURES, STATES, units
from tests.rules.simulate_examples import example, lopsided

RULESETS = ["jdrwiki", "seventh_sea", "heros", "synapse", "dnd5e"]


@pytest.mark.parametrize("slug", RULESETS)
def test_every_unit_of_the_start_is_read_with_its_side_and_a_shared_word(slug):
    state = registry.run(slug, "new-battle", example(slug), seed=1)["state"]
    found = units(slug, state)
    sides = set(state["strength"])
    assert found and {side for side, _strength, _word in found.values()} <= sides
    assert {word for _side, _strength, word in found.values()} == {"fighting"}  # nobody is beaten before round 1
    assert MEASURES[slug]


@pytest.mark.parametrize("slug", RULESETS)
def test_a_preview_gives_each_unit_its_change_and_the_share_of_each_state(slug):
    state = registry.run(slug, "new-battle", example(slug), seed=1)["state"]
    preview = preview_round(slug, state, {}, 12, "engage", 5)
    assert set(preview["units"]) == set(units(slug, state)) and preview["unit_measure"] == MEASURES[slug]
    for entry in preview["units"].values():
        assert set(entry["states"]) <= set(STATES) and math.isclose(sum(entry["states"].values()), 1.0)
        assert entry["change"] is None or entry["change"]["min"] <= entry["change"]["median"] <= entry["change"]["max"]


def test_the_lone_orc_against_ten_is_destroyed_and_said_so():
    """D&D 5e, ten orcs against one: in whole battles the lone orc's unit ends destroyed, its hit points at 0."""
    setup, _big = lopsided("dnd5e")
    result = simulate_battles("dnd5e", setup=setup, battles=6, seed=3, policy="engage", round_cap=30)
    lone = result["units"]["u_b"]
    assert lone["side"] == "B" and lone["states"] == {"destroyed": 1.0}
    assert lone["start"]["median"] > 0 and lone["end"] == {"median": 0, "p10": 0, "p90": 0}
    assert result["units"]["u_a"]["states"].get("fighting", 0) == 1.0


def test_engine_states_are_named_in_the_shared_words():
    """Each engine's statuses, as it writes them, map to the words the page says."""
    state = registry.run("dnd5e", "new-battle", example("dnd5e"), seed=1)["state"]
    broken = copy.deepcopy(state)
    broken["units"]["u_a"]["broken"] = True
    assert units("dnd5e", broken)["u_a"][2] == "broken"
    gone = copy.deepcopy(state)
    gone["units"]["u_b"]["eliminated_round"] = 1
    assert units("dnd5e", gone)["u_b"][2] == "destroyed"
    synapse = registry.run("synapse", "new-battle", example("synapse"), seed=1)["state"]
    for status, word in [("routed", "broken"), ("fled", "routed"), ("destroyed", "destroyed"), ("withdrawn", "out")]:
        changed = copy.deepcopy(synapse)
        changed["formations"]["B.melee"]["status"] = status
        assert units("synapse", changed)["B.melee"][2] == word
    jdrwiki = registry.run("jdrwiki", "new-battle", example("jdrwiki"), seed=1)["state"]
    fled = copy.deepcopy(jdrwiki)
    fled["corps"]["s1"]["status"] = "fled"
    assert units("jdrwiki", fled)["s1"] == ("b", 0, "routed")
    heros = registry.run("heros", "new-battle", example("heros"), seed=1)["state"]
    for corps in heros["corps"]:
        corps["demoralised"] = corps["side"] == "blue"
    assert units("heros", heros)["b-wb"][2] == "broken" and units("heros", heros)["r-bd"][2] == "fighting"
