"""Timing of the SYNAPSE engine: one ``resolve-round`` and a whole battle (2 armies x 6 units).

Run ``python benchmarks/rules_synapse.py``.  It prints median wall times over
several repetitions (time.perf_counter) and asserts nothing.
"""

from __future__ import annotations

import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.synapse import ruleset  # noqa: E402

REPEATS = 30
ROUND_LIMIT = 50


def army(prefix: str, name: str, combat: int) -> dict:
    """Six units: two melee bodies, cavalry, archers, a battery and a reserve."""
    return {
        "name": name,
        "commander": {"name": f"{name} lord", "mental_mod": 2, "presence_mod": 2, "combat": 5, "art_of_war": 3},
        "units": [
            {"id": f"{prefix}_foot", "unit_type": "human_infantry", "headcount": 600, "weapon_damage": 4,
             "combat_base": combat, "armour": 3, "shield": True},
            {"id": f"{prefix}_levy", "unit_type": "human_infantry", "headcount": 900, "weapon_damage": 2,
             "secondary_damage": 2, "combat_base": combat - 3},
            {"id": f"{prefix}_horse", "unit_type": "cavalry", "headcount": 200, "weapon_damage": 5,
             "combat_base": combat + 2, "armour": 4},
            {"id": f"{prefix}_bows", "unit_type": "archers_crossbowmen", "headcount": 300, "weapon_damage": 4,
             "rate_of_fire": "1/2", "weapon_range": "long", "combat_base": combat},
            {"id": f"{prefix}_guns", "unit_type": "artillery", "group": "artillery", "pieces": 6, "headcount": 30,
             "weapon_damage": 40, "rate_of_fire": "1/4", "weapon_range": "long", "combat_base": combat - 1},
            {"id": f"{prefix}_guard", "unit_type": "dwarf_warriors", "group": "reserve", "headcount": 250,
             "weapon_damage": 5, "combat_base": combat + 3, "armour": 5},
        ],
    }


SETUP = {"terrain": "open", "armies": {"A": army("a", "Ost", 5), "B": army("b", "Horde", 4)}}


def declarations(state: dict) -> dict:
    """A simple commander for both sides: everyone able attacks the first legal target; rally the routed."""
    decl: dict = {"sides": {}}
    for side in ("A", "B"):
        options = ruleset.run("declaration-options", {"state": state, "participant": {"kind": "side", "id": side}})
        found = {o["path"]: o for o in options["options"]}
        orders, rally = {}, found.get(f"sides.{side}.rally", {}).get("allowed", [])
        for path, option in found.items():
            if path.endswith(".action") and "attack" in option["allowed"]:
                fid = path[len(f"sides.{side}.orders."):-len(".action")]
                orders[fid] = {"action": "attack", "target": found[f"sides.{side}.orders.{fid}.target"]["allowed"][0]}
        decl["sides"][side] = {"orders": orders, "rally": rally, "commit_reserve": state["round"] == 2}
    return decl


def whole_battle(seed: int) -> tuple[int, str]:
    state = ruleset.run("new-battle", copy.deepcopy(SETUP))["state"]
    while state["status"] == "ongoing" and state["round"] < ROUND_LIMIT:
        state = ruleset.run("resolve-round", {"state": state, "declarations": declarations(state),
                                              "seed": seed + state["round"]})["state"]
    ruleset.run("end-battle", {"state": state, "seed": seed})
    return state["round"], state["status"]


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    state = ruleset.run("new-battle", copy.deepcopy(SETUP))["state"]
    payload = {"state": state, "declarations": declarations(state), "seed": 11}
    round_times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        ruleset.run("resolve-round", payload)
        round_times.append(time.perf_counter() - start)
    battle_times, rounds, ended = [], [], 0
    for seed in range(REPEATS // 3):
        start = time.perf_counter()
        played, status = whole_battle(seed)
        battle_times.append(time.perf_counter() - start)
        rounds.append(played)
        ended += status == "over"
    formations = len(state["formations"])
    print(f"synapse resolve-round, 2 armies x 6 units ({formations} formations): "
          f"median {median_ms(round_times):.2f} ms over {REPEATS} runs")
    print(f"synapse whole battle to its end (declaration-options + resolve-round each round, then end-battle): "
          f"median {median_ms(battle_times):.1f} ms over {len(battle_times)} battles, "
          f"median {statistics.median(rounds)} rounds, {ended} of {len(rounds)} ended before round {ROUND_LIMIT}")


if __name__ == "__main__":
    main()
