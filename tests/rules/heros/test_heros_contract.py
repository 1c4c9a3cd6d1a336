"""The battle room contract in HÉROS: participants, merging, checks, fog, outcome (docs/rules/heros.md)."""

import copy

import pytest

from heros_helpers import NEW_BATTLE, by_id, events, heros, play, refused, setup, unit
from rules.heros.messages import MESSAGES

HERE = {"col": 2, "row": 3}


def pos(col, row):
    return {"col": col, "row": row}


def options(state, kind, pid, viewer=None):
    body = {"state": state, "participant": {"kind": kind, "id": pid}}
    if viewer is not None:
        body["viewer"] = viewer
    return heros("declaration-options", body)


def find(out, path):
    return next(o for o in out["options"] if o["path"] == path)


def check(state, viewer, kind, pid, declaration, declarations=None):
    body = {"state": state, "viewer": viewer, "participant": {"kind": kind, "id": pid}, "declaration": declaration}
    if declarations is not None:
        body["declarations"] = declarations
    return heros("check-declaration", body)


def ambush():
    """Red's blades in the open; blue's hidden psiloi in a wood across their road, blue's blades far away."""
    hexes = [{"col": 2, "row": 5, "terrain": "rough", "wooded": True}]
    return setup([unit("bd", "r", "Bd", 2, 2, facing=3, move=5), unit("wb", "b", "Bd", 9, 8),
                  unit("ps", "b", "Ps", 2, 5, hidden=True, move=4)], hexes=hexes)


# -- outcome and strength ---------------------------------------------------------------

def test_every_state_carries_outcome_and_strength(battle):
    assert battle["outcome"] == {"over": False, "winner": None, "tie": False, "reason": "outcome.ongoing",
                                 "one_more_round": False, "gm_names_winner": True}
    assert battle["strength"] == {"red": 2, "blue": 3}
    seen = heros("visible-state", {"state": battle, "viewer": "blue"})["state"]
    assert seen["outcome"] == battle["outcome"] and seen["strength"] == battle["strength"]
    ended = heros("end-battle", {"state": battle, "reason": "concession", "conceding_side": "blue"})["state"]
    assert ended["outcome"] == {"over": True, "winner": "red", "tie": False, "reason": "outcome.concession",
                                "one_more_round": False, "gm_names_winner": False}
    draw = heros("end-battle", {"state": battle, "reason": "gm_decision"})["state"]
    assert draw["outcome"]["tie"] is True and draw["outcome"]["winner"] is None
    assert all(key in MESSAGES for key in ("outcome.ongoing", "outcome.concession", "outcome.gm_decision",
                                           "outcome.army_broken", "outcome.turn_limit"))


def test_strength_falls_with_the_ep_lost(battle):
    out = play(battle, {"actions": [{"id": "a1", "kind": "move", "corps_id": "r1", "units": ["r-bd"],
                                     "paths": {"r-bd": [HERE]}}],
                        "melees": [{"id": "m1", "attacker_id": "r-bd", "defender_id": "b-wb"}]},
               {"melee.m1.attacker": 3, "melee.m1.defender": 4, "risk.m1.aragorn": [6, 5], "wound.m1.aragorn": [2, 4],
                "pa.b1": 3})
    assert out["state"]["strength"] == {"red": 2, "blue": 2}


# -- round-participants -----------------------------------------------------------------

def test_round_participants_lists_gm_sides_units_and_characters(battle):
    out = heros("round-participants", {"state": battle})
    keys = [p["key"] for p in out["participants"]]
    assert keys == ["gm", "side:red", "side:blue", "unit:r-bd", "unit:b-wb", "unit:b-ps", "character:aragorn",
                    "character:gothmog"]
    gm = out["participants"][0]
    assert (gm["side"], gm["participant"], gm["must_declare"], gm["default"]) == (None, {"kind": "gm", "id": "gm"}, False, {})
    red = out["participants"][1]
    assert red["commands"] == ["r1"] and red["name"] == "Gondor" and out["names"]["red"] == "Gondor"
    assert out["round"] == 1


