"""The simulator played in parts (the balance's first figures) and its policies' silence for idle participants.

Parts must add up to the very figures of one run, whatever order they come
back in: the balance shows the parts' figures as final.  A participant the
engine still lists but that can no longer act (a D&D 5e unit eliminated this
round) must not be given orders the engine then refuses: that was the cause
of the D&D 5e battles ending on engine errors under the random policy.
"""

from __future__ import annotations

import copy
import runpy
from pathlib import Path

import pytest

from rules import registry
from rules.simulate import battle_figures, battle_job, battle_part, play_battles, simulate_battles
from rules.simulate_engine import Engine
from rules.simulate_policy import Chooser, Picker

HERE = Path(__file__).parent


def _seventh_sea() -> dict:
    import json

    return json.loads((HERE / "seventh_sea" / "s9_examples.json").read_text())["new-battle"][0]


def test_parts_in_any_order_give_the_figures_of_one_run():
    setup = _seventh_sea()
    whole = simulate_battles("seventh_sea", setup=setup, battles=13, seed=5, policy="random", round_cap=20)
    job = battle_job("seventh_sea", setup=setup, seed=5, policy="random", round_cap=20)
    records = [*play_battles(job, range(10, 13)), *play_battles(job, range(0, 4)),
               *battle_part("seventh_sea", setup, seed=5, policy="random", round_cap=20, indices=range(4, 10))]
    assert battle_figures(job, records) == whole
    first = battle_figures(job, play_battles(job, range(4)))
    assert first["battles"] == 4 and first != whole  # the first figures are a real, smaller sample


def _dnd_with_an_eliminated_unit() -> dict:
    """The ford example with a third unit for side B that is eliminated, as the engine leaves it after a round."""
    fixtures = runpy.run_path(str(HERE / "dnd5e" / "conftest.py"), run_name="simulate_parts_dnd5e")
    setup = copy.deepcopy(fixtures["FORD_SETUP"])
    setup.pop("dice", None)
    setup["units"]["u_c"] = {**copy.deepcopy(setup["units"]["u_b"]), "name": "Hobgoblin rear",
                             "stands": [{"id": "sc1", "profile": "hobgoblin", "position": [3, 2]}]}
    state = registry.run("dnd5e", "new-battle", setup, seed=1)["state"]
    unit = next(uid for uid in state["units"] if uid.endswith("u_c"))
    state["units"][unit]["eliminated_round"] = 1
    for stand in state["units"][unit]["stands"]:
        state["stands"][stand].update(hp=0, status="eliminated", position=None)
    return state


@pytest.mark.parametrize("policy", ["default", "random", "greedy"])
def test_a_unit_that_can_no_longer_act_gets_no_orders(policy):
    state = _dnd_with_an_eliminated_unit()
    engine = Engine("dnd5e")
    participants = engine.participants(state)
    idle = next(p for p in participants if p["key"].endswith("u_c"))
    assert not idle["must_declare"]
    assert engine.check(state, idle["participant"], idle["default"], {})  # the engine refuses its default
    for seed in range(4):
        answers = Chooser(engine, policy, Picker(seed)).answers(state, participants, {}, seed)
        assert idle["key"] not in answers
        after = engine.resolve(state, engine.merge(state, answers), seed)["state"]  # no refusal
        assert after["round"] == state["round"] + 1 or after["outcome"]["over"]
