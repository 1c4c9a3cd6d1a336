"""Each rule at its boundaries, with pinned dice: damage and wound checks, round resolution R0–R9."""

import pytest

from rules.errors import InvalidInput

GEN_A = [5, 5]   # general a: wits 1 strategy 1 → 2k1
GEN_B = [5, 5]


def hero(hero_id, side, **fields):
    base = {"id": hero_id, "name": hero_id.title(), "side": side, "wits": 2, "tactics": 2, "leadership": 1,
            "brawn": 2, "resolve": 2}
    base.update(fields)
    return base


@pytest.fixture
def battle(run):
    """A fresh battle: equal armies, generals 2k1, no free raises rolled, heroes lucie (a) and gaston (b)."""
    def make(*heroes, free_raises=0, wound_checks=True):
        setup = {"attacker": "a", "options": {"wound_checks": wound_checks},
                 "sides": {letter: {"troops": 1000, "general": {"wits": 1, "strategy": 1},
                                    "free_raises": free_raises} for letter in "ab"},
                 "heroes": list(heroes) or [hero("lucie", "a"), hero("gaston", "b")]}
        return run("new-battle", setup)["state"]
    return make


def rnd(run, state, heroes=None, dice=None, sides=None, adjustments=None):
    decl = {"sides": sides or {"a": {"strategy": "march"}, "b": {"strategy": "march"}}, "heroes": heroes or {}}
    if adjustments is not None:
        decl["adjustments"] = adjustments
    return run("resolve-round", {"state": state, "declarations": decl, "dice": dice or {}, "seed": 11})


def refused(call, path):
    with pytest.raises(InvalidInput) as caught:
        call()
    assert path in caught.value.fields, caught.value.fields
    return caught.value


# -- S4.10 / S4.11 ------------------------------------------------------------------
@pytest.mark.parametrize("flesh, added", [(20, 1), (21, 2), (40, 2), (41, 3)])
def test_wound_check_shortfall_boundaries(run, flesh, added):
    # Brawn 1 rolls [1]: total 1, so the shortfall is flesh - 1: 19, 20, 39, 40.
    out = run("apply-damage", {"hero": hero("h", "a", brawn=1, resolve=5), "extra_flesh_wounds": flesh,
                               "dice": {"wound_check": [1]}})
    assert out["wound_check"]["shortfall"] == flesh - 1
    assert out["wound_check"]["dramatic_wounds_added"] == added
    assert (out["flesh_wounds"], out["dramatic_wounds"]) == (0, added)


def test_wound_check_passed_at_equal_total(run):
    out = run("apply-damage", {"hero": hero("h", "a", flesh_wounds=3), "damage_dice": 1,
                               "dice": {"damage": [7], "wound_check": [6, 4]}})
    assert out["wound_check"]["passed"] is True and out["wound_check"]["shortfall"] == 0
    assert (out["flesh_wounds"], out["dramatic_wounds"]) == (10, 0)


def test_unconscious_at_twice_resolve(run):
    out = run("apply-damage", {"hero": hero("h", "a", resolve=1, dramatic_wounds=1), "extra_flesh_wounds": 5,
                               "dice": {"wound_check": [1, 1]}})
    assert (out["dramatic_wounds"], out["status"], out["taken_out"]) == (2, "unconscious", True)
    below = run("apply-damage", {"hero": hero("h", "a", resolve=2, dramatic_wounds=2), "extra_flesh_wounds": 5,
                                 "dice": {"wound_check": [1, 1]}})
    assert (below["dramatic_wounds"], below["status"], below["taken_out"]) == (3, "active", False)


def test_no_roll_and_no_check_without_damage(run):
    out = run("apply-damage", {"hero": hero("h", "a"), "damage_dice": 0})
    assert out["damage_roll"] == [] and out["wound_check"] is None and out["dice"] == {}


def test_wound_check_off(run):
    out = run("apply-damage", {"hero": hero("h", "a"), "damage_dice": 2, "wound_check": False,
                               "dice": {"damage": [9, 9]}})
    assert out["wound_check"] is None and out["flesh_wounds"] == 18 and list(out["dice"]) == ["damage"]