def test_impetuous_units_must_declare_and_default_to_an_advance_in_place():
    state = setup([unit("wb", "r", "Wb", 2, 2, impetuous=True), unit("bd", "b", "Bd", 2, 6)])
    out = {p["key"]: p for p in heros("round-participants", {"state": state})["participants"]}
    assert out["unit:wb"]["must_declare"] and out["side:red"]["must_declare"]
    assert not out["side:blue"]["must_declare"] and not out["unit:bd"]["must_declare"]
    assert out["unit:wb"]["default"] == {"active.actions[].kind": "advance", "active.actions[kind=advance].paths.wb": []}


def test_hidden_participants_are_visible_to_their_side_only():
    out = {p["key"]: p for p in heros("round-participants", {"state": ambush()})["participants"]}
    assert out["unit:ps"]["visible_to"] == "blue" and out["unit:wb"]["visible_to"] == "all"


def test_heroes_are_the_characters_a_player_owns():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("x", "b", "Bd", 8, 8)],
                  [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
                   {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "x"},
                   {"id": "h1", "corps_id": "r", "role": "champion", "stacked_on": "bd", "player_id": "user-3"}])
    keys = [p["key"] for p in heros("round-participants", {"state": state})["participants"]]
    assert "hero:h1" in keys and "character:rg" in keys
    assert options(state, "hero", "h1")["options"]


# -- merge-declarations -----------------------------------------------------------------

def test_adjacent_units_of_one_corps_move_as_one_group_paying_once():
    state = setup([unit("u1", "r", "Bd", 2, 2, facing=3), unit("u2", "r", "Bd", 3, 2, facing=3),
                   unit("u3", "r", "Bd", 7, 2, facing=3), unit("x", "b", "Bd", 9, 9)], dice={"pa.r": 2, "pa.b": 2})
    answers = {"unit:u1": {"active.actions[kind=move].paths.u1": [pos(2, 3)]},
               "unit:u2": {"active.actions[kind=move].paths.u2": [pos(3, 3)]},
               "unit:u3": {"active.actions[kind=move].paths.u3": [pos(7, 3)]},
               "side:red": {"active.actions[].use_cinc_extra_pa": True}}
    merged = heros("merge-declarations", {"state": state, "declarations": answers})["declarations"]
    actions = merged["active"]["actions"]
    assert [a["units"] for a in actions] == [["u1", "u2"], ["u3"]]
    assert actions[0]["use_cinc_extra_pa"] is True and actions[1]["use_cinc_extra_pa"] is False
    out = heros("resolve-round", {"state": state, "declarations": merged, "seed": 1})
    assert {by_id(out["state"]["units"], u)["position"]["row"] for u in ("u1", "u2", "u3")} == {3}


def test_merge_groups_shooters_and_names_melees():
    state = setup([unit("b1", "r", "Bw", 2, 2, range=3), unit("b2", "r", "Bw", 4, 2, range=3), unit("x", "b", "Bd", 3, 4)])
    answers = {"unit:b1": {"active.shootings[].target_id": "x"}, "unit:b2": {"active.shootings[].target_id": "x"}}
    merged = heros("merge-declarations", {"state": state, "declarations": answers})["declarations"]
    assert [(s["shooters"], s["target_id"]) for s in merged["active"]["shootings"]] == [(["b1", "b2"], "x")]


def test_merge_refuses_a_path_no_option_has(battle):
    err = refused("merge-declarations", {"state": battle, "declarations": {"unit:r-bd": {"active.nonsense.x": 1}}})
    assert "declarations.unit:r-bd.active.nonsense.x" in err.fields


