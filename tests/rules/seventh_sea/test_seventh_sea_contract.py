"""The battle room contract (docs/battle-contract.md, docs/rules/seventh_sea.md), one operation at a time."""

import copy
import string

import pytest

from rules.errors import InvalidInput
from rules.seventh_sea import answers, tables
from rules.seventh_sea.messages import MESSAGES


def hero(hero_id, side, **fields):
    return {"id": hero_id, "name": hero_id.title(), "side": side, "wits": 2, "tactics": 1, "leadership": 2,
            "brawn": 2, "resolve": 2, **fields}


@pytest.fixture
def state(run):
    """Lucie (a) has an offer pending, Gaston (b) too and fought in the front line, Marc (b) is out for good,
    Ines (a) is pushed to the front line by her effect."""
    setup = {"attacker": "a", "sides": {
        "a": {"name": "Montaigne", "troops": 1000, "general": {"wits": 3, "strategy": 2}, "free_raises": 2},
        "b": {"name": "Castille", "troops": 900, "general": {"wits": 2, "strategy": 2}, "free_raises": 1}},
        "heroes": [hero("lucie", "a", flesh_wounds=7, opportunity_pending=True),
                   hero("gaston", "b", dramatic_wounds=1, opportunity_pending=True, last_engagement="front_line"),
                   hero("marc", "b", resolve=1, dramatic_wounds=2),
                   hero("ines", "a", effects=[{"type": "push_them_back", "rounds_done": 0}])]}
    return run("new-battle", setup)["state"]


def refused(call, path):
    with pytest.raises(InvalidInput) as caught:
        call()
    assert path in caught.value.fields, caught.value.fields
    return caught.value


def check(run, state, viewer, participant, declaration, declarations=None):
    payload = {"state": state, "viewer": viewer, "participant": participant, "declaration": declaration}
    if declarations is not None:
        payload["declarations"] = declarations
    return run("check-declaration", payload)


# -- round-participants ----------------------------------------------------------------------------
def test_round_participants_who_declares_and_their_defaults(run, state, logged):
    out = run("round-participants", {"state": state})
    assert out["round"] == 1 and logged(out["log"])
    rows = {row["key"]: row for row in out["participants"]}
    assert list(rows) == ["side:a", "side:b", "hero:lucie", "hero:gaston", "hero:marc", "hero:ines", "gm"]
    assert rows["side:a"] == {"key": "side:a", "participant": {"kind": "side", "id": "a"}, "side": "a",
                              "commands": ["a"], "name": "Montaigne", "must_declare": True,
                              "default": {"sides.a.strategy": "in_ranks"}}
    assert rows["hero:lucie"]["default"] == {"heroes.lucie.engagement": "support"}  # did not fight
    assert rows["hero:gaston"]["default"] == {"heroes.gaston.engagement": "front_line"}  # holds his level
    assert (rows["hero:marc"]["must_declare"], rows["hero:marc"]["default"]) == (False, {})  # unconscious
    assert (rows["hero:ines"]["must_declare"], rows["hero:ines"]["default"]) == (False, {})  # imposed
    assert (rows["gm"]["side"], rows["gm"]["must_declare"], rows["gm"]["participant"]) == (
        None, False, {"kind": "gm", "id": ""})
    assert out["names"] == {"a": "Montaigne", "b": "Castille", "lucie": "Lucie", "gaston": "Gaston", "marc": "Marc",
                            "ines": "Ines"}
    over = run("round-participants", {"state": {**state, "finished": True, "winner": "a"}})
    assert not any(row["must_declare"] or row["default"] for row in over["participants"])


def test_the_defaults_of_round_participants_are_what_resolve_round_applies(run, state):
    rows = run("round-participants", {"state": state})["participants"]
    merged = {}
    for row in rows:
        merged.update(row["default"])
    given = run("resolve-round", {"state": state, "declarations": merged, "seed": 5})
    empty = run("resolve-round", {"state": state, "declarations": {}, "seed": 5})
    assert given["defaults_applied"] == [] and given["state"] == empty["state"]
    assert empty["defaults_applied"] == [row["key"] for row in rows if row["must_declare"]]


