"""Running an operation: validation paths, dice echo, log, determinism."""

import json

import pytest

from rules.errors import InvalidInput, UnknownOperation
from rules.validate import MAX_DEPTH, load_json

ARMY = {"units": [{"name": "a", "rate": 1}, {"name": "b", "rate": 2}]}


def test_output_carries_dice_and_log(toy):
    out = toy.run("roll", {**ARMY, "dice": {"hit:a": 6, "hit:b": 1}})
    assert out["hits"] == [6, 1]
    assert out["dice"] == {"hit:a": 6, "hit:b": 1}
    assert out["log"] == [{"rule": "T1", "key": "toy.hit", "params": {"n": 7}, "text": "7 hits."}]


def test_seed_reproduces_bytes_and_cli_seed_overrides_body_seed(toy):
    first = json.dumps(toy.run("roll", {**ARMY, "seed": 11}))
    assert first == json.dumps(toy.run("roll", {**ARMY, "seed": 11}))
    assert json.dumps(toy.run("roll", {**ARMY, "seed": 99}, seed=11)) == first


def test_operation_without_dice_does_not_echo_them(toy):
    assert "dice" not in toy.run("strict", {"n": 1})


def test_input_is_not_mutated(toy):
    payload = {**ARMY, "dice": {"hit:a": 2}, "seed": 1}
    before = json.dumps(payload)
    toy.run("roll", payload)
    assert json.dumps(payload) == before


@pytest.mark.parametrize(
    "payload,path",
    [
        ({"units": [{"name": "a", "rate": 1}, {"name": "b", "rate": 11}]}, "units[1].rate"),
        ({"units": [{"name": "a", "rate": 1.0}]}, "units[0].rate"),
        ({"units": [{"name": "a", "rate": "1"}]}, "units[0].rate"),
        ({"units": [{"name": "a", "rate": True}]}, "units[0].rate"),
        ({"units": [{"name": "a"}]}, "units[0].rate"),
        ({"units": [{"name": "a", "rate": 1, "kind": "ship"}]}, "units[0].kind"),
        ({"units": {"name": "a"}}, "units"),
        ({}, "units"),
        ({**ARMY, "by_id": {"k1": {"name": "x", "rate": -1}}}, "by_id.k1.rate"),
        ({**ARMY, "bold": 1}, "bold"),
        ({**ARMY, "seed": "7"}, "seed"),
        ({**ARMY, "seed": 2**63}, "seed"),
        ({**ARMY, "dice": [1]}, "dice"),
        ({**ARMY, "dice": {"hit:b": 9}}, "dice.hit:b"),
    ],
)
def test_invalid_input_names_the_path(toy, payload, path):
    with pytest.raises(InvalidInput) as err:
        toy.run("roll", payload)
    assert path in err.value.fields
    assert err.value.error.endswith(".")
    assert set(err.value.as_dict()) == {"error", "fields"}


def test_every_problem_is_reported(toy):
    with pytest.raises(InvalidInput) as err:
        toy.run("roll", {"units": [{"name": 3, "rate": 99}], "bold": "no"})
    assert set(err.value.fields) == {"units[0].name", "units[0].rate", "bold"}
    assert "and 2 more problems" in err.value.error


def test_unknown_fields_ignored_or_refused_by_the_model_base(toy):
    assert toy.run("roll", {**ARMY, "colour": "red", "dice": {"hit:a": 1, "hit:b": 1}})["hits"] == [1, 1]
    with pytest.raises(InvalidInput) as err:
        toy.run("strict", {"n": 1, "colour": "red"})
    assert err.value.fields == {"colour": "unknown field"}
    # seed and dice are part of every input, closed models included
    assert toy.run("strict", {"n": 1, "seed": 3})["n"] == 1


@pytest.mark.parametrize("payload", [[], "x", 3, None])
def test_non_object_input(toy, payload):
    with pytest.raises(InvalidInput):
        toy.run("roll", payload)


def test_unknown_operation(toy):
    with pytest.raises(UnknownOperation):
        toy.run("nope", {})


def test_schema_is_derived_from_the_model(toy):
    schema = toy.operations["roll"].input_schema()
    assert schema["required"] == ["units"]
    assert {"seed", "dice", "units", "bold"} <= set(schema["properties"])
    assert "dice" not in toy.operations["strict"].input_schema()["properties"]
    described = toy.describe()
    assert described["slug"] == "toy" and set(described["operations"]) == {"roll", "strict"}


@pytest.mark.parametrize("text", ["{", "NaN", '{"a": NaN}', '{"a": Infinity}', "[" * 5000 + "]" * 5000, ""])
def test_load_json_refuses_what_is_not_honest_json(text):
    with pytest.raises(InvalidInput):
        load_json(text)


def test_depth_limit_is_exact():
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(InvalidInput):
        load_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_depth_counts_scalars_as_a_level_and_every_branch():
    from hypothesis import given, strategies as st

    from rules.validate import depth

    def reference(value):
        if isinstance(value, dict):
            return 1 + max(map(reference, value.values()), default=0)
        if isinstance(value, list):
            return 1 + max(map(reference, value), default=0)
        return 1

    json_values = st.recursive(st.none() | st.integers() | st.text(max_size=3),
                               lambda children: st.lists(children, max_size=4)
                               | st.dictionaries(st.text(max_size=3), children, max_size=4), max_leaves=40)

    @given(json_values)
    def same_as_recursive_definition(value):
        assert depth(value) == reference(value)

    same_as_recursive_definition()
