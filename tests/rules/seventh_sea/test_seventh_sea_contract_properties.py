"""Hypothesis properties of the battle room contract (docs/battle-contract.md).

(a) Every participant fills its form from ``declaration-options`` only (or declares nothing); what
    ``check-declaration`` accepts, merged by ``merge-declarations``, always resolves, and whoever did not
    declare gets the default orders, listed in ``defaults_applied``.
(b) What a side may not see of the other (its heroes' wounds, battle Reputation and pending offers, its
    general's Traits and free raises, its declarations, its secret round steps) changes no byte of what
    that side is told.
"""

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.seventh_sea import ruleset, tables

EFFECTS = [[], [], [{"type": "push_them_back", "rounds_done": 0}], [{"type": "medic", "rounds_done": 0}],
           [{"type": "save_the_banner", "rounds_done": 3}],
           [{"type": "hold_the_position", "rounds_done": 1, "locked_engagement": "engaged"}]]
HERO = st.fixed_dictionaries({
    "wits": st.integers(1, 5), "tactics": st.integers(0, 5), "leadership": st.integers(0, 5),
    "brawn": st.integers(1, 5), "resolve": st.integers(1, 5),
    "unit_type": st.sampled_from(tables.UNIT_TYPES), "commission": st.sampled_from(tables.COMMISSIONS),
    "flesh_wounds": st.integers(0, 40), "dramatic_wounds": st.integers(0, 6),
    "opportunity_pending": st.booleans(), "last_engagement": st.sampled_from((None,) + tables.ENGAGEMENTS),
    "effects": st.sampled_from(EFFECTS), "battle_reputation": st.integers(0, 20),
})
SIDE = st.fixed_dictionaries({
    "troops": st.integers(1, 100_000),
    "general": st.fixed_dictionaries({"wits": st.integers(1, 5), "strategy": st.integers(0, 5)}),
    "free_raises": st.integers(0, 4),
})


def run(op, payload, seed=None):
    return ruleset.run(op, payload, seed)


@st.composite
def battles(draw):
    heroes = []
    for index in range(draw(st.integers(1, 5))):
        hero = draw(HERO)
        hero.update(id=f"h{index}", name=f"Hero {index}", side=tables.SIDES[index % 2])
        heroes.append(hero)
    return run("new-battle", {"attacker": draw(st.sampled_from(tables.SIDES)),
                              "sides": {"a": draw(SIDE), "b": draw(SIDE)}, "heroes": heroes})["state"]


def pick(option, rng):
    if option["type"] == "integer":
        return rng.randint(option["min"], min(option["max"], option["min"] + 20))
    return rng.choice(option["allowed"])


def usable(option):
    return option["type"] == "integer" or (option["type"] in ("choice", "boolean", "object") and option["allowed"])


def gm_wants(path, rng):
    """The GM's habits: an offer now and then, a rare modifier, update or adjustment; never a player's answer."""
    parts = path.split(".")
    if parts[0] == "adjustments":
        return rng.random() < 0.03
    if len(parts) == 3 and parts[2] == "opportunity":
        return rng.random() < 0.6
    if len(parts) == 4 and parts[2] == "opportunity":
        return parts[3] not in ("accept", "attack_trait", "attack_knack", "tn_to_be_hit")
    return rng.random() < 0.08


def fill(state, row, answers, rng):
    """One participant's form, filled from its options as they follow its own draft (two passes)."""
    viewer, answer = row["side"] or "gm", {}
    for _ in range(2):
        declarations = {**answers, row["key"]: answer}
        options = run("declaration-options", {"state": state, "participant": row["participant"], "viewer": viewer,
                                              "declarations": declarations})["options"]
        for option in options:
            path = option["path"]
            if path in answer or not usable(option):
                continue
            if row["key"] == "gm":
                offer = path.split(".opportunity")[0] + ".opportunity"
                both = (any(given.startswith(offer + ".") for given in answer) if path == offer
                        else ".opportunity." in path and offer in answer)
                if both or not gm_wants(path, rng):
                    continue  # the whole offer with its answer, or the offer field by field: one or the other
                value = pick(option, rng)
                if option["type"] == "object" and rng.random() < 0.5:
                    path, value = f"{path}.type", value["type"]  # an offer the player answers
                if path.startswith("adjustments.") and any(p.startswith("adjustments.") for p in answer):
                    continue
                answer[path] = value
            elif option["required"] or rng.random() < 0.5:
                answer[path] = pick(option, rng)
    return answer


