"""Invariants the spec implies, checked on random battles driven by random legal declarations."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.synapse import ruleset
from rules.synapse.messages import MESSAGES

ROUND_LIMIT = 12
PRESENT = ("active", "routed")


def run(op, payload):
    return ruleset.run(op, json.loads(json.dumps(payload)))


@st.composite
def troop(draw, uid, group=None):
    kind = draw(st.sampled_from(["human_infantry", "orc_warriors", "cavalry", "trolls", "zombies",
                                 "archers_crossbowmen", "artillery"]))
    unit = {"id": uid, "unit_type": kind, "headcount": draw(st.integers(1, 400)),
            "weapon_damage": draw(st.integers(0, 12)), "combat_base": draw(st.integers(-3, 12)),
            "armour": draw(st.integers(0, 6)), "fearless": draw(st.booleans()) if kind == "zombies" else False}
    if kind in ("archers_crossbowmen", "artillery"):
        unit.update(rate_of_fire=draw(st.sampled_from([1, "1/2", "2", "3R"])),
                    weapon_range=draw(st.sampled_from(["short", "medium", "long", "very_long"])))
        if kind == "artillery":
            unit.update(pieces=draw(st.integers(1, 6)), weapon_tech=draw(st.sampled_from(["archaic", "firearm"])))
    if group:
        unit["group"] = group
    return unit


@st.composite
def battles(draw):
    armies = {}
    for side in ("A", "B"):
        units = [draw(troop(f"{side.lower()}{i}")) for i in range(draw(st.integers(1, 4)))]
        units[0].update(unit_type="human_infantry", group="melee")
        units[0].pop("rate_of_fire", None), units[0].pop("weapon_range", None), units[0].pop("pieces", None)
        if draw(st.booleans()):
            units.append(draw(troop(f"{side.lower()}r", group="reserve")))
        commander = draw(st.none() | st.fixed_dictionaries({"mental_mod": st.integers(-2, 5), "combat": st.integers(0, 8),
                                                            "art_of_war": st.integers(0, 6)}))
        armies[side] = {"name": side, "commander": commander, "units": units}
    battle = {"terrain": draw(st.sampled_from(["open", "broken", "forest", "marsh", "urban"])),
              "weather": {"visibility": draw(st.sampled_from(["good", "poor", "very_poor"])),
                          "gruelling_climate": draw(st.booleans())},
              "mobility_edge": draw(st.sampled_from([None, "A", "B"])), "armies": armies}
    mode = draw(st.sampled_from(["field", "field", "assault", "vehicles"]))
    if mode == "assault":
        defender = draw(st.sampled_from(["A", "B"]))
        garrison = sum(u["headcount"] for u in armies[defender]["units"])
        battle.update(mode="assault", fortification={
            "class": draw(st.sampled_from(["entrenchment", "small_fort", "fortress"])), "defender": defender,
            "optimal_garrison": draw(st.integers((garrison + 1) // 2, 2 * garrison))})
    elif mode == "vehicles":
        battle.update(mode="vehicles", combat_type=draw(st.sampled_from(["ground", "air", "naval", "space"])))
        for side in ("A", "B"):
            armies[side]["units"] = [draw(vehicle(f"{side.lower()}{i}")) for i in range(draw(st.integers(1, 3)))]
            armies[side]["units"][0]["group"] = "ranged"
    return battle


@st.composite
def vehicle(draw, uid):
    weapons = [{"name": f"w{i}", "weapon_damage": draw(st.integers(0, 300)),
                "rate_of_fire": draw(st.sampled_from([1, "1/2", "4R"])),
                "role": draw(st.sampled_from(["main", "secondary"]))} for i in range(draw(st.integers(0, 3)))]
    return {"id": uid, "category": "vehicle", "crew_combat": draw(st.integers(-2, 12)),
            "group": draw(st.sampled_from(["ranged", "ranged", "reserve"])),
            "vehicle_types": [{"name": "t", "count": draw(st.integers(1, 20)), "toughness": draw(st.integers(1, 500)),
                               "armour": draw(st.integers(0, 300)), "crew": draw(st.integers(0, 6)),
                               "weapons": weapons}]}


def choose(draw, option):
    """A random value among those an option allows."""
    if option["type"] == "list":
        return draw(st.lists(st.sampled_from(option["allowed"]), unique=True)) if option["allowed"] else []
    if option["type"] == "integer":
        return draw(st.integers(option["min"], option["max"]))
    return draw(st.sampled_from(option["allowed"]))


def set_path(decl, path, value):
    """Paths look like ``sides.A.orders.A.melee.action``: formation ids contain a dot."""
    parts = path.split(".")
    if parts[0] == "sides" and len(parts) > 3 and parts[2] == "orders":
        parts = parts[:3] + [f"{parts[3]}.{parts[4]}"] + parts[5:]
    if parts[0] == "gm" and len(parts) > 3 and parts[1] in ("formation_modifiers", "rally_modifiers"):
        parts = parts[:2] + [f"{parts[2]}.{parts[3]}"] + parts[4:]
    node = decl
    for key in parts[:-1]:
        node = node.setdefault(key, {})
    node[parts[-1]] = value


def random_declarations(draw, state):
    decl = {}
    for side in ("A", "B"):
        options = run("declaration-options", {"state": state, "participant": {"kind": "side", "id": side}})["options"]
        for option in options:
            if option["path"].endswith(".retreat") and draw(st.integers(0, 9)) > 0:
                continue  # armies rarely withdraw, so that battles are fought
            set_path(decl, option["path"], choose(draw, option))
        for fid, order in decl.get("sides", {}).get(side, {}).get("orders", {}).items():
            if order.get("action") != "attack":
                order.pop("target", None)
    gm = run("declaration-options", {"state": state, "participant": {"kind": "gm", "id": "gm"}})["options"]
    for option in gm:
        if option["path"] in ("gm.encircled", "gm.mobility_edge", "gm.new_command_test") and draw(st.booleans()):
            set_path(decl, option["path"], choose(draw, option))
    return decl


def check_round(before, decl, out):
    after, results = out["state"], out["results"]
    encircled = set(decl.get("gm", {}).get("encircled", []))
    routed = {fid for fid, f in before["formations"].items() if f["status"] == "routed"}
    for fid, f in after["formations"].items():
        assert f["losses"] >= 0 and f["counter_bonus"] >= 0
        assert f["retreat_penalty"] in (0, -2, -4)
        old = before["formations"][fid]
        assert f["losses"] >= old["losses"] or f"rally:{fid}" in results
        if old["status"] == "routed":
            rallied = results.get(f"rally:{fid}", {}).get("success")
            assert f["status"] in ("routed", "fled", "destroyed", "withdrawn") or rallied
        if old["status"] in ("fled", "destroyed", "withdrawn"):
            assert f["status"] == old["status"] and f["losses"] == old["losses"]
    for key, r in results.items():  # in the order of the round
        if key.startswith("retreat:") and (r.get("outcome") == "routed" or r.get("routed")):
            side = r.get("side")
            routed |= {fid for fid, f in before["formations"].items() if f["side"] == side} if side else {key[8:]}
        if not key.startswith(("attack:", "contact:")) or r["void"]:
            continue
        assert 0 <= r["losses_applied"] <= r["losses_inflicted"] or r["capped"]
        threshold = r["target_break_threshold"]
        if threshold is not None and r["target"] not in routed and r["target"] not in encircled:
            assert r["losses_applied"] <= threshold
        if r["target_status"] == "routed":
            routed.add(r["target"])
        if r.get("friendly_fire_target"):  # friendly fire may rout its victim too
            routed.add(r["friendly_fire_target"])
    assert after["round"] == before["round"] + 1
    assert all(step["key"] in MESSAGES for step in out["log"])


@settings(max_examples=25, deadline=None)
@given(battles(), st.data())
def test_random_legal_battles_end_without_error(setup, data):
    state = run("new-battle", setup)["state"]
    for _ in range(ROUND_LIMIT):
        if state["status"] == "over":
            break
        decl = random_declarations(data.draw, state)
        seed = data.draw(st.integers(0, 2**32))
        payload = {"state": state, "declarations": decl, "seed": seed}
        out = run("resolve-round", payload)
        again = run("resolve-round", payload)
        assert json.dumps(out) == json.dumps(again)  # same seed, same bytes
        check_round(state, decl, out)
        state = out["state"]
    if state["status"] == "over":
        assert state["end_reason"] in ("rout", "withdrawal", "mutual", "gm")
    aftermath = run("end-battle", {"state": state, "seed": 1})
    for side in ("A", "B"):
        s = aftermath["sides"][side]
        for fid, f in s["formations"].items():
            units = [u for u in s["units"].values() if u["formation"] == fid]
            if state["formations"][fid]["engaged"]:
                assert sum(u["losses"] for u in units) == f["net_losses"]  # totals conserved
            for u in units:
                if "crew_lost" in u:
                    assert 0 <= u["crew_loss_pct"] <= 100 and u["crew_lost"] >= 0
                else:
                    assert u["killed"] + u["wounded"] == u["out_of_action"] >= 0
                    assert u["headcount_after"] >= 0 and u["minor_points"] >= 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["shock", "pursuit", "riposte", "ranged", "contact", "fire"]), st.integers(-5, 20),
       st.integers(0, 100_000), st.integers(0, 30), st.integers(1, 50_000), st.integers(0, 60_000),
       st.integers(0, 150), st.booleans(), st.booleans(), st.integers(1, 9) | st.integers(11, 19))
def test_one_attack_invariants(kind, combat, power, defence, strength, losses, pct, encircled, routed, roll):
    out = run("attack", {"kind": kind, "attacker": {"combat": combat, "attack_power": power},
                         "target": {"defence": defence, "strength": strength, "losses": losses, "break_pct": pct,
                                    "encircled": encircled, "routed": routed}, "dice": {"attack": roll}})
    threshold = strength * pct // 100
    assert out["losses_applied"] >= 0 and out["target_losses"] == losses + out["losses_applied"]
    if out["capped"]:
        assert out["losses_applied"] == threshold < out["losses_inflicted"]
        assert out["target_status"] in ("routed", "destroyed")
    elif not (encircled or routed):
        assert out["losses_applied"] <= threshold or out["losses_applied"] == out["losses_inflicted"] <= threshold
    if routed:
        assert out["target_status"] in ("routed", "destroyed")
    assert out["success"] == (out["margin"] >= 0)
    assert out["counter_bonus_gained"] >= 0 and out["friendly_fire_losses"] == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(1, 10**6), min_size=1, max_size=12), st.booleans())
def test_casualty_shares_keep_the_total(losses, strengths, winner):
    units = [{"id": f"u{i}", "strength": s, "headcount": 1 + s // 5, "soldier_points": 5} for i, s in enumerate(strengths)]
    out = run("casualties", {"group_losses": losses, "winner": winner, "units": units})
    assert out["recovered"] + out["net_losses"] == losses
    assert sum(u["losses"] for u in out["units"].values()) == out["net_losses"]
    assert all(u["losses"] >= 0 and u["wounded"] >= u["killed"] >= 0 for u in out["units"].values())


@settings(max_examples=20, deadline=None)
@given(battles(), st.integers(0, 2**40))
def test_new_battle_is_deterministic_and_keeps_its_input(setup, seed):
    before = json.dumps(setup, sort_keys=True)
    first = ruleset.run("new-battle", setup, seed)
    assert json.dumps(setup, sort_keys=True) == before  # the input is never mutated
    assert json.dumps(first) == json.dumps(ruleset.run("new-battle", setup, seed))
    for f in first["state"]["formations"].values():
        assert f["strength"] >= 1 and f["attack_power"] >= 0
