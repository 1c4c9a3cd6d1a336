"""Every example of the spec's S9 and every worked example of S10, with the spec's numbers."""

from heros_helpers import NEW_BATTLE, by_id, heros, refused

ROUND_DECLARATIONS = {"active": {
    "actions": [{"id": "a1", "kind": "move", "corps_id": "r1", "units": ["r-bd"],
                 "paths": {"r-bd": [{"col": 2, "row": 3}]}}],
    "melees": [{"id": "m1", "attacker_id": "r-bd", "defender_id": "b-wb", "contact": "front"}]}}
ROUND_DICE = {"melee.m1.attacker": 3, "melee.m1.defender": 4, "risk.m1.aragorn": [6, 5],
              "wound.m1.aragorn": [2, 4], "pa.b1": 3}


def test_s9_1_unit_sheet_flyer_defaults():
    out = heros("unit-sheet", {"unit": {"id": "eagles", "troop_type": "Fl", "class": "S"}, "opponent": {"troop_type": "Kn"}})
    assert out["sheet"] == {
        "id": "eagles", "name": "eagles", "troop_type": "Fl", "troop_type_fr": "Volants", "troop_type_en": "flyers",
        "class": "S", "regular": True, "category": "mounted", "mounted": True, "infantry": False,
        "factor_vs_foot": 2, "factor_vs_mounted": 2, "move": 8, "range": 0, "can_shoot": False, "ep": 1,
        "impetuous": False, "pursues": False, "skirmisher": True, "movement_class": "free",
        "terrain_combat_penalty": False, "causes_fear": False, "undead": False, "fear_immune": False,
        "fear_immune_effective": False, "magician": False, "power_points": 0, "enemy_malus": 0, "supported_by": [],
        "fixed": False, "character_unit": False, "can_stack": True, "power_projection_factor": 2, "dragon": False,
        "axes_or_halberds": False, "mobile": False, "flyer_terrain_exempt": False, "profile_note": ""}
    assert out["vs_opponent"] == {"opponent_category": "mounted", "factor": 2, "effective_class": "S", "grade_modifier": 0}
    assert out["dice"] == {}
    assert any(s["rule"] == "S6.2" and s["key"] == "unit.default" and s["params"] == {"field": "factor_vs_foot", "value": 2}
               for s in out["log"])


def test_s9_2_character_sheet_wounded_dwarf_champion():
    out = heros("character-sheet", {
        "character": {"id": "grundi", "role": "champion", "combat_bonus": 3, "personal_pa": 2, "dwarf": True,
                      "wound_state": "light", "wound_malus": 1},
        "army_has_mounted": False,
        "other_engaged_characters": [{"id": "balin", "combat_bonus": 3}, {"id": "ori", "combat_bonus": 1}]})
    assert out["sheet"] == {
        "id": "grundi", "name": "grundi", "role": "champion", "is_general": False, "ep": 1, "combat_bonus": 3,
        "effective_bonus": 2, "solo_factor": 2, "star_value": 3, "vs_shooting_factor": 4, "move": 2,
        "pa_modifier": -1, "personal_pa_effective": 1, "wound_state": "light", "wound_malus": 1,
        "counts_as_lost": False, "can_cast": False,
        "capture_thresholds": {"surrounded": 2, "flank": 3, "flee": 5, "recoil": None}}
    assert out["dice"] == {}


ARMY = {
    "side_id": "red",
    "corps": [{"id": "c1", "kind": "cinc", "general_id": "g1"}, {"id": "c2", "kind": "sub", "general_id": "g2"}],
    "units": [{"id": "u1", "corps_id": "c1", "troop_type": "Kn", "ep": 2, "status": "destroyed"},
              {"id": "u2", "corps_id": "c1", "troop_type": "Sp"},
              {"id": "u3", "corps_id": "c1", "troop_type": "Gd"},
              {"id": "u4", "corps_id": "c2", "troop_type": "Wb", "impetuous": True},
              {"id": "u5", "corps_id": "c2", "troop_type": "Wb", "impetuous": True},
              {"id": "u6", "corps_id": "c2", "troop_type": "Ps", "class": "I"},
              {"id": "l1", "corps_id": "c2", "troop_type": "Lu", "status": "pool"}],
    "characters": [{"id": "g1", "corps_id": "c1", "role": "cinc"},
                   {"id": "g2", "corps_id": "c2", "role": "sub_general", "wound_state": "unconscious"},
                   {"id": "ch1", "corps_id": "c2", "role": "champion", "status": "dead"}],
    "captives_held": [{"character_id": "e9", "role": "sub_general"}],
}


