"""Every example of the spec's S9 and every worked example of S10, with the spec's numbers."""

import copy

import pytest

F1_SHEET = {
    "level": 12,
    "level_breakdown": {"commander_level": 6, "strategist_rank": 2, "formations": 2, "aides": 2},
    "characteristics_uncapped": {"str": 13, "dex": 12, "con": 14, "int": 12, "wis": 12, "cha": 9},
    "characteristics": {"str": 13, "dex": 12, "con": 14, "int": 12, "wis": 12, "cha": 9},
    "modifiers": {"str": 1, "dex": 1, "con": 2, "int": 1, "wis": 1, "cha": -1},
    "skills_base": {"force_attack": 18, "deft_attack": 14, "maneuver": 16, "sapping": 15, "war_technique": 14,
                    "parry": 19, "reflex": 15, "will": 16, "vigor": 16, "morale": 13, "perception": 12, "initiative": 13},
    "skills": {"force_attack": 18, "deft_attack": 14, "maneuver": 16, "sapping": 15, "war_technique": 14,
               "parry": 19, "reflex": 15, "will": 16, "vigor": 16, "morale": 13, "perception": 12, "initiative": 13},
    "passive": {"parry": 29, "reflex": 25, "will": 26, "vigor": 26, "morale": 23, "perception": 22},
    "hp": 900, "db": 90, "vdb": 9, "absorption": 2, "units_total": 700, "speed": 1, "speed_effective": 1,
    "crit_min": 18, "talent_allowance": 3, "talents_used": 1, "start_advantage": 2, "army_heroism_points": 0,
    "spend_cap": 5, "reroll_cap": 5, "warnings": []}


def test_s9_1_army_sheet_f1(jd):
    result = jd.run("army-sheet", {"army": jd.F1})
    jd.check_log(result)
    result.pop("log")
    assert result == F1_SHEET


def test_s9_0_south_sheet(jd):
    result = jd.run("army-sheet", {"army": jd.F2})
    jd.subset(result, {
        "level": 11, "characteristics": {"str": 11, "dex": 8, "con": 15, "int": 9, "wis": 10, "cha": 13},
        "characteristics_uncapped": {"wis": 12},
        "modifiers": {"str": 0, "dex": -1, "con": 2, "int": -1, "wis": 0, "cha": 1},
        "skills": {"force_attack": 13, "deft_attack": 7, "maneuver": 15, "sapping": 9, "war_technique": 9,
                   "parry": 15, "reflex": 12, "will": 18, "vigor": 19, "morale": 20, "perception": 10, "initiative": 7},
        "passive": {"parry": 25, "reflex": 22, "will": 28, "vigor": 29, "morale": 30, "perception": 20},
        "hp": 800, "db": 80, "vdb": 8, "absorption": 2, "crit_min": 20})


