"""resolve-round: the rules of S5 at their boundaries, with pinned dice."""

import pytest

from heros_helpers import by_id, events, heros, play, refused, setup, unit

PA = {"pa.r": 5, "pa.b": 5}


def pos(col, row):
    return {"col": col, "row": row}


def test_shooting_without_exchange_only_hurts_the_target():
    state = setup([unit("bw", "r", "Bw", 2, 2, range=2), unit("bd", "b", "Bd", 2, 4)])
    out = play(state, {"shootings": [{"id": "s1", "shooters": ["bw"], "target_id": "bd"}]},
               {"shoot.s1.shooter": 6, "shoot.s1.target": 1, **PA})
    fight = events(out, "combat_resolved")[0]
    assert fight["defender"] == {"id": "bd", "total": 4, "comparison": "doubled", "result": "destroyed"}
    assert by_id(out["state"]["units"], "bd")["status"] == "destroyed"
    # the general on the destroyed unit tested (row destroyed) and was placed or left alone
    assert events(out, "risk_tested")[0]["row"] == "destroyed"


def test_shooting_out_of_range_is_refused():
    state = setup([unit("bw", "r", "Bw", 2, 2, range=2), unit("bd", "b", "Bd", 2, 5)])
    err = refused("resolve-round", {"state": state, "declarations": {"active": {
        "shootings": [{"id": "s1", "shooters": ["bw"], "target_id": "bd"}]}}})
    assert "declarations.active.shootings[0].shooters[0]" in err.fields


def test_exchange_of_fire_can_hurt_the_shooter():
    state = setup([unit("ps", "r", "Ps", 2, 2, facing=3, range=2), unit("bw", "b", "Bw", 2, 4, range=3)])
    out = play(state, {"shootings": [{"id": "s1", "shooters": ["ps"], "target_id": "bw"}]},
               {"shoot.s1.shooter": 1, "shoot.s1.target": 3, **PA})
    assert events(out, "combat_resolved")[0]["attacker"]["result"] == "recoil"
    assert by_id(out["state"]["units"], "ps")["position"] == pos(2, 1)


def test_impetuous_knights_destroy_spears_and_pursue():
    state = setup([unit("kn", "r", "Kn", 2, 3, facing=3, impetuous=True, move=4), unit("far", "b", "Bd", 11, 9),
                   unit("sp", "b", "Sp", 2, 4, ff=4, fm=4)])
    assert state["pending"]["impetuous"] == ["kn"]
    out = play(state, {"actions": [{"id": "h", "kind": "hold", "corps_id": "r", "units": ["kn"]}],
                       "melees": [{"id": "m1", "attacker_id": "kn", "defender_id": "sp"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, **PA})
    assert events(out, "unit_destroyed")[0]["unit_id"] == "sp"
    assert events(out, "unit_pursued")[0]["to"] == pos(2, 4)
    kn = by_id(out["state"]["units"], "kn")
    assert kn["position"] == pos(2, 4) and by_id(out["state"]["characters"], "rg")["position"] == pos(2, 4)


def test_recoil_moves_the_whole_stack_away_from_the_winner():
    state = setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 2, 4), unit("ps", "b", "Ps", 2, 4, rank="rear")])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 4, "melee.m1.defender": 3, **PA})
    assert events(out, "unit_recoiled")[0]["to"] == pos(2, 5)
    units = out["state"]["units"]
    assert by_id(units, "wb")["position"] == by_id(units, "ps")["position"] == pos(2, 5)
    assert (by_id(units, "wb")["rank"], by_id(units, "ps")["rank"]) == ("front", "rear")
    assert by_id(out["state"]["characters"], "bg")["position"] == pos(2, 5)
    assert out["state"]["engagements"] == []


def test_recoil_blocked_by_an_enemy_destroys():
    state = setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("x", "r", "Ps", 2, 5), unit("wb", "b", "Bd", 2, 4)])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 4, "melee.m1.defender": 3, **PA})
    assert by_id(out["state"]["units"], "wb")["status"] == "destroyed"


def test_engagement_kept_after_a_tie_and_fought_again_next_bound():
    state = setup([unit("bd", "r", "Bd", 2, 3), unit("wb", "b", "Bd", 2, 4)])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 3, "melee.m1.defender": 3, **PA})
    assert out["state"]["engagements"] == [{"id": "e1-m1", "attacker_id": "bd", "defender_id": "wb", "since_bound": 1}]
    again = play(out["state"], {}, {"e1-m1.attacker": 1, "melee.e1-m1.attacker": 3, "melee.e1-m1.defender": 3, **PA})
    fight = events(again, "combat_resolved")[0]
    assert fight["combat_id"] == "e1-m1" and fight["attacker"]["id"] == "wb"


