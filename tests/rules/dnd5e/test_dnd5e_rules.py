"""Each rule at its boundaries, with pinned dice."""

from __future__ import annotations

import copy

import pytest
from dnd5e_testkit import PROFILES, run

from rules.errors import InvalidInput

ORC_AXE = PROFILES["orc"]["attacks"][0]


def attack(target: dict, d20: list, damage: list | None = None, **extra) -> dict:
    dice = {"d20": d20}
    if damage is not None:
        dice["damage_1"] = damage
    return run("resolve-attack", {"attacker": {"kind": "stand"}, "attack": extra.pop("attack", ORC_AXE),
                                  "target": target, "distance": extra.pop("distance", 1), "dice": dice, **extra})


# -- S5.9 / S4.18 ------------------------------------------------------------------------


def test_attack_total_equal_to_ac_hits_and_one_below_misses():
    assert attack({"kind": "stand", "ac": 15}, [10], [1])["hit"] is True  # 10 + 5 = 15
    assert attack({"kind": "stand", "ac": 16}, [10])["hit"] is False


def test_natural_one_misses_and_natural_twenty_crits():
    assert attack({"kind": "stand", "ac": 0}, [1])["hit"] is False
    out = attack({"kind": "stand", "ac": 40}, [20], [7, 5])
    assert (out["hit"], out["critical"], out["damage"]) == (True, True, 15)  # 7 + 5 + 3, flat part once
    with pytest.raises(InvalidInput) as err:
        attack({"kind": "stand", "ac": 40}, [20], [7])
    assert "dice.damage_1" in err.value.fields


def test_melee_hit_on_unconscious_solo_is_critical():
    out = attack({"kind": "solo", "ac": 30, "unconscious": True}, [4, 16], [2, 2])
    assert out["advantage_sources"] == ["target_unconscious"] and out["roll_mode"] == "advantage"
    assert (out["natural"], out["hit"], out["critical"], out["damage"]) == (16, False, False, 0)
    out = attack({"kind": "solo", "ac": 10, "unconscious": True}, [4, 16], [2, 2])
    assert (out["hit"], out["critical"], out["damage"]) == (True, True, 7)


def test_melee_on_objective_square_is_an_automatic_hit():
    out = attack({"kind": "objective"}, [], [6], distance=0)
    assert (out["roll_mode"], out["auto_hit"], out["natural"], out["target_ac"], out["damage"]) == (
        "none", True, None, None, 9)
    assert out["dice"] == {"damage_1": [6]}


def test_isolated_target_doubles_then_resistance_halves():
    out = attack({"kind": "stand", "ac": 10, "isolated": True, "resistances": ["slashing"]}, [2, 15], [5])
    assert out["damage_multiplier"] == 2
    assert out["damage_components"] == [{"type": "slashing", "dice": [5], "flat": 3, "raw": 8, "final": 8}]
    vulnerable = attack({"kind": "stand", "ac": 10, "vulnerabilities": ["slashing"]}, [15], [5])
    assert vulnerable["damage"] == 16
    immune = attack({"kind": "stand", "ac": 10, "immunities": ["slashing"]}, [15], [5])
    assert immune["damage"] == 0


def test_damage_modifier_never_makes_damage_negative():
    out = attack({"kind": "stand", "ac": 10}, [15], [1], damage_modifier=-20)
    assert out["damage_components"][0]["raw"] == 0 and out["damage"] == 0
    out = attack({"kind": "stand", "ac": 10}, [15], [1], damage_modifier=7)
    assert out["damage"] == 11


def test_long_range_boundaries():
    javelin = PROFILES["orc"]["attacks"][1]  # 9 m / 36 m: 2 and 6 squares
    assert attack({"kind": "stand", "ac": 1}, [10], [1], attack=javelin, distance=2)["long_range"] is False
    assert attack({"kind": "stand", "ac": 1}, [10, 3], [1], attack=javelin, distance=3)["roll_mode"] == "disadvantage"
    with pytest.raises(InvalidInput) as err:
        attack({"kind": "stand", "ac": 1}, [10], attack=javelin, distance=7)
    assert "distance" in err.value.fields


def test_ranged_attack_next_to_an_enemy_has_disadvantage():
    javelin = PROFILES["orc"]["attacks"][1]
    out = run("resolve-attack", {"attacker": {"kind": "solo", "adjacent_enemy": True}, "attack": javelin,
                                 "target": {"kind": "stand", "ac": 10}, "distance": 1,
                                 "dice": {"d20": [18, 2], "damage_1": [1]}})
    assert (out["disadvantage_sources"], out["natural"], out["hit"]) == (["adjacent_enemy"], 2, False)


def test_reach_bonus_needs_a_reach_of_three_metres():
    club = PROFILES["hill_giant"]["attacks"][0]
    ok = run("resolve-attack", {"attacker": {"kind": "stand"}, "attack": club, "reach_bonus": True,
                                "target": {"kind": "stand", "ac": 11}, "distance": 1, "dice": {"d20": [2]}})
    assert ok["hit"] is False  # 2 + 8 = 10 < 11
    with pytest.raises(InvalidInput) as err:
        run("resolve-attack", {"attacker": {"kind": "stand"}, "attack": ORC_AXE, "reach_bonus": True,
                               "target": {"kind": "stand", "ac": 10}, "distance": 1})
    assert "reach_bonus" in err.value.fields
    sheet = run("creature-sheet", {"profile": PROFILES["hill_giant"], "unit_type": "regiment", "configuration": "march"})
    assert (sheet["reach_bonus_attack"], sheet["attacks_per_action"], sheet["max_attacks"]) == (True, 2, 3)


# -- S5.10 -----------------------------------------------------------------------------------


FIREBALL = PROFILES["mage"]["spells"][1]


