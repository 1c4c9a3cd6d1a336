"""Round-level rules with pinned dice: counters, talents, heroes, the GM's tools, corps."""

import copy


def rnd(jd, state, declarations, dice=None):
    return jd.run("resolve-round", {"state": state, "declarations": declarations, "dice": dice or {}, "seed": 0})


def _action_order(result):
    return [(e["corps"], e["action"]) for e in result["events"] if e["type"] == "action"]


def test_s7_8_barrage_counter_resolves_before_and_gives_active_defence(jd, s1):
    result = rnd(jd, s1, {"corps": {
        "n1": {"actions": [{"action": "barrage", "target": "s1", "as_counter": True}]},
        "s1": {"actions": [{"action": "massive_assault", "target": "n1"}]}}},
        {"n1/a0/attack": 10, "s1/a0/attack": 10, "s1/a0/defense": 10})
    assert _action_order(result) == [("n1", "barrage"), ("s1", "massive_assault")]
    out = result["outcomes"]["s1/a0"]
    assert (out["defense_mode"], out["defense_total"], out["success"]) == ("active", 25, False)


def test_s7_8_offensive_counter_resolves_after_the_enemy_action(jd, s1):
    result = rnd(jd, s1, {"corps": {
        "n1": {"actions": [{"action": "massive_assault", "target": "s1", "as_counter": True}]},
        "s1": {"actions": [{"action": "espionage", "target": "n1"}]}}},
        {"n1/a0/attack": 10, "n1/a0/damage": [1], "s1/a0/attack": 10})
    assert _action_order(result) == [("s1", "espionage"), ("n1", "massive_assault")]


def test_s7_8_counter_without_trigger_resolves_at_the_end(jd, s1):
    result = rnd(jd, s1, {"corps": {
        "n1": {"actions": [{"action": "massive_assault", "target": "s1", "as_counter": True},
                           {"action": "espionage", "target": "s1"}]}}},
        {"n1/a0/attack": 10, "n1/a0/damage": [1], "n1/a1/attack": 10})
    assert _action_order(result) == [("n1", "espionage"), ("n1", "massive_assault")]


def test_s7_5_3_save_from_fatal(jd, s1):
    s1["corps"]["s1"]["hp"] = 50
    result = rnd(jd, s1, {"armies": {"south": {"save_from_fatal": "commander"}},
                          "corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 15, "n1/a0/damage": [1]})
    assert result["summary"]["corps"]["s1"]["hp"] == 50
    assert result["summary"]["armies"]["south"]["commander_heroism_points"] == 0
    assert result["outcomes"]["n1/a0"]["damage_dealt"] == 0


def test_destruction_ends_the_battle_and_fells_the_heroes(jd, s1):
    s1["corps"]["s1"]["hp"] = 50
    s1["heroes"]["kavelec"]["heroism_points"] = 0
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 15, "n1/a0/damage": [1]})
    assert result["battle_over"] and result["winner"] == "a"
    assert result["summary"]["corps"]["s1"]["status"] == "destroyed"
    assert result["summary"]["heroes"]["kavelec"]["fate"] == "dead"
    assert result["summary"]["armies"]["south"]["status"] == "annihilated"
    aftermath = jd.run("battle-aftermath", {"state": result["state"]})
    assert aftermath["armies"]["south"]["status"] == "annihilated" and aftermath["heroes"]["kavelec"]["fate"] == "dead"


def test_s7_7_6_last_chance_in_battle(jd, s1):
    s1["armies"]["south"]["talents"] = ["iron_hand", "last_chance"]
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 15, "n1/a0/damage": [1]})
    assert result["outcomes"]["n1/a0"]["return_damage"] == 40  # half of s1's DB 80
    assert result["summary"]["corps"]["n1"]["hp"] == 860


def test_s7_7_13_hero_support(jd, s1):
    s1["armies"]["north"]["talents"] = ["brute", "hero_support"]
    result = rnd(jd, s1, {"corps": {
        "n1": {"heroes": [{"hero_id": "ildar", "support": {"mode": "cooldown"}}]},
        "s1": {"actions": [{"action": "espionage", "target": "n1", "on_critical": "hero_death"}]}}},
        {"s1/a0/attack": 20})
    hero = result["state"]["heroes"]["ildar"]
    assert hero["status"] == "active" and hero["death_avoided"] is True
    assert hero["available_from_round"] == 1 + 4 + 1
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"corps": {"n1": {"heroes": [
        {"hero_id": "ildar", "support": {"mode": "bonus", "target": "parry"}}]}}}})
    assert list(error["fields"]) == ["declarations.corps.n1.heroes[0].support.target"]


