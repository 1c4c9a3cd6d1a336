"""The zone map: terrain modifiers (S4.12, S6.6), exit costs (S4.6) and distances (S4.18).

Maps are plain dicts ``{"zones": {id: {"name", "neighbors", "terrain"}}}``
already normalised by :func:`normalise_map` (symmetric, sorted adjacency,
all five terrain levels present).
"""

from __future__ import annotations

from collections import deque

from rules.errors import InvalidInput
from rules.jdrwiki import tables

_T = tables.TERRAIN


def normalise_map(zones: dict, path: str = "map.") -> dict:
    """H42: the GM's adjacency made symmetric and sorted; unknown neighbours refused."""
    neighbours: dict[str, set[str]] = {z: set() for z in zones}
    for zone_id, zone in zones.items():
        for index, other in enumerate(zone["neighbors"]):
            if other not in zones or other == zone_id:
                raise InvalidInput.field(f"{path}zones.{zone_id}.neighbors[{index}]",
                                         "must be the id of another zone of the map")
            neighbours[zone_id].add(other)
            neighbours[other].add(zone_id)
    return {"zones": {z: {"name": zones[z]["name"], "neighbors": sorted(neighbours[z]),
                          "terrain": {k: zones[z]["terrain"][k] for k in tables.TERRAIN_KEYS}}
                      for z in sorted(zones)}}


def effective_weather(terrain: dict) -> int:
    """S6.6: a stronghold shelters from as many weather levels as its own level."""
    return max(0, terrain["weather"] - terrain["stronghold"] * _T["stronghold"]["reduces_weather_per_level"])


def occupant(terrain: dict, skill: str) -> int:
    """S4.12: modifier of a corps standing in a zone, from the zone alone."""
    total = 0
    for key in ("unstable_ground", "stronghold", "cover"):
        total += _T[key]["occupant_per_level"].get(skill, 0) * terrain[key]
    total += _T["weather"]["occupant_per_effective_level"].get(skill, 0) * effective_weather(terrain)
    return total


def relation(own: dict, other: dict, skill: str) -> int:
    """S4.12: the height difference between two interacting corps."""
    d = own["heights"] - other["heights"]
    relative = _T["heights"]["relative"]
    if d > 0:
        return relative["higher_per_difference"].get(skill, 0) * d
    if d < 0:
        return relative["lower_per_difference"].get(skill, 0) * -d
    return 0


def cover_attacked(target: dict, skill: str) -> int:
    """S4.12: penalty of an actor whose opponent is under cover."""
    return _T["cover"]["attacker_of_occupant_per_level"].get(skill, 0) * target["cover"]


def special_defence(target: dict, action: str, skill: str) -> int:
    """S4.12 / H24: +5 per stronghold level on the action's own defence skill."""
    return _T["stronghold"]["special_defense_per_level"].get(action, {}).get(skill, 0) * target["stronghold"]


def exit_cost(terrain: dict) -> int:
    """S4.6 / S6.6: movement units needed to leave a zone."""
    return (tables.EXIT_COST_BASE
            + _T["unstable_ground"]["exit_cost_extra"]["per_level"] * terrain["unstable_ground"]
            + (_T["cover"]["exit_cost_extra"]["if_level_at_least_1"] if terrain["cover"] >= 1 else 0)
            + _T["heights"]["exit_cost_extra"]["per_level"] * terrain["heights"])


def actor_modifiers(game_map: dict, actor_zone: str, opponent_zone: str | None) -> dict[str, int]:
    zones = game_map["zones"]
    own = zones[actor_zone]["terrain"]
    other = zones[opponent_zone]["terrain"] if opponent_zone is not None else None
    result = {}
    for s in tables.SKILLS:
        value = occupant(own, s)
        if other is not None:
            value += relation(own, other, s) + cover_attacked(other, s)
        result[s] = value
    return result


def defender_modifiers(game_map: dict, zone: str, opponent_zone: str | None) -> dict[str, int]:
    zones = game_map["zones"]
    own = zones[zone]["terrain"]
    other = zones[opponent_zone]["terrain"] if opponent_zone is not None else None
    return {s: occupant(own, s) + (relation(own, other, s) if other is not None else 0) for s in tables.SKILLS}


def distances_from(game_map: dict, start: str) -> dict[str, int]:
    """S3.6: breadth-first step counts; unreachable zones are absent."""
    zones = game_map["zones"]
    seen = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for nxt in zones[current]["neighbors"]:
            if nxt not in seen:
                seen[nxt] = seen[current] + 1
                queue.append(nxt)
    return seen


def distance(game_map: dict, a: str, b: str) -> float:
    return distances_from(game_map, a).get(b, float("inf"))


def adjacent(game_map: dict, a: str, b: str) -> bool:
    return b in game_map["zones"][a]["neighbors"]


def deft_range(game_map: dict, actor_zone: str, target_zone: str) -> int:
    """S4.18: a deft attack reaches one zone further from higher ground."""
    zones = game_map["zones"]
    higher = zones[actor_zone]["terrain"]["heights"] > zones[target_zone]["terrain"]["heights"]
    return 1 + (_T["heights"]["relative"]["deft_attack_range_bonus_vs_lower_zone"] if higher else 0)


def path_cost(game_map: dict, start: str, path: list[str]) -> int:
    """S4.6: one exit cost per step, the cost of the zone being left."""
    zones = game_map["zones"]
    return sum(exit_cost(zones[z]["terrain"]) for z in [start, *path[:-1]])


def path_valid(game_map: dict, start: str, path: list[str]) -> bool:
    previous = start
    for zone in path:
        if not adjacent(game_map, previous, zone):
            return False
        previous = zone
    return True