def test_flight_off_the_map_is_a_loss():
    # light horse beaten in difficult ground flees (beaten.LH.5)
    hexes = [{"col": 2, "row": 1, "terrain": "difficult"}, {"col": 5, "row": 0, "terrain": "difficult"}]
    state = setup([unit("sp", "r", "Sp", 2, 2, facing=0), unit("sp2", "r", "Sp", 5, 1, facing=0),
                   unit("lh", "b", "LH", 2, 1, facing=3, move=5), unit("lh2", "b", "LH", 5, 0, facing=3, move=5)],
                  hexes=hexes)
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "sp", "defender_id": "lh"},
                                  {"id": "m2", "attacker_id": "sp2", "defender_id": "lh2"}]},
               {"melee.m1.attacker": 5, "melee.m1.defender": 4, "melee.m2.attacker": 5, "melee.m2.defender": 4, **PA})
    units = out["state"]["units"]
    # one hex to the edge, then off the map: fled off; already on the edge: the flight cannot start, destroyed
    assert (by_id(units, "lh")["status"], by_id(units, "lh2")["status"]) == ("fled_off", "destroyed")
    assert [e["unit_id"] for e in events(out, "unit_fled_off")] == ["lh"]


def test_hold_refused_on_a_natural_two_with_irregulars():
    state = setup([unit("wb", "r", "Wb", 2, 2, impetuous=True, regular=False), unit("bd", "b", "Bd", 2, 6)],
                  dice={"pa.r": 2})
    err = refused("resolve-round", {"state": state, "declarations": {"active": {
        "actions": [{"id": "h", "kind": "hold", "corps_id": "r", "units": ["wb"]}]}}})
    assert "declarations.active.actions[0].hold_exception" in err.fields
    ok = play(state, {"actions": [{"id": "h", "kind": "hold", "corps_id": "r", "units": ["wb"],
                                   "hold_exception": "cinc_extra_pa"}]}, {"pa.b": 3})
    assert events(ok, "group_held")[0]["cost"] == 1


def test_pending_impetuous_unit_must_be_held_or_advance():
    state = setup([unit("wb", "r", "Wb", 2, 2, impetuous=True), unit("bd", "b", "Bd", 2, 6)])
    assert "declarations.active.actions" in refused("resolve-round", {"state": state, "declarations": {}}).fields
    out = play(state, {"actions": [{"id": "v", "kind": "advance", "corps_id": "r", "units": ["wb"],
                                    "paths": {"wb": [pos(2, 3), pos(2, 4), pos(2, 5)]}}]},
               {"melee.v-wb.attacker": 5, "melee.v-wb.defender": 5, **PA})
    assert events(out, "combat_resolved")[0]["combat_id"] == "v-wb"
    bad = {"actions": [{"id": "v", "kind": "advance", "corps_id": "r", "units": ["wb"], "paths": {"wb": [pos(1, 2)]}}]}
    assert "declarations.active.actions[0].paths.wb[0]" in refused(
        "resolve-round", {"state": state, "declarations": {"active": bad}}).fields


def test_pa_overspent_and_path_errors():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("b2", "r", "Bd", 5, 2), unit("x", "b", "Bd", 10, 8)],
                  dice={"pa.r": 2})
    moves = [{"id": f"a{i}", "kind": "move", "corps_id": "r", "units": [u], "paths": {u: []}}
             for i, u in enumerate(["bd", "b2", "bd"])]
    assert "declarations.active.actions[2]" in refused("resolve-round", {"state": state, "declarations": {"active": {"actions": moves}}}).fields
    jump = {"actions": [{"id": "a", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(2, 3), pos(2, 5)]}}]}
    assert "declarations.active.actions[0].paths.bd[1]" in refused("resolve-round", {"state": state, "declarations": {"active": jump}}).fields
    far = {"actions": [{"id": "a", "kind": "move", "corps_id": "r", "units": ["bd"],
                        "paths": {"bd": [pos(2, 3), pos(2, 4), pos(2, 5), pos(2, 6)]}}]}
    assert "declarations.active.actions[0].paths.bd" in refused("resolve-round", {"state": state, "declarations": {"active": far}}).fields


