"""Properties of the battle room contract (docs/battle-contract.md), checked by hypothesis on random battles:
what ``check-declaration`` accepts ``resolve-round`` resolves, defaults included; and nothing a side may not
know changes an answer it gets."""

from __future__ import annotations

import copy
import json
import random

from dnd5e_testkit import big_setup, run
from hypothesis import given, settings
from hypothesis import strategies as st


def random_answer(options: list[dict], rng: random.Random) -> dict:
    """An answer made only of values ``declaration-options`` offers (each option answered or left out)."""
    answer = {}
    for o in options:
        if rng.random() < 0.3:
            continue
        allowed, last = o.get("allowed"), o["path"].rsplit(".", 1)[-1]
        if last == "adjustments":
            answer[o["path"]] = [adjustment(kind, fields, rng) for kind, fields in
                                 rng.sample(sorted(o["items"].items()), 2) if fields["id"]]
        elif last == "solo_fallbacks":
            answer[o["path"]] = {h: {"reattach_to": rng.choice(f["reattach_to"])}
                                 for h, f in o["items"].items() if f["reattach_to"] and rng.random() < 0.5}
        elif last == "origin":
            squares = [sq for entry in allowed for sq in entry["squares"]]
            if squares:
                answer[o["path"]] = rng.choice(squares)
        elif o["type"] == "boolean":
            answer[o["path"]] = rng.random() < 0.5
        elif o["type"] == "integer":
            answer[o["path"]] = rng.randint(o["min"], o["max"])
        elif last == "isolation_overrides":
            answer[o["path"]] = {c: rng.random() < 0.5 for c in rng.sample(allowed, min(2, len(allowed)))}
        elif o["type"] == "list" and last in ("move",) and allowed:
            answer[o["path"]] = rng.choice(allowed)
        elif o["type"] == "list" and isinstance(allowed, list):
            answer[o["path"]] = rng.sample(allowed, min(len(allowed), rng.randint(0, o.get("max") or 2)))
        elif isinstance(allowed, list) and allowed:
            answer[o["path"]] = rng.choice(allowed)
    return answer


def adjustment(kind: str, fields: dict, rng: random.Random) -> dict:
    out = {"type": kind}
    for name, values in fields.items():
        if isinstance(values, list):
            if values:
                out[name] = rng.choice(values)
        elif values["type"] == "integer":
            out[name] = rng.randint(values["min"], min(values["max"], 12))
        else:
            out[name] = [rng.randint(values["min"][0], values["max"][0]), rng.randint(values["min"][1], values["max"][1])]
    return out


def viewer_of(p: dict) -> str:
    return p["side"] or "gm"