def test_area_spell_of_a_stand_doubles_and_partial_cover_halves():
    out = run("resolve-spell", {
        "caster": {"kind": "stand"}, "spell": FIREBALL,
        "targets": [{"id": "a", "kind": "stand", "save_bonus": 0},
                    {"id": "b", "kind": "stand", "save_bonus": 0, "coverage": "partial"},
                    {"id": "c", "kind": "stand", "save_bonus": 0, "skirmisher": True, "forest_cover": True},
                    {"id": "q", "kind": "objective"}],
        "dice": {"save.a": [13], "save.b": [14], "save.c": [3, 12], "damage_1": [1, 2, 3, 4, 5, 6, 1, 2]}})
    r = out["results"]
    assert out["damage_rolled"] == 24 and out["target_slots_used"] is None
    assert (r["a"]["saved"], r["a"]["damage"]) == (False, 48)
    assert (r["b"]["saved"], r["b"]["halved_partial"], r["b"]["damage"]) == (True, True, 12)  # 48 // 2 // 2
    assert (r["c"]["save_roll_mode"], r["c"]["save_total"], r["c"]["damage"]) == ("advantage", 14, 24)
    assert (r["q"]["save_roll_mode"], r["q"]["saved"], r["q"]["damage"]) == ("none", False, 48)


def test_solo_spell_reaches_stands_only_with_five_targets():
    spell = {**PROFILES["mage"]["spells"][0], "max_targets": 5}
    out = run("resolve-spell", {"caster": {"kind": "solo"}, "spell": spell,
                                "targets": [{"id": "s", "kind": "stand", "ac": 10, "distance": 2},
                                            {"id": "h", "kind": "solo", "ac": 10, "attached": True}],
                                "dice": {"attack.s": [10], "attack.h": [10], "damage_1.s": [1, 1], "damage_1.h": [2, 2]}})
    assert out["target_slots_used"] == 5
    with pytest.raises(InvalidInput) as err:
        run("resolve-spell", {"caster": {"kind": "solo"}, "spell": PROFILES["mage"]["spells"][0],
                              "targets": [{"id": "s", "kind": "stand", "ac": 10, "distance": 2}]})
    assert "targets[0].kind" in err.value.fields
    with pytest.raises(InvalidInput) as err:
        run("resolve-spell", {"caster": {"kind": "solo"}, "spell": spell,
                              "targets": [{"id": "q", "kind": "objective", "distance": 2}]})
    assert "targets[0].kind" in err.value.fields


def test_isolated_solo_saves_with_disadvantage_against_a_stand_and_takes_double():
    spell = {"name": "sacred_flame", "targeting": "targeted", "range_m": 18, "resolution": "save",
             "save_ability": "dex", "save_dc": 13, "damage": [{"dice": "2d8", "type": "radiant"}]}
    out = run("resolve-spell", {"caster": {"kind": "stand"}, "spell": spell,
                                "targets": [{"id": "h", "kind": "solo", "save_bonus": 2, "isolated": True,
                                             "distance": 3}],
                                "dice": {"save.h": [18, 10], "damage_1": [3, 4]}})
    r = out["results"]["h"]
    assert (r["save_roll_mode"], r["save_natural"], r["saved"], r["doubled"], r["damage"]) == (
        "disadvantage", 10, False, True, 14)
    with pytest.raises(InvalidInput) as err:
        run("resolve-spell", {"caster": {"kind": "stand"}, "spell": spell,
                              "targets": [{"id": "h", "kind": "solo", "save_bonus": 2, "distance": 4}]})
    assert "targets[0].distance" in err.value.fields  # 18 m reaches 3 squares


def test_spell_without_damage_has_no_effect_on_a_partly_covered_stand():
    web = {"name": "web", "targeting": "area", "range_m": 18, "resolution": "save", "save_ability": "dex",
           "save_dc": 12, "area": {"shape": "cube", "size_m": 6}}
    out = run("resolve-spell", {"caster": {"kind": "solo"}, "spell": web,
                                "targets": [{"id": "a", "kind": "stand", "save_bonus": 0, "coverage": "partial"},
                                            {"id": "b", "kind": "stand", "save_bonus": 0}],
                                "dice": {"save.a": [2], "save.b": [2]}})
    assert out["results"]["a"]["affected"] is False and out["results"]["b"]["affected"] is True
    assert out["damage_rolled"] is None


# -- battles ------------------------------------------------------------------------------------


def battle(units: dict, *, solos=None, width=10, height=6, cells=(), squares=None, objectives=None, init=None,
           profiles=None) -> dict:
    setup = {"map": {"width": width, "height": height, "cells": list(cells)},
             "profiles": copy.deepcopy(profiles or PROFILES), "sides": {"A": {}, "B": {}}, "units": {}}
    order = init or list(units)
    dice = {}
    for uid, (side, type_, stands) in units.items():
        setup["units"][uid] = {"side": side, "type": type_, "configuration": "march" if type_ == "regiment" else None,
                               "stands": [{"id": s, "profile": p, "position": pos} for s, p, pos in stands]}
        dice[f"init.{uid}"] = [20 - order.index(uid)]
    for hid, solo in (solos or {}).items():
        setup.setdefault("solos", {})[hid] = solo
        if "position" in solo:
            dice[f"init.{hid}"] = [1]
    if squares:
        setup["objective_squares"] = squares
    if objectives:
        setup["objectives"] = objectives
    setup["dice"] = dice
    return run("new-battle", setup)["state"]


def resolve(state, declarations=None, dice=None, seed=1) -> dict:
    return run("resolve-round", {"state": state, "declarations": declarations or {}, "dice": dice or {}}, seed=seed)


