"""Invalid input: exit 2 with the contract's error object, exact paths, impossible dice refused."""

import io
import json

import pytest

from heros_helpers import NEW_BATTLE, heros, refused
from rules.cli import main


def cli(args: list[str], payload: dict) -> tuple[int, dict]:
    out = io.StringIO()
    code = main(["heros", *args], stdin=io.StringIO(json.dumps(payload)), stdout=out)
    return code, json.loads(out.getvalue())


def test_cli_exit_2_with_the_error_object():
    code, body = cli(["unit-sheet"], {"unit": {"id": "u", "troop_type": "Bm", "class": "F", "factor_vs_foot": 5,
                                               "factor_vs_mounted": 5, "move": 3}})
    assert code == 2 and set(body) == {"error", "fields"}
    assert body["fields"] == {"unit.class": "class F is not allowed for Bm (allowed: S, O, I)"}
    assert isinstance(body["error"], str) and body["error"]


def test_cli_runs_with_a_seed():
    code, body = cli(["rally", "--seed", "3"], {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1})
    assert code == 0 and 1 <= body["roll"] <= 6 and body["dice"]["rally"] == body["roll"]


@pytest.mark.parametrize("op,payload,path", [
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Kn", "factor_vs_foot": 3, "factor_vs_mounted": 3, "move": 3},
                    "extra": 1}, "extra"),
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Kn", "factor_vs_mounted": 3, "move": 3}}, "unit.factor_vs_foot"),
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Zz", "factor_vs_foot": 3, "factor_vs_mounted": 3, "move": 3}},
     "unit.troop_type"),
    ("unit-sheet", {"unit": {"id": "bad id!", "troop_type": "Kn", "factor_vs_foot": 3, "factor_vs_mounted": 3, "move": 3}},
     "unit.id"),
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Kn", "factor_vs_foot": 13, "factor_vs_mounted": 3, "move": 3}},
     "unit.factor_vs_foot"),
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Kn", "factor_vs_foot": 3.0, "factor_vs_mounted": 3, "move": 3}},
     "unit.factor_vs_foot"),
    ("unit-sheet", {"unit": {"id": "u", "troop_type": "Kn", "factor_vs_foot": 3, "factor_vs_mounted": 3, "move": 3,
                             "ep": 0.7}}, "unit.ep"),
    ("character-sheet", {"character": {"id": "c", "role": "king"}}, "character.role"),
    ("rally", {"general": {"id": "g", "role": "sub_general"}, "corps": {"id": "c"}, "distance": 1}, "general.role"),
    ("rally", {"general": {"id": "g", "role": "ally_general"}, "corps": {"id": "c"}, "distance": 1}, "general.role"),
    ("rally", {"general": {"id": "g", "role": "cinc", "condition": "dead"}, "corps": {"id": "c"}, "distance": 1},
     "general.condition"),
    ("rally", {"general": {"id": "g", "role": "cinc", "rally_failed": True}, "corps": {"id": "c"}, "distance": 1},
     "general.rally_failed"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c", "rally_attempted": True}, "distance": 1},
     "corps.rally_attempted"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 7}, "distance"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}}, "distance"),
    ("wound-evolution", {"character": {"id": "c", "wound_state": "light"}, "rested": True, "fought": True}, "fought"),
    ("wound-evolution", {"character": {"id": "c", "wound_state": "none"}}, "character.wound_state"),
    ("action-points", {"corps_id": "c", "actions": [{"id": "a", "kind": "move", "use_cinc_extra_pa": True,
                                                     "units": [{"troop_type": "Bd"}]}]}, "actions[0].use_cinc_extra_pa"),
    ("action-points", {"corps_id": "c", "actions": [{"id": "a", "kind": "lurker"}]}, "actions[0].lurker_activation"),
    ("action-points", {"corps_id": "c", "actions": [{"id": "a", "kind": "move", "units": [{"troop_type": "Bd"}],
                                                     "adventurer_own_pa": True, "adventurer_id": "x"}]},
     "actions[0].adventurer_own_pa"),
    ("action-points", {"corps_id": "c", "champions": [{"id": "h", "personal_pa": 1, "personal_spent": 2}]},
     "champions[0].personal_spent"),
    ("action-points", {"corps_id": "c", "gods": [{"id": "g", "own_spent": 5}], "dice": {"pa": 3, "god_pa.g": 4}}, "gods[0]"),
    ("combat", {"kind": "melee", "active": "a", "a": {"id": "s", "troop_type": "Spell", "factor": 2},
                "b": {"id": "b", "troop_type": "Bd", "factor_vs_foot": 3, "factor_vs_mounted": 3, "move": 3}}, "a.troop_type"),
    ("army-sheet", {"side_id": "s", "corps": [{"id": "c", "kind": "sub"}], "units": [], "characters": []}, "corps"),
    ("army-sheet", {"side_id": "s", "corps": [{"id": "c", "kind": "cinc"}], "units": [
        {"id": "u", "corps_id": "zz", "troop_type": "Sp"}], "characters": []}, "units[0].corps_id"),
    ("end-battle", {"state": {}}, "state.status"),
])
def test_error_paths(op, payload, path):
    assert path in refused(op, payload).fields


