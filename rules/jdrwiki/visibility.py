"""``visible-state``: a battle state cut down to what one side may know (S11.3, S5.5.7).

The other side's army sheets, criteria and talents, advantage points,
initiative pools, heroism points, hero bonuses and cooldowns are removed;
positions, statuses, effects (results of public actions) and hero identities
stay.  With ``fog`` (default on) the hit points of an enemy corps under cover
are removed too (S11.3 optional fog).  Declarations in progress, when given,
keep only their public part for the other side's corps and armies (S5.5.7).
"""

from __future__ import annotations

import copy

from rules.explain import Log
from rules.jdrwiki.battle import plain_copy

ENEMY_ARMY_KEPT = ("id", "name", "side", "status", "ruthless")
ENEMY_CORPS_HIDDEN = ("advantage", "initiative")
ENEMY_HERO_KEPT = ("id", "army_id", "corps_id", "name", "class", "status", "is_commander")
# S5.5.7: what stays hidden until the round is resolved.
HIDDEN_ACTION_FIELDS = ("on_critical", "critical_hero", "fallback", "heroic")
HIDDEN_CORPS_FIELDS = ("allocation", "opportune")
HIDDEN_HERO_FIELDS = ("heroism", "sacrifice", "moderation", "dropped_bonuses", "support")
HIDDEN_ARMY_FIELDS = ("heroism", "save_from_fatal")


def visible(state: dict, side: str, fog: bool, log: Log) -> tuple[dict, list[str]]:
    """The filtered state and the JSON paths removed, sorted."""
    view = plain_copy(state)
    hidden: list[str] = []
    enemy_armies = {a for a, army in view["armies"].items() if side != "gm" and army["side"] != side}
    for army_id in sorted(enemy_armies):
        army = view["armies"][army_id]
        for key in sorted(set(army) - set(ENEMY_ARMY_KEPT)):
            hidden.append(f"armies.{army_id}.{key}")
            del army[key]
    zones = view["map"]["zones"]
    for cid, corps in sorted(view["corps"].items()):
        if corps["army_id"] not in enemy_armies:
            continue
        keys = list(ENEMY_CORPS_HIDDEN)
        if fog and corps["status"] == "active" and zones[corps["zone"]]["terrain"]["cover"] >= 1:
            keys.append("hp")
        for key in keys:
            hidden.append(f"corps.{cid}.{key}")
            del corps[key]
    for hero_id, hero in sorted(view["heroes"].items()):
        if hero["army_id"] not in enemy_armies:
            continue
        for key in sorted(set(hero) - set(ENEMY_HERO_KEPT)):
            hidden.append(f"heroes.{hero_id}.{key}")
            del hero[key]
    log.add("S11.3", "visibility.filter", "Side {side} view: {count} fields of the other side hidden.", side=side,
            count=len(hidden))
    return view, hidden


def public_declarations(state: dict, declarations: dict, side: str) -> tuple[dict, list[str]]:
    """S5.5.7: the other side's declarations without their secret parts; own side untouched."""
    view = copy.deepcopy(declarations)
    hidden: list[str] = []
    enemy_armies = {a for a, army in state["armies"].items() if side != "gm" and army["side"] != side}
    for cid, corps_decl in sorted(view["corps"].items()):
        corps = state["corps"].get(cid)
        if corps is None or corps["army_id"] not in enemy_armies:
            continue
        prefix = f"declarations.corps.{cid}"
        for key in HIDDEN_CORPS_FIELDS:
            hidden.append(f"{prefix}.{key}")
            corps_decl.pop(key, None)
        for index, action in enumerate(corps_decl["actions"]):
            for key in HIDDEN_ACTION_FIELDS:
                hidden.append(f"{prefix}.actions[{index}].{key}")
                action.pop(key, None)
        for index, hero in enumerate(corps_decl["heroes"]):
            for key in HIDDEN_HERO_FIELDS:
                hidden.append(f"{prefix}.heroes[{index}].{key}")
                hero.pop(key, None)
    for army_id, army_decl in sorted(view["armies"].items()):
        if army_id in enemy_armies:
            for key in HIDDEN_ARMY_FIELDS:
                hidden.append(f"declarations.armies.{army_id}.{key}")
                army_decl.pop(key, None)
    return view, hidden
