"""resolve-round and end-battle: every step of S5.2 with pinned dice."""

import pytest


def foot(uid, headcount=100, combat=5, **extra):
    return {"id": uid, "unit_type": "human_infantry", "headcount": headcount, "weapon_damage": 4, "combat_base": combat,
            **extra}


def bows(uid, headcount=60, **extra):
    return {"id": uid, "unit_type": "archers_crossbowmen", "headcount": headcount, "weapon_damage": 4,
            "rate_of_fire": 1, "weapon_range": "long", "combat_base": 4, **extra}


def new(run, a_units, b_units, a_commander=None, **battle):
    armies = {"A": {"name": "A", "commander": a_commander, "units": a_units},
              "B": {"name": "B", "units": b_units}}
    return run("new-battle", {"armies": armies, **battle})["state"]


def orders(side, **by_formation):
    return {side: {"orders": {f"{side}.{k}": ({"action": "attack", "target": v} if "." in v else {"action": v})
                              for k, v in by_formation.items()}}}


def play(run, state, sides=None, gm=None, dice=None):
    return run("resolve-round", {"state": state, "declarations": {"sides": sides or {}, "gm": gm or {}},
                                 "dice": dice or {}})


# --- the example battle of S9.12-S9.14, replayed --------------------------------------------

def test_s9_14_state_replayed_from_s9_12(run, battle, example):
    both = {**orders("A", melee="B.melee", ranged="B.melee"), **orders("B", melee="A.melee")}
    r1 = play(run, battle, both, dice={"command:A": 6, "command:B": 4, "attack:A.ranged": 7, "attack:A.melee": 5,
                                       "attack:B.melee": 8})
    # round 2: the archers miss by 5 and hit their own foot; A's foot routs the orcs before they strike (H49)
    r2 = play(run, r1["state"], both, dice={"attack:A.ranged": 1, "attack:A.melee": 7, "attack:B.melee": 9})
    assert r2["results"]["attack:A.ranged"]["friendly_fire_target"] == "A.melee"
    assert r2["results"]["attack:A.ranged"]["friendly_fire_losses"] == 24
    assert r2["results"]["attack:B.melee"] == {"kind": "shock", "attacker": "B.melee", "target": "A.melee",
                                               "void": True, "reason": "attacker_not_active"}
    assert [e["type"] for e in r2["events"]] == ["attack", "friendly_fire", "attack", "routed"]
    # round 3: the orcs fail to rally; A pursues with +5 (the routed orcs count for nothing, H28):
    # 5 - 1 (engaged) + 7 + 5 = 16 against 0 (3 halved by surprise and rout): 90 % of 800; the orcs flee
    third = {"A": {"orders": {"A.melee": {"action": "attack", "target": "B.melee"}}},
             "B": {"rally": ["B.melee"], "orders": {"B.melee": {"action": "hold"}}}}
    r3 = play(run, r2["state"], third, dice={"rally:B.melee": 1, "attack:A.melee": 7})
    assert r3["results"]["numbers"]["bonus"] == 5
    assert (r3["results"]["attack:A.melee"]["kind"], r3["results"]["attack:A.melee"]["loss_pct"]) == ("pursuit", 90)
    assert r3["results"]["rally:B.melee"]["success"] is False
    expected, _ = example("end-battle")
    assert r3["state"].pop("outcome") == {"over": True, "winner": "A", "tie": False, "reason": "battle.rout",
                                          "one_more_round": False, "gm_names_winner": False}
    assert r3["state"].pop("strength") == {"A": 1646, "B": 0}  # B's orcs fled: nothing of B still stands
    assert r3["state"] == expected["state"]


def test_without_initiative_both_attacks_land(run, battle):
    both = {**orders("A", melee="B.melee"), **orders("B", melee="A.melee")}
    out = play(run, battle, both, dice={"command:A": 1, "command:B": 7, "attack:A.melee": 19, "attack:B.melee": 9})
    assert out["results"]["command"]["initiative"] is None
    a, b = out["results"]["attack:A.melee"], out["results"]["attack:B.melee"]
    assert (a["losses_applied"], a["capped"], a["target_status"]) == (840, True, "routed")
    assert b["void"] is False and b["modifier_total"] == 0  # computed from the start of the phase
    assert b["losses_applied"] == 360
    assert out["state"]["formations"]["A.melee"]["losses"] == 360


