"""No input, however malformed, makes any registered operation crash.

Runs over every ruleset the registry discovers, so each engine is fuzzed as
soon as it lands.  Payloads mix the operation's own field names (so that
validation goes deeper than the first level) with wrong types, huge numbers,
NaN, deep nesting and unknown fields.  The only acceptable outcomes are an
output with a log (the same bytes when run again with the same seed), or
:class:`InvalidInput`.
"""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.errors import InvalidInput

OPERATIONS = [(rs.slug, op) for rs in registry.rulesets() for op in rs.operations]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, 0, -1, 1, 2**63, 4.0, "", "a", "A", "x" * 10_000, "é😀‮", "1"]),
    st.text(max_size=12),
)


def payloads(field_names: list[str]):
    keys = st.sampled_from(field_names + ["seed", "dice", "id", "side", "a", "b"]) if field_names else st.text()
    values = st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)
        ),
        max_leaves=20,
    )
    return st.dictionaries(keys, values, max_size=6)


def _field_names(schema: dict) -> list[str]:
    """Every property name anywhere in the schema, so nested objects get plausible keys."""
    names: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            names.update(k for k in node.get("properties", {}) if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(names)


@pytest.mark.skipif(not OPERATIONS, reason="no engine registered yet")
@pytest.mark.parametrize("slug,op", OPERATIONS)
def test_malformed_input_never_crashes(slug, op):
    ruleset = registry.get(slug)
    names = _field_names(ruleset.operations[op].input_schema())

    @settings(max_examples=40, suppress_health_check=list(HealthCheck))
    @given(payloads(names))
    def check(payload):
        try:
            out = ruleset.run(op, payload, seed=7)
        except InvalidInput as exc:
            assert exc.error and isinstance(exc.fields, dict)
            json.dumps(exc.as_dict())
        else:
            assert isinstance(out["log"], list)
            text = json.dumps(out, allow_nan=False)
            assert json.dumps(ruleset.run(op, payload, seed=7)) == text

    check()
