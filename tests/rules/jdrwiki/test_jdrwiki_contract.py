"""The battle room contract (docs/battle-contract.md) as JdRWiki answers it, with pinned dice and at its bounds."""

import copy

import pytest

from rules.jdrwiki.messages import MESSAGES

HERO = "corps.n1.heroes[].ildar."


def _rich(jd, seed=1):
    return jd.run("new-battle", {**jd.RICH_BATTLE, "seed": seed})["state"]


# ---------------------------------------------------------------- outcome, strength, names


def test_every_state_carries_outcome_and_strength(jd, s1):
    state = jd.run("new-battle", jd.NEW_BATTLE)["state"]
    assert state["outcome"] == {"over": False, "winner": None, "tie": False, "reason": "outcome.ongoing",
                                "one_more_round": False, "gm_names_winner": True}
    assert state["strength"] == {"a": 900, "b": 800}
    s1["corps"]["s1"]["hp"] = 1
    result = jd.run("resolve-round", {"state": s1, "declarations": {"corps": {"n1": {"actions": [
        {"action": "massive_assault", "target": "s1"}]}}}, "dice": {"n1/a0/attack": 15, "n1/a0/damage": [2]}})
    assert result["state"]["outcome"] == {"over": True, "winner": "a", "tie": False, "reason": "outcome.last_standing",
                                          "one_more_round": False, "gm_names_winner": False}
    assert result["state"]["strength"] == {"a": 900, "b": 0}  # a destroyed corps no longer counts
    for key in ("outcome.ongoing", "outcome.last_standing", "outcome.none_standing", "outcome.gm_ended"):
        assert set(MESSAGES[key]) == {"en", "fr"}


def test_visible_state_takes_a_viewer_and_hides_the_strength_it_cannot_sum(jd, s1):
    s1["map"] = copy.deepcopy(s1["map"])
    s1["map"]["zones"]["z3"]["terrain"] = {"cover": 1}
    seen = jd.run("visible-state", {"state": s1, "viewer": "a"})
    assert "hp" not in seen["state"]["corps"]["s1"]
    assert seen["state"]["strength"] == {"a": 900}  # side b's only corps stands under cover (S11.3 fog)
    assert seen["names"]["s1"] == "Armée jann" and seen["names"]["b"] == "Armée jann"
    assert jd.run("visible-state", {"state": s1, "side": "a"})["state"] == seen["state"]  # the older name
    assert jd.run("visible-state", {"state": s1, "viewer": "gm"})["state"]["strength"] == {"a": 900, "b": 800}
    assert list(jd.refuse("visible-state", {"state": s1})["fields"]) == ["viewer"]
    assert list(jd.refuse("visible-state", {"state": s1, "viewer": "c"})["fields"]) == ["viewer"]


# ---------------------------------------------------------------- round-participants and defaults


def test_round_participants_sides_heroes_and_the_gm(jd, s1):
    answer = jd.run("round-participants", {"state": s1})
    jd.check_log(answer)
    by_key = {p["key"]: p for p in answer["participants"]}
    assert list(by_key) == ["side:a", "side:b", "hero:ildar", "hero:kavelec", "gm"]
    assert by_key["side:a"] == {"key": "side:a", "participant": {"kind": "side", "id": "a"}, "side": "a",
                                "commands": ["north", "n1"], "name": "Ost de Loreval", "must_declare": False,
                                "default": {}}
    assert by_key["hero:ildar"]["side"] == "a" and by_key["hero:ildar"]["name"] == "Ildar Adeldiral"
    assert by_key["gm"]["side"] is None and answer["round"] == 1
    assert answer["names"]["n1"] == "Ost de Loreval"


def test_initiative_phase_forced_reroll_and_deficit_are_the_defaults(jd, s1):
    """Round 2 onwards starts in the initiative phase: an empty pool is re-rolled (S5.4.1), and the
    deficit after the re-roll's cost (S5.4.3: strategist rank 2, grace 0, +2) is placed on environment."""
    s1.update(phase="initiative", round=2)
    s1["corps"]["n1"].update(initiative=0, advantage=-3)
    side_a = {p["key"]: p for p in jd.run("round-participants", {"state": s1})["participants"]}["side:a"]
    assert side_a["must_declare"] is True
    assert side_a["default"] == {"rerolls[].n1": True, "corps.n1.allocation.environment": -1}
    result = jd.run("resolve-round", {"state": s1, "declarations": {}, "dice": {"n1/initiative": 4}})
    assert result["defaults_applied"] == ["side:a"]
    allocation = next(s["params"] for s in result["log"] if s["key"] == "advantage.allocation")
    assert allocation["allocation"]["environment"] == -1 and allocation["available"] == -1
    check = jd.run("check-declaration", {"state": s1, "viewer": "a", "participant": {"kind": "side", "id": "a"},
                                         "declaration": side_a["default"]})
    assert check["ok"] is True


