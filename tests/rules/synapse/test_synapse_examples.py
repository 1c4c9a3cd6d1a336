"""Every example of S9 and every worked example of S10 (E1-E36), with the spec's numbers."""

import pytest

OPS = ["battle-scale", "unit-sheet", "army-sheet", "numerical-advantage", "command-test", "attack", "rally",
       "vehicle-retreat", "casualties", "siege", "experience", "new-battle", "resolve-round", "end-battle"]
SHEET_EXAMPLES = {"unit-sheet": 2}


def assert_log(out):
    assert out["log"], "every output explains itself"
    for step in out["log"]:
        assert set(step) == {"rule", "key", "params", "text"}
        assert step["rule"].startswith(("S", "H")) and step["key"] and step["text"]


CONTRACT_STATE_FIELDS = ("outcome", "strength")  # the battle room contract adds them to every state


def assert_matches(out, expected):
    """Every field the spec's example shows, except the log's wording (and the contract's additions)."""
    for key, value in expected.items():
        if key == "state":
            assert {k: v for k, v in out[key].items() if k not in CONTRACT_STATE_FIELDS} == value, key
        elif key != "log":
            assert out[key] == value, key


@pytest.mark.parametrize("op,n", [(op, n) for op in OPS for n in range(SHEET_EXAMPLES.get(op, 1))])
def test_s9_example(op, n, run, example):
    payload, expected = example(op, n)
    out = run(op, payload)
    assert_matches(out, expected)
    assert_log(out)


def test_fourteen_operations_listed():
    from rules.synapse import ruleset

    assert set(OPS) <= set(ruleset.operations)
    assert set(ruleset.operations) - set(OPS) == {"declaration-options", "visible-state", "round-participants",
                                                  "check-declaration", "merge-declarations", "visible-round"}


def unit(uid, unit_type="human_infantry", headcount=100, weapon_damage=4, combat_base=5, **extra):
    return {"id": uid, "unit_type": unit_type, "headcount": headcount, "weapon_damage": weapon_damage,
            "combat_base": combat_base, **extra}


def test_e1_twenty_five_thousand(run):
    out = run("battle-scale", {"headcounts": [25000]})
    assert (out["unit"], out["amount_tenths"]) == ("hour", 25)


def test_e2_feudal_army_groups(run):
    army = {"name": "Ost", "units": [
        unit("knights", "cavalry", 50), unit("archers", "archers_crossbowmen", 150, rate_of_fire="1/2", weapon_range="long"),
        unit("men_at_arms", headcount=230), unit("peasants", headcount=300)]}
    out = run("army-sheet", {"army": army})
    assert out["groups"]["melee"]["headcount"] == 580
    assert out["groups"]["ranged"]["headcount"] == 150


def test_e3_men_at_arms(run):
    assert run("unit-sheet", {"unit": unit("m", headcount=120, weapon_damage=4)})["attack_power"] == 480


def test_e4_horsemen_worth_twice_foot_on_open_ground(run):
    horse = run("unit-sheet", {"unit": unit("h", "cavalry", 250), "context": {"terrain": "open"}})
    foot = run("unit-sheet", {"unit": unit("f", headcount=500)})
    assert horse["attack_power"] == foot["attack_power"] == 2000


def test_e5_longbowmen(run):
    u = unit("b", "archers_crossbowmen", 50, rate_of_fire="1/2", weapon_range="long")
    assert run("unit-sheet", {"unit": u})["attack_power"] == 100


def test_e6_machine_gun(run):
    u = unit("mg", "other", 1, weapon_damage=5, combat_mode="ranged", rate_of_fire="4R", weapon_range="long",
             weapon_tech="firearm")
    assert run("unit-sheet", {"unit": u})["attack_power"] == 40


def test_e7_legionaries_with_pilum(run):
    out = run("unit-sheet", {"unit": unit("leg", headcount=100, weapon_damage=3, secondary_damage=3)})
    assert (out["weapon_damage_effective"], out["attack_power"]) == (4, 400)


def test_e8_battery_of_four_guns(run):
    u = unit("bat", "artillery", 16, weapon_damage=80, pieces=4, rate_of_fire="1/4", weapon_range="long",
             weapon_tech="firearm")
    assert run("unit-sheet", {"unit": u})["attack_power"] == 80


@pytest.mark.parametrize("armour,strength,points", [(1, 24, 6), (5, 40, 10)])
def test_e9_gun_crew_armour(run, armour, strength, points):
    u = unit("gun", "artillery", 4, weapon_damage=80, pieces=1, rate_of_fire="1/4", weapon_range="long", armour=armour)
    out = run("unit-sheet", {"unit": u})
    assert (out["strength"], out["soldier_points"]) == (strength, points)


