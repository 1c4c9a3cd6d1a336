"""Fixtures of the SYNAPSE tests: the ruleset itself, the spec's S9 examples, and helpers.

The S9 examples are kept as data (``spec_examples.json``: each operation's
input and expected output, in the spec's order, logs left out) so that the
tests compare every field the spec shows.
"""

import copy
import json
from pathlib import Path

import pytest

from rules.errors import InvalidInput
from rules.synapse import ruleset

EXAMPLES = json.loads((Path(__file__).parent / "spec_examples.json").read_text(encoding="utf-8"))


def _run(op, payload, seed=None):
    return ruleset.run(op, copy.deepcopy(payload), seed)


def _refused(op, payload):
    """The fields of the InvalidInput an input must raise."""
    with pytest.raises(InvalidInput) as info:
        ruleset.run(op, copy.deepcopy(payload))
    assert info.value.error and info.value.fields
    return info.value.fields


@pytest.fixture
def run():
    return _run


@pytest.fixture
def refused():
    return _refused


@pytest.fixture
def example():
    """``example(op, n)``: the n-th (input, output) pair of an operation's S9 examples."""

    def pick(op, n=0):
        pairs = EXAMPLES[op]
        return copy.deepcopy(pairs[2 * n]), copy.deepcopy(pairs[2 * n + 1])

    return pick


@pytest.fixture
def battle():
    """The S9.12 example battle's initial state (a fresh copy)."""
    return copy.deepcopy(EXAMPLES["new-battle"][1]["state"])


@pytest.fixture
def setup():
    """The S9.12 example battle's input (a fresh copy)."""
    return copy.deepcopy(EXAMPLES["new-battle"][0])
