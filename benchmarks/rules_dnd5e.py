"""Timing of the D&D 5e mass combat engine on a realistic battle.

Prints the median time of one ``resolve-round`` (mid-battle, with every unit
and solo acting) and of a whole battle played to its end (or to 30 rounds)
with scripted declarations: every unit marches on the nearest enemy and
attacks what it can reach.  Run: ``python benchmarks/rules_dnd5e.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.registry import run  # noqa: E402

ROUND_LIMIT = 30


def orc(name: str, hp: int, size: str = "medium", reach: float = 1.5) -> dict:
    return {"name": name, "size": size, "ac": 13, "hp_max": hp, "speed_m": 9,
            "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
            "attacks": [{"name": "axe", "kind": "melee", "to_hit": 5, "damage": [{"dice": "1d12+3", "type": "slashing"}],
                         "reach_m": reach},
                        {"name": "bow", "kind": "ranged", "to_hit": 4, "damage": [{"dice": "1d8+2", "type": "piercing"}],
                         "range_m": 45, "long_range_m": 180}]}


def setup() -> dict:
    """Two armies of 28 stands each (regiments and skirmishers) and four solos on a 30 x 20 field."""
    units = {}
    for side, x0, step in (("A", 2, 1), ("B", 27, -1)):
        for u in range(4):
            stands = [{"id": f"{side}{u}s{i}", "profile": "ogre" if i == 5 else "orc",
                       "position": [x0 + step * (i // 3) * (2 if i == 5 else 1), 2 + u * 4 + i % 3]}
                      for i in range(6)]
            units[f"{side}u{u}"] = {"side": side, "type": "regiment" if u % 2 == 0 else "skirmishers",
                                    "configuration": "march" if u % 2 == 0 else None, "stands": stands}
        units[f"{side}arch"] = {"side": side, "type": "skirmishers", "stands": [
            {"id": f"{side}a{i}", "profile": "orc", "position": [x0 - step * 2, 2 + i * 3]} for i in range(4)]}
    return {
        "name": "Benchmark field",
        "map": {"width": 30, "height": 20, "cells": [{"at": [x, 10], "terrain": "road"} for x in range(30)]
                + [{"at": [14, y], "terrain": "forest"} for y in range(3, 8)]},
        "profiles": {"orc": orc("Orc", 15), "ogre": orc("Ogre", 59, "large")},
        "sides": {"A": {"name": "West"}, "B": {"name": "East"}},
        "units": units,
        "solos": {"hA": {"side": "A", "profile": "ogre", "position": [5, 18]},
                  "hB": {"side": "B", "profile": "ogre", "position": [24, 18]},
                  "cA": {"side": "A", "profile": "orc", "attached_to": "A0s0", "commander_of": "Au0"},
                  "cB": {"side": "B", "profile": "orc", "attached_to": "B0s0", "commander_of": "Bu0"}},
        "objectives": {"wa": {"side": "A", "type": "attrition", "vp_per_unit": 2},
                       "wb": {"side": "B", "type": "attrition", "vp_per_unit": 2}},
    }


def footprint(state: dict, cid: str) -> tuple[int, int, int]:
    entity = state["stands"].get(cid) or state["solos"][cid]
    side = 2 if state["profiles"][entity["profile"]]["size"] == "large" else 1
    return entity["position"][0], entity["position"][1], side


def distance(a, b) -> int:
    dx = max(0, b[0] - (a[0] + a[2] - 1), a[0] - (b[0] + b[2] - 1))
    dy = max(0, b[1] - (a[1] + a[2] - 1), a[1] - (b[1] + b[2] - 1))
    return dx + dy


def declarations(state: dict) -> dict:
    """Every unit attacks; each stand steps towards its nearest enemy and strikes or shoots it."""
    units = {}
    for uid, u in state["units"].items():
        if u["eliminated_round"] is not None or u["broken"]:
            continue
        orders = []
        foes = [s for s, v in state["stands"].items()
                if v["status"] in ("active", "casualty") and state["units"][v["unit"]]["side"] != u["side"]]
        for sid in u["stands"]:
            if state["stands"][sid]["status"] not in ("active", "casualty") or not foes:
                continue
            me = footprint(state, sid)
            target = min(foes, key=lambda f: (distance(me, footprint(state, f)), f))
            d = distance(me, footprint(state, target))
            move = []
            if d > 1:
                x, y = me[0], me[1]
                tx, ty = footprint(state, target)[:2]
                step = (1 if tx > x else -1, 0) if abs(tx - x) >= abs(ty - y) else (0, 1 if ty > y else -1)
                move = [[x + step[0], y + step[1]]]
            attack = "axe" if d <= 1 else "bow"
            orders.append({"stand": sid, "move" if u["type"] == "regiment" else "move_after": move,
                           "attacks": [{"attack": attack, "target": target}]} if move else
                          {"stand": sid, "attacks": [{"attack": attack, "target": target}]})
        units[uid] = {"action": "attack", "stands": orders}
    return {"units": units}


def whole_battle(seed: int) -> int:
    state = run("dnd5e", "new-battle", setup(), seed=seed)["state"]
    for _ in range(ROUND_LIMIT):
        out = run("dnd5e", "resolve-round", {"state": state, "declarations": declarations(state)}, seed=seed)
        state = out["state"]
        if out["battle_over"]:
            break
    return state["round"] - 1


def main() -> None:
    state = run("dnd5e", "new-battle", setup(), seed=1)["state"]
    for _ in range(3):  # move the armies into contact first
        state = run("dnd5e", "resolve-round", {"state": state, "declarations": declarations(state)}, seed=1)["state"]
    payload = {"state": state, "declarations": declarations(state)}
    round_times = []
    for rep in range(15):
        start = time.perf_counter()
        run("dnd5e", "resolve-round", payload, seed=rep)
        round_times.append(time.perf_counter() - start)
    battle_times, rounds = [], []
    for rep in range(5):
        start = time.perf_counter()
        rounds.append(whole_battle(rep))
        battle_times.append(time.perf_counter() - start)
    stands = len(state["stands"])
    print(f"resolve-round, {stands} stands and 4 solos: median {statistics.median(round_times) * 1000:.1f} ms "
          f"over {len(round_times)} runs")
    print(f"whole battle to its end (rounds {rounds}): median {statistics.median(battle_times) * 1000:.0f} ms "
          f"over {len(battle_times)} runs")


if __name__ == "__main__":
    main()
