"""A side's lists of ids offer the values S9.13 allows (``allowed``), and every one of them passes the check."""

from __future__ import annotations

import pytest
from heros_helpers import heros, setup, unit

LISTS = ("executions", "captive_transfers", "adventurer_flee", "decline_pursuit", "adventurers_follow")


@pytest.fixture
def captor() -> dict:
    """Red holds Blue's champion on its blade r0, with an Av (r1) and a Bm (r2) beside it; Blue has an Av far off."""
    units = [unit("r0", "r", "Bd", 2, 2), unit("r1", "r", "Av", 3, 2), unit("r2", "r", "Bm", 2, 3),
             unit("r3", "r", "Bd", 8, 2), unit("b0", "b", "Wb", 6, 7), unit("b1", "b", "Av", 7, 7)]
    chars = [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "r0", "engaged": False},
             {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "b0", "engaged": False},
             {"id": "bx", "corps_id": "b", "role": "champion", "stacked_on": "b1", "engaged": False}]
    state = setup(units, chars)
    champion = next(c for c in state["characters"] if c["id"] == "bx")
    champion.update(status="captured", captured_by="r0", stacked_on=None)
    return state


def _allowed(state: dict, side: str) -> dict[str, list]:
    options = heros("declaration-options", {"state": state, "participant": {"kind": "side", "id": side}})["options"]
    return {o["path"]: o["allowed"] for o in options if o["path"].partition(".")[2] in LISTS}


def test_the_side_is_offered_its_own_captives_adventurers_and_behemoths(captor):
    allowed = _allowed(captor, "red")
    assert allowed["active.executions"] == ["bx"]
    assert allowed["active.captive_transfers"] == [{"character_id": "bx", "to_unit_id": "r1"},
                                                   {"character_id": "bx", "to_unit_id": "r2"}]  # r3 is not adjacent
    assert allowed["active.adventurer_flee"] == ["r1"]
    assert allowed["active.decline_pursuit"] == ["r2"]
    assert allowed["active.adventurers_follow"] == [{}, {"r1": False}]
    blue = _allowed(captor, "blue")
    assert blue["passive.adventurer_flee"] == ["b1"] and blue["passive.decline_pursuit"] == []


def test_every_offered_value_passes_the_check(captor):
    for path, values in _allowed(captor, "red").items():
        for value in values:
            answer = {path: value if path.endswith("adventurers_follow") else [value]}
            out = heros("check-declaration", {"state": captor, "viewer": "red",
                                              "participant": {"kind": "side", "id": "red"}, "declaration": answer})
            assert out["ok"], (answer, out["fields"])
    transfer = {"active.captive_transfers": [{"character_id": "bx", "to_unit_id": "r3"}]}  # not offered: refused
    out = heros("check-declaration", {"state": captor, "viewer": "red", "participant": {"kind": "side", "id": "red"},
                                      "declaration": transfer})
    assert not out["ok"]
