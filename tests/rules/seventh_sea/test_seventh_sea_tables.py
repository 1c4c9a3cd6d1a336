"""Every S6 table at several cells, corners included, through the operations that use it."""

import pytest

from rules.seventh_sea import tables
from rules.seventh_sea.volley import hits_of

LOW_HERO = {"id": "p", "name": "P", "side": "a", "wits": 1, "tactics": 0, "brawn": 1, "resolve": 1}


def personal(run, total, engagement, situation):
    """A personal roll reaching ``total`` with an infantry hero of base 1 (die 1..9, GM modifier for the rest)."""
    die = min(9, max(1, total - 1))
    return run("personal-roll", {"hero": LOW_HERO, "engagement": engagement, "situation": situation,
                                 "gm_modifier": total - 1 - die, "dice": {"personal": die}})


# S6.1 — corners, every row boundary, and the diagonal columns
@pytest.mark.parametrize("total, engagement, situation, row, column, cell", [
    (1, "support", "victory", "1-3", 0, (2, 0, False)),
    (3, "front_line", "defeat", "1-3", 5, (6, 4, False)),
    (-20, "front_line", "tie", "1-3", 4, (5, 3, True)),
    (0, "engaged", "victory", "1-3", 2, (4, 1, False)),
    (4, "front_line", "victory", "4-6", 3, (4, 2, True)),
    (6, "engaged", "tie", "4-6", 3, (4, 2, True)),
    (7, "disengaged", "defeat", "7-9", 3, (3, 3, False)),
    (9, "front_line", "defeat", "7-9", 5, (4, 5, True)),
    (10, "disengaged", "tie", "10-11", 2, (2, 2, True)),
    (11, "support", "victory", "10-11", 0, (1, 1, False)),
    (12, "support", "victory", "12-14", 0, (0, 1, True)),
    (14, "support", "defeat", "12-14", 2, (2, 2, False)),
    (15, "engaged", "defeat", "15-17", 4, (2, 6, True)),
    (17, "front_line", "defeat", "15-17", 5, (3, 8, True)),
    (18, "support", "victory", "18+", 0, (0, 2, True)),
    (40, "front_line", "defeat", "18+", 5, (2, 10, True)),
    (18, "disengaged", "victory", "18+", 1, (0, 3, False)),
])
def test_personal_table(run, total, engagement, situation, row, column, cell):
    out = personal(run, total, engagement, situation)
    assert out["total"] == total
    assert (out["row"], out["column"]) == (row, column)
    assert (out["damage_dice"], out["reputation"], out["heroic_opportunity"]) == cell


def test_personal_table_has_21_opportunities_and_is_monotone():
    rows = tables.data()["personal_roll_table"]
    assert sum(cell[2] for row in rows for cell in row["cells"]) == 21
    for row in rows:
        assert [c[0] for c in row["cells"]] == sorted(c[0] for c in row["cells"])
        assert [c[1] for c in row["cells"]] == sorted(c[1] for c in row["cells"])
    for column in range(6):
        damage = [row["cells"][column][0] for row in rows]
        reputation = [row["cells"][column][1] for row in rows]
        assert damage == sorted(damage, reverse=True) and reputation == sorted(reputation)


def test_columns_group_the_diagonals():
    for column, pairs in tables.data()["personal_roll_column"]["columns"].items():
        for situation, engagement in pairs:
            assert tables.personal_column(engagement, situation) == column


# S6.2
@pytest.mark.parametrize("unit, expected", [
    ("infantry", {"support": 0, "disengaged": 0, "engaged": 0, "front_line": 0}),
    ("cavalry", {"support": 1, "disengaged": 2, "engaged": 1, "front_line": -4}),
    ("artillery", {"support": 4, "disengaged": 2, "engaged": 0, "front_line": -6}),
])
def test_unit_modifiers(run, unit, expected):
    sheet = run("hero-sheet", {"hero": {**LOW_HERO, "unit_type": unit}})
    assert sheet["unit_modifiers"] == expected
    assert sheet["personal_base_by_engagement"] == {k: 1 + v for k, v in expected.items()}


# S6.3
def strategy_cell(run, attacker_strategy, defender_strategy, attacker="a"):
    side = {"general": {"wits": 1, "strategy": 0}, "troops": 100}
    defender = "b" if attacker == "a" else "a"
    out = run("general-roll", {"attacker": attacker, "sides": {
        attacker: {**side, "strategy": attacker_strategy}, defender: {**side, "strategy": defender_strategy}},
        "dice": {"general:a": [1], "general:b": [1]}})
    assert out["sides"][defender]["strategy_modifier"] == 0
    return out["sides"][attacker]["strategy_modifier"]


