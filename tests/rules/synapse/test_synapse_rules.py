"""Each rule at its boundaries, with pinned dice (S4.12, S5.5-S5.8, S4.13-S4.15)."""

import pytest


def attack(kind="shock", roll=5, attacker=None, target=None, conditions=None):
    """Combat 0 against defence 5: the margin of a shock is ``roll - 5``."""
    return {"kind": kind, "attacker": {"combat": 0, "attack_power": 1000, **(attacker or {})},
            "target": {"defence": 5, "strength": 1000, "break_pct": 50, **(target or {})},
            "conditions": conditions or {}, "dice": {"attack": roll}}


# --- S4.12 D: margins and loss percentages -------------------------------------------

@pytest.mark.parametrize("roll,success,margin,pct", [(4, False, -1, 0), (5, True, 0, 10), (6, True, 1, 10),
                                                     (7, True, 2, 20), (9, True, 4, 30), (11, True, 6, 40),
                                                     (29, True, 24, 130)])
def test_margin_gives_ten_percent_per_full_two_points(run, roll, success, margin, pct):
    out = run("attack", attack(roll=roll))
    assert (out["success"], out["margin"], out["loss_pct"]) == (success, margin, pct)
    assert out["losses_inflicted"] == 1000 * pct // 100


def test_gruelling_climate_adds_ten_points(run):
    out = run("attack", attack(roll=5, conditions={"weather": {"gruelling_climate": True}}))
    assert (out["loss_pct"], out["losses_inflicted"]) == (20, 200)


# --- cap and rout (H22, H23) -------------------------------------------------------

@pytest.mark.parametrize("losses,roll,applied,capped,status", [
    (0, 13, 500, False, "active"),     # 50 % of 1000 = 500 = threshold: not above, no cap, no rout
    (0, 15, 500, True, "routed"),      # 600 > 500: cut to 500 and routs
    (1, 13, 500, False, "routed"),     # 501 losses > 500: routs without a cap
])
def test_cap_and_rout_at_the_threshold(run, losses, roll, applied, capped, status):
    out = run("attack", attack(roll=roll, target={"losses": losses}))
    assert (out["losses_applied"], out["capped"], out["target_status"]) == (applied, capped, status)


@pytest.mark.parametrize("flag", ["encircled", "fearless", "routed"])
def test_no_cap_when_encircled_fearless_or_routed(run, flag):
    out = run("attack", attack(roll=29, target={flag: True}))
    assert out["capped"] is False
    assert out["losses_applied"] == out["losses_inflicted"]


def test_fearless_never_routs_but_is_destroyed(run):
    out = run("attack", attack(roll=39, attacker={"attack_power": 10000}, target={"fearless": True, "losses": 0}))
    assert out["target_break_threshold"] is None
    assert out["target_status"] == "destroyed" and out["target_damage_state"] == "annihilated"


def test_zero_break_pct_routs_at_the_first_loss(run):
    out = run("attack", attack(target={"break_pct": 0}))
    assert (out["losses_applied"], out["capped"], out["target_status"]) == (0, True, "routed")


# --- S4.12 A-C: modifiers and halvings ---------------------------------------------------

@pytest.mark.parametrize("state,routed,mod,power", [("fresh", False, 0, 1000), ("engaged", False, -1, 1000),
                                                    ("shaken", False, -2, 500), ("decimated", False, -5, 500),
                                                    ("decimated", True, -5, 500), ("fresh", True, -5, 500)])
def test_attacker_state_penalty_and_single_halving(run, state, routed, mod, power):
    out = run("attack", attack(attacker={"damage_state": state, "routed": routed}))
    assert (out["modifier_total"], out["attack_power_used"]) == (mod, power)


def test_surprise_and_retreat_penalties_add_up(run):
    out = run("attack", attack(attacker={"surprised": True, "retreat_penalty": -2, "modifier": 3}))
    assert out["modifier_total"] == -4


@pytest.mark.parametrize("kind,bonus", [("shock", 5), ("pursuit", 5), ("riposte", 5), ("contact", 3), ("ranged", 0)])
def test_numbers_bonus_and_counter_bonus_by_kind(run, kind, bonus):
    out = run("attack", attack(kind, attacker={"numbers_bonus": 2, "counter_bonus": 3}))
    assert out["modifier_total"] == bonus