@pytest.mark.parametrize("combat,pct,threshold", [(0, 10, 25), (5, 60, 150), (12, 130, 325)])
def test_e10_to_e12_break_thresholds(run, combat, pct, threshold):
    """E11 is a source error (130 for regulars, H5): the formula gives 150."""
    out = run("unit-sheet", {"unit": unit("u", headcount=50, combat_base=combat)})
    assert out["strength"] == 250
    assert (out["break_pct"], out["break_threshold"]) == (pct, threshold)


def test_e13_lancers(run):
    out = run("unit-sheet", {"unit": unit("l", headcount=50, weapon_damage=5, combat_base=8, armour=4)})
    assert (out["attack_power"], out["strength"], out["defence"]) == (250, 450, 8)


def test_e14_army_of_four_units(run):
    army = {"name": "Ost", "units": [
        unit("cav", "cavalry", 100, weapon_damage=5, armour=3),
        unit("inf", headcount=300, weapon_damage=4, armour=3),
        unit("xbow", "archers_crossbowmen", 50, weapon_damage=3, rate_of_fire="1/2", weapon_range="long", armour=1),
        unit("cat", "artillery", 20, weapon_damage=25, pieces=4, rate_of_fire="1/2", weapon_range="long")]}
    out = run("army-sheet", {"army": army})
    pairs = [(u["attack_power"], u["strength"]) for u in out["units"].values()]
    assert pairs == [(1000, 1500), (1200, 2400), (75, 300), (50, 100)]
    melee, ranged = out["groups"]["melee"], out["groups"]["ranged"]
    assert (melee["headcount"], melee["attack_power"], melee["strength"]) == (400, 2200, 3900)  # H7: not 2700
    assert (ranged["headcount"], ranged["attack_power"], ranged["strength"]) == (70, 125, 400)


@pytest.mark.parametrize("round5,pct", [(False, 37), (True, 35)])
def test_e15_weighted_averages(run, example, round5, pct):
    payload, _ = example("army-sheet")
    payload["options"] = {"round_break_pct_to_5": round5}
    melee = run("army-sheet", payload)["groups"]["melee"]
    assert (melee["combat"], melee["defence"], melee["break_pct"]) == (4, 4, pct)


def test_e16_hannibal(run, example):
    payload, _ = example("army-sheet")
    assert run("army-sheet", payload)["command_rating"] == 13


@pytest.mark.parametrize("a,b,band,bonus", [(600, 250, "2:1", 2), (600, 500, "none", 0)])
def test_e17_e18_ratio(run, a, b, band, bonus):
    out = run("numerical-advantage", {"attack_power": {"A": a, "B": b}})
    assert (out["band"], out["bonus"]) == (band, bonus)


def test_e19_e20_casualties(run, example):
    payload, _ = example("casualties")
    out = run("casualties", payload)
    heavy, militia = out["units"]["heavy"], out["units"]["militia"]
    assert (heavy["losses"], heavy["out_of_action"], heavy["killed_min"], heavy["minor_points"]) == (100, 8, 4, 4)
    assert (militia["out_of_action"], militia["killed_min"]) == (20, 10)
    payload["units"][0]["killed"] = 8  # "8 killed" is a valid declaration
    assert run("casualties", payload)["units"]["heavy"]["killed"] == 8


def test_e21_hoplites_rally(run, example):
    payload, _ = example("rally")
    out = run("rally", payload)
    assert (out["difficulty"], out["margin"], out["recovered_pct"]) == (10, 5, 20)


def test_e22_militia_experience(run):
    out = run("experience", {"result": "marginal_victory", "combat_base": 4, "target_combat": 5})
    assert (out["cost"], out["new_break_pct"]) == (5, 60)


@pytest.mark.parametrize("factor,strength", [(2, 120), (1, 60)])
def test_e23_bunker(run, factor, strength):
    out = run("unit-sheet", {"unit": unit("g", headcount=10, armour_extra=1),
                             "context": {"fortification_factor": factor}})
    assert out["strength"] == strength


@pytest.mark.parametrize("garrison,held", [(1000, True), (251, True), (250, True), (249, False)])
def test_e24_properly_held(run, garrison, held):
    """H32: 250 of 500 is still held (the example's "250 or less" contradicts the rule)."""
    sides = {"A": {"army_combat": 5, "assault_role": "attacker"},
             "B": {"army_combat": 5, "assault_role": "defender", "optimal_garrison": 500,
                   "garrison_headcount": garrison}}
    out = run("command-test", {"mode": "assault", "sides": sides, "dice": {"command:A": 5, "command:B": 5}})
    assert out["properly_held"] is held
    assert out["modifiers"]["B"] == (2 if held else 0)


