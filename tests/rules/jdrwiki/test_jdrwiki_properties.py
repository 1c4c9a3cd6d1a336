"""Invariants the spec implies, checked with hypothesis on random seeds, dice and declarations."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The ``jd`` fixture holds only pure helpers, so sharing it between examples is safe.
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 10**6), rich=st.booleans())
def test_random_legal_battles_end_or_reach_the_round_limit(jd, seed, rich):
    state, played = jd.play(jd.RICH_BATTLE if rich else jd.NEW_BATTLE, seed, max_rounds=30)
    assert state["ended"] or played == 30
    assert state["round"] == played + 1
    for corps in state["corps"].values():
        assert corps["hp"] >= 0 and corps["initiative"] >= 0
        assert (corps["hp"] == 0) == (corps["status"] == "destroyed") or corps["status"] in ("merged", "fled")
        assert all(e["rounds_left"] >= 1 for e in corps["effects"])
    active = [c for c in state["corps"].values() if c["status"] == "active"]
    zones = [c["zone"] for c in active if c["total_melee_with"] is None]
    assert len(zones) == len(set(zones)), "one corps per zone outside a total melee (H42)"
    if state["ended"] and state["winner"]:
        assert all(state["armies"][c["army_id"]]["side"] == state["winner"] for c in active)


@settings(max_examples=10, **SETTINGS)
@given(seed=st.integers(0, 2**32))
def test_same_seed_same_bytes(jd, seed):
    payload = {"state": jd.run("new-battle", {**jd.NEW_BATTLE, "dice": {}, "seed": seed})["state"],
               "declarations": {"corps": {"s1": {"actions": [{"action": "barrage", "target": "n1"},
                                                             {"action": "massive_assault", "target": "n1"}]},
                                          "n1": {"actions": [{"action": "subtle_assault", "target": "s1"}]}}},
               "seed": seed}
    first = json.dumps(jd.run("resolve-round", payload), sort_keys=False)
    second = json.dumps(jd.run("resolve-round", payload), sort_keys=False)
    assert first == second


@settings(max_examples=10, **SETTINGS)
@given(seed=st.integers(0, 10**6))
def test_input_never_mutated(jd, seed):
    state = jd.run("new-battle", {**jd.NEW_BATTLE, "dice": {}, "seed": seed})["state"]
    payload = {"state": state, "declarations": {"corps": {"n1": {"actions": [{"action": "massive_assault",
                                                                              "target": "s1"}]}}}, "seed": seed}
    before = json.dumps(payload, sort_keys=True)
    from rules import registry
    registry.run("jdrwiki", "resolve-round", payload)
    assert json.dumps(payload, sort_keys=True) == before


@settings(max_examples=40, **SETTINGS)
@given(hp=st.integers(1, 10**9), k=st.integers(-5, 5), absorption=st.integers(-5, 5),
       d4=st.lists(st.integers(1, 4), min_size=2, max_size=2), crit=st.lists(st.integers(1, 4), min_size=2, max_size=2),
       flat=st.integers(-50, 50), protection=st.integers(0, 10**6), ruthless=st.booleans(),
       mode=st.sampled_from(["normal", "critical_extra", "critical_only"]))
def test_damage_is_at_least_one_and_consistent(jd, hp, k, absorption, d4, crit, flat, protection, ruthless, mode):
    result = jd.run("damage", {"attacker_hp": hp, "characteristic_modifier": k, "dice_count": 2, "ruthless": ruthless,
                               "flat_bonus": flat, "defender_absorption": absorption, "defender_protection": protection,
                               "defender_hp": 500, "mode": mode, "dice": {"damage": d4, "critical": crit}})
    assert result["amount"] == max(1, result["raw"]) >= 1
    assert result["hp_after"] == max(0, 500 - result["amount"])
    assert result["vdb"] == -(-(-(-hp // 10)) // 10)


@settings(max_examples=40, **SETTINGS)
@given(advantage=st.integers(-20, 20), env=st.integers(-10, 10), sec=st.integers(-10, 10), focus=st.integers(-10, 10),
       prot=st.integers(0, 10), fury=st.integers(0, 10), prep=st.integers(0, 1))
def test_allocation_conserves_points(jd, advantage, env, sec, focus, prot, fury, prep):
    allocation = {"environment": env, "security": sec, "focus": focus, "protection": prot, "fury": fury,
                  "preparation": prep}
    total = env + sec + focus + prot + fury + prep
    payload = {"advantage": advantage, "allocation": allocation}
    if total > advantage:
        assert list(jd.refuse("allocate-advantage", payload)["fields"]) == ["allocation"]
        return
    result = jd.run("allocate-advantage", payload)
    assert result["attention_total"] + result["spent"] + result["unallocated"] == result["available"] == advantage
    assert result["unallocated"] >= 0
    assert result["advantage_after_spend"] == advantage - prot - fury - prep


@settings(max_examples=15, **SETTINGS)
@given(seed=st.integers(0, 10**6))
def test_hit_points_conserved_by_divide_and_regroup(jd, seed):
    """S7.2: dividing then regrouping keeps the army's hit points; nothing is lost or created."""
    state = jd.run("new-battle", {**jd.NEW_BATTLE, "dice": {}, "seed": seed})["state"]
    state["corps"]["n1"]["initiative"] = 10
    divide = {"action": "divide", "new_corps": [{"id": "n2", "zone": "z1", "hp": 1 + seed % 800, "advantage": 1}]}
    after = jd.run("resolve-round", {"state": state, "declarations": {"corps": {"n1": {"actions": [divide]}}},
                                     "seed": seed})["state"]
    north = [c for c in after["corps"].values() if c["army_id"] == "north"]
    assert sum(c["hp"] for c in north) == 900
    after["phase"] = "declaration"
    for cid in ("n1", "n2"):
        after["corps"][cid]["initiative"] = 5
    regroup = {"action": "regroup", "with": ["n2"], "into": "n1"}
    merged = jd.run("resolve-round", {"state": after, "declarations": {"corps": {
        "n1": {"actions": [regroup]}, "n2": {"actions": [{**regroup, "with": ["n1"]}]}}}, "seed": seed})["state"]
    assert merged["corps"]["n2"]["status"] == "merged"
    assert merged["corps"]["n1"]["hp"] == 900