def test_with_initiative_a_routed_enemy_loses_its_attack(run, battle):
    both = {**orders("A", melee="B.melee"), **orders("B", melee="A.melee")}
    out = play(run, battle, both, dice={"command:A": 2, "command:B": 5, "attack:A.melee": 19})
    assert out["results"]["command"]["initiative"] == "A" and out["results"]["command"]["surprised"] is None
    assert out["results"]["attack:B.melee"]["reason"] == "attacker_not_active"
    assert "attack:B.melee" not in out["dice"]  # H59: dice of void attacks are not used


def test_command_test_only_when_due(run, battle):
    out = play(run, battle, dice={"command:A": 2, "command:B": 1})
    second = play(run, out["state"], dice={"command:A": 1, "command:B": 9})
    assert "command" not in second["results"] and second["dice"] == {}
    assert second["state"]["command"]["round"] == 1  # H18: initiative stays in force
    called = play(run, out["state"], gm={"new_command_test": True}, dice={"command:A": 1, "command:B": 9})
    assert called["results"]["command"]["initiative"] == "B"
    assert called["state"]["command"]["round"] == 2


def routed_b(battle, round_no=1):
    """The example battle at the end of round 1 with B's melee routed in that round."""
    battle["round"] = round_no
    battle["command"] = {"round": 1, "ratings": {"A": 9, "B": 3}, "modifiers": {"A": 0, "B": 0},
                         "rolls": {"A": 5, "B": 5}, "scores": {"A": 14, "B": 8}, "margin": 6, "initiative": "A",
                         "surprised": "B"}
    battle["formations"]["B.melee"].update(status="routed", routed_round=round_no, losses=900, damage_state="engaged")
    return battle


def test_pursuit_and_riposte(run, battle):
    state = routed_b(battle)
    sides = {**orders("A", melee="B.melee"), "B": {"orders": {"B.melee": {"action": "riposte"}}}}
    out = play(run, state, sides, dice={"attack:A.melee": 5, "attack:B.melee": 15})
    pursuit, riposte = out["results"]["attack:A.melee"], out["results"]["attack:B.melee"]
    assert pursuit["kind"] == "pursuit" and pursuit["capped"] is False
    assert pursuit["defence_used"] == 0  # 3 halved by surprise and by the rout
    assert riposte["kind"] == "riposte"
    assert riposte["modifier_total"] == -5 - 5  # routed, surprised
    assert riposte["attack_power_used"] == 450  # halved once (routed)
    assert out["state"]["formations"]["B.melee"]["pursued"] is True
    assert out["state"]["formations"]["B.melee"]["status"] == "fled"
    assert (out["state"]["status"], out["state"]["winner"], out["state"]["end_reason"]) == ("over", "A", "rout")


def test_only_the_first_pursuer_pursues(run, setup):
    setup["armies"]["A"]["units"].append(foot("a_res", group="reserve"))
    state = new(run, setup["armies"]["A"]["units"], setup["armies"]["B"]["units"])
    state = routed_b(state)
    state["formations"]["A.reserve"]["status"] = "active"
    out = play(run, state, orders("A", melee="B.melee", reserve="B.melee"), dice={"attack:A.melee": 5})
    assert out["results"]["attack:A.reserve"]["reason"] == "already_pursued"


def test_exposed_ranged_troops_strike_first(run):
    state = new(run, [foot("a_foot", 200)], [foot("b_foot", 50), bows("b_bows")])
    state["formations"]["B.melee"]["status"] = "fled"
    out = play(run, state, orders("A", melee="B.ranged"),
               dice={"command:A": 5, "command:B": 5, "contact:B.ranged": 9, "attack:A.melee": 9})
    contact = out["results"]["contact:B.ranged"]
    assert (contact["kind"], contact["attacker"], contact["attack_power_used"]) == ("contact", "B.ranged", 120)
    # 4 + 9 against A's defence 5 halved (a shot) = 2, + short range 5
    assert (contact["score"], contact["difficulty"]) == (13, 7)
    shock = out["results"]["attack:A.melee"]
    assert shock["difficulty"] == 4  # B's archers: contact defence 4
    assert out["events"][1]["key"] == "contact:B.ranged"


def test_melee_may_not_charge_screened_archers(refused, run):
    state = new(run, [foot("a_foot", 200)], [foot("b_foot", 50), bows("b_bows")])
    fields = refused("resolve-round", {"state": state, "declarations": {"sides": orders("A", melee="B.ranged")}})
    assert "declarations.sides.A.orders.A.melee.target" in fields