def test_silent_impetuous_units_get_their_default_in_resolve_round():
    state = setup([unit("wb", "r", "Wb", 2, 2, impetuous=True), unit("bd", "b", "Bd", 2, 6)])
    out = heros("resolve-round", {"state": state, "declarations": {"side:red": {}}, "seed": 3})
    assert out["defaults_applied"] == ["side:red", "unit:wb"]
    assert [s["params"]["participant"] for s in out["log"] if s["key"] == "defaults.applied"] == ["side:red", "unit:wb"]
    # the engine's own object keeps the spec's error (S9.13): the unit must be held or advance
    assert "declarations.active.actions" in refused("resolve-round", {"state": state, "declarations": {}}).fields
    merged = heros("merge-declarations", {"state": state, "declarations": {}})
    assert merged["defaults_applied"] == ["side:red", "unit:wb"]
    assert heros("resolve-round", {"state": state, "declarations": merged["declarations"], "seed": 3})["defaults_applied"] == []


# -- check-declaration ------------------------------------------------------------------

def test_a_path_resolve_round_refuses_is_refused_at_declaration_time(battle):
    """The review's case: a hole in a path made the round fail after the room had taken it."""
    jump = {"active.actions[kind=move].paths.r-bd": [HERE, {"col": 2, "row": 5}]}
    out = check(battle, "red", "unit", "r-bd", jump)
    assert out["ok"] is False
    assert out["fields"] == {"active.actions[kind=move].paths.r-bd": "not adjacent to the previous hex"}
    assert out["messages"]["active.actions[kind=move].paths.r-bd"]["key"] == "declaration.refused"
    step = {"active.actions[kind=move].paths.r-bd": [HERE]}
    assert check(battle, "red", "unit", "r-bd", step) == {**check(battle, "red", "unit", "r-bd", step), "ok": True}
    heros("resolve-round", {"state": battle, "declarations": {"unit:r-bd": step}, "seed": 2})


def test_check_refuses_paths_not_offered_and_the_gm_part_to_a_side(battle):
    out = check(battle, "blue", "unit", "b-wb", {"active.actions[kind=move].paths.b-wb": [pos(2, 5)]})
    assert out["ok"] is False and "active.actions[kind=move].paths.b-wb" in out["fields"]
    assert "participant.kind" in refused("check-declaration", {"state": battle, "viewer": "red", "participant": {
        "kind": "gm", "id": "gm"}, "declaration": {}}).fields


def test_another_participants_broken_answer_is_not_this_ones_fault(battle):
    broken = {"unit:b-wb": {"active.shootings[].target_id": "r-bd"}}  # blue is passive: active keys fail
    out = check(battle, "red", "unit", "r-bd", {"active.actions[kind=move].paths.r-bd": [HERE]}, broken)
    assert out["ok"] is True


def test_a_declaration_that_breaks_an_accepted_one_is_refused():
    """Two PA: the moves of u2 and u3 take them; u1's, earlier in the bound's order, would leave u3 unpaid."""
    state = setup([unit("u1", "r", "Bd", 2, 2), unit("u2", "r", "Bd", 5, 2), unit("u3", "r", "Bd", 8, 2),
                   unit("x", "b", "Bd", 9, 9)], dice={"pa.r": 2, "pa.b": 2})
    first = {f"unit:u{n}": {f"active.actions[kind=move].paths.u{n}": [pos(3 * n - 1, 3)]} for n in (2, 3)}
    assert check(state, "red", "unit", "u3", first["unit:u3"], {"unit:u2": first["unit:u2"]})["ok"]
    out = check(state, "red", "unit", "u1", {"active.actions[kind=move].paths.u1": [pos(2, 3)]}, first)
    assert out["ok"] is False
    message = out["messages"]["active.actions[kind=move].paths.u1"]
    assert message["key"] == "declaration.conflict" and message["params"]["other"] == "unit:u3"


# -- fog of war -------------------------------------------------------------------------

