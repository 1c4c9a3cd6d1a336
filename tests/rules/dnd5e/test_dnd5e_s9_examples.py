"""Every example of S9 and every worked example of S10, with the spec's numbers."""

from __future__ import annotations

import copy

import pytest
from dnd5e_testkit import FORD_SETUP, PROFILES, run

from rules.errors import InvalidInput


def assert_log(out: dict) -> None:
    assert out["log"], "every operation explains itself"
    for step in out["log"]:
        assert set(step) == {"rule", "key", "params", "text"}
        assert step["rule"].startswith(("S", "H")) and step["key"] and step["text"]


def subset(out: dict, expected: dict) -> None:
    for key, value in expected.items():
        assert out[key] == value, key


def test_s9_1_convert_distance():
    out = run("convert-distance", {"metres": 10.5, "kind": "movement"})
    subset(out, {"metres": 10.5, "kind": "movement", "decimetres": 105, "squares": 7, "dice": {}})
    assert out["log"][0]["key"] == "convert.movement"
    assert out["log"][0]["params"] == {"metres": 10.5, "decimetres": 105, "squares": 7}
    assert out["log"][0]["rule"] == "S4.3"


def test_s9_2_creature_sheet_hobgoblin_skirmisher():
    out = run("creature-sheet", {"role": "stand", "unit_type": "skirmishers", "profile": PROFILES["hobgoblin"]})
    expected = {
        "name": "Hobgoblin", "size": "medium", "role": "stand", "footprint": 1, "can_be_stand": True,
        "ability_mods": {"str": 1, "dex": 1, "con": 1, "int": 0, "wis": 0, "cha": -1},
        "save_bonuses": {"str": 1, "dex": 1, "con": 1, "int": 0, "wis": 0, "cha": -1},
        "hp_max": 11, "ac": 18, "ac_effective": 18,
        "speed_squares": 6, "swim_squares": 0, "can_enter_deep_water": False,
        "movement_allowance": 6, "dash_allowance": 12,
        "initiative_modifier": 1, "passive_perception": 10, "stealth_bonus": 1, "stealth_disadvantage": False,
        "cha_check_bonus": -1, "dex_save_advantage": True,
        "reach_bonus_attack": False, "attacks_per_action": 1, "max_attacks": 1,
        "attacks": {
            "longsword": {"kind": "melee", "to_hit": 3, "reach_squares": 1, "range_squares": None,
                          "long_range_squares": None, "grants_reach_bonus": False},
            "longbow": {"kind": "ranged", "to_hit": 3, "reach_squares": None, "range_squares": 8,
                        "long_range_squares": 30, "grants_reach_bonus": False}},
        "spells": {},
        "allowed_actions": ["attack", "dash", "hide", "disengage"], "can_attack": True, "dice": {},
    }
    subset(out, expected)
    assert set(out) == set(expected) | {"log"}
    assert_log(out)


UNIT_SHEET = {
    "type": "regiment", "configuration": "defense",
    "profiles": {
        "orc": {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
                "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
                "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 5,
                             "damage": [{"dice": "1d12+3", "type": "slashing"}]}]},
        "ogre": {"name": "Ogre", "size": "large", "ac": 11, "hp_max": 59, "speed_m": 12,
                 "abilities": {"str": 19, "dex": 8, "con": 16, "int": 5, "wis": 7, "cha": 7},
                 "attacks": [{"name": "greatclub", "kind": "melee", "to_hit": 6,
                              "damage": [{"dice": "2d8+4", "type": "bludgeoning"}]}]},
        "war_chief": {"name": "Orc war chief", "size": "medium", "ac": 16, "hp_max": 93, "speed_m": 9,
                      "abilities": {"str": 18, "dex": 12, "con": 18, "int": 11, "wis": 11, "cha": 16},
                      "cha_check_bonus": 5,
                      "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 6,
                                   "damage": [{"dice": "1d12+4", "type": "slashing"}]}]}},
    "stands": [{"id": "s1", "profile": "orc"}, {"id": "s2", "profile": "orc", "hp": 6},
               {"id": "s3", "profile": "orc", "hp": 0, "status": "eliminated"}, {"id": "s4", "profile": "ogre"}],
    "attached_solos": [{"id": "h1", "profile": "war_chief"}],
    "commander": "h1",
}