def test_banner_removes_the_personal_die_and_a_wound_die(run):
    bearer = hero("h", "a", brawn=1, effects=[{"type": "save_the_banner", "rounds_done": 3}])
    personal = run("personal-roll", {"hero": bearer, "engagement": "engaged", "situation": "tie",
                                     "dice": {"personal": 9}})
    assert (personal["die_rolled"], personal["die"], personal["total"]) == (False, 0, 4)
    assert personal["dice"] == {}
    damage = run("apply-damage", {"hero": bearer, "damage_dice": 1, "dice": {"damage": [3]}})
    assert damage["wound_check"]["pool"] == "0k0" and damage["wound_check"]["total"] == 0
    assert damage["dramatic_wounds"] == 1 and list(damage["dice"]) == ["damage"]


def test_unhorsed_rider_turns_lasting(run):
    early = run("hero-sheet", {"hero": hero("h", "a", effects=[{"type": "unhorsed_rider", "rounds_done": 1}])})
    late = run("hero-sheet", {"hero": hero("h", "a", effects=[{"type": "unhorsed_rider", "rounds_done": 2}])})
    assert early["personal_effect_modifier"] == -2 and late["personal_effect_modifier"] == 1
    # lasting after two rounds: a new offer may be accepted
    out = run("start-opportunity", {"hero": hero("h", "a", last_engagement="engaged", effects=[
        {"type": "unhorsed_rider", "rounds_done": 2}]), "opportunity": {"type": "medic", "accept": True}})
    assert [e["type"] for e in out["hero"]["effects"]] == ["unhorsed_rider", "medic"]


# -- S4.2, S5.4 R2, S5.5, H9 ------------------------------------------------------------
def test_tie_resets_streaks_and_keeps_the_attacker(run, battle):
    state = battle()
    state["sides"]["a"]["streak"] = 2
    state["attacker"] = "b"
    out = rnd(run, state, {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B})
    assert out["report"]["round_winner"] is None
    assert out["report"]["situations"] == {"a": "tie", "b": "tie"}
    assert out["report"]["streaks"] == {"a": 0, "b": 0}
    assert out["state"]["attacker"] == "b" and out["state"]["history"][-1]["round_winner"] is None


def test_three_consecutive_wins_end_the_battle(run, battle):
    state = battle()
    engaged = {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}}
    streaks = []
    sequence = [[9, 1], [5, 5], [9, 1], [9, 1], [9, 1]]  # a wins, tie, a wins thrice
    for index, general_a in enumerate(sequence):
        standing = {h["id"]: engaged[h["id"]] for h in state["heroes"] if h["status"] == "active"}
        out = rnd(run, state, standing, {"general:a": general_a, "general:b": [5, 5]})
        state = out["state"]
        streaks.append(out["report"]["streaks"]["a"])
        if index < 4:
            assert not state["finished"]
    assert streaks == [1, 0, 1, 2, 3]
    assert state["finished"] and state["winner"] == "a" and out["report"]["battle_over"]
    assert out["events"][-1] == {"type": "battle_won", "winner": "a"}
    assert out["report"]["heroes"]["lucie"]["personal"] is not None  # H37: the round is played in full
    refused(lambda: rnd(run, state, engaged), "state.finished")


def test_free_raises_spent_up_to_the_pool(run, battle):
    state = battle(free_raises=2)
    engaged = {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}}
    out = rnd(run, state, engaged, {"general:a": GEN_A, "general:b": GEN_B},
              {"a": {"strategy": "march", "free_raises_spent": 2}, "b": {"strategy": "march"}})
    assert out["report"]["general_rolls"]["a"]["free_raises_bonus"] == 10
    assert out["state"]["sides"]["a"]["free_raises"] == 0 and out["state"]["sides"]["b"]["free_raises"] == 2
    refused(lambda: rnd(run, state, engaged, sides={"a": {"strategy": "march", "free_raises_spent": 3},
                                                    "b": {"strategy": "march"}}),
            "declarations.sides.a.free_raises_spent")
    refused(lambda: run("general-roll", {"attacker": "a", "sides": {
        "a": {"general": {"wits": 1, "strategy": 0}, "strategy": "march", "troops": 1, "free_raises_spent": 1},
        "b": {"general": {"wits": 1, "strategy": 0}, "strategy": "march", "troops": 1}}}),
        "sides.a.free_raises_spent")


