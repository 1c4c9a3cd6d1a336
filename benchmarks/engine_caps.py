"""Time the engines' slowest operations on inputs at their size caps.

Every input of an engine is bounded in its schema (docs/battle-contract.md,
"Size caps").  This script builds, per ruleset, one battle with every cap
reached at once where it costs the most (largest map, most units and stands,
fastest creatures, most attacks and spells) and prints the median time of
``declaration-options`` (for the participant whose options cost the most) and
``resolve-round``, with the size of each answer.  A ruleset is added by adding
one builder to ``BUILDERS``: it returns the state, the participant and the
declarations to time.

Run: ``.venv/bin/python benchmarks/engine_caps.py [ruleset ...] [--runs N]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def run(slug: str, op: str, payload: dict, seed: int = 0) -> dict:
    """One operation of one engine (imported alone: the timing holds no other engine's import)."""
    return importlib.import_module(f"rules.{slug}").ruleset.run(op, payload, seed)


def dnd5e_at_caps() -> dict:
    """D&D 5e (rules/dnd5e/caps.py): an 80 x 80 field, 40 units of 10 stands, 40 solos, 50 objective squares.

    Every profile walks 36 m and carries the most attacks and spells (two of them area spells of
    unlimited range), so the unit whose options are asked has 20 ... stands that can each reach
    hundreds of squares and aim at every enemy on the field.
    """
    from rules.dnd5e import caps

    side = caps.MAP_SIDE
    damage = [{"dice": "1d8+3", "type": "slashing"}]
    attacks = [{"name": f"a{i}", "kind": "ranged" if i % 2 else "melee", "to_hit": 5, "damage": damage,
                "range_m": 9000 if i % 2 else None, "reach_m": 1.5} for i in range(caps.ATTACKS)]
    for attack in attacks:
        if attack["range_m"] is None:
            del attack["range_m"]
    spells = [{"name": f"s{i}", "targeting": "area", "range_m": 9000, "resolution": "save", "save_ability": "dex",
               "save_dc": 14, "damage": damage, "area": {"shape": "sphere", "size_m": 6}} for i in range(2)]
    spells += [{"name": f"t{i}", "targeting": "targeted", "range_m": 9000, "resolution": "attack", "to_hit": 6,
                "damage": damage, "max_targets": 5} for i in range(caps.SPELLS - 2)]
    profile = {"name": "Runner", "size": "medium", "ac": 14, "hp_max": 20, "speed_m": caps.SPEED_M,
               "abilities": {"str": 14, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 10},
               "attacks": attacks, "spells": spells}
    profiles = {f"p{i}": {**profile, "name": f"Runner {i}"} for i in range(caps.PROFILES)}
    per_unit = caps.STANDS // caps.UNITS
    units = {}
    for u in range(caps.UNITS):
        team = "A" if u % 2 == 0 else "B"
        row = (u // 2) * 2 if team == "A" else side - 1 - (u // 2) * 2
        stands = [{"id": f"u{u}s{i}", "profile": f"p{u % caps.PROFILES}", "position": [i * 2, row]}
                  for i in range(per_unit)]
        units[f"u{u}"] = {"side": team, "name": f"Unit {u}", "type": "skirmishers", "stands": stands}
    # the unit asked about: the most stands a unit may have, in the open middle of the field
    units["u0"]["stands"] = [{"id": f"big{i}", "profile": "p0", "position": [i * 3 + 10, side // 2 + (i % 2) * 3]}
                             for i in range(caps.STANDS_PER_UNIT)]
    extra = caps.STANDS_PER_UNIT - per_unit
    for uid in list(units)[::-1][:extra]:  # as many stands fewer elsewhere
        units[uid]["stands"].pop()
    solos = {f"h{i}": {"side": "A" if i % 2 == 0 else "B", "profile": "p1",
                       "position": [side - 1 - i, side // 2 - 6 + (i % 2) * 14]} for i in range(caps.SOLOS)}
    squares = {f"q{i}": {"at": [21 + i, side // 2 - 3], "hp_max": 50, "vp": 1} for i in range(caps.OBJECTIVE_SQUARES)}
    setup = {"map": {"width": side, "height": side, "cells": [{"at": [x, y], "terrain": "open"}
                                                              for y in range(side) for x in range(side)]},
             "profiles": profiles, "sides": {"A": {"name": "West"}, "B": {"name": "East"}}, "units": units,
             "solos": solos, "objective_squares": squares}
    state = run("dnd5e", "new-battle", setup, seed=1)["state"]
    orders = {}
    for uid, unit in state["units"].items():
        foes = [s for s, v in state["stands"].items() if state["units"][v["unit"]]["side"] != unit["side"]]
        orders[uid] = {"action": "attack", "stands": [
            {"stand": sid, "attacks": [{"attack": "a1", "target": foes[k % len(foes)]}]}
            for k, sid in enumerate(unit["stands"])]}
    return {"state": state, "participant": {"kind": "unit", "id": "u0"}, "declarations": {"units": orders}}


def synapse_at_caps() -> dict:
    """SYNAPSE: 40 vehicle units a side (one formation each), every vehicle type and weapon slot used, long
    names, every formation attacking."""
    def vehicle(uid):
        return {"id": uid, "category": "vehicle", "crew_combat": 5, "vehicle_types": [
            {"name": "t" * 200, "count": 20, "toughness": 100, "armour": 10,
             "weapons": [{"name": "w", "weapon_damage": 50, "rate_of_fire": "4R"}] * 8}] * 4}
    state = run("synapse", "new-battle", {"mode": "vehicles", "combat_type": "ground", "armies": {
        side: {"name": side, "units": [vehicle(f"{side.lower()}{i}") for i in range(40)]} for side in "AB"}})["state"]
    enemy = {"A": "B.b0", "B": "A.a0"}
    declarations = {}
    for fid, formation in state["formations"].items():
        declarations[f"sides.{formation['side']}.orders.{fid}.action"] = "attack"
        declarations[f"sides.{formation['side']}.orders.{fid}.target"] = enemy[formation["side"]]
    return {"state": state, "participant": {"kind": "side", "id": "A"}, "declarations": declarations}


BUILDERS = {"dnd5e": dnd5e_at_caps, "synapse": synapse_at_caps}


def timed(slug: str, op: str, payload: dict, runs: int) -> tuple[float, float, int]:
    """Median wall-clock and CPU seconds of ``runs`` calls, and the answer's size in bytes of JSON.

    On a shared machine the CPU time is the steadier figure: the wall clock also counts the others' work.
    """
    walls, cpus, size = [], [], 0
    for rep in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        out = run(slug, op, payload, seed=rep)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        size = len(json.dumps(out))
    return statistics.median(walls), statistics.median(cpus), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", help=f"among {', '.join(sorted(BUILDERS))} (all by default)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    unknown = sorted(set(args.rulesets) - set(BUILDERS))
    if unknown:
        parser.error(f"no builder at the caps for {', '.join(unknown)}: choose among {', '.join(sorted(BUILDERS))}")
    for slug in args.rulesets or sorted(BUILDERS):
        case = BUILDERS[slug]()
        ops = {"declaration-options": {"state": case["state"], "participant": case["participant"]},
               "resolve-round": {"state": case["state"], "declarations": case["declarations"]}}
        for op, payload in ops.items():
            wall, cpu, size = timed(slug, op, payload, args.runs)
            print(f"{slug} {op}: median {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms of CPU) over {args.runs} runs, "
                  f"answer {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