def test_s9_3_unit_sheet_defending_regiment():
    out = run("unit-sheet", UNIT_SHEET)
    orc = {"footprint": 1, "speed_squares": 6, "movement_allowance": 3, "dash_allowance": 6, "ac_effective": 15,
           "dex_save_advantage": False, "max_attacks": 1}
    subset(out, {
        "initiative_modifier": -1, "morale_modifier": 0, "rally_modifier": 3,
        "starting_stands": 4, "surviving_stands": 3, "lost_stands": 1, "morale_check_due": False, "broken": False,
        "allowed_actions": ["configure", "dash", "disengage"],
        "stands": {
            "s1": {"status": "active", **orc}, "s2": {"status": "active", **orc},
            "s3": {"status": "eliminated", **orc},
            "s4": {"status": "active", "footprint": 2, "speed_squares": 8, "movement_allowance": 4,
                   "dash_allowance": 8, "ac_effective": 13, "dex_save_advantage": False, "max_attacks": 1}},
        "dice": {}})
    assert_log(out)


def test_s9_4_area_template_cone_low_side():
    out = run("area-template", {"shape": "cone", "size_m": 6, "origin": [3, 5], "direction": "north",
                                "extra_side": "low"})
    subset(out, {"size_squares": 2, "squares": [[2, 4], [3, 4], [3, 5]], "count": 3, "dice": {}})
    assert {s["key"] for s in out["log"]} == {"area.size", "area.squares"}


def test_s9_5_new_battle_ford():
    out = run("new-battle", copy.deepcopy(FORD_SETUP))
    st = out["state"]
    assert out["dice"] == {"init.u_a": [13], "init.u_b": [11]}
    assert st["profiles"] == {"orc": PROFILES["orc"], "hobgoblin": PROFILES["hobgoblin"]}
    expected = {
        "ruleset": "dnd5e", "name": "Skirmish at the ford", "round": 1, "battle_over": False, "victory_threshold": 10,
        "map": {"width": 4, "height": 3, "cells": []},
        "sides": {"A": {"name": "Orc horde", "controller": "gm", "victory_points": 0},
                  "B": {"name": "Hobgoblin legion", "controller": "player-1", "victory_points": 0}},
        "units": {
            "u_a": {"side": "A", "name": "Orc band", "controller": None, "type": "regiment", "configuration": "march",
                    "stands": ["sa1"], "starting_stands": 1, "broken": False, "commander": None,
                    "prepare_until_round": None, "motivate_until_round": None, "initiative": 14, "surprised": False,
                    "eliminated_round": None},
            "u_b": {"side": "B", "name": "Hobgoblin line", "controller": None, "type": "regiment",
                    "configuration": "march", "stands": ["sb1"], "starting_stands": 1, "broken": False,
                    "commander": None, "prepare_until_round": None, "motivate_until_round": None, "initiative": 12,
                    "surprised": False, "eliminated_round": None}},
        "stands": {
            "sa1": {"unit": "u_a", "profile": "orc", "hp": 15, "status": "active", "position": [1, 1],
                    "hidden": False, "isolated": True, "spell_uses": {}},
            "sb1": {"unit": "u_b", "profile": "hobgoblin", "hp": 11, "status": "active", "position": [2, 1],
                    "hidden": False, "isolated": True, "spell_uses": {}}},
        "solos": {}, "objective_squares": {},
        "objectives": {"oa": {"side": "A", "type": "attrition", "vp_per_unit": 3, "description": ""},
                       "ob": {"side": "B", "type": "attrition", "vp_per_unit": 3, "description": ""}},
        "initiative_order": [{"id": "u_a", "kind": "unit", "total": 14, "modifier": 1},
                             {"id": "u_b", "kind": "unit", "total": 12, "modifier": 1}],
    }
    subset(st, expected)
    assert set(st) == set(expected) | {"profiles", "outcome", "strength"}  # the contract adds these two
    keys = {s["key"] for s in out["log"]}
    assert {"setup.unit", "setup.initiative", "setup.order", "setup.isolation"} <= keys


