"""Invariants of the battle room contract, with hypothesis (few examples: the suite runs on two cores).

(a) Whatever ``check-declaration`` accepts among the values ``declaration-options`` offers,
``resolve-round`` resolves, giving the silent participants their defaults.
(b) Changing what a viewer may not see (S11.3: the other side's advantage, initiative, heroism, hero
cooldowns, the hit points of a corps under cover) changes no byte of that viewer's answers.
"""

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _pick(option: dict, rng: random.Random):
    """A value among those the option offers (None: leave the field out)."""
    refused = [f["value"] for f in option["forbidden"]]
    kind, allowed = option["type"], option.get("allowed")
    if "[]." in option["path"] and not option["path"].startswith("rerolls[]") and ".heroes[]." not in option["path"]:
        return None  # a concerted regroup: its own form
    if kind == "boolean":
        if option["path"].endswith((".withdraw", ".end_battle")):
            return rng.random() < 0.05  # the battle should last a few rounds
        choices = [v for v in (True, False) if v not in refused]
        return rng.choice(choices) if choices else None
    if kind == "choice":
        return rng.choice(allowed) if allowed else None
    if kind == "integer":
        return rng.randint(option["min"], option["max"])
    if kind == "list" and isinstance(allowed, list):
        low = option.get("min_items", 0)
        high = min(len(allowed), option.get("max_items", 2))
        if low > len(allowed):
            return None
        return rng.sample(allowed, rng.randint(low, max(low, high)))
    return None


def _answer(options: list[dict], rng: random.Random) -> dict:
    answer = {}
    for option in options:
        if rng.random() < 0.5:
            value = _pick(option, rng)
            if value is not None:
                answer[option["path"]] = value
    return answer


def _round(jd, state, rng):
    """Every participant answers (or not) from its options; returns the accepted answers and the output."""
    participants = jd.run("round-participants", {"state": state})["participants"]
    rng.shuffle(participants)
    known: dict = {}
    accepted: dict = {}
    for entry in participants:
        viewer = entry["side"] or "gm"
        check = {"state": state, "viewer": viewer, "participant": entry["participant"], "declarations": known}
        default = jd.run("check-declaration", {**check, "declaration": entry["default"]})
        assert default["ok"], (entry["key"], default)
        if rng.random() < 0.2:
            continue  # declares nothing
        for _ in range(3):
            offered = jd.run("declaration-options", {"state": state, "participant": entry["participant"],
                                                     "viewer": viewer, "declarations": known})
            answer = _answer(offered["options"], rng)
            if jd.run("check-declaration", {**check, "declaration": answer})["ok"]:
                accepted[entry["key"]] = answer
                known.update(answer)
                break
    merged = jd.run("merge-declarations", {"state": state, "declarations": accepted})["declarations"]
    output = jd.run("resolve-round", {"state": state, "declarations": merged, "seed": rng.randrange(10**6)})
    return participants, accepted, output


@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 10**6), rich=st.booleans())
def test_accepted_answers_always_resolve(jd, seed, rich):
    rng = random.Random(seed)
    state = jd.run("new-battle", {**(jd.RICH_BATTLE if rich else jd.NEW_BATTLE), "dice": {}, "seed": seed})["state"]
    for _ in range(3):
        participants, accepted, output = _round(jd, state, rng)
        for entry in participants:
            if entry["must_declare"] and entry["key"] not in accepted:
                assert entry["key"] in output["defaults_applied"]
        assert set(output["defaults_applied"]) <= {p["key"] for p in participants if p["key"] not in accepted}
        state = output["state"]
        if state["ended"]:
            break


# ---------------------------------------------------------------- (b) fog


def _answers_of(jd, state, viewer, rng_seed):
    """Every answer the viewer gets: its options, checks of some offered answers, its visible state."""
    rng = random.Random(rng_seed)
    out = [jd.run("visible-state", {"state": state, "viewer": viewer})]
    for entry in jd.run("round-participants", {"state": state})["participants"]:
        if entry["side"] != viewer:
            continue
        offered = jd.run("declaration-options", {"state": state, "participant": entry["participant"],
                                                 "viewer": viewer})
        out.append(offered)
        for _ in range(2):
            out.append(jd.run("check-declaration", {"state": state, "viewer": viewer,
                                                    "participant": entry["participant"],
                                                    "declaration": _answer(offered["options"], rng)}))
    return json.dumps(out, sort_keys=True)


def _hide_changes(state, viewer, change):
    """The state with the other side's hidden figures changed (S11.3)."""
    changed = copy.deepcopy(state)
    armies = changed["armies"]
    for cid, corps in changed["corps"].items():
        if armies[corps["army_id"]]["side"] == viewer or corps["status"] != "active":
            continue
        corps["advantage"] += change - 3
        corps["initiative"] = change
        if changed["map"]["zones"][corps["zone"]]["terrain"]["cover"] >= 1:
            corps["hp"] = max(1, corps["hp"] - 37 * change)
    for army in armies.values():
        if army["side"] != viewer:
            army["commander"]["heroism_points"] = change % 4
            army["army_heroism_points"] = change
    for hero in changed["heroes"].values():
        if armies[hero["army_id"]]["side"] != viewer:
            hero["available_from_round"] = 1 + change
            hero["heroism_points"] = change % 4
    return changed


@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 10**6), change=st.integers(0, 6), viewer=st.sampled_from(["a", "b"]))
def test_what_a_viewer_cannot_see_changes_none_of_its_answers(jd, seed, change, viewer):
    state = jd.run("new-battle", {**jd.RICH_BATTLE, "dice": {}, "seed": seed})["state"]
    state["corps"]["s2"]["zone"] = "z6"  # under cover 2: its hit points are hidden from side a
    state["corps"]["n2"]["zone"] = "z1"  # under cover 1
    assert _answers_of(jd, state, viewer, seed) == _answers_of(jd, _hide_changes(state, viewer, change), viewer, seed)


@settings(max_examples=5, **SETTINGS)
@given(seed=st.integers(0, 10**6), change=st.integers(1, 6))
def test_a_viewers_round_report_ignores_the_other_sides_secrets(jd, seed, change):
    """The other side's allocation, initiative roll and advantage in the record change nothing side a reads."""
    state = jd.run("new-battle", {**jd.RICH_BATTLE, "dice": {}, "seed": seed})["state"]
    rng = random.Random(seed)
    _, _, record = _round(jd, state, rng)
    record = {**record, "before": state}
    secret = copy.deepcopy(record)
    for name in secret["dice"]:
        if name.endswith("/initiative") and name.startswith("s"):
            secret["dice"][name] = (secret["dice"][name] % 20) + 1
    for step in secret["log"]:
        if step["key"] in ("advantage.allocation", "advantage.change", "initiative.spend") and \
                str(step["params"].get("corps", "")).startswith("s"):
            step["params"] = {**step["params"], "available": change, "advantage": change, "pool": change}
    for event in secret["events"]:
        if event["type"] == "initiative" and event["corps"].startswith("s"):
            event["pool"] = change
    seen = jd.run("visible-round", {"round": record, "viewer": "a"})
    assert seen == jd.run("visible-round", {"round": secret, "viewer": "a"})
    assert jd.run("visible-round", {"round": record, "viewer": "gm"}) != jd.run(
        "visible-round", {"round": secret, "viewer": "gm"}) or record == secret