def test_overflow_chains_through_identical_adjacent_stands_only():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]),
                    "ub": ("B", "regiment", [("b1", "orc", [1, 0]), ("b2", "orc", [2, 0]), ("b3", "ogre", [1, 1]),
                                             ("b4", "orc", [3, 0])])})
    out = run("apply-damage", {"state": state, "target": "b1", "amount": 40})
    assert [(a["id"], a["damage"]) for a in out["applied"]] == [("b1", 15), ("b2", 15), ("b4", 10)]
    assert out["wasted"] == 0 and out["state"]["stands"]["b3"]["hp"] == 59
    out = run("apply-damage", {"state": state, "target": "b1", "amount": 50})
    assert out["wasted"] == 5
    casualty = run("apply-damage", {"state": out["state"], "target": "b1", "amount": 4})
    assert casualty["applied"][0]["damage"] == 0 and casualty["wasted"] == 4  # b2 and b4 are casualties now


def test_solo_damage_dying_death_save_failures_and_massive_damage():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [5, 5])])},
                   solos={"hero": {"side": "A", "profile": "knight", "position": [0, 3]},
                          "brute": {"side": "B", "profile": "ogre", "position": [6, 0], "uses_death_saves": False}})
    out = run("apply-damage", {"state": state, "target": "hero", "amount": 52})
    hero = out["state"]["solos"]["hero"]
    assert (hero["hp"], hero["condition"]) == (0, "dying")
    again = run("apply-damage", {"state": out["state"], "target": "hero", "amount": 3, "critical": True})
    assert again["state"]["solos"]["hero"]["death_save_failures"] == 2
    dead = run("apply-damage", {"state": again["state"], "target": "hero", "amount": 1})
    assert dead["state"]["solos"]["hero"]["condition"] == "dead" and dead["state"]["solos"]["hero"]["position"] is None
    massive = run("apply-damage", {"state": state, "target": "hero", "amount": 104})
    assert massive["state"]["solos"]["hero"]["condition"] == "dead"
    nearly = run("apply-damage", {"state": state, "target": "hero", "amount": 103})
    assert nearly["state"]["solos"]["hero"]["condition"] == "dying"
    monster = run("apply-damage", {"state": state, "target": "brute", "amount": 59})
    assert monster["state"]["solos"]["brute"]["condition"] == "dead"


def test_isolation_boundaries_regiment_skirmishers_solos():
    state = battle({"reg": ("A", "regiment", [("r1", "orc", [0, 0]), ("r2", "orc", [1, 1])]),
                    "sk": ("A", "skirmishers", [("k1", "orc", [5, 0]), ("k2", "orc", [6, 1]), ("k3", "orc", [9, 5])]),
                    "ub": ("B", "regiment", [("b1", "orc", [9, 0]), ("b2", "orc", [9, 1])])},
                   solos={"near": {"side": "B", "profile": "knight", "position": [8, 2]},
                          "far": {"side": "B", "profile": "knight", "position": [6, 5]}})
    st = state["stands"]
    assert st["r1"]["isolated"] and st["r2"]["isolated"]  # diagonal: distance 2, a regiment needs 1
    assert not st["k1"]["isolated"] and not st["k2"]["isolated"]  # distance 2: gap 1 is fine for skirmishers
    assert st["k3"]["isolated"]
    assert not st["b1"]["isolated"]
    assert not state["solos"]["near"]["isolated"]  # distance 2 from b2
    assert state["solos"]["far"]["isolated"]  # distance 3 and more


def test_terrain_costs_forest_hill_and_deep_water():
    cells = [{"at": [1, 0], "terrain": "forest"}, {"at": [2, 0], "terrain": "forest", "elevation": 1},
             {"at": [0, 2], "terrain": "deep_water"}, {"at": [3, 0], "terrain": "open", "elevation": 3}]
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])},
                   cells=cells)
    out = run("check-movement", {"state": state, "mover": "a1", "move": [[1, 0], [2, 0]]})
    assert (out["step_costs"], out["cost"], out["legal"]) == ([2, 4], 6, True)  # forest 2, forest hill (1+1)*2
    out = run("check-movement", {"state": state, "mover": "a1", "move": [[1, 0], [2, 0], [3, 0]]})
    assert (out["stopped_reason"], out["stopped_at_step"], out["cost"]) == ("insufficient_movement", 3, 6)
    out = run("check-movement", {"state": state, "mover": "a1", "move": [[1, 0], [2, 0], [3, 0]], "dash": True})
    assert (out["step_costs"], out["legal"]) == ([2, 4, 3], True)  # climbing two levels onto open ground: 3
    water = run("check-movement", {"state": state, "mover": "a1", "move": [[0, 1], [0, 2]]})
    assert (water["stopped_reason"], water["final_position"]) == ("impassable_terrain", [0, 1])


def test_road_step_and_fleeing():
    cells = [{"at": [x, 2], "terrain": "road"} for x in range(10)]
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 2])]), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])},
                   cells=cells)
    path = [[x, 2] for x in range(1, 7)]
    out = run("check-movement", {"state": state, "mover": "a1", "move": path, "road_step": "east"})
    assert (out["final_position"], out["cost"], out["road_step_used"], out["step_costs"][-1]) == ([7, 2], 6, True, 0)
    fled = run("check-movement", {"state": state, "mover": "a1", "move": [[-1, 2]]})
    assert (fled["fled"], fled["legal"], fled["final_position"], fled["cost"]) == (True, True, None, 1)
    round_out = resolve(state, {"units": {"ua": {"action": "dash", "stands": [{"stand": "a1", "move": [[-1, 2]]}]}}})
    assert round_out["state"]["stands"]["a1"]["status"] == "fled"
    assert round_out["state"]["units"]["ua"]["eliminated_round"] == 1 and round_out["battle_over"]


