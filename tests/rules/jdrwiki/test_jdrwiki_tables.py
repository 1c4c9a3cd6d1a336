"""The S6 tables, read from the package's YAML, checked at several cells including their corners."""

import pytest

from rules.jdrwiki import tables


def _sheet(jd, f1, **criteria):
    f1["criteria"] = {c: 0 for c in tables.CRITERIA} | criteria
    f1["talents"] = []
    return jd.run("army-sheet", {"army": f1})


def test_s6_1_scale_corners():
    scale = tables._DATA["criteria_scale"]
    assert (scale[0]["value"], scale[0]["fr"]) == (-2, "Très faible")
    assert (scale[-1]["value"], scale[-1]["fr"]) == (2, "Très fort")


@pytest.mark.parametrize("criterion, characteristics, skills", [
    ("hierarchy", {"wis", "cha"}, {"will", "morale", "maneuver"}),
    ("ranged_means", {"dex"}, {"deft_attack", "initiative"}),
    ("defense_means", {"con"}, {"will", "vigor", "reflex", "parry", "morale"}),
    ("history", {"cha"}, {"morale", "vigor", "initiative"})])
def test_s6_2_to_s6_4_criteria_links(jd, f1, criterion, characteristics, skills):
    """A criterion at +2 raises exactly its characteristics and skills (commander caps lifted by autonomy)."""
    f1["commander"].update(int=40, wis=40, cha=40)
    base = _sheet(jd, f1)
    raised = _sheet(jd, f1, **{criterion: 2})
    changed = {c for c in tables.CHARACTERISTICS
               if raised["characteristics"][c] != base["characteristics"][c]}
    assert changed == characteristics
    direct = {s for s in tables.SKILLS if raised["skills_base"][s] - base["skills_base"][s]
              - (raised["modifiers"][tables.SKILL_CHAR[s]] - base["modifiers"][tables.SKILL_CHAR[s]]) == 2}
    assert direct == skills


def test_s6_3_commander_cap_and_autonomy(jd, f1):
    f1["commander"]["wis"] = 8
    assert _sheet(jd, f1)["characteristics"]["wis"] == 8
    f1["talents"] = ["autonomy"]
    assert jd.run("army-sheet", {"army": f1})["characteristics"]["wis"] == 10  # all criteria 0 after _sheet


@pytest.mark.parametrize("action, type_, cost, active, defense", [
    ("combined_assault", "offensive", 2, ["force_attack", "deft_attack"], ["reflex", "vigor", "parry"]),
    ("push_back", "offensive", 3, ["maneuver"], ["parry"]),
    ("move", "maneuver", "moves", ["maneuver"], ["reflex"]),
    ("modify_terrain", "maneuver", 4, "by_terrain_table", "by_terrain_table"),
    ("weaken", "subversive", 2, ["sapping"], ["vigor"]),
    ("mining", "subversive", 4, ["sapping"], ["will"])])
def test_s6_5_action_catalogue(action, type_, cost, active, defense):
    row = tables.ACTIONS[action]
    assert (row["type"], row["cost"], row["active"], row["defense"]) == (type_, cost, active, defense)


def test_s6_5_costs_are_spent(jd, s1):
    result = jd.run("resolve-round", {"state": s1, "seed": 1, "declarations": {"corps": {
        "s1": {"actions": [{"action": "combined_assault", "target": "n1"}, {"action": "snare", "target": "n1"}]}}}})
    assert result["summary"]["corps"]["s1"]["initiative"] == 22 - 5


@pytest.mark.parametrize("terrain, skill, value", [
    ({"unstable_ground": 3}, "reflex", -3), ({"stronghold": 4}, "force_attack", -4), ({"stronghold": 4}, "will", 4),
    ({"cover": 3}, "sapping", 3), ({"cover": 3}, "maneuver", -3), ({"weather": 3}, "vigor", -3),
    ({"weather": 3, "stronghold": 3}, "perception", 0), ({"heights": 4}, "parry", 0)])
def test_s6_6_occupant_modifiers_at_the_top_levels(jd, terrain, skill, value):
    result = jd.run("terrain-modifiers", {"map": {"zones": {"z1": {"terrain": terrain}}}, "actor_zone": "z1"})
    assert result["actor_modifiers"][skill] == value


@pytest.mark.parametrize("terrain, cost", [({}, 1), ({"unstable_ground": 3}, 4), ({"cover": 3}, 2),
                                           ({"heights": 4}, 5), ({"unstable_ground": 3, "cover": 1, "heights": 4}, 9)])
