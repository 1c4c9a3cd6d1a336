"""The battle room contract (docs/battle-contract.md) as the D&D 5e engine answers it (docs/rules/dnd5e.md)."""

from __future__ import annotations

import copy
import json

import pytest
from dnd5e_testkit import FORD_SETUP, big_setup, run

from rules.errors import InvalidInput


@pytest.fixture
def big() -> dict:
    return run("new-battle", big_setup(), seed=11)["state"]


def ambush(state: dict) -> dict:
    """The legion's skirmishers (both stands) and its wizard hidden from the horde."""
    state = copy.deepcopy(state)
    for sid in ("bs1", "bs2"):
        state["stands"][sid]["hidden"] = True
    state["solos"]["wizard"]["hidden"] = True
    return state


# -- round-participants ---------------------------------------------------------------------------


def test_participants_of_the_ford(ford_state):
    out = run("round-participants", {"state": ford_state})
    keys = [p["key"] for p in out["participants"]]
    assert keys == ["side:A", "side:B", "unit:u_a", "unit:u_b", "gm"]  # u_a won initiative (13 against 11)
    unit = out["participants"][2]
    assert unit == {"key": "unit:u_a", "participant": {"kind": "unit", "id": "u_a"}, "side": "A",
                    "commands": ["u_a"], "name": "Orc band", "must_declare": True,
                    "default": {"units.u_a.action": "none"}, "declared_by": "controller", "orders_secret": False,
                    "public": True}
    assert out["participants"][-1]["side"] is None and not out["participants"][-1]["must_declare"]
    assert out["names"]["sa1"] == "Orc band 1" and out["names"]["A"] == "Orc horde"
    assert [step["key"] for step in out["log"]] == ["participants.list", "participants.hidden"]
    assert out["hidden_from"] == {"A": [], "B": []}  # asked as the GM: nothing is hidden at the ford
    assert "hidden_from" not in run("round-participants", {"state": ford_state, "viewer": "A"})


def test_a_broken_unit_waits_for_the_gm_and_its_orders_stay_secret(ford_state):
    ford_state["units"]["u_b"]["broken"] = True
    unit = next(p for p in run("round-participants", {"state": ford_state})["participants"] if p["key"] == "unit:u_b")
    assert (unit["must_declare"], unit["declared_by"], unit["orders_secret"]) == (False, "gm", True)


def test_nobody_declares_once_the_battle_is_over(ford_state):
    ford_state["battle_over"] = True
    assert not any(p["must_declare"] for p in run("round-participants", {"state": ford_state})["participants"])


def test_a_unit_whose_stands_are_all_hidden_is_unknown_to_the_enemy(big):
    state = ambush(big)
    answer = run("round-participants", {"state": state})
    gm = {p["key"]: p for p in answer["participants"]}
    assert gm["unit:b_sk"]["public"] is False and gm["solo:wizard"]["public"] is False
    assert gm["unit:b_reg"]["public"] is True
    assert answer["hidden_from"] == {"A": ["b_sk", "bs1", "bs2", "wizard"], "B": []}  # what the web names to whom
    horde = run("round-participants", {"state": state, "viewer": "A"})
    assert {"unit:b_sk", "solo:wizard"}.isdisjoint(p["key"] for p in horde["participants"])
    assert {"b_sk", "bs1", "bs2", "wizard"}.isdisjoint(horde["names"])
    legion = run("round-participants", {"state": state, "viewer": "B"})
    assert "unit:b_sk" in {p["key"] for p in legion["participants"]}


# -- merge-declarations ---------------------------------------------------------------------------