# -- merge-declarations ------------------------------------------------------------------------------
def merge(run, state, answers):
    return run("merge-declarations", {"state": state, "declarations": answers})


def test_merge_joins_the_offer_and_the_answer(run, state, logged):
    out = merge(run, state, {
        "gm": {"heroes.lucie.opportunity.type": "easy_shot", "heroes.lucie.opportunity.tn": 15,
               "heroes.gaston.gm_modifier": 2, "sides.b.troops": 800, "adjustments.marc.flesh_wounds": 3},
        "side:a": {"sides.a.strategy": "charge", "sides.a.free_raises_spent": 1},
        "hero:lucie": {"heroes.lucie.engagement": "engaged", "heroes.lucie.opportunity.type": "easy_shot",
                       "heroes.lucie.opportunity.accept": True, "heroes.lucie.opportunity.attack_trait": 3,
                       "heroes.lucie.opportunity.attack_knack": 2}})
    assert out["declarations"] == {
        "adjustments": [{"hero_id": "marc", "flesh_wounds": 3}],
        "heroes": {"gaston": {"gm_modifier": 2},
                   "lucie": {"engagement": "engaged",
                             "opportunity": {"type": "easy_shot", "tn": 15, "accept": True, "attack_trait": 3,
                                             "attack_knack": 2}}},
        "sides": {"a": {"strategy": "charge", "free_raises_spent": 1}, "b": {"troops": 800}}}
    assert logged(out["log"])
    resolved = run("resolve-round", {"state": state, "declarations": out["declarations"], "seed": 2})
    assert resolved["report"]["opportunities"]["lucie"]["accepted"] is True
    assert resolved["defaults_applied"] == ["side:b", "hero:gaston"]


def test_merge_lets_stale_unanswered_and_incomplete_offers_lapse(run, state):
    stale = merge(run, state, {"gm": {"heroes.lucie.opportunity.type": "medic"},
                               "hero:lucie": {"heroes.lucie.opportunity.type": "easy_shot",
                                              "heroes.lucie.opportunity.accept": True}})
    assert stale["declarations"] == {"heroes": {"lucie": {}}}  # answered another offer: it lapses
    unanswered = merge(run, state, {"gm": {"heroes.lucie.opportunity.type": "medic"}})
    assert unanswered["declarations"] == {"heroes": {"lucie": {}}}
    duel = merge(run, state, {"gm": {"heroes.lucie.opportunity.type": "prepare_to_die"},
                              "hero:lucie": {"heroes.lucie.opportunity.accept": True}})
    assert duel["declarations"] == {"heroes": {"lucie": {}}}
    incomplete = [step for step in duel["log"] if step["key"] == "opportunity.incomplete"]
    assert incomplete[0]["params"] == {"hero_id": "lucie", "missing": ["duel_won"]}
    declined = merge(run, state, {"gm": {"heroes.lucie.opportunity.type": "prepare_to_die"},
                                  "hero:lucie": {"heroes.lucie.opportunity.accept": False}})
    assert declined["declarations"]["heroes"]["lucie"]["opportunity"] == {"type": "prepare_to_die", "accept": False}
    for_absent = merge(run, state, {"gm": {"heroes.lucie.opportunity": {"type": "medic", "accept": True}}})
    assert for_absent["declarations"]["heroes"]["lucie"]["opportunity"] == {"type": "medic", "accept": True}
    out = run("resolve-round", {"state": state, "declarations": unanswered["declarations"], "seed": 1})
    assert out["report"]["opportunities"]["lucie"] == {"lapsed": True}


def test_merge_refuses_strangers_and_foreign_paths(run, state):
    refused(lambda: merge(run, state, {"hero:zed": {}}), "declarations.hero:zed")
    refused(lambda: merge(run, state, {"side:c": {}}), "declarations.side:c")
    refused(lambda: merge(run, state, {"side:a": {"sides.b.strategy": "march"}}),
            "declarations.side:a.sides.b.strategy")
    refused(lambda: merge(run, state, {"hero:lucie": {"heroes.lucie.gm_modifier": 3}}),
            "declarations.hero:lucie.heroes.lucie.gm_modifier")
    refused(lambda: merge(run, state, {"gm": {"sides.a.strategy": "march"}}), "declarations.gm.sides.a.strategy")


