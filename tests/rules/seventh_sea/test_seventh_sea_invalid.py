"""Invalid input: exit 2 with the contract's object, error paths exactly as the spec writes them."""

import io
import json

import pytest

from rules import cli, registry
from rules.errors import InvalidInput
from rules.seventh_sea import ruleset

HERO = {"id": "jean", "name": "Jean", "side": "b", "wits": 3, "tactics": 2, "brawn": 2, "resolve": 2}
SIDES = {"a": {"troops": 1000, "general": {"wits": 2, "strategy": 1}},
         "b": {"troops": 1000, "general": {"wits": 2, "strategy": 1}}}


def refused(run, op, payload):
    with pytest.raises(InvalidInput) as caught:
        run(op, payload)
    assert caught.value.error and isinstance(caught.value.fields, dict)
    return caught.value.fields


@pytest.mark.parametrize("op, payload, path", [
    ("hero-sheet", {"hero": {**HERO, "wits": True}}, "hero.wits"),
    ("hero-sheet", {"hero": {**HERO, "wits": 3.0}}, "hero.wits"),
    ("hero-sheet", {"hero": {**HERO, "wits": "3"}}, "hero.wits"),
    ("hero-sheet", {"hero": {**HERO, "wits": 6}}, "hero.wits"),
    ("hero-sheet", {"hero": {**HERO, "tactics": -1}}, "hero.tactics"),
    ("hero-sheet", {"hero": {**HERO, "id": "Jean"}}, "hero.id"),
    ("hero-sheet", {"hero": {**HERO, "unit_type": "navy"}}, "hero.unit_type"),
    ("hero-sheet", {"hero": {k: v for k, v in HERO.items() if k != "brawn"}}, "hero.brawn"),
    ("hero-sheet", {"hero": {**HERO, "effects": [{"type": "hold_the_position", "rounds_done": 0}]}}, "hero.effects[0]"),
    ("hero-sheet", {"hero": {**HERO, "effects": [{"type": "medic", "rounds_done": 0},
                                                 {"type": "push_them_back", "rounds_done": 0}]}}, "hero.effects"),
    ("hero-sheet", {"hero": {**HERO, "effects": [{"type": "easy_shot", "rounds_done": 0}]}}, "hero.effects[0].type"),
    ("army-sheet", {"sides": {"a": {"general": {"wits": 2, "strategy": 1}}, "b": SIDES["b"]}}, "sides.a.troops"),
    ("army-sheet", {"sides": {**SIDES, "a": {**SIDES["a"], "troops": 0}}}, "sides.a.troops"),
    ("army-sheet", {"sides": {**SIDES, "a": {**SIDES["a"], "fortification_level": 11}}},
     "sides.a.fortification_level"),
    ("army-sheet", {"sides": {**SIDES, "b": {**SIDES["b"], "general": {"wits": 0, "strategy": 1}}}},
     "sides.b.general.wits"),
    ("new-battle", {"attacker": "c", "sides": SIDES}, "attacker"),
    ("new-battle", {"attacker": "a", "sides": SIDES, "heroes": [HERO, {**HERO, "side": "a"}]}, "heroes[1].id"),
    ("new-battle", {"attacker": "a", "sides": SIDES, "heroes": [{**HERO, "side": "c"}]}, "heroes[0].side"),
    ("new-battle", {"attacker": "a", "sides": {**SIDES, "a": {**SIDES["a"], "free_raises": 101}}},
     "sides.a.free_raises"),
    ("personal-roll", {"hero": {**HERO, "status": "unconscious"}, "engagement": "engaged", "situation": "tie"},
     "hero.status"),
    ("personal-roll", {"hero": {**HERO, "effects": [{"type": "medic", "rounds_done": 0}]}, "engagement": "engaged",
                       "situation": "tie"}, "hero.effects"),
    ("personal-roll", {"hero": HERO, "engagement": "rear", "situation": "tie"}, "engagement"),
    ("personal-roll", {"hero": HERO, "engagement": "engaged", "situation": "tie", "gm_modifier": 101},
     "gm_modifier"),
    ("apply-damage", {"hero": {**HERO, "dramatic_wounds": 4}}, "hero.status"),
    ("apply-damage", {"hero": HERO, "damage_dice": 21}, "damage_dice"),
    ("resolve-volley", {"salvo_level": 4, "shooters": {}}, "salvo_level"),
    ("resolve-volley", {}, "shooters"),
    ("resolve-volley", {"salvo_level": 2001}, "salvo_level"),
    ("resolve-volley", {"salvo_level": 4, "targets": [{"id": "x", "kind": "hero"}]}, "targets[0].tn_to_be_hit"),
    ("resolve-volley", {"salvo_level": 4, "targets": [{"id": "x", "kind": "hero", "tn_to_be_hit": 4}]},
     "targets[0].tn_to_be_hit"),
    ("resolve-volley", {"salvo_level": 4, "targets": [{"id": "x", "kind": "brute_squad"}]}, "targets[0].size"),
    ("resolve-volley", {"salvo_level": 4, "targets": [{"id": "x", "kind": "brute_squad", "size": 2},
                                                      {"id": "x", "kind": "brute_squad", "size": 2}]},
     "targets[1].id"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "easy_shot", "accept": True, "attack_trait": 2}},
     "opportunity.attack_knack"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "commander_is_dead", "accept": False}},
     "opportunity.type"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "hold_the_position", "accept": True}},
     "opportunity.type"),
    ("start-opportunity", {"hero": {**HERO, "effects": [{"type": "rescue_comrade", "rounds_done": 1}]},
                           "opportunity": {"type": "medic", "accept": True}}, "opportunity.type"),
    ("start-opportunity", {"hero": {**HERO, "effects": [{"type": "save_the_banner", "rounds_done": 1}]},
                           "opportunity": {"type": "save_the_banner", "accept": True}}, "opportunity.type"),
    ("start-opportunity", {"hero": {**HERO, "status": "unconscious"}, "opportunity": {"type": "medic",
                                                                                       "accept": True}},
     "opportunity.type"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "charge_their_ranks", "accept": True}},
     "opportunity.tn_to_be_hit"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "prepare_to_die", "accept": True}},
     "opportunity.duel_won"),
    ("start-opportunity", {"hero": HERO, "opportunity": {"type": "medic"}}, "opportunity.accept"),
    ("general-roll", {"attacker": "a", "sides": {
        "a": {"general": {"wits": 1, "strategy": 0}, "strategy": "march", "troops": 1},
        "b": {"general": {"wits": 1, "strategy": 0}, "troops": 1}}}, "sides.b.strategy"),
])
def test_error_paths(run, op, payload, path):
    assert path in refused(run, op, payload)