def test_counter_bonus_is_gained_then_used(run, battle):
    both = {**orders("A", melee="B.melee"), **orders("B", melee="A.melee")}
    # A (5 + 1) fails by 6 against B's defence 3 raised by 9 by the GM; initiative A, no surprise
    out = play(run, battle, both, gm={"formation_modifiers": {"B.melee": {"defence": 9}}},
               dice={"command:A": 2, "command:B": 5, "attack:A.melee": 1, "attack:B.melee": 1})
    assert out["results"]["attack:A.melee"]["margin"] == -6
    assert out["results"]["attack:A.melee"]["counter_bonus_gained"] == 3
    # B attacks after A in the same phase and uses its bonus at once
    assert out["results"]["attack:B.melee"]["modifier_total"] == 3
    assert out["state"]["formations"]["B.melee"]["counter_bonus"] == 0


def test_encircled_formation_is_not_capped(run, battle):
    both = orders("A", melee="B.melee")
    out = play(run, battle, both, gm={"encircled": ["B.melee"]},
               dice={"command:A": 1, "command:B": 7, "attack:A.melee": 29})
    result = out["results"]["attack:A.melee"]
    assert result["capped"] is False and result["losses_applied"] > 840


def test_numerical_advantage_in_the_shock(run):
    state = new(run, [foot("a_foot", 300)], [foot("b_foot", 100)])
    out = play(run, state, orders("A", melee="B.melee"), dice={"command:A": 5, "command:B": 5, "attack:A.melee": 5})
    assert out["results"]["numbers"]["band"] == "3:1"
    assert out["results"]["attack:A.melee"]["modifier_total"] == 3


def test_army_retreat_success_abandons_artillery(run, setup):
    setup["armies"]["B"]["units"].append({"id": "b_guns", "unit_type": "artillery", "pieces": 2, "headcount": 8,
                                          "weapon_damage": 30, "rate_of_fire": "1/2", "weapon_range": "long",
                                          "combat_base": 2})
    state = new(run, setup["armies"]["A"]["units"], setup["armies"]["B"]["units"], setup["armies"]["A"]["commander"])
    # A: 9 + 1; B: army combat (300 x 3 + 8 x 2) // 308 = 2, + 12
    out = play(run, state, {"B": {"retreat": True}}, dice={"command:A": 1, "command:B": 12})
    retreat = out["results"]["retreat:B"]
    assert retreat["margin"] == 4 and retreat["success"] and not retreat["artillery_saved"]
    s = out["state"]
    assert (s["status"], s["winner"], s["end_reason"]) == ("over", "A", "withdrawal")
    assert s["armies"]["B"]["abandoned_units"] == ["b_guns"]
    assert {f["status"] for f in s["formations"].values() if f["side"] == "B"} == {"withdrawn"}
    assert "attack:A.melee" not in out["results"]


@pytest.mark.parametrize("b_roll,penalty,routed", [(9, -2, False), (1, -2, True)])
def test_army_retreat_failure(run, battle, b_roll, penalty, routed):
    out = play(run, battle, {"B": {"retreat": True}}, dice={"command:A": 6 if routed else 2, "command:B": b_roll})
    f = out["state"]["formations"]["B.melee"]
    assert f["retreat_penalty"] == penalty
    assert (f["status"] == "routed") is routed
    assert out["state"]["status"] == "ongoing"


def test_both_sides_retreat_without_a_roll(run, battle):
    out = play(run, battle, {"A": {"retreat": True}, "B": {"retreat": True}})
    assert out["dice"] == {}
    s = out["state"]
    assert (s["status"], s["winner"], s["end_reason"]) == ("over", None, "withdrawal")


def test_rally_in_a_round(run, battle):
    state = routed_b(battle)
    out = play(run, state, {"B": {"rally": ["B.melee"]}}, dice={"rally:B.melee": 19})
    # rating 3 + 19 against 20 - 3 = 17: margin 5, 20 % of 900 = 180 recovered
    rally = out["results"]["rally:B.melee"]
    assert (rally["margin"], rally["recovered"], rally["formation"]) == (5, 180, "B.melee")
    f = out["state"]["formations"]["B.melee"]
    assert (f["status"], f["losses"], f["routed_round"]) == ("active", 720, None)


def test_routed_formation_flees_after_the_next_round(run, battle):
    state = routed_b(battle, round_no=1)
    state["formations"]["B.melee"]["routed_round"] = 1
    state["round"] = 0  # routed during the round about to be played: it stays
    state["command"]["round"] = 0
    out = play(run, state, dice={"command:A": 5, "command:B": 5})
    assert out["state"]["formations"]["B.melee"]["status"] == "routed"
    assert play(run, out["state"])["state"]["formations"]["B.melee"]["status"] == "fled"


