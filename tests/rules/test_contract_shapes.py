"""The three shapes of "the other declarations known so far" (``docs/battle-contract.md``, issue #15).

``check-declaration`` and ``declaration-options`` take ``declarations`` as the
engine's object (``merge-declarations``' output), as answers by participant key
(``merge-declarations``' input) or as one flat answer; every engine reads them
through :func:`rules.contract.declarations_shape`, so the three shapes of the
same answers give the same verdicts and the same options.  The battles are each
spec's worked example (the simulator's set-ups), the answers drawn by the
simulator's random policy from the options each participant is offered.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.contract import ANSWER, ANSWERS, GM, OBJECT, declarations_shape
from rules.simulate_policy import Picker, random_answer

SLUGS = ["jdrwiki", "seventh_sea", "heros", "synapse", "dnd5e"]
MERGED_BY_WHO = {"heros"}
"""HÉROS writes a unit's or a character's option paths relative to the participant (``active.actions[].kind``)
and its merge groups actions by who declared them (S5.5.4): several answers put together as one flat answer,
or already merged, are not the same knowledge as the answers by key, so there each shape is only read."""
EXAMPLE = runpy.run_path(str(Path(__file__).parent / "simulate_examples.py"), run_name="shapes_fixtures")["example"]


def _battle(slug: str, seed: int) -> tuple[dict, list[dict], dict[str, dict]]:
    """The worked example's state, its participants, and a random answer from each (the GM's left as its default)."""
    ruleset = registry.get(slug)
    state = ruleset.run("new-battle", EXAMPLE(slug), 1)["state"]
    participants = ruleset.run("round-participants", {"state": state})["participants"]
    picker = Picker(seed)
    answers = {}
    for p in participants:
        if p["key"] == GM:
            continue
        options = ruleset.run("declaration-options", {"state": state, "participant": p["participant"]})["options"]
        answers[p["key"]] = random_answer(options, p["default"], picker)
    return state, participants, answers


def _shapes(slug: str, state: dict, answers: dict[str, dict]) -> dict[str, dict]:
    """The same answers in the three shapes the contract names."""
    flat: dict = {}
    for answer in answers.values():
        flat.update(answer)
    merged = registry.get(slug).run("merge-declarations", {"state": state, "declarations": answers})["declarations"]
    return {ANSWERS: answers, ANSWER: flat, OBJECT: merged}


def _accepted(slug: str, state: dict, participants: list[dict], answers: dict[str, dict]) -> dict[str, dict]:
    """The answers the engine accepts one by one, with nothing else known (a refused one is left out)."""
    ruleset = registry.get(slug)
    by_key = {p["key"]: p for p in participants}
    return {key: answer for key, answer in answers.items()
            if ruleset.run("check-declaration", {"state": state, "viewer": GM, "participant": by_key[key]["participant"],
                                                 "declaration": answer})["ok"]}


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_three_shapes_give_the_same_check_and_options(slug, seed):
    ruleset = registry.get(slug)
    state, participants, drawn = _battle(slug, seed)
    answers = _accepted(slug, state, participants, drawn)
    shapes = _shapes(slug, state, answers)
    assert {declarations_shape(value) for value in shapes.values() if value} <= {ANSWERS, ANSWER, OBJECT}
    for p in participants:
        others = {key: answer for key, answer in answers.items() if key != p["key"]}
        declaration = answers.get(p["key"], p["default"])
        known = _shapes(slug, state, others) if others else {name: {} for name in shapes}
        checks, options = {}, {}
        for name, value in known.items():
            checks[name] = ruleset.run("check-declaration", {"state": state, "viewer": GM, "participant": p["participant"],
                                                             "declaration": declaration, "declarations": value})
            options[name] = ruleset.run("declaration-options", {"state": state, "participant": p["participant"],
                                                                "declarations": value})["options"]
        assert all(set(check) >= {"ok", "fields", "messages"} for check in checks.values())
        if slug not in MERGED_BY_WHO:
            assert checks[ANSWERS] == checks[ANSWER] == checks[OBJECT], p["key"]
        assert options[ANSWERS] == options[ANSWER] == options[OBJECT], p["key"]


def test_the_shapes_are_told_apart():
    assert declarations_shape(None) == declarations_shape({}) == OBJECT
    assert declarations_shape({"side:a": {"corps.n1.action": "hold"}, "gm": {}}) == ANSWERS
    assert declarations_shape({"formation:A.melee": {}}) == ANSWERS  # an id may hold a dot
    assert declarations_shape({"side:a": {"casualty_shifts": []}}) == ANSWERS  # a path may hold none
    assert declarations_shape({"gm": {"gm.weather": "rain"}}) == ANSWERS
    assert declarations_shape({"gm": {"weather": "rain"}}) == OBJECT  # the object's own gm part
    assert declarations_shape({"corps": {"n1": {}}, "gm": {}}) == OBJECT
    assert declarations_shape({"corps.n1.action": "hold"}) == ANSWER
    assert declarations_shape({"side:a": "hold"}) == OBJECT  # an answer is an object
