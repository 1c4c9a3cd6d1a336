"""Fixtures of the spec's S9.0 (F1–F4, S1) and a runner, shared by the jdrwiki tests."""

import copy
import random

import pytest

from rules.errors import InvalidInput
from rules.jdrwiki import ruleset
from rules.jdrwiki.messages import MESSAGES

F1 = {"id": "north", "name": "Ost de Loreval", "side": "a",
      "commander": {"name": "Aldric", "level": 6, "is_pc": True, "strategist_rank": 2, "force_combat_expertise": 2,
                    "deft_combat_expertise": 0, "war_arts": 1, "int": 14, "wis": 12, "cha": 16, "heroism_points": 1},
      "aides": [{"name": "Berthe", "strategist_rank": 0, "force_combat_expertise": 1, "deft_combat_expertise": 0,
                 "war_arts": 0}],
      "criteria": {"hierarchy": 1, "communication": 0, "logistics": 1, "cohesion": 1, "equipment": 2, "training": 1,
                   "motivation": 0, "mobility": 0, "diversity": -1, "melee_means": 2, "ranged_means": 0,
                   "defense_means": 1, "knowledge": 0, "culture": 0, "history": -1},
      "talents": ["brute"],
      "units": [{"name": "fantassins", "value": 1, "count": 600, "speed": 1},
                {"name": "cavaliers", "value": 3, "count": 100, "speed": 2}],
      "has_magic": False}
F2 = {"id": "south", "name": "Armée jann", "side": "b",
      "commander": {"name": "Omar", "level": 10, "is_pc": False, "strategist_rank": 0, "force_combat_expertise": 0,
                    "deft_combat_expertise": 0, "war_arts": 1, "int": 12, "wis": 10, "cha": 14, "heroism_points": 1},
      "aides": [],
      "criteria": {"hierarchy": 2, "communication": -1, "logistics": 0, "cohesion": 1, "equipment": 1, "training": 0,
                   "motivation": 1, "mobility": -1, "diversity": 0, "melee_means": 1, "ranged_means": -1,
                   "defense_means": 2, "knowledge": -1, "culture": 1, "history": 0},
      "talents": ["iron_hand"],
      "units": [{"name": "guerriers janns", "value": 2, "count": 300, "speed": 1},
                {"name": "archers", "value": 1, "count": 200, "speed": 1}],
      "has_magic": False}
F3 = {"zones": {"z1": {"neighbors": ["z2"], "terrain": {}}, "z2": {"neighbors": ["z1", "z3"], "terrain": {}},
                "z3": {"neighbors": ["z2", "z4"], "terrain": {}}, "z4": {"neighbors": ["z3"], "terrain": {}}}}
F4 = {"ildar": {"id": "ildar", "army_id": "north", "corps_id": "n1", "name": "Ildar Adeldiral", "level": 20,
                "is_pc": False, "race_power": 0, "is_commander": False,
                "bonuses": {"deft_attack": 4, "vigor": 2, "sapping": 2, "perception": 2, "damage": 3},
                "heroism_points": 1},
      "kavelec": {"id": "kavelec", "army_id": "south", "corps_id": "s1", "name": "Le Bey Kavelec", "level": 8,
                  "is_pc": False, "race_power": 5, "is_commander": False,
                  "bonuses": {"force_attack": 2, "deft_attack": -1, "parry": 2, "vigor": 2, "will": 2, "morale": 2,
                              "maneuver": -1, "sapping": -1}, "heroism_points": 1}}
S1 = {"ruleset": "jdrwiki", "round": 1, "phase": "declaration", "conflict_started": True,
      "clock": {"round_minutes": 10, "start_time": "08:00", "elapsed_minutes": 0},
      "map": F3, "armies": {"north": F1, "south": F2},
      "corps": {"n1": {"id": "n1", "army_id": "north", "zone": "z2", "hp": 900, "advantage": 2, "initiative": 25},
                "s1": {"id": "s1", "army_id": "south", "zone": "z3", "hp": 800, "advantage": 0, "initiative": 22}},
      "heroes": F4}
