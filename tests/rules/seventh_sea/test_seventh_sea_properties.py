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
    if option["type"] in ("choice", "boolean", "object"):
        return rng.choice(option["allowed"]) if option["allowed"] else None
    if option["type"] == "integer":
        return rng.randint(option["min"], min(option["max"], option["min"] + 30))
    return None


def legal_declarations(state, rng):
    """Declarations built only from ``declaration-options`` values: the GM first, then commanders, then players."""
    decl = {"sides": {}, "heroes": {}, "adjustments": []}
    gm = run("declaration-options", {"state": state, "participant": {"kind": "gm"}})
    adjustments = {option["path"]: option for option in gm["options"]}["adjustments"]
    if adjustments["allowed"] and rng.random() < 0.15:
        hero_id = rng.choice(adjustments["allowed"])
        change = rng.choice([{"flesh_wounds": rng.randint(0, 30)}, {"status": "unconscious"},
                             {"clear_effects": True}, {"status": "active"}])
        if {"hero_id": hero_id, **change} not in [f["value"] for f in adjustments["forbidden"]]:
            decl["adjustments"].append({"hero_id": hero_id, **change})
    gm = run("declaration-options", {"state": state, "participant": {"kind": "gm"}, "declarations": decl})
    for option in gm["options"]:
        if option["path"].endswith(".opportunity") and option["allowed"] and rng.random() < 0.85:
            put(decl, option["path"], dict(rng.choice(option["allowed"])))
    gm = run("declaration-options", {"state": state, "participant": {"kind": "gm"}, "declarations": decl})
    for option in gm["options"]:
        path = option["path"]
        if ".opportunity." in path and not path.endswith((".type", ".accept")) and rng.random() < 0.7:
            value = pick_value(option, rng)  # the GM's inputs of the chosen type, and the player's for him
            if value is not None:
                put(decl, path, value)
        elif path.startswith("sides.") and rng.random() < 0.05:
            put(decl, path, pick_value(option, rng))  # GM updates: troops, fortification, terrain, NPC counts
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
        declarations = legal_declarations(state, rng)
        out = run("resolve-round", {"state": state, "declarations": declarations}, rng.randrange(2**32))
        check_conservation(state, declarations, out)
        outputs.append(out)
        state = out["state"]
    return state, outputs


def check_conservation(before, declarations, out):
    """Pools shrink by what is spent; Reputation grows by what the report says was gained."""
    after = out["state"]
    for letter in tables.SIDES:
        spent = declarations["sides"][letter].get("free_raises_spent", 0)
        assert after["sides"][letter]["free_raises"] == before["sides"][letter]["free_raises"] - spent
    assert after["round"] == before["round"] + 1
    wins = sum(after["sides"][s]["rounds_won"] - before["sides"][s]["rounds_won"] for s in tables.SIDES)
    assert wins == (0 if out["report"]["round_winner"] is None else 1)
    for old, new in zip(before["heroes"], after["heroes"]):
        row = out["report"]["heroes"][new["id"]]
        assert new["battle_reputation"] - old["battle_reputation"] == row["reputation_gained"] >= 0
        assert new["reputation_lost"] >= old["reputation_lost"]
        adjusted = any(item["hero_id"] == new["id"] for item in declarations.get("adjustments", []))
        if old["status"] == "unconscious" and new["status"] == "unconscious" and not adjusted:
            assert new == {**old, "opportunity_pending": False, "last_engagement": None}


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


# -- single operations ---------------------------------------------------------------------
DIE = st.integers(1, 99).filter(lambda v: v % 10)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 120), st.lists(st.integers(1, 12), max_size=4), st.data())
def test_volley_hits_are_all_shared_out(salvo, sizes, data):
    count = (salvo + 1) // 2
    roll = data.draw(st.lists(DIE, min_size=count, max_size=count))
    targets = [{"id": f"s{i}", "kind": "brute_squad", "size": size} for i, size in enumerate(sizes)]
    targets.append({"id": "hero", "kind": "hero", "tn_to_be_hit": data.draw(st.integers(5, 100)),
                    "dracheneisen": data.draw(st.integers(0, 5)), "brawn": 2, "resolve": 2})
    out = run("resolve-volley", {"salvo_level": salvo, "targets": targets, "dice": {"volley": roll}, "seed": 1})
    assert out["dice_count"] == count and out["members"] == sum(sizes) + 1
    assert sum(target["hits"] for target in out["targets"].values()) == out["hits"]
    assert out["hits_per_member"] * out["members"] + out["remainder"] == out["hits"]
    assert len(set(out["spread"])) == out["remainder"] == len(out["spread"])
    for target in out["targets"].values():
        if target["kind"] == "brute_squad":
            assert 0 <= target["killed"] <= target["size"] and target["survivors"] == target["size"] - target["killed"]
        else:
            assert target["effective_hits"] == target["hits"] - target["ignored"] >= 0
            assert target["flesh_wounds_added"] == target["effective_hits"] * target["flesh_wounds_per_hit"]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 5), st.integers(0, 5), st.integers(0, 30), st.integers(0, 3), st.data())