def test_s9_3_army_sheet():
    out = heros("army-sheet", ARMY)
    assert out["corps"] == [
        {"id": "c1", "ep_total": 9, "ep_lost": 3, "demoralised_at": 3, "demoralised": True,
         "majority_impetuous": False, "majority_inferior": False},
        {"id": "c2", "ep_total": 4.5, "ep_lost": 1, "demoralised_at": 1.5, "demoralised": False,
         "majority_impetuous": True, "majority_inferior": False}]
    assert out["army"] == {"ep_total": 13.5, "ep_lost_raw": 4, "captive_reduction": 2, "ep_lost_effective": 2,
                           "broken_at": 7, "broken": False}


def test_s9_4_action_points():
    out = heros("action-points", {
        "corps_id": "c1", "general_wound": "light", "cinc_extra_available": True,
        "actions": [{"id": "a1", "kind": "move", "units": [{"troop_type": "Fl"}, {"troop_type": "Kn"}],
                     "distance_to_general": 14, "use_cinc_extra_pa": True},
                    {"id": "a2", "kind": "hold", "units": [{"troop_type": "Wb", "regular": False}]}],
        "dice": {"pa": 4}})
    assert out["pa"] == {"roll": 4, "wound_modifier": -1, "available": 3}
    assert out["actions"] == [
        {"id": "a1", "base": 1, "surcharges": [{"id": "S_DIST", "value": 1}, {"id": "S_FLY_MIX", "value": 1}],
         "cost": 3, "paid_from_corps": 2, "paid_by_cinc_extra": 1, "paid_by_adventurer": 0},
        {"id": "a2", "base": 1, "surcharges": [], "cost": 1, "paid_from_corps": 1, "paid_by_cinc_extra": 0,
         "paid_by_adventurer": 0}]
    assert (out["pa_spent"], out["pa_remaining"], out["cinc_extra_used"]) == (3, 0, True)
    assert out["champions"] == [] and out["gods"] == [] and out["dice"] == {"pa": 4}


def test_s9_5_power_projection():
    out = heros("power-projection", {"unit": {"id": "orc-wb", "troop_type": "Wb", "factor_vs_foot": 3},
                                     "star_bonus": 1, "dice": {"projection": 4}})
    assert {k: out[k] for k in ("required", "target", "roll", "passed", "dice")} == {
        "required": True, "target": 4, "roll": 4, "passed": True, "dice": {"projection": 4}}


def test_s9_6_combat_knights_charge_spears():
    out = heros("combat", {
        "kind": "melee", "active": "a", "first_melee": True,
        "a": {"id": "kn1", "troop_type": "Kn", "regular": False, "impetuous": True, "factor_vs_foot": 3,
              "factor_vs_mounted": 4, "move": 4, "characters": [{"id": "g1", "combat_bonus": 1}]},
        "b": {"id": "sp1", "troop_type": "Sp", "factor_vs_foot": 4, "factor_vs_mounted": 4, "move": 3,
              "rear_support": "Ps"},
        "dice": {"a": 5, "b": 2}})
    assert out["a"] == {"id": "kn1", "die": 5, "factor": 3,
                        "modifiers": [{"id": "M1", "label": "engaged star's combat bonus", "value": 1}],
                        "total": 9, "comparison": "higher", "rule": "higher.none", "result": "none", "pursues": True}
    assert out["b"] == {"id": "sp1", "die": 2, "factor": 4, "modifiers": [{"id": "M12", "label": "rear support", "value": 1}],
                        "total": 7, "comparison": "beaten", "rule": "beaten.PkSpSh.1", "result": "destroyed",
                        "pursues": False}
    assert out["winner"] == "a"
    assert out["risk_tests"] == [{"character_id": "g1", "side": "a", "row": "victory", "context": {
        "engaged": True, "melee": True, "on_foot_vs_mounted": False, "flank_contacts": 0, "on_impetuous": True,
        "facing_impetuous": False, "faster_than_enemy": True, "mounted_in_difficult": False, "facing_dwarf": False,
        "surrounded": False, "vs_shooting": False, "cover": "none", "behind_wall": False, "by_impetuous": False,
        "vs_undead": False}}]
    assert out["dice"] == {"a": 5, "b": 2}