def test_march_move_only_far_from_the_enemy():
    state = setup([unit("bd", "r", "Bd", 0, 0), unit("x", "b", "Bd", 11, 9)])
    two = [{"id": f"a{i}", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(0, i + 1)]}} for i in range(2)]
    out = play(state, {"actions": two}, PA)
    assert by_id(out["state"]["corps"], "r")["pa"]["roll"] is None
    assert len(events(out, "unit_moved")) == 2
    near = setup([unit("bd", "r", "Bd", 5, 3), unit("x", "b", "Bd", 5, 6)])
    two = [{"id": "a0", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(5, 2)]}},
           {"id": "a1", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(5, 1)]}}]
    assert "declarations.active.actions[1].paths.bd" in refused("resolve-round", {"state": near, "declarations": {"active": {"actions": two}}}).fields


def test_terrain_costs_and_rivers():
    hexes = [{"col": 2, "row": 3, "terrain": "difficult"}, {"col": 4, "row": 3, "river": True}]
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("bm", "r", "Bm", 4, 2, move=2), unit("x", "b", "Bd", 11, 9)], hexes=hexes)
    out = play(state, {"actions": [{"id": "a", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(2, 3)]}},
                                   {"id": "b", "kind": "move", "corps_id": "r", "units": ["bm"], "paths": {"bm": [pos(4, 3)]}}]}, PA)
    assert [e["path_cost"] for e in events(out, "unit_moved")] == [3, 2]
    dry = setup([unit("bd", "r", "Bd", 4, 2), unit("x", "b", "Bd", 11, 9)], hexes=hexes)
    wet = {"actions": [{"id": "a", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(4, 3)]}}]}
    assert "declarations.active.actions[0].paths.bd[0]" in refused("resolve-round", {"state": dry, "declarations": {"active": wet}}).fields


def test_duel_before_melee_wounds_the_loser_at_once():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "combat_bonus": 3, "stacked_on": "bd", "engaged": True},
             {"id": "bg", "corps_id": "b", "role": "cinc", "combat_bonus": 1, "stacked_on": "wb", "engaged": True}]
    state = setup([unit("bd", "r", "Bd", 2, 3), unit("wb", "b", "Bd", 2, 4)], chars)
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"duel.m1.attacker": 5, "duel.m1.defender": 1, "duel.m1.wound": [3, 3], "melee.m1.attacker": 3,
                "melee.m1.defender": 3, "risk.m1.rg": [1, 2], "risk.m1.bg": [1, 2], **PA})
    duel = events(out, "duel_fought")[0]
    assert duel == {"type": "duel_fought", "visible_to": "all", "combat_id": "m1", "attacker_star": "rg",
                    "defender_star": "bg", "winner": "rg"}
    assert by_id(out["state"]["characters"], "bg")["wound_state"] == "serious"
    fight = events(out, "combat_resolved")[0]
    # rg's star value 3 is added to bd (M1); bg's bonus is gone after its serious wound (1 - 2 -> 0)
    assert (fight["attacker"]["total"], fight["defender"]["total"]) == (9, 6)


def test_lurker_generation_cost_melee_and_removal():
    hexes = [{"col": 5, "row": 5, "terrain": "rough", "feature_id": "wood"}]
    state = setup([unit("x", "r", "Bd", 0, 0), unit("lu", "r", "Lu", 0, 0, status="pool", position=None, ff=3, fm=3),
                   unit("sp", "b", "Sp", 5, 5, facing=0)], hexes=hexes)
    out = play(state, {"actions": [{"id": "l1", "kind": "lurker", "unit_id": "lu", "target_id": "sp"}]},
               {"melee.l1.attacker": 3, "melee.l1.defender": 3, **PA})
    gen = events(out, "lurker_generated")[0]
    assert (gen["cost"], gen["hex"]) == (1, pos(5, 4))
    lu = by_id(out["state"]["units"], "lu")
    assert lu["lurker_activations"] == 1 and events(out, "combat_resolved")[0]["combat_id"] == "l1"
    assert by_id(out["state"]["corps"], "r")["ep_total"] == 2.5