def test_s9_2_hero_sheet(jd):
    result = jd.run("hero-sheet", {
        "hero": {"name": "Sire Aubin", "level": 7, "is_pc": False, "race_power": 0, "is_commander": False,
                 "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}, "heroism_points": 1},
        "intervention": {"heroism": True}})
    jd.check_log(result)
    result.pop("log")
    assert result == {
        "class": "minor", "class_level": 1, "points": 4, "max_bonus": 1, "max_malus": 1, "cooldown": 2,
        "bonus_total": 4, "malus_total": 0, "can_be_hero": True,
        "intervention": {"effective_bonuses": {"morale": 2, "will": 2, "parry": 2, "reflex": 2}, "cooldown_after": 2,
                         "heroism_spent": 1, "heroism_points_left": 0, "hero_death_at_end": False}}


def test_s9_3_terrain_modifiers(jd):
    result = jd.run("terrain-modifiers", {
        "map": {"zones": {"z1": {"neighbors": ["z2"], "terrain": {"cover": 1}},
                          "z2": {"neighbors": ["z1"], "terrain": {"stronghold": 1, "weather": 3}}}},
        "actor_zone": "z1", "opponent_zone": "z2"})
    jd.check_log(result)
    jd.subset(result, {
        "actor_modifiers": {"force_attack": -1, "deft_attack": 1, "maneuver": -1, "sapping": 1, "war_technique": 1,
                            "parry": -1, "reflex": 0, "will": 0, "vigor": 0, "morale": 0, "perception": -1,
                            "initiative": 1},
        "opponent_modifiers": {"force_attack": -1, "deft_attack": -1, "maneuver": 0, "sapping": 0,
                               "war_technique": 0, "parry": 1, "reflex": 0, "will": 1, "vigor": -1, "morale": -2,
                               "perception": -2, "initiative": 0},
        "opponent_special": {"parry_vs_push_back": 5, "vigor_vs_total_melee": 5},
        "actor_effective_weather": 0, "opponent_effective_weather": 2, "actor_exit_cost": 2, "opponent_exit_cost": 1,
        "height_difference": 0, "distance": 1, "deft_attack_range": 1})


def test_s9_4_allocate_advantage(jd):
    result = jd.run("allocate-advantage", {"advantage": 4, "allocation": {"security": 2, "protection": 1,
                                                                          "preparation": 1}})
    jd.check_log(result)
    result.pop("log")
    assert result == {
        "available": 4, "attention_total": 2, "spent": 2, "unallocated": 0, "advantage_after_spend": 2,
        "skill_modifiers": {"force_attack": 0, "deft_attack": 0, "maneuver": 0, "sapping": 0, "war_technique": 0,
                            "parry": 2, "reflex": 0, "will": 2, "vigor": 2, "morale": 2, "perception": 0,
                            "initiative": 0},
        "protection": 1, "fury": 0, "preparation": 1, "movement_bonus": 1, "mining_allowed": True}


def test_s9_5_damage(jd):
    result = jd.run("damage", {"attacker_hp": 1350, "characteristic_modifier": 2, "flat_bonus": 3,
                               "defender_absorption": -1, "defender_protection": 2, "defender_hp": 1000,
                               "dice": {"damage": [4]}})
    jd.check_log(result)
    result.pop("log")
    assert result == {"db": 135, "vdb": 14, "multiplier": 7, "raw": 234, "amount": 234, "hp_after": 766,
                      "dice": {"damage": [4]}}


def test_s9_6_round_duration(jd):
    result = jd.run("round-duration", {"participants": 1200, "rounds_played": 80, "start_time": "08:00"})
    jd.check_log(result)
    result.pop("log")
    assert result == {"is_battle": True, "round_minutes": 10, "elapsed_minutes": 800, "fatigue": True,
                      "time_of_day": "21:20"}


def test_s9_7_roll_initiative(jd, s1):
    s1.update(round=2, phase="initiative")
    s1["corps"]["n1"].update(initiative=5, advantage=2)
    s1["corps"]["s1"].update(initiative=9, advantage=0)
    result = jd.run("roll-initiative", {"state": s1, "rerolls": ["n1"], "dice": {"n1/initiative": 20}})
    jd.check_log(result)
    jd.subset(result, {"initiative": {"n1": 33, "s1": 9}, "advantage": {"n1": 4, "s1": 0}, "rerolled": ["n1"],
                       "resolution_order": ["n1", "s1"], "declaration_order": ["s1", "n1"],
                       "max_spend": {"n1": 5, "s1": 5}, "dice": {"n1/initiative": 20}})
    assert result["state"]["phase"] == "declaration"


def test_s9_8_resolve_action_defensive_counter(jd, s1):
    result = jd.run("resolve-action", {
        "state": s1, "corps_id": "s1", "slot": 0,
        "declarations": {"corps": {"s1": {"actions": [{"action": "massive_assault", "target": "n1"}]},
                                   "n1": {"defensive_counter": "s1"}}},
        "dice": {"s1/a0/attack": 14, "s1/a0/defense": 6, "s1/a0/damage": [2]}})
    jd.check_log(result)
    jd.subset(result, {
        "outcome": {"action": "massive_assault", "status": "resolved", "attack_skill": "force_attack",
                    "defense_skill": "reflex", "roll": 14, "attack_total": 27, "defense_mode": "active",
                    "defense_roll": 6, "defense_total": 21, "success": True, "critical": False,
                    "damage_dealt": 80, "advantage_delta": {"s1": 1}},
        "hp": {"n1": 820, "s1": 800}, "advantage": {"n1": 2, "s1": 1}})
    assert result["state"]["corps"]["n1"]["hp"] == 820


def test_s9_9_new_battle(jd, new_battle_input):
    result = jd.run("new-battle", new_battle_input)
    jd.check_log(result)
    state = result["state"]
    jd.subset(state, {"ruleset": "jdrwiki", "name": "Le gué de Loreval", "round": 1, "phase": "declaration",
                      "conflict_started": False,
                      "clock": {"round_minutes": 10, "start_time": "08:00", "elapsed_minutes": 0},
                      "ended": False, "winner": None})
    plain = {"unstable_ground": 0, "stronghold": 0, "cover": 0, "heights": 0, "weather": 0}
    assert state["map"] == {"zones": {
        "z1": {"name": "", "neighbors": ["z2"], "terrain": plain},
        "z2": {"name": "", "neighbors": ["z1", "z3"], "terrain": plain},
        "z3": {"name": "", "neighbors": ["z2", "z4"], "terrain": plain},
        "z4": {"name": "", "neighbors": ["z3"], "terrain": plain}}}
    for army_id, fixture in (("north", jd.F1), ("south", jd.F2)):
        jd.subset(state["armies"][army_id], {**fixture, "ruthless": False, "army_heroism_points": 0,
                                             "confusion_round": None, "confusion_penalty": 0, "status": "active"})
        assert state["armies"][army_id]["sheet"] == result["sheets"][army_id]
    assert result["sheets"]["north"] == F1_SHEET
    assert state["corps"] == {
        "n1": {"id": "n1", "army_id": "north", "zone": "z2", "hp": 900, "advantage": 2, "initiative": 20,
               "status": "active", "total_melee_with": None, "effects": []},
        "s1": {"id": "s1", "army_id": "south", "zone": "z3", "hp": 800, "advantage": 0, "initiative": 26,
               "status": "active", "total_melee_with": None, "effects": []}}
    extra = {"available_from_round": 1, "status": "active", "fate": None, "death_avoided": False}
    jd.subset(state["heroes"]["ildar"], {**jd.F4["ildar"], "class": "legendary", "class_level": 4, "points": 13,
                                         "cooldown": 5, **extra})
    jd.subset(state["heroes"]["kavelec"], {**jd.F4["kavelec"], "class": "medium", "class_level": 2, "points": 7,
                                           "cooldown": 3, **extra})
    jd.subset(result, {"participants": 1200, "round_minutes": 10, "declaration_order": ["n1", "s1"],
                       "resolution_order": ["s1", "n1"], "dice": {"n1/initiative": 7, "s1/initiative": 19}})


def test_s9_10_resolve_round(jd, new_battle_input):
    state = jd.run("new-battle", new_battle_input)["state"]
    result = jd.run("resolve-round", {
        "state": state,
        "declarations": {"corps": {
            "s1": {"actions": [{"action": "barrage", "target": "n1"}, {"action": "weaken", "target": "n1"}]},
            "n1": {"actions": [{"action": "subtle_assault", "target": "s1"}], "allocation": {"focus": 2}}}},
        "dice": {"s1/a0/attack": 17, "s1/a0/duration": 2, "s1/a1/attack": 20, "s1/a1/duration": 6,
                 "n1/a0/attack": 9, "n1/a0/damage": [3]}})
    jd.check_log(result)
    jd.subset(result, {
        "round_resolved": 1, "resolution_order": ["s1", "n1"], "battle_over": False, "winner": None,
        "outcomes": {"s1/a0": {"success": True, "attack_total": 26, "defense_total": 26, "duration_rounds": 2},
                     "s1/a1": {"success": True, "critical": True, "critical_choice": "advantage",
                               "duration_rounds": 4, "advantage_delta": {"s1": 2}},
                     "n1/a0": {"success": True, "attack_total": 24, "defense_skill": "reflex", "defense_total": 23,
                               "damage_dealt": 108}},
        "summary": {"corps": {"n1": {"hp": 900, "advantage": 2, "initiative": 19, "zone": "z2", "status": "active"},
                              "s1": {"hp": 692, "advantage": 2, "initiative": 23, "zone": "z3", "status": "active"}}},
        "state": {"round": 2, "phase": "initiative", "conflict_started": True, "clock": {"elapsed_minutes": 10}}})
    # S9.10 step 4: the effects tick (barrage 2 -> 1, weaken 4 -> 3)
    assert [e["rounds_left"] for e in result["state"]["corps"]["s1"]["effects"]] == [1]
    assert [e["rounds_left"] for e in result["state"]["corps"]["n1"]["effects"]] == [3]
    assert result["outcomes"]["s1/a0"]["advantage_delta"] == {"n1": -1}


def test_s9_11_battle_aftermath(jd, s1):
    s1.update(ended=True, winner="a")
    s1["clock"]["elapsed_minutes"] = 50
    s1["corps"]["n1"]["hp"] = 500
    s1["corps"]["s1"].update(hp=300, status="fled")
    s1["armies"]["south"]["status"] = "fled"
    s1["heroes"]["kavelec"].update(status="out", fate="wounded", heroism_points=0)
    result = jd.run("battle-aftermath", {"state": s1})
    jd.check_log(result)
    result.pop("log")
    assert result == {
        "winner": "a",
        "armies": {"north": {"status": "victorious", "hp_initial": 900, "hp_final": 500, "hp_lost": 400,
                             "hp_lost_percent": 44},
                   "south": {"status": "fled", "hp_initial": 800, "hp_final": 300, "hp_lost": 500,
                             "hp_lost_percent": 62}},
        "heroes": {"ildar": {"fate": "unharmed", "heroism_points": 1},
                   "kavelec": {"fate": "wounded", "heroism_points": 0}},
        "elapsed_minutes": 50}


# ---------------------------------------------------------------- S10


def test_s10_1_army_level(jd, f1):
    f1["aides"] = [{"force_combat_expertise": 1}]
    result = jd.run("army-sheet", {"army": f1})
    assert result["level"] == 12
    assert result["level_breakdown"] == {"commander_level": 6, "strategist_rank": 2, "formations": 2, "aides": 2}


def test_s10_2_allocation_positive(jd):
    result = jd.run("allocate-advantage", {"advantage": 5, "allocation": {
        "environment": 1, "security": 0, "focus": 1, "fury": 2, "preparation": 1}})
    jd.subset(result, {"attention_total": 2, "spent": 3, "unallocated": 0, "advantage_after_spend": 2, "fury": 2,
                       "movement_bonus": 1})


def test_s10_3_allocation_from_nothing(jd):
    result = jd.run("allocate-advantage", {"advantage": 0, "allocation": {
        "environment": -1, "security": 0, "focus": -1, "fury": 2}})
    jd.subset(result, {"attention_total": -2, "spent": 2, "advantage_after_spend": -2})
    mods = result["skill_modifiers"]
    assert [mods[s] for s in ("maneuver", "reflex", "perception")] == [-1, -1, -1]
    assert [mods[s] for s in ("force_attack", "deft_attack", "sapping", "war_technique")] == [-1, -1, -1, -1]
    assert mods["parry"] == 0 and mods["initiative"] == 0


@pytest.mark.parametrize("participants, minutes", [
    (99, None), (100, 1), (1000, 1), (1001, 10), (5000, 10), (5001, 60), (20000, 60), (20001, 180), (50000, 180),
    (50001, 360), (200000, 360), (200001, 720)])
def test_s10_4_round_duration(jd, participants, minutes):
    result = jd.run("round-duration", {"participants": participants})
    assert result["is_battle"] is (minutes is not None)
    assert result["round_minutes"] == minutes


def test_s10_5_absorption(jd):
    result = jd.run("damage", {"attacker_hp": 1000, "characteristic_modifier": 1, "defender_absorption": 2,
                               "dice": {"damage": [2]}})
    assert (result["multiplier"], result["amount"]) == (1, 110)


def test_s10_6_sand(jd):
    sand = {"unstable_ground": 1}
    result = jd.run("terrain-modifiers", {
        "map": {"zones": {"z1": {"neighbors": ["z2"], "terrain": sand}, "z2": {"neighbors": ["z3"], "terrain": sand},
                          "z3": {"terrain": sand}}},
        "actor_zone": "z1", "path": ["z2", "z3"]})
    assert result["actor_exit_cost"] == 2 and result["path_cost"] == 4 and result["path_valid"] is True
    mods = result["actor_modifiers"]
    assert (mods["deft_attack"], mods["reflex"], mods["parry"]) == (-1, -1, -1)
    assert sum(mods.values()) == -3


def _terrain_state(jd, zones, has_magic=False):
    state = copy.deepcopy(jd.S1)
    state["map"] = {"zones": zones}
    state["armies"]["north"]["has_magic"] = has_magic
    state["corps"]["s1"]["zone"] = "z1"
    return state


@pytest.mark.parametrize("roll, success, level", [(5, True, 3), (4, False, 4)])
def test_s10_7_sapping_a_fortress(jd, roll, success, level):
    zones = {"z1": {"neighbors": ["z2"]}, "z2": {"neighbors": ["z3"]}, "z3": {"terrain": {"stronghold": 4}}}
    result = jd.run("resolve-action", {
        "state": _terrain_state(jd, zones), "corps_id": "n1",
        "declarations": {"corps": {"n1": {"actions": [{"action": "modify_terrain", "zone": "z3",
                                                       "characteristic": "stronghold", "direction": "down"}]}}},
        "dice": {"n1/a0/attack": roll}})
    out = result["outcome"]
    assert (out["defense_mode"], out["defense_total"], out["attack_total"]) == ("absolute", 20, 15 + roll)
    assert out["success"] is success
    assert result["state"]["map"]["zones"]["z3"]["terrain"]["stronghold"] == level
    assert out["terrain_change"] == ({"zone": "z3", "characteristic": "stronghold", "from": 4, "to": 3}
                                     if success else None)


def test_s10_8_fortress_on_a_cliff(jd):
    result = jd.run("terrain-modifiers", {
        "map": {"zones": {"z1": {"neighbors": ["z2"]}, "z2": {"terrain": {"stronghold": 4, "heights": 3}}}},
        "actor_zone": "z1", "opponent_zone": "z2"})
    jd.subset(result["opponent_modifiers"], {"parry": 7, "will": 7, "deft_attack": 7, "vigor": 4, "morale": 3,
                                             "force_attack": -4})
    jd.subset(result["actor_modifiers"], {"deft_attack": -3, "parry": -3, "morale": -3, "sapping": -3})
    assert result["opponent_special"] == {"parry_vs_push_back": 20, "vigor_vs_total_melee": 20}
    assert result["opponent_exit_cost"] == 4


def test_s10_9_weather_under_a_stronghold(jd):
    result = jd.run("terrain-modifiers", {
        "map": {"zones": {"z1": {"neighbors": ["z2"], "terrain": {"stronghold": 1, "weather": 2}},
                          "z2": {"terrain": {"stronghold": 3, "weather": 3}}}},
        "actor_zone": "z1", "opponent_zone": "z2"})
    assert (result["actor_effective_weather"], result["opponent_effective_weather"]) == (1, 0)


def test_s10_10_tornado(jd):
    zones = {f"z{i}": {"neighbors": [f"z{i + 1}"] if i < 5 else []} for i in range(1, 6)}
    state = _terrain_state(jd, zones, has_magic=True)
    state["corps"]["s1"]["zone"] = "z5"
    result = jd.run("resolve-action", {
        "state": state, "corps_id": "n1",
        "declarations": {"corps": {"n1": {"actions": [{"action": "modify_terrain", "zone": "z3",
                                                       "characteristic": "weather", "level": 3}]}}},
        "dice": {"n1/a0/attack": 15}})
    out = result["outcome"]
    assert (out["attack_total"], out["defense_total"], out["success"]) == (30, 30, True)
    weather = {z: v["terrain"]["weather"] for z, v in result["state"]["map"]["zones"].items()}
    assert weather == {"z1": 1, "z2": 2, "z3": 3, "z4": 2, "z5": 1}


@pytest.mark.parametrize("level, bonuses, points", [
    (7, {"morale": 1, "will": 1, "parry": 1, "reflex": 1}, 4),
    (12, {"morale": 2, "will": 2, "parry": 2, "reflex": 1}, 7),
    (17, {"morale": 3, "will": 3, "parry": 3, "reflex": 3, "vigor": 2, "sapping": -3, "maneuver": -1}, 10)])
def test_s10_11_hero_classes(jd, level, bonuses, points):
    result = jd.run("hero-sheet", {"hero": {"level": level, "bonuses": bonuses}})
    assert result["points"] == points
    assert result["bonus_total"] - result["malus_total"] == points


def test_s10_12_moderate_use(jd):
    result = jd.run("hero-sheet", {
        "hero": {"level": 12, "bonuses": {"parry": 2, "will": 2, "vigor": 2, "morale": 1}},
        "intervention": {"moderation": 1, "dropped_bonuses": ["parry", "will"]}})
    assert result["cooldown"] == 3
    assert result["intervention"]["cooldown_after"] == 2
    assert result["intervention"]["effective_bonuses"] == {"vigor": 2, "morale": 1}


def test_s10_13_ildar(jd):
    result = jd.run("hero-sheet", {"hero": jd.F4["ildar"]})
    jd.subset(result, {"class": "legendary", "class_level": 4, "points": 13, "max_bonus": 4, "bonus_total": 13,
                       "cooldown": 5})


def test_s10_14_kavelec(jd):
    result = jd.run("hero-sheet", {"hero": jd.F4["kavelec"]})
    jd.subset(result, {"class": "medium", "points": 7, "bonus_total": 10, "malus_total": 3, "cooldown": 3})


def test_s10_15_sacrifice_and_heroism(jd):
    hero = jd.F4["kavelec"]
    result = jd.run("hero-sheet", {"hero": hero, "intervention": {"heroism": True, "sacrifice": True}})
    effective = result["intervention"]["effective_bonuses"]
    assert effective == {t: v + 2 for t, v in hero["bonuses"].items()}
    assert effective["deft_attack"] == 1
    assert result["intervention"]["hero_death_at_end"] is True
    assert result["intervention"]["heroism_spent"] == 1


@pytest.mark.parametrize("level, rank, talents, crit_min", [
    (6, 2, [], 18), (18, 6, [], 14), (6, 2, ["shrewd_strategist"], 16)])
def test_s10_16_critical_ranges(jd, f1, level, rank, talents, crit_min):
    f1["commander"].update(level=level, strategist_rank=rank)
    f1["talents"] = talents
    assert jd.run("army-sheet", {"army": f1})["crit_min"] == crit_min


def test_s10_17_unit_value_scale(jd, f1):
    f1["units"] = [{"value": 2, "count": 100}, {"value": 3, "count": 100}]
    result = jd.run("army-sheet", {"army": f1})
    assert result["hp"] == 500
    assert result["warnings"]
    f1["units"] = [{"value": 1.5, "count": 100}]
    error = jd.refuse("army-sheet", {"army": f1})
    assert "army.units[0].value" in error["fields"]


def test_s10_18_strategist_requirements(jd, f1):
    f1["commander"].update(level=9, strategist_rank=3)
    assert jd.run("army-sheet", {"army": f1})["crit_min"] == 17
    f1["commander"]["level"] = 8
    error = jd.refuse("army-sheet", {"army": f1})
    assert list(error["fields"]) == ["army.commander.strategist_rank"]
