"""Invalid input: exit 2 with the contract's error object and the spec's JSON paths."""

from __future__ import annotations

import copy
import io
import json

import pytest
from dnd5e_testkit import FORD_SETUP, PROFILES, big_setup, run

from rules import cli
from rules.errors import InvalidInput


def refused(op: str, payload: dict) -> dict:
    with pytest.raises(InvalidInput) as err:
        run(op, payload)
    out = err.value.as_dict()
    assert set(out) == {"error", "fields"} and out["error"] and out["fields"]
    return out["fields"]


def test_cli_exit_two_with_the_error_object():
    stdout = io.StringIO()
    code = cli.main(["dnd5e", "convert-distance"], stdin=io.StringIO('{"metres": 4.55, "kind": "range"}'),
                    stdout=stdout)
    assert code == 2
    out = json.loads(stdout.getvalue())
    assert set(out) == {"error", "fields"} and "metres" in out["fields"]


def test_cli_runs_an_operation():
    stdout = io.StringIO()
    assert cli.main(["dnd5e", "convert-distance", "--seed", "3"], stdin=io.StringIO('{"metres": 9, "kind": "movement"}'),
                    stdout=stdout) == 0
    assert json.loads(stdout.getvalue())["squares"] == 6


@pytest.mark.parametrize("payload,path", [
    ({"metres": 4.55, "kind": "range"}, "metres"),
    ({"metres": -1, "kind": "range"}, "metres"),
    ({"metres": 10001, "kind": "range"}, "metres"),
    ({"metres": 9, "kind": "miles"}, "kind"),
    ({"metres": "9", "kind": "movement"}, "metres"),
    ({"kind": "movement"}, "metres"),
])
def test_convert_distance_refusals(payload, path):
    assert path in refused("convert-distance", payload)


def test_profile_paths():
    assert "profile.size" in refused("creature-sheet", {"profile": {**PROFILES["orc"], "size": "colossal"}})
    assert "profile.ac" in refused("creature-sheet", {"profile": {**PROFILES["orc"], "ac": 41}})
    bad_dice = {**PROFILES["orc"], "attacks": [{**PROFILES["orc"]["attacks"][0],
                                                "damage": [{"dice": "1d7", "type": "slashing"}]}]}
    assert "profile.attacks[0].damage[0].dice" in refused("creature-sheet", {"profile": bad_dice})
    assert "unit_type" in refused("creature-sheet", {"profile": PROFILES["orc"], "role": "solo",
                                                     "unit_type": "regiment"})


def test_bad_die_values_are_refused():
    fields = refused("resolve-attack", {"attacker": {"kind": "stand"}, "attack": PROFILES["orc"]["attacks"][0],
                                        "target": {"kind": "stand", "ac": 10}, "distance": 1, "dice": {"d20": [21]}})
    assert "dice.d20" in fields
    fields = refused("resolve-attack", {"attacker": {"kind": "stand"}, "attack": PROFILES["orc"]["attacks"][0],
                                        "target": {"kind": "stand", "ac": 1}, "distance": 1,
                                        "dice": {"d20": [10], "damage_1": [13]}})
    assert "dice.damage_1" in fields
    fields = refused("resolve-attack", {"attacker": {"kind": "stand"}, "attack": PROFILES["orc"]["attacks"][0],
                                        "target": {"kind": "stand", "ac": 1}, "distance": 1,
                                        "dice": {"d20": [10, 11]}})
    assert "dice.d20" in fields  # a normal roll holds one die
    assert "dice.death_saves" in refused("death-saves", {"solo": {"condition": "dying"},
                                                          "dice": {"death_saves": [15, 0]}})
    assert "dice.death_saves" in refused("death-saves", {"solo": {"condition": "dying"},
                                                          "dice": {"death_saves": [15]}})


def test_resolve_round_die_path(ford_state):
    fields = refused("resolve-round", {"state": ford_state, "declarations": {"units": {"u_a": {
        "action": "attack", "stands": [{"stand": "sa1", "attacks": [{"attack": "greataxe", "target": "sb1"}]}]}}},
        "dice": {"sa1.atk1.d20": [0]}})
    assert "dice.sa1.atk1.d20" in fields