@pytest.mark.parametrize("attacker_strategy, defender_strategy, value", [
    ("march", "march", 0), ("march", "fall_back", 10), ("fall_back", "march", -10), ("fall_back", "fall_back", 0),
    ("charge", "fall_back", 15), ("fall_back", "charge", -15), ("fall_back", "in_ranks", 10),
    ("in_ranks", "fall_back", -10), ("envelopment", "fall_back", 5), ("fall_back", "envelopment", 5),
    ("envelopment", "charge", 15), ("march", "entrenchment", 5), ("in_ranks", "reconnaissance", -15),
    ("receive_charge", "charge", 15),
])
def test_strategy_matrix(run, attacker_strategy, defender_strategy, value):
    assert strategy_cell(run, attacker_strategy, defender_strategy) == value
    assert strategy_cell(run, attacker_strategy, defender_strategy, attacker="b") == value


def test_strategy_matrix_antisymmetric_but_for_h14():
    exceptions = {("envelopment", "fall_back"), ("fall_back", "envelopment")}
    for x in tables.STRATEGIES:
        assert tables.strategy_modifier(x, x) == 0
        for y in tables.STRATEGIES:
            if (x, y) not in exceptions:
                assert tables.strategy_modifier(x, y) == -tables.strategy_modifier(y, x)


# S6.4
@pytest.mark.parametrize("terrain, value", [
    ({}, 0), ({"high_ground": True}, 5), ({"difficult_terrain": True}, -5), ({"crossing_water": True}, -10),
    ({"high_ground": True, "difficult_terrain": True, "crossing_water": True}, -10),
    ({"difficult_terrain": True, "crossing_water": True}, -15),
])
def test_terrain(run, terrain, value):
    sides = run("army-sheet", {"sides": {"a": {"troops": 1, "general": {"wits": 1, "strategy": 0}, "terrain": terrain},
                                         "b": {"troops": 1, "general": {"wits": 1, "strategy": 0}}}})["sides"]
    assert sides["a"]["terrain_modifier"] == value and sides["b"]["terrain_modifier"] == 0


# S6.5 (bands beyond S10.2) and S6.7
@pytest.mark.parametrize("ratio, value", [(0, 0), (1, 0), (2, 5), (6, 25), (1000, 25)])
def test_numerical_bands(ratio, value):
    assert tables.numbers_modifier(ratio) == value


def test_fortification_range():
    assert tables.fortification_range() == (1, 10)


# S6.6
@pytest.mark.parametrize("front, out, value", [(0, 0, 0), (2, 0, 10), (0, 3, -15), (2, 1, 5), (50, 50, 0)])
def test_hero_impact(run, front, out, value):
    side = {"general": {"wits": 1, "strategy": 0}, "troops": 100, "strategy": "march"}
    result = run("general-roll", {"attacker": "a", "sides": {
        "a": {**side, "heroes_front_line_last_round": front, "heroes_taken_out_last_round": out}, "b": side},
        "dice": {"general:a": [1], "general:b": [1]}})
    assert result["sides"]["a"]["hero_impact_modifier"] == value
    assert result["sides"]["a"]["total"] == 1 + value


# S6.8
@pytest.mark.parametrize("value, hits", [(1, 0), (7, 0), (8, 1), (9, 1), (11, 1), (17, 1), (18, 2), (29, 3), (999, 100)])
def test_hits_per_die(value, hits):
    assert hits_of(value) == hits


@pytest.mark.parametrize("shooters, salvo, dice", [
    ({"brute_squads": [{"size": 4, "threat": 3}]}, 4, 2),
    ({"brute_squads": [{"size": 5, "threat": 3}]}, 8, 4),
    ({"henchmen": 1}, 2, 1), ({"heroes": 1}, 3, 2), ({"brute_squads": [{"size": 1, "threat": 1}]}, 1, 1),
    ({}, 0, 0),
])
def test_salvo(run, shooters, salvo, dice):
    out = run("resolve-volley", {"shooters": shooters, "seed": 5})
    assert (out["salvo_level"], out["dice_count"], len(out["volley_roll"])) == (salvo, dice, dice)


# S6.9 corners are in the S10.6 tests; the data itself:
def test_volley_wounds_table():
    assert tables.volley_wounds(5) == (5, 24) and tables.volley_wounds(44) == (40, 3)
    assert [tables.volley_wounds(tn)[1] for tn in range(5, 45, 5)] == [24, 21, 18, 15, 12, 9, 6, 3]


# S6.10
def test_fourteen_opportunities_in_enumeration_order():
    ids = [entry["id"] for entry in tables.data()["heroic_opportunities"]]
    assert sorted(ids) == sorted(tables.OPPORTUNITIES) and len(ids) == 14


# S6.11
@pytest.mark.parametrize("dice, total, raises", [([9], 9, 0), ([11, 9], 20, 2), ([1], 1, 0), ([19], 19, 1),
                                                 ([3, 7], 10, 1)])
def test_preparation_free_raises(run, dice, total, raises):
    general = {"wits": len(dice), "strategy": 0}
    out = run("preparation-roll", {"general": general, "dice": {"incitation": dice}})
    assert out["incitation"]["total"] == total and out["free_raises"] == raises and out["logistics"] is None


# S6.12
def test_enumerations():
    assert tables.SIDES == ("a", "b")
    assert tables.ENGAGEMENTS == ("support", "disengaged", "engaged", "front_line")
    assert len(tables.STRATEGIES) == 10 and tables.strategy_code("receive_charge") == "REC-CHA"