def test_regiment_stands_cannot_cross_allies_but_skirmishers_can_be_crossed():
    state = battle({"reg": ("A", "regiment", [("r1", "orc", [0, 0]), ("r2", "orc", [1, 0])]),
                    "sk": ("A", "skirmishers", [("k1", "orc", [0, 2]), ("k2", "orc", [0, 3])]),
                    "ub": ("B", "regiment", [("b1", "orc", [9, 5])])})
    blocked = run("check-movement", {"state": state, "mover": "r1", "move": [[1, 0], [2, 0]]})
    assert (blocked["stopped_reason"], blocked["final_position"]) == ("occupied", [0, 0])
    crossing = run("check-movement", {"state": state, "mover": "r1", "move": [[0, 1], [0, 2], [0, 3], [0, 4]]})
    assert (crossing["legal"], crossing["final_position"]) == (True, [0, 4])
    stopping = run("check-movement", {"state": state, "mover": "r1", "move": [[0, 1], [0, 2]]})
    assert (stopping["stopped_reason"], stopping["final_position"], stopping["cost"]) == (
        "cannot_end_here", [0, 1], 1)


def test_morale_is_checked_when_more_than_half_is_lost_and_broken_units_only_disengage():
    stands = [("a1", "orc", [0, 0]), ("a2", "orc", [0, 1]), ("a3", "orc", [0, 2]), ("a4", "orc", [0, 3])]
    state = battle({"ua": ("A", "regiment", stands), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])})
    adj = [{"type": "set_hp", "id": s, "hp": 0} for s in ("a2", "a3")]
    two = resolve(state, {"gm": {"adjustments": adj}})
    assert not any(e["type"] == "morale" for e in two["events"])  # 2 of 4: not more than half
    adj.append({"type": "set_hp", "id": "a4", "hp": 0})
    out = resolve(state, {"gm": {"adjustments": adj}}, dice={"ua.morale": [9]})
    morale = [e for e in out["events"] if e["type"] == "morale"]
    assert morale == [{"type": "morale", "round": 1, "unit": "ua", "d20": [9], "total": 9, "success": False}]
    assert out["state"]["units"]["ua"]["broken"] is True
    with pytest.raises(InvalidInput) as err:
        resolve(out["state"], {"units": {"ua": {"action": "attack"}}})
    assert "declarations.units.ua.action" in err.value.fields
    held = resolve(state, {"gm": {"adjustments": adj}}, dice={"ua.morale": [10]})
    assert held["state"]["units"]["ua"]["broken"] is False


def test_rally_at_ten_and_motivate_in_the_same_turn():
    stands = [("a1", "orc", [0, 0]), ("a2", "orc", [1, 0])]
    state = battle({"ua": ("A", "regiment", stands), "ub": ("B", "regiment", [("b1", "orc", [2, 0])])},
                   solos={"chief": {"side": "A", "profile": "knight", "attached_to": "a1", "commander_of": "ua"}})
    state["units"]["ua"]["broken"] = True
    # rally: best WIS modifier 0 + knight CHA modifier +2
    failed = resolve(state, dice={"ua.rally": [7]})
    assert [e for e in failed["events"] if e["type"] == "rally"][0]["success"] is False
    ok = resolve(state, {"units": {"ua": {"action": "disengage", "if_rallied": {"action": "attack", "stands": [
        {"stand": "a2", "attacks": [{"attack": "greataxe", "target": "b1"}]}]}}}},
        dice={"ua.rally": [8], "a2.atk1.d20": [1, 1]})
    rally = [e for e in ok["events"] if e["type"] == "rally"][0]
    assert (rally["total"], rally["success"]) == (10, True)
    assert any(e["type"] == "attack" and e["attacker"] == "a2" for e in ok["events"])
    state["units"]["ua"]["broken"] = False
    motivated = resolve(state, {"solos": {"chief": {"bonus_action": "motivate"}}, "units": {"ua": {
        "action": "attack", "stands": [{"stand": "a2", "attacks": [{"attack": "greataxe", "target": "b1"}]}]}}},
        dice={"chief.command": [13], "a2.atk1.d20": [3, 17], "a2.atk1.damage_1": [1]})
    attack_event = [e for e in motivated["events"] if e["type"] == "attack"][0]
    assert attack_event["roll_mode"] == "advantage" and attack_event["natural"] == 17
    assert motivated["state"]["units"]["ua"]["motivate_until_round"] == 2
    missed = resolve(state, {"solos": {"chief": {"bonus_action": "motivate"}}}, dice={"chief.command": [12]})
    assert missed["state"]["units"]["ua"]["motivate_until_round"] is None


def test_hide_then_advantage_then_revealed():
    state = battle({"sk": ("A", "skirmishers", [("k1", "orc", [0, 0]), ("k2", "orc", [0, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0]), ("b2", "orc", [3, 0])])})
    # enemy passive Perception 10 (WIS 11)
    failed = resolve(state, {"units": {"sk": {"action": "hide", "stands": [{"stand": "k1"}]}}}, dice={"k1.stealth": [8]})
    assert failed["state"]["stands"]["k1"]["hidden"] is False  # 8 + 1 = 9 < 10
    out = resolve(state, {"units": {"sk": {"action": "hide", "stands": [{"stand": "k1"}, {"stand": "k2", "hide": False}]}}},
                  dice={"k1.stealth": [9]})
    assert out["state"]["stands"]["k1"]["hidden"] is True and out["state"]["stands"]["k2"]["hidden"] is False
    after = resolve(out["state"], {"units": {"sk": {"action": "attack", "stands": [
        {"stand": "k1", "attacks": [{"attack": "javelin", "target": "b1"}]}]}}},
        dice={"k1.atk1.d20": [5, 19], "k1.atk1.damage_1": [1]})
    event = [e for e in after["events"] if e["type"] == "attack"][0]
    assert (event["roll_mode"], event["natural"]) == ("advantage", 19)
    assert after["state"]["stands"]["k1"]["hidden"] is False