def test_lurker_returns_to_the_pool_without_enemies_near():
    state = setup([unit("x", "r", "Bd", 0, 0), unit("lu", "r", "Lu", 11, 0), unit("sp", "b", "Sp", 0, 9)])
    out = play(state, {}, PA)
    assert events(out, "lurker_removed")[0]["unit_id"] == "lu"
    assert by_id(out["state"]["units"], "lu")["status"] == "pool"


def test_flyers_climb_then_land_within_twelve():
    state = setup([unit("fl", "r", "Fl", 1, 1, ff=2, fm=2, move=8), unit("x", "b", "Bd", 11, 9)])
    up = play(state, {"actions": [{"id": "c", "kind": "climb", "corps_id": "r", "units": ["fl"]}]}, PA)
    fl = by_id(up["state"]["units"], "fl")
    assert fl["high_altitude"] is True and fl["climb_hex"] == pos(1, 1)
    blue = play(up["state"], {}, PA)
    down = play(blue["state"], {"actions": [{"id": "l", "kind": "land", "corps_id": "r", "units": ["fl"],
                                             "hexes": {"fl": pos(8, 7)}}]}, PA)
    assert by_id(down["state"]["units"], "fl")["position"] == pos(8, 7)
    assert by_id(down["state"]["units"], "fl")["high_altitude"] is False
    blue2 = play(up["state"], {}, PA)
    too_far = {"actions": [{"id": "l", "kind": "land", "corps_id": "r", "units": ["fl"], "hexes": {"fl": pos(11, 9)}}]}
    assert refused("resolve-round", {"state": blue2["state"], "declarations": {"active": too_far}}).fields


def test_gods_move_on_their_own_pa():
    state = setup([unit("x", "r", "Bd", 0, 0), unit("thor", "r", "Gd", 3, 3, ff=6, fm=6, move=5),
                   unit("y", "b", "Bd", 11, 9)], dice={"pa.r": 3, "god_pa.thor": 2})
    assert state["gods_pa"] == {"thor": {"roll": 2, "available": 2, "spent": 0}}
    assert by_id(state["corps"], "r")["ep_total"] == 6
    out = play(state, {"actions": [{"id": "g", "kind": "god", "god_id": "thor", "path": [pos(3, 4), pos(3, 5)]}]}, PA)
    assert events(out, "god_moved")[0]["to"] == pos(3, 5)
    three = [{"id": f"g{i}", "kind": "god", "god_id": "thor", "path": []} for i in range(3)]
    assert "declarations.active.actions[2]" in refused("resolve-round", {"state": state, "declarations": {"active": {"actions": three}}}).fields


def test_power_projection_failure_cancels_the_attack():
    state = setup([unit("bd", "r", "Bd", 3, 2), unit("y", "b", "Bd", 11, 9), unit("thor", "b", "Gd", 3, 3, ff=6, fm=6, move=5)])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "thor"}]}, {"projection.bd": 5, **PA})
    assert events(out, "projection_tested")[0] == {"type": "projection_tested", "visible_to": "all", "unit_id": "bd",
                                                   "roll": 5, "target": 3, "passed": False}
    assert events(out, "combat_resolved") == []


def test_rally_of_a_demoralised_corps_moves_units():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("b2", "r", "Bd", 3, 2), unit("dead", "r", "Bd", 0, 0, status="reserve", position=None),
                   unit("x", "b", "Bd", 11, 9)])
    state["units"][2]["status"] = "destroyed"
    state["corps"][0]["demoralised"], state["corps"][0]["ep_lost"] = True, 1
    out = play(state, {"rallies": [{"general_id": "rg", "corps_id": "r", "moves": [{"unit_id": "b2", "path": [pos(3, 3)]}]}]},
               {"rally.rg": 5, "rally_units.rg": [1, 1], **PA})
    rally = events(out, "rally_attempted")[0]
    assert (rally["modified"], rally["success"], rally["units_to_move"]) == (4, True, 2)
    corps = by_id(out["state"]["corps"], "r")
    assert corps["rallied"] and corps["rally_attempted"] and corps["rallied_at_loss"] == 1 and not corps["demoralised"]
    assert by_id(out["state"]["units"], "b2")["position"] == pos(3, 3)
    assert "declarations.active.rallies[0].corps_id" in refused("resolve-round", {"state": out["state"] | {"active_side": "red"},
        "declarations": {"active": {"rallies": [{"general_id": "rg", "corps_id": "r"}]}}}).fields