IDS = st.sampled_from(["n1", "s1", "zz"])
ZONES = st.sampled_from(["z1", "z2", "z3", "z4", "z9"])
ACTION = st.fixed_dictionaries(
    {"action": st.sampled_from(["combined_assault", "massive_assault", "subtle_assault", "total_melee", "push_back",
                                "provoke", "barrage", "charge", "move", "pincer", "divide", "regroup", "withdraw",
                                "modify_terrain", "weaken", "break_morale", "snare", "espionage", "mining"])},
    optional={"target": IDS, "moves": st.integers(1, 5), "path": st.lists(ZONES, min_size=1, max_size=3),
              "to_zone": ZONES, "push_to_zone": ZONES, "opposed_by": IDS, "as_counter": st.booleans(),
              "on_critical": st.sampled_from(["damage", "advantage", "hero_death"]),
              "zone": ZONES, "characteristic": st.sampled_from(["cover", "stronghold", "weather", "unstable_ground"]),
              "direction": st.sampled_from(["up", "down"]), "level": st.integers(0, 3),
              "with": st.lists(IDS, max_size=2), "into": IDS,
              "new_corps": st.lists(st.fixed_dictionaries({"id": st.sampled_from(["n2", "n3", "s1"]), "zone": ZONES,
                                                           "hp": st.integers(1, 1000)}), min_size=1, max_size=2),
              "fallback": st.fixed_dictionaries({"action": st.sampled_from(["charge", "move", "espionage"]),
                                                 "target": IDS})})
CORPS_DECLARATION = st.fixed_dictionaries(
    {"actions": st.lists(ACTION, max_size=2)},
    optional={"allocation": st.fixed_dictionaries({"focus": st.integers(-3, 3), "fury": st.integers(0, 3),
                                                   "preparation": st.integers(0, 1)}),
              "heroes": st.lists(st.fixed_dictionaries({"hero_id": st.sampled_from(["ildar", "kavelec"])},
                                                       optional={"sacrifice": st.booleans(),
                                                                 "heroism": st.booleans()}), max_size=1),
              "defensive_counter": IDS})


@settings(max_examples=150, **SETTINGS)
@given(decl=st.dictionaries(IDS, CORPS_DECLARATION, max_size=2), seed=st.integers(0, 1000),
       melee=st.booleans(), conflict=st.booleans())
def test_any_declaration_is_resolved_or_refused_cleanly(jd, decl, seed, melee, conflict):
    """Whatever is declared, the engine either resolves the round or refuses with InvalidInput."""
    from rules.errors import InvalidInput

    state = jd.run("new-battle", {**jd.NEW_BATTLE, "dice": {}, "seed": seed, "conflict_started": conflict})["state"]
    state["corps"]["n1"]["advantage"] = 3
    if melee:
        state["corps"]["n1"].update(zone="z3", total_melee_with="s1")
        state["corps"]["s1"]["total_melee_with"] = "n1"
    try:
        result = jd.run("resolve-round", {"state": state, "declarations": {"corps": decl}, "seed": seed})
    except InvalidInput as error:
        assert error.fields
        return
    json.dumps(result)
    for corps in result["state"]["corps"].values():
        assert corps["hp"] >= 0 and corps["initiative"] >= 0
