"""Each rule at its boundaries, with pinned dice (state S1: n1 of F1 in z2, s1 of F2 in z3)."""

import pytest


def act(jd, state, corps_id, actions, dice, declarations=None, **corps_fields):
    decl = declarations or {"corps": {}}
    decl.setdefault("corps", {})
    decl["corps"].setdefault(corps_id, {})["actions"] = actions
    decl["corps"][corps_id].update(corps_fields)
    return jd.run("resolve-action", {"state": state, "corps_id": corps_id, "declarations": decl, "dice": dice})


def rnd(jd, state, declarations, dice):
    return jd.run("resolve-round", {"state": state, "declarations": declarations, "dice": dice, "seed": 0})


@pytest.mark.parametrize("roll, success", [(12, True), (11, False)])
def test_h4_meet_or_beat(jd, s1, roll, success):
    # s1 force_attack 13 + roll against n1's lowest passive defence, reflex 25
    out = act(jd, s1, "s1", [{"action": "massive_assault", "target": "n1"}],
              {"s1/a0/attack": roll, "s1/a0/damage": [1]})["outcome"]
    assert (out["attack_total"], out["defense_total"], out["success"]) == (13 + roll, 25, success)
    assert out["critical"] is False


@pytest.mark.parametrize("roll, critical, amount", [(17, False, 92), (18, True, 110)])
def test_s4_7_critical_range_and_critical_damage(jd, s1, roll, critical, amount):
    # n1: crit_min 18; Brute +2/+2 on force attacks; damage 90 + (1 + 1 - 2) x 9 + 2, critical adds (1 + 1) x 9
    result = act(jd, s1, "n1", [{"action": "massive_assault", "target": "s1"}],
                 {"n1/a0/attack": roll, "n1/a0/damage": [1], "n1/a0/critical": [1]})
    out = result["outcome"]
    assert out["attack_total"] == roll + 18 + 2 and out["critical"] is critical
    assert out["critical_choice"] == ("damage" if critical else None)
    assert out["damage_dealt"] == amount and result["hp"]["s1"] == 800 - amount
    assert ("n1/a0/critical" in result["dice"]) is critical


def test_h9_every_damage_event_deals_at_least_one(jd):
    result = jd.run("damage", {"attacker_hp": 10, "characteristic_modifier": -3, "defender_absorption": 4,
                               "defender_protection": 50, "dice": {"damage": [1]}})
    assert result["raw"] < 0 and result["amount"] == 1


