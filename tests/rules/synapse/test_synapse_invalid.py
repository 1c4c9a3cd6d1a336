"""Invalid input: the error object, its exact JSON paths, exit code 2 on the CLI."""

import io
import json

import pytest

from rules import cli


def troop(**extra):
    return {"id": "u", "unit_type": "human_infantry", "headcount": 10, "weapon_damage": 2, "combat_base": 3, **extra}


@pytest.mark.parametrize("unit,path", [
    (troop(unit_type="goblins"), "unit.unit_type"),
    (troop(unit_type="artillery", rate_of_fire=1, weapon_range="long"), "unit.pieces"),
    (troop(pieces=2), "unit.pieces"),
    (troop(unit_type="archers_crossbowmen", weapon_range="long"), "unit.rate_of_fire"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire=1), "unit.weapon_range"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire="1/0", weapon_range="long"), "unit.rate_of_fire"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire=0, weapon_range="long"), "unit.rate_of_fire"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire="2x", weapon_range="long"), "unit.rate_of_fire"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire=1, weapon_range="long", secondary_damage=2),
     "unit.secondary_damage"),
    (troop(unit_type="archers_crossbowmen", rate_of_fire=1, weapon_range="long", thrown_only=True), "unit.thrown_only"),
    (troop(unit_type="artillery", pieces=1, combat_mode="melee"), "unit.combat_mode"),
    (troop(group="ranged"), "unit.group"),
    (troop(armour_extra=3), "unit.armour_extra"),
    (troop(headcount=0), "unit.headcount"),
    (troop(headcount=4.0), "unit.headcount"),
    (troop(shield="yes"), "unit.shield"),
    (troop(category="boat"), "unit.category"),
    (troop(assault_multiplier=4), "unit.assault_multiplier"),
    ({"id": "v", "category": "vehicle", "crew_combat": 3, "vehicle_types": []}, "unit.vehicle_types"),
])
def test_unit_sheet_refusals(refused, unit, path):
    assert path in refused("unit-sheet", {"unit": unit})


def test_nested_path_of_a_vehicle_weapon(refused):
    unit = {"id": "v", "category": "vehicle", "crew_combat": 3, "vehicle_types": [
        {"name": "t", "count": 1, "toughness": 10, "weapons": [{"weapon_damage": 1, "rate_of_fire": "x"}]}]}
    assert "unit.vehicle_types[0].weapons[0].rate_of_fire" in refused("unit-sheet", {"unit": unit})


def test_army_paths(refused, setup):
    setup["armies"]["A"]["units"][1]["rate_of_fire"] = "0"
    assert "armies.A.units[1].rate_of_fire" in refused("new-battle", setup)


@pytest.mark.parametrize("change,path", [
    (lambda s: s["armies"].pop("B"), "armies"),
    (lambda s: s["armies"].update(C=s["armies"]["A"]), "armies"),
    (lambda s: s.update(combat_type="air"), "combat_type"),
    (lambda s: s.update(mode="vehicles"), "combat_type"),
    (lambda s: s.update(mode="assault"), "fortification"),
    (lambda s: s.update(fortification={"class": "fortress", "defender": "A", "optimal_garrison": 100}), "fortification"),
    (lambda s: s["armies"]["A"]["units"].append(dict(s["armies"]["A"]["units"][0])), "armies.A.units[2].id"),
    (lambda s: s["armies"]["B"]["characters"].append({"id": "hugo", "unit_id": "b_orcs"}), "armies.B.characters[1].id"),
    (lambda s: s["armies"]["B"]["characters"][0].update(unit_id="a_foot"), "armies.B.characters[0].unit_id"),
    (lambda s: s["armies"]["B"]["units"][0].update(group="reserve"), "armies.B.units"),
    (lambda s: s["armies"]["A"].update(longest_range=True), "armies.A.longest_range"),
    (lambda s: s["armies"]["B"]["units"].append(
        {"id": "tank", "category": "vehicle", "crew_combat": 3,
         "vehicle_types": [{"name": "t", "count": 1, "toughness": 10}]}), "armies.B.units[1].category"),
])
def test_new_battle_refusals(refused, setup, change, path):
    change(setup)
    assert path in refused("new-battle", setup)


def test_assault_capacity(run, refused, setup):
    setup.update(mode="assault", fortification={"class": "small_fort", "defender": "B", "optimal_garrison": 149})
    assert "armies.B.units" in refused("new-battle", setup)
    setup["fortification"]["optimal_garrison"] = 150  # 300 orcs in a place for 2 x 150
    assert run("new-battle", setup)["state"]["fortification"]["capacity"] == 300


def test_chariots_alone_cannot_deploy(refused, setup):
    setup["terrain"] = "forest"
    setup["armies"]["B"]["units"][0]["unit_type"] = "war_chariots"
    assert "armies.B.units" in refused("new-battle", setup)