def test_s9_7_character_duel():
    out = heros("character-duel", {"a": {"id": "eowyn", "combat_bonus": 2}, "b": {"id": "nazgul", "combat_bonus": 3},
                                   "dice": {"a": 6, "b": 2, "wound": [4, 3]}})
    assert out["a"] == {"id": "eowyn", "die": 6, "star_value": 2, "modifiers": [], "total": 8}
    assert out["b"] == {"id": "nazgul", "die": 2, "star_value": 3, "modifiers": [], "total": 5}
    assert out["winner"] == "a"
    assert out["loser_wound"] == {"character_id": "nazgul", "roll": [4, 3], "natural": 7,
                                  "modifiers": [{"id": "W10", "label": "duel", "value": 2}], "modified": 9,
                                  "band": "serious", "wound_state": "serious", "wound_malus": 2}
    assert out["dice"] == {"a": 6, "b": 2, "wound": [4, 3]}


def test_s9_8_combat_risk_boromir():
    out = heros("combat-risk", {
        "character": {"id": "boromir"}, "row": "flee",
        "context": {"on_foot_vs_mounted": True, "flank_contacts": 1, "facing_impetuous": True, "by_impetuous": True},
        "dice": {"risk": [3, 4], "wound": [2, 3], "capture": 2}})
    assert out["row"] == "flee"
    assert out["risk"] == {"roll": [3, 4], "natural": 7, "modifiers": [
        {"id": "K1", "label": "on foot against mounted", "value": 1},
        {"id": "K4", "label": "facing impetuous troops", "value": 1}], "modified": 9, "outcome": "wound", "escape": False}
    assert out["wound"] == {"roll": [2, 3], "natural": 5, "critical": False, "modifiers": [
        {"id": "W5", "label": "flight", "value": 2}, {"id": "W7", "label": "by impetuous troops", "value": 1},
        {"id": "W11", "label": "flank contacts", "value": 1}], "modified": 9, "band": "serious"}
    assert out["capture"] == {"condition": "flank", "threshold": 2, "roll": 2, "captured": True}
    assert out["character"] == {"wound_state": "serious", "wound_malus": 2, "captured": True, "ep_lost": True}
    assert out["dice"] == {"risk": [3, 4], "wound": [2, 3], "capture": 2}


def test_s9_9_wound_evolution():
    out = heros("wound-evolution", {"character": {"id": "gothmog", "wound_state": "serious", "wound_malus": 2},
                                    "fought": True, "dice": {"evolution": 4}})
    expected = {"roll": 4, "modifier": 1, "modified": 5, "change": "worsened", "from": "serious",
                "wound_state": "unconscious", "wound_malus": 2, "ep_recovered": False, "ep_lost": True,
                "dice": {"evolution": 4}}
    assert {k: out[k] for k in expected} == expected


def test_s9_10_rally_and_e11():
    out = heros("rally", {"general": {"id": "g1", "role": "cinc"},
                          "corps": {"id": "c2", "majority_impetuous": True, "demoralised": True},
                          "distance": 5, "dice": {"rally": 4, "units": [3, 5]}})
    expected = {"roll": 4, "modifiers": [{"id": "majority_impetuous", "label": "impetuous majority", "value": 1},
                                         {"id": "demoralised", "label": "routing corps", "value": -1}],
                "modified": 4, "success": True, "units_to_move": 8, "general_rally_failed": False,
                "corps_rally_attempted": True, "dice": {"rally": 4, "units": [3, 5]}}
    assert {k: out[k] for k in expected} == expected


def test_s9_11_captive_recovery():
    out = heros("captive-recovery", {"holder_result": "flee", "after_rally": True, "dice": {"recovery": 3}})
    expected = {"roll": 3, "modifier": 2, "modified": 5, "outcome": "recovered_dead", "dice": {"recovery": 3}}
    assert {k: out[k] for k in expected} == expected