def test_fireball_by_a_stand_in_a_round_doubles_and_spends_a_use():
    state = battle({"mages": ("A", "skirmishers", [("m1", "mage", [0, 0])]),
                    "ub": ("B", "regiment", [("b1", "orc", [6, 2]), ("b2", "ogre", [8, 2])])})
    assert state["stands"]["m1"]["spell_uses"] == {"fireball": 3}
    out = resolve(state, {"units": {"mages": {"action": "cast_spell", "stands": [
        {"stand": "m1", "spell": {"name": "fireball", "origin": [6, 2]}}]}}},
        dice={"m1.spell.save.b1": [20], "m1.spell.save.b2": [1], "m1.spell.damage_1": [1] * 8})
    effects = {e["target"]: e for e in out["events"] if e["type"] == "spell_effect"}
    assert effects["b1"]["saved"] is True and effects["b1"]["damage"] == 8  # 8 doubled 16, half 8
    assert effects["b2"]["saved"] is False and effects["b2"]["damage"] == 8  # partly covered: 16 // 2
    assert out["state"]["stands"]["m1"]["spell_uses"] == {"fireball": 2}
    assert out["state"]["stands"]["b2"]["hp"] == 51


def test_join_size_rule_and_join_in_a_round():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [2, 2]), ("a2", "orc", [3, 2])]),
                    "ub": ("B", "regiment", [("b1", "orc", [9, 5])])},
                   solos={"hero": {"side": "A", "profile": "knight", "position": [2, 0]},
                          "giant": {"side": "A", "profile": "hill_giant", "position": [5, 0]}})
    with pytest.raises(InvalidInput) as err:
        resolve(state, {"solos": {"giant": {"action": "join", "join": "a1"}}})
    assert "declarations.solos.giant.join" in err.value.fields
    out = resolve(state, {"solos": {"hero": {"action": "join", "join": "a1", "move": [[2, 1], [2, 2]],
                                             "bonus_action": "become_commander"}}})
    hero = out["state"]["solos"]["hero"]
    assert (hero["attached_to"], hero["position"], hero["isolated"]) == ("a1", None, False)
    assert out["state"]["units"]["ua"]["commander"] == "hero"


def test_objective_destruction_road_and_protection():
    cells = [{"at": [x, 2], "terrain": "road"} for x in range(10)]
    squares = {"bridge": {"at": [4, 2], "hp_max": 10, "vp": 3}}
    objectives = {"burn": {"side": "A", "type": "destruction", "squares": ["bridge"]},
                  "hold": {"side": "B", "type": "protection", "squares": ["bridge"]}}
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [3, 2])]),
                    "ub": ("B", "regiment", [("b1", "orc", [4, 4]), ("b2", "orc", [5, 4])])},
                   cells=cells, squares=squares, objectives=objectives, width=10, height=8)
    out = resolve(state, {"units": {"ua": {"action": "attack", "stands": [
        {"stand": "a1", "attacks": [{"attack": "greataxe", "target": "bridge"}]}]}}},
        dice={"a1.atk1.damage_1": [7]})
    assert out["state"]["objective_squares"]["bridge"] == {"at": [4, 2], "hp_max": 10, "hp": 0, "vp": 3, "ac": 15,
                                                           "destroyed_round": 1}
    assert out["victory_points"] == {"A": 3, "B": 0}
    over_road = run("check-movement", {"state": out["state"], "mover": "a1", "move": [[4, 2]]})
    assert over_road["step_costs"] == [2]  # a destroyed road square is difficult
    # protection: two B stands adjacent to the live square, no enemy within 2
    state2 = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]),
                     "ub": ("B", "regiment", [("b1", "orc", [4, 3]), ("b2", "orc", [5, 2])])},
                    cells=cells, squares=squares, objectives=objectives, width=10, height=8)
    held = resolve(state2)
    assert held["victory_points"]["B"] == 1
    state2["stands"]["a1"]["position"] = [2, 2]  # distance 2 from the bridge
    assert resolve(state2)["victory_points"]["B"] == 0
    state2["stands"]["a1"]["position"] = [1, 2]  # distance 3
    assert resolve(state2)["victory_points"]["B"] == 1


def test_death_saves_in_the_round_and_gm_awards_and_custom_objectives():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])},
                   solos={"hero": {"side": "A", "profile": "knight", "position": [0, 3], "hp": 0}},
                   objectives={"flag": {"side": "B", "type": "custom", "vp": 2}})
    assert state["solos"]["hero"]["condition"] == "dying"
    out = resolve(state, {"gm": {"custom_achieved": ["flag"], "award_vp": [{"side": "A", "vp": -3, "reason": "x"}]}},
                  dice={"hero.death_saves": [20]})
    assert out["state"]["solos"]["hero"]["condition"] == "active" and out["state"]["solos"]["hero"]["hp"] == 1
    assert out["victory_points"] == {"A": 0, "B": 2}
    assert out["state"]["objectives"]["flag"]["achieved_round"] == 1
    again = resolve(out["state"], {"gm": {"custom_achieved": ["flag"]}})
    assert again["victory_points"]["B"] == 2  # scores once


def test_surprised_unit_does_not_act_in_round_one():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [1, 0])])})
    state["units"]["ua"]["surprised"] = True
    decl = {"units": {"ua": {"action": "attack", "stands": [{"stand": "a1", "attacks": [
        {"attack": "greataxe", "target": "b1"}]}]}}}
    out = resolve(state, decl)
    assert {"type": "turn_skipped", "round": 1, "actor": "ua", "reason": "surprised"} in out["events"]
    assert not any(e["type"] == "attack" for e in out["events"])
    later = resolve(out["state"], decl, dice={"a1.atk1.d20": [1]})
    assert any(e["type"] == "attack" for e in later["events"])