def test_resolve_round_takes_merged_answers_as_they_are(run, state):
    flat = {"sides.a.strategy": "march", "sides.b.strategy": "charge", "heroes.lucie.engagement": "support",
            "heroes.gaston.engagement": "engaged", "adjustments.marc.flesh_wounds": 4}
    nested = {"sides": {"a": {"strategy": "march"}, "b": {"strategy": "charge"}},
              "heroes": {"lucie": {"engagement": "support"}, "gaston": {"engagement": "engaged"}},
              "adjustments": [{"hero_id": "marc", "flesh_wounds": 4}]}
    one = run("resolve-round", {"state": state, "declarations": flat, "seed": 9})
    two = run("resolve-round", {"state": state, "declarations": nested, "seed": 9})
    assert one["state"] == two["state"] and one["defaults_applied"] == []


# -- check-declaration --------------------------------------------------------------------------------
def test_check_refuses_what_resolution_refuses_on_the_participants_paths(run, state, logged):
    out = check(run, state, "a", {"kind": "side", "id": "a"}, {"sides.a.strategy": "march",
                                                              "sides.a.free_raises_spent": 3})
    assert not out["ok"] and list(out["fields"]) == ["sides.a.free_raises_spent"]
    message = out["messages"]["sides.a.free_raises_spent"]
    assert message == {"rule": "S7.2", "key": "refusal.free_raises_spent", "params": {"spent": 3, "available": 2},
                       "text": "3 free raises spent, but the pool holds only 2."}
    assert logged(out["log"])
    ok = check(run, state, "a", {"kind": "side", "id": "a"}, {"sides.a.strategy": "march",
                                                             "sides.a.free_raises_spent": 2})
    assert (ok["ok"], ok["fields"], ok["messages"]) == (True, {}, {})
    nested = check(run, state, "gm", {"kind": "commander", "id": "a"}, {"sides": {"a": {"strategy": "rush"}}})
    assert list(nested["fields"]) == ["sides.a.strategy"]
    assert nested["messages"]["sides.a.strategy"]["key"] == "declaration.refused"  # refused by the input's shape
    assert nested["messages"]["sides.a.strategy"]["params"]["reason"] == nested["fields"]["sides.a.strategy"]


def test_check_of_a_hero_follows_the_gm_offer(run, state):
    lucie = {"kind": "hero", "id": "lucie"}
    medic = {"gm": {"heroes.lucie.opportunity.type": "medic"}}
    helping = {"heroes.lucie.engagement": "support", "heroes.lucie.help_general": True}
    assert check(run, state, "a", lucie, helping, medic)["ok"]  # no answer yet: the offer lapses
    out = check(run, state, "a", lucie, {**helping, "heroes.lucie.opportunity.accept": True}, medic)
    assert list(out["fields"]) == ["heroes.lucie.help_general"]
    assert out["messages"]["heroes.lucie.help_general"]["key"] == "refusal.help_resting"
    shot = {"gm": {"heroes.lucie.opportunity.type": "easy_shot"}}
    out = check(run, state, "a", lucie, {"heroes.lucie.opportunity.accept": True}, shot)
    assert list(out["fields"]) == ["heroes.lucie.opportunity.attack_trait"]
    out = check(run, state, "a", lucie, {"heroes.lucie.gm_modifier": 4})
    assert out["messages"]["heroes.lucie.gm_modifier"]["key"] == "refusal.not_yours"


