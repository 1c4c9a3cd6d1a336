"""Helpers of the HÉROS tests: running operations and the spec's S9.12 set-up."""

import copy

import pytest

from rules.errors import InvalidInput
from rules.heros import ruleset

NEW_BATTLE = {
    "battle_id": "demo",
    "map": {"width": 6, "height": 6,
            "hexes": [{"col": 4, "row": 4, "terrain": "difficult", "wooded": True, "feature_id": "wood-1"}]},
    "sides": [{"id": "red", "name": "Gondor", "cinc_id": "aragorn"},
              {"id": "blue", "name": "Mordor", "cinc_id": "gothmog"}],
    "corps": [{"id": "r1", "side": "red", "kind": "cinc", "general_id": "aragorn"},
              {"id": "b1", "side": "blue", "kind": "cinc", "general_id": "gothmog"}],
    "units": [
        {"id": "r-bd", "corps_id": "r1", "troop_type": "Bd", "factor_vs_foot": 5, "factor_vs_mounted": 3,
         "move": 3, "position": {"col": 2, "row": 2}, "facing": 3},
        {"id": "b-wb", "corps_id": "b1", "troop_type": "Wb", "regular": False, "impetuous": True,
         "factor_vs_foot": 3, "factor_vs_mounted": 2, "move": 3, "position": {"col": 2, "row": 4}, "facing": 0},
        {"id": "b-ps", "corps_id": "b1", "troop_type": "Ps", "regular": False, "factor_vs_foot": 2,
         "factor_vs_mounted": 2, "move": 4, "range": 2, "position": {"col": 4, "row": 1}, "facing": 4}],
    "characters": [
        {"id": "aragorn", "corps_id": "r1", "role": "cinc", "combat_bonus": 3, "stacked_on": "r-bd", "engaged": True},
        {"id": "gothmog", "corps_id": "b1", "role": "cinc", "combat_bonus": 2, "stacked_on": "b-ps", "engaged": False}],
    "first_side": "red",
    "dice": {"pa.r1": 4},
}


def heros(op: str, payload: dict, seed: int | None = None) -> dict:
    """Run a HÉROS operation and check the common output contract (S9.0)."""
    out = ruleset.run(op, copy.deepcopy(payload), seed)
    assert isinstance(out["dice"], dict)
    assert out["log"], f"{op} logged nothing"
    for step in out["log"]:
        assert set(step) == {"rule", "key", "params", "text"}
        assert step["rule"].startswith(("S", "H")) and step["key"] and step["text"]
    return out


def refused(op: str, payload: dict) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        ruleset.run(op, copy.deepcopy(payload))
    assert info.value.fields, "an invalid input names its fields"
    return info.value


def by_id(items: list[dict], identifier: str) -> dict:
    return next(item for item in items if item["id"] == identifier)


def unit(uid: str, corps: str, t: str, col: int, row: int, facing: int = 0, ff: int = 3, fm: int = 3, move: int = 3,
         **extra) -> dict:
    return {"id": uid, "corps_id": corps, "troop_type": t, "factor_vs_foot": ff, "factor_vs_mounted": fm, "move": move,
            "position": {"col": col, "row": row}, "facing": facing, **extra}


def setup(units: list[dict], characters: list[dict] | None = None, *, hexes: list | None = None, first: str = "red",
          dice: dict | None = None, width: int = 12, height: int = 10, **extra) -> dict:
    """A two-side battle: corps ``r`` (general ``rg`` on the first red unit) and ``b`` (``bg``)."""
    red = next(u["id"] for u in units if u["corps_id"] == "r")
    blue = next(u["id"] for u in units if u["corps_id"] == "b")
    chars = characters if characters is not None else [
        {"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": red, "engaged": False},
        {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": blue, "engaged": False}]
    payload = {"map": {"width": width, "height": height, "hexes": hexes or []},
               "sides": [{"id": "red", "cinc_id": "rg"}, {"id": "blue", "cinc_id": "bg"}],
               "corps": [{"id": "r", "side": "red", "kind": "cinc", "general_id": "rg"},
                         {"id": "b", "side": "blue", "kind": "cinc", "general_id": "bg"}],
               "units": units, "characters": chars, "first_side": first,
               "dice": dice or {"pa.r": 5, "pa.b": 5}, **extra}
    return heros("new-battle", payload)["state"]


def play(state: dict, active: dict | None = None, dice: dict | None = None, **declarations) -> dict:
    body = {"state": state, "declarations": {"active": active or {}, **declarations}, "dice": dice or {}}
    return heros("resolve-round", body, seed=1)


def events(out: dict, kind: str) -> list[dict]:
    return [e for e in out["events"] if e["type"] == kind]
