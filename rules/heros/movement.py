"""The movement phase (S5.4, S5.5.4, house H32-H35): paths, stacking, PA payment and the
action kinds ``move``, ``climb``, ``land``, ``hold``, ``advance``, ``character``, ``god``, ``lurker``."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.heros import command, fog, hexgrid, sheets
from rules.heros.state import Battle
from rules.heros.tables import LIMITS_MARCH, MOVEMENT, NUMBERS

ALONE_TYPES = ("Gd", "Lu")


def bad(path: str, problem: str) -> InvalidInput:
    return InvalidInput.field(path, problem)


# -- costs and allowances --------------------------------------------------------

def enter_cost(b: Battle, troop_type: str | None, movement_class: str | None, h: hexgrid.Hex) -> int | None:
    """Movement points to enter ``h`` (S6.3); ``None`` when it cannot be entered.

    ``troop_type`` ``None`` means a character (1 everywhere but rivers and impassable ground).
    """
    ground = b.hex(h)
    if ground["river"]:
        if troop_type is None:
            return None
        return MOVEMENT["river_exceptions"].get(troop_type)
    if ground["terrain"] == "impassable":
        return None if troop_type is None else MOVEMENT["impassable_exceptions"].get(troop_type)
    if troop_type is None:
        return MOVEMENT["characters"][ground["terrain"]]
    if troop_type == "Gd":
        return 1
    return MOVEMENT["movement_costs"][movement_class][ground["terrain"]]


def unit_allowance(unit: dict[str, Any]) -> int:
    """``move`` less a character-unit's wounds (S7.6)."""
    state = unit.get("wound_state", "none")
    if state == "light":
        return max(0, unit["move"] - 1)
    if state == "serious":
        return unit["move"] // 2
    return unit["move"]


def character_allowance(b: Battle, c: dict[str, Any], path: list[hexgrid.Hex]) -> int:
    hexes = [c["position"], *path] if c["position"] is not None else list(path)
    difficult = any(b.hex(h)["terrain"] == "difficult" for h in hexes)
    return sheets.character_move(c, b.army_has_mounted(c["side"]), difficult)


def enemies_at(b: Battle, side: str, h: hexgrid.Hex) -> tuple[list[dict], list[dict]]:
    return ([u for u in b.units_at(h) if u["side"] != side], [c for c in b.chars_at(h) if c["side"] != side])


def near_enemy(b: Battle, side: str, h: hexgrid.Hex) -> bool:
    """Within the march-move distance of an active, visible enemy unit (S5.4)."""
    limit = LIMITS_MARCH
    return any(hexgrid.distance(h, e["position"]) <= limit for e in b.visible_enemy_units(side))


# -- path checking ------------------------------------------------------------------

def fog_cut(b: Battle, side: str, mover_id: str, path: list[hexgrid.Hex], fits) -> list[hexgrid.Hex]:
    """The path a mover really walks when an enemy hidden from its side stands on it.

    The side declared the path from what it sees (S11.3), so an ambusher it
    cannot see must not make the round invalid.  The spec names no rule for
    walking into an unseen ambusher: the mover stops on the last hex before
    it from which the path is still legal (possibly where it stands), and the
    log says why; detection (S5.5.6) then reveals the ambusher.  ``fits(path)``
    says whether a path passes the usual checks.  A path that passes, or that
    meets no hidden enemy, is returned unchanged (and checked as usual).
    """
    stop = next((i for i, h in enumerate(path) if fog.hidden_enemy_at(b.s["units"], side, h)), None)
    if stop is None or fits(path):
        return path
    cut = path[:stop]
    while cut and not fits(cut):
        cut = cut[:-1]
    b.log.add("S7.14", "move.stopped_hidden", "{mover_id} stops after {steps} of {planned} steps: an unseen enemy stands in its way.",
              mover_id=mover_id, steps=len(cut), planned=len(path))
    return cut


def fits(check) -> bool:
    """Whether ``check()`` passes without an :class:`InvalidInput`."""
    try:
        check()
    except InvalidInput:
        return False
    return True