def test_gm_side_updates_change_numbers_and_terrain(run, battle):
    state = battle()
    engaged = {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}}
    out = rnd(run, state, engaged, {"general:a": GEN_A, "general:b": GEN_B},
              {"a": {"strategy": "march", "troops": 2000, "terrain": {"high_ground": True}, "gm_modifier": -7},
               "b": {"strategy": "march", "fortification_level": 3}})
    rolls = out["report"]["general_rolls"]
    assert rolls["a"]["numbers_ratio"] == 0 and rolls["b"]["numbers_ratio"] == 1  # 3000 vs 2000
    assert rolls["a"]["terrain_modifier"] == 5 and rolls["a"]["gm_modifier"] == -7
    assert out["state"]["sides"]["a"]["troops"] == 2000 and out["state"]["sides"]["b"]["fortification_level"] == 3
    assert out["state"]["sides"]["a"]["terrain"] == {"high_ground": True, "difficult_terrain": False,
                                                      "crossing_water": False}


def test_heroes_impact_next_round_and_h12_double_count(run, battle):
    state = battle(hero("lucie", "a", brawn=1, resolve=1), hero("gaston", "b"))
    out = rnd(run, state, {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 1, "damage:lucie": [9, 9, 9, 9],
               "wound_check:lucie": [1], "personal:gaston": 5, "damage:gaston": [1, 1]},
              {"a": {"strategy": "march", "npc_heroes_front_line": 2}, "b": {"strategy": "march",
                                                                           "npc_heroes_taken_out": 1}})
    side_a, side_b = out["state"]["sides"]["a"], out["state"]["sides"]["b"]
    assert out["report"]["heroes"]["lucie"]["status"] == "unconscious"
    assert (side_a["heroes_front_line_last_round"], side_a["heroes_taken_out_last_round"]) == (3, 1)
    assert (side_b["heroes_front_line_last_round"], side_b["heroes_taken_out_last_round"]) == (0, 1)
    assert {"type": "hero_taken_out", "hero_id": "lucie", "cause": "wounds"} in out["events"]
    following = rnd(run, out["state"], {"gaston": {"engagement": "support"}},
                    {"general:a": GEN_A, "general:b": GEN_B})
    assert following["report"]["general_rolls"]["a"]["hero_impact_modifier"] == 10
    assert following["report"]["general_rolls"]["b"]["hero_impact_modifier"] == -5
    assert following["report"]["heroes"]["lucie"]["participated"] is False


def test_pending_modifiers_act_once(run, battle):
    state = battle()
    state["sides"]["b"]["pending_modifiers"] = [{"amount": -3, "source": "easy_shot", "hero_id": "lucie"},
                                                {"amount": 1, "source": "push_them_back", "hero_id": "gaston"}]
    engaged = {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}}
    out = rnd(run, state, engaged, {"general:a": GEN_A, "general:b": GEN_B})
    assert out["report"]["general_rolls"]["b"]["opportunity_modifier"] == -2
    assert out["state"]["sides"]["b"]["pending_modifiers"] == []


# -- R0: opportunities and adjustments --------------------------------------------------------
def offered(state, hero_id, last="engaged"):
    for h in state["heroes"]:
        if h["id"] == hero_id:
            h.update(opportunity_pending=True, last_engagement=last)
    return state