def test_options_and_checks_ignore_an_unseen_ambusher():
    state = ambush()
    red = find(options(state, "unit", "bd", "red"), "active.actions[kind=move].paths.bd")
    assert any(p[-1] == pos(2, 5) for p in red["allowed"])  # the hex of the ambusher is offered to red
    gm = find(options(state, "unit", "bd", "gm"), "active.actions[kind=move].paths.bd")
    assert not any(h == pos(2, 5) for p in gm["allowed"] for h in p)
    assert "ps" not in options(state, "unit", "bd", "red")["names"]
    into = {"active.actions[kind=move].paths.bd": [pos(2, 3), pos(2, 4), pos(2, 5)]}
    assert check(state, "red", "unit", "bd", into)["ok"] is True


def test_a_move_into_an_unseen_ambusher_stops_before_it_and_says_why():
    state = ambush()
    into = {"unit:bd": {"active.actions[kind=move].paths.bd": [pos(2, 3), pos(2, 4), pos(2, 5)]}}
    out = heros("resolve-round", {"state": state, "declarations": into, "seed": 4})
    assert by_id(out["state"]["units"], "bd")["position"] == pos(2, 4)
    stop = next(s for s in out["log"] if s["key"] == "move.stopped_hidden")
    assert stop["rule"] == "S7.14" and stop["params"] == {"mover_id": "bd", "steps": 2, "planned": 3}
    assert by_id(out["state"]["units"], "ps")["hidden"] is False  # detected at 1 hex (S5.5.6)
    assert events(out, "unit_revealed")[0]["visible_to"] == "all"


def test_moving_renaming_or_wounding_an_unseen_enemy_changes_nothing_red_reads():
    state = ambush()
    other = copy.deepcopy(state)
    ps = by_id(other["units"], "ps")
    ps.update(position=pos(1, 5), name="Secret", ep=0.5)
    body = {"active.actions[kind=move].paths.bd": [pos(2, 3), pos(2, 4), pos(2, 5)]}
    for op, payload in (("declaration-options", {"participant": {"kind": "unit", "id": "bd"}, "viewer": "red"}),
                        ("visible-state", {"viewer": "red"}),
                        ("check-declaration", {"viewer": "red", "participant": {"kind": "unit", "id": "bd"},
                                               "declaration": body})):
        assert heros(op, {"state": state, **payload}) == heros(op, {"state": other, **payload}), op


def test_visible_round_gives_a_side_what_is_marked_for_it():
    state = ambush()
    moved = heros("resolve-round", {"state": state, "declarations": {"unit:bd": {
        "active.actions[kind=move].paths.bd": [pos(2, 1)]}}, "seed": 5})
    blue_turn = moved["state"]
    sneak = {"unit:ps": {"active.actions[kind=move].paths.ps": [pos(2, 6)]}}
    out = heros("resolve-round", {"state": blue_turn, "declarations": sneak, "seed": 6})
    assert by_id(out["state"]["units"], "ps")["hidden"] is False  # a hidden unit that moves is revealed (S7.14)
    hidden_move = [e for e in out["events"] if e["type"] == "unit_moved"]
    assert hidden_move
    red = heros("visible-round", {"round": {**out, "before": blue_turn}, "viewer": "red"})
    gm = heros("visible-round", {"round": {**out, "before": blue_turn}, "viewer": "gm"})
    assert len(gm["events"]) == len(out["events"])
    assert all(e["visible_to"] in ("all", "red") for e in red["events"])
    assert not any("ps" in s["params"].values() for s in red["log"])
    assert red["log"][-1]["key"] == "round.visible"
    assert "ps" in red["names"]  # revealed by its move, it has a name for red now


def test_visible_state_takes_a_viewer_and_names_what_it_shows():
    state = ambush()
    red = heros("visible-state", {"state": state, "viewer": "red"})
    assert red["viewer"] == "red" and "ps" not in red["names"] and red["names"]["bd"] == "bd"
    gm = heros("visible-state", {"state": state, "viewer": "gm"})
    assert gm["hidden"] == [] and "ps" in gm["names"]
    assert "viewer" in refused("visible-state", {"state": state, "viewer": "green"}).fields