def test_casualty_shift_takes_the_fallen_anchor():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [1, 0]), ("a2", "orc", [1, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0])])})
    out = resolve(state, {"gm": {"adjustments": [{"type": "set_hp", "id": "a1", "hp": 0}]},
                          "casualty_shifts": [{"if_eliminated": "a1", "shift": "a2"}]})
    assert out["state"]["stands"]["a2"]["position"] == [1, 0]
    assert {"type": "shift", "round": 1, "stand": "a2", "into": "a1", "success": True} in out["events"]


def test_attached_solo_of_a_fallen_stand_is_placed_on_its_square():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [1, 0]), ("a2", "orc", [1, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [5, 0])])},
                   solos={"hero": {"side": "A", "profile": "knight", "attached_to": "a1", "commander_of": "ua"}})
    out = resolve(state, {"gm": {"adjustments": [{"type": "set_hp", "id": "a1", "hp": 0}]}})
    hero = out["state"]["solos"]["hero"]
    assert (hero["position"], hero["attached_to"]) == ([1, 0], None)
    assert out["state"]["units"]["ua"]["commander"] is None
    kept = resolve(state, {"gm": {"adjustments": [{"type": "set_hp", "id": "a1", "hp": 0}]},
                           "solo_fallbacks": {"hero": {"reattach_to": "a2"}}})
    assert kept["state"]["solos"]["hero"]["attached_to"] == "a2"
    assert kept["state"]["units"]["ua"]["commander"] == "hero"


def test_support_gives_advantage_to_melee_only_while_adjacent():
    stands = [("a1", "orc", [1, 0]), ("a2", "orc", [1, 1]), ("a3", "orc", [0, 3])]
    state = battle({"ua": ("A", "regiment", stands),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0]), ("b2", "orc", [3, 0])])})
    state["units"]["ua"]["configuration"] = "support"
    decl = {"units": {"ua": {"action": "attack", "stands": [
        {"stand": "a1", "attacks": [{"attack": "greataxe", "target": "b1"}]},
        {"stand": "a2", "support": "a1"}]}}}
    out = resolve(state, decl, dice={"a1.atk1.d20": [2, 18], "a1.atk1.damage_1": [1]})
    event = [e for e in out["events"] if e["type"] == "attack"][0]
    assert (event["roll_mode"], event["natural"]) == ("advantage", 18)
    assert {"type": "support", "round": 1, "stand": "a2", "supports": "a1"} in out["events"]
    far = copy.deepcopy(decl)
    far["units"]["ua"]["stands"][1] = {"stand": "a3", "support": "a1"}
    out = resolve(state, far, dice={"a1.atk1.d20": [2], "a1.atk1.damage_1": [1]})
    assert [e for e in out["events"] if e["type"] == "attack"][0]["roll_mode"] == "normal"
    with pytest.raises(InvalidInput):
        state["units"]["ua"]["configuration"] = "march"
        resolve(state, decl)


def test_road_step_needs_a_road_square():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])})
    out = run("check-movement", {"state": state, "mover": "a1", "move": [[1, 0]], "road_step": "east"})
    assert (out["legal"], out["road_step_used"], out["final_position"], out["stopped_at_step"]) == (
        False, False, [1, 0], 2)
    assert out["steps_declared"] == 2 and out["steps_taken"] == 1


def test_gm_adjustments():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0]), ("a2", "orc", [0, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [9, 5])])},
                   solos={"hero": {"side": "A", "profile": "knight", "position": [3, 3]},
                          "chief": {"side": "A", "profile": "knight", "attached_to": "a1"}})
    adjustments = [
        {"type": "move", "id": "a2", "position": [1, 1]},
        {"type": "set_condition", "id": "hero", "condition": "stable"},
        {"type": "set_commander", "id": "ua", "commander": "chief"},
        {"type": "set_broken", "id": "ub", "broken": True},
        {"type": "set_configuration", "id": "ua", "configuration": "defense"},
        {"type": "set_hidden", "id": "b1", "hidden": True},
        {"type": "move", "id": "b1", "position": [10, 5]},
    ]
    out = resolve(state, {"gm": {"adjustments": adjustments}})
    st = out["state"]
    assert st["stands"]["a2"]["position"] == [1, 1]
    assert (st["solos"]["hero"]["condition"], st["solos"]["hero"]["hp"]) == ("stable", 0)
    assert st["units"]["ua"]["commander"] == "chief" and st["units"]["ua"]["configuration"] == "defense"
    assert st["units"]["ub"]["broken"] is True
    assert st["stands"]["b1"]["status"] == "fled" and out["battle_over"]  # B has nothing left
    assert sum(e["type"] == "adjustment" for e in out["events"]) == len(adjustments)
    with pytest.raises(InvalidInput) as err:
        resolve(state, {"gm": {"adjustments": [{"type": "set_commander", "id": "ua", "commander": "hero"}]}})
    assert "declarations.gm.adjustments[0].commander" in err.value.fields
    placed = resolve(state, {"gm": {"adjustments": [{"type": "remove", "id": "a1"}]}})
    assert placed["state"]["solos"]["chief"]["position"] == [0, 0]


def test_gm_award_never_takes_a_side_below_zero(ford_state):
    out = resolve(ford_state, {"gm": {"award_vp": [{"side": "A", "vp": 2, "reason": "bravery"},
                                                   {"side": "B", "vp": -5}]}})
    assert out["victory_points"] == {"A": 2, "B": 0}
    assert [e["reason"] for e in out["events"] if e["type"] == "vp"] == ["gm_award", "gm_award"]