@pytest.mark.parametrize("kind,mte,gained", [("shock", 1, 0), ("shock", 2, 1), ("shock", 5, 2), ("pursuit", 4, 2),
                                             ("ranged", 4, 0), ("contact", 4, 0)])
def test_counter_bonus_from_failed_shock_type_attacks(run, kind, mte, gained):
    # shock-type: difficulty 5; ranged and contact: defence 10 halved + short range 5 = 10
    shock_type = kind in ("shock", "pursuit")
    out = run("attack", attack(kind, roll=1, attacker={"combat": (4 if shock_type else 9) - mte},
                               target={"defence": 5 if shock_type else 10}, conditions={"distance": "short"}))
    assert out["margin"] == -mte
    assert out["counter_bonus_gained"] == gained


@pytest.mark.parametrize("mte,friendly", [(1, 0), (2, 100), (4, 200), (5, 200)])
def test_friendly_fire_ten_percent_per_two_points(run, mte, friendly):
    # ranged: defence 10 halved = 5, + medium 10 = difficulty 15; score = combat + 1
    out = run("attack", attack("ranged", roll=1, attacker={"combat": 14 - mte},
                               target={"defence": 10, "friendly_contact": True}))
    assert out["margin"] == -mte
    assert out["friendly_fire_losses"] == friendly


def test_no_friendly_fire_without_contact(run):
    out = run("attack", attack("ranged", roll=1, attacker={"combat": 0}, target={"defence": 10}))
    assert out["friendly_fire_losses"] == 0


@pytest.mark.parametrize("target,defence_used", [({}, 5), ({"surprised": True}, 2), ({"routed": True}, 2),
                                                 ({"surprised": True, "routed": True}, 1)])
def test_defence_halvings(run, target, defence_used):
    assert run("attack", attack(target=target))["defence_used"] == defence_used


def test_shock_on_ranged_troops_uses_contact_defence(run):
    out = run("attack", attack(target={"defence": 6, "defence_contact": 0, "combat_mode": "ranged"}))
    assert out["difficulty"] == 0


def test_contact_strike_is_short_range(run):
    out = run("attack", attack("contact", target={"defence": 6}))
    assert out["difficulty"] == 3 + 5


def test_weather_penalties(run):
    bad = {"weather": {"visibility": "very_poor", "extreme_temperature": True},
           "options": {"poor_visibility_combat_penalty": True, "halve_ranged_power_in_bad_conditions": True}}
    ranged = run("attack", attack("ranged", conditions=bad))
    assert ranged["modifier_total"] == -2 - 2 - 4
    assert ranged["attack_power_used"] == 500
    shock = run("attack", attack("shock", conditions=bad))
    assert (shock["modifier_total"], shock["attack_power_used"]) == (-4, 1000)


def test_pursuit_halved_by_mobility(run):
    out = run("attack", attack("pursuit", roll=5, target={"mobility_edge": True, "routed": True}))
    assert out["margin"] == 3  # the rout halves the defence: 5 // 2 = 2
    assert out["losses_inflicted"] == 1000 * 20 // 100 // 2


@pytest.mark.parametrize("factor,power", [("full", 1800), ("half", 900), ("none", 0)])
def test_fire_power_factor(run, factor, power):
    out = run("attack", {"kind": "fire", "attacker": {"combat": 9, "attack_power": 1800, "attack_power_factor": factor},
                         "target": {"defence": 8, "strength": 800, "break_pct": 90}, "dice": {"attack": 7}})
    assert out["attack_power_used"] == power


def test_fire_at_a_surprised_vehicle_ignores_defence(run):
    out = run("attack", {"kind": "fire", "attacker": {"combat": 9, "attack_power": 1800},
                         "target": {"defence": 8, "strength": 800, "break_pct": 90, "surprised": True,
                                    "ranged_cover": 4},
                         "conditions": {"mode": "vehicles"}, "dice": {"attack": 7}})
    assert out["difficulty"] == 10


# --- S5.5, S5.6: command test and army retreat -------------------------------------------------

def command(a, b, **sides):
    base = {"A": {"army_combat": 0}, "B": {"army_combat": 0}}
    for side, extra in sides.items():
        base[side].update(extra)
    return {"sides": base, "dice": {"command:A": a, "command:B": b}}