def test_s7_7_9_ruthless_mode(jd, s1):
    s1["armies"]["north"]["talents"] = ["brute", "ruthless"]
    result = rnd(jd, s1, {"armies": {"north": {"ruthless": True}},
                          "corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 15, "n1/a0/damage": [1]})
    assert result["outcomes"]["n1/a0"]["damage_dealt"] == 135 + 0 + 2
    assert result["summary"]["corps"]["n1"]["initiative"] == 25 - 2
    assert result["summary"]["armies"]["north"]["ruthless"] is True


def test_combined_assault_uses_the_pincer(jd, s1):
    s1["corps"]["n1"]["effects"] = [{"kind": "pincer", "attack": 4, "damage": 4, "rounds_left": 2}]
    result = jd.run("resolve-action", {"state": s1, "corps_id": "n1", "declarations": {"corps": {"n1": {"actions": [
        {"action": "combined_assault", "target": "s1", "attack_skill": "force_attack"}]}}},
        "dice": {"n1/a0/attack": 1, "n1/a0/damage": [1, 1]}})
    out = result["outcome"]
    assert (out["attack_total"], out["defense_skill"], out["defense_total"]) == (25, "reflex", 22)
    assert out["damage_dealt"] == 90 + 9 + 4 + 2
    assert result["state"]["corps"]["n1"]["effects"] == []


def test_charge_then_massive_assault_with_brute(jd, s1):
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "charge", "target": "s1"},
                                                       {"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 10, "n1/a1/attack": 1, "n1/a1/damage": [1]})
    out = result["outcomes"]["n1/a1"]
    # 1 + force 18 + charge 2 + Brute doubled 4; damage 90 + 0 x 9 + 2 + 4
    assert out["attack_total"] == 25 and out["damage_dealt"] == 96


def test_gm_tools(jd, s1):
    result = rnd(jd, s1, {"gm": {"weather": {"z3": 2}, "adjustments": [{"corps_id": "s1", "field": "hp", "delta": -100}],
                                 "manual_modifiers": [{"corps_id": "n1", "target": "all_skills", "value": 5,
                                                       "reason": "night"}],
                                 "commander_changes": {"south": {"commander": {"level": 12, "int": 12, "wis": 10,
                                                                               "cha": 14}}}},
                          "corps": {"n1": {"actions": [{"action": "espionage", "target": "s1"}]}}},
                 {"n1/a0/attack": 1})
    out = result["outcomes"]["n1/a0"]
    # perception 12 + 5 + 1 against s1's will: 10 + 13 (new level) + ... - weather 2 has no effect on will
    assert out["attack_total"] == 18
    assert result["state"]["armies"]["south"]["sheet"]["level"] == 12
    assert result["summary"]["corps"]["s1"]["hp"] == 700
    assert result["state"]["map"]["zones"]["z3"]["terrain"]["weather"] == 2


def test_s7_4_7_hero_transfer(jd, s1):
    s1["corps"]["n2"] = {"id": "n2", "army_id": "north", "zone": "z1", "hp": 100, "advantage": 0, "initiative": 3}
    result = rnd(jd, s1, {"corps": {"n1": {"hero_transfers": [{"hero_id": "ildar", "to_corps": "n2"}]}}})
    assert result["summary"]["heroes"]["ildar"]["corps_id"] == "n2"


def test_s7_2_3_regroup_is_shared(jd, s1):
    s1["corps"]["n2"] = {"id": "n2", "army_id": "north", "zone": "z1", "hp": 100, "advantage": 1, "initiative": 3,
                         "effects": [{"kind": "attack_rolls", "value": -1, "rounds_left": 3}]}
    s1["heroes"]["ildar"]["corps_id"] = "n2"
    regroup = {"action": "regroup", "into": "n1"}
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{**regroup, "with": ["n2"]}]},
                                    "n2": {"actions": [{**regroup, "with": ["n1"]}]}}}, {"n2/a0/attack": 1})
    assert result["outcomes"]["n1/a0"]["success"] is False and result["outcomes"]["n2/a0"]["success"] is False
    n1 = result["state"]["corps"]["n1"]
    # 900 + 100 hp; advantage 2 + 1 - 1 (failure); the lowest pool; the effects joined
    assert (n1["hp"], n1["advantage"], n1["initiative"]) == (1000, 2, 1)
    assert n1["effects"][0]["kind"] == "attack_rolls"
    assert result["state"]["corps"]["n2"]["status"] == "merged"
    assert result["state"]["heroes"]["ildar"]["corps_id"] == "n1"