def test_spells_heal_and_counter():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd", "magician": True, "power_points": 5,
              "wound_state": "serious"},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "magician": True, "power_points": 3}]
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 9, 8)], chars, dice={"pa.r": 3, "evolution.rg": 4})
    out = play(state, {"spells": [{"id": "sp1", "caster_id": "rg", "cost": 2, "effect": {"kind": "heal", "character_id": "rg"}}]},
               {"pa.b": 3}, passive={"counter_spells": [{"id": "c1", "caster_id": "bg", "against_caster_id": "rg", "cost": 1}]})
    cast = events(out, "spell_cast")[0]
    assert cast["countered"] is True
    chars_out = out["state"]["characters"]
    assert by_id(chars_out, "rg")["power_points"] == 3 and by_id(chars_out, "bg")["power_points"] == 2
    assert by_id(chars_out, "rg")["wound_state"] == "serious"
    healed = play(state, {"spells": [{"id": "sp1", "caster_id": "rg", "cost": 2, "effect": {"kind": "heal", "character_id": "rg"}}]},
                  {"pa.b": 3})
    assert by_id(healed["state"]["characters"], "rg")["wound_state"] == "light"


def test_execution_of_a_captive():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 9, 8)])
    state["characters"].append({**state["characters"][1], "id": "bc", "role": "champion", "combat_bonus": 0,
                                "status": "captured", "captured_by": "bd", "position": None, "stacked_on": None})
    out = play(state, {"executions": ["bc"]}, PA)
    assert events(out, "captive_executed") == [{"type": "captive_executed", "visible_to": "all", "character_id": "bc"}]
    assert by_id(out["state"]["characters"], "bc")["status"] == "dead"
    assert "declarations.active.executions[0]" in refused("resolve-round", {"state": state, "declarations": {"active": {"executions": ["bg"]}}}).fields


def test_turn_limit_ends_the_battle_after_the_last_bound():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 9, 8)], max_turns=1)
    first = play(state, {}, PA)
    assert first["state"]["status"] == "ongoing" and first["state"]["active_side"] == "blue"
    second = play(first["state"], {}, PA)
    assert second["state"]["status"] == "ended" and second["state"]["result"]["reason"] == "turn_limit"
    assert second["state"]["result"]["winner"] is None
    assert refused("resolve-round", {"state": second["state"]}).fields == {"state.status": "the battle has ended"}


def test_broken_army_ends_at_once_without_end_of_bound():
    state = setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 2, 4)])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, "risk.m1.bg": [4, 5], **PA})
    s = out["state"]
    assert s["status"] == "ended" and s["result"]["reason"] == "army_broken" and s["result"]["winner"] == "red"
    assert (s["bound"], s["active_side"]) == (1, "red")
    assert events(out, "army_broken")[0]["side"] == "blue"


def test_wound_evolution_at_the_start_of_the_sides_bound():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "wound_state": "unconscious"}]
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 9, 8), unit("w2", "b", "Bd", 9, 6)], chars)
    assert by_id(state["corps"], "b")["ep_lost"] == 1
    out = play(state, {}, {"evolution.bg": 1, **PA})
    assert events(out, "wound_evolved")[0] == {"type": "wound_evolved", "visible_to": "all", "character_id": "bg",
                                               "roll": 1, "modified": 1, "from": "unconscious", "to": "serious"}
    assert by_id(out["state"]["corps"], "b")["ep_lost"] == 0


def test_ambushers_are_revealed_by_nearby_enemies():
    hexes = [{"col": 5, "row": 5, "terrain": "rough"}]
    state = setup([unit("bd", "r", "Bd", 5, 2), unit("wb", "b", "Bd", 9, 8), unit("ps", "b", "Ps", 5, 5, hidden=True)], hexes=hexes)
    out = play(state, {"actions": [{"id": "a", "kind": "move", "corps_id": "r", "units": ["bd"], "paths": {"bd": [pos(5, 3)]}}]}, PA)
    assert events(out, "unit_revealed") == [{"type": "unit_revealed", "visible_to": "all", "unit_id": "ps"}]
    assert by_id(out["state"]["units"], "ps")["hidden"] is False