@settings(max_examples=20, deadline=None)
@given(battles(), st.integers(0, 2**32 - 1))
def test_checked_declarations_always_resolve(state, seed):
    rng = random.Random(seed)
    for _ in range(3):
        if state["finished"]:
            break
        rows = run("round-participants", {"state": state})["participants"]
        answers = {}
        for row in sorted(rows, key=lambda row: row["key"] != "gm"):  # the GM offers first, players answer
            if rng.random() < 0.25:
                continue  # declares nothing
            answer = fill(state, row, answers, rng)
            verdict = run("check-declaration", {"state": state, "viewer": row["side"] or "gm",
                                                "participant": row["participant"], "declaration": answer,
                                                "declarations": answers})
            assert verdict["ok"], (row["key"], answer, verdict["fields"])
            answers[row["key"]] = answer
        merged = run("merge-declarations", {"state": state, "declarations": answers})["declarations"]
        out = run("resolve-round", {"state": state, "declarations": merged}, rng.randrange(2**32))
        given_orders = {path.split(".")[1] for answer in answers.values() for path in answer
                        if path.endswith((".strategy", ".engagement"))}
        for letter in tables.SIDES:
            assert (f"side:{letter}" in out["defaults_applied"]) == (letter not in given_orders)
        for key in out["defaults_applied"]:
            assert key.partition(":")[2] not in given_orders
        steps = [step["params"]["participant"] for step in out["log"] if step["key"] == "defaults.applied"]
        assert steps == out["defaults_applied"]
        state = out["state"]


def hide_differently(state, rng, side):
    """``state`` with everything ``side`` may not see of the other side changed (status kept)."""
    other = copy.deepcopy(state)
    enemy = other["sides"][tables.other(side)]
    enemy["free_raises"] = rng.randint(0, 50)
    enemy["general"].update(wits=rng.randint(1, 5), strategy=rng.randint(0, 5), incitation=rng.randint(0, 5))
    for hero in other["heroes"]:
        if hero["side"] == side:
            continue
        limit = 2 * hero["resolve"] - 1 if hero["status"] == "active" else 20
        hero.update(flesh_wounds=rng.randint(0, 99), dramatic_wounds=rng.randint(0, limit),
                    battle_reputation=rng.randint(0, 50), reputation_lost=rng.randint(0, 9),
                    opportunity_pending=rng.random() < 0.5 and hero["status"] == "active")
    return other


def enemy_answers(state, side, rng):
    """Declarations of the other side (hidden until resolution, H35)."""
    out = {f"side:{tables.other(side)}": {f"sides.{tables.other(side)}.strategy": rng.choice(tables.STRATEGIES)}}
    for hero in state["heroes"]:
        if hero["side"] != side:
            out[f"hero:{hero['id']}"] = {f"heroes.{hero['id']}.engagement": rng.choice(tables.ENGAGEMENTS),
                                         f"heroes.{hero['id']}.help_general": True}
    out["gm"] = {f"heroes.{hero['id']}.gm_modifier": 3 for hero in state["heroes"] if hero["side"] != side}
    return out


def told(state, side, answers, declaration_of):
    """Everything ``side`` is told about ``state`` before resolution, as bytes."""
    seen = [run("visible-state", {"state": state, "viewer": side})]
    for row in run("round-participants", {"state": state})["participants"]:
        if row["side"] != side:
            continue
        seen.append(run("declaration-options", {"state": state, "participant": row["participant"], "viewer": side,
                                                "declarations": answers}))
        seen.append(run("check-declaration", {"state": state, "participant": row["participant"], "viewer": side,
                                              "declaration": declaration_of(row), "declarations": answers}))
    return json.dumps(seen, sort_keys=True)