def test_solo_rules_of_the_stand_alone_operations():
    assert "attacker.motivated" in refused("resolve-attack", {
        "attacker": {"kind": "solo", "motivated": True}, "attack": PROFILES["orc"]["attacks"][0],
        "target": {"kind": "stand", "ac": 10}, "distance": 1})
    assert "distance" in refused("resolve-attack", {
        "attacker": {"kind": "stand"}, "attack": PROFILES["orc"]["attacks"][0],
        "target": {"kind": "stand", "ac": 10}, "distance": 0})
    assert "target.ac" in refused("resolve-attack", {
        "attacker": {"kind": "stand"}, "attack": PROFILES["orc"]["attacks"][0],
        "target": {"kind": "stand"}, "distance": 1})
    assert "unit.broken" in refused("commander-action", {"action": "rally", "commander": {"cha_mod": 2},
                                                         "unit": {"broken": False, "morale_modifier": 0}})
    assert "commander.cha_check_bonus" in refused("commander-action", {"action": "prepare", "commander": {}})
    assert "solo.condition" in refused("death-saves", {"solo": {"condition": "stable"}})
    assert "unit.surviving_stands" in refused("morale-check", {"unit": {"starting_stands": 2, "surviving_stands": 3}})
    assert "members" in refused("morale-check", {"unit": {"starting_stands": 4, "surviving_stands": 1}})
    assert "sides" in refused("end-battle", {"sides": {"A": {"victory_points": 1, "surviving_units": []}}})
    spell = {**PROFILES["mage"]["spells"][1], "resolution": "attack", "to_hit": 5}
    assert "spell" in refused("resolve-spell", {"caster": {"kind": "stand"}, "spell": spell,
                                                "targets": [{"id": "t", "kind": "stand", "ac": 10}]})


def test_new_battle_paths():
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_b"]["stands"][0]["position"] = [1, 1]
    assert "units.u_b.stands[0].position" in refused("new-battle", setup)
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_b"]["stands"][0]["position"] = [4, 1]
    assert "units.u_b.stands[0].position" in refused("new-battle", setup)
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_b"]["configuration"] = None
    assert "units.u_b.configuration" in refused("new-battle", setup)
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_b"]["stands"][0]["id"] = "u_a"
    assert "units.u_b.stands[0]" in refused("new-battle", setup)
    setup = copy.deepcopy(FORD_SETUP)
    setup["units"]["u_b"]["side"] = "A"
    assert "sides.B" in refused("new-battle", setup)
    setup = copy.deepcopy(FORD_SETUP)
    setup["map"]["cells"] = [{"at": [0, 0], "terrain": "deep_water", "elevation": 1}]
    assert "map.cells[0].elevation" in refused("new-battle", setup)
    setup = big_setup()
    setup["solos"]["captain"]["commander_of"] = "a_reg"
    assert "solos.captain.commander_of" in refused("new-battle", setup)
    setup = big_setup()
    del setup["objectives"]["burn"]
    assert "objectives.hold.squares[0]" in refused("new-battle", setup)
    setup = big_setup()
    setup["solos"]["wizard"]["attached_to"] = "bm1"
    assert "solos.wizard" in refused("new-battle", setup)


def test_state_consistency_paths(ford_state):
    broken = copy.deepcopy(ford_state)
    broken["stands"]["sb1"]["position"] = [1, 1]
    assert "state.stands.sb1.position" in refused("check-movement", {"state": broken, "mover": "sb1"})
    broken = copy.deepcopy(ford_state)
    broken["stands"]["sb1"]["hp"] = 12
    assert "state.stands.sb1.hp" in refused("apply-damage", {"state": broken, "target": "sb1", "amount": 1})
    assert "target" in refused("apply-damage", {"state": ford_state, "target": "nobody", "amount": 1})
    assert "amount" in refused("apply-damage", {"state": ford_state, "target": "sb1", "amount": -1})


def test_movement_declaration_paths(ford_state):
    fields = refused("check-movement", {"state": ford_state, "mover": "sa1", "move": [[1, 0], [2, 2]]})
    assert "move[1]" in fields
    fields = refused("resolve-round", {"state": ford_state, "declarations": {"units": {"u_a": {"stands": [
        {"stand": "sa1", "move": [[1, 0], [0, 0], [1, 1]]}]}}}})
    assert "declarations.units.u_a.stands[0].move[2]" in fields
    fields = refused("resolve-round", {"state": ford_state, "declarations": {"units": {"u_a": {"stands": [
        {"stand": "sa1", "move": [[1, 0]], "move_after": [[0, 0]]}]}}}})
    assert "declarations.units.u_a.stands[0].move_after" in fields
    fields = refused("resolve-round", {"state": ford_state, "declarations": {"units": {"u_a": {"stands": [
        {"stand": "sa1", "move": [[1, -1], [1, -2]]}]}}}})
    assert "declarations.units.u_a.stands[0].move[0]" in fields  # only the last step may leave the grid