@pytest.mark.parametrize("a,b,initiative,surprised", [(5, 5, None, None), (6, 5, None, None), (7, 5, "A", None),
                                                      (9, 5, "A", None), (11, 6, "A", "B"), (1, 6, "B", "A")])
def test_command_margins(run, a, b, initiative, surprised):
    out = run("command-test", command(a, b))
    assert (out["initiative"], out["surprised"]) == (initiative, surprised)


def test_surprise_can_be_forbidden(run):
    payload = command(11, 1)
    payload["surprise_allowed"] = False
    assert run("command-test", payload)["surprised"] is None


def test_weather_penalises_command_unless_radio(run):
    payload = command(5, 5, A={"radio": True})
    payload["weather"] = {"strong_wind": True}
    assert run("command-test", payload)["modifiers"] == {"A": 0, "B": -2}


@pytest.mark.parametrize("a,success,saved,penalty,routed", [
    (7, True, False, 0, False), (9, True, False, 0, False), (11, True, True, 0, False),
    (6, False, False, -2, False), (1, False, False, -2, False)])
def test_army_retreat_outcomes(run, a, success, saved, penalty, routed):
    out = run("command-test", command(a, 5, A={"retreat": True}))
    r = out["retreat"]
    assert (r["success"], r["artillery_saved"], r["combat_penalty"], r["routed"]) == (success, saved, penalty, routed)


def test_retreat_into_rout(run):
    assert run("command-test", command(1, 6, A={"retreat": True}))["retreat"]["routed"] is True


def test_mobility_helps_only_the_retreating_side(run):
    payload = command(5, 5, A={"retreat": True})
    payload["mobility_edge"] = "B"
    assert run("command-test", payload)["modifiers"] == {"A": -2, "B": 0}


# --- S5.7 rally -----------------------------------------------------------------------

@pytest.mark.parametrize("roll,success,pct,recovered", [(4, False, 0, 0), (5, True, 0, 0), (7, True, 10, 110),
                                                        (31, True, 130, 1100)])
def test_rally_boundaries(run, roll, success, pct, recovered):
    out = run("rally", {"army_combat": 5, "combat_initial": 10, "losses": 1100, "strength": 1000,
                        "dice": {"rally": roll}})
    assert (out["success"], out["recovered_pct"], out["recovered"]) == (success, pct, recovered)
    assert out["status"] == ("active" if success else "routed")
    assert out["losses_after"] == 1100 - recovered


# --- S5.8 vehicle retreat -----------------------------------------------------------------------

@pytest.mark.parametrize("roll,outcome,penalty", [(7, "withdrawn", 0), (6, "pinned", -2), (5, "pinned", -2),
                                                  (4, "failed", -4), (1, "failed", -4)])
def test_vehicle_retreat_margins(run, roll, outcome, penalty):
    out = run("vehicle-retreat", {"unit": {"combat": 5}, "opponents": [{"id": "e", "combat": 5}],
                                  "dice": {"retreat": roll, "oppose:e": 5}})
    assert (out["margin"], out["outcome"], out["retreat_penalty"]) == (roll - 5, outcome, penalty)


def test_vehicle_retreat_rout_at_five(run):
    out = run("vehicle-retreat", {"unit": {"combat": 0}, "opponents": [{"id": "e", "combat": 5}],
                                  "dice": {"retreat": 1, "oppose:e": 1}})
    assert (out["margin"], out["outcome"]) == (-5, "routed")


def test_vehicle_retreat_without_opponents_rolls_nothing(run):
    out = run("vehicle-retreat", {"unit": {"combat": 0}, "dice": {"retreat": 3}})
    assert out["outcome"] == "withdrawn" and out["roll"] is None and out["dice"] == {}


# --- S4.13 casualties -----------------------------------------------------------------

def test_largest_remainder_keeps_the_total(run):
    out = run("casualties", {"group_losses": 10, "units": [
        {"id": "a", "strength": 1, "headcount": 1, "soldier_points": 1},
        {"id": "b", "strength": 1, "headcount": 1, "soldier_points": 1},
        {"id": "c", "strength": 1, "headcount": 1, "soldier_points": 1}]})
    assert [u["losses"] for u in out["units"].values()] == [4, 3, 3]