@pytest.mark.parametrize("dice, path", [
    ({"personal": 10}, "dice.personal"), ({"personal": 0}, "dice.personal"), ({"personal": 1000}, "dice.personal"),
    ({"personal": [5]}, "dice.personal"), ({"personal": 5.0}, "dice.personal"), ({"personal": True}, "dice.personal"),
])
def test_bad_die_value_refused(run, dice, path):
    payload = {"hero": HERO, "engagement": "engaged", "situation": "tie", "dice": dice}
    assert path in refused(run, "personal-roll", payload)


def test_bad_roll_and_keep_dice(run):
    general = {"general": {"wits": 3, "strategy": 1, "incitation": 1}}
    assert "dice.incitation" in refused(run, "preparation-roll", {**general, "dice": {"incitation": [1, 2, 3]}})
    assert "dice.incitation" in refused(run, "preparation-roll", {**general, "dice": {"incitation": [1, 2, 3, 20]}})
    assert "dice.incitation" in refused(run, "preparation-roll", {**general, "dice": {"incitation": 7}})


def test_unused_dice_are_ignored_and_not_echoed(run):
    out = run("personal-roll", {"hero": HERO, "engagement": "engaged", "situation": "tie",
                                "dice": {"personal": 5, "unused": 10}})
    assert out["dice"] == {"personal": 5}


def test_bad_spread_pick(run):
    payload = {"salvo_level": 2, "targets": [{"id": "x", "kind": "brute_squad", "size": 3}],
               "dice": {"volley": [18]}}
    assert "dice.spread" in refused(run, "resolve-volley", {**payload, "dice": {"volley": [18], "spread": [0, 0]}})
    assert "dice.spread" in refused(run, "resolve-volley", {**payload, "dice": {"volley": [18], "spread": [3, 1]}})
    assert run("resolve-volley", {**payload, "dice": {"volley": [18], "spread": [2, 0]}})["spread"] == [2, 0]


def test_end_battle_refusals(run, examples):
    given, _ = examples["end-battle"]
    state = given["state"]
    assert "winner" in refused(run, "end-battle", {"state": state})
    assert "winner" in refused(run, "end-battle", {"state": state, "winner": "c"})
    done = run("end-battle", {"state": state, "winner": "a"})["state"]
    assert "state.aftermath_applied" in refused(run, "end-battle", {"state": done})
    finished = {**state, "finished": True, "winner": "b"}
    assert "winner" in refused(run, "end-battle", {"state": finished, "winner": "a"})
    assert run("end-battle", {"state": finished})["winner"] == "b"
    assert run("end-battle", {"state": finished, "winner": "b"})["winner"] == "b"


def test_state_refusals(run, examples):
    _, battle = examples["new-battle"]
    state = battle["state"]
    decl = {"sides": {"a": {"strategy": "march"}, "b": {"strategy": "march"}}, "heroes": {"lucie": {"engagement": "support"}}}
    assert "state.ruleset" in refused(run, "resolve-round", {"state": {**state, "ruleset": "heros"}, "declarations": decl})
    twice = {**state, "heroes": state["heroes"] * 2}
    assert "state.heroes[1].id" in refused(run, "resolve-round", {"state": twice, "declarations": decl})


def test_cli_exit_2_object(monkeypatch, examples):
    monkeypatch.setattr(registry, "get", lambda slug: ruleset)
    out = io.StringIO()
    code = cli.main(["seventh_sea", "hero-sheet"], stdin=io.StringIO(json.dumps({"hero": {**HERO, "wits": 9}})),
                    stdout=out)
    answer = json.loads(out.getvalue())
    assert code == 2 and set(answer) == {"error", "fields"} and "hero.wits" in answer["fields"]
    out = io.StringIO()
    given, expected = examples["personal-roll"]
    assert cli.main(["seventh_sea", "personal-roll"], stdin=io.StringIO(json.dumps(given)), stdout=out) == 0
    assert json.loads(out.getvalue())["total"] == expected["total"]
