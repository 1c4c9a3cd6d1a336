"""The public viewer (issue #19, spectators): ``visible-state`` and ``visible-round`` for ``"public"``.

A spectator plays no side, so it may read only what every side may read: a
piece hidden from any side is hidden from it, and a side's secrets (figures,
declarations) are kept from it as from that side's enemy.  The property
below plays each engine's worked example with random orders and checks, at
every round, that whatever the public reads each side reads too; the pinned
cases name, per engine, one secret the public must not get.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.contract import GM, PUBLIC
from rules.errors import InvalidInput
from rules.simulate_engine import Engine
from rules.simulate_policy import Chooser, Picker
from tests.rules.simulate_examples import example as _example

SLUGS = ("jdrwiki", "seventh_sea", "synapse", "heros", "dnd5e")
SIDES = {"jdrwiki": ("a", "b"), "seventh_sea": ("a", "b"), "synapse": ("A", "B")}


def run(slug: str, op: str, payload: dict, seed: int | None = None) -> dict:
    return registry.get(slug).run(op, payload, seed)


def sides_of(slug: str, state: dict) -> tuple[str, ...]:
    if slug in SIDES:
        return SIDES[slug]
    return tuple(s["id"] for s in state["sides"]) if slug == "heros" else tuple(sorted(state["sides"]))


def hide_some(slug: str, state: dict, seed: int) -> dict:
    """The state with some pieces hidden where the ruleset hides pieces (an ambush, S11.3)."""
    state = copy.deepcopy(state)
    if slug == "heros":
        for i, unit in enumerate(state["units"]):
            unit["hidden"] = (i + seed) % 3 == 0
    elif slug == "dnd5e":
        for i, sid in enumerate(sorted(state["stands"])):
            state["stands"][sid]["hidden"] = (i + seed) % 3 == 0
    return state


def covered(path: str, paths: set[str]) -> bool:
    """Whether ``path`` or a part that holds it (``units[2]`` holds ``units[2].hp``) is among ``paths``."""
    return any(path == p or path.startswith((p + ".", p + "[")) for p in paths)


def sub(small, big) -> bool:
    """Whether ``small`` tells nothing ``big`` does not: a dict's keys a subset, with the same values."""
    return isinstance(small, dict) and isinstance(big, dict) and all(k in big and small[k] == big[k] for k in small)


def assert_state_within(slug: str, state: dict) -> None:
    public = run(slug, "visible-state", {"state": state, "viewer": PUBLIC})
    removed = set(public["hidden"])
    for side in sides_of(slug, state):
        seen = run(slug, "visible-state", {"state": state, "viewer": side})
        assert all(covered(path, removed) for path in seen["hidden"]), (side, set(seen["hidden"]) - removed)
        assert public["names"].items() <= seen["names"].items(), side


def assert_round_within(slug: str, record: dict) -> None:
    public = run(slug, "visible-round", {"round": record, "viewer": PUBLIC})
    for side in sides_of(slug, record["state"]):
        seen = run(slug, "visible-round", {"round": record, "viewer": side})
        assert all(any(sub(event, other) for other in seen["events"]) for event in public["events"]), side
        assert public.get("dice", {}).keys() <= seen.get("dice", {}).keys(), side
        assert public["names"].items() <= seen["names"].items(), side
        assert set(public["defaults_applied"]) <= set(seen["defaults_applied"]), side


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_whatever_the_public_sees_each_side_sees(slug, seed):
    engine = Engine(slug)
    state = hide_some(slug, engine.new_battle(_example(slug), seed), seed)
    chooser = Chooser(engine, "random", Picker(seed))
    for number in range(2):
        assert_state_within(slug, state)
        if state["outcome"]["over"]:
            break
        answers = chooser.answers(state, engine.participants(state), {}, seed + number)
        output = engine.resolve(state, engine.merge(state, answers), seed + number)
        assert_round_within(slug, {**output, "before": state})
        state = output["state"]


@pytest.fixture
def battles() -> dict[str, dict]:
    """Each worked example's opening state, with the same pinned seed."""
    return {slug: Engine(slug).new_battle(_example(slug), 7) for slug in SLUGS}