def test_easy_shot_in_round_hits_the_enemy_roll_of_this_round(run, battle):
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support", "opportunity": {
        "type": "easy_shot", "accept": True, "attack_trait": 2, "attack_knack": 0}},
        "gaston": {"engagement": "support"}},
        {"general:a": GEN_A, "general:b": GEN_B, "easy_shot:lucie": [12, 8]})
    assert out["report"]["opportunities"]["lucie"]["attack"]["hit"] is True
    assert out["report"]["general_rolls"]["b"]["opportunity_modifier"] == -3
    assert out["report"]["round_winner"] == "a"
    assert out["report"]["heroes"]["lucie"]["reputation_gained"] == 3 + out["report"]["heroes"]["lucie"]["personal"]["reputation"]
    assert out["events"][0] == {"type": "opportunity_started", "hero_id": "lucie", "opportunity": "easy_shot"}


def test_easy_shot_miss_at_tn_minus_one(run, battle):
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support", "opportunity": {
        "type": "easy_shot", "accept": True, "attack_trait": 1, "attack_knack": 0, "tn": 20}},
        "gaston": {"engagement": "support"}},
        {"general:a": GEN_A, "general:b": GEN_B, "easy_shot:lucie": [19]})
    assert out["report"]["opportunities"]["lucie"]["attack"] == {
        "pool": "1k1", "dice": [19], "kept": [19], "modifier": 0, "total": 19, "tn": 20, "hit": False}
    assert out["report"]["general_rolls"]["b"]["opportunity_modifier"] == 0


def test_duel_lost_and_duel_won_against_a_tracked_hero(run, battle):
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support", "opportunity": {
        "type": "prepare_to_die", "accept": True, "duel_won": False}}, "gaston": {"engagement": "support"}},
        {"general:a": GEN_A, "general:b": GEN_B})
    lucie = out["report"]["heroes"]["lucie"]
    assert (lucie["status"], lucie["participated"]) == ("unconscious", False)
    assert out["report"]["general_rolls"]["a"]["opportunity_modifier"] == -3
    assert out["state"]["sides"]["a"]["heroes_taken_out_last_round"] == 1
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support", "opportunity": {
        "type": "prepare_to_die", "accept": True, "duel_won": True, "opponent_id": "gaston"}},
        "gaston": {"engagement": "support"}}, {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 3})
    assert out["report"]["heroes"]["gaston"]["status"] == "unconscious"
    assert out["report"]["general_rolls"]["b"]["opportunity_modifier"] == -3
    assert out["state"]["sides"]["b"]["heroes_taken_out_last_round"] == 1
    assert {"type": "hero_taken_out", "hero_id": "gaston", "cause": "duel"} in out["events"]


def test_duel_refused_costs_reputation_and_untracked_opponent_counts(run, battle):
    state = offered(battle(), "lucie")
    engaged = {"gaston": {"engagement": "support"}}
    out = rnd(run, state, {**engaged, "lucie": {"engagement": "support", "opportunity": {
        "type": "prepare_to_die", "accept": False, "refusal_reputation_loss": 7}}},
        {"general:a": GEN_A, "general:b": GEN_B})
    assert out["state"]["heroes"][0]["reputation_lost"] == 7
    assert out["events"][0]["type"] == "opportunity_declined"
    out = rnd(run, offered(battle(), "lucie"), {**engaged, "lucie": {"engagement": "support", "opportunity": {
        "type": "prepare_to_die", "accept": True, "duel_won": True}}}, {"general:a": GEN_A, "general:b": GEN_B})
    assert out["state"]["sides"]["b"]["heroes_taken_out_last_round"] == 1


def test_unanswered_offer_lapses(run, battle):
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B})
    assert out["report"]["opportunities"] == {"lucie": {"lapsed": True}}
    assert out["events"][0] == {"type": "opportunity_lapsed", "hero_id": "lucie", "opportunity": None}