@pytest.mark.parametrize("op,payload,die", [
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1, "dice": {"rally": 7}}, "dice.rally"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1, "dice": {"rally": 0}}, "dice.rally"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1,
               "dice": {"rally": 6, "units": [3, 4, 5]}}, "dice.units"),
    ("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1, "dice": {"rally": True}}, "dice.rally"),
    ("action-points", {"corps_id": "c", "dice": {"pa": 6}}, "dice.pa"),
    ("action-points", {"corps_id": "c", "dice": {"pa": "4"}}, "dice.pa"),
    ("combat-risk", {"character": {"id": "c"}, "row": "tie", "dice": {"risk": [7, 1]}}, "dice.risk"),
    ("combat-risk", {"character": {"id": "c"}, "row": "tie", "dice": {"risk": 7}}, "dice.risk"),
])
def test_a_die_it_cannot_show_is_refused(op, payload, die):
    assert die in refused(op, payload).fields


def test_unused_dice_are_ignored_and_not_echoed():
    out = heros("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c"}, "distance": 1,
                          "dice": {"rally": 1, "units": [6, 6], "other": 99}})
    assert out["dice"] == {"rally": 1} and out["success"] is False


def test_resolve_round_refuses_active_keys_from_the_passive_side(battle):
    err = refused("resolve-round", {"state": battle, "declarations": {"passive": {"melees": []}}})
    assert "declarations.passive.melees" in err.fields


def test_resolve_round_unknown_ids_and_nothing_applied(battle):
    before = json.dumps(battle, sort_keys=True)
    err = refused("resolve-round", {"state": battle, "declarations": {"active": {
        "melees": [{"id": "m", "attacker_id": "nobody", "defender_id": "b-wb"}]}}})
    assert "declarations.active.melees[0].attacker_id" in err.fields
    assert json.dumps(battle, sort_keys=True) == before


def test_new_battle_needs_its_dice_to_be_valid():
    payload = {**NEW_BATTLE, "dice": {"pa.r1": 1}}
    assert "dice.pa.r1" in refused("new-battle", payload).fields


def test_operations_never_change_their_input(battle):
    from rules.heros import ruleset

    payload = {"state": battle, "declarations": {"active": {
        "actions": [{"id": "a1", "kind": "move", "corps_id": "r1", "units": ["r-bd"], "paths": {"r-bd": [{"col": 2, "row": 3}]}}],
        "melees": [{"id": "m1", "attacker_id": "r-bd", "defender_id": "b-wb"}]}}, "seed": 4}
    before = json.dumps(payload, sort_keys=True)
    first = ruleset.run("resolve-round", payload)
    assert json.dumps(payload, sort_keys=True) == before
    assert json.dumps(ruleset.run("resolve-round", payload), sort_keys=True) == json.dumps(first, sort_keys=True)
    for op, body in (("end-battle", {"state": battle, "reason": "concession", "conceding_side": "blue"}),
                     ("declaration-options", {"state": battle, "participant": {"kind": "side", "id": "red"}})):
        before = json.dumps(body, sort_keys=True)
        ruleset.run(op, body)
        assert json.dumps(body, sort_keys=True) == before
