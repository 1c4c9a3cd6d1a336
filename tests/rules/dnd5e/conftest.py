"""Shared inputs of the dnd5e tests: the sample profiles of S3.11, the
"Skirmish at the ford" of S9.5 and a larger battle, plus a driver that plays
random legal declarations built from ``declaration-options``."""

from __future__ import annotations

import copy
import random
import sys

import pytest

from rules.dnd5e import ruleset  # alone: these tests never wait on another engine importing

# Test modules import these helpers as ``dnd5e_testkit`` (pytest's importlib mode puts no test folder on sys.path).
sys.modules.setdefault("dnd5e_testkit", sys.modules[__name__])

PROFILES = {
    "orc": {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
            "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
            "cha_check_bonus": 2,
            "attacks": [
                {"name": "greataxe", "kind": "melee", "to_hit": 5, "damage": [{"dice": "1d12+3", "type": "slashing"}],
                 "reach_m": 1.5},
                {"name": "javelin", "kind": "ranged", "to_hit": 5, "damage": [{"dice": "1d6+3", "type": "piercing"}],
                 "range_m": 9, "long_range_m": 36}]},
    "hobgoblin": {"name": "Hobgoblin", "size": "medium", "ac": 18, "hp_max": 11, "speed_m": 9,
                  "abilities": {"str": 13, "dex": 12, "con": 12, "int": 10, "wis": 10, "cha": 9},
                  "attacks": [
                      {"name": "longsword", "kind": "melee", "to_hit": 3,
                       "damage": [{"dice": "1d8+1", "type": "slashing"}], "reach_m": 1.5},
                      {"name": "longbow", "kind": "ranged", "to_hit": 3,
                       "damage": [{"dice": "1d8+1", "type": "piercing"}], "range_m": 45, "long_range_m": 180}]},
    "ogre": {"name": "Ogre", "size": "large", "ac": 11, "hp_max": 59, "speed_m": 12,
             "abilities": {"str": 19, "dex": 8, "con": 16, "int": 5, "wis": 7, "cha": 7},
             "attacks": [
                 {"name": "greatclub", "kind": "melee", "to_hit": 6,
                  "damage": [{"dice": "2d8+4", "type": "bludgeoning"}], "reach_m": 1.5},
                 {"name": "javelin", "kind": "ranged", "to_hit": 6, "damage": [{"dice": "2d6+4", "type": "piercing"}],
                  "range_m": 9, "long_range_m": 36}]},
    "knight": {"name": "Knight", "size": "medium", "ac": 18, "hp_max": 52, "speed_m": 9,
               "abilities": {"str": 16, "dex": 11, "con": 14, "int": 11, "wis": 11, "cha": 15},
               "save_bonuses": {"con": 4, "wis": 2}, "stealth_disadvantage": True,
               "multiattack": ["greatsword", "greatsword"],
               "attacks": [
                   {"name": "greatsword", "kind": "melee", "to_hit": 5,
                    "damage": [{"dice": "2d6+3", "type": "slashing"}], "reach_m": 1.5},
                   {"name": "heavy_crossbow", "kind": "ranged", "to_hit": 2,
                    "damage": [{"dice": "1d10", "type": "piercing"}], "range_m": 30, "long_range_m": 120}]},
    "mage": {"name": "Mage", "size": "medium", "ac": 12, "hp_max": 40, "speed_m": 9,
             "abilities": {"str": 9, "dex": 14, "con": 11, "int": 17, "wis": 12, "cha": 11},
             "save_bonuses": {"int": 6, "wis": 4},
             "attacks": [{"name": "dagger", "kind": "melee", "to_hit": 5,
                          "damage": [{"dice": "1d4+2", "type": "piercing"}], "reach_m": 1.5}],
             "spells": [
                 {"name": "fire_bolt", "targeting": "targeted", "range_m": 36, "resolution": "attack", "to_hit": 6,
                  "damage": [{"dice": "2d10", "type": "fire"}], "max_targets": 1},
                 {"name": "fireball", "targeting": "area", "range_m": 45, "resolution": "save", "save_ability": "dex",
                  "save_dc": 14, "half_on_save": True, "damage": [{"dice": "8d6", "type": "fire"}],
                  "area": {"shape": "sphere", "size_m": 6}, "uses": 3}]},
    "hill_giant": {"name": "Hill giant", "size": "huge", "ac": 13, "hp_max": 105, "speed_m": 12,
                   "abilities": {"str": 21, "dex": 8, "con": 19, "int": 5, "wis": 9, "cha": 6},
                   "passive_perception": 12, "multiattack": ["greatclub", "greatclub"],
                   "attacks": [
                       {"name": "greatclub", "kind": "melee", "to_hit": 8,
                        "damage": [{"dice": "3d8+5", "type": "bludgeoning"}], "reach_m": 3},
                       {"name": "rock", "kind": "ranged", "to_hit": 8,
                        "damage": [{"dice": "3d10+5", "type": "bludgeoning"}], "range_m": 18, "long_range_m": 72}]},
}