def test_medic_rests_and_heals(run, battle):
    state = offered(battle(hero("lucie", "a", flesh_wounds=12, dramatic_wounds=2, resolve=3), hero("gaston", "b")),
                    "lucie")
    out = rnd(run, state, {"lucie": {"opportunity": {"type": "medic", "accept": True}},
                           "gaston": {"engagement": "support"}}, {"general:a": GEN_A, "general:b": GEN_B})
    lucie = out["report"]["heroes"]["lucie"]
    assert (lucie["participated"], lucie["engagement"], lucie["forced_by"], lucie["personal"]) == (
        False, None, "medic", None)
    assert (lucie["flesh_wounds"], lucie["dramatic_wounds"]) == (0, 1)
    assert lucie["effects_ended"] == [{"type": "medic", "reason": "completed"}]
    assert out["state"]["heroes"][0]["last_engagement"] is None
    refused(lambda: rnd(run, offered(battle(), "lucie"), {"lucie": {"help_general": True, "opportunity": {
        "type": "medic", "accept": True}}, "gaston": {"engagement": "support"}}),
        "declarations.heroes.lucie.help_general")


def test_push_them_back_forces_front_line_and_queues_plus_one(run, battle):
    state = offered(battle(), "lucie")
    out = rnd(run, state, {"lucie": {"engagement": "support", "opportunity": {"type": "push_them_back",
                                                                               "accept": True}},
                           "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 9, "damage:lucie": [1, 1, 1],
               "wound_check:lucie": [9, 9]})
    lucie = out["report"]["heroes"]["lucie"]
    assert (lucie["engagement"], lucie["forced_by"]) == ("front_line", "push_them_back")
    assert lucie["effect_reputation"] == 2
    assert out["state"]["sides"]["a"]["pending_modifiers"] == [
        {"amount": 1, "source": "push_them_back", "hero_id": "lucie"}]
    assert {"type": "modifier_queued", "side": "a", "amount": 1, "source": "push_them_back",
            "hero_id": "lucie"} in out["events"]
    assert out["state"]["sides"]["a"]["heroes_front_line_last_round"] == 1


def test_charge_their_ranks_volley(run, battle):
    state = offered(battle(hero("lucie", "a", brawn=3, resolve=3, dracheneisen=1), hero("gaston", "b")), "lucie")
    volley = [8, 8, 8, 8, 8, 8, 8, 8] + [1] * 10       # 8 hits over 6 members: 1 each, 2 more
    out = rnd(run, state, {"lucie": {"opportunity": {"type": "charge_their_ranks", "accept": True,
                                                     "tn_to_be_hit": 20}},
                           "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 9, "damage:lucie": [1, 1, 1],
               "wound_check:lucie": [9, 9, 9], "charge_volley:lucie": volley, "charge_spread:lucie": [0, 3],
               "charge_wound_check:lucie": [19, 9, 9]})
    charge = out["report"]["heroes"]["lucie"]["charge_volley"]
    assert (charge["salvo_level"], charge["dice_count"], charge["hits"], charge["members"]) == (36, 18, 8, 6)
    assert (charge["hits_per_member"], charge["remainder"], charge["spread"]) == (1, 2, [0, 3])
    assert (charge["hero_hits"], charge["ignored"], charge["effective_hits"]) == (2, 1, 1)
    assert (charge["flesh_wounds_per_hit"], charge["flesh_wounds_added"], charge["brutes_killed"]) == (15, 15, 5)
    assert charge["wound_check"]["tn"] == 3 + 15 and charge["wound_check"]["passed"] is True
    lucie = out["report"]["heroes"]["lucie"]
    assert lucie["effects_ended"] == [{"type": "charge_their_ranks", "reason": "completed"}]
    assert lucie["effect_reputation"] == 5