def test_s5_4_initiative_phase_inside_resolve_round(jd, s1):
    s1["phase"] = "initiative"
    s1["corps"]["n1"]["initiative"] = 0
    result = rnd(jd, s1, {"rerolls": []}, {"n1/initiative": 1})
    assert result["summary"]["corps"]["n1"]["initiative"] == 14
    assert result["resolution_order"] == ["s1", "n1"]


def test_adaptation_allows_same_type_actions(jd, s1):
    s1["armies"]["north"]["talents"] = ["brute", "adaptation"]
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"},
                                                       {"action": "massive_assault", "target": "s1"}]}}})
    assert {"n1/a0", "n1/a1"} <= set(result["outcomes"])
    bad = copy.deepcopy(s1)
    error = jd.refuse("resolve-round", {"state": bad, "declarations": {"corps": {"n1": {"actions": [
        {"action": "massive_assault", "target": "s1"}] * 3}}}})
    assert list(error["fields"]) == ["declarations.corps.n1.actions"]


def test_s5_4_4_order_fixed_before_spending(jd, s1):
    s1["corps"]["n1"]["initiative"] = 6
    s1["corps"]["s1"]["initiative"] = 5
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "pincer", "target": "s1"},
                                                       {"action": "combined_assault", "target": "s1"}]}}})
    assert result["resolution_order"] == ["n1", "s1"]
    assert result["summary"]["corps"]["n1"]["initiative"] == 1


def test_s5_4_4_ties_by_initiative_skill_then_id(jd, s1):
    s1["corps"]["n1"]["initiative"] = s1["corps"]["s1"]["initiative"] = 9
    assert rnd(jd, s1, {})["resolution_order"] == ["n1", "s1"]  # initiative skill 13 against 7
    s1["armies"]["south"]["criteria"] = dict(s1["armies"]["north"]["criteria"])
    s1["armies"]["south"]["commander"].update(level=12, war_arts=0)
    s1["armies"]["south"]["talents"] = []
    s1["corps"]["a0"] = dict(s1["corps"].pop("s1"), id="a0")
    s1["heroes"]["kavelec"]["corps_id"] = "a0"
    result = rnd(jd, s1, {})
    assert result["resolution_order"] == ["a0", "n1"]  # same pool, same skill: by id


def test_h46_category_6_raises_the_cap_for_the_round(jd, s1):
    s1["armies"]["north"]["talents"] = ["brute", "opportune_attack"]
    actions = [{"action": "pincer", "target": "s1"}, {"action": "push_back", "target": "s1"}]
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"corps": {"n1": {"actions": actions}}}})
    assert list(error["fields"]) == ["declarations.corps.n1.actions"]
    result = rnd(jd, s1, {"corps": {"n1": {"actions": actions, "opportune": {"mode": "category_6"}}}})
    assert result["summary"]["corps"]["n1"]["initiative"] == 25 - 6


def test_s7_7_12_forced_march_reroll_window(jd, s1):
    s1["phase"] = "initiative"
    s1["corps"]["n1"]["initiative"] = 6
    payload = {"state": s1, "rerolls": ["n1"], "dice": {"n1/initiative": 1}}
    assert list(jd.refuse("roll-initiative", payload)["fields"]) == ["rerolls[0]"]
    s1["armies"]["north"]["talents"] = ["brute", "forced_march"]
    assert jd.run("roll-initiative", payload)["initiative"]["n1"] == 1 + 13 + 2


def test_snare_then_subtle_assault(jd, s1):
    result = rnd(jd, s1, {"corps": {"s1": {"actions": [{"action": "snare", "target": "n1"},
                                                       {"action": "subtle_assault", "target": "n1"}]}}},
                 {"s1/a0/attack": 16, "s1/a1/attack": 16, "s1/a1/damage": [1]})
    out = result["outcomes"]["s1/a1"]
    # 16 + deft 7 + snare 2 = 25 meets n1's reflex 25; damage 80 + (1 - 1 - 2) x 8 + 2 = 66
    assert (out["attack_total"], out["success"], out["damage_dealt"]) == (25, True, 66)
    assert result["summary"]["corps"]["n1"]["advantage"] == 1 and result["state"]["corps"]["s1"]["effects"] == []


def test_espionage_failure_and_break_morale_failure(jd, s1):
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "espionage", "target": "s1"}]}}},
                 {"n1/a0/attack": 1})
    assert result["outcomes"]["n1/a0"]["advantage_delta"] == {"n1": -1}
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "break_morale", "target": "s1"}]}}},
                 {"n1/a0/attack": 1})
    assert result["outcomes"]["n1/a0"]["success"] is False
    assert result["outcomes"]["n1/a0"]["advantage_delta"] == {}  # H27: nothing happens
