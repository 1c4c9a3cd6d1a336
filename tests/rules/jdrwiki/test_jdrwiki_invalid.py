"""Invalid input: the exit-2 object with the spec's JSON paths (S9.0, S4.8, S5.2, S5.6)."""

import copy
import io
import json

import pytest

from rules import cli


def _round(s1, corps):
    return {"state": s1, "declarations": {"corps": corps}}


def test_cli_exit_2_object(jd):
    out = io.StringIO()
    code = cli.main(["jdrwiki", "army-sheet"], stdin=io.StringIO(json.dumps({"army": {}})), stdout=out)
    answer = json.loads(out.getvalue())
    assert code == 2 and set(answer) == {"error", "fields"}
    assert "army.commander" in answer["fields"] and "army.criteria" in answer["fields"]


def test_cli_runs_an_operation(jd):
    out = io.StringIO()
    code = cli.main(["jdrwiki", "damage", "--seed", "3"],
                    stdin=io.StringIO(json.dumps({"attacker_hp": 100, "characteristic_modifier": 0})), stdout=out)
    answer = json.loads(out.getvalue())
    assert code == 0 and len(answer["dice"]["damage"]) == 1 and answer["log"]


@pytest.mark.parametrize("mutate, path", [
    (lambda a: a["criteria"].update(history=3), "army.criteria.history"),
    (lambda a: a["criteria"].pop("culture"), "army.criteria.culture"),
    (lambda a: a["commander"].update(strategist_rank=3), "army.commander.strategist_rank"),
    (lambda a: a.update(talents=["brute", "iron_hand", "ruthless", "last_chance"]), "army.talents"),
    (lambda a: a.update(talents=["brute", "brute"]), "army.talents"),
    (lambda a: a.update(talents=["telepathy"]), "army.talents[0]"),
    (lambda a: a.update(units=[]), "army.units"),
    (lambda a: a.update(units=[{"value": 1, "count": 0}]), "army.units"),
    (lambda a: a["units"][1].update(value=0), "army.units[1].value"),
    (lambda a: a["commander"].update(level="6"), "army.commander.level")])
def test_s4_8_invalid_armies(jd, f1, mutate, path):
    mutate(f1)
    assert path in jd.refuse("army-sheet", {"army": f1})["fields"]


def test_tactical_advantage_may_repeat(jd, f1):
    f1["talents"] = ["tactical_advantage", "tactical_advantage"]
    assert jd.run("army-sheet", {"army": f1})["talents_used"] == 2


@pytest.mark.parametrize("hero, intervention, path", [
    ({"level": 7, "bonuses": {"morale": 2, "will": 1, "parry": 1}}, None, "hero.bonuses.morale"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1}}, None, "hero.bonuses"),
    ({"level": 3, "bonuses": {"morale": 1}}, None, "hero.bonuses"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}}, {"on_cooldown": True},
     "intervention.sacrifice"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}}, {"heroism": True},
     "intervention.heroism"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}}, {"moderation": 1},
     "intervention.dropped_bonuses"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}},
     {"moderation": 2, "dropped_bonuses": ["morale", "will", "parry", "reflex"]}, "intervention.moderation"),
    ({"level": 7, "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}}, {"support": {"mode": "cooldown"}},
     "intervention.support")])
def test_s4_9_invalid_heroes(jd, hero, intervention, path):
    payload = {"hero": hero} if intervention is None else {"hero": hero, "intervention": intervention}
    assert path in jd.refuse("hero-sheet", payload)["fields"]


def test_unknown_zones_are_refused(jd, f3):
    assert "actor_zone" in jd.refuse("terrain-modifiers", {"map": f3, "actor_zone": "z9"})["fields"]
    assert "path[1]" in jd.refuse("terrain-modifiers", {"map": f3, "actor_zone": "z1", "path": ["z2", "z9"]})["fields"]
    f3["zones"]["z1"]["neighbors"] = ["z7"]
    assert "map.zones.z1.neighbors[0]" in jd.refuse("terrain-modifiers", {"map": f3, "actor_zone": "z1"})["fields"]