def test_commander_volley_fires_only_from_the_front_line(run, battle):
    commander = {"type": "commander_is_dead", "rounds_done": 0, "brutes_alive": 18, "brutes_dead": 0}
    state = battle(hero("lucie", "a", commission="sergeant", effects=[commander]), hero("gaston", "b"))
    out = rnd(run, state, {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 9, "damage:lucie": [1, 1, 1],
               "wound_check:lucie": [9, 9], "commander_volley:lucie": [8, 8, 8, 18, 9, 1, 1, 1, 1, 1, 1]})
    row = out["report"]["heroes"]["lucie"]
    assert row["commander_volley"] == {"brutes_alive": 18, "salvo_level": 22, "dice_count": 11,
                                       "volley_roll": [8, 8, 8, 18, 9, 1, 1, 1, 1, 1, 1], "hits": 6}
    damage_dice = row["personal"]["damage_dice"]
    assert out["state"]["sides"]["b"]["pending_modifiers"] == [
        {"amount": -3, "source": "commander_is_dead", "hero_id": "lucie"}]
    assert out["state"]["heroes"][0]["effects"][0]["brutes_dead"] == damage_dice
    assert row["effect_reputation"] == 3
    quiet = rnd(run, battle(hero("lucie", "a", commission="sergeant", effects=[commander]), hero("gaston", "b")),
                {"lucie": {"engagement": "engaged"}, "gaston": {"engagement": "support"}}, {"personal:lucie": 9})
    assert quiet["report"]["heroes"]["lucie"]["commander_volley"] is None
    assert "commander_volley:lucie" not in quiet["dice"]


def test_adjustments(run, battle):
    state = battle()
    state["heroes"][1].update(status="unconscious", dramatic_wounds=4)
    out = rnd(run, state, {"lucie": {"engagement": "support"}, "gaston": {"engagement": "engaged"}},
              {"general:a": GEN_A, "general:b": GEN_B},
              adjustments=[{"hero_id": "gaston", "dramatic_wounds": 3, "status": "active"},
                           {"hero_id": "lucie", "status": "unconscious"}])
    assert out["report"]["heroes"]["gaston"]["participated"] is True
    assert out["report"]["heroes"]["lucie"]["status"] == "unconscious"
    assert {"type": "hero_taken_out", "hero_id": "lucie", "cause": "gm"} in out["events"]
    refused(lambda: rnd(run, state, {}, adjustments=[{"hero_id": "gaston", "status": "active"}]),
            "declarations.adjustments[0].status")
    refused(lambda: rnd(run, state, {}, adjustments=[{"hero_id": "nobody"}]), "declarations.adjustments[0].hero_id")


# -- missing declarations get the default orders (docs/rules/seventh_sea.md) ------------------
def test_missing_declarations_get_the_default_orders(run, battle):
    state = battle()
    out = run("resolve-round", {"state": state, "declarations": {"sides": {"a": {"strategy": "march"}},
                                                                 "heroes": {"lucie": {"engagement": "engaged"}}},
                                "seed": 3})
    assert out["defaults_applied"] == ["side:b", "hero:gaston"]
    assert out["report"]["strategies"] == {"a": "march", "b": "in_ranks"}
    assert out["report"]["heroes"]["gaston"]["engagement"] == "support"  # he did not fight last round
    steps = [step for step in out["log"] if step["key"] == "defaults.applied"]
    assert [step["params"]["participant"] for step in steps] == ["side:b", "hero:gaston"]
    # a hero who fought last round holds his engagement
    after = rnd(run, out["state"], {"lucie": {"engagement": "front_line"}})
    assert after["defaults_applied"] == ["hero:gaston"]
    assert after["report"]["heroes"]["gaston"]["engagement"] == "support"
    fought = run("resolve-round", {"state": out["state"], "declarations": {}, "seed": 1})
    assert fought["defaults_applied"] == ["side:a", "side:b", "hero:lucie", "hero:gaston"]  # state order
    assert fought["report"]["heroes"]["lucie"]["engagement"] == "engaged"
    assert not any(step["key"] == "input.default" and "strategy" in step["params"]["field"] for step in fought["log"])
    declared = rnd(run, state, {"lucie": {"engagement": "support"}, "gaston": {"engagement": "engaged"}})
    assert declared["defaults_applied"] == []