def test_s9_6_check_movement_disengage(ford_state):
    out = run("check-movement", {"state": ford_state, "mover": "sa1", "move": [[1, 0], [0, 0]], "disengage": True})
    subset(out, {"legal": True, "allowance": 6, "cost": 2, "steps_declared": 2, "steps_taken": 2,
                 "step_costs": [1, 1], "final_position": [0, 0], "stopped_reason": None, "stopped_at_step": None,
                 "road_step_used": False, "fled": False, "join_ready": False, "dice": {}})
    assert_log(out)


def test_s9_6_check_movement_blocked_without_disengage(ford_state):
    out = run("check-movement", {"state": ford_state, "mover": "sa1", "move": [[1, 0], [0, 0]]})
    subset(out, {"legal": False, "cost": 0, "steps_taken": 0, "final_position": [1, 1],
                 "stopped_reason": "enemy_adjacent", "stopped_at_step": 1})


def test_s9_7_resolve_attack_longbow():
    out = run("resolve-attack", {
        "attacker": {"kind": "stand", "motivated": True},
        "attack": PROFILES["hobgoblin"]["attacks"][1],
        "target": {"kind": "stand", "ac": 13, "forest_cover": True},
        "distance": 10, "dice": {"d20": [16], "damage_1": [5]}})
    subset(out, {"roll_mode": "normal", "advantage_sources": ["motivated"], "disadvantage_sources": ["long_range"],
                 "long_range": True, "target_ac": 15, "natural": 16, "attack_total": 19, "auto_hit": False,
                 "hit": True, "critical": False, "damage_multiplier": 1,
                 "damage_components": [{"type": "piercing", "dice": [5], "flat": 1, "raw": 6, "final": 6}],
                 "damage": 6, "dice": {"d20": [16], "damage_1": [5]}})
    assert_log(out)


def test_s9_8_resolve_spell_fire_bolt():
    out = run("resolve-spell", {
        "caster": {"kind": "stand"}, "spell": PROFILES["mage"]["spells"][0],
        "targets": [{"id": "t1", "kind": "stand", "ac": 13, "isolated": True, "distance": 5}],
        "dice": {"attack.t1": [7, 14], "damage_1.t1": [3, 8]}})
    subset(out, {"target_slots_used": 1, "damage_rolled": None, "dice": {"attack.t1": [7, 14], "damage_1.t1": [3, 8]},
                 "results": {"t1": {"affected": True, "attack_roll_mode": "advantage", "attack_natural": 14,
                                    "attack_total": 20, "hit": True, "critical": False, "save_roll_mode": None,
                                    "save_natural": None, "save_total": None, "saved": None, "doubled": True,
                                    "halved_partial": False, "damage": 22}}})
    assert_log(out)


def test_s9_9_apply_damage(ford_state):
    out = run("apply-damage", {"state": ford_state, "target": "sb1", "amount": 20})
    expected = copy.deepcopy(ford_state)
    expected["stands"]["sb1"].update(hp=0, status="casualty")
    expected["strength"]["B"] = 0
    assert out["state"] == expected
    subset(out, {"applied": [{"id": "sb1", "kind": "stand", "hp_before": 11, "hp_after": 0, "damage": 11,
                              "status": "casualty"}], "wasted": 9, "dice": {}})
    assert_log(out)


def test_s9_10_commander_action_motivate():
    out = run("commander-action", {"action": "motivate", "round": 2, "commander": {"cha_check_bonus": 5},
                                   "dice": {"check": [10]}})
    subset(out, {"success": True, "natural": 10, "total": 15, "dc": 15, "effect": "attacks_advantage",
                 "until_round": 3, "dice": {"check": [10]}})
    assert_log(out)


def test_s9_11_morale_check():
    out = run("morale-check", {"unit": {"starting_stands": 3, "surviving_stands": 1},
                               "members": [{"id": "s1", "kind": "stand", "wis": 11},
                                           {"id": "h1", "kind": "solo", "wis": 14}],
                               "dice": {"save": [8]}})
    subset(out, {"lost_stands": 2, "check_required": True, "modifier": 2, "roll_mode": "normal", "natural": 8,
                 "total": 10, "dc": 10, "success": True, "broken": False, "dice": {"save": [8]}})
    assert_log(out)