def test_merge_writes_the_orders_of_s9_13_2(big):
    answers = {
        "unit:a_sk": {"units.a_sk.action": "attack", "units.a_sk.stands[0].stand": "as1",
                      "units.a_sk.stands[0].attacks": [{"attack": "greataxe", "target": "bs1", "distance": 9,
                                                        "reach_bonus_possible": False}],
                      "units.a_sk.stands[0].hide": True, "units.a_sk.stands[1].move": [[4, 2]],
                      "units.a_sk.stands[2].stand": "as2", "units.a_sk.stands[2].move": [[4, 2]]},
        "solo:chief": {"solos.chief.action": "none", "solos.chief.bonus_action": "prepare"},
        "gm": {"gm.award_vp": ["A"], "gm.hide_dc": 12},
    }
    out = run("merge-declarations", {"state": big, "declarations": answers})["declarations"]
    assert out["units"]["a_sk"] == {"action": "attack", "stands": [
        {"stand": "as1", "attacks": [{"attack": "greataxe", "target": "bs1"}]},  # hide: not the Attack's field
        {"stand": "as2", "move": [[4, 2]]}]}  # the order naming no stand is no order
    assert out["solos"]["chief"] == {"action": "none", "bonus_action": "prepare"}
    assert out["gm"] == {"award_vp": [{"side": "A", "vp": 1, "reason": "GM"}], "hide_dc": 12}
    run("resolve-round", {"state": big, "declarations": out})


def test_a_participant_writes_only_its_own_part(big):
    with pytest.raises(InvalidInput) as err:
        run("merge-declarations", {"state": big, "declarations": {"unit:a_sk": {"units.a_reg.action": "dash"}}})
    assert err.value.fields == {"declarations.unit:a_sk.units.a_reg.action": "not this participant's to declare"}
    with pytest.raises(InvalidInput) as err:
        run("merge-declarations", {"state": big, "declarations": {"unit:a_sk": {"units.a_sk.action": "fly"}}})
    assert "declarations.units.a_sk.action" in err.value.fields


# -- check-declaration ----------------------------------------------------------------------------


def check(state, viewer, kind, ident, declaration):
    return run("check-declaration", {"state": state, "viewer": viewer, "participant": {"kind": kind, "id": ident},
                                     "declaration": declaration})


def test_check_names_the_option_path_and_the_refusal_key(big):
    answer = {"units.a_reg.action": "attack", "units.a_reg.stands[0].stand": "ar1",
              "units.a_reg.stands[1].stand": "ar2", "units.a_reg.stands[1].move": [[5, 5]]}
    out = check(big, "A", "unit", "a_reg", answer)
    assert out["ok"] is False
    assert out["fields"] == {"units.a_reg.stands[1].move": "each anchor must be one orthogonal step from the "
                                                           "previous one"}
    assert out["messages"]["units.a_reg.stands[1].move"]["key"] == "refusal.step"
    assert check(big, "A", "unit", "a_reg", {**answer, "units.a_reg.stands[1].move": [[3, 6], [2, 6]]})["ok"]


def test_a_stand_order_without_its_stand_is_refused_on_that_field(big):
    """S9.13.2: each stand order names its stand; the merge leaves out one that does not (a form's untouched
    row), so the check refuses it when it gives orders, rather than letting them be lost."""
    answer = {"units.a_reg.action": "attack", "units.a_reg.stands[0].stand": "ar1",
              "units.a_reg.stands[1].move": [[3, 6], [2, 6]]}
    out = check(big, "A", "unit", "a_reg", answer)
    assert out["fields"] == {"units.a_reg.stands[1].stand": "each stand order names the stand it is for (S9.13.2)"}
    assert out["messages"]["units.a_reg.stands[1].stand"]["key"] == "refusal.stand_required"
    named = {**answer, "units.a_reg.stands[1].stand": "ar2"}
    assert check(big, "A", "unit", "a_reg", named)["ok"]
    untouched = {**answer, "units.a_reg.stands[1].move": [], "units.a_reg.stands[1].action": "none"}
    assert check(big, "A", "unit", "a_reg", untouched)["ok"]  # a row that orders nothing is no order


def test_the_other_declarations_come_in_any_shape_and_are_refused_when_malformed(big):
    answer = {"units.a_reg.action": "none"}
    merged = run("merge-declarations", {"state": big, "declarations": {"unit:a_reg": answer}})["declarations"]
    for known in ({"unit:a_reg": answer}, answer, merged):
        payload = {"state": big, "viewer": "gm", "participant": {"kind": "side", "id": "A"}, "declarations": known}
        assert run("check-declaration", {**payload, "declaration": {}})["ok"]
        assert run("declaration-options", payload)["options"]
    with pytest.raises(InvalidInput) as refused:
        run("declaration-options", {"state": big, "participant": {"kind": "side", "id": "A"},
                                    "declarations": {"unit:a_reg": {"units.a_reg.action": 3}}})
    assert list(refused.value.fields) == ["declarations.units.a_reg.action"]


