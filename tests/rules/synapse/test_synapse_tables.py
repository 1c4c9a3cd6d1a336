"""Each S6 table, read through the operations at several cells including its corners."""

import pytest

from rules.synapse.tables import quality_of, tables


def test_every_table_of_s6_is_loaded():
    for key in ("time_scale", "troop_types", "troop_quality", "numerical_advantage", "damage_states",
                "attack_losses", "weather_effects", "experience_by_result", "fortifications", "crew_quality",
                "vehicle_combat", "crew_losses_by_state", "distance_modifier", "terrain_effects",
                "order_of_battle_sheet"):
        assert tables()[key]


@pytest.mark.parametrize("total,unit,tenths", [
    (1, "cycle", 10), (99, "cycle", 99), (100, "minute", 10), (999, "minute", 99), (1000, "tour", 10),
    (9999, "tour", 99), (10000, "hour", 10), (10**9, "hour", 1_000_000),
])
def test_s6_1_time_scale_corners(run, total, unit, tenths):
    out = run("battle-scale", {"headcounts": [total]})
    assert (out["unit"], out["amount_tenths"]) == (unit, tenths)


def test_s6_1_scale_unit_override(run):
    out = run("battle-scale", {"headcounts": [25000], "scale_unit": "minute"})
    assert (out["unit"], out["per"], out["amount_tenths"]) == ("minute", 100, 2500)


@pytest.mark.parametrize("unit_type,multiplier,toughness", [
    ("archers_crossbowmen", 1, 5), ("berserkers", 2, 7), ("cavalry", 2, 12), ("war_chariots", 3, 15),
    ("dinosaurs", 25, 75), ("dragons", 50, 250), ("war_elephants", 20, 100), ("dwarf_warriors", 1, 7),
    ("orc_warriors", 1, 6), ("human_infantry", 1, 5), ("trolls", 3, 15), ("zombies", 1, 10), ("other", 1, 5),
])
def test_s6_2_troop_types(run, unit_type, multiplier, toughness):
    unit = {"id": "u", "unit_type": unit_type, "headcount": 10, "weapon_damage": 1, "combat_base": 3,
            "combat_mode": "melee", "group": "melee"}
    out = run("unit-sheet", {"unit": unit})
    assert (out["attack_power"], out["toughness"]) == (10 * multiplier, toughness)


@pytest.mark.parametrize("combat,quality", [(-10, "poor"), (0, "poor"), (1, "mediocre"), (3, "mediocre"),
                                            (4, "average"), (6, "average"), (7, "veteran"), (9, "veteran"),
                                            (10, "elite"), (30, "elite")])
def test_s6_3_and_s6_10_quality(combat, quality):
    assert quality_of(combat) == quality_of(combat, "crew_quality") == quality


@pytest.mark.parametrize("a,b,band,bonus", [
    (100, 100, "none", 0), (149, 100, "none", 0), (150, 100, "3:2", 1), (199, 100, "3:2", 1), (200, 100, "2:1", 2),
    (299, 100, "2:1", 2), (300, 100, "3:1", 3), (400, 100, "4:1", 4), (499, 100, "4:1", 4), (500, 100, "5:1", 5),
    (10**12, 1, "5:1", 5), (1, 0, "5:1", 5), (0, 0, "none", 0), (100, 300, "3:1", 3),
])
def test_s6_4_numerical_advantage_bands(run, a, b, band, bonus):
    out = run("numerical-advantage", {"attack_power": {"A": a, "B": b}})
    assert (out["band"], out["bonus"]) == (band, bonus)
    assert out["advantaged_side"] == (None if bonus == 0 else ("A" if a > b else "B"))


@pytest.mark.parametrize("losses,state", [(0, "fresh"), (1, "engaged"), (499, "engaged"), (500, "shaken"),
                                          (999, "shaken"), (1000, "decimated"), (1999, "decimated"),
                                          (2000, "annihilated")])
def test_s6_5_damage_states(run, losses, state):
    """The target's state after an attack that does no harm (inflicted 0) shows the S6.5 ladder."""
    payload = {"kind": "shock", "attacker": {"combat": 0, "attack_power": 0},
               "target": {"defence": 0, "strength": 1000, "losses": losses, "fearless": True},
               "dice": {"attack": 1}}
    assert run("attack", payload)["target_damage_state"] == state


@pytest.mark.parametrize("result,low,high,open_ended,default", [
    ("crushing_defeat", 0, 5, True, 0), ("defeat", 5, 10, False, 5), ("status_quo", 10, 15, False, 10),
    ("marginal_victory", 16, 20, False, 16), ("victory", 20, 25, False, 20), ("decisive_victory", 25, None, True, 25),
])
def test_s6_8_experience(run, result, low, high, open_ended, default):
    out = run("experience", {"result": result, "combat_base": 0})
    assert out["xp_range"] == {"min": low, "max": high, "open_ended": open_ended}
    assert out["xp_awarded"] == default


@pytest.mark.parametrize("cls,factor,weeks", [("entrenchment", 1, 8), ("small_fort", 2, 16), ("fortress", 3, 24)])
def test_s6_9_fortification_factor(run, cls, factor, weeks):
    out = run("siege", {"garrison": {"combat": 8, "headcount": 10, "strength": 100, "break_pct": 90},
                        "fortification": {"class": cls}, "besieger": {"headcount": 0}})
    assert (out["factor"], out["holding_weeks"]) == (factor, weeks)


