"""What the battle room asks every engine and used to work out itself (issue #15, ``docs/battle-contract.md``).

- ``round-participants`` asked as the GM says what each side may not know of
  (``hidden_from``): exactly the ids that side's ``visible-state`` leaves out of
  its ``names``, so the room names a participant only to whoever may know it.
- Every state's ``outcome`` says what whoever ends the battle may do:
  ``one_more_round`` (a tie the GM settles, D&D 5e S7.7) only on a tie of a
  battle over; ``gm_names_winner`` whether ``end-battle`` takes the GM's winner.

The property plays each engine's worked example with random orders (the
simulator's chooser) and some pieces hidden, and checks both at every round.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.contract import GM
from rules.simulate_engine import Engine
from rules.simulate_policy import Chooser, Picker
from tests.rules.test_public_viewer import SLUGS, _example, hide_some, run, sides_of

# Where the GM who stops a running battle names its winner: every engine but D&D 5e, whose points decide (S9.14).
GM_NAMES_A_RUNNING_BATTLES_WINNER = {"jdrwiki": True, "seventh_sea": True, "synapse": True, "heros": True,
                                     "dnd5e": False}


def assert_hidden_from(slug: str, state: dict) -> None:
    answer = run(slug, "round-participants", {"state": state})
    everything = set(run(slug, "visible-state", {"state": state, "viewer": GM})["names"])
    sides = sides_of(slug, state)
    assert set(answer["hidden_from"]) == set(sides)
    for side in sides:
        seen = set(run(slug, "visible-state", {"state": state, "viewer": side})["names"])
        assert answer["hidden_from"][side] == sorted(everything - seen), side
    step = next(s for s in answer["log"] if s["key"] == "participants.hidden")
    assert step["rule"].startswith("S11") and step["params"]["counts"] == {
        side: len(ids) for side, ids in answer["hidden_from"].items()}


def assert_outcome(slug: str, state: dict) -> None:
    outcome = state["outcome"]
    assert isinstance(outcome["one_more_round"], bool) and isinstance(outcome["gm_names_winner"], bool)
    if outcome["one_more_round"]:
        assert outcome["over"] and outcome["tie"] and outcome["winner"] is None
    if not outcome["over"]:
        assert outcome["gm_names_winner"] is GM_NAMES_A_RUNNING_BATTLES_WINNER[slug]
    elif outcome["winner"] is not None:
        assert not outcome["gm_names_winner"]  # a winner named stays named


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_hidden_from_and_outcome_at_every_round(slug, seed):
    engine = Engine(slug)
    state = hide_some(slug, engine.new_battle(_example(slug), seed), seed)
    chooser = Chooser(engine, "random", Picker(seed))
    for number in range(3):
        assert_hidden_from(slug, state)
        assert_outcome(slug, state)
        if state["outcome"]["over"]:
            break
        answers = chooser.answers(state, engine.participants(state), {}, seed + number)
        state = engine.resolve(state, engine.merge(state, answers), seed + number)["state"]


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if "viewer" in registry.get(slug).operations[
    "round-participants"].input_schema()["properties"]])
def test_a_side_is_not_told_what_is_hidden_from_it(slug):
    """``hidden_from`` comes only with the GM's answer: a side asking would learn the ids of its hidden enemies."""
    state = hide_some(slug, Engine(slug).new_battle(_example(slug), 5), 0)
    assert "hidden_from" in run(slug, "round-participants", {"state": state, "viewer": GM})
    assert "hidden_from" not in run(slug, "round-participants", {"state": state, "viewer": sides_of(slug, state)[0]})