@pytest.mark.parametrize("declarations,path", [
    ({"units": {"nope": {}}}, "declarations.units.nope"),
    ({"units": {"u_a": {"action": "hide"}}}, "declarations.units.u_a.action"),
    ({"units": {"u_a": {"action": "configure"}}}, "declarations.units.u_a.configuration"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sb1"}]}}}, "declarations.units.u_a.stands[0].stand"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1"}, {"stand": "sa1"}]}}},
     "declarations.units.u_a.stands[1].stand"),
    ({"units": {"u_a": {"action": "dash", "stands": [{"stand": "sa1", "attacks": [
        {"attack": "greataxe", "target": "sb1"}]}]}}}, "declarations.units.u_a.stands[0].attacks"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "attacks": [
        {"attack": "claw", "target": "sb1"}]}]}}}, "declarations.units.u_a.stands[0].attacks[0].attack"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "attacks": [
        {"attack": "greataxe", "target": "sb1"}, {"attack": "javelin", "target": "sb1"}]}]}}},
     "declarations.units.u_a.stands[0].attacks[1].attack"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "attacks": [
        {"attack": "greataxe", "target": "sa1"}]}]}}}, "declarations.units.u_a.stands[0].attacks[0].target"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "attacks": [
        {"attack": "greataxe", "target": "sb1", "reach_bonus": True}]}]}}},
     "declarations.units.u_a.stands[0].attacks[0].reach_bonus"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "support": "sa1"}]}}},
     "declarations.units.u_a.stands[0].support"),
    ({"units": {"u_a": {"action": "attack", "stands": [{"stand": "sa1", "road_step": "up"}]}}},
     "declarations.units.u_a.stands[0].road_step"),
    ({"casualty_shifts": [{"if_eliminated": "sa1", "shift": "sb1"}]}, "declarations.casualty_shifts[0].shift"),
    ({"gm": {"adjustments": [{"type": "set_hp", "id": "sa1"}]}}, "declarations.gm.adjustments[0].hp"),
    ({"gm": {"adjustments": [{"type": "set_hp", "id": "sa1", "hp": 16}]}}, "declarations.gm.adjustments[0].hp"),
    ({"gm": {"adjustments": [{"type": "move", "id": "sa1", "position": [2, 1]}]}},
     "declarations.gm.adjustments[0].position"),
    ({"gm": {"custom_achieved": ["oa"]}}, "declarations.gm.custom_achieved[0]"),
    ({"gm": {"award_vp": [{"side": "C", "vp": 1}]}}, "declarations.gm.award_vp[0].side"),
    ({"gm": {"isolation_overrides": {"ghost": True}}}, "declarations.gm.isolation_overrides.ghost"),
])
def test_invalid_declarations(ford_state, declarations, path):
    assert path in refused("resolve-round", {"state": ford_state, "declarations": declarations})


def test_invalid_solo_declarations(big_state):
    cases = [
        ({"chief": {"action": "dash"}}, "declarations.solos.chief.action"),
        ({"chief": {"move": [[3, 3]]}}, "declarations.solos.chief.move"),
        ({"wizard": {"detach_to": [1, 1]}}, "declarations.solos.wizard.detach_to"),
        ({"wizard": {"timing": "before_stands"}}, "declarations.solos.wizard.timing"),
        ({"wizard": {"action": "join"}}, "declarations.solos.wizard.join"),
        ({"wizard": {"action": "join", "join": "ar1"}}, "declarations.solos.wizard.join"),
        ({"wizard": {"bonus_action": "motivate"}}, "declarations.solos.wizard.bonus_action"),
        ({"chief": {"bonus_action": "rally"}}, "declarations.solos.chief.bonus_action"),
        ({"wizard": {"bonus_action": "become_commander"}}, "declarations.solos.wizard.bonus_action"),
        ({"wizard": {"road_step": "east"}}, "declarations.solos.wizard.road_step"),
        ({"wizard": {"action": "cast_spell", "spell": {"name": "fire_bolt"}}},
         "declarations.solos.wizard.spell.targets"),
        ({"wizard": {"action": "cast_spell", "spell": {"name": "fireball"}}}, "declarations.solos.wizard.spell.origin"),
        ({"wizard": {"action": "cast_spell", "spell": {"name": "fire_bolt", "targets": ["ar1"]}}},
         "declarations.solos.wizard.spell.targets[0]"),
        ({"wizard": {"action": "cast_spell", "spell": {"name": "fire_bolt", "targets": ["bw"]}}},
         "declarations.solos.wizard.spell.targets[0]"),
        ({"wizard": {"action": "cast_spell", "spell": {"name": "lightning"}}}, "declarations.solos.wizard.spell.name"),
        ({"ghost": {}}, "declarations.solos.ghost"),
    ]
    for solos, path in cases:
        assert path in refused("resolve-round", {"state": big_state, "declarations": {"solos": solos}}), path


def test_spent_spell_and_defense_attack(big_state):
    big_state["stands"]["bm1"]["spell_uses"]["fireball"] = 0
    fields = refused("resolve-round", {"state": big_state, "declarations": {"units": {"b_mages": {
        "action": "cast_spell", "stands": [{"stand": "bm1", "spell": {"name": "fireball", "origin": [10, 8]}}]}}}})
    assert "declarations.units.b_mages.stands[0].spell.name" in fields
    fields = refused("resolve-round", {"state": big_state, "declarations": {"units": {"b_reg": {"action": "attack"}}}})
    assert "declarations.units.b_reg.action" in fields