def test_deficit_at_zero_is_no_default(jd, s1):
    s1["corps"]["n1"]["advantage"] = 0
    side_a = jd.run("round-participants", {"state": s1})["participants"][0]
    assert (side_a["must_declare"], side_a["default"]) == (False, {})
    result = jd.run("resolve-round", {"state": s1, "declarations": {}, "seed": 1})
    assert result["defaults_applied"] == []


def test_resolve_round_takes_answers(jd, s1):
    nested = {"corps": {"n1": {"actions": [{"action": "subtle_assault", "target": "s1"}], "allocation": {"focus": 2},
                               "heroes": [{"hero_id": "ildar", "heroism": True}]}}}
    flat = {"corps.n1.actions": [{"action": "subtle_assault", "target": "s1"}], "corps.n1.allocation.focus": 2,
            "corps.n1.heroes": [{"hero_id": "ildar"}], HERO + "heroism": True}
    dice = {"n1/a0/attack": 9, "n1/a0/damage": [3]}
    one = jd.run("resolve-round", {"state": s1, "declarations": nested, "dice": dice})
    two = jd.run("resolve-round", {"state": s1, "declarations": flat, "dice": dice})
    assert one == two and one["state"]["heroes"]["ildar"]["heroism_points"] == 0


# ---------------------------------------------------------------- merge-declarations


def test_merge_puts_each_hero_choice_in_his_intervention(jd, s1):
    merged = jd.run("merge-declarations", {"state": s1, "declarations": {
        "hero:ildar": {HERO + "moderation": 1, HERO + "dropped_bonuses": ["vigor", "sapping"]},
        "side:a": {"corps.n1.heroes": [{"hero_id": "ildar"}], "rerolls[].n1": False, "armies.north.withdraw": False},
        "hero:kavelec": {"corps.s1.heroes[].kavelec.heroism": True},
        "gm": {"gm.weather": {"z1": 2}}}})["declarations"]
    assert merged == {"corps": {"n1": {"heroes": [{"hero_id": "ildar", "moderation": 1,
                                                   "dropped_bonuses": ["vigor", "sapping"]}]}},
                      "armies": {"north": {"withdraw": False}}, "gm": {"weather": {"z1": 2}}}
    assert list(jd.refuse("merge-declarations", {"state": s1, "declarations": {"side:z": {}}})["fields"]) == [
        "participant.id"]
    assert list(jd.refuse("merge-declarations", {"state": s1, "declarations": {"king": {}}})["fields"]) == [
        "declarations.king"]


def test_ids_with_dots_are_cut_where_the_state_says(jd, s1):
    s1 = copy.deepcopy(s1)
    s1["corps"]["n.1"] = {**s1["corps"].pop("n1"), "id": "n.1"}
    s1["heroes"] = {"ildar": {**s1["heroes"]["ildar"], "corps_id": "n.1"}}
    merged = jd.run("merge-declarations", {"state": s1, "declarations": {
        "side:a": {"corps.n.1.allocation.focus": 1}}})["declarations"]
    assert merged == {"corps": {"n.1": {"allocation": {"focus": 1}}}}


# ---------------------------------------------------------------- declaration-options with a viewer


def test_options_with_a_viewer_carry_message_keys_and_names(jd, s1):
    plain = jd.run("declaration-options", {"state": s1, "participant": {"kind": "side", "id": "a"}})
    seen = jd.run("declaration-options", {"state": s1, "participant": {"kind": "side", "id": "a"}, "viewer": "a"})
    assert "viewer" not in plain and seen["viewer"] == "a" and seen["names"]["s1"] == "Armée jann"
    for option in seen["options"]:
        template = MESSAGES[option["label_key"]]
        assert template["en"].format(**option["label_params"]) == option["label"] and template["fr"]
        for refused in option["forbidden"]:
            assert MESSAGES[refused["key"]]["en"].format(**refused["params"]) == refused["reason"]
    assert [o["path"] for o in plain["options"]] == [o["path"] for o in seen["options"]]
    error = jd.refuse("declaration-options", {"state": s1, "participant": {"kind": "side", "id": "a"},
                                              "viewer": "b"})
    assert list(error["fields"]) == ["viewer"]