@pytest.mark.parametrize("change,path", [
    (lambda p: p["units"].append(dict(p["units"][0])), "units[2].id"),
    (lambda p: p["units"][0].update(hidden=True), "units[0].hidden"),
    (lambda p: p["units"][1].update(position={"col": 2, "row": 2}), "units[1].position"),
    (lambda p: p["characters"].append({"id": "ch", "corps_id": "r", "role": "champion", "position": {"col": 2, "row": 2}}),
     "characters[2].position"),
    (lambda p: p["corps"][0].update(general_id="bg"), "corps[0].general_id"),
    (lambda p: p["units"][0].update(position={"col": 20, "row": 2}), "units[0].position"),
])
def test_new_battle_validation(change, path):
    payload = {"map": {"width": 12, "height": 10},
               "sides": [{"id": "red", "cinc_id": "rg"}, {"id": "blue", "cinc_id": "bg"}],
               "corps": [{"id": "r", "side": "red", "kind": "cinc", "general_id": "rg"},
                         {"id": "b", "side": "blue", "kind": "cinc", "general_id": "bg"}],
               "units": [unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 9, 8)],
               "characters": [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
                              {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb"}],
               "first_side": "red"}
    heros("new-battle", payload)
    change(payload)
    assert path in refused("new-battle", payload).fields


def test_simple_generals_refuse_champions():
    payload = {"map": {"width": 6, "height": 6}, "options": {"simple_generals": True},
               "sides": [{"id": "red", "cinc_id": "rg"}, {"id": "blue", "cinc_id": "bg"}],
               "corps": [{"id": "r", "side": "red", "kind": "cinc", "general_id": "rg"},
                         {"id": "b", "side": "blue", "kind": "cinc", "general_id": "bg"}],
               "units": [unit("bd", "r", "Bd", 2, 2), unit("wb", "b", "Bd", 4, 4)],
               "characters": [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd", "engaged": True},
                              {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "engaged": True},
                              {"id": "hero", "corps_id": "r", "role": "champion", "stacked_on": "bd"}],
               "first_side": "red"}
    assert "characters[2].role" in refused("new-battle", payload).fields


def lone_setup(extra_chars):
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb"}] + extra_chars
    return setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 9, 8)], chars)


def test_a_lone_character_beaten_by_a_unit_tests_and_steps_back():
    state = lone_setup([{"id": "witch", "corps_id": "b", "role": "champion", "combat_bonus": 2, "position": pos(2, 4)}])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "witch"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, "risk.m1.witch": [3, 3], "wound.m1.witch": [2, 2],
                "evolution.witch": 3, **PA})
    fight = events(out, "combat_resolved")[0]
    assert fight["defender"] == {"id": "witch", "total": 3, "comparison": "doubled", "result": "destroyed"}
    assert {"type": "risk_tested", "visible_to": "all", "combat_id": "m1", "character_id": "witch", "row": "destroyed",
            "outcome": "wound"} in events(out, "risk_tested")
    witch = by_id(out["state"]["characters"], "witch")
    # fought is reset at the start of blue's bound, after its evolution test (S5.3)
    assert witch["status"] == "active" and witch["position"] == pos(2, 5) and witch["fought"] is False


def test_two_lone_groups_fight_only_the_duel():
    state = lone_setup([{"id": "hero", "corps_id": "r", "role": "champion", "combat_bonus": 3, "position": pos(5, 5)},
                        {"id": "witch", "corps_id": "b", "role": "champion", "combat_bonus": 0, "position": pos(5, 6)}])
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "hero", "defender_id": "witch"}]},
               {"duel.m1.attacker": 1, "duel.m1.defender": 6, **PA})
    duel = events(out, "duel_fought")[0]
    # the witch wins the duel but, with no bonus, cannot wound (H40, H57)
    assert duel["winner"] == "witch" and events(out, "character_wounded") == []
    assert events(out, "combat_resolved") == []


def test_a_lone_character_shot_at_resists_with_four():
    state = lone_setup([{"id": "witch", "corps_id": "b", "role": "champion", "combat_bonus": 2, "position": pos(2, 5)}])
    state["units"][0]["range"] = 2
    out = play(state, {"shootings": [{"id": "s1", "shooters": ["bd"], "target_id": "witch"}]},
               {"shoot.s1.shooter": 4, "shoot.s1.target": 1, "wound.s1.witch": [4, 4], "evolution.witch": 3, **PA})
    fight = events(out, "combat_resolved")[0]
    assert (fight["attacker"]["total"], fight["defender"]["total"], fight["attacker"]["result"]) == (9, 5, "none")
    witch = by_id(out["state"]["characters"], "witch")
    # 8 - 1 facing shooting = 7: light wound, straight on the wound table
    assert (witch["wound_state"], witch["wound_malus"], witch["position"]) == ("light", 1, pos(2, 5))