def check_unit_path(b: Battle, unit: dict[str, Any], path: list[hexgrid.Hex], where: str, *, free_allowance: bool = False) -> int:
    """Validate a unit's path (S5.5.4 path rules) and return its cost in movement points."""
    t = unit["troop_type"]
    if unit["high_altitude"]:
        raise bad(where, "a flyer at high altitude cannot make a normal move")
    if unit["projection_failed"]:
        raise bad(where, "the unit failed its power projection test this bound")
    if t == "Lu":
        raise bad(where, "lurkers never take move actions")
    if path and b.in_engagement(unit["id"]):
        enemy_moves = [b.units[e]["move"] for e in b.engaged_with(unit["id"]) if e in b.units]
        if t != "Ma" and not all(unit["move"] > m for m in enemy_moves):
            raise bad(where, "an engaged unit may leave only if faster than every enemy engaged with it")
    if path and unit["activations"] >= 1 and any(near_enemy(b, unit["side"], h) for h in [unit["position"], *path]):
        raise bad(where, "a march move (second activation) must stay more than 4 hexes from every visible enemy")
    mclass = sheets.derive(unit)["movement_class"]
    total, prev = 0, unit["position"]
    for i, h in enumerate(path):
        here = f"{where}[{i}]"
        if not b.inside(h):
            raise bad(here, "outside the map")
        if hexgrid.direction_to(prev, h) is None:
            raise bad(here, "not adjacent to the previous hex")
        cost = enter_cost(b, t, mclass, h)
        if cost is None:
            raise bad(here, "the unit cannot enter this hex")
        total += cost
        last = i == len(path) - 1
        foes, foe_chars = enemies_at(b, unit["side"], h)
        if foes or foe_chars:
            screen = any(u["troop_type"] == "Bw" or u["magician"] for u in foes) or any(c["magician"] for c in foe_chars)
            if t != "Fl" or last or screen:
                raise bad(here, "the hex holds enemies")
        friends = [u for u in b.units_at(h) if u["side"] == unit["side"] and u is not unit]
        if friends and not last and not passes_friends(b, unit, friends):
            raise bad(here, "the unit cannot pass through the friendly units in this hex")
        prev = h
    if not free_allowance and total > unit_allowance(unit):
        raise bad(where, f"the path costs {total} movement points, more than the unit's {unit_allowance(unit)}")
    if path:
        check_destination(b, unit, path[-1], f"{where}[{len(path) - 1}]")
    return total


def passes_friends(b: Battle, unit: dict[str, Any], friends: list[dict[str, Any]]) -> bool:
    t = unit["troop_type"]
    if t == "Fl":
        return True
    if t == "Gd":
        return not any(b.in_engagement(f["id"]) for f in friends)
    if t == "Ma":
        return all(f["facing"] in (unit["facing"], (unit["facing"] + 3) % 6) for f in friends)
    return False


def check_destination(b: Battle, unit: dict[str, Any], h: hexgrid.Hex, where: str) -> None:
    """Stacking limits of S5.5.4 for ``unit`` ending in ``h``."""
    others = [u for u in b.units_at(h) if u is not unit]
    if b.lone_at(h):
        raise bad(where, "lone characters stand in this hex")
    if not others:
        return
    if any(u["side"] != unit["side"] for u in others):
        raise bad(where, "the hex holds enemies")
    alone = unit["troop_type"] in ALONE_TYPES or unit["character_unit"]
    if alone or any(u["troop_type"] in ALONE_TYPES or u["character_unit"] for u in others):
        raise bad(where, "a god, a lurker or a character-unit is always alone in its hex")
    if unit["troop_type"] == "Av":
        if any(u["troop_type"] == "Av" for u in others):
            raise bad(where, "only one adventurer unit may stack in a hex")
        return
    if sum(1 for u in others if u["troop_type"] != "Av") >= 2:
        raise bad(where, "the hex already holds a front and a rear rank")