@pytest.mark.parametrize("hp, db", [(1, 2), (1000, 150), (1001, 152)])
def test_s7_7_9_ruthless_raises_db_only(jd, hp, db):
    result = jd.run("damage", {"attacker_hp": hp, "characteristic_modifier": 0, "ruthless": True,
                               "dice": {"damage": [2]}})
    assert result["db"] == db
    assert result["vdb"] == -(-(-(-hp // 10)) // 10)


@pytest.mark.parametrize("protection, returned", [(0, 50), (49, 1), (60, 1)])
def test_s7_7_6_last_chance_return(jd, protection, returned):
    result = jd.run("damage", {"attacker_hp": 500, "characteristic_modifier": 0, "defender_hp": 1000,
                               "defender_last_chance": True, "attacker_protection": protection,
                               "dice": {"damage": [2]}})
    assert result["return_damage"] == returned


def test_critical_only_mode(jd):
    result = jd.run("damage", {"attacker_hp": 900, "characteristic_modifier": 1, "defender_absorption": 2,
                               "defender_protection": 3, "mode": "critical_only", "flat_bonus": 100,
                               "dice": {"critical": [4]}})
    assert result["amount"] == (4 + 1 - 2) * 9 - 3
    assert "damage" not in result["dice"]


def test_s5_8_move_is_automatic_before_the_conflict(jd, s1):
    s1["conflict_started"] = False
    result = act(jd, s1, "n1", [{"action": "move", "moves": 1, "path": ["z1"]}], {})
    out = result["outcome"]
    assert (out["status"], out["success"], out["moves_achieved"], out["moved_to"]) == ("automatic", True, 1, "z1")
    assert result["dice"] == {}


@pytest.mark.parametrize("roll, moved, advantage", [(6, "z1", 2), (5, None, 1)])
def test_s5_8_move_roll_against_the_nearest_reflex(jd, s1, roll, moved, advantage):
    # maneuver 16 + roll against s1's passive reflex 22; failure: one move less and -1 advantage
    result = act(jd, s1, "n1", [{"action": "move", "moves": 1, "path": ["z1"]}], {"n1/a0/attack": roll})
    out = result["outcome"]
    assert out["defense_total"] == 22 and out["moved_to"] == moved
    assert result["advantage"]["n1"] == advantage


def test_h17_extra_moves_penalty_and_budget(jd, s1):
    s1["conflict_started"] = False
    s1["map"]["zones"]["z2"]["terrain"] = {"unstable_ground": 1}
    result = act(jd, s1, "n1", [{"action": "move", "moves": 2, "path": ["z1"]}], {})
    corps = result["state"]["corps"]["n1"]
    assert corps["zone"] == "z1"  # leaving the sand costs 2 units: 2 moves at speed 1
    effect = corps["effects"][0]
    assert effect["value"] == -1 and len(effect["skills"]) == 10 and effect["rounds_left"] == 1
    result = act(jd, s1, "n1", [{"action": "move", "moves": 1, "path": ["z1"]}], {})
    assert result["state"]["corps"]["n1"]["zone"] == "z2"  # 1 unit is not enough
    assert result["outcome"]["moved_to"] is None


@pytest.mark.parametrize("roll", [13, 12])
def test_s5_11_4_total_melee(jd, s1, roll):
    # maneuver 16 + roll against s1's passive vigor 29
    result = act(jd, s1, "n1", [{"action": "total_melee", "target": "s1"}],
                 {"n1/a0/attack": roll, "n1/a0/riposte": [4]})
    out, state = result["outcome"], result["state"]
    if roll == 13:
        assert out["success"] and state["corps"]["n1"]["zone"] == "z3"
        assert state["corps"]["n1"]["total_melee_with"] == "s1" and state["corps"]["s1"]["total_melee_with"] == "n1"
    else:
        # failure: -2 advantage and s1's normal damage, 80 + (4 + 0 - 2) x 8 = 96
        assert not out["success"] and out["damage_taken"] == 96
        assert result["hp"]["n1"] == 804 and result["advantage"]["n1"] == 0


def test_s7_1_2_end_of_round_total_melee_damage(jd, s1):
    s1["corps"]["n1"].update(zone="z3", total_melee_with="s1")
    s1["corps"]["s1"]["total_melee_with"] = "n1"
    result = rnd(jd, s1, {}, {"n1/melee/damage": [1], "s1/melee/damage": [1]})
    # n1: 90 + (1 + 1 - 2) x 9 = 90; s1: 80 + (1 + 0 - 2) x 8 = 72; perception n1 12 > s1 10
    assert result["outcomes"]["n1/melee"] == {"target": "s1", "damage_dealt": 90, "perception_gain": True}
    assert result["outcomes"]["s1/melee"] == {"target": "n1", "damage_dealt": 72, "perception_gain": False}
    corps = result["summary"]["corps"]
    assert (corps["n1"]["hp"], corps["s1"]["hp"], corps["n1"]["advantage"]) == (828, 710, 3)


@pytest.mark.parametrize("roll, zone", [(9, "z4"), (8, "z3")])
def test_s7_1_4_push_back(jd, s1, roll, zone):
    # maneuver 16 + roll against s1's passive parry 25
    result = act(jd, s1, "n1", [{"action": "push_back", "target": "s1"}],
                 {"n1/a0/attack": roll, "n1/a0/damage": [2], "n1/a0/riposte": [2]})
    assert result["state"]["corps"]["s1"]["zone"] == zone
    if roll == 9:
        assert result["outcome"]["damage_dealt"] == 90 + (2 + 1 - 2) * 9
    else:
        assert result["outcome"]["damage_taken"] == 80 + (2 + 0 - 2) * 8
        assert result["advantage"]["n1"] == 1


@pytest.mark.parametrize("to_zone, expected", [(None, "z2"), ("z4", "z4")])
def test_s7_1_5_withdraw_ends_the_total_melee(jd, s1, to_zone, expected):
    s1["corps"]["n1"].update(zone="z3", total_melee_with="s1")
    s1["corps"]["s1"]["total_melee_with"] = "n1"
    action = {"action": "withdraw"} if to_zone is None else {"action": "withdraw", "to_zone": to_zone}
    result = act(jd, s1, "n1", [action], {"n1/a0/attack": 6})
    state = result["state"]
    assert state["corps"]["n1"]["zone"] == expected and state["corps"]["s1"]["zone"] == "z3"
    assert state["corps"]["n1"]["total_melee_with"] is None and state["corps"]["s1"]["total_melee_with"] is None
    assert state["corps"]["n1"]["effects"][0]["value"] == 2


def test_s7_7_3_opportune_counter_attack(jd, s1):
    s1["armies"]["south"]["talents"] = ["iron_hand", "opportune_attack"]
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [{"action": "massive_assault", "target": "s1"}]}}},
                 {"n1/a0/attack": 1, "s1/opportune/attack": 12, "s1/opportune/damage": [2]})
    counter = result["outcomes"]["s1/opportune"]
    assert result["outcomes"]["n1/a0"]["success"] is False
    assert counter["action"] == "massive_assault" and counter["success"] and counter["damage_dealt"] == 80
    assert result["summary"]["corps"]["s1"]["initiative"] == 21 and result["summary"]["corps"]["n1"]["hp"] == 820


