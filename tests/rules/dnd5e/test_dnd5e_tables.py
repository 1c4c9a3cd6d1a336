"""Every S6 table, at several cells including its corners, through the operations that use it."""

from __future__ import annotations

import pytest
from dnd5e_testkit import PROFILES, run

from rules.dnd5e import tables


def profile(**changes) -> dict:
    return {**PROFILES["orc"], **changes}


@pytest.mark.parametrize("size,footprint,stand", [
    ("tiny", 1, True), ("small", 1, True), ("medium", 1, True), ("large", 2, True), ("huge", 3, True),
    ("gargantuan", 4, False)])
def test_s6_1_size_space(size, footprint, stand):
    out = run("creature-sheet", {"profile": profile(size=size), "role": "solo"})
    assert (out["footprint"], out["can_be_stand"]) == (footprint, stand)
    assert tables.SIZE_RANK["tiny"] == 0 and tables.SIZE_RANK["gargantuan"] == 5


@pytest.mark.parametrize("kind", ["movement_and_effects", "range", "area"])
def test_s6_14_every_conversion_row(kind):
    op_kind = {"movement_and_effects": "movement", "range": "range", "area": "area"}[kind]
    rows = tables.CONVERSIONS[kind]
    assert len(rows) >= 6
    for row in rows:
        assert run("convert-distance", {"metres": row["m"], "kind": op_kind})["squares"] == row["squares"], row


@pytest.mark.parametrize("metres,kind,squares", [
    (0, "range", 0), (0, "movement", 0), (1.5, "range", 1), (8.9, "range", 1), (7.4, "movement", 4),
    (2.9, "area", 0), (10000, "movement", 6666), (10000, "range", 1667)])
def test_s4_3_conversion_corners(metres, kind, squares):
    assert run("convert-distance", {"metres": metres, "kind": kind})["squares"] == squares


@pytest.mark.parametrize("row", tables.AREA_EXAMPLES, ids=lambda r: f"{r['shape']}-{r['size_m']}")
def test_s6_9_area_examples(row):
    out = run("area-template", {"shape": row["shape"], "size_m": row["size_m"], "origin": [20, 20],
                                "direction": "east"})
    assert out["count"] == row["squares"]


def test_s6_9_area_shapes_and_clipping():
    line = run("area-template", {"shape": "line", "size_m": 9, "origin": [0, 0], "direction": "south"})
    assert line["squares"] == [[0, 0], [0, 1], [0, 2]]
    cone = run("area-template", {"shape": "cone", "size_m": 9, "origin": [5, 5], "direction": "east"})
    assert sorted(map(tuple, cone["squares"])) == sorted([(5, 5), (6, 5), (6, 6), (7, 4), (7, 5), (7, 6)])
    low = run("area-template", {"shape": "cone", "size_m": 6, "origin": [5, 5], "direction": "west",
                                "extra_side": "low"})
    assert sorted(map(tuple, low["squares"])) == [(4, 4), (4, 5), (5, 5)]
    tiny = run("area-template", {"shape": "sphere", "size_m": 1.5, "origin": [1, 1]})
    assert (tiny["size_squares"], tiny["squares"]) == (0, [[1, 1]])
    clipped = run("area-template", {"shape": "sphere", "size_m": 6, "origin": [0, 0], "map": {"width": 3, "height": 3}})
    assert clipped["squares"] == [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [0, 2]]
    small_cone = run("area-template", {"shape": "cone", "size_m": 1.5, "origin": [0, 0], "direction": "north"})
    assert small_cone["size_squares"] == 1 and small_cone["count"] == 1


@pytest.mark.parametrize("unit_type,configuration,expected", [
    ("skirmishers", None, ["attack", "dash", "hide", "disengage"]),
    ("regiment", "march", ["attack", "configure", "dash", "disengage"]),
    ("regiment", "support", ["attack", "configure", "dash", "disengage"]),
    ("regiment", "defense", ["configure", "dash", "disengage"]),
    (None, None, ["attack", "dash", "disengage"])])
def test_s6_5_allowed_actions_for_stands(unit_type, configuration, expected):
    out = run("creature-sheet", {"profile": PROFILES["orc"], "unit_type": unit_type, "configuration": configuration})
    assert out["allowed_actions"] == expected


def test_s6_5_allowed_actions_filters():
    mage = run("creature-sheet", {"profile": PROFILES["mage"], "role": "solo"})
    assert mage["allowed_actions"] == ["attack", "cast_spell", "dash", "hide", "join", "disengage"]
    unarmed = run("creature-sheet", {"profile": {**PROFILES["orc"], "attacks": []}, "role": "solo"})
    assert unarmed["allowed_actions"] == ["dash", "hide", "join", "disengage"] and unarmed["can_attack"] is False