def test_s9_12_death_saves():
    out = run("death-saves", {"solo": {"condition": "dying", "death_save_successes": 0, "death_save_failures": 1},
                              "dice": {"death_saves": [15, 3, 11, 18, 2]}})
    subset(out, {"rolls": [15, 3, 11, 18], "successes": 3, "failures": 2, "outcome": "stable",
                 "solo": {"condition": "stable", "hp": 0, "death_save_successes": 0, "death_save_failures": 0},
                 "dice": {"death_saves": [15, 3, 11, 18]}})
    assert_log(out)


def test_s9_13_resolve_round_ford(ford_state):
    out = run("resolve-round", {
        "state": ford_state,
        "declarations": {"units": {
            "u_a": {"action": "attack", "stands": [{"stand": "sa1", "attacks": [{"attack": "greataxe", "target": "sb1"}]}]},
            "u_b": {"action": "attack", "stands": [{"stand": "sb1", "attacks": [{"attack": "longsword", "target": "sa1"}]}]}}},
        "dice": {"sa1.atk1.d20": [13], "sa1.atk1.damage_1": [4], "sb1.atk1.d20": [9]}})
    expected_state = copy.deepcopy(ford_state)
    expected_state.update(round=2, battle_over=True)
    expected_state["sides"]["A"]["victory_points"] = 3
    expected_state["units"]["u_b"]["eliminated_round"] = 1
    expected_state["stands"]["sb1"].update(hp=0, status="eliminated", position=None, isolated=False)
    expected_state["strength"]["B"] = 0
    expected_state["outcome"] = {"over": True, "winner": "A", "tie": False, "reason": "outcome.wiped_out",
                                 "one_more_round": False, "gm_names_winner": False}
    assert out["state"] == expected_state
    assert out["events"] == [
        {"type": "turn", "round": 1, "actor": "u_a", "kind": "unit"},
        {"type": "attack", "round": 1, "attacker": "sa1", "index": 1, "attack": "greataxe", "target": "sb1",
         "roll_mode": "normal", "d20": [13], "natural": 13, "total": 18, "ac": 18, "auto_hit": False, "hit": True,
         "critical": False, "damage": 14},
        {"type": "damage", "round": 1, "target": "sb1", "amount": 14, "hp_before": 11, "hp_after": 0,
         "status": "casualty"},
        {"type": "overflow_wasted", "round": 1, "from": "sb1", "amount": 3},
        {"type": "turn", "round": 1, "actor": "u_b", "kind": "unit"},
        {"type": "attack", "round": 1, "attacker": "sb1", "index": 1, "attack": "longsword", "target": "sa1",
         "roll_mode": "normal", "d20": [9], "natural": 9, "total": 12, "ac": 13, "auto_hit": False, "hit": False,
         "critical": False, "damage": 0},
        {"type": "stand_eliminated", "round": 1, "stand": "sb1"},
        {"type": "unit_eliminated", "round": 1, "unit": "u_b"},
        {"type": "vp", "round": 1, "side": "A", "vp": 3, "reason": "attrition", "objective": "oa"},
        {"type": "battle_over", "round": 1, "victory_points": {"A": 3, "B": 0}}]
    subset(out, {"victory_points": {"A": 3, "B": 0}, "battle_over": True,
                 "dice": {"sa1.atk1.d20": [13], "sa1.atk1.damage_1": [4], "sb1.atk1.d20": [9]}})
    assert_log(out)


def test_s9_13_refuses_a_finished_battle(ford_state):
    ford_state["battle_over"] = True
    with pytest.raises(InvalidInput) as err:
        run("resolve-round", {"state": ford_state, "declarations": {}})
    assert "state.battle_over" in err.value.fields


