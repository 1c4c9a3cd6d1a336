"""Every S6 table at several cells, corners included, through the operations that read it."""

import pytest

from heros_helpers import heros, refused
from rules.dice import AVERAGE
from rules.heros.tables import TABLES


def unit(uid, t, ff=3, fm=3, move=3, **extra):
    return {"id": uid, "troop_type": t, "factor_vs_foot": ff, "factor_vs_mounted": fm, "move": move, **extra}


def melee(a, b, da, db, kind="melee", active="a", **extra):
    return heros("combat", {"kind": kind, "active": active, "a": a, "b": b, "dice": {"a": da, "b": db}, **extra})


# -- S6.1 dice ------------------------------------------------------------------------
def test_s6_1_average_die_faces_match_the_core_die():
    assert tuple(TABLES["S6.1"]["avg_die"]["faces"]) == AVERAGE.faces


@pytest.mark.parametrize("roll", [2, 5])
def test_s6_1_average_die_extremes_accepted(roll):
    assert heros("action-points", {"corps_id": "c", "dice": {"pa": roll}})["pa"]["available"] == roll


@pytest.mark.parametrize("roll", [1, 6])
def test_s6_1_average_die_impossible_faces_refused(roll):
    assert "dice.pa" in refused("action-points", {"corps_id": "c", "dice": {"pa": roll}}).fields


# -- S6.2 troop types -----------------------------------------------------------------
@pytest.mark.parametrize("t,category,mclass", [("Kn", "mounted", "close"), ("Bg", "foot", "close"),
                                               ("Be", "mounted", "free"), ("Ax", "foot", "light"),
                                               ("Hu", "foot", "free"), ("Gd", "foot", "free")])
def test_s6_2_category_and_movement_class(t, category, mclass):
    sheet = heros("unit-sheet", {"unit": unit("u", t)})["sheet"]
    assert (sheet["category"], sheet["movement_class"]) == (category, mclass)


def test_s6_2_defaults_lurker_god_and_beasts():
    lurker = heros("unit-sheet", {"unit": unit("l", "Lu", move=None, **{"class": "X"})})["sheet"]
    assert (lurker["ep"], lurker["move"], lurker["fixed"], lurker["pursues"], lurker["can_stack"]) == (0.5, 0, True, False, False)
    god = heros("unit-sheet", {"unit": unit("g", "Gd", move=None, regular=False)})["sheet"]
    assert (god["ep"], god["move"], god["regular"], god["fear_immune"], god["fear_immune_effective"]) == (4, 5, True, True, True)
    for cls, impetuous in (("S", True), ("O", True), ("I", False), ("F", False)):
        assert heros("unit-sheet", {"unit": unit("b", "Be", **{"class": cls})})["sheet"]["impetuous"] is impetuous
    adventurers = heros("unit-sheet", {"unit": unit("a", "Av")})["sheet"]
    assert (adventurers["enemy_malus"], adventurers["skirmisher"], adventurers["infantry"]) == (1, True, True)
    assert heros("unit-sheet", {"unit": unit("p", "Pk")})["sheet"]["supported_by"] == ["Pk"]
    assert heros("unit-sheet", {"unit": unit("w", "WWg")})["sheet"]["infantry"] is False


def test_s6_2_spirit_may_be_entered_mounted_others_not():
    assert heros("unit-sheet", {"unit": unit("s", "St", mounted=True)})["sheet"]["category"] == "mounted"
    assert "unit.mounted" in refused("unit-sheet", {"unit": unit("k", "Kn", mounted=True)}).fields


@pytest.mark.parametrize("t,cls", [("Bm", "F"), ("Bm", "X"), ("Fl", "X"), ("Gd", "F"), ("Hu", "X")])
def test_s6_2_classes_not_allowed(t, cls):
    assert "unit.class" in refused("unit-sheet", {"unit": unit("u", t, **{"class": cls})}).fields