def test_s7_7_7_determination_lowers_enemy_defences(jd, s1):
    s1["armies"]["south"]["talents"] = ["iron_hand", "determination"]
    out = act(jd, s1, "s1", [{"action": "massive_assault", "target": "n1"}],
              {"s1/a0/attack": 11, "s1/a0/damage": [1]})["outcome"]
    assert out["defense_total"] == 24 and out["success"]


def test_s5_4_forced_reroll_and_grace_cost(jd, s1):
    s1["phase"] = "initiative"
    s1["corps"]["s1"]["initiative"] = 0
    result = jd.run("roll-initiative", {"state": s1, "dice": {"s1/initiative": 3}})
    # s1: 3 + initiative 7 = 10; strategist rank 0: grace -2
    assert result["initiative"]["s1"] == 10 and result["advantage"]["s1"] == -2 and result["rerolled"] == ["s1"]
    s1["armies"]["south"]["talents"] = ["iron_hand", "confidence"]
    result = jd.run("roll-initiative", {"state": s1, "dice": {"s1/initiative": 3}})
    assert result["advantage"]["s1"] == 0


@pytest.mark.parametrize("pool, allowed", [(5, True), (6, False)])
def test_s5_4_1_voluntary_reroll_cap(jd, s1, pool, allowed):
    s1["phase"] = "initiative"
    s1["corps"]["n1"]["initiative"] = pool
    payload = {"state": s1, "rerolls": ["n1"], "dice": {"n1/initiative": 1}}
    if allowed:
        assert jd.run("roll-initiative", payload)["initiative"]["n1"] == 14
    else:
        assert list(jd.refuse("roll-initiative", payload)["fields"]) == ["rerolls[0]"]


def test_s7_4_hero_intervention_cooldown_and_sacrifice(jd, s1):
    declarations = {"corps": {"n1": {"actions": [{"action": "subtle_assault", "target": "s1"}],
                                     "heroes": [{"hero_id": "ildar"}]}}}
    result = rnd(jd, s1, declarations, {"n1/a0/attack": 5, "n1/a0/damage": [1]})
    # deft attack 14 + Ildar 4 + 5 = 23 against s1's reflex 22; damage 90 + (1 + 1 - 2) x 9 + 3 (hero damage)
    out = result["outcomes"]["n1/a0"]
    assert out["attack_total"] == 23 and out["damage_dealt"] == 93
    assert result["summary"]["heroes"]["ildar"]["available_from_round"] == 1 + 5 + 1
    state = result["state"]
    state["phase"] = "declaration"
    error = jd.refuse("resolve-round", {"state": state, "declarations": declarations})
    assert list(error["fields"]) == ["declarations.corps.n1.heroes[0].sacrifice"]
    declarations["corps"]["n1"]["heroes"] = [{"hero_id": "ildar", "sacrifice": True}]
    result = rnd(jd, state, declarations, {"n1/a1/attack": 5})
    hero = result["summary"]["heroes"]["ildar"]
    assert (hero["status"], hero["fate"], hero["heroism_points"]) == ("out", "wounded", 0)


def test_s7_5_2_commander_hero_death_brings_confusion(jd, s1):
    s1["heroes"]["kavelec"]["is_commander"] = True
    declarations = {"corps": {"s1": {"heroes": [{"hero_id": "kavelec"}]},
                              "n1": {"actions": [{"action": "massive_assault", "target": "s1",
                                                  "on_critical": "hero_death"}]}}}
    result = rnd(jd, s1, declarations, {"n1/a0/attack": 18, "n1/a0/damage": [1]})
    out = result["outcomes"]["n1/a0"]
    assert out["critical_choice"] == "hero_death" and out["critical_hero"] == "kavelec"
    army = result["summary"]["armies"]["south"]
    assert army["confusion_round"] == 2 and army["commander_heroism_points"] == 0
    assert result["state"]["armies"]["south"]["confusion_penalty"] == 2
    assert result["summary"]["heroes"]["kavelec"]["fate"] == "wounded"


def test_s7_9_impossible_action_replaced_by_its_fallback(jd, s1):
    s1["corps"]["n1"]["zone"] = "z1"
    action = {"action": "provoke", "target": "n1", "fallback": {"action": "move", "moves": 1, "path": ["z2"]}}
    result = act(jd, s1, "s1", [action], {"s1/a0/attack": 10})
    out = result["outcome"]
    assert (out["status"], out["replaced_by"], out["moved_to"]) == ("replaced", "move", "z2")
    result = act(jd, s1, "s1", [{"action": "provoke", "target": "n1"}], {})
    assert result["outcome"]["status"] == "cancelled" and result["outcome"]["success"] is None


