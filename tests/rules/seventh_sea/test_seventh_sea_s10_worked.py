"""The worked examples of the spec's section S10, as operation calls with the spec's numbers."""

import pytest

GENERAL = {"wits": 2, "strategy": 2}


def hero(**fields):
    base = {"id": "jean", "name": "Jean", "side": "a", "wits": 3, "tactics": 2, "brawn": 3, "resolve": 3}
    base.update(fields)
    return base


def army(run, a, b):
    return run("army-sheet", {"sides": {"a": {"general": GENERAL, **a}, "b": {"general": GENERAL, **b}}})["sides"]


# S10.1
def test_s10_1_fortification_counts_1000_as_5000(run):
    sides = army(run, {"troops": 1000, "fortification_level": 5}, {"troops": 2400})
    assert (sides["a"]["effective_strength"], sides["a"]["numbers_ratio"], sides["a"]["numbers_modifier"]) == (5000, 2, 5)
    assert (sides["b"]["numbers_ratio"], sides["b"]["numbers_modifier"]) == (0, 0)
    sides = army(run, {"troops": 1000, "fortification_level": 1}, {"troops": 2400})
    assert (sides["b"]["numbers_ratio"], sides["b"]["numbers_modifier"]) == (2, 5)
    assert sides["a"]["numbers_modifier"] == 0


# S10.2
@pytest.mark.parametrize("troops, ratio, modifier", [
    (1999, 1, 0), (2000, 2, 5), (3000, 3, 10), (4000, 4, 15), (5999, 5, 20), (6000, 6, 25), (13000, 13, 25)])
def test_s10_2_numerical_advantage(run, troops, ratio, modifier):
    sides = army(run, {"troops": troops}, {"troops": 1000})
    assert (sides["a"]["numbers_ratio"], sides["a"]["numbers_modifier"]) == (ratio, modifier)
    assert sides["b"]["numbers_modifier"] == 0


# S10.3
def test_s10_3_charge_salvo_36_rolls_18_dice(run):
    out = run("resolve-volley", {"salvo_level": 36, "seed": 1})
    assert (out["dice_count"], len(out["volley_roll"]), out["salvo_breakdown"]) == (18, 18, None)


def test_s10_3_seven_hits_on_the_charging_group(run):
    roll = [8, 8, 8, 8, 8, 8, 8] + [1] * 11
    out = run("resolve-volley", {
        "salvo_level": 36,
        "targets": [{"id": "hero", "kind": "hero", "tn_to_be_hit": 20},
                    {"id": "brutes", "kind": "brute_squad", "size": 5}],
        "dice": {"volley": roll, "spread": [0]}})
    assert (out["hits"], out["members"], out["hits_per_member"], out["remainder"], out["spread"]) == (7, 6, 1, 1, [0])
    assert out["targets"]["hero"]["hits"] == 2
    assert out["targets"]["brutes"] == {"kind": "brute_squad", "size": 5, "hits": 5, "killed": 5, "survivors": 0}
    other = run("resolve-volley", {
        "salvo_level": 36,
        "targets": [{"id": "hero", "kind": "hero", "tn_to_be_hit": 20},
                    {"id": "brutes", "kind": "brute_squad", "size": 5}],
        "dice": {"volley": roll, "spread": [4]}})
    assert other["targets"]["hero"]["hits"] == 1 and other["targets"]["brutes"]["hits"] == 6


# S10.4
def test_s10_4_commander_unit_salvo(run):
    out = run("resolve-volley", {"shooters": {"brute_squads": [{"size": 18, "threat": 1}], "heroes": 1}, "seed": 3})
    assert out["salvo_breakdown"] == {"brutes": 18, "squad_threat": 1, "henchmen": 0, "heroes": 3}
    assert (out["salvo_level"], out["dice_count"]) == (22, 11)
    out = run("resolve-volley", {"shooters": {"brute_squads": [{"size": 13, "threat": 1}], "heroes": 1}, "seed": 3})
    assert (out["salvo_level"], out["dice_count"]) == (17, 9)


def commander(rounds_done=0, dead=0):
    return {"type": "commander_is_dead", "rounds_done": rounds_done, "brutes_alive": 18 - dead, "brutes_dead": dead}


def test_s10_4_seven_hits_give_minus_3_and_3_reputation(run):
    out = run("advance-opportunities", {"hero": hero(commission="sergeant", effects=[commander()]),
                                        "round": {"engagement": "front_line", "personal_total": 9,
                                                  "damage_dice": 0, "commander_volley_hits": 7}})
    assert out["effect_reputation"] == 3
    assert out["general_modifiers"] == [{"side": "b", "amount": -3, "source": "commander_is_dead", "hero_id": "jean"}]
    assert out["ended"] == []