def test_winner_recovers_half_first(run):
    out = run("casualties", {"group_losses": 301, "winner": True,
                             "units": [{"id": "a", "strength": 1000, "headcount": 100, "soldier_points": 10}]})
    assert (out["recovered"], out["net_losses"], out["units"]["a"]["losses"]) == (150, 151, 151)
    assert out["group_loss_pct"] == 30


def test_out_of_action_capped_at_headcount(run):
    out = run("casualties", {"group_losses": 5000,
                             "units": [{"id": "a", "strength": 100, "headcount": 10, "soldier_points": 10}]})
    unit = out["units"]["a"]
    assert (unit["out_of_action"], unit["headcount_after"], unit["minor_points"]) == (10, 0, 4900)


@pytest.mark.parametrize("d6,d3", [([1, 2, 3, 4, 5, 6], [1, 1, 2, 2, 3, 3])])
def test_d3_from_d6(run, d6, d3):
    out = run("casualties", {"group_losses": 60, "units": [
        {"id": "a", "strength": 100, "headcount": 10, "soldier_points": 10}],
        "characters": [{"id": "h", "unit_id": "a", "armour": 20}], "dice": {"character:h": d6}})
    assert out["characters"]["h"]["d3"] == d3
    assert out["characters"]["h"]["damage"] == 0  # armour above the total


# --- S4.14, S4.15 -------------------------------------------------------------------------

@pytest.mark.parametrize("engineers,weeks", [(99, 16), (100, 8)])
def test_engineers_halve_at_half_the_garrison(run, engineers, weeks):
    out = run("siege", {"garrison": {"combat": 8, "headcount": 200, "strength": 2400, "break_pct": 90},
                        "fortification": {"class": "small_fort"}, "besieger": {"headcount": 0, "engineers": engineers}})
    assert out["holding_weeks"] == weeks


@pytest.mark.parametrize("besiegers,blockade", [(399, False), (400, True)])
def test_blockade_needs_twice_the_headcount(run, besiegers, blockade):
    out = run("siege", {"garrison": {"combat": 8, "headcount": 200, "strength": 2400, "break_pct": 10},
                        "fortification": {"class": "small_fort"}, "besieger": {"headcount": besiegers},
                        "weeks_elapsed": 19})
    assert out["blockade_effective"] is blockade
    assert out["attrition_pct"] == (30 if blockade else 0)
    assert out["surrender_threshold_reached"] is blockade  # 720 >= 240


@pytest.mark.parametrize("roll,success,unconditional", [(4, False, False), (5, True, False), (10 + 9, True, True)])
def test_negotiation_boundaries(run, roll, success, unconditional):
    out = run("siege", {"garrison": {"combat": 8, "headcount": 200, "strength": 2400, "break_pct": 90},
                        "fortification": {"class": "small_fort"},
                        "besieger": {"headcount": 0, "commander": {"combat": 11}}, "negotiate": True,
                        "dice": {"negotiation": roll}})
    n = out["negotiation"]
    assert n["difficulty"] == 16 and n["ratio_bonus"] == 0
    assert (n["success"], n["unconditional"]) == (success, unconditional)


def test_experience_steps_cost_the_score_reached(run):
    out = run("experience", {"result": "defeat", "xp": 3, "xp_banked": 0, "combat_base": -2, "target_combat": 1})
    assert [s["cost"] for s in out["steps"]] == [1, 1, 1]
    assert (out["xp_left"], out["new_break_pct"]) == (0, 20)


def test_experience_keeps_the_override(run):
    out = run("experience", {"result": "victory", "combat_base": 5, "target_combat": 6, "break_pct_override": 200})
    assert out["new_break_pct"] == 200


# --- S4.2-S4.7 unit sheets at their boundaries ----------------------------------------------

def sheet(run, context=None, **unit):
    base = {"id": "u", "unit_type": "human_infantry", "headcount": 10, "weapon_damage": 4, "combat_base": 5}
    return run("unit-sheet", {"unit": {**base, **unit}, "context": context or {}})


def test_thrown_weapons_halve_and_lighten(run):
    out = sheet(run, thrown_only=True, armour=5, shield=True)
    assert (out["attack_power"], out["weight_class"]) == (20, "light")