def test_s9_14_end_battle_tactical():
    out = run("end-battle", {"sides": {"A": {"victory_points": 10, "surviving_units": ["u1", "u2"]},
                                       "B": {"victory_points": 8, "surviving_units": ["u7"]}}})
    subset(out, {"outcome": "tactical_victory", "winner": "A", "loser": "B", "margin": 2, "threshold_reached": True,
                 "rout_rolls": {}, "routed_units": [], "remaining_units": {"A": ["u1", "u2"], "B": ["u7"]},
                 "dice": {}})
    assert_log(out)


# -- S10 worked examples -----------------------------------------------------------------


def test_w1_stand_speed():
    subset(run("convert-distance", {"metres": 9, "kind": "movement"}), {"decimetres": 90, "squares": 6})
    for unit_type, configuration, move, dash in (("skirmishers", None, 6, 12), ("regiment", "march", 6, 12),
                                                 ("regiment", "support", 3, 6), ("regiment", "defense", 3, 6)):
        out = run("creature-sheet", {"profile": PROFILES["hobgoblin"], "unit_type": unit_type,
                                     "configuration": configuration})
        assert (out["speed_squares"], out["movement_allowance"], out["dash_allowance"]) == (6, move, dash)


def test_w2_minotaur_push():
    assert run("convert-distance", {"metres": 3, "kind": "effect"})["squares"] == 2


def test_w3_space_table_and_gargantuan_solo():
    assert run("creature-sheet", {"profile": PROFILES["orc"]})["footprint"] == 1
    assert run("creature-sheet", {"profile": PROFILES["ogre"]})["footprint"] == 2
    assert run("creature-sheet", {"profile": PROFILES["hill_giant"]})["footprint"] == 3
    roc = {**PROFILES["ogre"], "name": "Roc", "size": "gargantuan"}
    assert run("creature-sheet", {"profile": roc, "role": "solo"})["footprint"] == 4
    with pytest.raises(InvalidInput) as err:
        run("creature-sheet", {"profile": roc, "role": "stand"})
    assert "profile.size" in err.value.fields


def test_w4_different_attacks_in_one_unit():
    setup = {
        "map": {"width": 12, "height": 6},
        "profiles": {"orc": PROFILES["orc"], "hobgoblin": PROFILES["hobgoblin"]},
        "sides": {"A": {}, "B": {}},
        "units": {
            "u_orcs": {"side": "A", "type": "regiment", "configuration": "march", "stands": [
                {"id": "o1", "profile": "orc", "position": [1, 1]}, {"id": "o2", "profile": "orc", "position": [1, 2]}]},
            "u_hobs": {"side": "B", "type": "skirmishers", "stands": [
                {"id": "h1", "profile": "hobgoblin", "position": [2, 1]},
                {"id": "h4", "profile": "hobgoblin", "position": [7, 2]}]}},
        "dice": {"init.u_orcs": [20], "init.u_hobs": [1]},
    }
    state = run("new-battle", setup)["state"]
    out = run("resolve-round", {"state": state, "declarations": {"units": {"u_orcs": {"action": "attack", "stands": [
        {"stand": "o1", "attacks": [{"attack": "greataxe", "target": "h1"}]},
        {"stand": "o2", "attacks": [{"attack": "javelin", "target": "h4"}]}]}}},
        "dice": {"o1.atk1.d20": [2, 2], "o2.atk1.d20": [2]}})
    attacks = [e for e in out["events"] if e["type"] == "attack"]
    assert [(e["attacker"], e["attack"], e["target"]) for e in attacks] == [
        ("o1", "greataxe", "h1"), ("o2", "javelin", "h4")]
    # the javelin (9/36 m) reaches 2 squares normally and 6 at long range: h4 at 6 squares is at long range
    sheet = run("creature-sheet", {"profile": PROFILES["orc"]})
    assert (sheet["attacks"]["javelin"]["range_squares"], sheet["attacks"]["javelin"]["long_range_squares"]) == (2, 6)


def test_w5_total_victory_and_rout():
    out = run("end-battle", {"sides": {"A": {"victory_points": 12, "surviving_units": ["a1"]},
                                       "B": {"victory_points": 9, "surviving_units": ["b1", "b2"]}},
                             "dice": {"rout.b1": [10], "rout.b2": [9]}})
    subset(out, {"outcome": "total_victory", "winner": "A", "margin": 3, "routed_units": ["b1"],
                 "remaining_units": {"A": ["a1"], "B": ["b2"]}, "rout_rolls": {"b1": 10, "b2": 9}})