def test_damage_never_negative_and_wounds_only_grow(brawn, resolve_extra, dramatic, flesh, dice, data):
    resolve = min(5, 1 + resolve_extra)
    dramatic = min(dramatic, 2 * resolve - 1)
    hero = {"id": "h", "name": "H", "side": "a", "wits": 1, "brawn": brawn, "resolve": resolve,
            "flesh_wounds": flesh, "dramatic_wounds": dramatic}
    payload = {"hero": hero, "damage_dice": dice,
               "dice": {"damage": data.draw(st.lists(DIE, min_size=dice, max_size=dice)),
                        "wound_check": data.draw(st.lists(DIE, min_size=brawn, max_size=brawn))}}
    out = run("apply-damage", payload)
    assert out["flesh_wounds_added"] == sum(out["damage_roll"]) >= 0
    assert out["dramatic_wounds"] >= dramatic and out["flesh_wounds"] >= 0
    check = out["wound_check"]
    if check is None:
        assert out["flesh_wounds"] == flesh + out["flesh_wounds_added"]
    elif check["passed"]:
        assert out["flesh_wounds"] == check["tn"] and check["dramatic_wounds_added"] == 0
    else:
        assert out["flesh_wounds"] == 0 and check["dramatic_wounds_added"] == 1 + check["shortfall"] // 20
    assert out["taken_out"] == (out["status"] == "unconscious")
    assert out["status"] == ("unconscious" if out["dramatic_wounds"] >= 2 * resolve else "active")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(tables.SIDES), st.data())
def test_general_total_is_the_sum_of_its_parts(attacker, data):
    sides = {}
    for letter in tables.SIDES:
        wits, knack = data.draw(st.integers(1, 5)), data.draw(st.integers(0, 5))
        pool = data.draw(st.integers(0, 5))
        sides[letter] = {"general": {"wits": wits, "strategy": knack},
                         "strategy": data.draw(st.sampled_from(tables.STRATEGIES)),
                         "troops": data.draw(st.integers(1, 10_000_000)),
                         "fortification_level": data.draw(st.integers(1, 10)),
                         "free_raises": pool, "free_raises_spent": data.draw(st.integers(0, pool)),
                         "gm_modifier": data.draw(st.integers(-100, 100)),
                         "opportunity_modifier": data.draw(st.integers(-100, 100))}
    out = run("general-roll", {"attacker": attacker, "sides": sides, "seed": data.draw(st.integers(0, 99))})
    parts = ("roll", "free_raises_bonus", "strategy_modifier", "terrain_modifier", "numbers_modifier",
             "hero_impact_modifier", "leadership_modifier", "opportunity_modifier", "gm_modifier")
    totals = {}
    for letter, row in out["sides"].items():
        assert row["total"] == sum(row[name] for name in parts)
        assert row["kept"] == sorted(row["dice"], reverse=True)[: len(row["kept"])]
        assert row["roll"] == sum(row["kept"]) and row["numbers_modifier"] >= 0
        totals[letter] = row["total"]
    assert out["margin"] == abs(totals["a"] - totals["b"])
    assert min(out["sides"][letter]["numbers_modifier"] for letter in tables.SIDES) == 0
    assert out["sides"][tables.other(attacker)]["strategy_modifier"] == 0
    if out["round_winner"]:
        assert totals[out["round_winner"]] > totals[tables.other(out["round_winner"])]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 500), st.integers(0, 50), st.integers(-1000, 1000)), min_size=1, max_size=6),
       st.sampled_from(["a", "b", "none"]))
def test_aftermath_conserves_reputation(values, winner):
    heroes = [{"id": f"h{i}", "name": "H", "side": "ab"[i % 2], "wits": 1, "brawn": 1, "resolve": 1,
               "battle_reputation": gained, "reputation_lost": lost, "reputation": before}
              for i, (gained, lost, before) in enumerate(values)]
    state = run("new-battle", {"attacker": "a", "heroes": heroes, "sides": {
        s: {"troops": 10, "general": {"wits": 1, "strategy": 0}, "free_raises": 0} for s in "ab"}})["state"]
    out = run("end-battle", {"state": state, "winner": winner})
    for hero in out["state"]["heroes"]:
        row = out["heroes"][hero["id"]]
        full = row["battle_reputation"] if hero["side"] == winner else row["battle_reputation"] // 2
        assert row["reputation_awarded"] == full >= 0
        assert hero["reputation"] == row["reputation_after"] == row["reputation_before"] + full - row["reputation_lost"]


def fill_everything(state, rng):
    """A blunt form filler without drafts: every option of every participant gets a random allowed value."""
    decl = {}
    participants = [{"kind": "gm"}] + [{"kind": "side", "id": s} for s in tables.SIDES] + [
        {"kind": "hero", "id": hero["id"]} for hero in state["heroes"]]
    for participant in participants:
        for option in run("declaration-options", {"state": state, "participant": participant})["options"]:
            if option["type"] == "list" or (option["type"] != "integer" and not option["allowed"]):
                continue
            if option["required"] or rng.random() < 0.5:
                put(decl, option["path"], pick_value(option, rng))
    return decl


@settings(max_examples=15, deadline=None)
@given(battles(), st.integers(0, 2**32 - 1))
def test_any_allowed_values_drive_a_battle_to_its_end(setup, seed):
    rng = random.Random(seed)
    state = run("new-battle", setup, seed)["state"]
    while not state["finished"] and state["round"] < ROUND_CAP:
        declarations = fill_everything(state, rng)
        out = run("resolve-round", {"state": state, "declarations": declarations}, rng.randrange(2**32))
        check_conservation(state, declarations, out)
        state = out["state"]
    assert state["finished"] or state["round"] == ROUND_CAP