@settings(max_examples=3, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_what_check_declaration_accepts_resolve_round_resolves(seed):
    rng = random.Random(seed)
    state = run("new-battle", big_setup(), seed=seed)["state"]
    for sid in rng.sample(sorted(state["stands"]), 3):  # a few creatures in hiding
        state["stands"][sid]["hidden"] = True
    for round_number in range(2):
        accepted = {}
        everyone = run("round-participants", {"state": state})["participants"]
        for p in everyone:
            if rng.random() < 0.25:
                continue  # declares nothing
            ask = {"state": state, "participant": p["participant"], "viewer": viewer_of(p)}
            answer = random_answer(run("declaration-options", ask)["options"], rng)
            verdict = run("check-declaration", {**ask, "declaration": answer})
            assert set(verdict["fields"]) == set(verdict["messages"])
            if verdict["ok"]:
                accepted[p["key"]] = answer
        merged = run("merge-declarations", {"state": state, "declarations": accepted})["declarations"]
        out = run("resolve-round", {"state": state, "declarations": merged}, seed=seed + round_number)
        waited = {p["key"] for p in everyone if p["must_declare"]}
        declared = {f"unit:{u}" for u in merged.get("units", {})} | {f"solo:{h}" for h in merged.get("solos", {})}
        assert set(out["defaults_applied"]) == waited - declared
        state = out["state"]
        if out["battle_over"]:
            break


def ambushed(seed: int) -> tuple[dict, random.Random]:
    rng = random.Random(seed)
    state = run("new-battle", big_setup(), seed=seed)["state"]
    state["stands"]["bs1"]["hidden"] = state["stands"]["bs2"]["hidden"] = True
    state["solos"]["wizard"]["hidden"] = True
    return state, rng


def change_hidden(state: dict, how: str, spots: list[list[int]]) -> dict:
    """The same battle with the legion's hidden skirmishers moved, wounded or renamed."""
    state = copy.deepcopy(state)
    if how == "move":
        state["stands"]["bs1"]["position"], state["solos"]["wizard"]["position"] = spots
    elif how == "wound":
        state["stands"]["bs2"]["hp"] = 1
        state["solos"]["wizard"]["hp"] = 3
    else:
        state["units"]["b_sk"]["name"] = "Secret scouts"
        state["solos"]["wizard"]["name"] = "The hidden one"
    return state


def horde_answers(state: dict, rng: random.Random) -> dict:
    """Everything the horde is told about ``state``, as JSON text."""
    told = {"state": run("visible-state", {"state": state, "viewer": "A"}),
            "participants": run("round-participants", {"state": state, "viewer": "A"})}
    for p in told["participants"]["participants"]:
        if p["side"] != "A":
            continue
        ask = {"state": state, "participant": p["participant"], "viewer": "A"}
        options = run("declaration-options", ask)
        told[p["key"]] = options
        told[f"check {p['key']}"] = run("check-declaration", {**ask, "declaration": random_answer(options["options"],
                                                                                                    rng)})
    return json.loads(json.dumps(told))


def free_spots(state: dict) -> list[list[int]]:
    """Squares no creature's footprint covers, off deep water: where a medium creature may stand."""
    side = {"large": 2, "huge": 3, "gargantuan": 4}
    taken = set()
    for e in [*state["stands"].values(), *state["solos"].values()]:
        if e["position"]:
            n = side.get(state["profiles"][e["profile"]]["size"], 1)
            taken |= {(e["position"][0] + i, e["position"][1] + j) for i in range(n) for j in range(n)}
    deep = {tuple(c["at"]) for c in state["map"]["cells"] if c["terrain"] == "deep_water"}
    return [[x, y] for x in range(16) for y in range(10) if (x, y) not in taken | deep]


@settings(max_examples=4, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["move", "wound", "rename"]), st.data())
def test_nothing_hidden_changes_what_the_side_is_told(seed, how, data):
    state, _rng = ambushed(seed)
    spots = data.draw(st.lists(st.sampled_from(free_spots(state)), min_size=2, max_size=2, unique_by=tuple))
    changed = change_hidden(state, how, spots)
    assert horde_answers(state, random.Random(seed)) == horde_answers(changed, random.Random(seed))


@settings(max_examples=4, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["move", "wound", "rename"]), st.data())
def test_nothing_hidden_changes_the_round_the_side_reads(seed, how, data):
    state, rng = ambushed(seed)
    decl = {}
    for p in run("round-participants", {"state": state})["participants"]:
        ask = {"state": state, "participant": p["participant"], "viewer": viewer_of(p)}
        answer = random_answer(run("declaration-options", ask)["options"], rng)
        if p["key"] != "gm" and run("check-declaration", {**ask, "declaration": answer})["ok"]:
            decl[p["key"]] = answer
    merged = run("merge-declarations", {"state": state, "declarations": decl})["declarations"]
    out = run("resolve-round", {"state": state, "declarations": merged}, seed=seed)
    played = {**out, "before": state}
    spots = data.draw(st.lists(st.sampled_from(free_spots(state)), min_size=2, max_size=2, unique_by=tuple))
    hidden_after = [k for k in ("bs1", "bs2") if out["state"]["stands"][k]["hidden"]]
    altered = {**played, "before": change_hidden(state, how, spots)}
    if len(hidden_after) == 2 and out["state"]["solos"]["wizard"]["hidden"] \
            and all(list(s) in free_spots(out["state"]) for s in spots):
        altered["state"] = change_hidden(out["state"], how, spots)
    seen = run("visible-round", {"round": played, "viewer": "A"})
    assert seen == run("visible-round", {"round": altered, "viewer": "A"})