def test_check_of_the_gm_sees_the_offer_accepted(run, state):
    gm = {"kind": "gm", "id": ""}
    same_side = {"heroes.lucie.opportunity.type": "prepare_to_die", "heroes.lucie.opportunity.duel_won": True,
                 "heroes.lucie.opportunity.opponent_id": "ines"}
    out = check(run, state, "gm", gm, same_side)
    assert list(out["fields"]) == ["heroes.lucie.opportunity.opponent_id"]
    assert check(run, state, "gm", gm, {**same_side, "heroes.lucie.opportunity.opponent_id": "gaston"})["ok"]
    out = check(run, state, "gm", gm, {"adjustments.marc.status": "active"})
    assert list(out["fields"]) == ["adjustments.marc.status"]
    out = check(run, state, "gm", gm, {"adjustments": [{"hero_id": "marc", "status": "active"}]})
    assert list(out["fields"]) == ["adjustments[0].status"]
    assert check(run, state, "gm", gm, {"adjustments.marc.flesh_wounds": 9})["ok"]


def test_another_participants_failing_declaration_is_set_aside(run, state):
    others = {"side:b": {"sides.b.free_raises_spent": 5}, "hero:lucie": {"heroes.lucie.engagement": "warp"}}
    out = check(run, state, "gm", {"kind": "side", "id": "a"}, {"sides.a.strategy": "march"}, others)
    assert out["ok"]
    out = check(run, state, "gm", {"kind": "side", "id": "b"}, {"sides.b.free_raises_spent": 5}, others)
    assert list(out["fields"]) == ["sides.b.free_raises_spent"]


def test_a_declaration_that_makes_anothers_fail_is_refused(run, state):
    helping = {"hero:lucie": {"heroes.lucie.engagement": "support", "heroes.lucie.help_general": True}}
    medic = {"heroes.lucie.opportunity": {"type": "medic", "accept": True}}  # the GM answers for the player
    out = check(run, state, "gm", {"kind": "gm"}, medic, helping)
    assert list(out["fields"]) == ["heroes.lucie.opportunity"]
    assert out["messages"]["heroes.lucie.opportunity"]["key"] == "refusal.help_resting"
    assert check(run, state, "gm", {"kind": "gm"}, medic)["ok"]
    assert not check(run, state, "a", {"kind": "hero", "id": "lucie"}, helping["hero:lucie"], {"gm": medic})["ok"]


def test_a_side_checks_only_its_own_participants(run, state):
    refused(lambda: check(run, state, "a", {"kind": "hero", "id": "gaston"}, {}), "participant")
    refused(lambda: check(run, state, "a", {"kind": "gm"}, {}), "participant")
    refused(lambda: check(run, state, "c", {"kind": "gm"}, {}), "viewer")
    refused(lambda: check(run, state, "gm", {"kind": "hero", "id": "zed"}, {}), "participant.id")


# -- declaration-options ------------------------------------------------------------------------------
def every_option(run, state, viewer=None):
    participants = [{"kind": "gm"}] + [{"kind": "side", "id": s} for s in tables.SIDES] + [
        {"kind": "hero", "id": h["id"]} for h in state["heroes"]]
    for participant in participants:
        payload = {"state": state, "participant": participant}
        if viewer:
            payload["viewer"] = viewer
        yield from run("declaration-options", payload)["options"]


def test_every_label_and_refusal_has_its_message(run, state):
    for option in every_option(run, state):
        template = MESSAGES[option["label_key"]]["en"]
        assert template.format(**option["label_params"]) == option["label"]
        for entry in option["forbidden"]:
            assert MESSAGES[entry["key"]]["en"].format(**entry["params"]) == entry["reason"]
    for key, texts in MESSAGES.items():
        names = [{f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} for lang in ("en", "fr")]
        assert names[0] == names[1], key


