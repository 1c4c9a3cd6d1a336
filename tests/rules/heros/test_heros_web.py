"""declaration-options and visible-state, and the log messages of the web layer."""

import copy
import string

import pytest

from heros_helpers import by_id, events, heros, play, refused, setup, unit
from rules.heros import ruleset
from rules.heros.messages import MESSAGES


def options(state, kind, pid):
    return heros("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}})


def find(out, prefix):
    return next(o for o in out["options"] if o["path"].startswith(prefix))


def test_option_shape(battle):
    out = options(battle, "unit", "r-bd")
    assert (out["participant"], out["round"], out["phase"], out["must_declare"]) == (
        {"kind": "unit", "id": "r-bd"}, 1, "declarations", False)
    for o in out["options"]:
        assert {"path", "label", "type", "default", "required", "forbidden"} <= set(o)
        assert o["type"] in ("choice", "integer", "boolean", "square", "hex", "zone", "list", "object")


def test_every_allowed_move_path_is_accepted(battle):
    move = find(options(battle, "unit", "r-bd"), "active.actions[kind=move].paths.r-bd")
    assert move["allowed"] and move["pa_cost"] == 1
    for path in move["allowed"]:
        decl = {"actions": [{"id": "a", "kind": "move", "corps_id": "r1", "units": ["r-bd"], "paths": {"r-bd": path}}]}
        play(battle, decl, {"pa.b1": 3})
    # the hex of the enemy warband is never offered
    assert all(h != {"col": 2, "row": 4} for path in move["allowed"] for h in path)


def test_melee_options_name_adjacent_enemies_only():
    state = setup([unit("bd", "r", "Bd", 2, 3), unit("wb", "b", "Bd", 2, 4), unit("ps", "b", "Ps", 5, 5)])
    melee = find(options(state, "unit", "bd"), "active.melees[].defender_id")
    assert melee["allowed"] == ["wb"]


def test_shooting_options_explain_what_is_out_of_range():
    state = setup([unit("bw", "r", "Bw", 2, 2, range=2), unit("near", "b", "Bd", 2, 4), unit("far", "b", "Bd", 2, 8)])
    shoot = find(options(state, "unit", "bw"), "active.shootings[].target_id")
    assert shoot["allowed"] == ["near"]
    assert shoot["forbidden"] == [{"value": "far", "reason": "out of range (2 hexes)", "rule": "S5.9",
                                   "key": "refusal.range", "params": {"range": 2}}]


def test_impetuous_unit_must_declare_and_a_two_forbids_the_hold():
    state = setup([unit("x", "r", "Bd", 0, 0), unit("wb", "r", "Wb", 2, 2, impetuous=True, regular=False),
                   unit("bd", "b", "Bd", 2, 6)], dice={"pa.r": 2})
    state["sides"][0]["cinc_extra_used"] = True
    out = options(state, "unit", "wb")
    assert out["must_declare"] is True
    kind = find(out, "active.actions[].kind")
    assert kind["allowed"] == ["advance"] and kind["required"] is True
    assert kind["forbidden"][0]["value"] == "hold" and kind["forbidden"][0]["rule"] == "S5.4.1"
    assert options(state, "side", "red")["must_declare"] is True
    advance = find(out, "active.actions[kind=advance].paths.wb")
    for path in advance["allowed"]:
        play(state, {"actions": [{"id": "v", "kind": "advance", "corps_id": "r", "units": ["wb"], "paths": {"wb": path}}]},
             {"pa.b": 3, "melee.v-wb.attacker": 3, "melee.v-wb.defender": 3})


def test_passive_side_may_not_declare_active_keys(battle):
    out = options(battle, "side", "blue")
    paths = [o["path"] for o in out["options"]]
    assert "passive.rallies" in paths and not any(p.startswith("active.") for p in paths)
    spells = find(out, "passive.spells")
    assert {f["value"] for f in spells["forbidden"]} == {"executions", "captive_transfers", "actions", "shootings", "melees"}


def test_hero_options(battle):
    out = options(battle, "hero", "aragorn")
    assert find(out, "active.stars.r-bd")["allowed"] == ["aragorn"]
    source = find(out, "active.actions[kind=character].pa_source")
    assert source["allowed"] == ["free", "corps"] and source["forbidden"][0]["value"] == "personal"
    path = find(out, "active.actions[kind=character].path")["allowed"][0]
    moved = play(battle, {"actions": [{"id": "c", "kind": "character", "character_id": "aragorn", "path": path,
                                       "pa_source": "corps"}]}, {"pa.b1": 3})
    assert by_id(moved["state"]["characters"], "aragorn")["position"] == path[-1]


def test_options_refuse_unknown_participants(battle):
    assert "participant.id" in refused("declaration-options", {"state": battle, "participant": {"kind": "unit", "id": "zz"}}).fields
    assert "participant.kind" in refused("declaration-options", {"state": battle, "participant": {"kind": "x", "id": "r-bd"}}).fields


def hidden_battle():
    hexes = [{"col": 5, "row": 5, "terrain": "rough"}]
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "magician": True, "power_points": 7},
             {"id": "hero", "corps_id": "b", "role": "champion", "stacked_on": "ps", "personal_pa": 2}]
    return setup([unit("bd", "r", "Bd", 1, 1), unit("wb", "b", "Bd", 9, 8), unit("ps", "b", "Ps", 5, 5, hidden=True),
                  unit("lu", "b", "Lu", 0, 0, status="pool", position=None)], chars, hexes=hexes)


