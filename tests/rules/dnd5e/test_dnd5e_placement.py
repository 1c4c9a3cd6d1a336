"""``place-piece``: one stand or detached solo of a set-up anchored on another square before round 1 (S5.1).

An attached solo moves with its stand (S3.5) and is refused; the rest of the
set-up, the web's own fields included, comes back as it was given.  The
battle room used to do this itself (issue #15).
"""

from __future__ import annotations

import copy

import pytest
from dnd5e_testkit import big_setup, run
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidInput


@pytest.fixture
def setup() -> dict:
    found = big_setup()
    found["units"]["a_sk"]["roster_id"] = "u7"  # a field of the web's own, which the engine ignores
    return found


def test_a_stand_is_anchored_on_the_square(setup):
    out = run("place-piece", {"setup": setup, "piece": "as2", "cell": [5, 1]})
    assert out["setup"]["units"]["a_sk"]["stands"][1]["position"] == [5, 1]
    assert out["setup"]["units"]["a_sk"]["roster_id"] == "u7"
    assert [(s["rule"], s["key"]) for s in out["log"]] == [("S5.1", "placement.moved")]
    assert run("new-battle", out["setup"], seed=1)["state"]["stands"]["as2"]["position"] == [5, 1]


def test_a_detached_solo_moves_an_attached_one_does_not(setup):
    out = run("place-piece", {"setup": setup, "piece": "wizard", "cell": [14, 9]})
    assert out["setup"]["solos"]["wizard"]["position"] == [14, 9]
    with pytest.raises(InvalidInput) as err:
        run("place-piece", {"setup": setup, "piece": "chief", "cell": [5, 1]})
    assert list(err.value.fields) == ["piece"] and "moves with it" in err.value.fields["piece"]


def test_an_unknown_piece_or_a_broken_setup_is_refused_on_its_field(setup):
    with pytest.raises(InvalidInput) as err:
        run("place-piece", {"setup": setup, "piece": "nobody", "cell": [5, 1]})
    assert list(err.value.fields) == ["piece"]
    broken = copy.deepcopy(setup)
    broken["units"] = []
    with pytest.raises(InvalidInput) as err:
        run("place-piece", {"setup": broken, "piece": "as1", "cell": [5, 1]})
    assert all(path.startswith("setup") for path in err.value.fields)


@settings(max_examples=30, deadline=None)
@given(piece=st.sampled_from(["ar1", "as2", "ag1", "br3", "bm1", "wizard"]), x=st.integers(0, 15),
       y=st.integers(0, 9))
def test_only_the_piece_moved_changes(piece, x, y):
    before = big_setup()
    after = run("place-piece", {"setup": before, "piece": piece, "cell": [x, y]})["setup"]
    moved = [(uid, i) for uid, unit in after["units"].items() for i, stand in enumerate(unit["stands"])
             if stand != before["units"][uid]["stands"][i]]
    moved += [(hid, None) for hid, solo in after["solos"].items() if solo != before["solos"][hid]]
    assert {before["units"][uid]["stands"][i]["id"] if i is not None else uid for uid, i in moved} <= {piece}
    assert {k: v for k, v in after.items() if k not in ("units", "solos")} == {
        k: v for k, v in before.items() if k not in ("units", "solos")}
