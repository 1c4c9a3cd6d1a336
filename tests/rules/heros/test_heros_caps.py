"""Size caps (docs/battle-contract.md): every input bounded in the schema, refused over the cap, answered at
it (how long that takes is for a benchmark on a quiet machine, not for a test on a shared one)."""

import copy

import pytest

from heros_caps import battle_at_caps
from heros_helpers import refused
from rules.heros import caps, room_ops, ruleset


def unbounded(node, defs, path, seen=frozenset()):
    """Paths of the arrays, objects, strings and numbers of a JSON schema that have no upper bound."""
    if isinstance(node, list):
        return [p for item in node for p in unbounded(item, defs, path, seen)]
    if not isinstance(node, dict):
        return []
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return [] if name in seen else unbounded(defs[name], defs, path, seen | {name})
    found = []
    kind = node.get("type")
    if kind == "array" and "maxItems" not in node:
        found.append(path)
    if kind == "object" and ("additionalProperties" in node and node["additionalProperties"] is not False
                             or "patternProperties" in node) and "maxProperties" not in node:
        found.append(path)
    if kind == "string" and not {"maxLength", "enum", "const", "pattern"} & set(node):
        found.append(path)
    if kind in ("integer", "number") and not {"maximum", "const", "enum"} & set(node):
        found.append(path)
    for key, value in node.items():
        if key != "$defs":
            found += unbounded(value, defs, f"{path}/{key}", seen)
    return found


@pytest.mark.parametrize("op", sorted(ruleset.operations))
def test_every_input_is_bounded_in_the_ops_schema(op):
    schema = ruleset.operations[op].input_schema()
    found = [p for p in unbounded(schema, schema.get("$defs", {}), op) if not p.endswith("/dice")]
    assert found == []


def test_state_caps_show_in_the_schema():
    props = ruleset.operations["check-declaration"].input_schema()["$defs"]["StateModel"]["properties"]
    assert (props["units"]["maxItems"], props["characters"]["maxItems"], props["corps"]["maxItems"]) == (
        caps.UNITS, caps.CHARACTERS, caps.CORPS)


def test_over_the_caps_is_refused_naming_the_field():
    state = battle_at_caps(10)
    extra = copy.deepcopy(state)
    extra["units"] = extra["units"] + [dict(extra["units"][0], id=f"x{n}") for n in range(caps.UNITS)]
    assert "state.units" in refused("round-participants", {"state": extra}).fields
    many = {f"unit:u{n}": {} for n in range(caps.PARTICIPANTS + 1)}
    assert "declarations" in refused("merge-declarations", {"state": state, "declarations": many}).fields
    long_answer = {f"active.stars.u{n}": "x" for n in range(501)}
    assert "declaration" in refused("check-declaration", {
        "state": state, "viewer": "red", "participant": {"kind": "unit", "id": "red-u0"}, "declaration": long_answer}).fields
    assert "viewer" in refused("visible-state", {"state": state, "viewer": "x" * 41}).fields


@pytest.fixture(scope="module")
def at_caps():
    return battle_at_caps()


def test_the_slowest_operations_answer_at_the_caps(at_caps):
    state = at_caps
    for corps in state["corps"]:
        corps["demoralised"] = corps["side"] == "red"  # every red unit gets its rally move paths
    front = [u["id"] for u in state["units"] if u["side"] == "red"][-40:]
    answers = {f"unit:{uid}": {f"active.actions[kind=move].paths.{uid}": [
        {"col": int(uid.rsplit("u", 1)[1]) % 60, "row": r} for r in range(2, 20)]} for uid in front}
    key = f"unit:{front[0]}"
    cases = [("declaration-options", {"state": state, "participant": {"kind": "unit", "id": front[0]}, "viewer": "red"}),
             ("declaration-options", {"state": state, "participant": {"kind": "gm", "id": "gm"}, "viewer": "gm"}),
             ("check-declaration", {"state": state, "viewer": "red", "participant": {"kind": "unit", "id": front[0]},
                                    "declaration": answers[key], "declarations": answers}),
             ("resolve-round", {"state": state, "declarations": answers})]
    unit_options, gm_options, check, out = (ruleset.run(op, payload, 0) for op, payload in cases)
    assert unit_options["options"] and gm_options["options"] and check["ok"] is True
    assert out["defaults_applied"] == [] and len([e for e in out["events"] if e["type"] == "unit_moved"]) == 40


def test_a_check_among_many_broken_answers_costs_a_few_resolutions(at_caps, monkeypatch):
    """Each broken answer would name itself in one resolution: the check gives up on the others instead."""
    attempts = []
    real = room_ops.Checker.attempt
    monkeypatch.setattr(room_ops.Checker, "attempt", lambda self, answers: attempts.append(1) or real(self, answers))
    red = [u for u in at_caps["units"] if u["side"] == "red"]
    broken = {f"unit:{u['id']}": {f"active.actions[kind=move].paths.{u['id']}": [{"col": 0, "row": 30}]} for u in red[1:]}
    mine = {f"active.actions[kind=move].paths.{red[-1]['id']}": []}
    out = ruleset.run("check-declaration", {"state": at_caps, "viewer": "red", "declaration": mine,
                                            "participant": {"kind": "unit", "id": red[-1]["id"]},
                                            "declarations": broken}, 0)
    assert out["ok"] is True and len(broken) == 99 and len(attempts) <= 3