@pytest.mark.parametrize("cls,shock_difficulty,ranged_difficulty", [
    ("entrenchment", 6, 3 + 5 + 10), ("small_fort", 11, 5 + 10), ("fortress", 16, 8 + 10)])
def test_s6_9_defence_modifier(run, cls, shock_difficulty, ranged_difficulty):
    """H16/H17: the entrenchment's +5 counts against shots only (after the halving); walls count always."""
    def attack(kind):
        return run("attack", {"kind": kind, "attacker": {"combat": 0, "attack_power": 0},
                              "target": {"defence": 6, "strength": 10, "break_pct": 10, "fortification": cls},
                              "dice": {"attack": 1}})["difficulty"]
    assert attack("shock") == shock_difficulty
    assert attack("ranged") == ranged_difficulty


@pytest.mark.parametrize("combat_type,base", [("ground", 10), ("air", 15), ("naval", 15), ("space", 20)])
def test_s6_11_base_difficulty(run, combat_type, base):
    out = run("attack", {"kind": "fire", "attacker": {"combat": 0, "attack_power": 0},
                         "target": {"defence": 0, "strength": 10, "break_pct": 10},
                         "conditions": {"combat_type": combat_type}, "dice": {"attack": 1}})
    assert out["difficulty"] == base


@pytest.mark.parametrize("losses,state,pct,lost", [(0, "fresh", 0, 0), (1, "engaged", 0, 0), (399, "engaged", 9, 9),
                                                   (400, "shaken", 25, 25), (800, "decimated", 50, 50),
                                                   (1600, "annihilated", 100, 100)])
def test_s6_12_crew_losses(run, losses, state, pct, lost):
    out = run("casualties", {"group_losses": losses, "units": [
        {"id": "v", "category": "vehicle", "strength": 800, "headcount": 2, "crew_total": 100}]})
    assert out["units"]["v"] == {"losses": losses, "damage_state": state, "crew_loss_pct": pct, "crew_lost": lost}


@pytest.mark.parametrize("distance,difficulty", [("short", 5), ("medium", 10), ("long", 15), ("very_long", 20)])
def test_s6_13_distances(run, distance, difficulty):
    out = run("attack", {"kind": "ranged", "attacker": {"combat": 0, "attack_power": 0},
                         "target": {"defence": 1, "strength": 10, "break_pct": 10},
                         "conditions": {"distance": distance}, "dice": {"attack": 1}})
    assert out["difficulty"] == difficulty


@pytest.mark.parametrize("terrain,cavalry,chariots", [
    ("open", 200, 300), ("broken", 200, 0), ("very_broken", 100, 0), ("forest", 100, 0), ("marsh", 100, 0),
    ("urban", 100, 0)])
def test_s6_14_charges_by_terrain(run, terrain, cavalry, chariots):
    def power(unit_type):
        return run("unit-sheet", {"unit": {"id": "u", "unit_type": unit_type, "headcount": 100, "weapon_damage": 1,
                                           "combat_base": 3}, "context": {"terrain": terrain}})
    assert power("cavalry")["attack_power"] == cavalry
    chariot = power("war_chariots")
    assert (chariot["attack_power"], chariot["deployable"]) == (chariots, terrain == "open")


@pytest.mark.parametrize("terrain,kind,power,difficulty", [
    ("open", "shock", 1000, 6), ("urban", "shock", 500, 11), ("marsh", "shock", 500, 6), ("marsh", "ranged", 1000, 1 + 10),
    ("forest", "ranged", 1000, 3 + 5 + 10), ("forest", "shock", 1000, 6)])
def test_s6_14_terrain_effects(run, terrain, kind, power, difficulty):
    out = run("attack", {"kind": kind, "attacker": {"combat": 0, "attack_power": 1000},
                         "target": {"defence": 6, "strength": 10, "break_pct": 10},
                         "conditions": {"terrain": terrain}, "dice": {"attack": 1}})
    assert (out["attack_power_used"], out["difficulty"]) == (power, difficulty)


def test_s6_15_sheet_sections(run):
    army = {"name": "Ost", "notes": "n", "units": [
        {"id": "foot", "unit_type": "human_infantry", "headcount": 10, "weapon_damage": 1, "combat_base": 3},
        {"id": "bows", "unit_type": "archers_crossbowmen", "headcount": 10, "weapon_damage": 1, "combat_base": 3,
         "rate_of_fire": 1, "weapon_range": "long"},
        {"id": "guns", "unit_type": "artillery", "group": "artillery", "headcount": 4, "pieces": 1,
         "weapon_damage": 10, "combat_base": 3, "rate_of_fire": 1, "weapon_range": "long"},
        {"id": "res", "unit_type": "human_infantry", "group": "reserve", "headcount": 10, "weapon_damage": 1,
         "combat_base": 3}]}
    sheet = run("army-sheet", {"army": army})["sheet"]
    assert [r["unit"] for r in sheet["main_force"]["rows"]] == ["foot"]
    assert [t["group"] for t in sheet["support_forces"]["totals"]] == ["ranged", "artillery"]
    assert [r["weapon_range"] for r in sheet["support_forces"]["rows"]] == ["long", "long"]
    assert [t["group"] for t in sheet["reserve"]["totals"]] == ["reserve"]
    assert set(sheet["damage_tracks"]) == {"melee", "ranged", "artillery", "reserve"}
    assert sheet["notes"] == "n" and sheet["commander"] is None