# -- S6.3 movement costs ------------------------------------------------------------------
def test_s6_3_movement_costs_table_corners():
    costs = TABLES["S6.3"]["movement_costs"]
    assert costs["close"] == {"open": 1, "rough": 2, "difficult": 3, "impassable": None, "river": None}
    assert costs["free"]["difficult"] == 1 and costs["light"]["difficult"] == 2
    assert TABLES["S6.3"]["river_exceptions"]["Bm"] == 2


# -- S6.4 surcharges ------------------------------------------------------------------------
def cost_of(action, **extra):
    return heros("action-points", {"corps_id": "c", "actions": [action], "dice": {"pa": 5}, **extra})["actions"][0]


@pytest.mark.parametrize("distance,surcharges", [(12, []), (13, ["S_DIST"])])
def test_s6_4_distance_boundary(distance, surcharges):
    got = cost_of({"id": "m", "kind": "move", "units": [{"troop_type": "Bd"}], "distance_to_general": distance})
    assert [s["id"] for s in got["surcharges"]] == surcharges


def test_s6_4_every_surcharge_in_order():
    group = {"id": "m", "kind": "move", "distance_to_general": 20,
             "units": [{"troop_type": "El"}, {"troop_type": "Fl", "high_altitude": True},
                       {"troop_type": "Hu", "regular": False}, {"troop_type": "Bd"}]}
    assert "actions[0]" in refused("action-points", {"corps_id": "c", "general_status": "absent", "actions": [group],
                                                     "dice": {"pa": 5}}).fields
    got = cost_of({**group, "distance_to_general": 0})
    assert [s["id"] for s in got["surcharges"]] == ["S_ELE", "S_FLY_MIX", "S_FLY_HIGH", "S_HU_MIX"]
    assert got["cost"] == 5
    both = cost_of({"id": "m", "kind": "move", "units": [{"troop_type": "Bd"}], "distance_to_general": 20},
                   general_status="absent")
    assert [s["id"] for s in both["surcharges"]] == ["S_ABS", "S_DIST"]


def test_s6_4_adventurers_exempt_and_own_pa():
    got = cost_of({"id": "m", "kind": "move", "units": [{"troop_type": "Av"}], "distance_to_general": 30,
                   "adventurer_own_pa": True, "adventurer_id": "av"}, general_status="absent")
    assert (got["surcharges"], got["cost"], got["paid_by_adventurer"], got["paid_from_corps"]) == ([], 1, 1, 0)


def test_s6_4_flyer_mix_with_a_character_and_landing():
    assert [s["id"] for s in cost_of({"id": "m", "kind": "move", "units": [{"troop_type": "Fl"}], "characters": 1})["surcharges"]] == ["S_FLY_MIX"]
    land = cost_of({"id": "l", "kind": "land", "units": [{"troop_type": "Fl", "high_altitude": True}]})
    assert (land["cost"], [s["id"] for s in land["surcharges"]]) == (2, ["S_FLY_HIGH"])


def test_s6_4_hu_mix_spares_the_generals_unit():
    got = cost_of({"id": "m", "kind": "move", "units": [{"troop_type": "Hu", "regular": False},
                                                         {"troop_type": "Kn", "general_unit": True}]})
    assert got["surcharges"] == []


def test_s6_4_character_moves():
    general = cost_of({"id": "c", "kind": "character_move", "character_role": "sub_general", "distance_to_general": 20},
                      general_status="absent")
    champion = cost_of({"id": "c", "kind": "character_move", "character_role": "champion", "distance_to_general": 20},
                       general_status="absent")
    assert (general["cost"], champion["cost"]) == (1, 3)