def test_preparation_is_zero_or_one(jd):
    error = jd.refuse("allocate-advantage", {"advantage": 9, "allocation": {"preparation": 2}})
    assert list(error["fields"]) == ["allocation.preparation"]
    error = jd.refuse("allocate-advantage", {"advantage": 9, "allocation": {"fury": -1}})
    assert list(error["fields"]) == ["allocation.fury"]


@pytest.mark.parametrize("dice, path", [({"damage": [5]}, "dice.damage"), ({"damage": [1, 2]}, "dice.damage"),
                                        ({"damage": 3}, "dice.damage")])
def test_bad_dice_are_refused(jd, dice, path):
    error = jd.refuse("damage", {"attacker_hp": 100, "characteristic_modifier": 0, "dice": dice})
    assert list(error["fields"]) == [path]


def test_bad_d20_in_a_round(jd, s1):
    payload = {**_round(s1, {"n1": {"actions": [{"action": "espionage", "target": "s1"}]}}),
               "dice": {"n1/a0/attack": 21}}
    assert list(jd.refuse("resolve-round", payload)["fields"]) == ["dice.n1/a0/attack"]


def test_last_chance_needs_the_defender_hp(jd):
    error = jd.refuse("damage", {"attacker_hp": 100, "characteristic_modifier": 0, "defender_last_chance": True})
    assert list(error["fields"]) == ["defender_hp"]


@pytest.mark.parametrize("corps, path", [
    ({"n1": {"actions": [{"action": "massive_assault", "target": "n1"}]}}, "declarations.corps.n1.actions[0].target"),
    ({"zz": {}}, "declarations.corps.zz"),
    ({"n1": {"actions": [{"action": "massive_assault", "target": "s1"}, {"action": "subtle_assault",
                                                                         "target": "s1"}]}},
     "declarations.corps.n1.actions"),
    ({"n1": {"actions": [{"action": "pincer", "target": "s1"}, {"action": "combined_assault", "target": "s1"}],
             "defensive_counter": "s1"}}, "declarations.corps.n1.actions"),
    ({"n1": {"actions": [{"action": "move", "moves": 6, "path": ["z1"]}]}}, "declarations.corps.n1.actions[0].moves"),
    ({"n1": {"actions": [{"action": "move", "moves": 1, "path": ["z4"]}]}}, "declarations.corps.n1.actions[0].path"),
    ({"n1": {"actions": [{"action": "mining", "target": "s1"}]}}, "declarations.corps.n1.actions[0].action"),
    ({"n1": {"allocation": {"fury": 3}}}, "declarations.corps.n1.allocation"),
    ({"n1": {"actions": [{"action": "espionage", "target": "s1", "heroic": True}]}},
     "declarations.corps.n1.actions[0].heroic"),
    ({"n1": {"actions": [{"action": "modify_terrain", "zone": "z1", "characteristic": "heights",
                          "direction": "up"}]}}, "declarations.corps.n1.actions[0].characteristic"),
    ({"n1": {"actions": [{"action": "modify_terrain", "zone": "z1", "characteristic": "weather", "level": 2}]}},
     "declarations.corps.n1.actions[0].characteristic"),
    ({"n1": {"actions": [{"action": "modify_terrain", "zone": "z1", "characteristic": "cover",
                          "direction": "down"}]}}, "declarations.corps.n1.actions[0].direction"),
    ({"n1": {"actions": [{"action": "pincer", "target": "s1", "fallback": {"action": "espionage", "target": "s1"}}]}},
     "declarations.corps.n1.actions[0].fallback"),
    ({"n1": {"actions": [{"action": "espionage", "target": "s1", "as_counter": True}]}},
     "declarations.corps.n1.actions[0].as_counter"),
    ({"n1": {"actions": [{"action": "divide", "new_corps": [{"id": "n2", "zone": "z1", "hp": 900}]}]}},
     "declarations.corps.n1.actions[0].new_corps"),
    ({"n1": {"actions": [{"action": "divide", "new_corps": [{"id": "s1", "zone": "z1", "hp": 9}]}]}},
     "declarations.corps.n1.actions[0].new_corps[0].id"),
    ({"n1": {"heroes": [{"hero_id": "kavelec"}]}}, "declarations.corps.n1.heroes[0].hero_id"),
    ({"n1": {"heroes": [{"hero_id": "ildar"}], "hero_transfers": [{"hero_id": "ildar", "to_corps": "n1"}]}},
     "declarations.corps.n1.heroes[0].hero_id"),
    ({"n1": {"defensive_counter": "n1"}}, "declarations.corps.n1.defensive_counter"),
    ({"n1": {"opportune": {"mode": "category_6"}}}, "declarations.corps.n1.opportune"),
    ({"n1": {"actions": [{"action": "regroup", "with": ["s1"], "into": "n1"}]}},
     "declarations.corps.n1.actions[0].with")])
