"""``place-piece``: one piece of a set-up moved before the first bound, stacked as S5.5.4 stacks it.

A unit put on a friendly unit stands behind it (rear rank), elsewhere in the
front rank; a character put on a friendly unit stacks on it, elsewhere it
stands alone; the rest of the set-up comes back as it was given.  The
battle room used to decide the rank itself (issue #15).
"""

from __future__ import annotations

import copy

from heros_helpers import NEW_BATTLE, by_id, heros, refused
from hypothesis import given, settings
from hypothesis import strategies as st


def place(setup: dict, piece: str, col: int, row: int) -> dict:
    return heros("place-piece", {"setup": setup, "piece": piece, "cell": {"col": col, "row": row}})


def test_a_unit_on_an_empty_hex_stands_in_the_front_rank():
    out = place(NEW_BATTLE, "r-bd", 1, 1)
    moved = by_id(out["setup"]["units"], "r-bd")
    assert moved["position"] == {"col": 1, "row": 1} and moved["rank"] == "front"
    assert [(s["rule"], s["key"]) for s in out["log"]] == [("S5.1", "placement.moved")]


def test_a_unit_on_a_friend_stands_behind_it_and_new_battle_takes_it():
    setup = copy.deepcopy(NEW_BATTLE)
    friend = by_id(setup["units"], "b-ps")["position"]
    out = place(setup, "b-wb", friend["col"], friend["row"])
    assert by_id(out["setup"]["units"], "b-wb")["rank"] == "rear"
    step = next(s for s in out["log"] if s["key"] == "placement.rear")
    assert step["rule"] == "S5.5.4" and step["params"] == {"unit": "b-wb", "friend": "b-ps"}
    state = heros("new-battle", out["setup"])["state"]
    assert by_id(state["units"], "b-wb")["position"] == friend and by_id(state["units"], "b-ps")["rank"] == "front"


def test_a_unit_on_an_enemy_is_front_rank_and_new_battle_refuses_it():
    enemy = by_id(NEW_BATTLE["units"], "b-wb")["position"]
    out = place(NEW_BATTLE, "r-bd", enemy["col"], enemy["row"])
    assert by_id(out["setup"]["units"], "r-bd")["rank"] == "front"  # no friend there: no rear rank
    assert refused("new-battle", out["setup"]).fields  # both sides in one hex (S5.5.4): new-battle's word


def test_a_character_stacks_on_a_friend_or_stands_alone():
    wb = by_id(NEW_BATTLE["units"], "b-wb")["position"]
    stacked = by_id(place(NEW_BATTLE, "gothmog", wb["col"], wb["row"])["setup"]["characters"], "gothmog")
    assert (stacked["stacked_on"], stacked["position"]) == ("b-wb", None)
    alone = by_id(place(NEW_BATTLE, "gothmog", 0, 5)["setup"]["characters"], "gothmog")
    assert (alone["stacked_on"], alone["position"]) == (None, {"col": 0, "row": 5})


def test_refusals_name_the_field():
    assert list(refused("place-piece", {"setup": NEW_BATTLE, "piece": "r-bd",
                                        "cell": {"col": 6, "row": 0}}).fields) == ["cell"]  # the map is 6 wide
    assert list(refused("place-piece", {"setup": NEW_BATTLE, "piece": "nobody",
                                        "cell": {"col": 1, "row": 1}}).fields) == ["piece"]
    pooled = copy.deepcopy(NEW_BATTLE)
    by_id(pooled["units"], "r-bd").update(position=None, status="pool")
    by_id(pooled["characters"], "aragorn")["stacked_on"] = None
    by_id(pooled["characters"], "aragorn")["position"] = {"col": 0, "row": 0}
    assert list(refused("place-piece", {"setup": pooled, "piece": "r-bd",
                                        "cell": {"col": 1, "row": 1}}).fields) == ["piece"]
    bad = copy.deepcopy(NEW_BATTLE)
    bad["units"] = "many"
    assert all(path.startswith("setup") for path in refused("place-piece", {"setup": bad, "piece": "r-bd",
                                                                            "cell": {"col": 1, "row": 1}}).fields)


@settings(max_examples=30, deadline=None)
@given(piece=st.sampled_from(["r-bd", "b-wb", "b-ps", "aragorn", "gothmog"]), col=st.integers(0, 5),
       row=st.integers(0, 5))
def test_only_the_piece_moved_changes(piece, col, row):
    out = place(NEW_BATTLE, piece, col, row)["setup"]
    assert {k: v for k, v in out.items() if k not in ("units", "characters")} == {
        k: v for k, v in NEW_BATTLE.items() if k not in ("units", "characters")}
    for kind in ("units", "characters"):
        changed = [a["id"] for a, b in zip(out[kind], NEW_BATTLE[kind], strict=True) if a != b]
        assert set(changed) <= {piece}, kind