def test_s9_12_new_battle(battle):
    out = heros("new-battle", NEW_BATTLE)
    state = out["state"]
    assert {k: state[k] for k in ("ruleset", "schema_version", "battle_id", "status", "result", "turn", "bound",
                                  "active_side", "first_side", "max_turns", "options", "engagements", "gods_pa",
                                  "pending")} == {
        "ruleset": "heros", "schema_version": 1, "battle_id": "demo", "status": "ongoing", "result": None, "turn": 1,
        "bound": 1, "active_side": "red", "first_side": "red", "max_turns": None, "options": {"simple_generals": False},
        "engagements": [], "gods_pa": {}, "pending": {"impetuous": []}}
    assert state["map"] == {"width": 6, "height": 6, "hexes": [
        {"col": 4, "row": 4, "terrain": "difficult", "wooded": True, "built_up": False, "river": False,
         "river_bank": False, "wall": False, "fortified": False, "elevation": 0, "feature_id": "wood-1"}]}
    assert state["sides"] == [
        {"id": "red", "name": "Gondor", "cinc_id": "aragorn", "cinc_extra_used": False, "broken": False},
        {"id": "blue", "name": "Mordor", "cinc_id": "gothmog", "cinc_extra_used": False, "broken": False}]
    assert state["corps"] == [
        {"id": "r1", "side": "red", "name": "r1", "kind": "cinc", "general_id": "aragorn", "dwarf": False,
         "ep_total": 2, "ep_lost": 0, "demoralised": False, "rallied": False, "rallied_at_loss": None,
         "rally_attempted": False, "pa": {"roll": 4, "available": 4, "spent": 0}},
        {"id": "b1", "side": "blue", "name": "b1", "kind": "cinc", "general_id": "gothmog", "dwarf": False,
         "ep_total": 3, "ep_lost": 0, "demoralised": False, "rallied": False, "rallied_at_loss": None,
         "rally_attempted": False, "pa": {"roll": None, "available": 0, "spent": 0}}]
    common = {"class": "O", "mounted": False, "ep": 1, "causes_fear": False, "undead": False, "fear_immune": False,
              "magician": False, "power_points": 0, "enemy_malus": 0, "axes_or_halberds": False, "dragon": False,
              "mobile": False, "flyer_terrain_exempt": False, "character_unit": False, "profile_note": "",
              "rank": "front", "hidden": False, "status": "active", "high_altitude": False, "climb_hex": None,
              "activations": 0, "lurker_activations": 0, "projection_failed": False, "rally_moved": False,
              "arrived_mid_battle": False, "wound_state": "none", "wound_malus": 0}
    assert state["units"][0] == {**common, "id": "r-bd", "name": "r-bd", "corps_id": "r1", "side": "red",
                                 "troop_type": "Bd", "regular": True, "factor_vs_foot": 5, "factor_vs_mounted": 3,
                                 "move": 3, "range": 0, "impetuous": False, "supported_by": [],
                                 "position": {"col": 2, "row": 2}, "facing": 3}
    assert state["units"][1] == {**common, "id": "b-wb", "name": "b-wb", "corps_id": "b1", "side": "blue",
                                 "troop_type": "Wb", "regular": False, "factor_vs_foot": 3, "factor_vs_mounted": 2,
                                 "move": 3, "range": 0, "impetuous": True, "supported_by": ["Wb"],
                                 "position": {"col": 2, "row": 4}, "facing": 0}
    assert state["units"][2] == {**common, "id": "b-ps", "name": "b-ps", "corps_id": "b1", "side": "blue",
                                 "troop_type": "Ps", "regular": False, "factor_vs_foot": 2, "factor_vs_mounted": 2,
                                 "move": 4, "range": 2, "impetuous": False, "supported_by": [],
                                 "position": {"col": 4, "row": 1}, "facing": 4}
    char_common = {"player_id": None, "ep": 1, "mounted": False, "dwarf": False, "undead": False, "magician": False,
                   "power_points": 0, "personal_pa": 0, "can_riposte": False, "very_large": False, "humanoid": False,
                   "wound_state": "none", "wound_malus": 0, "status": "active", "captured_by": None,
                   "rally_failed": False, "has_moved": False, "moved_hexes": 0, "fought": False, "spell_cast": False,
                   "personal_pa_spent": 0, "pa_benefit": 0, "role": "cinc"}
    assert state["characters"] == [
        {**char_common, "id": "aragorn", "name": "aragorn", "corps_id": "r1", "side": "red", "combat_bonus": 3,
         "position": {"col": 2, "row": 2}, "stacked_on": "r-bd", "engaged": True},
        {**char_common, "id": "gothmog", "name": "gothmog", "corps_id": "b1", "side": "blue", "combat_bonus": 2,
         "position": {"col": 4, "row": 1}, "stacked_on": "b-ps", "engaged": False}]
    assert list(state["units"][0]) == ["id", "name", "corps_id", "side", "troop_type", "class", "regular", "mounted",
                                       "factor_vs_foot", "factor_vs_mounted", "move", "range", "ep", "impetuous",
                                       "causes_fear", "undead", "fear_immune", "magician", "power_points",
                                       "enemy_malus", "axes_or_halberds", "dragon", "mobile", "flyer_terrain_exempt",
                                       "supported_by", "character_unit", "profile_note", "position", "facing", "rank",
                                       "hidden", "status", "high_altitude", "climb_hex", "activations",
                                       "lurker_activations", "projection_failed", "rally_moved",
                                       "arrived_mid_battle", "wound_state", "wound_malus"]
    assert out["events"] == [
        {"type": "bound_started", "visible_to": "all", "bound": 1, "turn": 1, "active_side": "red"},
        {"type": "pa_rolled", "visible_to": "all", "corps_id": "r1", "roll": 4, "available": 4}]
    assert out["dice"] == {"pa.r1": 4}
    assert state == battle