def test_dropped_bonuses_follow_the_drafted_moderation(jd, s1):
    """Review: the room offered bonuses to drop with no moderation, and resolve-round refused them (S4.10)."""
    ask = {"state": s1, "participant": {"kind": "hero", "id": "ildar"}, "viewer": "a"}
    dropped = {o["path"]: o for o in jd.run("declaration-options", ask)["options"]}[HERO + "dropped_bonuses"]
    assert dropped["allowed"] == [] and dropped["max_items"] == 0
    assert {f["key"] for f in dropped["forbidden"]} == {"refusal.dropped_without_moderation"}
    draft = {"corps.n1.heroes": [{"hero_id": "ildar"}], HERO + "moderation": 1}
    dropped = {o["path"]: o for o in jd.run("declaration-options", {**ask, "declarations": draft})["options"]}[
        HERO + "dropped_bonuses"]
    assert (dropped["min_items"], dropped["max_items"]) == (2, 2)
    assert dropped["allowed"] == ["damage", "deft_attack", "perception", "sapping", "vigor"]
    old = {o["path"]: o for o in jd.run("declaration-options", {"state": s1, "participant": {
        "kind": "hero", "id": "ildar"}})["options"]}[HERO + "dropped_bonuses"]
    assert old["allowed"] == dropped["allowed"] and "min_items" not in old  # without a viewer: as before


def test_a_heros_choices_count_once_his_side_sends_him_in(jd, s1):
    """S5.1, as merge-declarations reads the answers by participant: the moderation the hero's player chose
    gives bonuses to drop only once his commander's answer sends him in (the room used to build that draft)."""
    ask = {"state": s1, "participant": {"kind": "hero", "id": "ildar"}, "viewer": "a"}

    def limits(answers):
        dropped = {o["path"]: o for o in jd.run("declaration-options", {**ask, "declarations": answers})["options"]}[
            HERO + "dropped_bonuses"]
        return dropped["min_items"], dropped["max_items"]

    own = {"hero:ildar": {HERO + "moderation": 1}}
    assert limits({**own, "side:a": {"corps.n1.heroes": [{"hero_id": "ildar"}]}}) == (2, 2)
    assert limits({**own, "side:a": {"corps.n1.heroes": []}}) == (0, 0)  # kept out: his choices count for nothing
    assert limits(own) == (0, 0)


# ---------------------------------------------------------------- check-declaration


def _check(jd, state, declaration, participant=("side", "a"), viewer="a", declarations=None):
    payload = {"state": state, "viewer": viewer, "participant": {"kind": participant[0], "id": participant[1]},
               "declaration": declaration}
    if declarations is not None:
        payload["declarations"] = declarations
    result = jd.run("check-declaration", payload)
    jd.check_log(result)
    return result


def test_check_refuses_dropped_bonuses_without_moderation(jd, s1):
    result = _check(jd, s1, {HERO + "dropped_bonuses": ["vigor"]}, participant=("hero", "ildar"))
    assert result["ok"] is False
    assert result["fields"] == {HERO + "dropped_bonuses": "must list exactly 0 bonuses (S4.10)"}
    message = result["messages"][HERO + "dropped_bonuses"]
    assert (message["rule"], message["key"], message["params"]) == ("S4.10", "refusal.dropped_count", {"count": 0})
    assert MESSAGES[message["key"]]["en"].format(**message["params"]) == message["text"]
    good = {HERO + "moderation": 1, HERO + "dropped_bonuses": ["vigor", "sapping"]}
    assert _check(jd, s1, good, participant=("hero", "ildar"))["ok"] is True
    # The commander who sends him in while his choices are wrong is told so, and resolve-round agrees.
    known = {HERO + "dropped_bonuses": ["vigor"]}
    sent = {"corps.n1.heroes": [{"hero_id": "ildar"}]}
    refused = _check(jd, s1, sent, declarations=known)
    assert list(refused["fields"]) == ["corps.n1.heroes"]
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {**sent, **known}})
    assert list(error["fields"]) == ["declarations.corps.n1.heroes[0].dropped_bonuses"]


def test_check_costs_at_the_pool_boundary(jd, s1):
    s1["corps"]["n1"]["initiative"] = 3
    three = {"corps.n1.actions": [{"action": "push_back", "target": "s1"}]}
    assert _check(jd, s1, three)["ok"] is True
    four = {"corps.n1.actions": [{"action": "push_back", "target": "s1"}, {"action": "charge", "target": "s1"}]}
    result = _check(jd, s1, four)
    assert list(result["fields"]) == ["corps.n1.actions"] and "pool of 3" in result["fields"]["corps.n1.actions"]
    message = result["messages"]["corps.n1.actions"]
    assert (message["key"], message["params"]) == ("refusal.over_budget", {"cost": 4, "cap": 5, "pool": 3})
    assert MESSAGES["refusal.over_budget"]["en"].format(**message["params"]) == message["text"]
    nested = _check(jd, s1, {"corps": {"n1": {"actions": four["corps.n1.actions"]}}})
    assert list(nested["fields"]) == ["corps.n1.actions"]  # the declarations object's own path