def test_reserve_commitment(run, setup):
    setup["armies"]["B"]["units"].append(foot("b_res", 300, group="reserve"))
    state = new(run, setup["armies"]["A"]["units"], setup["armies"]["B"]["units"], setup["armies"]["A"]["commander"])
    assert state["armies"]["B"]["reserve_significant"] is True
    assert state["formations"]["B.reserve"]["status"] == "reserve"
    first = play(run, state, dice={"command:A": 5, "command:B": 5})
    out = play(run, first["state"], {"B": {"commit_reserve": True}}, dice={"command:A": 5, "command:B": 5})
    assert out["state"]["formations"]["B.reserve"]["status"] == "active"
    assert out["results"]["command"]["scores"] == {"A": 14, "B": 8}  # a significant reserve calls a new test
    assert out["events"][0] == {"type": "reserve_committed", "side": "B", "formations": ["B.reserve"]}


def test_reserve_enters_by_itself_when_nothing_else_is_left(run, setup):
    setup["armies"]["B"]["units"].append(foot("b_res", 10, group="reserve"))
    state = new(run, setup["armies"]["A"]["units"], setup["armies"]["B"]["units"])
    assert state["armies"]["B"]["reserve_significant"] is False
    state["formations"]["B.melee"].update(status="routed", routed_round=0)
    out = play(run, state, dice={"command:A": 5, "command:B": 5})
    assert out["state"]["status"] == "ongoing"
    assert out["state"]["armies"]["B"]["auto_commit_reserve"] is True
    nxt = play(run, out["state"])
    assert nxt["state"]["formations"]["B.reserve"]["status"] == "active"
    assert "command" not in nxt["results"]  # an insignificant reserve calls no test


def test_gm_ends_the_battle(run, battle):
    out = play(run, battle, gm={"end_battle": True}, dice={"command:A": 5, "command:B": 5})
    s = out["state"]
    assert (s["status"], s["winner"], s["end_reason"]) == ("over", None, "gm")
    assert out["events"][-1] == {"type": "battle_over", "winner": None, "end_reason": "gm"}


def test_gm_weather_change_stays(run, battle):
    out = play(run, battle, gm={"weather": {"visibility": "poor"}}, dice={"command:A": 5, "command:B": 5})
    assert out["state"]["weather"]["visibility"] == "poor"
    assert out["results"]["command"]["modifiers"] == {"A": -2, "B": -2}


def test_assault_defender_single_formation(run):
    state = new(run, [foot("a_foot", 300), bows("a_bows")], [foot("b_foot", 100), bows("b_bows", 40)],
                mode="assault", fortification={"class": "fortress", "defender": "B", "optimal_garrison": 200})
    f = state["formations"]
    assert set(f) == {"A.melee", "A.ranged", "B.melee"}
    assert f["B.melee"]["unit_ids"] == ["b_foot", "b_bows"]
    assert f["B.melee"]["strength"] == (100 * 5 + 40 * 5) * 3  # fortress factor 3
    assert state["engagement_distance"] == "short" and state["sequence_duration"]["assault_doubled"]
    out = play(run, state, orders("A", ranged="B.melee"), dice={"command:A": 5, "command:B": 5, "attack:A.ranged": 5})
    assert out["results"]["command"]["modifiers"] == {"A": 0, "B": 2}  # the place is held
    # defence 5 + 10 (fortress) = 15, halved (a shot) = 7, + short 5
    assert out["results"]["attack:A.ranged"]["difficulty"] == 12


def vehicle_unit(uid, count=2, combat=6, armour=50, damage=100):
    return {"id": uid, "category": "vehicle", "crew_combat": combat, "vehicle_types": [
        {"name": "tank", "count": count, "toughness": 300, "armour": armour, "crew": 4,
         "weapons": [{"name": "gun", "weapon_damage": damage}, {"name": "mg", "weapon_damage": 10,
                                                                "rate_of_fire": "3R", "role": "secondary"}]}]}


