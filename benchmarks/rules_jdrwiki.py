"""Timing of the JdRWiki engine: one ``resolve-round`` and one whole battle.

Run ``python benchmarks/rules_jdrwiki.py``.  The battle: a 5 x 5 grid of
zones with varied terrain, two armies of three corps each with heroes; each
round every corps attacks an enemy in range (the best-costed offensive and
subversive actions ``declaration-options`` allows) or moves toward the
enemy.  Declarations are built outside the timed calls.
"""

from __future__ import annotations

import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import registry  # noqa: E402

REPEATS = 7


def grid(size: int = 5) -> dict:
    zones = {}
    for r in range(size):
        for c in range(size):
            neighbours = [f"r{r + dr}c{c + dc}" for dr, dc in ((1, 0), (0, 1))
                          if r + dr < size and c + dc < size]
            terrain = {"cover": (r * c) % 2, "heights": 1 if (r, c) == (2, 2) else 0, "stronghold": (r == 0) * 1}
            zones[f"r{r}c{c}"] = {"neighbors": neighbours, "terrain": terrain}
    return {"zones": zones}


def army(army_id: str, side: str, zones: list[str], level: int) -> dict:
    criteria = ["hierarchy", "communication", "logistics", "cohesion", "equipment", "training", "motivation",
                "mobility", "diversity", "melee_means", "ranged_means", "defense_means", "knowledge", "culture",
                "history"]
    units = [{"name": "infantry", "value": 1, "count": 6000, "speed": 1},
             {"name": "cavalry", "value": 3, "count": 1000, "speed": 2}]
    hp = 9000
    return {"id": army_id, "side": side,
            "commander": {"level": level, "strategist_rank": 2, "war_arts": 1, "int": 14, "wis": 14, "cha": 14,
                          "heroism_points": 1},
            "criteria": {c: (i % 3) - 1 for i, c in enumerate(criteria)}, "talents": ["brute", "last_chance"],
            "units": units,
            "corps": [{"id": f"{army_id}{i}", "zone": z, "hp": hp // 3} for i, z in enumerate(zones)]}


SETUP = {
    "name": "benchmark", "start_time": "06:00", "map": grid(),
    "armies": [army("n", "a", ["r0c0", "r0c2", "r0c4"], 12), army("s", "b", ["r4c0", "r4c2", "r4c4"], 12)],
    "heroes": [{"id": "hn", "army_id": "n", "corps_id": "n1", "level": 12,
                "bonuses": {"force_attack": 2, "parry": 2, "reflex": 2, "damage": 1}},
               {"id": "hs", "army_id": "s", "corps_id": "s1", "level": 16,
                "bonuses": {"force_attack": 3, "parry": 3, "vigor": 3, "protection": 1}}],
}


def run(op: str, payload: dict) -> dict:
    return registry.run("jdrwiki", op, payload)


def distances(state: dict, start: str) -> dict[str, int]:
    seen, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for zone in frontier:
            for other in state["map"]["zones"][zone]["neighbors"]:
                if other not in seen:
                    seen[other] = seen[zone] + 1
                    nxt.append(other)
        frontier = nxt
    return seen


def toward_enemy(state: dict, cid: str, moves: list[dict]) -> list[dict]:
    side = state["armies"][state["corps"][cid]["army_id"]]["side"]
    enemy_zones = [c["zone"] for c in state["corps"].values()
                   if c["status"] == "active" and state["armies"][c["army_id"]]["side"] != side]
    if not moves or not enemy_zones:
        return []
    best = min(moves, key=lambda m: (min(distances(state, m["path"][0]).get(z, 99) for z in enemy_zones),
                                     m["path"][0]))
    return [best]


def declarations(state: dict) -> dict:
    """A plain policy from the allowed options: strike if possible, else close in."""
    found: dict = {"corps": {}}
    for side in ("a", "b"):
        options = run("declaration-options", {"state": state, "participant": {"kind": "side", "id": side}})["options"]
        by_path = {o["path"]: o for o in options}
        for path, option in by_path.items():
            if not path.endswith(".actions") or not path.startswith("corps."):
                continue
            cid = path.split(".")[1]
            allowed = option["allowed"]
            strikes = [a for a in allowed if a["action"] in ("massive_assault", "combined_assault")]
            sapping = [a for a in allowed if a["action"] in ("weaken", "espionage")]
            steps = max((a["moves"] for a in allowed if a["action"] == "move"), default=0)
            moves = [a for a in allowed if a["action"] == "move" and a["moves"] == min(steps, 3)]
            chosen = strikes[:1] + sapping[:1] if strikes else toward_enemy(state, cid, moves)
            budget, picked = option["budget"], []
            for action in chosen:
                cost = option["catalogue"][action["action"]]["cost"]
                cost = action.get("moves", 1) if cost == "moves" else cost
                if cost <= budget:
                    picked.append(action)
                    budget -= cost
            advantage = state["corps"][cid]["advantage"]
            found["corps"][cid] = {"actions": picked,
                                   "allocation": {"environment": min(0, advantage), "fury": max(0, advantage)}}
    return found


def whole_battle(seed: int) -> tuple[float, int]:
    """Seconds spent in the engine for one battle to its end (or 60 rounds), and the rounds played."""
    spent = 0.0
    start = time.perf_counter()
    state = run("new-battle", {**SETUP, "seed": seed})["state"]
    spent += time.perf_counter() - start
    for played in range(1, 61):
        if state["phase"] == "initiative":
            start = time.perf_counter()
            state = run("roll-initiative", {"state": state, "seed": seed + played})["state"]
            spent += time.perf_counter() - start
        decl = declarations(state)
        start = time.perf_counter()
        state = run("resolve-round", {"state": state, "declarations": decl, "seed": seed + played})["state"]
        spent += time.perf_counter() - start
        if state["ended"]:
            break
    return spent, played


def main() -> None:
    state = run("new-battle", {**SETUP, "seed": 1})["state"]
    for _ in range(3):  # bring the armies into contact for a realistic round
        if state["phase"] == "initiative":
            state = run("roll-initiative", {"state": state, "seed": 2})["state"]
        state = run("resolve-round", {"state": state, "declarations": declarations(state), "seed": 3})["state"]
    state = run("roll-initiative", {"state": state, "seed": 4})["state"]
    decl = declarations(state)
    times = []
    for _ in range(REPEATS * 3):
        payload = {"state": copy.deepcopy(state), "declarations": decl, "seed": 5}
        start = time.perf_counter()
        run("resolve-round", payload)
        times.append(time.perf_counter() - start)
    print(f"resolve-round (6 corps, 25 zones): median {statistics.median(times) * 1000:.2f} ms "
          f"over {len(times)} runs")
    battles = [whole_battle(seed) for seed in range(REPEATS)]
    rounds = [r for _, r in battles]
    print(f"whole battle to its end: median {statistics.median(t for t, _ in battles) * 1000:.1f} ms "
          f"(rounds played: median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}) "
          f"over {REPEATS} battles")


if __name__ == "__main__":
    main()