def test_s5_15_withdrawal_ends_the_battle(jd, s1):
    result = rnd(jd, s1, {"armies": {"south": {"withdraw": True}}}, {})
    assert result["battle_over"] and result["winner"] == "a"
    assert result["summary"]["corps"]["s1"]["status"] == "fled"
    assert result["summary"]["armies"]["south"]["status"] == "fled"


def test_gm_end_battle_with_both_sides_standing(jd, s1):
    result = rnd(jd, s1, {"gm": {"end_battle": True}}, {})
    assert result["battle_over"] and result["winner"] is None and result["state"]["round"] == 2


def test_s5_7_commander_heroism_gives_three_advantage(jd, s1):
    result = rnd(jd, s1, {"armies": {"north": {"heroism": [{"pool": "commander", "use": "advantage"}]}},
                          "corps": {"n1": {"allocation": {"fury": 5}}}}, {})
    assert result["summary"]["corps"]["n1"]["advantage"] == 0
    assert result["summary"]["armies"]["north"]["commander_heroism_points"] == 0


def test_s7_5_3_auto_success(jd, s1):
    declarations = {"armies": {"south": {"heroism": [{"pool": "commander", "use": "auto_success"}]}},
                    "corps": {"s1": {"actions": [{"action": "espionage", "target": "n1", "heroic": True}]}}}
    result = rnd(jd, s1, declarations, {})
    out = result["outcomes"]["s1/a0"]
    assert out["roll"] == 20 and out["success"] and out["critical"] and result["dice"]["s1/a0/attack"] == 20


def test_s7_2_2_divide(jd, s1):
    divide = {"action": "divide", "new_corps": [{"id": "n2", "zone": "z1", "hp": 300, "advantage": 1,
                                                 "heroes": ["ildar"]}]}
    result = rnd(jd, s1, {"corps": {"n1": {"actions": [divide]}}}, {"n1/a0/attack": 20})
    corps = result["state"]["corps"]
    assert (corps["n1"]["hp"], corps["n2"]["hp"], corps["n2"]["zone"]) == (600, 300, "z1")
    assert corps["n2"]["initiative"] == corps["n1"]["initiative"] == 23
    assert result["state"]["heroes"]["ildar"]["corps_id"] == "n2"
    # n1: 2 - 1 given away + 1 critical (roll 20, default choice advantage)
    assert corps["n1"]["advantage"] == 2 and corps["n2"]["advantage"] == 1


def test_h24_stronghold_special_defence_against_push_back(jd, s1):
    s1["map"]["zones"]["z3"]["terrain"] = {"stronghold": 1}
    out = act(jd, s1, "n1", [{"action": "push_back", "target": "s1"}],
              {"n1/a0/attack": 15, "n1/a0/riposte": [1]})["outcome"]
    # parry 15 + stronghold 1 + special 5 x 1, passive: 31; maneuver 16 + 15 = 31 meets it
    assert (out["defense_total"], out["attack_total"], out["success"]) == (31, 31, True)


@pytest.mark.parametrize("heights, status", [(1, "resolved"), (0, "cancelled")])
def test_s4_18_deft_attack_range_from_higher_ground(jd, s1, heights, status):
    s1["corps"]["n1"]["zone"] = "z1"
    s1["map"]["zones"]["z1"]["terrain"] = {"heights": heights}
    result = act(jd, s1, "n1", [{"action": "subtle_assault", "target": "s1"}],
                 {"n1/a0/attack": 10, "n1/a0/damage": [1]})
    assert result["outcome"]["status"] == status


def test_s7_5_2_confusion_penalty_on_every_skill(jd, s1):
    s1["armies"]["south"].update(confusion_round=1, confusion_penalty=2)
    out = act(jd, s1, "s1", [{"action": "espionage", "target": "n1"}], {"s1/a0/attack": 10})["outcome"]
    assert out["attack_total"] == 10 + 10 - 2
    result = jd.run("resolve-round", {"state": s1, "declarations": {}})
    assert result["summary"]["armies"]["south"]["confusion_round"] is None


def test_s4_12_cover_of_the_target_hinders_the_attacker(jd, s1):
    s1["map"]["zones"]["z3"]["terrain"] = {"cover": 2}
    out = act(jd, s1, "n1", [{"action": "massive_assault", "target": "s1"}],
              {"n1/a0/attack": 10, "n1/a0/damage": [1]})["outcome"]
    # 10 + force 18 + Brute 2 - cover 2; s1's reflex unchanged by its own cover, parry -2: 25 - 2 = 23 > 22
    assert out["attack_total"] == 28 and out["defense_skill"] == "reflex" and out["defense_total"] == 22