# -- S6.5 holds ---------------------------------------------------------------------------------
def test_s6_5_sub_general_unmoved_only_for_the_first_hold():
    hold = {"kind": "hold", "units": [{"troop_type": "Wb", "regular": False}], "hold_exception": "sub_general_unmoved",
            "contains_unmoved_general": True}
    ok = heros("action-points", {"corps_id": "c", "actions": [{"id": "h1", **hold}], "dice": {"pa": 2}})
    assert ok["pa_spent"] == 1
    second = {"corps_id": "c", "actions": [{"id": "h1", **hold}, {"id": "h2", **hold}], "dice": {"pa": 2}}
    assert "actions[1].hold_exception" in refused("action-points", second).fields


def test_s6_5_regular_group_holds_on_a_two():
    out = heros("action-points", {"corps_id": "c", "actions": [{"id": "h", "kind": "hold", "units": [{"troop_type": "Sp"}]}],
                                  "dice": {"pa": 2}})
    assert out["pa_spent"] == 1


# -- S6.6 tactical modifiers ---------------------------------------------------------------
def mods(line):
    return {m["id"]: m["value"] for m in line["modifiers"]}


def test_s6_6_overlaps_flanks_rear_and_gods_first_overlap():
    out = melee(unit("a", "Bd", contacts={"overlaps": 1, "flank": 1, "rear": 1}),
                unit("g", "Gd", 6, 6, 5, contacts={"overlaps": 2}), 3, 3)
    assert mods(out["a"])["M4"] == -3 and mods(out["b"])["M4"] == -1


def test_s6_6_enemy_malus_ignored_by_gods_and_adventurers():
    out = melee(unit("a", "Bd", adventurers_stacked=True), unit("v", "Av"), 3, 3)
    assert mods(out["a"]) == {"M2": 1, "M3": -1}
    assert mods(out["b"])["M3"] == -1
    god = melee(unit("g", "Gd", 6, 6, 5), unit("v", "Av"), 3, 3)
    assert "M3" not in mods(god["a"])


def test_s6_6_ground_obstacles_and_flyers():
    out = melee(unit("a", "Kn", hex={"terrain": "difficult", "elevation": 2}),
                unit("b", "Sp", hex={"wall": True, "elevation": 1}), 3, 3)
    assert mods(out["a"]) == {"M5": 1, "M7": -2} and mods(out["b"]) == {"M6": 1}
    fly = melee(unit("f", "Fl", 2, 2, 8, hex={"elevation": 2}), unit("s", "Sh", hex={"wooded": True}), 3, 3)
    assert mods(fly["a"]) == {"M8": -2} and mods(fly["b"]) == {"M9": -1}
    exempt = melee(unit("f", "Fl", 2, 2, 8, flyer_terrain_exempt=True), unit("s", "Bd", hex={"built_up": True}), 3, 3)
    assert "M8" not in mods(exempt["a"])


def test_s6_6_martial_artists():
    out = melee(unit("m", "Ma", **{"class": "X"}), unit("p", "Ps", **{"class": "I"}), 3, 3)
    assert mods(out["a"]) == {"M10a": 1, "M10b": 1}
    vs_blades = melee(unit("m", "Ma", **{"class": "X"}), unit("b", "Bd", **{"class": "S"}), 3, 3, active="b")
    assert mods(vs_blades["a"]) == {"M10c": -1, "M11": -1}
    vs_bows = melee(unit("m", "Ma", **{"class": "X"}), unit("w", "Bw"), 3, 3, active="b")
    assert mods(vs_bows["a"]) == {"M11": 1}


def test_s6_6_support_demoralised_shooters_and_listed():
    out = melee(unit("p", "Pk", rear_support="Pk", demoralised=True, modifiers=[{"label": "GM", "value": 2}]),
                unit("b", "Bd"), 3, 3)
    assert mods(out["a"]) == {"M12": 1, "M13": -1, "M15": 2}
    flanked = melee(unit("p", "Pk", rear_support="Pk", contacts={"flank": 1}), unit("b", "Bd"), 3, 3)
    assert "M12" not in mods(flanked["a"])
    shot = melee(unit("a", "Bw", range=2), unit("b", "Bd", extra_shooters=2), 3, 3, kind="shooting")
    assert mods(shot["b"]) == {"M14": -2}


