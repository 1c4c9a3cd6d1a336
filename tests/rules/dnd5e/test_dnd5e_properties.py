"""Invariants the spec implies, checked by hypothesis (bounded runs)."""

from __future__ import annotations

import json
import random

from dnd5e_testkit import PROFILES, big_setup, random_declarations, run
from hypothesis import given, settings
from hypothesis import strategies as st

BIG = run("new-battle", big_setup(), seed=11)["state"]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=100_000), st.sampled_from(["movement", "effect", "range", "area"]))
def test_conversions_are_non_negative_and_monotonic(decimetres, kind):
    a = run("convert-distance", {"metres": decimetres / 10, "kind": kind})["squares"]
    b = run("convert-distance", {"metres": min(10_000, (decimetres + 15) / 10), "kind": kind})["squares"]
    assert 0 <= a <= b


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["cone", "line", "sphere", "cube", "cylinder"]), st.integers(min_value=1, max_value=300),
       st.sampled_from(["north", "east", "south", "west"]), st.sampled_from(["high", "low"]))
def test_area_counts_before_clipping(shape, decimetres, direction, side):
    out = run("area-template", {"shape": shape, "size_m": decimetres / 10, "origin": [50, 50],
                                "direction": direction, "extra_side": side})
    n = out["size_squares"]
    expected = {"cone": n * (n + 1) // 2, "line": n}.get(shape, 2 * n * n + 2 * n + 1)
    assert out["count"] == expected == len({tuple(s) for s in out["squares"]})
    assert out["squares"] == sorted(out["squares"], key=lambda s: (s[1], s[0]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(BIG["stands"])), st.integers(min_value=0, max_value=400))
def test_damage_to_stands_is_conserved(target, amount):
    out = run("apply-damage", {"state": BIG, "target": target, "amount": amount})
    assert sum(a["damage"] for a in out["applied"]) + out["wasted"] == amount
    for sid, stand in out["state"]["stands"].items():
        assert 0 <= stand["hp"] <= BIG["stands"][sid]["hp"]
        assert (stand["status"] == "casualty") == (stand["hp"] == 0)
    assert BIG["stands"][target]["status"] == "active"  # the input is never mutated


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.booleans(), st.booleans(), st.integers(min_value=0, max_value=30),
       st.integers(min_value=-20, max_value=20), st.integers(min_value=0, max_value=2**32))
def test_attacks_never_deal_negative_damage_and_replay_byte_for_byte(isolated, hidden, resist, ac, modifier, seed):
    payload = {"attacker": {"kind": "stand", "hidden": hidden}, "attack": PROFILES["ogre"]["attacks"][0],
               "target": {"kind": "stand", "ac": ac, "isolated": isolated,
                          "resistances": ["bludgeoning"] if resist else []},
               "distance": 1, "damage_modifier": modifier}
    out = run("resolve-attack", payload, seed=seed)
    assert out["damage"] >= 0 and (out["hit"] or out["damage"] == 0)
    assert all(c["final"] >= 0 for c in out["damage_components"])
    replay = run("resolve-attack", {**payload, "dice": out["dice"]})
    assert json.dumps(replay) == json.dumps(out)


def check_state_invariants(before: dict, after: dict) -> None:
    assert after["round"] == before["round"] + 1
    assert set(after["stands"]) == set(before["stands"]) and set(after["solos"]) == set(before["solos"])
    for sid, s in after["stands"].items():
        hp_max = after["profiles"][s["profile"]]["hp_max"]
        assert 0 <= s["hp"] <= hp_max
        assert s["status"] in ("active", "eliminated", "fled")  # casualties are removed at the end of the round
        assert (s["position"] is None) == (s["status"] != "active")
        if before["stands"][sid]["status"] in ("eliminated", "fled"):
            assert s["status"] == before["stands"][sid]["status"]
    for h in after["solos"].values():
        assert 0 <= h["hp"] <= after["profiles"][h["profile"]]["hp_max"]
        assert not (h["position"] is not None and h["attached_to"] is not None)
    for side, v in after["sides"].items():
        assert v["victory_points"] >= before["sides"][side]["victory_points"]  # no negative GM awards here
    for uid, u in after["units"].items():
        assert u["stands"] == before["units"][uid]["stands"]


@settings(max_examples=5, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_random_legal_battles_end_or_reach_the_round_limit(seed):
    rng = random.Random(seed)
    state = run("new-battle", big_setup(), seed=seed)["state"]
    for round_number in range(1, 16):
        decl = random_declarations(state, rng)
        frozen = json.dumps([state, decl], sort_keys=True)
        out = run("resolve-round", {"state": state, "declarations": decl}, seed=seed + round_number)
        assert json.dumps([state, decl], sort_keys=True) == frozen  # state in, new state out
        check_state_invariants(state, out["state"])
        replay = run("resolve-round", {"state": state, "declarations": decl, "dice": out["dice"]})
        assert json.dumps(replay, sort_keys=True) == json.dumps(out, sort_keys=True)
        state = out["state"]
        if out["battle_over"]:
            assert out["events"][-1]["type"] == "battle_over"
            break
    assert state["round"] == round_number + 1


def test_same_seed_same_battle():
    first = run("new-battle", big_setup(), seed=42)
    second = run("new-battle", big_setup(), seed=42)
    assert json.dumps(first) == json.dumps(second)
    a = run("resolve-round", {"state": first["state"], "declarations": {}}, seed=9)
    b = run("resolve-round", {"state": second["state"], "declarations": {}}, seed=9)
    assert json.dumps(a) == json.dumps(b)