def test_s10_4_the_unit_flees_at_six_dead(run):
    out = run("advance-opportunities", {"hero": hero(commission="sergeant", effects=[commander(2, 5)]),
                                        "round": {"engagement": "engaged", "damage_dice": 1}})
    assert out["ended"] == [{"type": "commander_is_dead", "reason": "fled"}]
    assert out["hero"]["effects"] == [] and out["general_modifiers"] == []
    out = run("advance-opportunities", {"hero": hero(commission="sergeant", effects=[commander(1, 4)]),
                                        "round": {"engagement": "engaged", "damage_dice": 1}})
    assert out["ended"] == []
    assert out["hero"]["effects"] == [commander(2, 5)]


# S10.5
def carry(run, start, totals):
    """Start a message from ``start`` and advance it over rounds with these personal totals."""
    started = run("start-opportunity", {"hero": hero(last_engagement=start, opportunity_pending=True),
                                        "opportunity": {"type": "carry_the_message", "accept": True}})
    current, results = started["hero"], []
    for total in totals:
        level = current["effects"][0]["position"] if current["effects"] else None
        out = run("advance-opportunities", {"hero": current, "round": {"engagement": level, "personal_total": total}})
        results.append(out)
        current = out["hero"]
    return started, results


def test_s10_5_from_support_three_rounds_bonus_3(run):
    started, results = carry(run, "support", [10, 12, 15])
    assert started["effect"] == {"type": "carry_the_message", "rounds_done": 0, "position": "support",
                                 "destination": "front_line"}
    assert [r["ended"] for r in results[:2]] == [[], []]
    assert results[2]["ended"] == [{"type": "carry_the_message", "reason": "delivered"}]
    assert results[2]["general_modifiers"] == [{"side": "a", "amount": 3, "source": "carry_the_message",
                                                "hero_id": "jean"}]
    assert results[2]["effect_reputation"] == 3 and results[2]["hero"]["battle_reputation"] == 3


def test_s10_5_from_engaged_two_rounds_bonus_4(run):
    started, results = carry(run, "engaged", [11, 10])
    assert started["effect"]["destination"] == "support"
    assert results[1]["effect_reputation"] == 4
    assert results[1]["general_modifiers"][0]["amount"] == 4


def test_s10_5_a_total_below_10_does_not_move(run):
    _, results = carry(run, "engaged", [9])
    assert results[0]["hero"]["effects"][0]["position"] == "engaged"


def test_s10_5_seven_rounds_bonus_0(run):
    _, results = carry(run, "support", [3, 3, 3, 3, 10, 10, 10])
    assert results[-1]["ended"] == [{"type": "carry_the_message", "reason": "delivered"}]
    assert results[-1]["effect_reputation"] == 0 and results[-1]["general_modifiers"] == []
    assert results[-1]["hero"]["battle_reputation"] == 0


# S10.6
def hero_target(tn, dracheneisen=0):
    return {"id": "h", "kind": "hero", "tn_to_be_hit": tn, "dracheneisen": dracheneisen}


@pytest.mark.parametrize("tn, per_hit, row", [(5, 24, 5), (40, 3, 40), (45, 3, 40), (17, 18, 15), (100, 3, 40),
                                              (9, 24, 5), (10, 21, 10), (39, 6, 35)])
def test_s10_6_wounds_per_hit_by_tn(run, tn, per_hit, row):
    out = run("resolve-volley", {"salvo_level": 2, "targets": [hero_target(tn)], "dice": {"volley": [8]}})
    target = out["targets"]["h"]
    assert (target["tn_row"], target["flesh_wounds_per_hit"], target["flesh_wounds_added"]) == (row, per_hit, per_hit)


def test_s10_6_dracheneisen_ignores_one_of_two_hits(run):
    out = run("resolve-volley", {"salvo_level": 2, "targets": [{**hero_target(25, 1), "brawn": 2, "resolve": 2}],
                                 "dice": {"volley": [18], "wound_check:h": [9, 5]}})
    target = out["targets"]["h"]
    assert (target["hits"], target["ignored"], target["effective_hits"], target["flesh_wounds_added"]) == (2, 1, 1, 12)
    assert target["wound_check"]["tn"] == 12 and target["wound_check"]["passed"] is True
    assert (target["flesh_wounds"], target["dramatic_wounds"], target["unconscious"]) == (12, 0, False)