# -- S6.7 comparison ---------------------------------------------------------------------------
@pytest.mark.parametrize("a_die,b_die,comparison", [(2, 6, "beaten"), (1, 5, "doubled"), (4, 4, "equal"), (6, 1, "higher")])
def test_s6_7_comparison_boundaries(a_die, b_die, comparison):
    # a: 3 + die; b: 3 + die -> 5 vs 9 beaten, 4 vs 8 doubled.
    out = melee(unit("a", "Bd"), unit("b", "Bd"), a_die, b_die)
    assert out["a"]["comparison"] == comparison


def test_s6_7_total_floored_at_zero():
    out = melee(unit("a", "Bd", -1, -1, modifiers=[{"label": "x", "value": -5}]), unit("b", "Bd", 0, 0), 1, 1)
    assert out["a"]["total"] == 0 and out["b"]["total"] == 1 and out["a"]["comparison"] == "doubled"


# -- S6.8 results --------------------------------------------------------------------------------
@pytest.mark.parametrize("loser,winner,da,db,kind,rule,result", [
    (unit("g", "Gd", 3, 3, 5), unit("w", "Wb"), 1, 3, "melee", "beaten.Gd.1", "destroyed"),
    (unit("x", "Exp"), unit("w", "Ps", 2, 2), 2, 4, "melee", "beaten.ExpLF.1", "destroyed"),
    (unit("k", "Kn"), unit("g", "Gd", 4, 4, 5), 3, 3, "melee", "beaten.vsGd.4", "flee"),
    (unit("k", "Kn", undead=True), unit("g", "Gd", 4, 4, 5), 3, 3, "melee", "beaten.Kn.6", "recoil"),
    (unit("a", "Art"), unit("g", "Gd", 4, 4, 5), 3, 3, "melee", "beaten.vsGd.1", "destroyed"),
    (unit("b", "Bm", 5, 5), unit("s", "Sp", 5, 5), 3, 4, "melee", "beaten.Bm.8", "none"),
    (unit("b", "Bm", 5, 5), unit("w", "Bw", 5, 5), 3, 4, "melee", "beaten.Bm.1", "recoil"),
    (unit("e", "El"), unit("f", "LF"), 3, 4, "melee", "beaten.El.1", "destroyed"),
    (unit("s", "Sp"), unit("b", "Bm"), 3, 4, "melee", "beaten.vsBmEnt.3", "flee"),
    (unit("s", "Sp", move=2), unit("b", "Bm"), 3, 4, "melee", "beaten.vsBmEnt.4", "destroyed"),
    (unit("c", "Cv", hex={"terrain": "difficult"}), unit("s", "Sp"), 4, 5, "melee", "beaten.mounted.1", "flee"),
    (unit("c", "Cv"), unit("s", "Sp"), 4, 5, "melee", "beaten.mounted.3", "recoil"),
    (unit("b", "Bg", mobile=True), unit("s", "Bw", range=2), 4, 5, "shooting", "beaten.Bg.2", "flee"),
    (unit("b", "Bg"), unit("s", "Bw", range=2), 4, 5, "shooting", "beaten.Bg.3", "none"),
    (unit("h", "Hu"), unit("k", "Kn"), 4, 5, "melee", "beaten.Hu.1", "destroyed"),
    (unit("l", "Lu", **{"class": "S"}), unit("k", "Kn"), 4, 5, "melee", "beaten.Lu.3", "recoil"),
    (unit("p", "Ps"), unit("k", "Kn"), 1, 6, "melee", "doubled.Ps.2", "destroyed"),
    (unit("f", "Fl", 2, 2, 8), unit("w", "Bw", range=2), 1, 6, "shooting", "doubled.Fl.1", "destroyed"),
    (unit("c", "Cv"), unit("s", "Sp"), 1, 6, "melee", "doubled.CvBe.1", "flee"),
    (unit("b", "Bd"), unit("s", "Sp"), 1, 6, "melee", "doubled.other.1", "destroyed"),
])
def test_s6_8_result_lists(loser, winner, da, db, kind, rule, result):
    # the loser is "b" (defender / target), the winner "a" attacking in its own bound
    out = melee(winner, loser, db, da, kind=kind, exchange=False) if kind == "shooting" else melee(winner, loser, db, da)
    assert (out["b"]["rule"], out["b"]["result"]) == (rule, result)