def test_check_prices_a_reroll_at_its_lowest_roll(jd, s1):
    """S5.4.1–S5.4.2: a corps re-rolling a pool of 3 may end with 1 + effective initiative 13 = 14."""
    s1.update(phase="initiative", round=2)
    s1["corps"]["n1"]["initiative"] = 3
    attack = {"corps.n1.actions": [{"action": "push_back", "target": "s1"}, {"action": "charge", "target": "s1"}]}
    assert _check(jd, s1, attack)["ok"] is False  # the pool of 3 stays
    assert _check(jd, s1, {**attack, "rerolls[].n1": True})["ok"] is True
    result = jd.run("resolve-round", {"state": s1, "declarations": {**attack, "rerolls[].n1": True},
                                      "dice": {"n1/initiative": 1}, "seed": 2})
    assert result["state"]["corps"]["n1"]["initiative"] == 14 - 4


def test_check_refuses_an_allocation_over_the_advantage(jd, s1):
    result = _check(jd, s1, {"corps.n1.allocation.fury": 3})
    assert result["fields"] == {"corps.n1.allocation.fury": "allocates 3 points but only 2 are available (S4.11)"}
    assert _check(jd, s1, {"corps.n1.allocation.fury": 2})["ok"] is True


def test_check_is_for_the_viewers_own_participants(jd, s1):
    error = jd.refuse("check-declaration", {"state": s1, "viewer": "b", "participant": {"kind": "side", "id": "a"},
                                            "declaration": {}})
    assert list(error["fields"]) == ["viewer"]
    assert _check(jd, s1, {"gm.end_battle": True}, participant=("gm", "gm"), viewer="gm")["ok"] is True


def test_check_ignores_the_other_sides_declarations(jd, s1):
    """S5.5.7: a side does not know the other's choices; a broken enemy declaration is not its refusal."""
    broken = {"corps.s1.allocation.fury": 99}
    assert _check(jd, s1, {"corps.n1.allocation.focus": 1}, declarations=broken)["ok"] is True


# ---------------------------------------------------------------- visible-round


def test_visible_round_keeps_the_other_sides_secrets(jd, s1):
    s1.update(phase="initiative", round=2)
    s1["corps"]["s1"]["initiative"] = 0
    declarations = {"corps": {"s1": {"actions": [{"action": "barrage", "target": "n1"}],
                                     "allocation": {"environment": -2}},  # re-roll at strategist rank 0: -2
                              "n1": {"actions": [{"action": "subtle_assault", "target": "s1"}],
                                     "allocation": {"focus": 2}}}}
    played = jd.run("resolve-round", {"state": s1, "declarations": declarations, "seed": 5,
                                      "dice": {"s1/initiative": 7}})
    record = {**played, "before": s1}
    gm = jd.run("visible-round", {"round": record, "viewer": "gm"})
    north = jd.run("visible-round", {"round": record, "viewer": "a"})
    assert gm["dice"] == played["dice"] and "s1/initiative" not in north["dice"]
    assert [e for e in gm["events"] if e["type"] == "allocation"] and not [
        e for e in north["events"] if e["type"] == "allocation" and e["corps"] == "s1"]
    initiative = next(e for e in north["events"] if e["type"] == "initiative")
    assert initiative["corps"] == "s1" and "pool" not in initiative
    secret = [s for s in north["log"] if s["key"] in ("advantage.allocation", "initiative.roll", "advantage.change")]
    assert secret and all(s["params"]["corps"] == "n1" for s in secret)
    assert [s for s in gm["log"] if s["key"] == "advantage.allocation" and s["params"]["corps"] == "s1"]
    assert north["names"]["s1"] == "Armée jann" and north["defaults_applied"] == []
    assert north["log"][-1]["key"] == "round.filtered"


# ---------------------------------------------------------------- end-battle


