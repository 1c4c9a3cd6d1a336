"""Timing of the HÉROS engine: one ``resolve-round`` on a realistic battle, and a whole battle.

Run ``python benchmarks/rules_heros.py``; it prints medians of several
repetitions (``time.perf_counter``) and asserts nothing.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.heros import hexgrid, ruleset  # noqa: E402

TYPES = {"Kn": (3, 4, 4, 0), "Sp": (4, 4, 3, 0), "Bd": (5, 3, 3, 0), "Bw": (2, 4, 3, 3), "Ps": (2, 2, 4, 2),
         "Wb": (3, 2, 3, 0), "Cv": (3, 3, 4, 0), "Hu": (5, 5, 3, 0), "Ax": (3, 2, 3, 0), "LH": (2, 2, 5, 0)}
WIDTH, HEIGHT = 20, 14


def setup(seed: int) -> dict:
    """Two armies of two corps and 14 units each, generals and a champion, some rough ground."""
    rng = random.Random(seed)
    hexes = [{"col": c, "row": r, "terrain": "rough", "wooded": True} for c in range(8, 12) for r in range(HEIGHT)
             if rng.random() < 0.2]
    units, characters, corps = [], [], []
    for side, cols, facing in (("red", (1, 2, 3), 2), ("blue", (16, 17, 18), 5)):
        for k, kind in enumerate(("cinc", "sub")):
            corps.append({"id": f"{side}{k}", "side": side, "kind": kind, "general_id": f"{side}-g{k}"})
        for n, (col, row) in enumerate(rng.sample([(c, r) for c in cols for r in range(1, HEIGHT - 1)], 14)):
            t = rng.choice(sorted(TYPES))
            ff, fm, mv, rg = TYPES[t]
            units.append({"id": f"{side}-{n}", "corps_id": f"{side}{n % 2}", "troop_type": t, "factor_vs_foot": ff,
                          "factor_vs_mounted": fm, "move": mv, "range": rg, "impetuous": t == "Wb",
                          "regular": t != "Wb", "position": {"col": col, "row": row}, "facing": facing})
        for k, role in enumerate(("cinc", "sub_general")):
            characters.append({"id": f"{side}-g{k}", "corps_id": f"{side}{k}", "role": role, "combat_bonus": 1 + k,
                               "stacked_on": f"{side}-{k}", "engaged": True})
        characters.append({"id": f"{side}-hero", "corps_id": f"{side}0", "role": "champion", "combat_bonus": 3,
                           "personal_pa": 2, "stacked_on": f"{side}-2", "engaged": True})
    return {"map": {"width": WIDTH, "height": HEIGHT, "hexes": hexes},
            "sides": [{"id": "red", "cinc_id": "red-g0"}, {"id": "blue", "cinc_id": "blue-g0"}],
            "corps": corps, "units": units, "characters": characters, "first_side": "red", "max_turns": 12}


def unit_options(state: dict, uid: str) -> list[dict]:
    return ruleset.run("declaration-options", {"state": state, "participant": {"kind": "unit", "id": uid}})["options"]


def declarations(state: dict) -> dict:
    """Aggressive legal orders: impetuous units advance, others close in, adjacent units attack."""
    side = state["active_side"]
    enemies = [u["position"] for u in state["units"] if u["side"] != side and u["status"] == "active" and u["position"]]
    left = {c["id"]: c["pa"]["available"] for c in state["corps"] if c["side"] == side}
    actions, melees, busy, claimed = [], [], set(), set()
    mine = [u for u in state["units"] if u["side"] == side and u["status"] == "active" and u["position"]]
    for u in mine:
        if u["id"] in state["pending"]["impetuous"]:
            actions.append({"id": f"v{u['id']}", "kind": "advance", "corps_id": u["corps_id"], "units": [u["id"]],
                            "paths": {u["id"]: []}})
            busy.add(u["id"])
    for u in mine:
        if u["id"] in busy:
            continue
        opts = unit_options(state, u["id"])
        melee = next(o for o in opts if o["path"] == "active.melees[].defender_id")
        targets = [d for d in melee["allowed"] if d not in busy]
        if targets:
            melees.append({"id": f"m{u['id']}", "attacker_id": u["id"], "defender_id": targets[0]})
            busy.update((u["id"], targets[0]))
            continue
        move = next((o for o in opts if o["path"].startswith("active.actions[kind=move].paths")), None)
        if move and move["allowed"] and move.get("pa_cost", 9) <= left[u["corps_id"]]:
            occupied = {hexgrid.key(x["position"]) for x in mine}
            paths = [p for p in move["allowed"] if not any(hexgrid.key(h) in claimed | occupied for h in p)]
            if paths:
                path = min(paths, key=lambda p: min(hexgrid.distance(p[-1], e) for e in enemies))
                claimed.update(hexgrid.key(h) for h in path)
                left[u["corps_id"]] -= move["pa_cost"]
                actions.append({"id": f"a{u['id']}", "kind": "move", "corps_id": u["corps_id"], "units": [u["id"]],
                                "paths": {u["id"]: path}})
    return {"active": {"actions": actions, "melees": melees}}


def whole_battle(seed: int) -> tuple[dict, int, list[tuple[dict, dict]]]:
    state = ruleset.run("new-battle", setup(seed), seed)["state"]
    rounds, played = 0, []
    while state["status"] == "ongoing" and rounds < 30:
        decl = declarations(state)
        played.append((state, decl))
        state = ruleset.run("resolve-round", {"state": state, "declarations": decl}, seed + rounds)["state"]
        rounds += 1
    return state, rounds, played


def median_ms(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    final, rounds, played = whole_battle(7)
    contact = max(played, key=lambda sd: len(sd[1]["active"]["melees"]))
    state, decl = copy.deepcopy(contact[0]), contact[1]
    one = median_ms(lambda: ruleset.run("resolve-round", {"state": state, "declarations": decl}, 1), 15)
    print(f"resolve-round, {len(state['units'])} units, {len(decl['active']['actions'])} actions, "
          f"{len(decl['active']['melees'])} melees: median {one:.1f} ms over 15 runs")
    print(f"whole battle (seed 7): {rounds} rounds, ended by {final['result']['reason'] if final['result'] else '-'}")
    play_only = median_ms(lambda: [ruleset.run("resolve-round", {"state": s, "declarations": d}, 1) for s, d in played], 5)
    print(f"whole battle, resolve-round calls only: median {play_only:.1f} ms over 5 runs")
    full = median_ms(lambda: whole_battle(7), 3)
    print(f"whole battle with new-battle and declaration-options driving it: median {full:.0f} ms over 3 runs")


if __name__ == "__main__":
    main()