@pytest.mark.parametrize("decl,path", [
    ({"sides": {"B": {"orders": {"B.melee": {"action": "attack", "target": "A.ranged"}}}}},
     "declarations.sides.B.orders.B.melee.target"),
    ({"sides": {"B": {"orders": {"B.melee": {"action": "attack"}}}}}, "declarations.sides.B.orders.B.melee.target"),
    ({"sides": {"B": {"orders": {"B.melee": {"action": "attack", "target": "B.melee"}}}}},
     "declarations.sides.B.orders.B.melee.target"),
    ({"sides": {"B": {"orders": {"A.melee": {"action": "hold"}}}}}, "declarations.sides.B.orders.A.melee"),
    ({"sides": {"B": {"orders": {"B.melee": {"action": "riposte"}}}}}, "declarations.sides.B.orders.B.melee.action"),
    ({"sides": {"B": {"orders": {"B.melee": {"action": "retreat"}}}}}, "declarations.sides.B.orders.B.melee.action"),
    ({"sides": {"B": {"orders": {"B.melee": {"action": "charge"}}}}}, "declarations.sides.B.orders.B.melee.action"),
    ({"sides": {"A": {"rally": ["A.melee"]}}}, "declarations.sides.A.rally[0]"),
    ({"sides": {"A": {"commit_reserve": True}}}, "declarations.sides.A.commit_reserve"),
    ({"gm": {"encircled": ["X.melee"]}}, "declarations.gm.encircled[0]"),
    ({"gm": {"formation_modifiers": {"nope": {"attack": 1}}}}, "declarations.gm.formation_modifiers.nope"),
    ({"gm": {"rally_modifiers": {"A.melee": 1000}}}, "declarations.gm.rally_modifiers.A.melee"),
    ({"gm": {"command_modifiers": {"A": 21}}}, "declarations.gm.command_modifiers.A"),
    ({"gm": {"mobility_edge": "C"}}, "declarations.gm.mobility_edge"),
])
def test_resolve_round_refusals(refused, battle, decl, path):
    assert path in refused("resolve-round", {"state": battle, "declarations": decl})


def test_round_on_a_finished_battle(refused, battle):
    battle["status"] = "over"
    assert "state.status" in refused("resolve-round", {"state": battle})


def test_state_types_are_checked(refused, battle):
    battle["formations"]["A.melee"]["losses"] = -1
    assert "state.formations.A.melee.losses" in refused("resolve-round", {"state": battle})
    battle["formations"]["A.melee"]["losses"] = 0
    battle["formations"]["A.melee"]["in_contact_with"] = ["Z.melee"]
    assert "state.formations.A.melee.in_contact_with" in refused("resolve-round", {"state": battle})


@pytest.mark.parametrize("value", [10, 20, 0, -3, 4.0, "7", 1000])
def test_bad_open_d10_values(refused, battle, value):
    fields = refused("resolve-round", {"state": battle, "dice": {"command:A": value}})
    assert "dice.command:A" in fields


def test_bad_d6_values(refused, example):
    payload, _ = example("casualties")
    payload["dice"] = {"character:hero": [7]}
    assert "dice.character:hero" in refused("casualties", payload)
    payload["dice"] = {"character:hero": [3, 3]}
    assert "dice.character:hero" in refused("casualties", payload)


@pytest.mark.parametrize("payload,path", [
    ({"sides": {"A": {}, "B": {"army_combat": 1}}}, "sides.A.army_combat"),
    ({"sides": {"A": {"army_combat": 1, "retreat": True}, "B": {"army_combat": 1, "retreat": True}}}, "sides.B.retreat"),
    ({"mode": "vehicles", "sides": {"A": {"army_combat": 1, "retreat": True}, "B": {"army_combat": 1}}},
     "sides.A.retreat"),
    ({"mode": "assault", "sides": {"A": {"army_combat": 1, "assault_role": "defender"},
                                   "B": {"army_combat": 1, "assault_role": "attacker"}}}, "sides.A.garrison_headcount"),
])
def test_command_test_refusals(refused, payload, path):
    assert path in refused("command-test", payload)


def test_casualties_refusals(refused, example):
    payload, _ = example("casualties")
    payload["units"][0]["killed"] = 3
    assert "units[0].killed" in refused("casualties", payload)
    payload["units"][0]["killed"] = 9
    assert "units[0].killed" in refused("casualties", payload)
    payload["units"][0].pop("killed")
    payload["characters"][0]["unit_id"] = "ghost"
    assert "characters[0].unit_id" in refused("casualties", payload)


def test_end_battle_killed_paths(refused, example):
    payload, _ = example("end-battle")
    payload["killed"] = {"B": {"b_orcs": 114}}
    assert "killed.B.b_orcs" in refused("end-battle", payload)
    payload["killed"] = {"B": {"ghost": 1}}
    assert "killed.B.ghost" in refused("end-battle", payload)


def test_other_refusals(refused):
    assert "target.break_pct" in refused("attack", {"kind": "shock", "attacker": {"combat": 1, "attack_power": 1},
                                                    "target": {"defence": 1, "strength": 1}})
    assert "target_combat" in refused("experience", {"result": "defeat", "combat_base": 4, "target_combat": 6})
    assert "target_combat" in refused("experience", {"result": "defeat", "combat_base": 4, "target_combat": 4})
    assert "besieger.commander" in refused("siege", {
        "garrison": {"combat": 1, "headcount": 1, "strength": 1, "break_pct": 1},
        "fortification": {"class": "fortress"}, "besieger": {"headcount": 1}, "negotiate": True})
    assert "headcounts" in refused("battle-scale", {"headcounts": [0, 0]})
    assert "attack_power.A" in refused("numerical-advantage", {"attack_power": {"A": -1, "B": 0}})
    assert "army_combat" in refused("rally", {"combat_initial": 1, "losses": 1, "strength": 1})


def test_cli_exit_code_and_error_object(battle):
    out = io.StringIO()
    payload = json.dumps({"state": battle, "dice": {"command:A": 20}})
    code = cli.main(["synapse", "resolve-round"], stdin=io.StringIO(payload), stdout=out)
    assert code == 2
    error = json.loads(out.getvalue())
    assert set(error) == {"error", "fields"} and "dice.command:A" in error["fields"]


def test_cli_runs_with_a_seed(battle):
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        assert cli.main(["synapse", "resolve-round", "--seed", "3"], stdin=io.StringIO(json.dumps({"state": battle})),
                        stdout=out) == 0
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["state"]["round"] == 1
