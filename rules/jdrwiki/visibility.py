"""``visible-state``: a battle state cut down to what one side may know (S11.3, S5.5.7).

The other side's army sheets, criteria and talents, advantage points,
initiative pools, heroism points, hero bonuses and cooldowns are removed;
positions, statuses, effects (results of public actions) and hero identities
stay.  With ``fog`` (default on) the hit points of an enemy corps under cover
are removed too (S11.3 optional fog).
"""

from __future__ import annotations

import copy

from rules.explain import Log

ENEMY_ARMY_KEPT = ("id", "name", "side", "status", "ruthless")
ENEMY_CORPS_HIDDEN = ("advantage", "initiative")
ENEMY_HERO_KEPT = ("id", "army_id", "corps_id", "name", "class", "status", "is_commander")


def visible(state: dict, side: str, fog: bool, log: Log) -> tuple[dict, list[str]]:
    """The filtered state and the JSON paths removed, sorted."""
    view = copy.deepcopy(state)
    hidden: list[str] = []
    enemy_armies = {a for a, army in view["armies"].items() if army["side"] != side}
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