# -- declarations refused (S9.11, H35) ------------------------------------------------------
def test_declarations_refused(run, battle):
    state = battle()
    both = {"lucie": {"engagement": "support"}, "gaston": {"engagement": "support"}}
    refused(lambda: rnd(run, state, {**both, "zed": {"engagement": "support"}}), "declarations.heroes.zed")
    refused(lambda: rnd(run, state, {**both, "lucie": {"engagement": "support", "opportunity": {
        "type": "medic", "accept": True}}}), "declarations.heroes.lucie.opportunity")
    fallen = battle()
    fallen["heroes"][0]["status"] = "unconscious"
    refused(lambda: rnd(run, fallen, both), "declarations.heroes.lucie")
    refused(lambda: run("resolve-round", {"state": state, "declarations": {"sides": {"a": {"strategy": "march"},
                                                                                      "b": {"strategy": "rush"}}}}),
            "declarations.sides.b.strategy")
    dueller = offered(battle(), "lucie")
    refused(lambda: rnd(run, dueller, {**both, "lucie": {"engagement": "support", "opportunity": {
        "type": "prepare_to_die", "accept": True, "duel_won": True, "opponent_id": "lucie"}}}),
        "declarations.heroes.lucie.opportunity.opponent_id")
    refused(lambda: rnd(run, dueller, {**both, "lucie": {"engagement": "support", "opportunity": {
        "type": "capture_enemy_banner", "accept": True}}}), "declarations.heroes.lucie.opportunity.captured")


def test_no_die_drawn_before_validation(run, battle):
    state = battle()
    error = refused(lambda: rnd(run, state, {"zed": {"engagement": "support"}}, {"general:a": [10, 1]}),
                    "declarations.heroes.zed")
    assert "dice.general:a" not in error.fields


@pytest.mark.parametrize("effect, engagement", [
    ({"type": "hold_the_position", "rounds_done": 1, "locked_engagement": "disengaged"}, "disengaged"),
    ({"type": "capture_enemy_banner", "rounds_done": 0, "position": "engaged"}, "engaged"),
    ({"type": "carry_the_message", "rounds_done": 0, "position": "support", "destination": "front_line"}, "support"),
    ({"type": "rescue_comrade", "rounds_done": 1}, "front_line"),
])
def test_effects_impose_the_engagement_over_the_declared_one(run, battle, effect, engagement):
    state = battle(hero("lucie", "a", effects=[effect]), hero("gaston", "b"))
    out = rnd(run, state, {"lucie": {"engagement": "front_line" if engagement != "front_line" else "support"},
                           "gaston": {"engagement": "support"}}, {"general:a": GEN_A, "general:b": GEN_B})
    row = out["report"]["heroes"]["lucie"]
    assert (row["engagement"], row["forced_by"]) == (engagement, effect["type"])
    assert out["state"]["heroes"][0]["last_engagement"] == engagement
    assert any(step["key"] == "engagement.forced" for step in out["log"])


def test_wound_checks_off_nobody_falls(run, battle):
    state = battle(hero("lucie", "a", brawn=1, resolve=1), hero("gaston", "b"), wound_checks=False)
    out = rnd(run, state, {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "personal:lucie": 1, "damage:lucie": [99, 99, 99, 99]})
    lucie = out["report"]["heroes"]["lucie"]
    assert lucie["damage"]["wound_check"] is None and lucie["status"] == "active"
    assert lucie["flesh_wounds"] == 396 and "wound_check:lucie" not in out["dice"]


def test_a_hero_falling_in_r5_keeps_his_round_reputation_and_loses_his_effects(run, battle):
    bearer = hero("lucie", "a", brawn=1, resolve=1, effects=[{"type": "save_the_banner", "rounds_done": 2}])
    state = battle(bearer, hero("gaston", "b"))
    out = rnd(run, state, {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "support"}},
              {"general:a": GEN_A, "general:b": GEN_B, "damage:lucie": [51, 51, 51, 51]})
    row = out["report"]["heroes"]["lucie"]
    assert row["personal"]["die_rolled"] is False and row["status"] == "unconscious"
    assert row["effects_ended"] == [{"type": "save_the_banner", "reason": "taken_out"}]
    assert row["effect_reputation"] == 1  # the banner's round is credited before it falls (H17)
    assert row["reputation_gained"] == row["personal"]["reputation"] + 1
    assert row["opportunity_pending"] is False
    assert [e["type"] for e in out["events"]].index("hero_taken_out") < [e["type"] for e in out["events"]].index(
        "opportunity_ended")