def test_s6_8_equal_expendables_destroyed_and_plain_tie():
    out = melee(unit("x", "Exp"), unit("b", "Bd"), 3, 3)
    assert (out["a"]["rule"], out["a"]["result"], out["b"]["rule"], out["b"]["result"]) == (
        "equal.Exp", "destroyed", "equal.other", "none")


def test_s6_8_first_match_of_the_elephant_list_h15():
    out = melee(unit("f", "LF"), unit("e", "El"), 5, 2)
    assert out["b"]["rule"] == "beaten.El.1"


@pytest.mark.parametrize("cls,own,enemy,result", [
    ("S", 5, 6, "destroyed"), ("S", 6, 5, "none"), ("O", 6, 2, "destroyed"), ("I", 5, 1, "destroyed"), ("I", 4, 3, "none"),
])
def test_s6_8_5_spirit_when_winning_or_tied(cls, own, enemy, result):
    out = melee(unit("s", "St", 4, 4, **{"class": cls}), unit("b", "Bd", 1, 1), own, enemy)
    assert out["a"]["result"] == result


def test_s6_8_5_spirit_beaten_is_dispersed_or_destroyed_by_adventurers():
    out = melee(unit("b", "Bd", 5, 5), unit("s", "St", 1, 1, **{"class": "S"}), 4, 6)
    assert (out["b"]["rule"], out["b"]["result"]) == ("beaten.St.1", "dispersed")
    adv = melee(unit("v", "Av", 5, 5), unit("s", "St", 1, 1, **{"class": "S"}), 4, 6)
    assert adv["b"]["result"] == "destroyed"


# -- S6.9 adjustments ----------------------------------------------------------------------
def test_s6_9_adjustments():
    god_near = melee(unit("g", "Gd", 4, 4, 5), unit("k", "Kn", friendly_god_adjacent=True), 3, 3)
    assert god_near["b"]["rule"] == "beaten.Kn.6"  # fear immune next to a god: its own list
    a1 = melee(unit("s", "Sp"), unit("c", "Cv", hex={"terrain": "difficult"}, friendly_god_adjacent=True), 5, 4)
    assert a1["b"]["result"] == "recoil"
    a2 = melee(unit("s", "Sp"), unit("v", "Av", adventurer_flee=True), 6, 4)
    assert a2["b"]["result"] == "flee"
    a4 = melee(unit("b", "Bd"), {"id": "h", "troop_type": "Id", "characters": [{"id": "h", "combat_bonus": 0}]}, 1, 6)
    assert a4["b"]["comparison"] == "higher" and a4["a"]["result"] == "none"
    a6 = melee(unit("w", "Bw", range=2), unit("b", "Bd"), 1, 6, kind="shooting")
    assert a6["a"]["comparison"] == "doubled" and a6["a"]["result"] == "none"
    a7 = melee(unit("s", "Sp"), unit("b", "Bd", retreat_blocked="enemy"), 5, 4)
    assert a7["b"]["result"] == "destroyed" and a7["risk_tests"] == []
    friends = melee(unit("s", "Sp"), unit("b", "Bd", retreat_blocked="friends"), 5, 4)
    assert friends["b"]["result"] == "recoil"


