"""Every example of the spec's section S9, with its numbers (all fields but the log wording)."""

import pytest

OPS = ["hero-sheet", "army-sheet", "preparation-roll", "general-roll", "personal-roll", "apply-damage",
       "resolve-volley", "start-opportunity", "advance-opportunities", "new-battle", "end-battle"]


ADDED = {"outcome", "strength", "defaults_applied"}  # battle room contract fields, added to every S9 output


def without_log(output):
    """The output without its log nor the fields the battle room contract added (checked on their own)."""
    if isinstance(output, dict):
        return {key: without_log(value) for key, value in output.items() if key != "log" and key not in ADDED}
    if isinstance(output, list):
        return [without_log(value) for value in output]
    return output


@pytest.mark.parametrize("op", OPS)
def test_s9_example(op, run, examples, logged):
    given, expected = examples[op]
    output = run(op, given)
    assert without_log(output) == without_log(expected)
    assert logged(output["log"])


def test_s9_8_hold_the_position_variant(run, examples):
    given, _ = examples["start-opportunity"]
    given["opportunity"] = {"type": "hold_the_position", "accept": True}
    given.pop("dice")
    output = run("start-opportunity", given)
    assert output["effect"] == {"type": "hold_the_position", "rounds_done": 0, "locked_engagement": "engaged"}
    assert output["dice"] == {}
    assert output["hero"]["effects"] == [output["effect"]]


def test_s9_11_resolve_round_example(run, examples, logged):
    battle_input, battle_output = examples["new-battle"]
    given, expected = examples["resolve-round"]
    given["state"] = battle_output["state"]
    output = run("resolve-round", given)
    assert without_log(output) == without_log(expected)
    assert logged(output["log"])


def test_s9_11_example_state_is_the_new_battle_output(run, examples):
    battle_input, battle_output = examples["new-battle"]
    assert without_log(run("new-battle", battle_input)["state"]) == battle_output["state"]


def test_outputs_do_not_mutate_inputs(examples):
    from rules.seventh_sea import ruleset
    import copy

    for op in OPS:
        given, _ = examples[op]
        before = copy.deepcopy(given)
        ruleset.run(op, given)
        assert given == before
