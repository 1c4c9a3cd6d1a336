"""Fixtures of the 7th Sea engine tests.

``run`` calls the ruleset directly (not through the registry's discovery of
every engine package), so these tests depend only on the core and on
``rules.seventh_sea``.
"""

import copy
import json
from pathlib import Path

import pytest

from rules.seventh_sea import ruleset

EXAMPLES = json.loads((Path(__file__).parent / "s9_examples.json").read_text(encoding="utf-8"))


def _run(op, payload, seed=None):
    """Run an operation; dice not pinned by a test come from seed 0 unless the payload seeds them."""
    payload = copy.deepcopy(payload)
    if isinstance(payload, dict):
        payload.setdefault("seed", 0)
    return ruleset.run(op, payload, seed)


@pytest.fixture
def run():
    return _run


@pytest.fixture
def examples():
    """The S9 examples, as ``{op: [input, output]}`` (copied from the spec)."""
    return copy.deepcopy(EXAMPLES)


def check_log(log):
    assert isinstance(log, list) and log, "every output carries a non-empty log"
    for step in log:
        assert set(step) == {"rule", "key", "params", "text"}
        assert step["rule"].startswith(("S", "H")) and step["key"] and step["text"]
        json.dumps(step["params"])
    return True


@pytest.fixture
def logged():
    return check_log
