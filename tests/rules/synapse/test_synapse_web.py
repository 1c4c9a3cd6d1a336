"""declaration-options and visible-state: what the web layer shows each participant."""

import json

import pytest


def options_of(run, state, kind, pid):
    return run("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}})


def by_path(out):
    return {o["path"]: o for o in out["options"]}


def test_side_options_on_the_example_battle(run, battle):
    out = options_of(run, battle, "side", "B")
    assert (out["round"], out["phase"], out["must_declare"]) == (1, "declarations", True)
    opts = by_path(out)
    target = opts["sides.B.orders.B.melee.target"]
    assert target["allowed"] == ["A.melee"]
    assert target["forbidden"][0]["value"] == "A.ranged" and target["forbidden"][0]["rule"] == "S7.4"
    action = opts["sides.B.orders.B.melee.action"]
    assert set(action["allowed"]) == {"hold", "attack"}
    assert {f["value"] for f in action["forbidden"]} == {"riposte", "retreat"}
    assert opts["sides.B.commit_reserve"]["allowed"] == [False]
    for option in out["options"]:
        assert {"path", "label", "type", "default", "required", "forbidden"} <= set(option)
    assert out["log"]


def test_routed_formation_may_rally_hold_or_riposte(run, battle):
    battle["formations"]["B.melee"].update(status="routed", routed_round=0)
    opts = by_path(options_of(run, battle, "side", "B"))
    assert opts["sides.B.rally"]["allowed"] == ["B.melee"]
    assert set(opts["sides.B.orders.B.melee.action"]["allowed"]) == {"hold", "riposte"}
    # and A's melee may now pursue it, A's archers shoot it
    a = by_path(options_of(run, battle, "side", "A"))
    assert a["sides.A.orders.A.melee.target"]["allowed"] == ["B.melee"]


def test_exposed_archers_become_targets(run, battle):
    battle["formations"]["A.melee"]["status"] = "fled"
    opts = by_path(options_of(run, battle, "side", "B"))
    assert opts["sides.B.orders.B.melee.target"]["allowed"] == ["A.ranged"]


def test_a_possible_melee_reserve_keeps_archers_out_of_reach(run, battle):
    battle["formations"]["A.melee"].update(group="reserve", status="reserve")
    opts = by_path(options_of(run, battle, "side", "B"))
    assert "sides.B.orders.B.melee.target" not in opts
    action = opts["sides.B.orders.B.melee.action"]
    assert "attack" not in action["allowed"]
    assert any(f["value"] == "attack" for f in action["forbidden"])


def test_vehicle_mode_forbids_army_retreat_and_rally(run):
    vehicle = {"category": "vehicle", "crew_combat": 5,
               "vehicle_types": [{"name": "t", "count": 1, "toughness": 100, "weapons": [{"weapon_damage": 50}]}]}
    state = run("new-battle", {"mode": "vehicles", "combat_type": "space", "armies": {
        "A": {"name": "A", "units": [{"id": "a", **vehicle}]}, "B": {"name": "B", "units": [{"id": "b", **vehicle}]}}})["state"]
    opts = by_path(options_of(run, state, "side", "A"))
    assert opts["sides.A.retreat"]["allowed"] == [False]
    assert set(opts["sides.A.orders.A.a.action"]["allowed"]) == {"hold", "attack", "retreat"}


def test_gm_and_formation_participants(run, battle):
    gm = by_path(options_of(run, battle, "gm", "gm"))
    assert gm["gm.mobility_edge"]["allowed"] == ["A", "B", "none"]
    assert gm["gm.command_modifiers.A"]["min"] == -20 and gm["gm.command_modifiers.A"]["max"] == 20
    assert set(gm["gm.encircled"]["allowed"]) == {"A.melee", "A.ranged", "B.melee"}
    one = options_of(run, battle, "formation", "A.ranged")
    assert [o["path"] for o in one["options"]] == ["sides.A.orders.A.ranged.action", "sides.A.orders.A.ranged.target"]


def test_options_after_the_battle(run, example):
    payload, _ = example("end-battle")
    out = options_of(run, payload["state"], "side", "A")
    assert (out["phase"], out["must_declare"], out["options"]) == ("over", False, [])


def test_unknown_participant(refused, battle):
    assert "participant.id" in refused("declaration-options", {"state": battle, "participant": {"kind": "side", "id": "C"}})
    assert "participant.kind" in refused("declaration-options",
                                         {"state": battle, "participant": {"kind": "dragon", "id": "A"}})


def test_declaration_built_from_options_is_accepted(run, battle):
    decl = {"sides": {}}
    for side in ("A", "B"):
        opts = by_path(options_of(run, battle, "side", side))
        orders = {}
        for path, o in opts.items():
            if path.endswith(".action") and "attack" in o["allowed"]:
                fid = path[len(f"sides.{side}.orders."):-len(".action")]
                orders[fid] = {"action": "attack", "target": opts[f"sides.{side}.orders.{fid}.target"]["allowed"][-1]}
        decl["sides"][side] = {"orders": orders}
    out = run("resolve-round", {"state": battle, "declarations": decl, "seed": 1})
    assert out["state"]["round"] == 1


# --- visible-state -----------------------------------------------------------------

@pytest.fixture
def with_reserve(run, setup):
    setup["armies"]["B"]["units"].append({"id": "b_trolls", "unit_type": "trolls", "group": "reserve",
                                          "headcount": 20, "weapon_damage": 8, "combat_base": 6})
    return run("new-battle", setup)["state"]


def test_enemy_reserve_is_absent(run, with_reserve):
    out = run("visible-state", {"state": with_reserve, "side": "A"})
    text = json.dumps(out["state"])
    assert "b_trolls" not in text and "B.reserve" not in text
    assert "formations.B.reserve" in out["hidden"] and "armies.B.units.b_trolls" in out["hidden"]
    assert "reserve_significant" not in out["state"]["armies"]["B"]
    assert out["log"]


def test_enemy_numbers_are_masked_own_are_exact(run, with_reserve):
    out = run("visible-state", {"state": with_reserve, "side": "A"})
    enemy = out["state"]["formations"]["B.melee"]
    for name in ("headcount", "strength", "attack_power", "losses", "break_threshold", "combat", "defence"):
        assert name not in enemy
        assert f"formations.B.melee.{name}" in out["hidden"]
    assert enemy["status"] == "active" and enemy["damage_state"] == "fresh"
    assert set(out["state"]["armies"]["B"]["units"]["b_orcs"]) == {"id", "name", "category", "unit_type"}
    assert "command_rating" not in out["state"]["armies"]["B"]
    own = out["state"]["formations"]["A.melee"]
    assert own == with_reserve["formations"]["A.melee"]
    assert out["state"]["armies"]["A"] == with_reserve["armies"]["A"]


def test_own_reserve_stays_visible(run, with_reserve):
    out = run("visible-state", {"state": with_reserve, "side": "B"})
    assert out["state"]["formations"]["B.reserve"] == with_reserve["formations"]["B.reserve"]
    assert "A.melee" in out["state"]["formations"]
    assert "strength" not in out["state"]["formations"]["A.melee"]


def test_command_outcome_is_public_scores_are_not(run, battle):
    out = run("resolve-round", {"state": battle, "dice": {"command:A": 6, "command:B": 4}})
    seen = run("visible-state", {"state": out["state"], "side": "B"})["state"]["command"]
    assert (seen["initiative"], seen["surprised"]) == ("A", "B")
    assert "A" not in seen["ratings"] and "A" not in seen["scores"] and "margin" not in seen
    assert seen["scores"]["B"] == 7


def test_visible_state_never_changes_the_input(run, with_reserve):
    before = json.dumps(with_reserve, sort_keys=True)
    run("visible-state", {"state": with_reserve, "side": "A"})
    assert json.dumps(with_reserve, sort_keys=True) == before


def test_commander_and_character_participants(run, battle):
    commander = options_of(run, battle, "commander", "A")
    assert commander["options"] == options_of(run, battle, "side", "A")["options"]
    hero = options_of(run, battle, "character", "hugo")
    assert (hero["must_declare"], hero["options"]) == (False, [])


def test_resolve_round_never_changes_its_input(battle):
    import copy

    from rules.synapse import ruleset

    payload = {"state": battle, "declarations": {"sides": {"A": {"orders": {
        "A.melee": {"action": "attack", "target": "B.melee"}}}}}, "seed": 5}
    before = copy.deepcopy(payload)
    ruleset.run("resolve-round", payload)
    ruleset.run("end-battle", {"state": battle, "seed": 5})
    assert payload == before