NEW_BATTLE = {"name": "Le gué de Loreval", "start_time": "08:00",
              "map": {"zones": {"z1": {"neighbors": ["z2"]}, "z2": {"neighbors": ["z3"]}, "z3": {"neighbors": ["z4"]},
                                "z4": {}}},
              "armies": [{**F1, "corps": [{"id": "n1", "zone": "z2"}]}, {**F2, "corps": [{"id": "s1", "zone": "z3"}]}],
              "heroes": [F4["ildar"], F4["kavelec"]],
              "dice": {"n1/initiative": 7, "s1/initiative": 19}}

RICH_BATTLE = {
    "name": "Rich", "start_time": "22:00",
    "map": {"zones": {"z1": {"neighbors": ["z2", "z5"], "terrain": {"cover": 1}},
                      "z2": {"neighbors": ["z3", "z6"], "terrain": {"heights": 1}},
                      "z3": {"neighbors": ["z4", "z6"], "terrain": {"stronghold": 2, "weather": 3}},
                      "z4": {"neighbors": ["z6"], "terrain": {"unstable_ground": 1}},
                      "z5": {"neighbors": ["z6"]}, "z6": {"terrain": {"cover": 2}}}},
    "armies": [{**F1, "talents": ["brute", "ruthless", "opportune_attack"], "has_magic": True,
                "corps": [{"id": "n1", "zone": "z2", "hp": 500}, {"id": "n2", "zone": "z1", "hp": 400}]},
               {**F2, "talents": ["hero_support", "last_chance"],
                "corps": [{"id": "s1", "zone": "z3", "hp": 500}, {"id": "s2", "zone": "z4", "hp": 300}]}],
    "heroes": [F4["ildar"], {**F4["kavelec"], "is_commander": True}],
}

@pytest.fixture
def f1():
    return copy.deepcopy(F1)


@pytest.fixture
def f2():
    return copy.deepcopy(F2)


@pytest.fixture
def f3():
    return copy.deepcopy(F3)


@pytest.fixture
def s1():
    return copy.deepcopy(S1)


@pytest.fixture
def new_battle_input():
    return copy.deepcopy(NEW_BATTLE)


def run(op, payload, seed=None):
    """Run one operation (through the ruleset itself: the registry would import every engine)."""
    return ruleset.run(op, copy.deepcopy(payload), seed=seed)


def refuse(op, payload):
    """Run an operation that must refuse its input; returns the error object."""
    with pytest.raises(InvalidInput) as caught:
        run(op, payload)
    return caught.value.as_dict()