@pytest.mark.parametrize("assault,tenths", [(False, 60), (True, 120)])
def test_e25_siege_scale(run, assault, tenths):
    assert run("battle-scale", {"headcounts": [50000, 10000], "assault": assault})["amount_tenths"] == tenths


def siege(combat=8, **extra):
    return {"garrison": {"combat": combat, "headcount": 200, "strength": 2400, "break_pct": 90, "attack_power": 1000},
            "fortification": {"class": "small_fort"}, "besieger": {"headcount": 600}, **extra}


@pytest.mark.parametrize("combat,weeks", [(8, 16), (3, 6)])
def test_e26_e27_holding_time(run, combat, weeks):
    assert run("siege", siege(combat))["holding_weeks"] == weeks


@pytest.mark.parametrize("weeks,pct", [(16, 0), (17, 10), (18, 20)])
def test_e28_attrition(run, weeks, pct):
    out = run("siege", siege(weeks_elapsed=weeks))
    assert (out["tranche_weeks"], out["attrition_pct"]) == (1, pct)


@pytest.mark.parametrize("losses,difficulty", [(0, 16), (480, 12)])
def test_e29_negotiation_difficulty(run, losses, difficulty):
    payload = siege(negotiate=True, dice={"negotiation": 1})
    payload["garrison"]["losses"] = losses
    payload["besieger"]["commander"] = {"combat": 5}
    assert run("siege", payload)["negotiation"]["difficulty"] == difficulty


def vehicle(count, types_extra=None, **extra):
    vtype = {"name": "M", "count": count, "toughness": 350, "armour": 150, **(types_extra or {})}
    return {"id": "v", "category": "vehicle", "crew_combat": 5, "vehicle_types": [vtype], **extra}


def test_e30_heavy_tanks(run):
    assert run("unit-sheet", {"unit": vehicle(20)})["strength"] == 10000


def test_e31_hellcat(run):
    weapons = [{"name": ".50", "count": 6, "weapon_damage": 8, "rate_of_fire": "3R"},
               {"name": "bombs", "weapon_damage": 500, "usable_in": ["ground", "naval"]}]
    out = run("unit-sheet", {"unit": vehicle(1, {"weapons": weapons}), "context": {"combat_type": "air"}})
    assert out["attack_power"] == 288  # H36: 144 forgets the burst
    assert out["weapon_lines"][1]["usable"] is False


def test_e32_interceptors(run):
    weapons = [{"name": "cannon", "count": 2, "weapon_damage": 50, "rate_of_fire": "4R"},
               {"name": "missile", "weapon_damage": 1500, "rate_of_fire": "1", "role": "secondary"}]
    out = run("unit-sheet", {"unit": vehicle(10, {"weapons": weapons}), "context": {"combat_type": "air"}})
    assert [line["attack_power"] for line in out["weapon_lines"]] == [8000, 7500]  # 800 + 750 each
    assert out["attack_power"] == 15500


def test_e33_tiger(run, example):
    payload, _ = example("unit-sheet", 1)
    out = run("unit-sheet", payload)
    assert (out["combat"], out["defence"]) == (6, 3)


def fire(defence, **attacker):
    return {"kind": "fire", "attacker": {"combat": 9, "attack_power": 1800, **attacker},
            "target": {"defence": defence, "strength": 800, "break_pct": 90}, "dice": {"attack": 7}}


def test_e34_firing_at_the_tiger(run):
    assert run("attack", fire(3))["difficulty"] == 11


def test_e35_armour_unit_fires(run):
    out = run("attack", fire(8))
    assert (out["difficulty"], out["score"], out["margin"], out["loss_pct"], out["losses_applied"]) == (14, 16, 2, 20, 360)


def test_e36_ambush_leaves_the_unit_engaged(run):
    out = run("attack", fire(8, attack_power=1250))
    assert (out["losses_applied"], out["target_damage_state"]) == (250, "engaged")  # H39: not shaken


def test_every_operation_publishes_its_input_schema():
    from rules.synapse import ruleset

    described = ruleset.describe()["operations"]
    for name, op in described.items():
        assert op["input_schema"]["type"] == "object", name
        assert "seed" in op["input_schema"]["properties"]
        assert ("dice" in op["input_schema"]["properties"]) is op["rolls"]
    assert described["resolve-round"]["rolls"] and not described["unit-sheet"]["rolls"]