def place_unit(b: Battle, unit: dict[str, Any], to: hexgrid.Hex, hexes: int, carry_adventurer: bool = False) -> None:
    """Move a unit, making it the rear rank when it joins a friendly unit (S5.5.4)."""
    others = [u for u in b.units_at(to) if u is not unit and u["troop_type"] != "Av"]
    b.move_unit(unit, to, hexes, carry_adventurer)
    if unit["troop_type"] != "Av":
        unit["rank"] = "rear" if others else "front"


def check_character_path(b: Battle, c: dict[str, Any], path: list[hexgrid.Hex], where: str) -> int:
    prev = c["position"]
    for i, h in enumerate(path):
        here = f"{where}[{i}]"
        if not b.inside(h):
            raise bad(here, "outside the map")
        if hexgrid.direction_to(prev, h) is None:
            raise bad(here, "not adjacent to the previous hex")
        if enter_cost(b, None, None, h) is None:
            raise bad(here, "a character cannot enter a river or impassable hex")
        foes, foe_chars = enemies_at(b, c["side"], h)
        if foes or foe_chars:
            raise bad(here, "the hex holds enemies")
        prev = h
    return len(path)


# -- paying for an action --------------------------------------------------------

class Payer:
    """PA bookkeeping of one round: corps PA, the C-in-C's extra PA, adventurers' own PA."""

    def __init__(self, b: Battle):
        self.b = b
        self.adventurers_used: set[str] = set()
        self.holds: dict[str, int] = {}

    def cinc_extra_available(self) -> bool:
        side = self.b.sides[self.b.active]
        return not side["cinc_extra_used"] and self.b.present(self.b.chars[side["cinc_id"]])

    def take_extra(self, where: str) -> int:
        if not self.cinc_extra_available():
            raise bad(f"{where}.use_cinc_extra_pa", "the C-in-C's extra PA is not available")
        self.b.sides[self.b.active]["cinc_extra_used"] = True
        return 1

    def pay(self, corps: dict[str, Any], cost: int, where: str, *, use_extra: bool = False, adventurer: str | None = None) -> int:
        """Charge an action; returns the PA the corps itself paid."""
        remaining = cost
        if adventurer is not None:
            if adventurer in self.adventurers_used:
                raise bad(f"{where}.pa_source", "this adventurer unit has already used its own PA this bound")
            self.adventurers_used.add(adventurer)
            remaining -= min(remaining, 1)
        if use_extra and remaining > 0:
            remaining -= self.take_extra(where)
        pa = corps["pa"]
        if pa["spent"] + remaining > pa["available"]:
            raise bad(where, f"corps {corps['id']} has {pa['available'] - pa['spent']} PA left, the action needs {remaining}")
        pa["spent"] += remaining
        return remaining


def general_distance(b: Battle, corps: dict[str, Any], units: list[dict[str, Any]]) -> tuple[bool, int]:
    """(general absent, distance of the group's nearest unit to him) for S_ABS / S_DIST (S5.4)."""
    general = b.general_of(corps)
    if not b.present(general):
        return True, 0
    return False, min(hexgrid.distance(u["position"], general["position"]) for u in units)


def group_surcharges(b: Battle, corps: dict[str, Any], units: list[dict[str, Any]], *, landing: bool = False) -> list[dict]:
    general = b.general_of(corps)
    absent, distance = general_distance(b, corps, units)
    described = [{"troop_type": u["troop_type"], "regular": u["regular"], "high_altitude": u["high_altitude"],
                  "general_unit": general["stacked_on"] == u["id"]} for u in units]
    riders = sum(len(b.stacked_on(u)) for u in units)
    return command.surcharges(described, riders, distance, absent, landing=landing)