def test_w6_exactly_ten_vp_ends_the_battle(ford_state):
    ford_state["sides"]["A"]["victory_points"] = 7
    out = run("resolve-round", {
        "state": ford_state,
        "declarations": {"units": {"u_a": {"action": "attack", "stands": [
            {"stand": "sa1", "attacks": [{"attack": "greataxe", "target": "sb1"}]}]}}},
        "dice": {"sa1.atk1.d20": [20], "sa1.atk1.damage_1": [6, 6]}})
    assert out["victory_points"]["A"] == 10 and out["battle_over"] is True


def test_w7_bridge_balancing_setup():
    setup = {
        "map": {"width": 10, "height": 6, "cells": [{"at": [6, 3], "terrain": "road"}, {"at": [7, 3], "terrain": "road"}]},
        "profiles": {"orc": PROFILES["orc"]},
        "sides": {"A": {}, "B": {}},
        "units": {"ua": {"side": "A", "type": "regiment", "configuration": "march",
                         "stands": [{"id": "a1", "profile": "orc", "position": [0, 0]}]},
                  "ub": {"side": "B", "type": "regiment", "configuration": "march",
                         "stands": [{"id": "b1", "profile": "orc", "position": [9, 5]}]}},
        "objective_squares": {"bw": {"at": [6, 3], "hp_max": 40, "vp": 5}, "be": {"at": [7, 3], "hp_max": 40, "vp": 5}},
        "objectives": {"burn": {"side": "B", "type": "destruction", "squares": ["bw", "be"]},
                       "hold": {"side": "A", "type": "protection", "squares": ["bw", "be"]}},
    }
    state = run("new-battle", setup, seed=1)["state"]
    assert state["objective_squares"]["bw"] == {"at": [6, 3], "hp_max": 40, "hp": 40, "vp": 5, "ac": 15,
                                                "destroyed_round": None}
    assert state["objectives"]["hold"]["vp_per_round"] == 1
    # the two squares together are worth 10 VP to the destroyer
    state["objective_squares"]["bw"]["hp"] = 1
    state["objective_squares"]["be"]["hp"] = 1
    out = run("resolve-round", {"state": state, "declarations": {"gm": {"adjustments": [
        {"type": "set_hp", "id": "bw", "hp": 0}, {"type": "set_hp", "id": "be", "hp": 0}]}}})
    assert out["victory_points"] == {"A": 0, "B": 10} and out["battle_over"]


def test_w9_stand_spell_may_target_a_detached_non_isolated_solo():
    out = run("resolve-spell", {
        "caster": {"kind": "stand"}, "spell": PROFILES["mage"]["spells"][0],
        "targets": [{"id": "hero", "kind": "solo", "ac": 15, "isolated": False, "distance": 3}],
        "dice": {"attack.hero": [15], "damage_1.hero": [4, 4]}})
    r = out["results"]["hero"]
    assert (r["attack_roll_mode"], r["hit"], r["doubled"], r["damage"]) == ("normal", True, False, 8)


@pytest.mark.parametrize("starting,surviving,due", [(5, 2, True), (4, 2, False), (4, 1, True), (3, 2, False)])
def test_w10_more_than_half(starting, surviving, due):
    out = run("morale-check", {"unit": {"starting_stands": starting, "surviving_stands": surviving},
                               "members": [{"id": "s1", "kind": "stand", "wis": 10}], "dice": {"save": [10]}})
    assert out["check_required"] is due


def test_w11_death_saves_stop_at_first_outcome():
    out = run("death-saves", {"solo": {"condition": "dying"}, "dice": {"death_saves": [12, 5, 14, 6, 17, 1, 1]}})
    assert out["rolls"] == [12, 5, 14, 6, 17] and out["outcome"] == "stable"
    assert out["dice"] == {"death_saves": [12, 5, 14, 6, 17]}