def test_s6_4_configurations_ac_and_speed():
    ogre = PROFILES["ogre"]
    for configuration, ac, move, dash in (("support", 11, 4, 8), ("defense", 13, 4, 8), ("march", 11, 8, 16)):
        out = run("creature-sheet", {"profile": ogre, "unit_type": "regiment", "configuration": configuration})
        assert (out["ac_effective"], out["movement_allowance"], out["dash_allowance"]) == (ac, move, dash)
    solo = run("creature-sheet", {"profile": ogre, "role": "solo"})
    assert (solo["movement_allowance"], solo["dash_allowance"]) == (8, 16)


def test_s6_7_modifier_orders_are_canonical():
    out = run("resolve-attack", {
        "attacker": {"kind": "stand", "isolated": True, "motivated": True, "hidden": True, "elevation": 2,
                     "supported": True, "adjacent_enemy": True},
        "attack": PROFILES["orc"]["attacks"][0], "advantage": True, "disadvantage": True,
        "target": {"kind": "stand", "ac": 10, "isolated": True, "hidden": True},
        "distance": 1, "dice": {"d20": [3], "damage_1": [1]}})
    assert out["advantage_sources"] == ["target_isolated", "motivated", "high_ground", "supported",
                                        "hidden_attacker", "manual"]
    assert out["disadvantage_sources"] == ["attacker_isolated", "target_hidden", "manual"]
    assert out["roll_mode"] == "normal"


@pytest.mark.parametrize("rolls,outcome,successes,failures", [
    ([20], "revived", 0, 0), ([10, 10, 10], "stable", 3, 0), ([9, 9, 9], "dead", 0, 3), ([1, 2], "dead", 0, 3),
    ([19, 1, 9], "dead", 1, 3), ([1, 20], "revived", 0, 2)])
def test_s6_13_death_saves(rolls, outcome, successes, failures):
    out = run("death-saves", {"solo": {"condition": "dying"}, "dice": {"death_saves": rolls}})
    assert (out["outcome"], out["successes"], out["failures"]) == (outcome, successes, failures)
    assert out["solo"]["hp"] == (1 if outcome == "revived" else 0)


@pytest.mark.parametrize("a,b,outcome", [(13, 10, "total_victory"), (12, 10, "tactical_victory"),
                                         (11, 10, "tactical_victory"), (10, 10, "draw"), (0, 3, "total_victory")])
def test_s6_12_outcome_margins(a, b, outcome):
    out = run("end-battle", {"sides": {"A": {"victory_points": a, "surviving_units": []},
                                       "B": {"victory_points": b, "surviving_units": []}}})
    assert out["outcome"] == outcome
    assert out["winner"] == (None if a == b else ("A" if a > b else "B"))


def test_s6_12_extra_round_on_tie():
    out = run("end-battle", {"on_tie": "extra_round", "sides": {"A": {"victory_points": 4, "surviving_units": ["x"]},
                                                                "B": {"victory_points": 4, "surviving_units": []}}})
    assert (out["outcome"], out["threshold_reached"]) == ("extra_round", False)


def test_s6_10_numbers_are_the_ones_used():
    n = tables.NUMBERS
    assert (n["prepare_check_dc"], n["morale_save_dc"], n["victory_threshold"], n["total_victory_margin"]) == (
        15, 10, 10, 3)
    out = run("commander-action", {"action": "prepare", "commander": {"cha_check_bonus": 0}, "dice": {"check": [14]}})
    assert (out["dc"], out["success"]) == (15, False)
    out = run("commander-action", {"action": "prepare", "commander": {"cha_check_bonus": 0}, "dice": {"check": [15]}})
    assert (out["success"], out["effect"], out["until_round"]) == (True, "saves_advantage", 2)


def test_s6_15_occupancy_table_shape():
    occ = tables.OCCUPANCY
    assert occ["stand"]["allied_skirmisher_stand"] == [True, False]
    assert occ["stand"]["allied_regiment_stand"] == [False, False]
    assert occ["detached_solo"]["enemy_stand"] == [False, False]
    assert occ["detached_solo"]["allied_regiment_stand"][0] != True  # noqa: E712 - only to join it


def test_s6_2_terrain_sets():
    assert tables.ALWAYS_DIFFICULT == {"forest", "shallow_water"}
    assert tables.MAY_BE_ELEVATED == {"open", "road", "forest"}
