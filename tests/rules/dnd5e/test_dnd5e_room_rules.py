"""Rules the battle room used to apply itself, now the engine's (issue #15, ``docs/rules/dnd5e.md``).

- S7.7: after a tie the GM has one more round fought (``end-battle``
  ``on_tie: extra_round``), once; the battle ends with that round whatever the
  victory points; the state's ``outcome`` says when a tie waits for the GM.
- S6.12, S9.14: the victory points decide who wins; ``end-battle`` refuses a
  winner they do not make.
- S5.8.2: a stand acts on its own only while its unit casts a spell; the
  room's options (asked with a viewer) leave that choice out when the unit
  cannot cast now.
- S11.3: the options a side gets name no enemy hidden from it (neither a
  target, nor an obstacle, nor a reason).
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from dnd5e_testkit import big_setup, run
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidInput


@pytest.fixture
def tied(ford_state) -> dict:
    """The ford after a round that ended on 10 victory points each: over, on a tie."""
    state = copy.deepcopy(ford_state)
    state["battle_over"] = True
    state["sides"]["A"]["victory_points"] = state["sides"]["B"]["victory_points"] = 10
    return state


def outcome_of(state: dict) -> dict:
    return run("visible-state", {"state": state, "viewer": "gm"})["state"]["outcome"]


# -- S7.7: one more round after a tie, once ------------------------------------------------------


def test_a_tie_waits_for_the_gm(tied):
    outcome = outcome_of(tied)
    assert outcome["over"] and outcome["tie"] and outcome["one_more_round"] and not outcome["gm_names_winner"]


def test_the_round_fought_after_a_tie_ends_the_battle_whatever_the_points(tied):
    more = run("end-battle", {"state": tied, "on_tie": "extra_round"})["state"]
    assert more["tie_break_round"] == tied["round"] and not more["battle_over"] and not more["outcome"]["over"]
    more["victory_threshold"] = 100  # out of reach: the points alone would not stop the battle
    out = run("resolve-round", {"state": more, "declarations": {}}, seed=4)
    assert out["battle_over"] and out["state"]["battle_over"]
    assert out["state"]["outcome"] == {"over": True, "winner": None, "tie": True, "reason": "outcome.tie_break",
                                       "one_more_round": False, "gm_names_winner": False}
    step = next(s for s in out["log"] if s["key"] == "end.tie_break")
    assert step["rule"] == "S7.7" and step["params"] == {"round": tied["round"]}
    with pytest.raises(InvalidInput) as err:  # once only
        run("end-battle", {"state": out["state"], "on_tie": "extra_round"})
    assert list(err.value.fields) == ["on_tie"]
    assert run("end-battle", {"state": out["state"]})["outcome"] == "draw"


def test_the_round_after_a_tie_won_on_points_is_a_victory(tied):
    more = run("end-battle", {"state": tied, "on_tie": "extra_round"})["state"]
    more["sides"]["B"]["victory_points"] = 11  # scored during the extra round
    out = run("resolve-round", {"state": more, "declarations": {}}, seed=4)
    assert out["state"]["outcome"]["winner"] == "B" and out["state"]["outcome"]["reason"] == "outcome.threshold"
    assert not out["state"]["outcome"]["one_more_round"]


def test_only_the_round_after_the_tie_is_forced_to_end(ford_state):
    state = copy.deepcopy(ford_state)
    state["tie_break_round"] = state["round"] + 1  # a later round: this one plays as any other
    out = run("resolve-round", {"state": state, "declarations": {}}, seed=4)
    assert not out["battle_over"] and not any(s["key"] == "end.tie_break" for s in out["log"])


def test_states_before_any_tie_carry_no_tie_break(ford_state):
    assert "tie_break_round" not in ford_state
    assert "tie_break_round" not in run("resolve-round", {"state": ford_state, "declarations": {}}, seed=1)["state"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.integers(0, 30), st.booleans())
def test_a_tie_and_only_a_tie_waits_for_the_gm(points_a, points_b, over):
    state = run("new-battle", _ford(), seed=1)["state"]
    state["battle_over"] = over
    state["sides"]["A"]["victory_points"], state["sides"]["B"]["victory_points"] = points_a, points_b
    outcome = outcome_of(state)
    assert outcome["one_more_round"] is (over and points_a == points_b)
    assert outcome["winner"] == (None if not over or points_a == points_b else "A" if points_a > points_b else "B")
    assert outcome["gm_names_winner"] is False


# -- S6.12, S9.14: the points decide the winner ---------------------------------------------------


def test_end_battle_refuses_a_winner_the_points_do_not_make(ford_state):
    state = copy.deepcopy(ford_state)
    state["sides"]["A"]["victory_points"], state["sides"]["B"]["victory_points"] = 4, 2
    with pytest.raises(InvalidInput) as err:
        run("end-battle", {"state": state, "winner": "B"})
    assert list(err.value.fields) == ["winner"]
    named = run("end-battle", {"state": state, "winner": "A"})
    assert named == run("end-battle", {"state": state})  # the same ending as naming nobody
    assert named["winner"] == "A" and named["outcome"] == "tactical_victory"


def test_on_equal_points_no_winner_may_be_named(ford_state):
    with pytest.raises(InvalidInput):
        run("end-battle", {"state": ford_state, "winner": "A"})  # 0 against 0: a draw
    assert run("end-battle", {"state": ford_state})["outcome"] == "draw"


# -- S5.8.2: a stand's own action only while its unit may cast ------------------------------------


def _ford() -> dict:
    from dnd5e_testkit import FORD_SETUP

    return copy.deepcopy(FORD_SETUP)


def _paths(state: dict, unit: str, viewer: str | None) -> set[str]:
    ask = {"state": state, "participant": {"kind": "unit", "id": unit}}
    if viewer is not None:
        ask["viewer"] = viewer
    return {o["path"] for o in run("declaration-options", ask)["options"]}


def test_a_unit_that_cannot_cast_offers_its_stands_no_own_action():
    state = run("new-battle", big_setup(), seed=11)["state"]
    without = _paths(state, "a_reg", None)
    assert "units.a_reg.stands[0].action" in without  # asked without a viewer: the answer it always was
    seen = run("declaration-options", {"state": state, "participant": {"kind": "unit", "id": "a_reg"}, "viewer": "A"})
    paths = {o["path"] for o in seen["options"]}
    assert not any(p.endswith("].action") for p in paths) and "units.a_reg.stands[0].move" in paths
    assert any(s["key"] == "options.own_action_idle" and s["rule"] == "S5.8.2" for s in seen["log"])
    assert _paths(state, "a_reg", "gm") == paths


def test_a_unit_that_may_cast_offers_the_stands_without_spells_their_own_action():
    setup = big_setup()
    setup["units"]["b_mages"]["stands"].append({"id": "bm2", "profile": "hobgoblin", "position": [15, 8]})
    state = run("new-battle", setup, seed=11)["state"]
    seen = run("declaration-options", {"state": state, "participant": {"kind": "unit", "id": "b_mages"},
                                       "viewer": "B"})
    unit_action = next(o for o in seen["options"] if o["path"] == "units.b_mages.action")
    assert "cast_spell" in unit_action["allowed"]
    assert "units.b_mages.stands[1].action" in {o["path"] for o in seen["options"]}  # the hobgoblin's own
    assert not any(s["key"] == "options.own_action_idle" for s in seen["log"])


# -- S11.3: nothing hidden in a side's options ----------------------------------------------------


def test_a_sides_options_name_no_enemy_hidden_from_it():
    state = run("new-battle", big_setup(), seed=11)["state"]
    for sid in ("bs1", "bs2"):
        state["stands"][sid].update(hidden=True)
    state["solos"]["wizard"]["hidden"] = True
    hidden = ("b_sk", "bs1", "bs2", "wizard")
    gm_told = told = ""
    for p in run("round-participants", {"state": state})["participants"]:
        if p["side"] != "A":
            continue
        ask = {"state": state, "participant": p["participant"]}
        told += json.dumps(run("declaration-options", {**ask, "viewer": "A"}))
        gm_told += json.dumps(run("declaration-options", {**ask, "viewer": "gm"}))
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9_-]*", told))  # ids as whole words, in values and reasons alike
    assert words and not words & set(hidden)
    assert "bs1" in re.findall(r"[A-Za-z][A-Za-z0-9_-]*", gm_told)  # the GM's options name it: the check can fail