def test_check_refusals_carry_their_parameters(big):
    out = check(big, "A", "unit", "a_reg", {"units.a_reg.action": "hide"})
    assert out["messages"]["units.a_reg.action"]["key"] == "refusal.unit_type_action"
    assert out["messages"]["units.a_reg.action"]["params"] == {"type": "regiment", "action": "hide"}


def test_check_of_the_gm_tries_its_adjustments(big):
    bad = {"gm.adjustments": [{"type": "move", "id": "ar1", "position": [3, 5]}]}  # onto ar2
    out = check(big, "gm", "gm", None, bad)
    assert out["fields"] == {"gm.adjustments": "the footprint must be on the grid, free and enterable"}
    good = {"gm.adjustments": [{"type": "move", "id": "ar1", "position": [4, 4]}]}
    assert check(big, "gm", "gm", None, good)["ok"]


def test_a_side_checks_only_its_own_participants(big):
    with pytest.raises(InvalidInput) as err:
        check(big, "B", "unit", "a_reg", {})
    assert "participant" in err.value.fields
    with pytest.raises(InvalidInput):
        check(big, "C", "unit", "a_reg", {})


def test_a_hidden_enemy_is_no_target_to_the_side_it_hides_from(big):
    state = ambush(big)
    answer = {"units.a_sk.action": "attack", "units.a_sk.stands[0].stand": "as1",
              "units.a_sk.stands[0].attacks": [{"attack": "javelin", "target": "bs1"}]}
    assert check(state, "gm", "unit", "a_sk", answer)["ok"]
    seen = check(state, "A", "unit", "a_sk", answer)
    assert seen["fields"] == {"units.a_sk.stands[0].attacks": "must be an enemy stand, an enemy solo or an "
                                                              "objective square"}


# -- declaration-options with a viewer ------------------------------------------------------------


def test_move_options_go_through_a_hidden_enemy_the_side_cannot_see():
    setup = copy.deepcopy(FORD_SETUP)
    setup["map"] = {"width": 8, "height": 3, "cells": []}
    setup["units"]["u_b"]["type"], setup["units"]["u_b"]["configuration"] = "skirmishers", None
    setup["units"]["u_b"]["stands"][0]["position"] = [4, 0]
    state = run("new-battle", setup)["state"]
    state["stands"]["sb1"]["hidden"] = True
    ask = {"state": state, "participant": {"kind": "unit", "id": "u_a"}, "viewer": "A"}
    ends = {tuple(p[-1]) for p in next(o for o in run("declaration-options", ask)["options"]
                                     if o["path"].endswith(".move"))["allowed"]}
    assert (4, 0) in ends  # where the hidden skirmisher stands: the horde does not know
    gm = {**ask, "viewer": "gm"}
    assert (4, 0) not in {tuple(p[-1]) for p in next(o for o in run("declaration-options", gm)["options"]
                                                     if o["path"].endswith(".move"))["allowed"]}
    # at resolution the move meets the hidden stand: it stops next to it (S5.7.2), no error
    path = next(p for p in next(o for o in run("declaration-options", ask)["options"]
                                if o["path"].endswith(".move"))["allowed"] if p[-1] == [4, 0])
    answer = {"units.u_a.action": "none", "units.u_a.stands[0].stand": "sa1", "units.u_a.stands[0].move": path}
    assert check(state, "A", "unit", "u_a", answer)["ok"]
    merged = run("merge-declarations", {"state": state, "declarations": {"unit:u_a": answer}})["declarations"]
    out = run("resolve-round", {"state": state, "declarations": merged}, seed=1)
    move = next(e for e in out["events"] if e["type"] == "move")
    assert move["stopped_reason"] == "enemy_adjacent" and move["to"] == [3, 0]  # next to it, S5.7.2
    assert out["defaults_applied"] == ["unit:u_b"]