def test_visible_state_hides_ambushers_pool_and_secrets():
    state = hidden_battle()
    red_view = heros("visible-state", {"state": state, "side": "red"})
    ids = {u["id"] for u in red_view["state"]["units"]}
    assert ids == {"bd", "wb"}
    assert "hero" not in {c["id"] for c in red_view["state"]["characters"]}
    assert by_id(red_view["state"]["characters"], "bg")["power_points"] is None
    assert {"units[2]", "units[3]", "characters[1].power_points", "characters[2]"} <= set(red_view["hidden"])
    blue_view = heros("visible-state", {"state": state, "side": "blue"})
    assert {u["id"] for u in blue_view["state"]["units"]} == {"bd", "wb", "ps", "lu"}
    assert by_id(blue_view["state"]["characters"], "bg")["power_points"] == 7 and blue_view["hidden"] == []


def test_visible_state_does_not_change_its_input():
    state = hidden_battle()
    before = copy.deepcopy(state)
    heros("visible-state", {"state": state, "side": "red"})
    assert state == before
    assert "side" in refused("visible-state", {"state": state, "side": "green"}).fields


def test_events_about_hidden_units_are_private():
    state = hidden_battle()
    out = play(state, {}, {"pa.b": 3})
    moved = play(out["state"], {"actions": [{"id": "a", "kind": "move", "corps_id": "b", "units": ["wb"],
                                             "paths": {"wb": [{"col": 9, "row": 7}]}}]}, {"pa.r": 3})
    assert all(e["visible_to"] == "all" for e in moved["events"] if e.get("unit_id") != "ps")


def sample_logs():
    state = setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 2, 4)])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, "risk.m1.bg": [6, 6], "wound.m1.bg": [4, 4], "capture.m1.bg": 6})
    return out["log"] + options(state, "unit", "bd")["log"] + heros("visible-state", {"state": state, "side": "red"})["log"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_logged_key_has_templates_with_its_params(lang):
    steps = sample_logs()
    assert steps
    for step in steps:
        template = MESSAGES[step["key"]][lang]
        names = {field for _, field, _, _ in string.Formatter().parse(template) if field}
        assert names <= set(step["params"]), (step["key"], names, step["params"])
        template.format(**step["params"])


def test_messages_are_registered_on_the_ruleset():
    assert ruleset.messages is MESSAGES and all(set(v) == {"en", "fr"} for v in MESSAGES.values())


def test_every_log_key_in_the_code_has_messages():
    import ast
    from pathlib import Path

    import rules.heros

    keys = set()
    for path in Path(rules.heros.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add" \
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                keys.add(node.args[1].value)
    assert len(keys) > 25 and keys <= set(MESSAGES)


def test_flyer_lurker_and_god_options_are_accepted():
    hexes = [{"col": 5, "row": 5, "terrain": "rough"}]
    state = setup([unit("x", "r", "Bd", 0, 0), unit("fl", "r", "Fl", 1, 1, ff=2, fm=2, move=8),
                   unit("thor", "r", "Gd", 3, 3, ff=6, fm=6, move=5), unit("lu", "r", "Lu", 0, 0, status="pool", position=None),
                   unit("sp", "b", "Sp", 5, 5, facing=0), unit("y", "b", "Bd", 11, 9)],
                  hexes=hexes, dice={"pa.r": 5, "god_pa.thor": 3})
    climb = find(options(state, "unit", "fl"), "active.actions[kind=climb].units")
    assert climb["allowed"] == ["fl"] and climb["pa_cost"] == 1
    up = play(state, {"actions": [{"id": "c", "kind": "climb", "corps_id": "r", "units": ["fl"]}]}, {"pa.b": 3})
    red_again = play(up["state"], {}, {"pa.r": 5})["state"]
    land = find(options(red_again, "unit", "fl"), "active.actions[kind=land].hexes.fl")
    assert land["pa_cost"] == 2 and {"col": 11, "row": 9} not in land["allowed"] and len(land["allowed"]) > 50
    for h in land["allowed"][:5]:
        play(red_again, {"actions": [{"id": "l", "kind": "land", "corps_id": "r", "units": ["fl"], "hexes": {"fl": h}}]}, {"pa.b": 3})
    lurk = find(options(state, "unit", "lu"), "active.actions[kind=lurker].target_id")
    assert lurk["allowed"] == ["sp"] and lurk["pa_cost"] == 1
    play(state, {"actions": [{"id": "l", "kind": "lurker", "unit_id": "lu", "target_id": "sp"}]}, {"pa.b": 3})
    god_path = find(options(state, "unit", "thor"), "active.actions[kind=god].path")
    for path in god_path["allowed"][:5]:
        play(state, {"actions": [{"id": "g", "kind": "god", "god_id": "thor", "path": path}]}, {"pa.b": 3})


def test_rally_options_are_the_legal_general_and_corps_pairs():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("far", "r", "Bd", 11, 0), unit("wb", "b", "Bd", 9, 8)])
    state["corps"].append({**state["corps"][0], "id": "r2", "kind": "sub", "general_id": "sub"})
    state["characters"].append({**state["characters"][0], "id": "sub", "role": "sub_general", "corps_id": "r2",
                                "stacked_on": "far", "position": {"col": 11, "row": 0}})
    state["units"][1]["corps_id"] = "r2"
    rally = find(options(state, "side", "red"), "active.rallies[]")
    # the C-in-C may rally his own corps; r2 is out of his range; the sub-general may rally nothing
    assert rally["allowed"] == [{"general_id": "rg", "corps_id": "r"}]
    reasons = {(f["value"]["general_id"], f["value"]["corps_id"]): f["reason"] for f in rally["forbidden"]}
    assert "more than 6 hexes" in reasons[("rg", "r2")] and ("sub", "r") in reasons
    out = play(state, {"rallies": [{"general_id": "rg", "corps_id": "r"}]}, {"rally.rg": 4, "rally_units.rg": [1, 1],
                                                                              "pa.b": 3})
    assert events(out, "rally_attempted")[0]["success"] is True