def test_initiative_order_ties_and_attached_solos():
    setup = {"map": {"width": 10, "height": 6}, "profiles": copy.deepcopy(PROFILES), "sides": {"A": {}, "B": {}},
             "units": {"ua": {"side": "A", "type": "skirmishers", "stands": [
                 {"id": "a1", "profile": "orc", "position": [0, 0]}, {"id": "a2", "profile": "mage", "position": [0, 1]}]},
                 "ub": {"side": "B", "type": "regiment", "configuration": "march", "stands": [
                     {"id": "b1", "profile": "orc", "position": [9, 0]}, {"id": "b2", "profile": "ogre", "position": [8, 1]}]}},
             "solos": {"zed": {"side": "A", "profile": "knight", "attached_to": "a1"},
                       "amy": {"side": "A", "profile": "knight", "attached_to": "a2"},
                       "wiz": {"side": "B", "profile": "mage", "position": [5, 5]}},
             "dice": {"init.ua": [10], "init.ub": [13], "init.wiz": [10]}}
    state = run("new-battle", setup)["state"]
    # ua: best DEX of orc +1, mage +2, knights +0 -> +2; ub: worst of +1, -1 -> -1; wiz: +2
    assert state["initiative_order"][:3] == [
        {"id": "ua", "kind": "unit", "total": 12, "modifier": 2},
        {"id": "amy", "kind": "solo", "total": 12, "modifier": 2},
        {"id": "zed", "kind": "solo", "total": 12, "modifier": 2}]
    ids = [e["id"] for e in state["initiative_order"]]
    assert ids == ["ua", "amy", "zed", "wiz", "ub"]  # 12 (+2, ua) before 12 (+2, wiz) by id; ub's +-1 last
    assert state["solos"]["amy"]["initiative"] == 12 and state["units"]["ub"]["initiative"] == 12


def test_configure_applies_at_the_end_of_the_turn_and_defense_dash_is_full_speed():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0])]), "ub": ("B", "regiment", [("b1", "orc", [9, 5])])})
    out = resolve(state, {"units": {"ua": {"action": "configure", "configuration": "defense", "stands": [
        {"stand": "a1", "move": [[1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0]]}]}}})
    move = [e for e in out["events"] if e["type"] == "move"][0]
    assert (move["to"], move["allowance"], move["stopped_reason"]) == ([6, 0], 6, None)  # still marching
    assert out["state"]["units"]["ua"]["configuration"] == "defense"
    assert {"type": "configure", "round": 1, "unit": "ua", "from": "march", "to": "defense"} in out["events"]
    dash = resolve(out["state"], {"units": {"ua": {"action": "dash", "stands": [
        {"stand": "a1", "move": [[6, 1], [6, 2], [6, 3], [6, 4], [6, 5], [5, 5], [4, 5]]}]}}})
    move = [e for e in dash["events"] if e["type"] == "move"][0]
    assert (move["allowance"], move["steps_taken"], move["stopped_reason"]) == (6, 6, "insufficient_movement")


def test_prepared_stands_save_with_advantage():
    state = battle({"mages": ("A", "skirmishers", [("m1", "mage", [0, 0])]),
                    "ub": ("B", "regiment", [("b1", "orc", [6, 2]), ("b2", "orc", [6, 3])])},
                   solos={"chief": {"side": "B", "profile": "knight", "attached_to": "b1", "commander_of": "ub"}})
    state["units"]["ub"]["prepare_until_round"] = 2
    out = resolve(state, {"units": {"mages": {"action": "cast_spell", "stands": [
        {"stand": "m1", "spell": {"name": "fireball", "origin": [6, 2]}}]}}},
        dice={"m1.spell.save.b1": [3, 15], "m1.spell.save.b2": [2, 4], "m1.spell.save.chief": [9],
              "m1.spell.damage_1": [1] * 8})
    effects = {e["target"]: e for e in out["events"] if e["type"] == "spell_effect"}
    assert effects["b1"]["saved"] is True and effects["b2"]["saved"] is False
    assert effects["chief"]["saved"] is False  # attached solos keep their own saves (H32): one die
    assert effects["b1"]["damage"] == 8 and effects["b2"]["damage"] == 16 and effects["chief"]["damage"] == 16


def test_attached_solo_detaches_before_its_stands_and_attacks_from_its_new_square():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [0, 0]), ("a2", "orc", [0, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0]), ("b2", "orc", [2, 1])])},
                   solos={"chief": {"side": "A", "profile": "knight", "attached_to": "a1", "commander_of": "ua"}})
    out = resolve(state, {"solos": {"chief": {"timing": "before_stands", "detach_to": [1, 0], "action": "attack",
                                              "attacks": [{"attack": "greatsword", "target": "b1"},
                                                          {"attack": "greatsword", "target": "b2"}]}}},
                  dice={"chief.atk1.d20": [1]})
    types = [(e["type"], e.get("actor") or e.get("solo") or e.get("attacker")) for e in out["events"]]
    start = types.index(("turn", "ua"))
    assert types[start:start + 4] == [("turn", "ua"), ("turn", "chief"), ("commander_change", None),
                                      ("detach", "chief")]
    attacks = [e for e in out["events"] if e["type"] == "attack"]
    assert [(a["target"], a["roll_mode"]) for a in attacks] == [("b1", "normal")]
    # b2 is diagonal to the new square (distance 2): that attack is lost, no die is used
    assert [(e["index"], e["target"], e["reason"]) for e in out["events"] if e["type"] == "attack_skipped"] == [
        (2, "b2", "out_of_reach")]
    assert "chief.atk2.d20" not in out["dice"]
    chief = out["state"]["solos"]["chief"]
    assert (chief["position"], chief["attached_to"]) == ([1, 0], None)
    assert out["state"]["units"]["ua"]["commander"] is None
    with pytest.raises(InvalidInput):
        resolve(state, {"solos": {"chief": {"action": "attack", "attacks": [
            {"attack": "greatsword", "target": "b1"}, {"attack": "greatsword", "target": "b1"},
            {"attack": "greatsword", "target": "b1"}]}}})


