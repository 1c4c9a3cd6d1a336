"""Timing of the 7th Sea engine: ``resolve-round`` on a realistic battle, and a whole battle to its end.

Run as ``python benchmarks/rules_seventh_sea.py``.  Prints medians over
several repetitions (``time.perf_counter``); asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.seventh_sea import ruleset  # noqa: E402

REPEATS = 30
BATTLES = 20
ROUND_CAP = 50
ENGAGEMENTS = ["support", "disengaged", "engaged", "front_line"]
STRATEGIES = ["march", "charge", "envelopment", "flank_attack", "entrenchment", "regroup", "reconnaissance",
              "receive_charge", "in_ranks", "fall_back"]
OFFERS = ["take_the_position", "push_them_back", "rescue_comrade", "unhorsed_rider", "save_the_banner", "medic"]


def setup() -> dict:
    """Two armies with quartermasters and eight heroes, four a side, of every unit type."""
    heroes = []
    for index in range(8):
        heroes.append({"id": f"h{index}", "name": f"Hero {index}", "side": "ab"[index % 2], "wits": 2 + index % 3,
                       "tactics": 1 + index % 4, "leadership": index % 3, "brawn": 2 + index % 3, "resolve": 3,
                       "unit_type": ["infantry", "cavalry", "artillery"][index % 3],
                       "commission": "sergeant" if index % 4 == 0 else "none"})
    side = {"troops": 4000, "general": {"wits": 3, "strategy": 3, "incitation": 2},
            "quartermaster": {"wits": 2, "logistics": 3}}
    return {"name": "Bench", "attacker": "a", "sides": {"a": side, "b": {**side, "troops": 3000}}, "heroes": heroes}


def declarations(state: dict, rng: random.Random) -> dict:
    """What a table would declare: strategies, engagements, some help, and answers to offers."""
    heroes = {}
    for hero in state["heroes"]:
        if hero["status"] != "active":
            continue
        decl = {"engagement": rng.choice(ENGAGEMENTS), "help_general": rng.random() < 0.2}
        running = [e for e in hero["effects"] if e["type"] not in ("save_the_banner", "unhorsed_rider")]
        if hero["opportunity_pending"] and not running:
            held = {e["type"] for e in hero["effects"]}
            kind = rng.choice([k for k in OFFERS if k not in held])
            decl["opportunity"] = {"type": kind, "accept": True}
            if kind == "medic":
                decl["help_general"] = False
        heroes[hero["id"]] = decl
    return {"sides": {s: {"strategy": rng.choice(STRATEGIES)} for s in "ab"}, "heroes": heroes}


def whole_battle(seed: int) -> int:
    rng = random.Random(seed)
    state = ruleset.run("new-battle", setup(), seed)["state"]
    while not state["finished"] and state["round"] < ROUND_CAP:
        state = ruleset.run("resolve-round", {"state": state, "declarations": declarations(state, rng)},
                            rng.randrange(2**32))["state"]
    return state["round"]


def main() -> None:
    rng = random.Random(1)
    state = ruleset.run("new-battle", setup(), 1)["state"]
    for _ in range(2):  # a battle already under way: wounds, effects, pending offers
        state = ruleset.run("resolve-round", {"state": state, "declarations": declarations(state, rng)}, 7)["state"]
    decl = declarations(state, rng)
    round_times = []
    for repeat in range(REPEATS):
        start = time.perf_counter()
        ruleset.run("resolve-round", {"state": state, "declarations": decl}, repeat)
        round_times.append(time.perf_counter() - start)
    battle_times, rounds = [], []
    for seed in range(BATTLES):
        start = time.perf_counter()
        rounds.append(whole_battle(seed))
        battle_times.append(time.perf_counter() - start)
    print(f"resolve-round (8 heroes, round 3): median {statistics.median(round_times) * 1000:.2f} ms "
          f"over {REPEATS} runs")
    print(f"whole battle (new-battle to the end): median {statistics.median(battle_times) * 1000:.2f} ms "
          f"over {BATTLES} battles, median {statistics.median(rounds):g} rounds")


if __name__ == "__main__":
    main()