@pytest.mark.parametrize("armour,extra,partial,shield,effective,weight", [
    (2, 0, False, False, 2, "light"), (3, 0, False, False, 3, "heavy"), (5, 0, True, False, 2, "light"),
    (5, 1, True, False, 3, "heavy"), (0, 0, False, True, 0, "heavy")])
def test_armour_and_weight_class(run, armour, extra, partial, shield, effective, weight):
    out = sheet(run, armour=armour, armour_extra=extra, partial_armour=partial, shield=shield)
    assert (out["armour_effective"], out["weight_class"]) == (effective, weight)


@pytest.mark.parametrize("weapon_range,power", [("short", 5), ("medium", 5), ("long", 10), ("very_long", 10)])
def test_short_and_medium_ranged_weapons_halved(run, weapon_range, power):
    out = sheet(run, unit_type="archers_crossbowmen", weapon_damage=1, rate_of_fire=1, weapon_range=weapon_range)
    assert out["attack_power"] == power


@pytest.mark.parametrize("tech,kind,contact,defence_contact", [
    ("archaic", "archers_crossbowmen", 50, 5), ("firearm", "archers_crossbowmen", 100, 5),
    ("archaic", "artillery", 0, 5), ("firearm", "artillery", 100, 0)])
def test_contact_values(run, tech, kind, contact, defence_contact):
    extra = {"pieces": 10} if kind == "artillery" else {}
    out = sheet(run, unit_type=kind, weapon_damage=10, rate_of_fire=1, weapon_range="long", weapon_tech=tech, **extra)
    assert (out["attack_power"], out["attack_power_contact"], out["defence_contact"]) == (100, contact, defence_contact)


@pytest.mark.parametrize("role,multiplier", [("attacker", 3), ("defender", 1)])
def test_flying_troops_in_an_assault(run, role, multiplier):
    out = sheet(run, flying=True, assault_multiplier=3, context={"mode": "assault", "assault_role": role})
    assert out["type_multiplier_applied"] == multiplier


def test_no_charge_in_an_assault(run):
    assert sheet(run, unit_type="cavalry", context={"mode": "assault"})["type_multiplier_applied"] == 1
    chariots = sheet(run, unit_type="war_chariots", context={"mode": "assault"})
    assert (chariots["deployable"], chariots["attack_power"]) == (False, 0)


def test_overrides(run):
    out = sheet(run, type_multiplier=30, toughness=90, break_pct_override=0, attack_power_override=7, fearless=True)
    assert (out["attack_power"], out["toughness"], out["break_pct"], out["break_threshold"]) == (7, 90, 0, None)
    assert out["thresholds"]["rout_above"] is None


@pytest.mark.parametrize("armour,counted", [(10, True), (11, False)])
def test_weapon_counts_against_armour_up_to_twice_its_damage(run, armour, counted):
    unit = {"id": "v", "category": "vehicle", "crew_combat": 5, "vehicle_types": [
        {"name": "t", "count": 2, "toughness": 10, "weapons": [{"name": "g", "weapon_damage": 5}]}]}
    out = run("unit-sheet", {"unit": unit, "context": {"target_armour": armour}})
    assert out["weapon_lines"][0]["effective"] is counted
    assert out["attack_power"] == (10 if counted else 0)


def test_mixed_vehicle_unit_uses_the_majority_model(run):
    unit = {"id": "v", "category": "vehicle", "crew_combat": 5, "vehicle_types": [
        {"name": "light", "count": 3, "toughness": 10, "armour": 2, "control_mod": 2, "defence_mod": 1,
         "weapons": [{"name": "a", "weapon_damage": 5, "attack_mod": 3}, {"name": "b", "weapon_damage": 5, "count": 2,
                                                                           "attack_mod": -1}]},
        {"name": "heavy", "count": 3, "toughness": 50, "armour": 20, "control_mod": -3}]}
    out = run("unit-sheet", {"unit": unit})
    assert out["majority_type"] == "light"  # first on a tie
    assert out["attack_mod_mean"] == (3 - 2) // 3
    assert (out["combat"], out["defence"], out["armour"]) == (5 + 2 + 0, 6, 2)
    assert out["strength"] == 3 * 12 + 3 * 70