FORD_SETUP = {
    "name": "Skirmish at the ford",
    "map": {"width": 4, "height": 3, "cells": []},
    "profiles": {"orc": PROFILES["orc"], "hobgoblin": PROFILES["hobgoblin"]},
    "sides": {"A": {"name": "Orc horde", "controller": "gm"}, "B": {"name": "Hobgoblin legion", "controller": "player-1"}},
    "units": {
        "u_a": {"side": "A", "name": "Orc band", "type": "regiment", "configuration": "march",
                "stands": [{"id": "sa1", "profile": "orc", "position": [1, 1]}]},
        "u_b": {"side": "B", "name": "Hobgoblin line", "type": "regiment", "configuration": "march",
                "stands": [{"id": "sb1", "profile": "hobgoblin", "position": [2, 1]}]}},
    "objectives": {"oa": {"side": "A", "type": "attrition", "vp_per_unit": 3},
                   "ob": {"side": "B", "type": "attrition", "vp_per_unit": 3}},
    "dice": {"init.u_a": [13], "init.u_b": [11]},
}


def big_setup() -> dict:
    """A realistic field: two armies of regiments, skirmishers and solos, a road, a wood, a hill, a river, a bridge."""
    cells = [{"at": [x, 4], "terrain": "road"} for x in range(16)]
    cells += [{"at": [x, y], "terrain": "forest"} for x in (2, 3) for y in (1, 2)]
    cells += [{"at": [12, y], "terrain": "open", "elevation": 1} for y in (1, 2)]
    cells += [{"at": [8, y], "terrain": "deep_water"} for y in (0, 1, 2)]
    cells += [{"at": [8, y], "terrain": "shallow_water"} for y in (5, 6, 7, 8, 9)]
    cells += [{"at": [6, 7], "terrain": "open", "difficult": True}]
    return {
        "name": "Battle of the bridge",
        "map": {"width": 16, "height": 10, "cells": cells},
        "profiles": copy.deepcopy(PROFILES),
        "sides": {"A": {"name": "Horde"}, "B": {"name": "Legion"}},
        "units": {
            "a_reg": {"side": "A", "type": "regiment", "configuration": "march", "stands": [
                {"id": "ar1", "profile": "orc", "position": [3, 4]}, {"id": "ar2", "profile": "orc", "position": [3, 5]},
                {"id": "ar3", "profile": "orc", "position": [3, 6]}, {"id": "ar4", "profile": "ogre", "position": [1, 5]}]},
            "a_sk": {"side": "A", "type": "skirmishers", "stands": [
                {"id": "as1", "profile": "orc", "position": [2, 1]}, {"id": "as2", "profile": "orc", "position": [4, 1]}]},
            "a_giant": {"side": "A", "type": "regiment", "configuration": "support", "stands": [
                {"id": "ag1", "profile": "hill_giant", "position": [0, 7]}]},
            "b_reg": {"side": "B", "type": "regiment", "configuration": "defense", "stands": [
                {"id": "br1", "profile": "hobgoblin", "position": [12, 4]},
                {"id": "br2", "profile": "hobgoblin", "position": [12, 5]},
                {"id": "br3", "profile": "hobgoblin", "position": [12, 6]}]},
            "b_sk": {"side": "B", "type": "skirmishers", "stands": [
                {"id": "bs1", "profile": "hobgoblin", "position": [12, 1]},
                {"id": "bs2", "profile": "hobgoblin", "position": [14, 2]}]},
            "b_mages": {"side": "B", "type": "skirmishers", "stands": [
                {"id": "bm1", "profile": "mage", "position": [14, 8]}]},
        },
        "solos": {
            "chief": {"side": "A", "profile": "knight", "attached_to": "ar1", "commander_of": "a_reg", "controller": "p1"},
            "wizard": {"side": "B", "profile": "mage", "position": [13, 8], "controller": "p2"},
            "captain": {"side": "B", "profile": "knight", "attached_to": "br2", "commander_of": "b_reg"},
        },
        "objective_squares": {"bw": {"at": [7, 4], "hp_max": 40, "vp": 5}, "be": {"at": [9, 4], "hp_max": 40, "vp": 5}},
        "objectives": {
            "burn": {"side": "A", "type": "destruction", "squares": ["bw", "be"]},
            "hold": {"side": "B", "type": "protection", "squares": ["bw", "be"]},
            "wear_a": {"side": "A", "type": "attrition", "vp_per_unit": 2},
            "wear_b": {"side": "B", "type": "attrition", "vp_per_unit": 2},
            "flag": {"side": "B", "type": "custom", "vp": 2, "description": "Raise the flag on the hill"},
        },
    }


def run(op: str, payload: dict, seed: int | None = None) -> dict:
    return ruleset.run(op, payload, seed)


def pick(rng: random.Random, options: list[dict], suffix: str):
    return next((o for o in options if o["path"].endswith(suffix)), None)