def test_dnd5e_a_hidden_stand_is_unknown_to_the_public(battles):
    state = copy.deepcopy(battles["dnd5e"])
    sid = sorted(s for s, stand in state["stands"].items() if state["units"][stand["unit"]]["side"] == "B")[0]
    state["stands"][sid]["hidden"] = True
    public = run("dnd5e", "visible-state", {"state": state, "viewer": PUBLIC})
    own = run("dnd5e", "visible-state", {"state": state, "viewer": "B"})
    assert sid in own["state"]["stands"] and sid not in public["state"]["stands"]
    assert f"stands.{sid}" in public["hidden"]
    assert all(stand["hp"] is None for stand in public["state"]["stands"].values())  # every side's figures
    assert public["state"]["strength"] == {}
    output = run("dnd5e", "resolve-round", {"state": state, "declarations": {}}, 11)
    read = run("dnd5e", "visible-round", {"round": {**output, "before": state}, "viewer": PUBLIC})
    assert sid not in str(read["events"]) and sid not in str(read["log"]) and sid not in read["names"]


def test_heros_an_ambusher_is_unknown_to_the_public(battles):
    state = copy.deepcopy(battles["heros"])
    unit = state["units"][-1]
    unit["hidden"] = True
    public = run("heros", "visible-state", {"state": state, "viewer": PUBLIC})
    own = run("heros", "visible-state", {"state": state, "viewer": unit["side"]})
    assert unit["id"] in {u["id"] for u in own["state"]["units"]}
    assert unit["id"] not in {u["id"] for u in public["state"]["units"]}
    assert unit["id"] not in public["names"]


def test_jdrwiki_both_armies_secrets_are_kept_from_the_public(battles):
    public = run("jdrwiki", "visible-state", {"state": battles["jdrwiki"], "viewer": PUBLIC})
    for army_id, army in public["state"]["armies"].items():
        assert set(army) <= {"id", "name", "side", "status", "ruthless"}, army_id
    for corps in public["state"]["corps"].values():
        assert "advantage" not in corps and "initiative" not in corps
    assert "hp" not in run("jdrwiki", "visible-state", {"state": battles["jdrwiki"], "viewer": "a"})["hidden"]


def test_synapse_neither_reserve_nor_numbers_reach_the_public(battles):
    state = battles["synapse"]
    public = run("synapse", "visible-state", {"state": state, "viewer": PUBLIC})
    reserves = [fid for fid, f in state["formations"].items() if f["status"] == "reserve"]
    assert all(fid not in public["state"]["formations"] for fid in reserves)
    assert all("headcount" not in f for f in public["state"]["formations"].values())
    assert public["state"]["strength"] == {}
    assert all("command_rating" not in army for army in public["state"]["armies"].values())


def test_seventh_sea_no_side_pool_or_wounds_reach_the_public(battles):
    public = run("seventh_sea", "visible-state", {"state": battles["seventh_sea"], "viewer": PUBLIC})
    assert all("free_raises" not in public["state"]["sides"][s] for s in ("a", "b"))
    assert all("dramatic_wounds" not in hero for hero in public["state"]["heroes"])
    output = run("seventh_sea", "resolve-round", {"state": battles["seventh_sea"], "declarations": {}}, 3)
    read = run("seventh_sea", "visible-round", {"round": output, "viewer": PUBLIC})
    assert not {"opportunity_offered", "opportunity_declined"} & {e.get("type") for e in read["events"]}


@pytest.mark.parametrize("slug", SLUGS)
def test_public_reads_only(slug, battles):
    """The public watches: it is no viewer for the operations that answer a player (options, checks)."""
    state = battles[slug]
    participant = next(p for p in run(slug, "round-participants", {"state": state})["participants"] if p["side"])
    with pytest.raises(InvalidInput):
        run(slug, "check-declaration", {"state": state, "viewer": PUBLIC, "participant": participant["participant"],
                                        "declaration": participant["default"]})
    assert run(slug, "visible-state", {"state": state, "viewer": GM})["hidden"] == []