def round_output(battle):
    return heros("resolve-round", {"state": battle, "declarations": ROUND_DECLARATIONS, "dice": ROUND_DICE})


def test_s9_13_resolve_round(battle):
    out = round_output(battle)
    state = out["state"]
    assert (state["turn"], state["bound"], state["active_side"]) == (1, 2, "blue")
    r1, b1 = by_id(state["corps"], "r1"), by_id(state["corps"], "b1")
    assert {k: r1[k] for k in ("ep_total", "ep_lost", "demoralised", "pa")} == {
        "ep_total": 2, "ep_lost": 0, "demoralised": False, "pa": {"roll": None, "available": 0, "spent": 0}}
    assert {k: b1[k] for k in ("ep_total", "ep_lost", "demoralised", "pa")} == {
        "ep_total": 3, "ep_lost": 1, "demoralised": True, "pa": {"roll": 3, "available": 3, "spent": 0}}
    bd, wb, ps = (by_id(state["units"], u) for u in ("r-bd", "b-wb", "b-ps"))
    assert (bd["position"], bd["facing"], bd["status"], bd["activations"]) == ({"col": 2, "row": 3}, 3, "active", 0)
    assert (wb["position"], wb["status"]) == (None, "destroyed")
    assert (ps["position"], ps["status"]) == ({"col": 4, "row": 1}, "active")
    aragorn, gothmog = by_id(state["characters"], "aragorn"), by_id(state["characters"], "gothmog")
    assert {k: aragorn[k] for k in ("position", "stacked_on", "wound_state", "wound_malus", "has_moved",
                                    "moved_hexes", "fought", "pa_benefit")} == {
        "position": {"col": 2, "row": 3}, "stacked_on": "r-bd", "wound_state": "malus", "wound_malus": 1,
        "has_moved": True, "moved_hexes": 1, "fought": True, "pa_benefit": 0}
    assert {k: gothmog[k] for k in ("position", "wound_state", "moved_hexes", "fought")} == {
        "position": {"col": 4, "row": 1}, "wound_state": "none", "moved_hexes": 0, "fought": False}
    assert state["engagements"] == [] and state["pending"] == {"impetuous": []}
    assert out["events"] == [
        {"type": "unit_moved", "visible_to": "all", "unit_id": "r-bd", "action_id": "a1",
         "from": {"col": 2, "row": 2}, "to": {"col": 2, "row": 3}, "path_cost": 1},
        {"type": "combat_resolved", "visible_to": "all", "combat_id": "m1", "kind": "melee",
         "attacker": {"id": "r-bd", "total": 11, "comparison": "higher", "result": "none"},
         "defender": {"id": "b-wb", "total": 7, "comparison": "beaten", "result": "destroyed"}},
        {"type": "unit_destroyed", "visible_to": "all", "unit_id": "b-wb", "from": {"col": 2, "row": 4}, "to": None},
        {"type": "risk_tested", "visible_to": "all", "combat_id": "m1", "character_id": "aragorn", "row": "victory",
         "outcome": "wound"},
        {"type": "character_wounded", "visible_to": "all", "character_id": "aragorn", "band": "malus",
         "wound_state": "malus"},
        {"type": "corps_demoralised", "visible_to": "all", "corps_id": "b1"},
        {"type": "bound_started", "visible_to": "all", "bound": 2, "turn": 1, "active_side": "blue"},
        {"type": "pa_rolled", "visible_to": "all", "corps_id": "b1", "roll": 3, "available": 3}]
    assert out["dice"] == ROUND_DICE
    rules = {s["rule"] for s in out["log"]}
    assert {"S6.8", "S6.10", "S6.11", "S4.6"} <= rules