def test_s6_9_a5_spell_never_suffers():
    out = melee({"id": "bolt", "troop_type": "Spell", "factor": 1}, unit("b", "Bw", range=2), 1, 6, kind="shooting",
                exchange=True)
    assert out["a"]["result"] == "none"
    assert "a.factor" in refused("combat", {"kind": "shooting", "active": "a", "a": {"id": "s", "troop_type": "Spell"},
                                            "b": unit("b", "Bd")}).fields


# -- S6.10 combat risk -----------------------------------------------------------------------------
def risk(row, roll, **context):
    character = context.pop("character", {"id": "c"})
    dice = {"risk": roll, "wound": [3, 3], "capture": 6}
    return heros("combat-risk", {"character": character, "row": row, "context": context, "dice": dice})


@pytest.mark.parametrize("row,roll,outcome", [
    ("victory", [5, 6], "unharmed"), ("victory", [6, 6], "critical_wound"),
    ("tie", [5, 5], "unharmed"), ("tie", [5, 6], "wound"),
    ("recoil", [4, 5], "unharmed"), ("recoil", [4, 6], "wound"), ("recoil", [5, 6], "wound"),
    ("flee", [3, 3], "unharmed"), ("flee", [3, 4], "wound"), ("flee", [4, 5], "wound"), ("flee", [4, 6], "captured"),
    ("flee", [6, 6], "critical_and_captured"),
    ("destroyed", [1, 3], "unharmed"), ("destroyed", [2, 3], "wound"), ("destroyed", [3, 4], "wound"),
    ("destroyed", [4, 4], "critical_wound"), ("destroyed", [4, 5], "captured"),
    ("destroyed", [1, 1], "unharmed"),
])
def test_s6_10_risk_rows(row, roll, outcome):
    assert risk(row, roll)["risk"]["outcome"] == outcome


def test_s6_10_recoil_twelve_is_capture_but_natural_twelve_is_critical():
    out = risk("recoil", [5, 6], on_impetuous=True)
    assert (out["risk"]["modified"], out["risk"]["outcome"]) == (12, "captured")


@pytest.mark.parametrize("roll,outcome", [([1, 2], "wound_and_captured"), ([3, 3], "wound_and_captured"),
                                          ([3, 4], "critical_and_captured"), ([4, 4], "critical_and_captured"),
                                          ([4, 5], "captured")])
def test_s6_10_destroyed_surrounded(roll, outcome):
    assert risk("destroyed", roll, surrounded=True)["risk"]["outcome"] == outcome


def test_s6_10_natural_two_escapes_when_surrounded():
    out = risk("destroyed", [1, 1], surrounded=True)
    assert out["risk"]["outcome"] == "unharmed" and out["risk"]["escape"] is True


def test_s6_10_every_risk_modifier():
    out = risk("flee", [2, 2], melee=True, on_foot_vs_mounted=True, flank_contacts=2, on_impetuous=True,
               facing_impetuous=True, engaged=False, facing_dwarf=True, character={"id": "d", "dwarf": True})
    assert [(m["id"], m["value"]) for m in out["risk"]["modifiers"]] == [
        ("K1", 1), ("K2", 1), ("K3", 1), ("K4", 1), ("K6", -3), ("K7", -1), ("K8", 2)]
    faster = risk("destroyed", [3, 3], faster_than_enemy=True)
    assert [m["id"] for m in faster["risk"]["modifiers"]] == ["K5"]
    no_k5 = risk("destroyed", [3, 3], faster_than_enemy=True, mounted_in_difficult=True)
    assert no_k5["risk"]["modifiers"] == []


# -- S6.11 wound table and capture chance -----------------------------------------------------------
@pytest.mark.parametrize("wound,band", [([1, 2], "malus"), ([2, 3], "malus"), ([3, 3], "light"), ([3, 4], "light"),
                                        ([4, 4], "serious"), ([4, 5], "serious"), ([5, 5], "unconscious"),
                                        ([5, 6], "unconscious"), ([6, 6], "dead")])