# -- what the room could not offer before -------------------------------------------------

def magicians():
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd", "magician": True, "power_points": 4},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "x", "magician": True, "power_points": 5}]
    return setup([unit("bd", "r", "Bd", 2, 2), unit("x", "b", "Bd", 2, 5)], chars)


def test_spells_offer_their_cost_and_effect_and_resolve():
    state = magicians()
    opts = options(state, "character", "rg", "red")
    cost = find(opts, "active.spells[].cost")
    assert (cost["min"], cost["max"], cost["label_params"]) == (0, 4, {"caster": "rg", "power_points": 4})
    assert find(opts, "active.spells[].effect.kind")["allowed"] == ["attack", "modifier", "heal", "other"]
    target = find(opts, "active.spells[].effect.target_id")
    assert target["allowed"] == ["x"] and target["distances"] == {"x": 3}
    assert find(opts, "active.counter_spells[].against_caster_id")["allowed"] == ["bg"]
    spell = {"active.spells[].caster_id": "rg", "active.spells[].cost": 2, "active.spells[].effect.kind": "attack",
             "active.spells[].effect.target_id": "x", "active.spells[].effect.factor": 4,
             "active.spells[].effect.range": 3}
    assert check(state, "red", "character", "rg", spell)["ok"] is True
    short = {**spell, "active.spells[].effect.range": 2}
    assert check(state, "red", "character", "rg", short)["fields"] == {
        "active.spells[].effect.target_id": "out of the spell's range"}
    counter = {"passive.counter_spells[].against_caster_id": "rg", "passive.counter_spells[].cost": 1}
    out = heros("resolve-round", {"state": state, "declarations": {"character:rg": spell, "character:bg": counter},
                                  "seed": 7})
    cast = events(out, "spell_cast")[0]
    assert (cast["caster_id"], cast["cost"], cast["countered"]) == ("rg", 2, True)
    assert by_id(out["state"]["characters"], "rg")["power_points"] == 2
    assert by_id(out["state"]["characters"], "bg")["power_points"] == 4


def test_escapes_followers_and_rally_moves_are_options():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("av", "r", "Av", 3, 2), unit("x", "b", "Bd", 8, 8)])
    state["corps"][0]["demoralised"] = True
    escape = find(options(state, "character", "rg", "red"), "active.escapes.rg")
    assert pos(2, 6) in escape["allowed"] and pos(2, 7) not in escape["allowed"] and pos(3, 2) not in escape["allowed"]
    assert find(options(state, "unit", "av", "red"), "active.adventurers_follow.av")["default"] is True
    rally = find(options(state, "unit", "bd", "red"), "active.rallies[].moves.bd")
    assert [] in rally["allowed"] and [pos(2, 3)] in rally["allowed"]
    answers = {"side:red": {"active.rallies[]": {"general_id": "rg", "corps_id": "r"}},
               "unit:bd": {"active.rallies[].moves.bd": [pos(2, 3)]}}
    merged = heros("merge-declarations", {"state": state, "declarations": answers})["declarations"]
    assert merged["active"]["rallies"][0]["moves"] == [{"unit_id": "bd", "path": [pos(2, 3)], "facing": None}]
    out = heros("resolve-round", {"state": state, "declarations": answers,
                                  "dice": {"rally.rg": 6, "rally_units.rg": [1, 1]}, "seed": 1})
    assert by_id(out["state"]["units"], "bd")["position"] == pos(2, 3)