def test_options_carry_label_and_refusal_keys(big):
    out = run("declaration-options", {"state": big, "participant": {"kind": "unit", "id": "a_reg"}, "viewer": "A"})
    assert out["viewer"] == "A" and out["names"]["a_reg"] == "a_reg"
    action = out["options"][0]
    assert (action["label_key"], action["label_params"]) == ("option.action", {"actor": "a_reg"})
    hide = next(f for f in action["forbidden"] if f["value"] == "hide")
    assert (hide["key"], hide["params"]) == ("refusal.unit_type_action", {"type": "regiment", "action": "hide"})
    move = next(o for o in out["options"] if o["path"] == "units.a_reg.stands[0].move")
    assert (move["label_key"], move["label_params"]) == ("option.move", {"actor": "ar1"})
    from rules.dnd5e.messages import MESSAGES
    for option in out["options"]:
        assert option["label_key"] in MESSAGES
        assert all(f["key"] in MESSAGES for f in option["forbidden"])


def test_the_gm_builds_adjustments_and_sides_fallbacks_from_choices(big):
    gm = run("declaration-options", {"state": big, "participant": {"kind": "gm"}, "viewer": "gm"})["options"][0]
    assert gm["path"] == "gm.adjustments"
    assert gm["items"]["set_configuration"]["id"] == ["a_giant", "a_reg", "b_reg"]
    assert gm["items"]["place_solo"]["id"] == []
    assert gm["items"]["set_commander"]["commander"] == [None, "captain", "chief"]
    side = run("declaration-options", {"state": big, "participant": {"kind": "side", "id": "A"}, "viewer": "A"})
    fallbacks = next(o for o in side["options"] if o["path"] == "solo_fallbacks")
    assert list(fallbacks["items"]) == ["chief"] and "ar2" in fallbacks["items"]["chief"]["reattach_to"]
    with pytest.raises(InvalidInput):
        run("declaration-options", {"state": big, "participant": {"kind": "gm"}, "viewer": "A"})


# -- resolve-round defaults, outcome, strength, end-battle ------------------------------------------


def test_defaults_are_applied_and_logged(ford_state):
    out = run("resolve-round", {"state": ford_state, "declarations": {"units": {"u_a": {"action": "dash"}}}},
              seed=2)
    assert out["defaults_applied"] == ["unit:u_b"]
    assert [s["params"] for s in out["log"] if s["key"] == "defaults.applied"] == [{"participant": "unit:u_b"}]


def test_outcome_and_strength_in_every_state(ford_state):
    assert ford_state["outcome"] == {"over": False, "winner": None, "tie": False, "reason": "outcome.running",
                                     "one_more_round": False, "gm_names_winner": False}
    assert ford_state["strength"] == {"A": 15, "B": 11}
    ford_state["victory_threshold"] = 1
    ford_state["sides"]["B"]["victory_points"] = 1
    out = run("resolve-round", {"state": ford_state, "declarations": {}}, seed=3)
    assert out["state"]["outcome"] == {"over": True, "winner": "B", "tie": False, "reason": "outcome.threshold",
                                       "one_more_round": False, "gm_names_winner": False}
    seen = run("visible-state", {"state": out["state"], "viewer": "A"})["state"]
    assert seen["strength"] == {"A": 15} and seen["outcome"]["winner"] == "B"


def test_a_tie_is_settled_by_end_battle(ford_state):
    ford_state["battle_over"] = True
    ford_state["sides"]["A"]["victory_points"] = ford_state["sides"]["B"]["victory_points"] = 10
    seen = run("visible-state", {"state": ford_state, "viewer": "gm"})["state"]
    assert seen["outcome"] == {"over": True, "winner": None, "tie": True, "reason": "outcome.threshold",
                               "one_more_round": True, "gm_names_winner": False}
    draw = run("end-battle", {"state": ford_state})
    assert draw["outcome"] == "draw" and draw["state"]["outcome"]["reason"] == "end.draw"
    assert draw["state"]["outcome"]["over"] and draw["state"]["outcome"]["tie"]
    more = run("end-battle", {"state": ford_state, "on_tie": "extra_round"})
    assert more["state"]["battle_over"] is False and more["state"]["outcome"]["over"] is False
    assert run("resolve-round", {"state": more["state"], "declarations": {}}, seed=1)["state"]["round"] == 2
    with pytest.raises(InvalidInput) as err:
        run("end-battle", {})
    assert "sides" in err.value.fields