def test_s6_11_wound_bands_after_a_tie(wound, band):
    out = heros("combat-risk", {"character": {"id": "c"}, "row": "tie", "dice": {"risk": [5, 6], "wound": wound}})
    assert out["wound"]["band"] == band


def test_s6_11_natural_two_is_nothing_and_modifiers_apply_to_the_rest():
    out = heros("combat-risk", {"character": {"id": "c", "wound_malus": 20}, "row": "tie",
                                "dice": {"risk": [5, 6], "wound": [1, 1]}})
    assert out["wound"]["band"] == "nothing" and out["character"]["wound_state"] == "none"
    worse = heros("combat-risk", {"character": {"id": "c", "wound_malus": 3, "wound_state": "serious"}, "row": "tie",
                                  "dice": {"risk": [5, 6], "wound": [1, 2]}})
    assert (worse["wound"]["modified"], worse["wound"]["band"], worse["character"]["wound_state"],
            worse["character"]["wound_malus"]) == (6, "light", "serious", 4)


@pytest.mark.parametrize("state,condition,threshold", [("light", "surrounded", 2), ("serious", "surrounded", 1),
                                                       ("unconscious", "flank", 2)])
def test_s6_11_capture_thresholds(state, condition, threshold):
    wound = {"light": [3, 3], "serious": [4, 4], "unconscious": [5, 5]}[state]
    context = {"surrounded": condition == "surrounded", "flank_contacts": 1 if condition == "flank" else 0}
    out = heros("combat-risk", {"character": {"id": "c"}, "row": "tie", "context": context,
                                "dice": {"risk": [5, 6], "wound": wound, "capture": 6}})
    assert (out["capture"]["condition"], out["capture"]["threshold"]) == (condition, threshold)
    assert out["capture"]["captured"] is True
    assert (out["capture"]["roll"] is None) == (threshold == 1)


def test_s6_11_light_wound_recoil_has_no_capture_chance():
    out = heros("combat-risk", {"character": {"id": "c"}, "row": "recoil", "dice": {"risk": [5, 5], "wound": [3, 4]}})
    assert out["wound"]["band"] == "light" and out["capture"] is None and out["character"]["captured"] is False


# -- S6.12 wound modifiers ---------------------------------------------------------------------------
def test_s6_12_shooting_cover_wall_undead_critical():
    base = {"character": {"id": "c", "dwarf": True, "wound_malus": 1}, "row": "destroyed",
            "dice": {"risk": [4, 4], "wound": [3, 3]}}
    out = heros("combat-risk", {**base, "context": {"vs_shooting": True, "cover": "built_up", "vs_undead": True,
                                                    "by_impetuous": True, "on_impetuous": True}})
    assert [(m["id"], m["value"]) for m in out["wound"]["modifiers"]] == [
        ("W1", -2), ("W3", 1), ("W6", 3), ("W7", 1), ("W8", -2), ("W12", -1), ("W13", 4), ("W14", 1)]
    wall = heros("combat-risk", {**base, "dice": {"risk": [4, 5], "wound": [3, 3]},
                                 "context": {"vs_shooting": True, "behind_wall": True}})
    assert [m["id"] for m in wall["wound"]["modifiers"]] == ["W1", "W6", "W9", "W13", "W14"]


def test_s6_12_duel_modifier_keeps_the_highest():
    out = heros("character-duel", {"a": {"id": "troll", "combat_bonus": 3, "very_large": True, "humanoid": True, "undead": True},
                                   "b": {"id": "hero", "combat_bonus": 1, "dwarf": True, "wound_malus": 2},
                                   "dice": {"a": 4, "b": 1, "wound": [3, 3]}})
    assert [(m["id"], m["value"]) for m in out["loser_wound"]["modifiers"]] == [("W1", -2), ("W10", 5), ("W12", -1), ("W14", 2)]
    assert out["loser_wound"]["modified"] == 10 and out["loser_wound"]["wound_state"] == "unconscious"


