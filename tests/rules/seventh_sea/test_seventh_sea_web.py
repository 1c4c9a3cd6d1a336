"""The two operations for the web layer: declaration-options and visible-state."""

import pytest

from rules.errors import InvalidInput
from rules.seventh_sea import tables


@pytest.fixture
def state(run):
    setup = {"attacker": "b", "sides": {
        "a": {"troops": 1000, "general": {"wits": 3, "strategy": 2, "incitation": 1},
              "quartermaster": {"name": "Q", "wits": 2, "logistics": 3}, "free_raises": 2},
        "b": {"troops": 900, "general": {"wits": 2, "strategy": 2}, "free_raises": 1}},
        "heroes": [
            {"id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "brawn": 2, "resolve": 2, "leadership": 3,
             "flesh_wounds": 7, "battle_reputation": 4, "opportunity_pending": True, "last_engagement": None},
            {"id": "gaston", "name": "Gaston", "side": "b", "wits": 2, "brawn": 2, "resolve": 2, "dramatic_wounds": 1,
             "battle_reputation": 6, "opportunity_pending": True, "last_engagement": "front_line"},
            {"id": "marc", "name": "Marc", "side": "b", "wits": 2, "brawn": 2, "resolve": 1, "dramatic_wounds": 2},
            {"id": "ines", "name": "Ines", "side": "a", "wits": 2, "brawn": 2, "resolve": 2,
             "effects": [{"type": "push_them_back", "rounds_done": 0}]},
        ]}
    return run("new-battle", setup)["state"]


def options(run, state, kind, ident="", declarations=None):
    payload = {"state": state, "participant": {"kind": kind, "id": ident}}
    if declarations is not None:
        payload["declarations"] = declarations
    out = run("declaration-options", payload)
    return out, {option["path"]: option for option in out["options"]}


def test_side_commander_options(run, state, logged):
    out, by_path = options(run, state, "side", "a")
    assert (out["round"], out["phase"], out["must_declare"]) == (1, "declarations", True)
    assert out["participant"] == {"kind": "side", "id": "a"}
    strategy = by_path["sides.a.strategy"]
    assert strategy["type"] == "choice" and strategy["allowed"] == list(tables.STRATEGIES) and strategy["required"]
    raises = by_path["sides.a.free_raises_spent"]
    assert (raises["min"], raises["max"], raises["default"]) == (0, 2, 0)
    assert raises["forbidden"][0]["value"] == 3 and raises["forbidden"][0]["rule"] == "S7.2"
    assert logged(out["log"])


def test_hero_options_free_forced_and_unconscious(run, state):
    out, by_path = options(run, state, "hero", "lucie")
    assert out["must_declare"] and by_path["heroes.lucie.engagement"]["allowed"] == list(tables.ENGAGEMENTS)
    help_general = by_path["heroes.lucie.help_general"]
    assert help_general["allowed"] == [False] and help_general["forbidden"][0]["rule"] == "S7.1"  # may be a medic
    assert "heroes.lucie.opportunity.accept" not in by_path  # the GM picks the type first (S7.3)
    _, by_path = options(run, state, "hero", "lucie", {"heroes": {"lucie": {"opportunity": {"type": "easy_shot"}}}})
    assert by_path["heroes.lucie.help_general"]["allowed"] == [False, True]
    assert by_path["heroes.lucie.opportunity.accept"]["required"]
    _, by_path = options(run, state, "hero", "ines")
    assert by_path["heroes.ines.help_general"]["allowed"] == [False, True]
    out, by_path = options(run, state, "hero", "ines")
    engagement = by_path["heroes.ines.engagement"]
    assert not out["must_declare"] and engagement["allowed"] == ["front_line"]
    assert {f["value"] for f in engagement["forbidden"]} == {"support", "disengaged", "engaged"}
    assert all(f["rule"] == "S4.12" and "push_them_back" in f["reason"] for f in engagement["forbidden"])
    out, by_path = options(run, state, "hero", "marc")
    assert not out["must_declare"] and by_path["heroes.marc.engagement"]["allowed"] == []
    assert by_path["heroes.marc.engagement"]["forbidden"][0]["rule"] == "H35"