# -- visible-round ------------------------------------------------------------------------------------


def test_a_round_as_the_side_an_attacker_hid_from_reads_it(big):
    state = copy.deepcopy(big)
    for sid in ("as1", "as2"):
        state["stands"][sid]["hidden"] = True
    state["stands"]["bs1"]["position"] = [6, 1]
    decl = {"units": {"a_sk": {"action": "attack", "stands": [
        {"stand": "as1", "move": [[3, 1]]},
        {"stand": "as2", "move": [[5, 1]], "attacks": [{"attack": "greataxe", "target": "bs1"}]}]}}}
    out = run("resolve-round", {"state": state, "declarations": decl}, seed=5)
    assert out["state"]["stands"]["as2"]["hidden"] is False and out["state"]["stands"]["as1"]["hidden"] is True
    legion = run("visible-round", {"round": {**out, "before": state}, "viewer": "B"})
    kinds = [(e["type"], e.get("actor") or e.get("attacker")) for e in legion["events"]]
    assert ("attack", "as2") in kinds and ("move", "as2") in kinds
    assert not any("as1" in json.dumps(e) for e in legion["events"])  # still hidden: nothing of it
    move = next(e for e in legion["events"] if e["type"] == "move" and e["actor"] == "as2")
    assert "from" not in move and "to" not in move  # where it came from stays secret
    assert not any(name.startswith(("as1", "as2")) for name in legion["dice"])
    assert not any(s["params"].get("actor") in ("as1", "as2") for s in legion["log"])
    assert "as1" not in legion["names"] and "as2" in legion["names"]
    gm = run("visible-round", {"round": {**out, "before": state}, "viewer": "gm"})
    assert gm["events"] == out["events"] and gm["dice"] == out["dice"]
    assert [s for s in gm["log"] if s["key"] != "visible.round"] == out["log"]


def test_the_side_of_a_broken_unit_writes_only_its_orders_after_a_rally(big):
    big["units"]["a_reg"]["broken"] = True  # chief commands it
    ask = {"state": big, "participant": {"kind": "unit", "id": "a_reg"}}
    assert [o["path"] for o in run("declaration-options", {**ask, "viewer": "A"})["options"]] == \
        ["units.a_reg.if_rallied"]
    gm = [o["path"] for o in run("declaration-options", {**ask, "viewer": "gm"})["options"]]
    assert gm[0] == "units.a_reg.action" and gm[-1] == "units.a_reg.if_rallied"
    assert check(big, "A", "unit", "a_reg", {"units.a_reg.if_rallied": "attack"})["ok"]
    refused = check(big, "A", "unit", "a_reg", {"units.a_reg.action": "disengage"})
    assert refused["messages"]["units.a_reg.action"]["key"] == "refusal.broken_orders"
    assert check(big, "gm", "unit", "a_reg", {"units.a_reg.action": "disengage"})["ok"]


def test_a_player_declares_the_fallback_of_an_attached_solo(big):
    ask = {"state": big, "participant": {"kind": "solo", "id": "chief"}}
    assert not any(o["path"].startswith("solo_fallbacks") for o in run("declaration-options", ask)["options"])
    option = run("declaration-options", {**ask, "viewer": "A"})["options"][-1]
    assert option["path"] == "solo_fallbacks.chief" and option["label_params"] == {"actor": "chief"}
    assert "ar2" in option["items"]["reattach_to"]
    answer = {"solos.chief.action": "none", "solo_fallbacks.chief": {"reattach_to": "ar2"}}
    assert check(big, "A", "solo", "chief", answer)["ok"]
    merged = run("merge-declarations", {"state": big, "declarations": {"solo:chief": answer}})["declarations"]
    assert merged["solo_fallbacks"] == {"chief": {"reattach_to": "ar2"}}