def test_s5_6_invalid_declarations(jd, s1, corps, path):
    assert path in jd.refuse("resolve-round", _round(s1, corps))["fields"]


def test_s5_6_army_declarations(jd, s1):
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"armies": {"north": {"ruthless": True}}}})
    assert list(error["fields"]) == ["declarations.armies.north.ruthless"]
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"armies": {"north": {"heroism": [
        {"pool": "army", "use": "advantage"}]}}}})
    assert list(error["fields"]) == ["declarations.armies.north.heroism"]
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"rerolls": ["n1"]}})
    assert list(error["fields"]) == ["declarations.rerolls"]


def test_in_total_melee_only_withdraw_among_manoeuvres(jd, s1):
    s1["corps"]["n1"].update(zone="z3", total_melee_with="s1")
    s1["corps"]["s1"]["total_melee_with"] = "n1"
    for action in ({"action": "charge", "target": "s1"}, {"action": "total_melee", "target": "s1"}):
        error = jd.refuse("resolve-round", _round(s1, {"n1": {"actions": [action]}}))
        assert list(error["fields"]) == ["declarations.corps.n1.actions[0].action"]


def test_ended_battle_and_wrong_phase(jd, s1):
    assert list(jd.refuse("resolve-round", {"state": {**s1, "ended": True}})["fields"]) == ["state.ended"]
    assert list(jd.refuse("roll-initiative", {"state": s1})["fields"]) == ["state.phase"]
    bad = copy.deepcopy(s1)
    bad["corps"]["n1"]["zone"] = "z9"
    assert list(jd.refuse("resolve-round", {"state": bad})["fields"]) == ["state.corps.n1.zone"]


@pytest.mark.parametrize("mutate, path", [
    (lambda p: [u.update(count=10) for a in p["armies"] for u in a["units"]], "armies"),
    (lambda p: p["armies"][1]["corps"][0].update(zone="z2"), "armies[1].corps[0].zone"),
    (lambda p: [a.update(talents=["tactical_advantage"]) for a in p["armies"]], "armies"),
    (lambda p: p["armies"][1].update(side="a"), "armies"),
    (lambda p: p["armies"][0].update(corps=[{"id": "n1", "zone": "z1", "hp": 400},
                                            {"id": "n2", "zone": "z2", "hp": 400}]), "armies[0].corps"),
    (lambda p: p["heroes"][0].update(level=3, bonuses={}), "heroes[0].level"),
    (lambda p: p["heroes"][0].update(corps_id="s1"), "heroes[0].corps_id"),
    (lambda p: p["heroes"][1]["bonuses"].update(parry=1), "heroes[1].bonuses"),
    (lambda p: p.update(start_time="25:00"), "start_time")])
def test_s5_2_invalid_setups(jd, new_battle_input, mutate, path):
    mutate(new_battle_input)
    assert path in jd.refuse("new-battle", new_battle_input)["fields"]


def test_several_corps_split_the_hit_points(jd, new_battle_input):
    new_battle_input["armies"][0]["corps"] = [{"id": "n1", "zone": "z1", "hp": 500}, {"id": "n2", "zone": "z2",
                                                                                     "hp": 400}]
    new_battle_input["dice"]["n2/initiative"] = 1
    state = jd.run("new-battle", new_battle_input)["state"]
    assert (state["corps"]["n1"]["hp"], state["corps"]["n2"]["hp"], state["corps"]["n2"]["advantage"]) == (500, 400, 2)