def test_end_battle_the_gm_names_a_winner_only_where_the_rules_name_none(jd, s1):
    ended = jd.run("resolve-round", {"state": s1, "declarations": {"gm": {"end_battle": True}}, "seed": 1})["state"]
    assert ended["outcome"] == {"over": True, "winner": None, "tie": True, "reason": "outcome.gm_ended",
                                "one_more_round": False, "gm_names_winner": True}
    assert jd.run("battle-aftermath", {"state": ended})["winner"] is None  # unchanged beside it
    named = jd.run("end-battle", {"state": ended, "winner": "b"})
    jd.check_log(named)
    assert named["state"]["outcome"] == {"over": True, "winner": "b", "tie": False, "reason": "outcome.gm_ended",
                                         "one_more_round": False, "gm_names_winner": False}
    assert named["winner"] == "b" and named["armies"]["south"]["status"] == "victorious"
    assert named["armies"]["north"]["status"] == "standing"
    assert jd.run("end-battle", {"state": ended})["state"]["outcome"]["winner"] is None
    s1["corps"]["s1"]["status"] = "fled"
    error = jd.refuse("end-battle", {"state": s1, "winner": "b"})
    assert list(error["fields"]) == ["winner"]  # S5.15.1: side a is the only one standing
    ongoing = jd.run("end-battle", {"state": s1})
    assert ongoing["state"]["ended"] and ongoing["state"]["outcome"]["winner"] == "a"
    assert ongoing["battle_over"] is True


# ---------------------------------------------------------------- size caps


@pytest.mark.parametrize(("field", "payload_path"), [
    ("state.map.zones", ("map", "zones")), ("state.corps", ("corps",)), ("state.heroes", ("heroes",))])
def test_over_a_cap_is_refused_naming_the_field(jd, s1, field, payload_path):
    from rules.jdrwiki import entities
    state = copy.deepcopy(s1)
    node = state
    for key in payload_path:
        node = node[key]
    cap = {"zones": entities.MAX_ZONES, "corps": entities.MAX_CORPS, "heroes": entities.MAX_HEROES}[payload_path[-1]]
    template = next(iter(node.values()))
    for index in range(cap + 1 - len(node)):
        node[f"extra{index}"] = {**template, "id": f"extra{index}"}
    error = jd.refuse("round-participants", {"state": state})
    assert field in error["fields"] and "at most" in error["fields"][field]


def test_caps_are_in_the_schema():
    from rules.jdrwiki import ruleset
    schemas = ruleset.describe()["operations"]
    state = schemas["check-declaration"]["input_schema"]["$defs"]["State"]["properties"]
    assert state["corps"]["maxProperties"] and state["heroes"]["maxProperties"]
    assert schemas["visible-round"]["input_schema"]["$defs"]["RoundRecord"]["properties"]["log"]["maxItems"]


def test_check_refuses_paths_that_are_not_the_participants(jd, s1):
    """S5.1: a hero's player chooses for his hero, a side for its own armies and corps."""
    result = _check(jd, s1, {HERO + "heroism": True, "corps.n1.allocation.focus": 1}, participant=("hero", "ildar"))
    assert result["fields"] == {"corps.n1.allocation.focus": "not a choice this participant makes"}
    assert result["messages"]["corps.n1.allocation.focus"]["key"] == "refusal.not_an_option"
    assert list(_check(jd, s1, {"corps.s1.allocation.focus": 1})["fields"]) == ["corps.s1.allocation.focus"]
    assert list(_check(jd, s1, {"gm.end_battle": True})["fields"]) == ["gm.end_battle"]


@pytest.mark.parametrize("declaration", [{"corps": [1]}, {"corps.n1": 5}, {"corps.n1.actions": "x"},
                                         {"rerolls[].n1": "x"}, {"corps": {"n1": {"heroes": [3]}}}])
def test_malformed_declarations_are_refused_not_crashed(jd, s1, declaration):
    result = jd.run("check-declaration", {"state": s1, "viewer": "gm", "participant": {"kind": "side", "id": "a"},
                                          "declaration": declaration, "declarations": {"corps": 7}})
    assert result["ok"] is False and result["fields"]


def test_corps_of_one_army_are_named_by_their_rank_never_their_id(s1):
    """A lone corps takes its army's name; several corps of one army are told apart by rank (S3.4)."""
    from rules.jdrwiki.names import names

    state = copy.deepcopy(s1)
    army_id = state["corps"]["s1"]["army_id"]
    state["corps"]["s0"] = {**copy.deepcopy(state["corps"]["s1"])}
    named = names(state)
    assert named["s0"] == "Armée jann — corps 1" and named["s1"] == "Armée jann — corps 2"
    assert all("(" not in name for name in named.values()), named
    assert state["armies"][army_id]["name"] == "Armée jann"