def random_declarations(state: dict, rng: random.Random) -> dict:
    """Declarations built only from the allowed values of ``declaration-options``."""
    decl: dict = {"units": {}, "solos": {}}
    for uid in state["units"]:
        out = run("declaration-options", {"state": state, "participant": {"kind": "unit", "id": uid}})
        if not out["must_declare"]:
            continue
        opts = {o["path"]: o for o in out["options"]}
        action = rng.choice(opts[f"units.{uid}.action"]["allowed"])
        orders: dict = {"action": action, "stands": []}
        if action == "configure":
            orders["configuration"] = rng.choice(opts[f"units.{uid}.configuration"]["allowed"])
        index = 0
        while f"units.{uid}.stands[{index}].stand" in opts:
            base = f"units.{uid}.stands[{index}]"
            order: dict = {"stand": opts[f"{base}.stand"]["allowed"][0]}
            moves = opts[f"{base}.move"]["allowed"]
            if moves and rng.random() < 0.7:
                order["move"] = rng.choice(moves)
            if rng.random() < 0.2:
                order["road_step"] = rng.choice(opts[f"{base}.road_step"]["allowed"])
            own = opts.get(f"{base}.action")
            stand_action = action
            if action == "cast_spell" and own is not None:
                stand_action = rng.choice(own["allowed"])
                order["action"] = stand_action
            attacks = opts.get(f"{base}.attacks")
            support = opts.get(f"{base}.support")
            if stand_action == "attack" and action == "attack" and support and rng.random() < 0.3:
                order["support"] = rng.choice(support["allowed"])
            elif stand_action == "attack" and attacks and attacks["allowed"]:
                multi = attacks.get("multiattack")
                choices = [a for a in attacks["allowed"] if not multi or a["attack"] in multi]
                if choices:
                    a = rng.choice(choices)
                    order["attacks"] = [{"attack": a["attack"], "target": a["target"]}]
            spell = opts.get(f"{base}.spell.name")
            if action == "cast_spell" and spell and spell["allowed"]:
                chosen = spell_order(opts, base, rng.choice(spell["allowed"]), rng)
                if chosen:
                    order["spell"] = chosen
            orders["stands"].append(order)
            index += 1
        decl["units"][uid] = orders
    for hid in state["solos"]:
        out = run("declaration-options", {"state": state, "participant": {"kind": "solo", "id": hid}})
        if not out["must_declare"]:
            continue
        opts = {o["path"]: o for o in out["options"]}
        base = f"solos.{hid}"
        order = {"action": rng.choice(opts[f"{base}.action"]["allowed"])}
        if f"{base}.move" in opts and opts[f"{base}.move"]["allowed"] and rng.random() < 0.6:
            order["move"] = rng.choice(opts[f"{base}.move"]["allowed"])
        if order["action"] == "join":
            stands = [s for s in opts[f"{base}.join"]["allowed"] if s]
            if not stands:
                order["action"] = "none"
            else:
                order["join"] = rng.choice(stands)
        if order["action"] == "attack":
            attacks = opts[f"{base}.attacks"]
            multi = attacks.get("multiattack")
            choices = [a for a in attacks["allowed"] if not multi or a["attack"] in multi]
            if choices:
                a = rng.choice(choices)
                order["attacks"] = [{"attack": a["attack"], "target": a["target"]}]
        if order["action"] == "cast_spell":
            spell = opts.get(f"{base}.spell.name")
            if spell and spell["allowed"]:
                chosen = spell_order(opts, base, rng.choice(spell["allowed"]), rng)
                if chosen:
                    order["spell"] = chosen
        if f"{base}.detach_to" in opts:
            roll = rng.random()
            if roll < 0.15:
                order["detach_to"] = rng.choice(opts[f"{base}.detach_to"]["allowed"])
            elif roll < 0.3:
                order["switch_to"] = rng.choice(opts[f"{base}.switch_to"]["allowed"])
            order["detach_when"] = rng.choice(opts[f"{base}.detach_when"]["allowed"])
            order["timing"] = rng.choice(opts[f"{base}.timing"]["allowed"])
        bonus = opts[f"{base}.bonus_action"]["allowed"]
        order["bonus_action"] = rng.choice(bonus)
        decl["solos"][hid] = order
    return decl


def spell_order(opts: dict, base: str, name: str, rng: random.Random) -> dict | None:
    """A spell order from the options: a target in range, or an origin and a direction."""
    targets = [t["target"] for t in opts[f"{base}.spell.targets"]["allowed"] if t["spell"] == name]
    origins = [o["squares"] for o in opts[f"{base}.spell.origin"]["allowed"] if o["spell"] == name]
    direction = rng.choice(opts[f"{base}.spell.direction"]["allowed"])
    if origins and origins[0]:
        return {"name": name, "origin": rng.choice(origins[0]), "direction": direction}
    if targets:
        return {"name": name, "targets": [rng.choice(targets)]}
    return None


@pytest.fixture
def ford_state() -> dict:
    return run("new-battle", copy.deepcopy(FORD_SETUP))["state"]


@pytest.fixture
def big_state() -> dict:
    return run("new-battle", big_setup(), seed=11)["state"]