def test_s6_6_exit_costs(jd, terrain, cost):
    result = jd.run("terrain-modifiers", {"map": {"zones": {"z1": {"terrain": terrain}}}, "actor_zone": "z1"})
    assert result["actor_exit_cost"] == cost


def test_s6_6_heights_range_bonus(jd):
    result = jd.run("terrain-modifiers", {"map": {"zones": {"z1": {"neighbors": ["z2"], "terrain": {"heights": 1}},
                                                            "z2": {}}}, "actor_zone": "z1", "opponent_zone": "z2"})
    assert result["deft_attack_range"] == 2 and result["height_difference"] == 1


@pytest.mark.parametrize("characteristic, direction, skill", [
    ("unstable_ground", "up", "sapping"), ("unstable_ground", "down", "maneuver"), ("stronghold", "up", "maneuver"),
    ("cover", "down", "maneuver")])
def test_s6_7_terrain_modification_skill(jd, s1, characteristic, direction, skill):
    s1["map"]["zones"]["z1"]["terrain"] = {characteristic: 1}
    decl = {"corps": {"n1": {"actions": [{"action": "modify_terrain", "zone": "z1", "characteristic": characteristic,
                                          "direction": direction}]}}}
    out = jd.run("resolve-action", {"state": s1, "corps_id": "n1", "declarations": decl,
                                    "dice": {"n1/a0/attack": 2}})["outcome"]
    # no enemy occupant: absolute difficulty 5 x max(old, new)
    assert out["attack_skill"] == skill and out["defense_total"] == 5 * (2 if direction == "up" else 1)


def test_s6_7_improving_weather_uses_will(jd, s1):
    s1["armies"]["north"]["has_magic"] = True
    s1["map"]["zones"]["z1"]["terrain"] = {"weather": 2}
    decl = {"corps": {"n1": {"actions": [{"action": "modify_terrain", "zone": "z1", "characteristic": "weather",
                                          "level": 0}]}}}
    result = jd.run("resolve-action", {"state": s1, "corps_id": "n1", "declarations": decl,
                                       "dice": {"n1/a0/attack": 4}})
    out = result["outcome"]
    assert (out["attack_skill"], out["attack_total"], out["defense_total"], out["success"]) == ("will", 20, 20, True)
    assert result["state"]["map"]["zones"]["z1"]["terrain"]["weather"] == 0


@pytest.mark.parametrize("level, race_power, is_pc, cls", [
    (1, 0, False, "ordinary"), (4, 0, False, "ordinary"), (4, 5, False, "minor"), (5, 0, False, "minor"),
    (9, 0, False, "minor"), (10, 0, False, "medium"), (14, 0, True, "major"), (19, 0, False, "major"),
    (20, 0, False, "legendary"), (40, 40, True, "legendary")])
def test_s6_9_hero_classes(jd, level, race_power, is_pc, cls):
    row = next(r for r in tables.HERO_CLASSES if r["id"] == cls)
    bonuses, left = {}, row["points"]
    for skill in tables.SKILLS:  # spend the class points, at most the class level per target
        if left:
            bonuses[skill] = min(left, row["class_level"])
            left -= bonuses[skill]
    result = jd.run("hero-sheet", {"hero": {"level": level, "race_power": race_power, "is_pc": is_pc,
                                            "bonuses": bonuses}})
    assert result["class"] == cls
    assert (result["points"], result["class_level"], result["cooldown"]) == (row["points"], row["class_level"],
                                                                          row["cooldown"])
    assert result["can_be_hero"] is (cls != "ordinary")


@pytest.mark.parametrize("rank, level, crit_min, start", [(0, 1, 20, 0), (1, 3, 19, 1), (3, 9, 17, 3), (6, 18, 14, 6)])
def test_s6_10_strategist_ranks(jd, f1, rank, level, crit_min, start):
    f1["commander"].update(strategist_rank=rank, level=level)
    result = jd.run("army-sheet", {"army": f1})
    assert (result["crit_min"], result["start_advantage"]) == (crit_min, start)