@settings(max_examples=20, deadline=None)
@given(battles(), st.sampled_from(tables.SIDES), st.integers(0, 2**32 - 1))
def test_what_a_side_may_not_see_changes_nothing_it_is_told(state, side, seed):
    rng = random.Random(seed)
    own = {}
    for row in run("round-participants", {"state": state})["participants"]:
        if row["side"] == side:
            own[row["key"]] = fill(state, row, {}, rng)
    other = hide_differently(state, rng, side)
    with_enemy = {**own, **enemy_answers(state, side, rng)}
    first = told(state, side, own, lambda row: own[row["key"]])
    assert first == told(other, side, own, lambda row: own[row["key"]])
    assert first == told(other, side, with_enemy, lambda row: own[row["key"]])


@settings(max_examples=15, deadline=None)
@given(battles(), st.sampled_from(tables.SIDES), st.integers(0, 2**32 - 1))
def test_a_rounds_secret_steps_change_nothing_the_other_side_reads(state, side, seed):
    rng = random.Random(seed)
    resolved = run("resolve-round", {"state": state, "declarations": {}}, seed)
    enemies = [hero["id"] for hero in state["heroes"] if hero["side"] != side]
    changed = copy.deepcopy(resolved)
    changed["before"] = hide_differently(state, rng, side)
    for hero_id in enemies:
        changed["events"].append({"type": rng.choice(["opportunity_offered", "opportunity_lapsed"]),
                                  "hero_id": hero_id})
    for step in changed["log"]:
        if step["key"] in ("damage.roll", "wound_check.result", "opportunity.summary") \
                and step["params"].get("hero_id") in enemies:
            step["params"] = {**step["params"], "flesh_wounds": rng.randint(0, 99), "tn": rng.randint(5, 50)}
    reads = [json.dumps(run("visible-round", {"round": given, "viewer": side}), sort_keys=True)
             for given in (resolved, changed)]
    assert reads[0] == reads[1]


PATHS = st.sampled_from([
    "sides", "sides.a", "sides.a.strategy", "sides.b.free_raises_spent", "sides.a.terrain.high_ground", "heroes",
    "heroes.h0", "heroes.h0.engagement", "heroes.h1.help_general", "heroes.h0.opportunity",
    "heroes.h0.opportunity.type", "heroes.h0.opportunity.accept", "heroes.h0.opportunity.tn", "heroes.zz.engagement",
    "adjustments", "adjustments.h0", "adjustments.h0.status", "adjustments.h1.dramatic_wounds", "x.y", "gm"])
VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(
    ["march", "support", "medic", "easy_shot", "active", "h0", "a"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["type", "accept", "hero_id", "status", "engagement", "a", "h0"]), inner, max_size=3), max_leaves=6)
ANSWERS = st.dictionaries(PATHS, VALUES, max_size=6)
KEYS = st.sampled_from(["gm", "side:a", "side:b", "hero:h0", "hero:h1", "hero:zz", "side:c", "x"])


@settings(max_examples=60, deadline=None)
@given(battles(), st.dictionaries(KEYS, ANSWERS, max_size=4), ANSWERS, st.sampled_from(["gm", "a", "b"]))
def test_any_answers_are_resolved_or_refused_never_a_crash(state, keyed, flat, viewer):
    """Whatever the answers hold, each operation answers or refuses the input (InvalidInput), never fails."""
    from rules.errors import InvalidInput

    participant = {"kind": "gm"} if viewer == "gm" else {"kind": "side", "id": viewer}
    calls = [("merge-declarations", {"state": state, "declarations": keyed}),
             ("resolve-round", {"state": state, "declarations": flat, "seed": 1}),
             ("declaration-options", {"state": state, "participant": participant, "viewer": viewer,
                                      "declarations": keyed}),
             ("declaration-options", {"state": state, "participant": participant, "declarations": flat}),
             ("check-declaration", {"state": state, "participant": participant, "viewer": viewer,
                                    "declaration": flat, "declarations": keyed})]
    for op, payload in calls:
        try:
            run(op, payload)
        except InvalidInput:
            pass