# S10.7
def test_s10_7_leadership_help(run, examples):
    _, battle = examples["new-battle"]
    state = battle["state"]
    state["heroes"][0]["leadership"] = 3
    out = run("resolve-round", {"state": state, "declarations": {
        "sides": {"a": {"strategy": "march"}, "b": {"strategy": "march"}},
        "heroes": {"lucie": {"engagement": "engaged", "help_general": True}}},
        "dice": {"general:a": [5, 5, 5, 5, 5], "general:b": [5, 5, 5, 5], "personal:lucie": 5}})
    rolls = out["report"]["general_rolls"]
    assert rolls["a"]["leadership_modifier"] == 3 and rolls["b"]["leadership_modifier"] == 0
    assert rolls["a"]["total"] == 10 + 3 and rolls["b"]["total"] == 15
    personal = out["report"]["heroes"]["lucie"]["personal"]
    assert personal["leadership_penalty"] == -2 and personal["total"] == 5 + 5 + 0 - 2


# S10.8
def test_s10_8_aftermath_full_and_half(run, examples):
    given, _ = examples["end-battle"]
    state = given["state"]
    state["heroes"][0].update(battle_reputation=7, reputation=0)
    state["heroes"][1].update(battle_reputation=14, reputation=0, reputation_lost=0)
    out = run("end-battle", {"state": state, "winner": "b"})
    assert out["heroes"]["gaston"]["reputation_awarded"] == 14 and out["heroes"]["gaston"]["share"] == "full"
    assert out["heroes"]["lucie"]["reputation_awarded"] == 3 and out["heroes"]["lucie"]["share"] == "half"
    nobody = run("end-battle", {"state": state, "winner": "none"})
    assert nobody["winner"] is None
    assert {h["share"] for h in nobody["heroes"].values()} == {"half"}
    assert nobody["heroes"]["gaston"]["reputation_awarded"] == 7


# S10.9
@pytest.mark.parametrize("level, per_round", [("front_line", 2), ("engaged", 1), ("support", 0), ("disengaged", 0)])
def test_s10_9_hold_the_position(run, level, per_round):
    started = run("start-opportunity", {"hero": hero(last_engagement=level, opportunity_pending=True),
                                        "opportunity": {"type": "hold_the_position", "accept": True}})
    first = run("advance-opportunities", {"hero": started["hero"], "round": {"engagement": level}})
    assert first["effect_reputation"] == per_round and first["ended"] == [] and first["general_modifiers"] == []
    second = run("advance-opportunities", {"hero": first["hero"], "round": {"engagement": level}})
    assert second["effect_reputation"] == per_round
    assert second["ended"] == [{"type": "hold_the_position", "reason": "completed"}]
    assert second["general_modifiers"] == [{"side": "a", "amount": 3, "source": "hold_the_position", "hero_id": "jean"}]
    assert second["hero"]["battle_reputation"] == 2 * per_round


# S10.10
def test_s10_10_capture_the_enemy_banner_from_the_front_line(run):
    started = run("start-opportunity", {"hero": hero(last_engagement="front_line", opportunity_pending=True),
                                        "opportunity": {"type": "capture_enemy_banner", "accept": True,
                                                        "captured": True}})
    assert started["effect"] == {"type": "capture_enemy_banner", "rounds_done": 0, "position": "engaged"}
    sheet = run("hero-sheet", {"hero": started["hero"]})
    assert sheet["all_rolls_modifier"] == -4
    current, positions, reputation, modifiers = started["hero"], [], 0, []
    for _ in range(3):
        level = current["effects"][0]["position"]
        positions.append(level)
        out = run("advance-opportunities", {"hero": current, "round": {"engagement": level, "personal_total": 5}})
        reputation += out["effect_reputation"]
        modifiers += out["general_modifiers"]
        current = out["hero"]
    assert positions == ["engaged", "disengaged", "support"]
    assert reputation == 14 and current["battle_reputation"] == 14
    assert modifiers == [{"side": "a", "amount": 5, "source": "capture_enemy_banner", "hero_id": "jean"}]
    assert current["effects"] == []


def test_s10_10_banner_minus_4_on_personal_and_wound_check(run):
    carrier = hero(effects=[{"type": "capture_enemy_banner", "rounds_done": 1, "position": "disengaged"}])
    personal = run("personal-roll", {"hero": carrier, "engagement": "disengaged", "situation": "tie",
                                     "dice": {"personal": 5}})
    assert personal["opportunity_modifier"] == -4 and personal["total"] == 5 + 5 - 4
    damage = run("apply-damage", {"hero": carrier, "damage_dice": 1, "dice": {"damage": [7], "wound_check": [9, 1, 1]}})
    assert damage["wound_check"]["modifier"] == -4 and damage["wound_check"]["total"] == 11 - 4
