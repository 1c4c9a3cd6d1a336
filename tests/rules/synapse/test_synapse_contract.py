"""The battle room contract (docs/battle-contract.md) as SYNAPSE answers it (docs/rules/synapse.md)."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import InvalidInput
from rules.synapse import ruleset

from .test_synapse_properties import battles, choose


def run(op, payload):
    return ruleset.run(op, json.loads(json.dumps(payload)))


@pytest.fixture
def reserve_battle(setup):
    """The S9.12 battle with a melee reserve of trolls on side A."""
    setup["armies"]["A"]["units"].append({"id": "a_trolls", "unit_type": "trolls", "group": "reserve",
                                          "headcount": 20, "weapon_damage": 8, "combat_base": 6})
    return run("new-battle", setup)["state"]


def test_round_participants(battle):
    out = run("round-participants", {"state": battle})
    keys = [p["key"] for p in out["participants"]]
    assert keys == ["gm", "side:A", "side:B"]
    gm, a, b = out["participants"]
    assert (gm["side"], gm["must_declare"], gm["default"]) == (None, False, {})
    assert a["commands"] == ["A.melee", "A.ranged"] and a["must_declare"] and a["name"] == "Ost de Sire Hugues"
    assert a["default"] == {"sides.A.orders.A.melee.action": "hold", "sides.A.orders.A.ranged.action": "hold"}
    assert out["names"]["B.melee"] == "Horde — melee troops"


def test_round_participants_hide_the_enemy_reserve(reserve_battle):
    gm = run("round-participants", {"state": reserve_battle})
    seen = run("round-participants", {"state": reserve_battle, "viewer": "B"})
    assert "A.reserve" in gm["participants"][1]["commands"]
    assert "A.reserve" not in json.dumps(seen)
    ended = dict(reserve_battle, status="over")
    assert run("round-participants", {"state": ended})["participants"] == []


def test_merge_declarations_splits_formation_ids(battle):
    out = run("merge-declarations", {"state": battle, "declarations": {
        "side:A": {"sides.A.orders.A.melee.action": "attack", "sides.A.orders.A.melee.target": "B.melee"},
        "gm": {"gm.formation_modifiers.B.melee.defence": 2, "gm.rally_modifiers.B.melee": 1}}})
    assert out["declarations"] == {
        "sides": {"A": {"orders": {"A.melee": {"action": "attack", "target": "B.melee"}}}},
        "gm": {"formation_modifiers": {"B.melee": {"defence": 2}}, "rally_modifiers": {"B.melee": 1}}}


def test_merge_declarations_refuses_another_participants_part(battle):
    with pytest.raises(InvalidInput) as info:
        run("merge-declarations", {"state": battle, "declarations": {"side:A": {"sides.B.retreat": True}}})
    assert "declarations.side:A.sides.B.retreat" in info.value.fields


def test_check_declaration_accepts_and_refuses(battle):
    ok = run("check-declaration", {"state": battle, "viewer": "A", "participant": {"kind": "side", "id": "A"},
                                   "declaration": {"sides.A.orders.A.melee.action": "attack",
                                                   "sides.A.orders.A.melee.target": "B.melee"}})
    assert ok["ok"] and ok["fields"] == {}
    bad = run("check-declaration", {"state": battle, "viewer": "A", "participant": {"kind": "side", "id": "A"},
                                    "declaration": {"sides.A.orders.A.melee.action": "riposte"}})
    assert not bad["ok"]
    assert bad["fields"] == {"sides.A.orders.A.melee.action": "only a routed formation ripostes"}
    assert bad["messages"]["sides.A.orders.A.melee.action"]["key"] == "refusal.riposte_routed_only"


def test_a_side_does_not_check_for_the_enemy(battle):
    with pytest.raises(InvalidInput) as info:
        run("check-declaration", {"state": battle, "viewer": "A", "participant": {"kind": "side", "id": "B"},
                                  "declaration": {}})
    assert "participant" in info.value.fields


def test_a_charge_screened_by_a_hidden_reserve_stops_at_the_screen(reserve_battle):
    """B cannot see A's reserve: charging A's archers is offered and accepted; A commits the trolls,
    and the charge stops before them at resolution (S7.4) instead of failing the round."""
    reserve_battle["formations"]["A.melee"]["status"] = "fled"
    options = run("declaration-options", {"state": reserve_battle, "viewer": "B",
                                          "participant": {"kind": "side", "id": "B"}})
    target = {o["path"]: o for o in options["options"]}["sides.B.orders.B.melee.target"]
    assert target["allowed"] == ["A.ranged"] and "A.reserve" not in json.dumps(options)
    answer = {"sides.B.orders.B.melee.action": "attack", "sides.B.orders.B.melee.target": "A.ranged"}
    assert run("check-declaration", {"state": reserve_battle, "viewer": "B", "declaration": answer,
                                     "participant": {"kind": "side", "id": "B"}})["ok"]
    out = ruleset.run("resolve-round", {"state": reserve_battle, "declarations": {
        **answer, "sides.A.commit_reserve": True}, "dice": {"command:A": 5, "command:B": 5}})
    result = out["results"]["attack:B.melee"]
    assert (result["void"], result["reason"]) == (True, "screened")
    assert any(step["key"] == "attack.screened" and step["rule"] == "S7.4" for step in out["log"])


def test_defaults_applied_to_a_silent_side(battle):
    out = ruleset.run("resolve-round", {"state": battle, "declarations": {"sides": {"A": {}}}, "seed": 3})
    assert out["defaults_applied"] == ["side:B"]
    assert [s["params"] for s in out["log"] if s["key"] == "defaults.applied"] == [{"participant": "side:B"}]
    assert out["state"]["outcome"]["over"] is False and set(out["state"]["strength"]) == {"A", "B"}


def test_visible_round_keeps_the_enemys_numbers(battle, example):
    payload, _ = example("resolve-round")
    out = ruleset.run("resolve-round", payload)
    gm = run("visible-round", {"round": out, "viewer": "gm"})
    assert gm["log"] == out["log"] and gm["dice"] == out["dice"]
    a = run("visible-round", {"round": {**out, "before": payload["state"]}, "viewer": "A"})
    assert set(a["dice"]) == {name for name in out["dice"] if name.split(":")[-1].startswith("A")}
    command = next(s for s in a["log"] if s["key"].startswith("command.result"))
    assert command["key"] == "command.result.seen" and set(command["params"]) == {"initiative", "surprised"}
    for step in a["log"]:
        if step["key"] == "state.change" or step["key"] == "state.change.seen":
            assert (step["key"] == "state.change") == step["params"]["formation"].startswith("A.")
    b_hit = [e for e in a["events"] if e["type"] == "attack" and e["key"].startswith("attack:A")]
    assert b_hit and all("losses" not in e for e in b_hit)
    assert "Hugo" in a["names"].values() and "Grishnak" not in a["names"].values()


def test_end_battle_returns_the_closed_state(battle):
    out = run("end-battle", {"state": battle, "winner": "B"})
    assert out["state"]["outcome"] == {"over": True, "winner": "B", "tie": False, "reason": "battle.gm",
                                       "one_more_round": False, "gm_names_winner": False}
    assert out["state"]["status"] == "over" and out["state"]["end_reason"] == "gm"


def test_a_side_that_commits_its_reserve_may_order_it(reserve_battle):
    draft = {"sides.A.commit_reserve": True}
    plain = run("declaration-options", {"state": reserve_battle, "viewer": "A",
                                        "participant": {"kind": "side", "id": "A"}})
    drafted = run("declaration-options", {"state": reserve_battle, "viewer": "A", "declarations": draft,
                                          "participant": {"kind": "side", "id": "A"}})
    path = "sides.A.orders.A.reserve.action"
    assert path not in {o["path"] for o in plain["options"]}
    assert "attack" in {o["path"]: o for o in drafted["options"]}[path]["allowed"]
    answer = {**draft, path: "attack", "sides.A.orders.A.reserve.target": "B.melee"}
    check = run("check-declaration", {"state": reserve_battle, "viewer": "A", "declaration": answer,
                                      "participant": {"kind": "side", "id": "A"}})
    assert check["ok"]
    alone = {path: "attack", "sides.A.orders.A.reserve.target": "B.melee"}
    refused = run("check-declaration", {"state": reserve_battle, "viewer": "A", "declaration": alone,
                                        "participant": {"kind": "side", "id": "A"}})
    assert refused["fields"] == {"sides.A.orders.A.reserve": "this formation cannot act this round"}
    out = ruleset.run("resolve-round", {"state": reserve_battle, "declarations": answer, "seed": 2})
    assert out["results"]["attack:A.reserve"]["attacker"] == "A.reserve"


def test_visible_state_with_viewer(reserve_battle):
    b = run("visible-state", {"state": reserve_battle, "viewer": "B"})
    assert b["state"]["strength"] == {"B": 2100} and "A.reserve" not in b["names"]
    gm = run("visible-state", {"state": reserve_battle, "viewer": "gm"})
    assert gm["hidden"] == [] and set(gm["state"]["strength"]) == {"A", "B"}


# --- size caps ------------------------------------------------------------------------

def test_over_the_caps_is_refused_by_field(battle):
    big = copy.deepcopy(battle)
    big["formations"]["A.melee"]["in_contact_with"] = ["B.melee"] * 200
    with pytest.raises(InvalidInput) as info:
        run("resolve-round", {"state": big})
    assert "state.formations.A.melee.in_contact_with" in info.value.fields
    with pytest.raises(InvalidInput) as info:
        run("merge-declarations", {"state": battle, "declarations": {f"side:{i}": {} for i in range(51)}})
    assert "declarations" in info.value.fields
    schema = ruleset.operations["resolve-round"].input_schema()
    assert "maxProperties" in json.dumps(schema) and "maxItems" in json.dumps(schema)


def test_a_round_at_the_caps_is_played(engine_caps):
    """40 vehicle units a side (one formation each), every weapon slot used, every formation attacking
    (benchmarks/engine_caps.py's battle, which measures how long it takes): resolved, checked and read."""
    case = engine_caps.synapse_at_caps()
    state, orders = case["state"], case["declarations"]
    out = ruleset.run("resolve-round", {"state": state, "declarations": orders, "seed": 1})
    check = run("check-declaration", {"state": state, "viewer": "A", "participant": case["participant"],
                                      "declaration": {k: v for k, v in orders.items() if k.startswith("sides.A")}})
    seen = run("visible-round", {"round": out, "viewer": "A"})
    assert check["ok"] and len(state["formations"]) == 80
    assert out["state"]["round"] == state["round"] + 1 and seen["log"]


# --- properties -----------------------------------------------------------------------

@st.composite
def answers(draw, state):
    """Random answers of a random subset of the round's participants, among the values offered."""
    out = {}
    for entry in run("round-participants", {"state": state})["participants"]:
        if entry["key"] == "gm" or not draw(st.booleans()):
            continue
        side = entry["side"]
        options = run("declaration-options", {"state": state, "viewer": side, "participant": entry["participant"]})
        answer = {}
        for option in options["options"]:
            # as a form sends it: each field either picked among the values offered, or left at its default
            answer[option["path"]] = choose(draw, option) if draw(st.booleans()) else option["default"]
        out[entry["key"]] = (side, answer)
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_accepted_declarations_always_resolve(data):
    state = run("new-battle", data.draw(battles()))["state"]
    for _ in range(3):
        if state["status"] != "ongoing":
            break
        picked = data.draw(answers(state))
        accepted = {}
        for key, (side, answer) in picked.items():
            check = run("check-declaration", {"state": state, "viewer": side, "declaration": answer,
                                              "participant": {"kind": "side", "id": side}})
            assert check["ok"], check  # the options never offer what the check refuses
            accepted[key] = answer
        merged = run("merge-declarations", {"state": state, "declarations": accepted})["declarations"]
        out = ruleset.run("resolve-round", {"state": state, "declarations": merged, "seed": data.draw(st.integers(0, 99))})
        must = [p["key"] for p in run("round-participants", {"state": state})["participants"] if p["must_declare"]]
        assert out["defaults_applied"] == [key for key in must if key not in accepted]
        state = out["state"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hidden_enemy_changes_nothing_a_side_reads(data):
    """Wounding the enemy (exact losses), renaming its characters and reserve, re-rating its commander
    change no byte of what side A is told."""
    battle = data.draw(battles())
    state = run("new-battle", battle)["state"]
    first = ruleset.run("resolve-round", {"state": state, "seed": 1})
    if first["state"]["status"] != "ongoing":
        return
    state = first["state"]
    changed = copy.deepcopy(state)
    for f in changed["formations"].values():
        if f["side"] == "B":
            f["losses"] = min(f["strength"], f["losses"] + data.draw(st.integers(0, 5)))
            f["counter_bonus"] += 1
            if f["status"] == "reserve":
                for uid in f["unit_ids"]:
                    changed["armies"]["B"]["units"][uid]["name"] = "Hidden"
    changed["armies"]["B"]["command_rating"] += 3
    for character in changed["armies"]["B"]["characters"]:
        character["name"] = "Someone else"
    changed["strength"]["B"] += 1000  # what the GM's state says of B's strength is not A's business either
    answer = {"sides.A.retreat": False}
    asked = [
        ("declaration-options", {"viewer": "A", "participant": {"kind": "side", "id": "A"}}),
        ("check-declaration", {"viewer": "A", "participant": {"kind": "side", "id": "A"}, "declaration": answer}),
        ("visible-state", {"viewer": "A"}),
        ("round-participants", {"viewer": "A"}),
    ]
    for op, extra in asked:
        assert run(op, {"state": state, **extra}) == run(op, {"state": changed, **extra}), op
    assert (run("visible-round", {"round": {**first, "state": state}, "viewer": "A"})
            == run("visible-round", {"round": {**first, "state": changed}, "viewer": "A"}))


def test_visible_round_survives_odd_entries(battle, example):
    payload, _ = example("resolve-round")
    out = ruleset.run("resolve-round", payload)
    odd = {**out, "log": out["log"] + [{"key": "attack.score", "params": [1]}],
           "events": out["events"] + [{"type": "attack", "key": ["x"]}], "results": {**out["results"], "bad": 3}}
    seen = run("visible-round", {"round": odd, "viewer": "B"})
    assert {"type": "attack", "key": ["x"]} in seen["events"] and seen["log"]


def test_a_formation_participant_is_checked_on_its_own_order(battle):
    formation = {"kind": "formation", "id": "A.ranged"}
    silent = run("check-declaration", {"state": battle, "viewer": "A", "participant": formation, "declaration": {}})
    assert silent["ok"]
    wrong = run("check-declaration", {"state": battle, "viewer": "gm", "participant": formation, "declaration": {
        "sides.A.orders.A.ranged.action": "attack", "sides.A.orders.A.ranged.target": "A.melee"}})
    assert wrong["messages"]["sides.A.orders.A.ranged.target"]["key"] == "refusal.own_target"
    with pytest.raises(InvalidInput) as info:
        run("check-declaration", {"state": battle, "viewer": "A", "participant": formation,
                                  "declaration": {"sides.A.retreat": True}})
    assert "declaration.sides.A.retreat" in info.value.fields


def test_a_malformed_part_of_another_participant_does_not_hide_this_ones(battle):
    out = run("check-declaration", {"state": battle, "viewer": "gm", "participant": {"kind": "side", "id": "A"},
                                    "declarations": {"gm": {"end_battle": "maybe"}},
                                    "declaration": {"sides.A.orders.A.melee.action": "dance"}})
    assert list(out["fields"]) == ["sides.A.orders.A.melee.action"]
    assert out["messages"]["sides.A.orders.A.melee.action"]["key"] == "declaration.refused"


def test_visible_state_and_round_give_each_land_formation_its_name_as_a_message(battle):
    """``name_keys``: the web renders "Horde — melee troops" in the reader's language (S3.4 groups);
    only formations the viewer sees get one, like ``names``."""
    from rules.synapse.messages import MESSAGES

    seen = run("visible-state", {"state": battle, "viewer": "A"})
    assert seen["name_keys"]["B.melee"] == {"key": "name.formation.melee", "params": {"army": "Horde"}}
    assert set(seen["name_keys"]) <= set(seen["names"]) and set(seen["name_keys"]) == set(seen["state"]["formations"])
    for message in seen["name_keys"].values():
        assert MESSAGES[message["key"]]["en"].format(**message["params"]) in seen["names"].values()
    resolved = run("resolve-round", {"state": battle, "declarations": {}})
    read = run("visible-round", {"round": resolved, "viewer": "B"})
    assert set(read["name_keys"]) <= set(read["names"]) and "A.melee" in read["name_keys"]