def test_options_with_a_viewer(run, state):
    out = run("declaration-options", {"state": state, "participant": {"kind": "gm"}, "viewer": "gm"})
    by_path = {option["path"]: option for option in out["options"]}
    assert "adjustments" not in by_path and out["viewer"] == "gm" and out["names"]["lucie"] == "Lucie"
    status = by_path["adjustments.marc.status"]
    assert status["allowed"] == ["unconscious"] and status["forbidden"][0]["key"] == "refusal.beyond_revival"
    assert by_path["adjustments.gaston.status"]["allowed"] == list(tables.STATUSES)
    assert (by_path["adjustments.lucie.dramatic_wounds"]["min"], by_path["adjustments.lucie.dramatic_wounds"]["max"]) \
        == (0, 20)
    old = run("declaration-options", {"state": state, "participant": {"kind": "gm"}})
    assert "adjustments" in {option["path"] for option in old["options"]} and old["viewer"] is None
    refused(lambda: run("declaration-options", {"state": state, "participant": {"kind": "gm"}, "viewer": "a"}),
            "participant")
    refused(lambda: run("declaration-options", {"state": state, "participant": {"kind": "side", "id": "b"},
                                                "viewer": "a"}), "participant")


def test_options_read_answers_as_the_draft_they_make(run, state):
    draft = {"heroes": {"lucie": {"opportunity": {"type": "easy_shot", "accept": True}}}}
    keyed = {"gm": {"heroes.lucie.opportunity.type": "easy_shot"},
             "hero:lucie": {"heroes.lucie.opportunity.accept": True}}
    flat = {"heroes.lucie.opportunity.type": "easy_shot", "heroes.lucie.opportunity.accept": True}
    answers = [run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "lucie"},
                                           "declarations": given})["options"] for given in (draft, keyed, flat)]
    assert answers[0] == answers[1] == answers[2]
    assert {o["path"]: o for o in answers[0]}["heroes.lucie.opportunity.attack_trait"]["required"]


def test_a_side_never_learns_the_gm_adjustments_from_its_options(run, state):
    adjusted = {"gm": {"adjustments.lucie.clear_effects": True, "adjustments.ines.clear_effects": True}}
    plain = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "ines"},
                                        "viewer": "a"})
    seen = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "ines"},
                                       "viewer": "a", "declarations": adjusted})
    assert plain == seen
    gm = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "ines"},
                                     "viewer": "gm", "declarations": adjusted})
    assert gm["must_declare"] and not plain["must_declare"]  # her effect cleared: she chooses


# -- visible-state, outcome and strength --------------------------------------------------------------
def test_visible_state_for_a_viewer(run, state, logged):
    gm = run("visible-state", {"state": state, "viewer": "gm"})
    assert gm["hidden"] == [] and gm["state"]["heroes"][1]["flesh_wounds"] == 0 and logged(gm["log"])
    side = run("visible-state", {"state": state, "viewer": "a"})
    older = run("visible-state", {"state": state, "side": "a"})
    assert side["state"] == older["state"] and "free_raises" not in side["state"]["sides"]["b"]
    assert side["names"] == gm["names"] and side["state"]["outcome"]["over"] is False
    refused(lambda: run("visible-state", {"state": state}), "")
    refused(lambda: run("visible-state", {"state": state, "viewer": "north"}), "viewer")


def test_outcome_and_strength_through_a_battle(run, state):
    assert state["outcome"] == {"over": False, "winner": None, "tie": False, "reason": "battle.running",
                                "one_more_round": False, "gm_names_winner": True}
    assert state["strength"] == {"a": 0, "b": 0}
    out = run("resolve-round", {"state": state, "declarations": {}, "dice": {
        "general:a": [9, 9, 9, 9, 9], "general:b": [1, 1, 1, 1]}, "seed": 1})
    totals = out["state"]["history"][-1]["totals"]
    assert out["state"]["strength"] == totals
    won = copy.deepcopy(out["state"])
    won["sides"]["a"]["streak"] = 2
    third = run("resolve-round", {"state": won, "declarations": {}, "dice": {
        "general:a": [9, 9, 9, 9, 9], "general:b": [1, 1, 1, 1]}, "seed": 1})
    assert third["state"]["outcome"] == {"over": True, "winner": "a", "tie": False, "reason": "battle.won",
                                         "one_more_round": False, "gm_names_winner": False}
    ended = run("end-battle", {"state": out["state"], "winner": "none"})
    assert ended["state"]["outcome"] == {"over": True, "winner": None, "tie": False, "reason": "battle.ended",
                                         "one_more_round": False, "gm_names_winner": False}
    assert ended["state"]["strength"] == totals
    closed = run("end-battle", {"state": third["state"]})
    assert closed["state"]["outcome"]["reason"] == "battle.won"
    assert "battle.running" in MESSAGES and "battle.ended" in MESSAGES and "battle.won" in MESSAGES