# -- S6.13 evolution -------------------------------------------------------------------------------
@pytest.mark.parametrize("state,roll,rested,fought,change,new", [
    ("light", 3, True, False, "improved", "malus"), ("light", 4, False, False, "unchanged", "light"),
    ("light", 5, False, False, "worsened", "serious"), ("serious", 1, False, True, "improved", "light"),
    ("serious", 4, False, True, "worsened", "unconscious"), ("unconscious", 2, False, False, "improved", "serious"),
    ("unconscious", 5, False, False, "worsened", "dead"), ("unconscious", 6, False, False, "worsened", "dead"),
])
def test_s6_13_evolution(state, roll, rested, fought, change, new):
    out = heros("wound-evolution", {"character": {"id": "c", "wound_state": state}, "rested": rested, "fought": fought,
                                    "dice": {"evolution": roll}})
    assert (out["change"], out["wound_state"]) == (change, new)
    assert out["ep_recovered"] == (state == "unconscious" and new == "serious")


# -- S6.14 captive recovery -------------------------------------------------------------------------
@pytest.mark.parametrize("holder,roll,rally,outcome", [
    ("recoil", 4, False, "still_captive"), ("recoil", 5, False, "recovered_dead"), ("recoil", 6, False, "recovered_alive"),
    ("flee", 3, False, "still_captive"), ("flee", 4, False, "recovered_dead"), ("flee", 6, False, "recovered_alive"),
    ("destroyed", 1, False, "recovered_dead"), ("destroyed", 4, False, "recovered_dead"),
    ("destroyed", 5, False, "recovered_alive"), ("recoil", 6, True, "recovered_alive"),
])
def test_s6_14_recovery(holder, roll, rally, outcome):
    out = heros("captive-recovery", {"holder_result": holder, "after_rally": rally, "dice": {"recovery": roll}})
    assert out["outcome"] == outcome and out["modified"] <= 6


# -- S6.15 rally ----------------------------------------------------------------------------------
@pytest.mark.parametrize("roll,flags,success", [(3, {}, False), (4, {}, True), (3, {"dwarf": True}, True),
                                                (4, {"majority_inferior": True}, False),
                                                (6, {"majority_inferior": True, "demoralised": True}, True)])
def test_s6_15_rally_threshold(roll, flags, success):
    out = heros("rally", {"general": {"id": "g", "role": "cinc"}, "corps": {"id": "c", **flags}, "distance": 6,
                          "dice": {"rally": roll, "units": [1, 1]}})
    assert out["success"] is success and out["units_to_move"] == (2 if success else 0)
    assert out["general_rally_failed"] is (not success)


def test_s6_15_immediate_rally_modifier():
    out = heros("rally", {"general": {"id": "g", "role": "ally_general", "condition": "captured"},
                          "corps": {"id": "c", "is_generals_own_corps": True}, "distance": 0,
                          "immediate_after_capture": True, "dice": {"rally": 4}})
    assert [m["id"] for m in out["modifiers"]] == ["immediate_after_capture"] and out["success"] is False


# -- S6.16 EP thresholds ------------------------------------------------------------------------------
def army(total_halves_units):
    return {"side_id": "s", "corps": [{"id": "c", "kind": "cinc", "general_id": "g"}],
            "units": [{"id": f"u{i}", "corps_id": "c", "troop_type": "Sp", "ep": ep} for i, ep in enumerate(total_halves_units)],
            "characters": []}


@pytest.mark.parametrize("eps,demoralised_at,broken_at", [([6, 6], 4, 6), ([6, 6, 1], 4.5, 6.5), ([3], 1, 1.5),
                                                           ([10, 10, 5], 8.5, 12.5), ([10, 10, 5.5], 8.5, 13)])
def test_s6_16_thresholds(eps, demoralised_at, broken_at):
    out = heros("army-sheet", army(eps))
    assert out["corps"][0]["demoralised_at"] == demoralised_at and out["army"]["broken_at"] == broken_at
