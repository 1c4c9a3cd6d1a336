"""Hypothesis properties: invariants the spec implies, and whole battles driven by legal declarations."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.seventh_sea import ruleset, tables

ROUND_CAP = 40


def run(op, payload, seed=None):
    return ruleset.run(op, payload, seed)


def put(target, path, value):
    *parents, last = path.split(".")
    for key in parents:
        target = target.setdefault(key, {})
    target[last] = value


def pick_value(option, rng):
    if option["type"] in ("choice", "boolean"):
        return rng.choice(option["allowed"]) if option["allowed"] else None
    if option["type"] == "integer":
        return rng.randint(option["min"], min(option["max"], option["min"] + 30))
    return None


def legal_declarations(state, rng):
    """Declarations built only from ``declaration-options`` values: the GM first, then commanders, then players."""
    decl = {"sides": {}, "heroes": {}}
    gm = run("declaration-options", {"state": state, "participant": {"kind": "gm"}})
    by_path = {option["path"]: option for option in gm["options"]}
    for path, option in by_path.items():
        if path.endswith(".opportunity.type") and option["allowed"] and rng.random() < 0.85:
            kind = rng.choice(option["allowed"])
            put(decl, path, kind)
            put(decl, path.replace(".type", ".accept"), rng.random() < 0.8)
            base = path[: -len(".type")]
            for field in tables.opportunity(kind).get("gm_inputs", []):
                value = pick_value(by_path[f"{base}.{field['name']}"], rng)
                if value is not None:
                    put(decl, f"{base}.{field['name']}", value)
        elif path.endswith(".gm_modifier") and rng.random() < 0.1:
            put(decl, path, pick_value(option, rng))
    for letter in tables.SIDES:
        options = run("declaration-options", {"state": state, "participant": {"kind": "side", "id": letter}})
        for option in options["options"]:
            if option["required"] or rng.random() < 0.5:
                put(decl, option["path"], pick_value(option, rng))
    for hero in state["heroes"]:
        answer = run("declaration-options", {"state": state, "participant": {"kind": "hero", "id": hero["id"]},
                                             "declarations": decl})
        for option in answer["options"]:
            if option["path"].endswith("opportunity.accept"):
                continue  # answered with the GM's choice above
            if option["required"] or rng.random() < 0.4:
                value = pick_value(option, rng)
                if value is not None:
                    put(decl, option["path"], value)
    return decl


HERO = st.fixed_dictionaries({
    "wits": st.integers(1, 5), "tactics": st.integers(0, 5), "leadership": st.integers(0, 5),
    "brawn": st.integers(1, 5), "resolve": st.integers(1, 5),
    "unit_type": st.sampled_from(tables.UNIT_TYPES), "commission": st.sampled_from(tables.COMMISSIONS),
    "dracheneisen": st.integers(0, 5),
})
SIDE = st.fixed_dictionaries({
    "troops": st.integers(1, 100_000), "fortification_level": st.integers(1, 10),
    "general": st.fixed_dictionaries({"wits": st.integers(1, 5), "strategy": st.integers(0, 5),
                                      "incitation": st.integers(0, 5)}),
    "terrain": st.fixed_dictionaries({"high_ground": st.booleans(), "difficult_terrain": st.booleans(),
                                      "crossing_water": st.booleans()}),
})


@st.composite
def battles(draw):
    heroes = []
    for index in range(draw(st.integers(0, 5))):
        hero = draw(HERO)
        hero.update(id=f"h{index}", name=f"Hero {index}", side=draw(st.sampled_from(tables.SIDES)))
        heroes.append(hero)
    return {"attacker": draw(st.sampled_from(tables.SIDES)), "sides": {"a": draw(SIDE), "b": draw(SIDE)},
            "heroes": heroes, "options": {"wound_checks": draw(st.booleans())}}


def play(setup, seed):
    rng = random.Random(seed)
    state = run("new-battle", setup, seed)["state"]
    outputs = []
    while not state["finished"] and state["round"] < ROUND_CAP:
        out = run("resolve-round", {"state": state, "declarations": legal_declarations(state, rng)}, rng.randrange(2**32))
        outputs.append(out)
        state = out["state"]
    return state, outputs


@settings(max_examples=25, deadline=None)
@given(battles(), st.integers(0, 2**32 - 1))
def test_legal_declarations_drive_a_battle_to_its_end(setup, seed):
    state, outputs = play(setup, seed)
    assert state["finished"] or state["round"] == ROUND_CAP
    if state["finished"]:
        assert state["sides"][state["winner"]]["streak"] == 3
        assert outputs[-1]["events"][-1] == {"type": "battle_won", "winner": state["winner"]}
    for out in outputs:
        check_round_invariants(out)


def check_round_invariants(out):
    state, report = out["state"], out["report"]
    for letter in tables.SIDES:
        side = state["sides"][letter]
        assert side["free_raises"] >= 0 and side["streak"] >= 0
        assert side["rounds_won"] == sum(1 for entry in state["history"] if entry["round_winner"] == letter)
    assert len(state["history"]) == state["round"]
    for hero in state["heroes"]:
        for name in ("flesh_wounds", "dramatic_wounds", "battle_reputation", "reputation_lost"):
            assert hero[name] >= 0
        row = report["heroes"][hero["id"]]
        assert row["battle_reputation"] == hero["battle_reputation"]
        assert sum(1 for effect in hero["effects"] if effect["type"] in RUNNING_TYPES) <= 1
        if hero["status"] == "unconscious":
            assert hero["effects"] == [] and not hero["opportunity_pending"]
    # every die rolled is echoed, and replaying with those dice gives the same bytes
    general = report["general_rolls"]
    for letter in tables.SIDES:
        assert out["dice"][f"general:{letter}"] == general[letter]["dice"]


RUNNING_TYPES = {"medic", "hold_the_position", "take_the_position", "push_them_back", "rescue_comrade",
                 "capture_enemy_banner", "charge_their_ranks", "commander_is_dead", "carry_the_message"}


@settings(max_examples=10, deadline=None)
@given(battles(), st.integers(0, 2**32 - 1))
def test_same_seed_same_bytes_and_dice_replay(setup, seed):
    first = run("new-battle", setup, seed)
    assert json.dumps(first) == json.dumps(run("new-battle", setup, seed))
    rng = random.Random(seed)
    state = first["state"]
    declarations = legal_declarations(state, rng)
    out = run("resolve-round", {"state": state, "declarations": declarations}, seed)
    again = run("resolve-round", {"state": state, "declarations": declarations}, seed)
    assert json.dumps(out) == json.dumps(again)
    replay = run("resolve-round", {"state": state, "declarations": declarations, "dice": out["dice"]}, seed + 1)
    assert json.dumps(replay["state"]) == json.dumps(out["state"])