def subset(actual, expected):
    """Every key of ``expected`` is in ``actual`` with the same value (recursively for objects)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), actual
        for key, value in expected.items():
            assert key in actual, f"missing {key}"
            subset(actual[key], value)
    else:
        assert actual == expected, (actual, expected)


def check_log(result):
    """The log is non-empty, its steps well formed, and each renders in French and English."""
    assert result["log"], "the log must not be empty"
    for step in result["log"]:
        assert set(step) == {"rule", "key", "params", "text"}
        assert step["rule"] and step["key"] and isinstance(step["params"], dict) and step["text"]
        for lang in ("en", "fr"):
            assert MESSAGES[step["key"]][lang].format(**step["params"])


def legal_declarations(state, rng):
    """Random declarations built only from what ``declaration-options`` allows (rolls initiative first).

    Returns the state in declaration phase and the declarations for ``resolve-round``.
    """
    if state["phase"] == "initiative":
        rerolls = []
        for cid in sorted(state["corps"]):
            answer = run("declaration-options", {"state": state, "participant": {"kind": "corps", "id": cid}})
            for option in answer["options"]:
                if not option["path"].startswith("rerolls[]."):
                    continue  # the corps' other declarations come after the roll
                forbidden = [f["value"] for f in option["forbidden"]]
                want = option["default"] if option["required"] else rng.random() < 0.5
                if want and want not in forbidden:
                    rerolls.append(cid)
        state = run("roll-initiative", {"state": state, "rerolls": rerolls, "seed": rng.randrange(10**6)})["state"]
    declarations = {"corps": {}, "armies": {}}
    for side in ("a", "b"):
        answer = run("declaration-options", {"state": state, "participant": {"kind": "side", "id": side}})
        by_path = {o["path"]: o for o in answer["options"]}
        for cid in sorted(c for c, v in state["corps"].items() if v["status"] == "active"):
            actions = by_path.get(f"corps.{cid}.actions")
            if actions is None:
                continue
            budget, chosen, types = actions["budget"], [], set()
            candidates = list(actions["allowed"])
            rng.shuffle(candidates)
            for action in candidates:
                kind = actions["catalogue"][action["action"]]["type"]
                cost = action.get("moves", 1) if action["action"] == "move" else actions["catalogue"][action["action"]]["cost"]
                if len(chosen) < 2 and kind not in types and cost <= budget and rng.random() < 0.6:
                    chosen.append(action)
                    types.add(kind)
                    budget -= cost
            available = state["corps"][cid]["advantage"]
            allocation = {"environment": by_path[f"corps.{cid}.allocation.environment"]["default"]}
            left = available - allocation["environment"]
            if any(a["action"] == "mining" for a in chosen):
                allocation["preparation"] = 1
                left -= 1
                if left < 0:
                    chosen = [a for a in chosen if a["action"] != "mining"]
                    allocation["preparation"], left = 0, left + 1
            allocation["fury"] = rng.randint(0, max(0, left))
            left -= allocation["fury"]
            allocation["protection"] = rng.randint(0, max(0, left))
            corps_declaration = {"actions": chosen, "allocation": allocation}
            heroes = by_path[f"corps.{cid}.heroes"]["allowed"]
            if heroes and rng.random() < 0.5:
                corps_declaration["heroes"] = [rng.choice(heroes)]
            counters = [e for e in by_path[f"corps.{cid}.defensive_counter"]["allowed"] if e is not None]
            if counters and budget >= 1 and rng.random() < 0.2:
                corps_declaration["defensive_counter"] = rng.choice(counters)
            intervening = {h["hero_id"] for h in corps_declaration.get("heroes", [])}
            transfers = [t for t in by_path[f"corps.{cid}.hero_transfers"]["allowed"] if t["hero_id"] not in intervening]
            if transfers and rng.random() < 0.2:
                corps_declaration["hero_transfers"] = [rng.choice(transfers)]
            declarations["corps"][cid] = corps_declaration
        for army_id in sorted(a for a, v in state["armies"].items() if v["side"] == side):
            army_declaration = {}
            ruthless = by_path[f"armies.{army_id}.ruthless"]
            choice = rng.random() < 0.5
            if choice not in [f["value"] for f in ruthless["forbidden"]]:
                army_declaration["ruthless"] = choice
            heroism = by_path[f"armies.{army_id}.heroism"]["allowed"]
            if heroism and rng.random() < 0.3:
                army_declaration["heroism"] = [rng.choice([h for h in heroism if h["use"] == "advantage"] or heroism)]
            army_declaration["save_from_fatal"] = rng.choice(by_path[f"armies.{army_id}.save_from_fatal"]["allowed"])
            army_declaration["withdraw"] = rng.random() < 0.02
            declarations["armies"][army_id] = army_declaration
    return state, declarations


def play(setup, seed, max_rounds=40):
    """A whole battle from ``new-battle`` with random legal declarations; returns the last state and round count."""
    rng = random.Random(seed)
    state = run("new-battle", {**setup, "dice": {}, "seed": seed})["state"]
    for played in range(1, max_rounds + 1):
        state, declarations = legal_declarations(state, rng)
        state = run("resolve-round", {"state": state, "declarations": declarations,
                                      "seed": rng.randrange(10**6)})["state"]
        if state["ended"]:
            break
    return state, played


@pytest.fixture
def jd():
    """The helpers as one object, so test modules need no import of this conftest."""
    class Helpers:
        pass
    helpers = Helpers()
    helpers.run, helpers.refuse, helpers.subset, helpers.check_log = run, refuse, subset, check_log
    helpers.F1, helpers.F2, helpers.F3, helpers.F4, helpers.S1 = F1, F2, F3, F4, S1
    helpers.NEW_BATTLE, helpers.RICH_BATTLE = NEW_BATTLE, RICH_BATTLE
    helpers.legal_declarations, helpers.play = legal_declarations, play
    return helpers