def charge_champions(b: Battle, units: list[dict[str, Any]], cost: int, where: str) -> None:
    """Every PA spent on a move that carries a champion counts toward its cap of 5 (S7.8, H43)."""
    for u in units:
        for c in b.stacked_on(u):
            if c["role"] == "champion":
                c["pa_benefit"] += cost
                if c["pa_benefit"] > command.LIMITS["champion_pa_per_bound"]:
                    raise bad(where, f"champion {c['id']} would benefit from {c['pa_benefit']} PA this bound (cap 5)")


def default_facing(unit: dict[str, Any], path: list[hexgrid.Hex]) -> int:
    if not path:
        return unit["facing"]
    prev = path[-2] if len(path) > 1 else unit["position"]
    return hexgrid.direction_to(prev, path[-1])


def reveal(b: Battle, unit: dict[str, Any]) -> None:
    if unit["hidden"]:
        unit["hidden"] = False
        b.event("unit_revealed", unit_id=unit["id"])


def execute_path(b: Battle, unit: dict[str, Any], path: list[hexgrid.Hex], facing: int | None, action_id: str,
                 cost: int, *, carry_adventurer: bool = False) -> None:
    start = hexgrid.copy(unit["position"])
    if path:
        b.drop_engagements(unit["id"])
        reveal(b, unit)
        place_unit(b, unit, path[-1], len(path), carry_adventurer)
    unit["facing"] = facing if facing is not None else default_facing({**unit, "position": start}, path)
    b.log.add("S5.5.4", "move.path", "{mover_id} moves at a cost of {cost} of {allowance} movement points.",
              mover_id=unit["id"], cost=cost, allowance=unit_allowance(unit))
    if path:
        b.unit_event("unit_moved", unit, unit_id=unit["id"], action_id=action_id, **{"from": start},
                     to=hexgrid.copy(unit["position"]), path_cost=cost)


def strong_position(b: Battle, units: list[dict[str, Any]]) -> bool:
    """The S6.5 strong-position exception: every unit qualifies in one of three ways."""
    if all(b.hex(u["position"])["terrain"] in ("rough", "difficult") for u in units):
        return True
    if all(b.hex(u["position"])["river_bank"] for u in units):
        return True

    def higher(u: dict[str, Any]) -> bool:
        enemies = b.visible_enemy_units(u["side"])
        if not enemies:
            return False
        nearest = min(hexgrid.distance(u["position"], e["position"]) for e in enemies)
        mine = b.hex(u["position"])["elevation"]
        return all(mine > b.hex(e["position"])["elevation"] for e in enemies
                   if hexgrid.distance(u["position"], e["position"]) == nearest)

    return all(higher(u) for u in units)


def connected(units: list[dict[str, Any]]) -> bool:
    """Units of a group are connected by adjacency (S5.5.4)."""
    if len(units) <= 1:
        return True
    reached, frontier = {units[0]["id"]}, [units[0]]
    while frontier:
        u = frontier.pop()
        for v in units:
            if v["id"] not in reached and hexgrid.distance(u["position"], v["position"]) <= 1:
                reached.add(v["id"])
                frontier.append(v)
    return len(reached) == len(units)


def advance_target(b: Battle, unit: dict[str, Any]) -> dict[str, Any] | None:
    """Nearest active visible enemy unit, ties to the lowest id (S5.5.4 ``advance``)."""
    enemies = b.visible_enemy_units(unit["side"])
    if not enemies:
        return None
    return min(enemies, key=lambda e: (hexgrid.distance(unit["position"], e["position"]), e["id"]))


def landing_ok(b: Battle, unit: dict[str, Any], h: hexgrid.Hex, where: str) -> None:
    if not b.inside(h):
        raise bad(where, "outside the map")
    if hexgrid.distance(unit["climb_hex"], h) > NUMBERS["flyer_landing_radius"]:
        raise bad(where, "more than 12 hexes from the hex where the flyer climbed")
    if enter_cost(b, "Fl", "free", h) is None:
        raise bad(where, "the flyer cannot land there")
    foes, foe_chars = enemies_at(b, unit["side"], h)
    if foes or foe_chars:
        raise bad(where, "the hex holds enemies")
    check_destination(b, unit, h, where)