def test_s9_14_end_battle(battle):
    ended = heros("end-battle", {"state": round_output(battle)["state"], "reason": "turn_limit"})
    assert ended["result"] == {"status": "ended", "reason": "turn_limit", "winner": "red", "sides": [
        {"id": "red", "ep_total": 2, "ep_lost_effective": 0, "loss_ratio": 0.0, "broken": False,
         "demoralised_corps": [], "units_lost": [], "characters": [{"id": "aragorn", "fate": "malus"}],
         "prisoners_held": []},
        {"id": "blue", "ep_total": 3, "ep_lost_effective": 1, "loss_ratio": 0.333, "broken": False,
         "demoralised_corps": ["b1"], "units_lost": ["b-wb"], "characters": [{"id": "gothmog", "fate": "fit"}],
         "prisoners_held": []}]}
    assert ended["state"]["status"] == "ended" and ended["state"]["result"] == ended["result"]
    assert ended["dice"] == {}


def test_e1_standard_general():
    sheet = heros("character-sheet", {"character": {"id": "g", "role": "sub_general"}})["sheet"]
    assert (sheet["combat_bonus"], sheet["effective_bonus"], sheet["solo_factor"]) == (1, 1, 1)


def test_e2_undead_general():
    sheet = heros("character-sheet", {"character": {"id": "lich", "role": "cinc", "combat_bonus": 2, "undead": True}})["sheet"]
    assert sheet["solo_factor"] == 2


def test_e3_beorn():
    sheet = heros("unit-sheet", {"unit": {"id": "beorn", "troop_type": "Hu", "class": "S", "regular": False,
                                          "factor_vs_foot": 5, "factor_vs_mounted": 5, "move": 4,
                                          "character_unit": True}})["sheet"]
    assert (sheet["factor_vs_foot"], sheet["can_stack"], sheet["character_unit"], sheet["category"],
            sheet["movement_class"]) == (5, False, True, "foot", "free")
    risk = heros("combat-risk", {"character": {"id": "beorn", "unit_profile": True}, "row": "destroyed",
                                 "dice": {"risk": [4, 4], "wound": [3, 3]}})
    assert risk["row"] == "destroyed_surrounded"
    assert (risk["risk"]["natural"], risk["risk"]["outcome"]) == (8, "critical_and_captured")
    assert (risk["wound"]["modified"], risk["wound"]["band"]) == (13, "dead")
    assert risk["character"]["wound_state"] == "dead" and risk["capture"] is None


E4 = {"corps_id": "dwarves",
      "actions": [{"id": f"m{i}", "kind": "move", "units": [{"troop_type": "Bd"}]} for i in (1, 2, 3)],
      "champions": [{"id": "grundi", "personal_pa": 2, "personal_spent": 2, "corps_pa_benefit": 3}],
      "dice": {"pa": 4}}


def test_e4_grundi():
    out = heros("action-points", E4)
    assert (out["pa_spent"], out["pa_remaining"]) == (3, 1)
    assert out["champions"] == [{"id": "grundi", "personal_available": 2, "personal_spent": 2, "total_benefit": 5, "cap": 5}]
    more = {**E4, "champions": [{**E4["champions"][0], "corps_pa_benefit": 4}]}
    assert "champions[0]" in refused("action-points", more).fields


def god_corps(status):
    return {"side_id": "s", "corps": [{"id": "c", "kind": "cinc", "general_id": "g"}],
            "units": [{"id": "sp", "corps_id": "c", "troop_type": "Sp"}, {"id": "god", "corps_id": "c", "troop_type": "Gd", "status": status}],
            "characters": [{"id": "g", "corps_id": "c", "role": "cinc"}]}