def test_gm_opportunity_choices_follow_s7_3(run, state):
    out, by_path = options(run, state, "gm")
    assert not out["must_declare"]
    lucie = by_path["heroes.lucie.opportunity"]
    assert lucie["type"] == "object" and not lucie["required"]
    forbidden = {f["value"]["type"]: f["rule"] for f in lucie["forbidden"]}
    # no commission, and no engagement last round: those types are refused, with the rule
    assert forbidden == {"commander_is_dead": "S7.4.12", "hold_the_position": "S7.3",
                         "capture_enemy_banner": "S7.3", "carry_the_message": "S7.3"}
    assert {answer["type"] for answer in lucie["allowed"]} == set(tables.OPPORTUNITIES) - set(forbidden)
    assert {"type": "easy_shot", "accept": True, "attack_trait": 1, "attack_knack": 0} in lucie["allowed"]
    assert {"type": "prepare_to_die", "accept": False} in lucie["allowed"]
    assert "heroes.lucie.opportunity.type" not in by_path  # field by field once the draft names the type
    _, by_path = options(run, state, "gm", declarations={"heroes": {"lucie": {"opportunity": {
        "type": "prepare_to_die", "accept": True}}}})
    assert by_path["heroes.lucie.opportunity.type"]["allowed"] == ["prepare_to_die"]
    assert by_path["heroes.lucie.opportunity.opponent_id"]["allowed"] == ["gaston"]
    assert by_path["heroes.lucie.opportunity.duel_won"]["required"]
    assert by_path["heroes.lucie.opportunity.refusal_reputation_loss"]["default"] == 5
    _, by_path = options(run, state, "gm", declarations={"heroes": {"lucie": {"opportunity": {"type": "easy_shot"}}}})
    assert by_path["heroes.lucie.opportunity.tn"]["default"] == 20
    assert (by_path["heroes.lucie.opportunity.attack_trait"]["min"], by_path["heroes.lucie.opportunity.attack_trait"]["max"]) == (1, 5)
    assert "heroes.marc.gm_modifier" not in by_path
    revive = by_path["adjustments"]["forbidden"]
    assert revive[0]["value"] == {"hero_id": "marc", "status": "active"} and revive[0]["rule"] == "S7.9"
    _, with_help = options(run, state, "gm", declarations={"heroes": {"lucie": {"help_general": True}}})
    assert "medic" not in {answer["type"] for answer in with_help["heroes.lucie.opportunity"]["allowed"]}


def test_player_options_follow_the_gm_choice(run, state):
    draft = {"heroes": {"lucie": {"opportunity": {"type": "medic", "accept": True}}}}
    out, by_path = options(run, state, "hero", "lucie", draft)
    assert by_path["heroes.lucie.help_general"]["allowed"] == [False]
    assert by_path["heroes.lucie.engagement"]["allowed"] == []
    draft = {"heroes": {"lucie": {"opportunity": {"type": "easy_shot", "accept": True}}}}
    _, by_path = options(run, state, "hero", "lucie", draft)
    trait = by_path["heroes.lucie.opportunity.attack_trait"]
    assert (trait["min"], trait["max"], trait["required"]) == (1, 5, True)
    draft = {"heroes": {"gaston": {"opportunity": {"type": "charge_their_ranks", "accept": True}}}}
    out, by_path = options(run, state, "hero", "gaston", draft)
    assert by_path["heroes.gaston.engagement"]["allowed"] == ["front_line"] and not out["must_declare"]


def test_a_declaration_from_allowed_values_is_accepted(run, state):
    declarations = {"sides": {"a": {"strategy": "charge", "free_raises_spent": 2}, "b": {"strategy": "in_ranks"}},
                    "heroes": {"lucie": {"opportunity": {"type": "medic", "accept": True}},
                               "gaston": {"opportunity": {"type": "charge_their_ranks", "accept": True,
                                                          "tn_to_be_hit": 15}},
                               "ines": {"engagement": "front_line", "help_general": True}}}
    out = run("resolve-round", {"state": state, "declarations": declarations, "seed": 4})
    assert out["report"]["heroes"]["lucie"]["forced_by"] == "medic"
    assert out["report"]["heroes"]["gaston"]["engagement"] == "front_line"