# -- visible-round ------------------------------------------------------------------------------------
def test_visible_round_keeps_the_offers_with_their_side(run, state, logged):
    declarations = {"heroes.lucie.engagement": "engaged", "heroes.gaston.opportunity.type": "medic",
                    "heroes.gaston.opportunity.accept": False, "heroes.gaston.engagement": "engaged"}
    resolved = run("resolve-round", {"state": state, "declarations": declarations, "seed": 4})
    assert {"type": "opportunity_declined", "hero_id": "gaston", "opportunity": "medic"} in resolved["events"]
    seen = {viewer: run("visible-round", {"round": {**resolved, "before": state}, "viewer": viewer})
            for viewer in ("gm", "a", "b")}
    assert seen["gm"]["events"] == resolved["events"] and seen["gm"]["log"][:-1] == resolved["log"]
    secret = ("opportunity_offered", "opportunity_declined", "opportunity_lapsed")
    assert seen["b"]["events"] == [event for event in resolved["events"]
                                   if not (event["type"] in secret and event["hero_id"] in ("lucie", "ines"))]
    assert any(event["type"] == "opportunity_declined" for event in seen["b"]["events"])
    assert not any(event.get("hero_id") == "gaston" and event["type"] in ("opportunity_declined",
                                                                          "opportunity_lapsed")
                   for event in seen["a"]["events"])
    assert not any(step["key"] in ("opportunity.declined", "damage.roll", "wound_check.result")
                   and step["params"].get("hero_id") in ("gaston", "marc") for step in seen["a"]["log"])
    assert any(step["key"] == "damage.roll" and step["params"]["hero_id"] == "lucie" for step in seen["a"]["log"])
    assert seen["a"]["dice"] == resolved["dice"] and seen["a"]["defaults_applied"] == resolved["defaults_applied"]
    assert seen["a"]["names"]["gaston"] == "Gaston" and logged(seen["a"]["log"])
    refused(lambda: run("visible-round", {"round": resolved, "viewer": "x"}), "viewer")


# -- size caps ----------------------------------------------------------------------------------------
def test_inputs_over_their_caps_are_refused_by_field(run, state):
    crowd = {**state, "heroes": [hero(f"h{i}", "a") for i in range(31)]}
    refused(lambda: run("round-participants", {"state": crowd}), "state.heroes")
    refused(lambda: check(run, state, "gm", {"kind": "gm"}, {f"sides.a.x{i}": 0 for i in range(501)}),
            "declaration")
    refused(lambda: merge(run, state, {f"hero:h{i}": {} for i in range(41)}), "declarations")
    refused(lambda: run("visible-round", {"viewer": "a", "round": {"state": state, "log": [{}] * 10_001}}),
            "round.log")
    refused(lambda: run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "x" * 33}}),
            "participant.id")


def test_the_caps_show_in_the_ops_schema():
    import json

    from rules.seventh_sea import ruleset

    listing = json.dumps(ruleset.describe())
    for op in ("round-participants", "check-declaration", "merge-declarations", "visible-round"):
        assert op in ruleset.describe()["operations"]
    schemas = ruleset.describe()["operations"]
    assert schemas["merge-declarations"]["input_schema"]["properties"]["declarations"]["maxProperties"] == 40
    assert schemas["check-declaration"]["input_schema"]["properties"]["declaration"]["maxProperties"] == 500
    assert '"maxItems": 10000' in listing and '"maxLength": 80' in listing