def test_vehicle_battle_fire_and_retreat(run):
    state = new(run, [vehicle_unit("a1")], [vehicle_unit("b1"), vehicle_unit("b2", armour=5)],
                mode="vehicles", combat_type="ground")
    assert state["base_difficulty"] == 10 and set(state["formations"]) == {"A.a1", "B.b1", "B.b2"}
    out = play(run, state, {"A": {"orders": {"A.a1": {"action": "attack", "target": "B.b1"}}}},
               dice={"command:A": 5, "command:B": 5, "attack:A.a1": 5})
    fire = out["results"]["attack:A.a1"]
    # the machine guns (Dmg 10) cannot hurt armour 50; the guns: 2 x 100
    assert (fire["kind"], fire["attack_power_used"]) == ("fire", 200)
    assert out["state"]["formations"]["A.a1"]["in_contact_with"] == ["B.b1"]
    retreat = play(run, out["state"], {"B": {"orders": {"B.b1": {"action": "retreat"}}}},
                   dice={"retreat:B.b1": 9, "retreat_oppose:B.b1:A.a1": 1})
    assert retreat["results"]["retreat:B.b1"]["outcome"] == "withdrawn"
    assert retreat["state"]["formations"]["B.b1"]["status"] == "withdrawn"


def test_end_battle_defaults_and_overrides(run, example):
    payload, _ = example("end-battle")
    payload.update(winner="none", results={"A": "decisive_victory"}, xp={"B": {"b_orcs": 7}},
                   killed={"B": {"b_orcs": 230}})
    out = run("end-battle", payload)
    assert out["winner"] is None
    assert out["sides"]["A"]["result"] == "decisive_victory" and out["sides"]["A"]["xp_default"] == 25
    assert out["sides"]["A"]["formations"]["A.melee"]["recovered"] == 0  # no winner: nobody recovers
    orcs = out["sides"]["B"]["units"]["b_orcs"]
    assert (orcs["xp"], orcs["killed"], orcs["wounded"]) == (7, 230, 0)
    assert out["sides"]["B"]["result"] == "status_quo"


def test_end_battle_routed_loser_abandons_artillery(run, example):
    payload, _ = example("end-battle")
    payload["state"]["armies"]["B"]["units"]["b_orcs"]["unit_type"] = "artillery"
    out = run("end-battle", payload)
    assert out["sides"]["B"]["abandoned_units"] == ["b_orcs"]
    assert out["sides"]["A"]["abandoned_units"] == []


def test_surprised_vehicles_lose_their_defence(run):
    state = new(run, [vehicle_unit("a1")], [vehicle_unit("b1", combat=12)], mode="vehicles", combat_type="air")
    out = play(run, state, {"A": {"orders": {"A.a1": {"action": "attack", "target": "B.b1"}}}},
               dice={"command:A": 15, "command:B": 1, "attack:A.a1": 5})
    assert out["results"]["command"]["surprised"] == "B"
    assert out["results"]["attack:A.a1"]["difficulty"] == 15  # the base difficulty of air combat only


def test_routed_vehicle_may_still_fire(run):
    state = new(run, [vehicle_unit("a1")], [vehicle_unit("b1")], mode="vehicles", combat_type="ground")
    state["formations"]["B.b1"].update(status="routed", routed_round=0)
    state["round"] = 0
    out = play(run, state, {"B": {"orders": {"B.b1": {"action": "attack", "target": "A.a1"}}}},
               dice={"command:A": 5, "command:B": 5, "attack:B.b1": 9})
    fire = out["results"]["attack:B.b1"]
    assert fire["void"] is False and fire["modifier_total"] == -5 and fire["attack_power_used"] == 100
    assert out["state"]["formations"]["B.b1"]["status"] == "fled"


def test_vehicle_retreat_rout_in_a_round(run):
    state = new(run, [vehicle_unit("a1", combat=12)], [vehicle_unit("b1", combat=0)], mode="vehicles",
                combat_type="ground")
    first = play(run, state, {"A": {"orders": {"A.a1": {"action": "attack", "target": "B.b1"}}}},
                 dice={"command:A": 5, "command:B": 5, "attack:A.a1": 1})
    out = play(run, first["state"], {"B": {"orders": {"B.b1": {"action": "retreat"}}}},
               dice={"retreat:B.b1": 1, "retreat_oppose:B.b1:A.a1": 1})
    assert out["results"]["retreat:B.b1"]["outcome"] == "routed"
    assert out["state"]["formations"]["B.b1"]["status"] == "routed"
    assert "attack:B.b1" not in out["results"]


def test_vehicle_reserve_is_its_own_formation(run):
    reserve = dict(vehicle_unit("b2"), group="reserve")
    state = new(run, [vehicle_unit("a1")], [vehicle_unit("b1"), reserve], mode="vehicles", combat_type="naval")
    assert state["formations"]["B.b2"]["status"] == "reserve"
    assert state["armies"]["B"]["reserve_significant"] is True
    assert state["engagement_distance"] == "long"