def test_commander_is_the_side(run, state):
    side, _ = options(run, state, "side", "b")
    commander, _ = options(run, state, "commander", "b")
    assert commander["options"] == side["options"] and commander["participant"] == {"kind": "commander", "id": "b"}


def test_filling_every_option_with_allowed_values_is_accepted(run, state):
    """Without drafts, any value of any option, all filled at once, makes a valid round."""
    for choice in (0, -1):
        declarations = {}
        participants = [{"kind": "gm"}, {"kind": "side", "id": "a"}, {"kind": "side", "id": "b"}] + [
            {"kind": "hero", "id": hero["id"]} for hero in state["heroes"]]
        for participant in participants:
            out = run("declaration-options", {"state": state, "participant": participant})
            for option in out["options"]:
                if option["type"] in ("choice", "boolean") and option["allowed"]:
                    value = option["allowed"][choice]
                elif option["type"] == "integer":
                    value = option["min"] if choice == 0 else option["max"]
                else:
                    continue
                target = declarations
                *parents, last = option["path"].split(".")
                for key in parents:
                    target = target.setdefault(key, {})
                target[last] = value
        out = run("resolve-round", {"state": state, "declarations": declarations, "seed": choice})
        assert out["state"]["round"] == 1


def test_options_refusals_and_finished_battle(run, state):
    with pytest.raises(InvalidInput) as caught:
        options(run, state, "hero", "nobody")
    assert "participant.id" in caught.value.fields
    with pytest.raises(InvalidInput) as caught:
        options(run, state, "army", "a")
    assert "participant.kind" in caught.value.fields
    out, _ = options(run, {**state, "finished": True, "winner": "a"}, "side", "a")
    assert (out["phase"], out["must_declare"], out["options"]) == ("finished", False, [])


def test_visible_state_hides_the_enemy_secrets(run, state, logged):
    out = run("visible-state", {"state": state, "side": "a"})
    view = out["state"]
    enemy, own = view["sides"]["b"], view["sides"]["a"]
    assert "free_raises" not in enemy and "wits" not in enemy["general"] and "strategy" not in enemy["general"]
    assert own["free_raises"] == 2 and own["general"]["wits"] == 3 and own["quartermaster"]["logistics"] == 3
    assert enemy["troops"] == 900 and enemy["terrain"] == state["sides"]["b"]["terrain"]
    gaston = view["heroes"][1]
    assert gaston["status"] == "active"
    for name in ("flesh_wounds", "dramatic_wounds", "battle_reputation", "opportunity_pending"):
        assert name not in gaston
        assert f"heroes[1].{name}" in out["hidden"]
    assert view["heroes"][0]["flesh_wounds"] == 7 and view["heroes"][0]["opportunity_pending"] is True
    assert "sides.b.general.wits" in out["hidden"] and "sides.b.free_raises" in out["hidden"]
    assert not any(path.startswith("sides.a") or path.startswith("heroes[0]") for path in out["hidden"])
    assert logged(out["log"])
    other = run("visible-state", {"state": state, "side": "b"})
    assert "quartermaster" in other["state"]["sides"]["a"] and "logistics" not in other["state"]["sides"]["a"]["quartermaster"]
    assert "sides.a.quartermaster.wits" in other["hidden"] and "gaston" == other["state"]["heroes"][1]["id"]
    assert other["state"]["heroes"][1]["battle_reputation"] == 6


def test_visible_state_input_unchanged(run, state):
    import copy

    before = copy.deepcopy(state)
    run("visible-state", {"state": state, "side": "b"})
    assert state == before


def test_every_log_key_has_both_languages_with_the_same_placeholders():
    import string

    from rules.seventh_sea.messages import MESSAGES

    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "fr"}, key
        names = [{field for _, field, _, _ in string.Formatter().parse(texts[lang]) if field} for lang in ("en", "fr")]
        assert names[0] == names[1], key


def test_every_emitted_key_is_translated(run, examples):
    from rules.seventh_sea.messages import MESSAGES

    keys = set()
    for op, (given, _) in examples.items():
        if op == "resolve-round":
            given["state"] = examples["new-battle"][1]["state"]
        keys |= {step["key"] for step in run(op, given)["log"]}
    assert keys <= set(MESSAGES) and len(keys) > 20
