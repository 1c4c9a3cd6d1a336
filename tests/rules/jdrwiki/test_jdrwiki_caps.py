"""Every operation at the size caps finishes within the budget (a request once pinned a CPU for a minute)."""

import copy
import time

from rules.jdrwiki import entities, ruleset

BUDGET_S = 2.0


def at_caps(f1: dict, f2: dict, f4: dict) -> dict:
    """``new-battle`` input: the most zones, neighbours, armies, corps and heroes the caps allow."""
    width = 20
    zones = {}
    for index in range(entities.MAX_ZONES):
        row, col = divmod(index, width)
        near = [r * width + c for r in range(row - 2, row + 3) for c in range(col - 2, col + 3)
                if 0 <= r and 0 <= c < width and r * width + c < entities.MAX_ZONES and r * width + c != index]
        zones[f"z{index}"] = {"neighbors": [f"z{n}" for n in near[:entities.MAX_NEIGHBOURS]],
                              "terrain": {"cover": index % 2}}
    armies, per_army = [], entities.MAX_CORPS // entities.MAX_ARMIES
    for number in range(entities.MAX_ARMIES):
        side = "a" if number % 2 == 0 else "b"
        base = copy.deepcopy(f1 if side == "a" else f2)
        base["units"][0]["count"] *= per_army
        hp = ruleset.run("army-sheet", {"army": base})["hp"]
        row = 2 if side == "a" else 8
        corps = [{"id": f"c{number}-{k}", "zone": f"z{(row + k) * width + (number // 2) * 2}",
                  "hp": hp // per_army + (hp % per_army if k == 0 else 0)} for k in range(per_army)]
        armies.append({**base, "id": f"army{number}", "side": side, "name": f"Army {number}", "corps": corps})
    heroes = []
    for number in range(entities.MAX_HEROES):
        army = armies[number % entities.MAX_ARMIES]
        template = f4["ildar"] if army["side"] == "a" else f4["kavelec"]
        heroes.append({**template, "id": f"h{number}", "army_id": army["id"],
                       "corps_id": army["corps"][number % per_army]["id"]})
    return {"name": "caps", "map": {"zones": zones}, "armies": armies, "heroes": heroes}


def declarations_for(state: dict) -> dict:
    """Every corps attacks the nearest enemy it can reach, with a full allocation; every hero intervenes."""
    corps = {}
    for cid, entry in state["corps"].items():
        corps[cid] = {"actions": [{"action": "subtle_assault", "target": _enemy(state, cid)},
                                  {"action": "espionage", "target": _enemy(state, cid)}],
                      "allocation": {"focus": entry["advantage"]}, "heroes": []}
    for hero_id, hero in state["heroes"].items():
        corps[hero["corps_id"]]["heroes"].append({"hero_id": hero_id})
    return {"corps": corps}


def _enemy(state: dict, cid: str) -> str:
    side = state["armies"][state["corps"][cid]["army_id"]]["side"]
    return next(c for c, v in sorted(state["corps"].items()) if state["armies"][v["army_id"]]["side"] != side)


def _battle(jd) -> dict:
    state = jd.run("new-battle", {**at_caps(jd.F1, jd.F2, jd.F4), "seed": 1})["state"]
    for corps in state["corps"].values():
        corps["effects"] = [{"kind": "skill", "skills": ["parry"], "value": 1, "rounds_left": 3}] * entities.MAX_EFFECTS
    assert len(state["corps"]) == entities.MAX_CORPS and len(state["heroes"]) == entities.MAX_HEROES
    assert len(state["map"]["zones"]) == entities.MAX_ZONES
    return state


def _timed(jd, op, payload):
    """The best of two runs in this process's CPU time (the machine is shared: wall time would count the
    other processes) and the answer."""
    best, answer = None, None
    for _ in range(2):
        start = time.process_time()
        answer = jd.run(op, payload)
        elapsed = time.process_time() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, answer


def test_operations_at_the_caps_stay_within_the_budget(jd):
    battle = _battle(jd)
    declarations = declarations_for(battle)
    own = {"corps": {c: v for c, v in declarations["corps"].items()
                     if battle["armies"][battle["corps"][c]["army_id"]]["side"] == "a"}}
    side = {"kind": "side", "id": "a"}
    timings = {}
    timings["declaration-options"], options = _timed(jd, "declaration-options", {
        "state": battle, "participant": side, "viewer": "a"})
    assert len(options["options"]) > 300
    timings["check-declaration"], checked = _timed(jd, "check-declaration", {
        "state": battle, "viewer": "a", "participant": side, "declaration": own, "declarations": declarations})
    assert checked["ok"] is True
    timings["resolve-round"], played = _timed(jd, "resolve-round", {
        "state": battle, "declarations": declarations, "seed": 2})
    assert len(played["events"]) > 100
    timings["visible-round"], _ = _timed(jd, "visible-round", {"round": {**played, "before": battle},
                                                               "viewer": "a"})
    timings["round-participants"], _ = _timed(jd, "round-participants", {"state": battle})
    slow = {op: round(t, 2) for op, t in timings.items() if t >= BUDGET_S}
    assert not slow, slow