def test_e5_god_ep():
    active = heros("army-sheet", god_corps("active"))["corps"][0]
    assert (active["ep_total"], active["ep_lost"]) == (6, 0)
    destroyed = heros("army-sheet", god_corps("destroyed"))["corps"][0]
    assert (destroyed["ep_total"], destroyed["ep_lost"], destroyed["demoralised_at"], destroyed["demoralised"]) == (6, 4, 2, True)
    departed = heros("army-sheet", god_corps("departed"))["corps"][0]
    assert (departed["ep_total"], departed["ep_lost"]) == (4, 0)


def test_e6_lurker_costs():
    for k in (1, 2, 3):
        out = heros("action-points", {"corps_id": "c", "general_status": "absent", "actions": [
            {"id": "l", "kind": "lurker", "lurker_activation": k}], "dice": {"pa": 5}})
        assert out["actions"][0]["cost"] == k and out["actions"][0]["surcharges"] == []


HOLD = {"corps_id": "c", "actions": [{"id": "h", "kind": "hold", "units": [{"troop_type": "Wb", "regular": False}]}],
        "dice": {"pa": 2}}


def test_e7_average_die_and_hold():
    assert "actions[0].hold_exception" in refused("action-points", HOLD).fields
    strong = {**HOLD, "actions": [{**HOLD["actions"][0], "hold_exception": "strong_position", "strong_position": True}]}
    assert heros("action-points", strong)["actions"][0]["cost"] == 1
    extra = {**HOLD, "cinc_extra_available": True, "actions": [{**HOLD["actions"][0], "hold_exception": "cinc_extra_pa"}]}
    out = heros("action-points", extra)
    assert out["actions"][0]["paid_by_cinc_extra"] == 1 and out["pa_spent"] == 0 and out["cinc_extra_used"]


def test_e8_flyers_profile():
    sheet = heros("unit-sheet", {"unit": {"id": "f", "troop_type": "Fl"}})["sheet"]
    assert (sheet["factor_vs_foot"], sheet["factor_vs_mounted"], sheet["move"]) == (2, 2, 8)


def test_e9_movement_of_individuals_and_gods():
    char = {"id": "h", "role": "champion"}
    assert heros("character-sheet", {"character": char, "army_has_mounted": True})["sheet"]["move"] == 5
    assert heros("character-sheet", {"character": char, "army_has_mounted": False})["sheet"]["move"] == 3
    assert heros("character-sheet", {"character": char, "in_difficult_terrain": True})["sheet"]["move"] == 3
    wounded = {**char, "wound_state": "serious"}
    assert heros("character-sheet", {"character": wounded})["sheet"]["move"] == 2
    assert heros("unit-sheet", {"unit": {"id": "thor", "troop_type": "Gd", "factor_vs_foot": 6,
                                         "factor_vs_mounted": 6}})["sheet"]["move"] == 5


def captor(role):
    return {"side_id": "s", "corps": [{"id": "c", "kind": "cinc", "general_id": "g"}],
            "units": [{"id": f"u{i}", "corps_id": "c", "troop_type": "Sp", "status": "destroyed"} for i in range(6)]
            + [{"id": "x", "corps_id": "c", "troop_type": "Sp", "ep": 1, "status": "fled_off"}],
            "characters": [{"id": "g", "corps_id": "c", "role": "cinc"}],
            "captives_held": [{"character_id": "e", "role": role}]}


def test_e10_captured_leader():
    for role, reduction, effective in (("cinc", 1.5, 5.5), ("ally_general", 3, 4), ("sub_general", 2, 5)):
        army = heros("army-sheet", captor(role))["army"]
        assert (army["ep_lost_raw"], army["captive_reduction"], army["ep_lost_effective"]) == (7, reduction, effective)
    held = heros("army-sheet", {"side_id": "s", "corps": [{"id": "c", "kind": "cinc", "general_id": "g"}],
                                "units": [{"id": "u", "corps_id": "c", "troop_type": "Sp"}],
                                "characters": [{"id": "g", "corps_id": "c", "role": "cinc", "status": "captured"}]})
    assert held["corps"][0]["ep_lost"] == 1


def test_e12_rerolled_die_is_just_the_given_die():
    out = heros("character-duel", {"a": {"id": "eowyn", "combat_bonus": 2}, "b": {"id": "nazgul", "combat_bonus": 3},
                                   "dice": {"a": 4, "b": 2, "wound": [4, 3]}})
    assert out["a"]["die"] == 4 and out["winner"] == "a"