def test_capture_immediate_rally_and_recovery():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "x"},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "engaged": True}]
    blue = [unit(f"w{i}", "b", "Bd", 6 + i, 8) for i in range(5)]
    state = setup([unit("x", "r", "Bd", 0, 0), unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 2, 4), *blue,
                   unit("sp", "b", "Sp", 3, 3, facing=5, ff=6)], chars)
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, "risk.m1.bg": [4, 5], "rally.bg": 6, "rally_units.bg": [1, 1],
                **PA},
               passive={"immediate_rallies": [{"general_id": "bg", "corps_id": "b"}]})
    assert events(out, "character_captured") == [{"type": "character_captured", "visible_to": "all",
                                                  "character_id": "bg", "by_unit_id": "bd"}]
    bg = by_id(out["state"]["characters"], "bg")
    assert (bg["status"], bg["captured_by"], bg["position"]) == ("captured", "bd", None)
    rally = events(out, "rally_attempted")[0]
    assert (rally["general_id"], rally["modified"], rally["success"]) == ("bg", 5, True)
    corps = by_id(out["state"]["corps"], "b")
    assert corps["ep_lost"] == 2 and corps["rallied"] is True
    # blue's bound: the spears beat the captor, which recoils: the C-in-C is recovered alive
    back = play(out["state"], {"melees": [{"id": "m2", "attacker_id": "sp", "defender_id": "bd"}]},
                {"melee.m2.attacker": 6, "melee.m2.defender": 1, "recovery.m2.bg": 6, "risk.m2.rg": [1, 2], **PA})
    assert events(back, "captive_recovered") == [{"type": "captive_recovered", "visible_to": "all", "character_id": "bg",
                                                 "outcome": "recovered_alive"}]
    bg = by_id(back["state"]["characters"], "bg")
    assert (bg["status"], bg["stacked_on"], bg["engaged"]) == ("active", "sp", False)


def test_a_supporter_failing_its_projection_gives_no_flank_contact():
    state = setup([unit("bd", "r", "Bd", 3, 2), unit("ov", "r", "Bd", 2, 3), unit("y", "b", "Bd", 11, 9),
                   unit("thor", "b", "Gd", 3, 3, ff=6, fm=6, move=5)])
    melee = {"id": "m1", "attacker_id": "bd", "defender_id": "thor", "attacker_support": [{"unit_id": "ov", "kind": "flank"}]}
    dice = {"projection.bd": 3, "melee.m1.attacker": 3, "melee.m1.defender": 3, **PA}

    def god_modifiers(out):
        return [s["params"]["value"] for s in out["log"] if s["key"] == "combat.modifier" and s["params"]["combatant"] == "thor"]

    failed = play(state, {"melees": [melee]}, {**dice, "projection.ov": 6})
    assert [(e["unit_id"], e["passed"]) for e in events(failed, "projection_tested")] == [("bd", True), ("ov", False)]
    assert god_modifiers(failed) == []
    passed = play(state, {"melees": [melee]}, {**dice, "projection.ov": 3})
    assert god_modifiers(passed) == [-1]


def test_simple_generals_die_with_their_unit_and_roll_no_risk():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd", "engaged": True},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "engaged": True}]
    state = setup([unit("bd", "r", "Bd", 2, 3, ff=5), unit("wb", "b", "Bd", 2, 4), unit("w2", "b", "Bd", 9, 8),
                   unit("w3", "b", "Bd", 9, 6), unit("w4", "b", "Bd", 9, 4)], chars, options={"simple_generals": True})
    out = play(state, {"melees": [{"id": "m1", "attacker_id": "bd", "defender_id": "wb"}]},
               {"melee.m1.attacker": 6, "melee.m1.defender": 1, **PA})
    assert events(out, "duel_fought") == [] and events(out, "risk_tested") == []
    assert by_id(out["state"]["characters"], "bg")["status"] == "dead"
    # the surviving general's bonus was used (M1 +1) and nobody rolled risk dice
    assert not any(name.startswith(("risk.", "duel.")) for name in out["dice"])
    moving = {"actions": [{"id": "c", "kind": "character", "character_id": "rg", "path": [{"col": 2, "row": 2}]}]}
    assert "declarations.active.actions[0].path" in refused("resolve-round", {"state": state, "declarations": {"active": moving}}).fields