def test_the_gm_brings_units_in_and_out_through_options():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("x", "b", "Bd", 8, 8), unit("rs", "r", "Cv", 0, 0, status="reserve",
                                                                                 position=None)])
    opts = options(state, "gm", "gm", "gm")
    arrival = find(opts, "gm.arrivals.rs.hex")
    assert pos(0, 0) in arrival["allowed"] and pos(8, 8) not in arrival["allowed"]
    assert find(opts, "gm.departures.x")["allowed"] == ["other", "unstable"]
    answer = {"gm.arrivals.rs.hex": pos(1, 1), "gm.arrivals.rs.facing": 2, "gm.departures.x": "unstable",
              "gm.modifiers[].combat_id": find(opts, "gm.modifiers[].combat_id")["allowed"][0],
              "gm.modifiers[].combatant_id": "bd", "gm.modifiers[].value": 1}
    assert check(state, "gm", "gm", "gm", answer)["ok"] is True
    out = heros("resolve-round", {"state": state, "declarations": {"gm": answer}, "seed": 2})
    assert by_id(out["state"]["units"], "rs")["position"] == pos(1, 1)
    assert by_id(out["state"]["units"], "x")["status"] == "departed"


# -- message keys -------------------------------------------------------------------------

@pytest.mark.parametrize("kind,pid,viewer", [("unit", "r-bd", "red"), ("side", "red", "red"), ("side", "blue", "blue"),
                                             ("character", "aragorn", "red"), ("gm", "gm", "gm"),
                                             ("corps", "r1", "red")])
def test_every_label_and_refusal_has_a_key_in_both_languages(battle, kind, pid, viewer):
    for o in options(battle, kind, pid, viewer)["options"]:
        template = MESSAGES[o["label_key"]]
        assert template["en"].format(**o["label_params"]) == o["label"] and template["fr"].format(**o["label_params"])
        for f in o["forbidden"]:
            assert MESSAGES[f["key"]]["en"].format(**f["params"]) == f["reason"]
            assert MESSAGES[f["key"]]["fr"].format(**f["params"])


def test_the_existing_answer_is_unchanged_without_a_viewer(battle):
    out = options(battle, "unit", "r-bd")
    assert "viewer" not in out and set(out) == {"participant", "round", "phase", "must_declare", "options", "names",
                                                "dice", "log"}
    assert NEW_BATTLE["units"][0]["id"] in out["names"]


def test_the_gm_may_send_whole_lists_too():
    state = setup([unit("bd", "r", "Bd", 2, 2), unit("x", "b", "Bd", 8, 8)])
    lists = {"gm.modifiers": [{"combat_id": "m-bd", "combatant_id": "bd", "value": 1, "label": "high ground"},
                              {"combat_id": "m-bd", "combatant_id": "x", "value": -1, "label": "mud"}]}
    assert check(state, "gm", "gm", "gm", lists)["ok"] is True
    merged = heros("merge-declarations", {"state": state, "declarations": {"gm": lists}})["declarations"]
    assert [m["label"] for m in merged["gm"]["modifiers"]] == ["high ground", "mud"]


@pytest.mark.parametrize("answer,field", [
    ({"active.executions": "x"}, "declarations.side:red.active.executions"),
    ({"active.stars": ["x"]}, "declarations.side:red.active.stars"),
    ({"active.actions[kind=climb].units": ["a"]}, "declarations.side:red.active.actions[kind=climb].units"),
    ({"active.shootings[].target_id": ["x"]}, "declarations.side:red.active.shootings[].target_id"),
    ({"active": 5}, "declarations.side:red.active"),
    ({"active.actions[kind=hold].hold_exception": [1]}, "declarations.side:red.active.actions[kind=hold].hold_exception"),
])
def test_bad_answers_are_invalid_input_naming_the_field(battle, answer, field):
    assert field in refused("merge-declarations", {"state": battle, "declarations": {"side:red": answer}}).fields


def test_a_nested_declaration_is_refused_on_its_own_paths(battle):
    out = check(battle, "red", "side", "red", {"active": {"executions": 5}})
    assert out["fields"] == {"active.executions": "must be a list"}
    gm = check(battle, "gm", "gm", "gm", {"gm": {"arrivals": [{"unit_id": "r-bd", "hex": pos(0, 0)}]}})
    assert gm["fields"] == {"gm.arrivals[0].unit_id": "must be a unit in reserve or a dispersed spirit"}