def test_overflow_in_a_round():
    state = battle({"ua": ("A", "regiment", [("a1", "ogre", [0, 0])]),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0]), ("b2", "orc", [3, 0])])})
    state["stands"]["b1"]["hp"] = 3
    out = resolve(state, {"units": {"ua": {"action": "attack", "stands": [
        {"stand": "a1", "attacks": [{"attack": "greatclub", "target": "b1"}]}]}}},
        dice={"a1.atk1.d20": [15, 15], "a1.atk1.damage_1": [4, 4]})
    kinds = [e for e in out["events"] if e["type"] in ("damage", "overflow", "overflow_wasted")]
    assert kinds == [
        {"type": "damage", "round": 1, "target": "b1", "amount": 12, "hp_before": 3, "hp_after": 0, "status": "casualty"},
        {"type": "overflow", "round": 1, "from": "b1", "to": "b2", "amount": 9},
        {"type": "damage", "round": 1, "target": "b2", "amount": 9, "hp_before": 15, "hp_after": 6, "status": "active"}]


def test_solo_movement_join_crossing_and_no_adjacency_block():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [2, 2]), ("a2", "orc", [3, 2])]),
                    "ub": ("B", "regiment", [("b1", "orc", [1, 0])])},
                   solos={"hero": {"side": "A", "profile": "knight", "position": [2, 0]}})
    join = run("check-movement", {"state": state, "mover": "hero", "move": [[2, 1], [2, 2]], "join": "a1"})
    assert (join["legal"], join["join_ready"], join["final_position"]) == (True, True, [2, 2])
    blocked = run("check-movement", {"state": state, "mover": "hero", "move": [[2, 1], [2, 2]]})
    assert (blocked["stopped_reason"], blocked["final_position"]) == ("occupied", [2, 1])
    through = run("check-movement", {"state": state, "mover": "hero", "move": [[2, 1], [2, 2], [2, 3]], "join": "a1"})
    assert through["stopped_reason"] == "occupied"  # a regiment stand can be entered only as the last step
    # the solo starts next to the enemy stand b1 and is not held back (H24)
    free = run("check-movement", {"state": state, "mover": "hero", "move": [[3, 0], [4, 0]]})
    assert free["legal"] is True
    with pytest.raises(InvalidInput) as err:
        run("check-movement", {"state": state, "mover": "hero", "move": [[3, 0]], "road_step": "east"})
    assert "road_step" in err.value.fields


def test_orders_made_impossible_by_the_gm_are_cut_short_not_refused():
    state = battle({"ua": ("A", "regiment", [("a1", "orc", [1, 0]), ("a2", "orc", [1, 1])]),
                    "ub": ("B", "regiment", [("b1", "orc", [2, 0])])})
    decl = {"units": {"ua": {"action": "attack", "stands": [
        {"stand": "a1", "attacks": [{"attack": "greataxe", "target": "b1"}]},
        {"stand": "a2", "move": [[0, 1]]}]}},
        "gm": {"adjustments": [{"type": "set_broken", "id": "ua", "broken": True},
                               {"type": "remove", "id": "a2"}]}}
    out = resolve(state, decl)
    assert not any(e["type"] == "attack" for e in out["events"])
    assert any(step["key"] == "round.orders_cut" for step in out["log"])
    # paths are checked from where the adjustments put the creature
    moved = {"units": {"ua": {"stands": [{"stand": "a2", "move": [[0, 3]]}]}},
             "gm": {"adjustments": [{"type": "move", "id": "a2", "position": [0, 2]}]}}
    assert resolve(state, moved)["state"]["stands"]["a2"]["position"] == [0, 3]
    # a path declared from where the stand stood is not refused once the GM moves it: it is cut (H5, S5.7.2)
    out = resolve(state, {"units": {"ua": {"stands": [{"stand": "a2", "move": [[0, 1]]}]}},
                          "gm": {"adjustments": [{"type": "move", "id": "a2", "position": [0, 3]}]}})
    assert out["state"]["stands"]["a2"]["position"] == [0, 3]
    assert [e["stopped_reason"] for e in out["events"] if e["type"] == "move"] == ["path_broken"]
    assert any(step["key"] == "round.path_moved" for step in out["log"])
    with pytest.raises(InvalidInput) as err:  # malformed from both squares: refused
        resolve(state, {"units": {"ua": {"stands": [{"stand": "a2", "move": [[3, 3]]}]}},
                        "gm": {"adjustments": [{"type": "move", "id": "a2", "position": [0, 3]}]}})
    assert "declarations.units.ua.stands[0].move[0]" in err.value.fields


def test_manual_modifiers_on_spell_orders():
    state = battle({"mages": ("A", "skirmishers", [("m1", "mage", [0, 0])]),
                    "ub": ("B", "regiment", [("b1", "orc", [4, 0]), ("b2", "orc", [4, 1])])})
    decl = {"units": {"mages": {"action": "cast_spell", "stands": [{"stand": "m1", "spell": {
        "name": "fire_bolt", "targets": ["b1"], "to_hit_modifier": 2, "damage_modifier": 3}}]}}}
    out = resolve(state, decl, dice={"m1.spell.attack.b1": [5, 5], "m1.spell.damage_1.b1": [1, 1]})
    effect = [e for e in out["events"] if e["type"] == "spell_effect"][0]
    assert (effect["hit"], effect["damage"]) == (True, 5)  # lone caster: disadvantage; 5 + 6 + 2 = 13 vs AC 13
    decl["units"]["mages"]["stands"][0]["spell"]["to_hit_modifier"] = 0
    out = resolve(state, decl, dice={"m1.spell.attack.b1": [5, 5]})
    assert [e for e in out["events"] if e["type"] == "spell_effect"][0]["hit"] is False
