"""Invariants of the spec checked on random battles (hypothesis, bounded runs).

A battle is set up by ``new-battle`` from a random army composition, then
driven round after round by random declarations built only from the values
``declaration-options`` allows; it must reach its end (broken army or turn
limit) without any error, keeping every invariant of the state.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from heros_helpers import heros
from rules.heros import hexgrid
from rules.heros.messages import MESSAGES
from rules.heros.setup import check_stacking
from rules.heros.state import Battle
from rules.dice import Dice
from rules.explain import Log

PROFILES = {
    "Kn": (3, 4, 4, 0), "Cv": (3, 3, 4, 0), "LH": (2, 2, 5, 0), "Sp": (4, 4, 3, 0), "Bd": (5, 3, 3, 0),
    "Bw": (2, 4, 3, 2), "Ps": (2, 2, 4, 2), "Wb": (3, 2, 3, 0), "Ax": (3, 2, 3, 0), "Hu": (5, 5, 3, 0),
    "Be": (3, 3, 5, 0), "Fl": (2, 2, 8, 0), "Av": (3, 3, 4, 0), "Ma": (4, 3, 4, 0), "Hd": (2, 2, 2, 0),
    "El": (5, 4, 3, 0), "Bm": (6, 6, 3, 0), "Exp": (3, 3, 4, 0), "St": (4, 4, 4, 0), "Gd": (6, 6, 5, 0),
    "Art": (2, 4, 2, 4), "Ent": (5, 5, 2, 0), "Hu*": (5, 5, 4, 0),
}
WIDTH, HEIGHT = 10, 8


def scenario(rng: random.Random, max_turns: int) -> dict:
    hexes = []
    for col in range(3, 7):
        for row in range(HEIGHT):
            roll = rng.random()
            if roll < 0.15:
                hexes.append({"col": col, "row": row, "terrain": rng.choice(["rough", "difficult"]),
                              "wooded": rng.random() < 0.5, "elevation": rng.randint(0, 2)})
    units, characters, corps = [], [], []
    for side, cols in (("red", (0, 1, 2)), ("blue", (7, 8, 9))):
        corps_ids = [f"{side}-c1"] + ([f"{side}-c2"] if rng.random() < 0.5 else [])
        for k, cid in enumerate(corps_ids):
            gid = f"{side}-g{k}"
            corps.append({"id": cid, "side": side, "kind": "cinc" if k == 0 else rng.choice(["sub", "ally"]),
                          "general_id": gid, "dwarf": rng.random() < 0.2})
        spots = rng.sample([(c, r) for c in cols for r in range(HEIGHT)], rng.randint(3, 6))
        for n, (col, row) in enumerate(spots):
            t = rng.choice(sorted(PROFILES)) if n else "Bd"
            ff, fm, mv, rg = PROFILES[t]
            owner = corps_ids[0] if t == "Gd" else corps_ids[n % len(corps_ids)]
            unit = {"id": f"{side}-u{n}", "corps_id": owner, "troop_type": t.rstrip("*"),
                    "factor_vs_foot": ff, "factor_vs_mounted": fm, "move": mv, "range": rg,
                    "position": {"col": col, "row": row}, "facing": 2 if side == "red" else 5,
                    "regular": rng.random() < 0.6, "character_unit": t == "Hu*",
                    "magician": rng.random() < 0.1, "power_points": 3}
            if t == "Gd" and any(c["id"] == owner and c["kind"] == "sub" for c in corps):
                unit["corps_id"] = corps_ids[0]
            if t in ("Wb", "Kn") and rng.random() < 0.5:
                unit["impetuous"] = True
            units.append(unit)
        units.append({"id": f"{side}-lurk", "corps_id": corps_ids[0], "troop_type": "Lu", "factor_vs_foot": 3,
                      "factor_vs_mounted": 3, "move": 0, "status": "pool"})
        side_units = [u for u in units if u["id"].startswith(side) and u["troop_type"] not in ("Gd", "Lu")
                      and not u.get("character_unit")]
        for k, cid in enumerate(corps_ids):
            kind = next(c["kind"] for c in corps if c["id"] == cid)
            role = {"cinc": "cinc", "sub": "sub_general", "ally": "ally_general"}[kind]
            mine = [u for u in side_units if u["corps_id"] == cid] or side_units
            characters.append({"id": f"{side}-g{k}", "corps_id": cid, "role": role, "combat_bonus": rng.randint(0, 3),
                               "stacked_on": mine[0]["id"], "engaged": rng.random() < 0.7})
        if rng.random() < 0.6:
            characters.append({"id": f"{side}-hero", "corps_id": corps_ids[0], "role": "champion",
                               "combat_bonus": rng.randint(1, 4), "personal_pa": rng.randint(0, 3),
                               "stacked_on": rng.choice(side_units)["id"], "engaged": True,
                               "dwarf": rng.random() < 0.3})
    return {"map": {"width": WIDTH, "height": HEIGHT, "hexes": hexes},
            "sides": [{"id": "red", "cinc_id": "red-g0"}, {"id": "blue", "cinc_id": "blue-g0"}],
            "corps": corps, "units": units, "characters": characters,
            "first_side": rng.choice(["red", "blue"]), "max_turns": max_turns}


def options(state: dict, kind: str, pid: str) -> dict:
    return heros("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}})


def find(opts: list[dict], prefix: str) -> dict | None:
    return next((o for o in opts if o["path"].startswith(prefix)), None)


def declarations(state: dict, rng: random.Random) -> dict:
    """Random legal declarations of the active side, from declaration-options only."""
    side = state["active_side"]
    pa_left = {c["id"]: options(state, "corps", c["id"])["options"][0]["pa_left"]
               for c in state["corps"] if c["side"] == side}
    actions, shootings, melees = [], [], []
    claimed: set[tuple[int, int]] = set()
    busy: set[str] = set()
    extra_used = False
    held: set[str] = set()

    def free(path):
        return not any(hexgrid.key(h) in claimed for h in path)

    units = [u for u in state["units"] if u["side"] == side and u["status"] == "active" and u["position"] is not None]
    for u in units:
        if u["id"] not in state["pending"]["impetuous"]:
            continue
        opts = options(state, "unit", u["id"])["options"]
        kinds = find(opts, "active.actions[].kind")["allowed"]
        exceptions = (find(opts, "active.actions[kind=hold].hold_exception") or {"allowed": []})["allowed"]
        first = u["corps_id"] not in held
        usable = [e for e in exceptions if (e in (None, "strong_position") and pa_left[u["corps_id"]] >= 1)
                  or (e == "cinc_extra_pa" and not extra_used and first)
                  or (e == "sub_general_unmoved" and first and pa_left[u["corps_id"]] >= 1)]
        if "hold" in kinds and usable and rng.random() < 0.5:
            exc = rng.choice(usable)
            held.add(u["corps_id"])
            if exc == "cinc_extra_pa":
                extra_used = True
            else:
                pa_left[u["corps_id"]] -= 1
            actions.append({"id": f"h-{u['id']}", "kind": "hold", "corps_id": u["corps_id"], "units": [u["id"]],
                            "hold_exception": exc})
        else:
            paths = [p for p in find(opts, "active.actions[kind=advance].paths")["allowed"] if free(p)]
            path = rng.choice(paths)
            claimed.update(hexgrid.key(h) for h in path)
            actions.append({"id": f"v-{u['id']}", "kind": "advance", "corps_id": u["corps_id"], "units": [u["id"]],
                            "paths": {u["id"]: path}})
        busy.add(u["id"])
    for u in [x for x in state["units"] if x["side"] == side and x["status"] == "pool"]:
        lurk = find(options(state, "unit", u["id"])["options"], "active.actions[kind=lurker].target_id")
        targets = [t for t in lurk["allowed"] if lurk["pa_cost"] <= pa_left[u["corps_id"]]]
        if targets and rng.random() < 0.5:
            chosen = rng.choice(targets)
            target = next(x for x in state["units"] if x["id"] == chosen)
            front = hexgrid.neighbour(target["position"], target["facing"])
            if hexgrid.key(front) not in claimed:
                claimed.add(hexgrid.key(front))
                pa_left[u["corps_id"]] -= lurk["pa_cost"]
                actions.append({"id": f"l-{u['id']}", "kind": "lurker", "unit_id": u["id"], "target_id": target["id"]})
                busy.add(target["id"])
    for u in rng.sample(units, len(units)):
        if u["id"] in busy:
            continue
        opts = options(state, "unit", u["id"])["options"]
        special = find(opts, "active.actions[kind=climb]") or find(opts, "active.actions[kind=land]") \
            or find(opts, "active.actions[kind=god].path")
        if special and special["allowed"] and rng.random() < 0.4:
            riders = [c for c in state["characters"] if c["stacked_on"] == u["id"]]
            if special["path"].startswith("active.actions[kind=climb]") and special["pa_cost"] <= pa_left[u["corps_id"]] \
                    and not riders:  # a general carried up would make later costs of this bound stale (S_ABS)
                pa_left[u["corps_id"]] -= special["pa_cost"]
                actions.append({"id": f"u-{u['id']}", "kind": "climb", "corps_id": u["corps_id"], "units": [u["id"]]})
                busy.add(u["id"])
                continue
            if special["path"].startswith("active.actions[kind=land]") and special["pa_cost"] <= pa_left[u["corps_id"]]:
                spots = [h for h in special["allowed"] if hexgrid.key(h) not in claimed]
                if spots:
                    spot = rng.choice(spots)
                    claimed.add(hexgrid.key(spot))
                    pa_left[u["corps_id"]] -= special["pa_cost"]
                    actions.append({"id": f"d-{u['id']}", "kind": "land", "corps_id": u["corps_id"], "units": [u["id"]],
                                    "hexes": {u["id"]: spot}})
                    busy.add(u["id"])
                    continue
            if special["path"].startswith("active.actions[kind=god]"):
                paths = [p for p in special["allowed"] if free(p)]
                if paths:
                    path = rng.choice(paths)
                    claimed.update(hexgrid.key(h) for h in path)
                    actions.append({"id": f"g-{u['id']}", "kind": "god", "god_id": u["id"], "path": path})
                    busy.add(u["id"])
                    continue
        move = find(opts, "active.actions[kind=move].paths")
        roll = rng.random()
        if roll < 0.35 and move and move["allowed"] and move.get("pa_cost", 99) <= pa_left[u["corps_id"]]:
            paths = [p for p in move["allowed"] if free(p) and hexgrid.key(p[-1]) not in
                     {hexgrid.key(x["position"]) for x in units if x["id"] != u["id"]}]
            if paths:
                enemies = [x["position"] for x in state["units"] if x["side"] != side and x["status"] == "active"
                           and x["position"] is not None]
                paths.sort(key=lambda p: min((hexgrid.distance(p[-1], e) for e in enemies), default=0))
                path = rng.choice(paths[:3])
                claimed.update(hexgrid.key(h) for h in path)
                pa_left[u["corps_id"]] -= move["pa_cost"]
                actions.append({"id": f"m-{u['id']}", "kind": "move", "corps_id": u["corps_id"], "units": [u["id"]],
                                "paths": {u["id"]: path}})
                busy.add(u["id"])
                continue
        if hexgrid.key(u["position"]) in claimed:
            continue
        shoot = find(opts, "active.shootings[].target_id")
        targets = [t for t in (shoot or {"allowed": []})["allowed"] if t not in busy]
        if targets and roll < 0.7:
            target = rng.choice(targets)
            shootings.append({"id": f"s-{u['id']}", "shooters": [u["id"]], "target_id": target})
            busy.update((u["id"], target))
            continue
        melee = find(opts, "active.melees[].defender_id")
        defenders = [d for d in melee["allowed"] if d not in busy]
        if defenders and roll < 0.95:
            target = rng.choice(defenders)
            melees.append({"id": f"x-{u['id']}", "attacker_id": u["id"], "defender_id": target,
                           "contact": rng.choice(["front", "front", "flank", "rear"])})
            busy.update((u["id"], target))
    heroes = [c for c in state["characters"] if c["side"] == side and c["status"] == "active" and c["position"]]
    for c in heroes[:1]:
        opts = options(state, "hero", c["id"])["options"]
        source = find(opts, "active.actions[kind=character].pa_source")
        path_opt = find(opts, "active.actions[kind=character].path")
        if source is None or path_opt is None or rng.random() < 0.5:
            continue
        paths = [p for p in path_opt["allowed"] if free(p)]
        payers = [s for s in source["allowed"] if s == "personal" or (s == "corps" and pa_left[c["corps_id"]] >= source["pa_cost"])]
        if paths and payers and c["stacked_on"] not in busy:
            pay = rng.choice(payers)
            if pay == "corps":
                pa_left[c["corps_id"]] -= source["pa_cost"]
            path = rng.choice(paths)
            claimed.update(hexgrid.key(h) for h in path)
            actions.append({"id": f"c-{c['id']}", "kind": "character", "character_id": c["id"], "path": path,
                            "pa_source": pay, "engaged": rng.random() < 0.5})
    return {"active": {"actions": actions, "shootings": shootings, "melees": melees}}


def check_state(state: dict) -> None:
    b = Battle(state, Dice(seed=0), Log())
    for u in state["units"]:
        assert u["ep"] >= 0 and (u["activations"] == 0 or state["status"] == "ended")
        if u["status"] == "active" and u["position"] is not None:
            assert hexgrid.inside(u["position"], WIDTH, HEIGHT)
            check_stacking(b, u["position"], u["id"])
        elif u["status"] in ("destroyed", "fled_off", "pool", "dispersed", "departed"):
            assert u["position"] is None
    for c in state["characters"]:
        assert c["wound_malus"] >= 0 and c["moved_hexes"] >= 0
        if c["status"] == "active" and c["stacked_on"] is not None and b.units[c["stacked_on"]]["status"] == "active":
            assert c["position"] == b.units[c["stacked_on"]]["position"]
        if c["status"] == "captured":
            assert c["position"] is None and c["captured_by"] in b.units
    for corps in state["corps"]:
        assert 0 <= corps["ep_lost"] <= corps["ep_total"]
        assert 0 <= corps["pa"]["spent"] <= corps["pa"]["available"]


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=3))
def test_random_legal_battles_reach_their_end(seed, max_turns):
    rng = random.Random(seed)
    out = heros("new-battle", scenario(rng, max_turns), seed=seed)
    state = out["state"]
    totals = {c["id"]: c["ep_total"] for c in state["corps"]}
    for n in range(2 * max_turns + 1):
        if state["status"] == "ended":
            break
        check_state(state)
        decl = declarations(state, rng)
        payload = {"state": state, "declarations": decl}
        result = heros("resolve-round", payload, seed=seed + n)
        if n == 0:
            again = heros("resolve-round", payload, seed=seed + n)
            assert json.dumps(again, sort_keys=True) == json.dumps(result, sort_keys=True)
        state = result["state"]
        assert {c["id"]: c["ep_total"] for c in state["corps"]} == totals
        for step in result["log"]:
            for lang in ("en", "fr"):
                MESSAGES[step["key"]][lang].format(**step["params"])
    assert state["status"] == "ended"
    assert state["result"]["reason"] in ("army_broken", "turn_limit")