@pytest.mark.parametrize("rank, level, delta", [(0, 1, -2), (1, 3, -2 + 1), (2, 6, 0 + 2), (3, 9, 2 + 3), (6, 18, 2 + 6)])
def test_s6_10_grace_round(jd, s1, rank, level, delta):
    s1["phase"] = "initiative"
    s1["corps"]["n1"].update(initiative=0, advantage=0)
    s1["armies"]["north"]["commander"].update(strategist_rank=rank, level=level)
    result = jd.run("roll-initiative", {"state": s1, "dice": {"n1/initiative": 10}})
    assert result["advantage"]["n1"] == delta


@pytest.mark.parametrize("talents, skill, change", [
    (["tactical_advantage"], "force_attack", 2), (["tactical_advantage", "tactical_advantage"], "initiative", 4),
    (["iron_hand"], "maneuver", 3), (["iron_hand"], "morale", 1), (["forced_march"], "initiative", 2)])
def test_s6_11_talent_skill_bonuses(jd, f1, talents, skill, change):
    f1["talents"] = []
    base = jd.run("army-sheet", {"army": f1})["skills"][skill]
    f1["talents"] = talents
    assert jd.run("army-sheet", {"army": f1})["skills"][skill] == base + change


@pytest.mark.parametrize("speed, effective", [(1, 2), (2, 3), (3, 5), (20, 30)])
def test_s6_11_forced_march(jd, f1, speed, effective):
    f1["talents"] = ["forced_march"]
    f1["units"] = [{"value": 1, "count": 100, "speed": speed}]
    result = jd.run("army-sheet", {"army": f1})
    assert (result["speed_effective"], result["spend_cap"], result["reroll_cap"]) == (effective, 6, 6)


def test_s6_11_master_of_destiny(jd, f1):
    f1["talents"] = ["master_of_destiny"]
    assert jd.run("army-sheet", {"army": f1})["army_heroism_points"] == 3


def test_s6_13_allocation_links():
    links = {c: tables.ADVANTAGE_CRITERIA[c]["skills"] for c in tables.ATTENTION}
    assert links["environment"] == ["maneuver", "reflex", "perception"]
    assert links["focus"][-1] == "war_technique"
    assert tables.SPENT == ("protection", "fury", "preparation")


@pytest.mark.parametrize("d6, rounds", [(1, 2), (2, 2), (3, 3), (4, 3), (5, 4), (6, 4)])
def test_s6_15_duration_die(jd, s1, d6, rounds):
    result = jd.run("resolve-action", {
        "state": s1, "corps_id": "n1",
        "declarations": {"corps": {"n1": {"actions": [{"action": "provoke", "target": "s1"}]}}},
        "dice": {"n1/a0/attack": 19, "n1/a0/duration": d6}})
    assert result["outcome"]["duration_rounds"] == rounds
    assert result["state"]["corps"]["s1"]["effects"][0]["rounds_left"] == rounds


def test_s6_14_default_critical_choice_of_a_damaging_action(jd, s1):
    result = jd.run("resolve-action", {
        "state": s1, "corps_id": "s1",
        "declarations": {"corps": {"s1": {"actions": [{"action": "subtle_assault", "target": "n1",
                                                       "on_critical": "advantage"}]}}},
        "dice": {"s1/a0/attack": 20, "s1/a0/damage": [4]}})
    out = result["outcome"]
    assert out["critical_choice"] == "advantage" and out["advantage_delta"] == {"s1": 2}


@pytest.mark.parametrize("index, level, race_power", [(0, 20, 0), (1, 8, 5)])
def test_s6_16_seed_heroes(jd, index, level, race_power):
    seed = tables._DATA["seed_heroes"][index]
    result = jd.run("hero-sheet", {"hero": {"level": level, "race_power": race_power, "bonuses": seed["bonuses"]}})
    assert (result["class"], result["cooldown"]) == (seed["class"], seed["cooldown"])
    if "bonus_total" in seed:
        assert (result["bonus_total"], result["malus_total"]) == (seed["bonus_total"], seed["malus_total"])


@pytest.mark.parametrize("d4s, expected", [([1], 90 + (1 + 1 - 2) * 9), ([4], 90 + (4 + 1 - 2) * 9)])
def test_s6_17_d4_corners_in_a_battle(jd, s1, d4s, expected):
    result = jd.run("resolve-action", {"state": s1, "corps_id": "n1", "declarations": {"corps": {"n1": {
        "actions": [{"action": "subtle_assault", "target": "s1"}]}}}, "dice": {"n1/a0/attack": 15, "n1/a0/damage": d4s}})
    assert result["outcome"]["damage_dealt"] == expected
