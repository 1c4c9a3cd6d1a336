"""Every log key the engine emits has an English and a French template with the step's params."""

import string

from rules.synapse import ruleset
from rules.synapse.messages import MESSAGES

from .conftest import EXAMPLES


def placeholders(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_templates_of_both_languages_agree():
    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "fr"}, key
        assert placeholders(texts["en"]) == placeholders(texts["fr"]), key


def test_every_emitted_step_has_its_template(run, example, battle):
    steps = []
    for op in ruleset.operations:
        if op in ("declaration-options", "visible-state") or op not in EXAMPLES:
            continue  # the battle room operations are covered by test_synapse_contract
        payload, _ = example(op)
        steps += run(op, payload)["log"]
    steps += run("declaration-options", {"state": battle, "participant": {"kind": "gm", "id": "gm"}})["log"]
    steps += run("visible-state", {"state": battle, "side": "A"})["log"]
    retreat = run("resolve-round", {"state": battle, "declarations": {"sides": {"A": {"retreat": True}}},
                                    "dice": {"command:A": 19, "command:B": 1}})
    steps += retreat["log"]
    steps += run("experience", {"result": "defeat", "combat_base": 1})["log"]
    keys = {s["key"] for s in steps}
    assert {"command.result", "attack.losses", "status.withdrawn", "battle.over", "xp.award"} <= keys
    for step in steps:
        assert step["key"] in MESSAGES, step["key"]
        assert placeholders(MESSAGES[step["key"]]["en"]) <= set(step["params"]), step["key"]
        assert MESSAGES[step["key"]]["en"].format(**step["params"]) == step["text"]