def test_the_answer_to_an_offer_says_its_terms(run, state):
    def accept_option(declarations, kind="hero", ident="lucie"):
        out = run("declaration-options", {"state": state, "participant": {"kind": kind, "id": ident},
                                          "declarations": declarations, "viewer": "gm"})
        return {o["path"]: o for o in out["options"]}["heroes.lucie.opportunity.accept"]

    shot = accept_option({"gm": {"heroes.lucie.opportunity.type": "easy_shot", "heroes.lucie.opportunity.tn": 15}})
    assert (shot["help_key"], shot["help_params"]) == ("terms.easy_shot", {"reputation": 3, "penalty": -3, "tn": 15})
    assert shot["help"] == MESSAGES["terms.easy_shot"]["en"].format(**shot["help_params"])
    duel = accept_option({"gm": {"heroes.lucie.opportunity.type": "prepare_to_die",
                                 "heroes.lucie.opportunity.opponent_id": "gaston"}}, "gm", "")
    assert duel["help_key"] == "terms.prepare_to_die.against"
    assert duel["help_params"] == {"penalty": -3, "loss": 5, "opponent": "Gaston"}
    held = accept_option({"gm": {"heroes.lucie.opportunity.type": "capture_enemy_banner",
                                 "heroes.lucie.opportunity.captured": False}})
    assert held["help_key"] == "terms.capture_enemy_banner.held"
    for kind in tables.OPPORTUNITIES:
        if kind in ("hold_the_position", "capture_enemy_banner", "carry_the_message", "commander_is_dead"):
            continue  # Lucie did not fight last round and holds no commission (S7.3.3)
        option = accept_option({"gm": {"heroes.lucie.opportunity.type": kind}})
        assert option["help_key"] == f"terms.{kind}"
        assert MESSAGES[option["help_key"]]["en"].format(**option["help_params"]) == option["help"]


def test_each_option_says_whose_answer_holds_it(run, state):
    """S9.8 "who": asked with a viewer, every option names the participant whose answer holds it; the GM is
    offered a player's answer too (for an absent player), which the room's GM form leaves to the hero's form."""
    offered = {"gm": {"heroes.lucie.opportunity.type": "easy_shot"}}
    out = run("declaration-options", {"state": state, "participant": {"kind": "gm"}, "viewer": "gm",
                                      "declarations": offered})
    by_path = {o["path"]: o for o in out["options"]}
    assert all(o["declared_by"] == answers.owner(o["path"]) for o in out["options"])
    assert by_path["heroes.lucie.opportunity.accept"]["declared_by"] == "hero:lucie"
    assert by_path["heroes.lucie.opportunity.attack_trait"]["declared_by"] == "hero:lucie"
    assert by_path["heroes.lucie.opportunity.tn"]["declared_by"] == "gm"
    assert by_path["heroes.lucie.opportunity.type"]["declared_by"] == "gm"
    mine = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "lucie"}, "viewer": "a",
                                       "declarations": offered})
    assert {o["declared_by"] for o in mine["options"]} == {"hero:lucie"}
    side = run("declaration-options", {"state": state, "participant": {"kind": "side", "id": "a"}, "viewer": "a"})
    assert {o["declared_by"] for o in side["options"]} == {"side:a"}
    plain = run("declaration-options", {"state": state, "participant": {"kind": "gm"}})  # no viewer: as it was
    assert not any("declared_by" in o for o in plain["options"])


def test_an_answer_to_an_offer_no_longer_made_does_not_count(run, state):
    """The hero accepted the medic's offer; the GM now offers an easy shot: the acceptance is stale (S7.3.2)
    and imposes no rest; answering the offer the GM makes does."""
    def engagement(answers):
        out = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": "lucie"},
                                          "viewer": "a", "declarations": answers})
        return {o["path"]: o for o in out["options"]}["heroes.lucie.engagement"]["allowed"]

    accepted = {"heroes.lucie.opportunity.type": "medic", "heroes.lucie.opportunity.accept": True}
    assert engagement({"gm": {"heroes.lucie.opportunity.type": "medic"}, "hero:lucie": accepted}) == []  # at rest
    stale = engagement({"gm": {"heroes.lucie.opportunity.type": "easy_shot"}, "hero:lucie": accepted})
    assert stale == list(tables.ENGAGEMENTS)
