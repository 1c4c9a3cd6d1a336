"""Operation ``declaration-options``: what a participant may declare now, and why not the rest.

Every allowed value is produced by the same checks ``resolve-round`` applies
(paths are proposed by a search and then confirmed by ``movement``), so a
declaration built from allowed values passes the round's validation.
Options describe the state as it is now: when a declaration chains several
actions, the later ones see the effects of the earlier ones (PA already
spent, hexes now occupied, a general carried to high altitude and so absent),
which the UI must account for as it builds the ordered list.
"""

from __future__ import annotations

import heapq
from typing import Any, Literal



from rules.errors import InvalidInput
from rules.heros import command, hexgrid, movement, ruleset, sheets
from rules.heros.entities import Id
from rules.heros.fighting import Fights
from rules.heros.round import load_state, rally_problem
from rules.heros.state import Battle, StateModel
from rules.model import ClosedInput, Input
from rules.registry import Context

ACTIVE_ONLY = ("executions", "captive_transfers", "actions", "shootings", "melees")
EITHER = ("spells", "counter_spells", "rallies", "immediate_rallies", "stars", "adventurer_flee",
          "adventurers_follow", "decline_pursuit", "escapes")


class Participant(Input):
    kind: Literal["side", "commander", "corps", "unit", "hero", "character", "solo"]
    id: Id


class OptionsInput(ClosedInput):
    state: StateModel
    participant: Participant


def option(path: str, label: str, type_: str, *, allowed: list | None = None, default: Any = None,
           required: bool = False, forbidden: list | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path, "label": label, "type": type_}
    if allowed is not None:
        out["allowed"] = allowed
    out.update(extra)
    out.update(default=default, required=required, forbidden=forbidden or [])
    return out


def why(value: Any, reason: str, rule: str) -> dict[str, Any]:
    return {"value": value, "reason": reason, "rule": rule}


def legal(check) -> bool:
    try:
        check()
    except InvalidInput:
        return False
    return True


def unit_paths(b: Battle, unit: dict[str, Any], *, advance_target: dict | None = None) -> list[list[dict]]:
    """One cheapest legal path to every hex the unit can reach now (S5.5.4)."""
    mclass = sheets.derive(unit)["movement_class"]
    allowance = movement.unit_allowance(unit)
    start = unit["position"]
    best = {hexgrid.key(start): 0}
    queue: list[tuple[int, tuple, list]] = [(0, hexgrid.key(start), [])]
    found: list[list[dict]] = []
    while queue:
        cost, _k, path = heapq.heappop(queue)
        here = path[-1] if path else start
        for h in hexgrid.neighbours(here):
            if not b.inside(h):
                continue
            step = movement.enter_cost(b, unit["troop_type"], mclass, h)
            if step is None or cost + step > allowance:
                continue
            if advance_target is not None and hexgrid.distance(h, advance_target["position"]) >= \
                    hexgrid.distance(here, advance_target["position"]):
                continue
            k = hexgrid.key(h)
            if k in best and best[k] <= cost + step:
                continue
            best[k] = cost + step
            heapq.heappush(queue, (cost + step, k, path + [h]))
    for k in sorted(best):
        if k == hexgrid.key(start):
            continue
        path = _rebuild(b, unit, k, best, mclass, advance_target)
        if path and legal(lambda p=path: movement.check_unit_path(b, unit, p, "path")):
            found.append(path)
    return found


def _rebuild(b: Battle, unit: dict, target: tuple, best: dict, mclass: str, adv: dict | None) -> list[dict] | None:
    """Walk back from ``target`` along decreasing costs to the start."""
    path = [{"col": target[0], "row": target[1]}]
    start = hexgrid.key(unit["position"])
    while hexgrid.key(path[0]) != start:
        h = path[0]
        cost_here = best[hexgrid.key(h)]
        step = movement.enter_cost(b, unit["troop_type"], mclass, h)
        prev = next((n for n in hexgrid.neighbours(h) if hexgrid.key(n) in best and best[hexgrid.key(n)] == cost_here - step
                     and (adv is None or hexgrid.distance(h, adv["position"]) < hexgrid.distance(n, adv["position"]))), None)
        if prev is None:
            return None
        path.insert(0, prev)
    return path[1:]


def character_paths(b: Battle, c: dict[str, Any]) -> list[list[dict]]:
    allowance = movement.character_allowance(b, c, [])
    seen = {hexgrid.key(c["position"]): []}
    frontier = [[]]
    for _ in range(allowance):
        nxt = []
        for path in frontier:
            here = path[-1] if path else c["position"]
            for h in hexgrid.neighbours(here):
                if b.inside(h) and hexgrid.key(h) not in seen and movement.enter_cost(b, None, None, h) is not None:
                    foes = movement.enemies_at(b, c["side"], h)
                    if not foes[0] and not foes[1]:
                        seen[hexgrid.key(h)] = path + [h]
                        nxt.append(path + [h])
        frontier = nxt
    out = []
    for k in sorted(seen):
        path = seen[k]
        front = b.front_unit(path[-1]) if path else None
        if front is not None and (front["troop_type"] in ("Gd", "Lu") or front["character_unit"]):
            continue
        if path and len(path) <= movement.character_allowance(b, c, path):
            out.append(path)
    return out


def corps_left(corps: dict[str, Any]) -> int:
    return corps["pa"]["available"] - corps["pa"]["spent"]


def unit_options(b: Battle, unit: dict[str, Any]) -> tuple[list[dict], bool]:
    opts: list[dict] = []
    uid = unit["id"]
    side_key = "active" if unit["side"] == b.active else "passive"
    must = uid in b.s["pending"]["impetuous"]
    if unit["troop_type"] == "Av":
        opts.append(option(f"{side_key}.adventurer_flee", "Turn a recoil into a flight", "boolean", default=False))
    if unit["troop_type"] == "Bm":
        opts.append(option(f"{side_key}.decline_pursuit", "Decline to pursue psiloi or lurkers (I/X)", "boolean", default=False))
    if side_key == "active" and unit["troop_type"] == "Lu" and unit["status"] == "pool":
        opts.append(lurker_option(b, unit))
    if side_key == "passive" or not b.on_map(unit):
        return opts, False
    corps = b.corps[unit["corps_id"]]
    d = sheets.derive(unit)
    if unit["troop_type"] == "Fl":
        opts.append(flyer_option(b, unit, corps))
    if unit["troop_type"] == "Gd":
        opts += god_options(b, unit)
    if must:
        forbidden = []
        general = b.general_of(corps)
        exceptions = []
        payer = movement.Payer(b)
        for exc in (None, "sub_general_unmoved", "cinc_extra_pa", "strong_position"):
            problem = command.hold_problem(
                corps["pa"]["roll"], not unit["regular"], exc, first_hold=True,
                contains_unmoved_general=general["stacked_on"] == uid and not general["has_moved"],
                cinc_extra_available=payer.cinc_extra_available(), strong_position=movement.strong_position(b, [unit]))
            paid = exc == "cinc_extra_pa" or corps_left(corps) >= 1
            if problem is None and paid:
                exceptions.append(exc)
        kinds = ["advance"]
        if exceptions:
            kinds.insert(0, "hold")
        else:
            forbidden.append(why("hold", "the group cannot be held back now (a natural 2 with irregulars and no exception, "
                                 "or no PA left)", "S5.4.1"))
        opts.append(option("active.actions[].kind", f"Impetuous {uid}: hold back or advance", "choice", allowed=kinds,
                           default=kinds[0], required=True, forbidden=forbidden))
        if exceptions:
            opts.append(option("active.actions[kind=hold].hold_exception", "Hold exception", "choice",
                               allowed=exceptions, default=exceptions[0]))
        target = movement.advance_target(b, unit)
        paths = unit_paths(b, unit, advance_target=target) if target and not unit["high_altitude"] else []
        opts.append(option(f"active.actions[kind=advance].paths.{uid}", "Spontaneous advance path", "list",
                           allowed=[[]] + paths, default=[]))
    move_forbidden = []
    if unit["troop_type"] in ("Gd", "Lu"):
        move_forbidden.append(why("move", "gods and lurkers have their own actions", "S5.5.4"))
    elif unit["high_altitude"]:
        move_forbidden.append(why("move", "a flyer at high altitude can only land", "S7.3"))
    elif corps_left(corps) < 1:
        move_forbidden.append(why("move", "the corps has no PA left", "S5.4"))
    elif b.in_engagement(uid) and unit["troop_type"] != "Ma" and not all(
            unit["move"] > b.units[e]["move"] for e in b.engaged_with(uid) if e in b.units):
        move_forbidden.append(why("move", "engaged with an enemy at least as fast", "S5.5.4"))
    if not move_forbidden:
        cost = command.MOVE_COST + sum(s["value"] for s in movement.group_surcharges(b, corps, [unit]))
        paths = unit_paths(b, unit) if cost <= corps_left(corps) else []
        if cost > corps_left(corps):
            move_forbidden.append(why("move", f"a move costs {cost} PA, the corps has {corps_left(corps)}", "S6.4"))
        opts.append(option(f"active.actions[kind=move].paths.{uid}", f"Path of {uid} ({cost} PA)", "list",
                           allowed=paths, default=None, forbidden=move_forbidden, pa_cost=cost))
    else:
        opts.append(option(f"active.actions[kind=move].paths.{uid}", f"Path of {uid}", "list", allowed=[],
                           forbidden=move_forbidden))
    opts.append(option(f"active.actions[kind=move].facings.{uid}", "Final facing", "integer", min=0, max=5,
                       default=unit["facing"]))
    if d["can_shoot"]:
        opts.append(shooting_option(b, unit))
    opts.append(melee_option(b, unit))
    return opts, must


def flyer_option(b: Battle, unit: dict[str, Any], corps: dict[str, Any]) -> dict[str, Any]:
    """Climb (as a move) or, at high altitude, the hexes within 12 where it may land (S7.3)."""
    uid = unit["id"]
    if not unit["high_altitude"]:
        cost = command.MOVE_COST + sum(s["value"] for s in movement.group_surcharges(b, corps, [unit]))
        ok = cost <= corps_left(corps) and not unit["projection_failed"]
        return option("active.actions[kind=climb].units", f"{uid} climbs to high altitude ({cost} PA)", "choice",
                      allowed=[uid] if ok else [], pa_cost=cost,
                      forbidden=[] if ok else [why(uid, "not enough PA to climb", "S7.3")])
    cost = command.MOVE_COST + sum(s["value"] for s in movement.group_surcharges(b, corps, [unit], landing=True))
    hexes = []
    if cost <= corps_left(corps):
        width, height = b.s["map"]["width"], b.s["map"]["height"]
        for col in range(width):
            for row in range(height):
                h = {"col": col, "row": row}
                if legal(lambda h=h: movement.landing_ok(b, unit, h, "hex")):
                    hexes.append(h)
    return option(f"active.actions[kind=land].hexes.{uid}", f"Landing hex of {uid} ({cost} PA)", "hex",
                  allowed=hexes, pa_cost=cost,
                  forbidden=[] if hexes else [why(uid, "not enough PA to land", "S7.3")])


def god_options(b: Battle, god: dict[str, Any]) -> list[dict[str, Any]]:
    """A god's own moves and swap, paid from its own PA (S7.11)."""
    pa = b.s["gods_pa"].get(god["id"], {"available": 0, "spent": 0})
    left = pa["available"] - pa["spent"]
    if left < 1:
        return [option("active.actions[kind=god].god_id", f"Actions of {god['id']}", "choice", allowed=[],
                       forbidden=[why(god["id"], "the god has no PA left", "S7.11")])]
    front = hexgrid.neighbour(god["position"], god["facing"])
    swaps = [u["id"] for u in b.units_at(front) if u["side"] == god["side"] and u["facing"] == god["facing"]
             and len(b.units_at(front)) == 1 and not b.in_engagement(u["id"]) and not b.in_engagement(god["id"])]
    return [option("active.actions[kind=god].path", f"Path of {god['id']} (1 god PA)", "list",
                   allowed=unit_paths(b, god), pa_left=left),
            option("active.actions[kind=god].swap_with", "Swap with the unit in front", "choice", allowed=swaps)]


def lurker_option(b: Battle, lurker: dict[str, Any]) -> dict[str, Any]:
    """Enemy units a pool lurker may be generated against, front contact (S7.9)."""
    corps = b.corps[lurker["corps_id"]]
    cost = lurker["lurker_activations"] + 1
    allowed, forbidden = [], []
    for target in b.visible_enemy_units(lurker["side"]):
        front = hexgrid.neighbour(target["position"], target["facing"])
        if b.hex(target["position"])["terrain"] not in ("rough", "difficult"):
            continue
        if not b.inside(front) or b.units_at(front) or b.chars_at(front) or movement.enter_cost(b, "Lu", "free", front) is None:
            forbidden.append(why(target["id"], "its front hex is not empty and enterable", "S7.9"))
        elif cost > corps_left(corps):
            forbidden.append(why(target["id"], f"generating this lurker costs {cost} PA", "S7.9"))
        else:
            allowed.append(target["id"])
    return option("active.actions[kind=lurker].target_id", f"Target of lurker {lurker['id']} ({cost} PA)", "choice",
                  allowed=allowed, forbidden=forbidden, pa_cost=cost)


def shooting_option(b: Battle, unit: dict[str, Any]) -> dict[str, Any]:
    allowed, forbidden = [], []
    own_forbidden = []
    if unit["high_altitude"] or b.in_engagement(unit["id"]) or unit["projection_failed"]:
        own_forbidden.append(why(unit["id"], "engaged, at high altitude or failed its projection: it cannot shoot", "S5.9"))
    for target in targets(b, unit["side"]):
        tid, pos = target
        if b.in_engagement(tid):
            forbidden.append(why(tid, "a combatant of an engagement cannot be shot at", "S5.9"))
        elif hexgrid.distance(unit["position"], pos) > unit["range"]:
            forbidden.append(why(tid, f"out of range ({unit['range']} hexes)", "S5.9"))
        elif not own_forbidden:
            allowed.append(tid)
    return option("active.shootings[].target_id", f"Target of {unit['id']}'s shooting", "choice",
                  allowed=allowed, forbidden=own_forbidden + forbidden)


def targets(b: Battle, side: str) -> list[tuple[str, dict]]:
    found = [(u["id"], u["position"]) for u in b.visible_enemy_units(side)]
    seen = set()
    for c in b.s["characters"]:
        if c["side"] != side and c["status"] == "active" and c["stacked_on"] is None and c["position"] is not None:
            k = hexgrid.key(c["position"])
            if k not in seen:
                seen.add(k)
                found.append((c["id"], c["position"]))
    return found


def melee_option(b: Battle, unit: dict[str, Any]) -> dict[str, Any]:
    f = Fights(b, {s: {"stars": {}} for s in b.sides}, [], set())
    allowed, forbidden = [], []
    if not f.is_combatant(unit["id"]):
        forbidden.append(why(unit["id"], "only the combatant of a hex (front rank) attacks", "S5.11"))
    else:
        for tid, pos in targets(b, unit["side"]):
            if hexgrid.distance(unit["position"], pos) != 1:
                continue
            combatant = tid if tid not in b.units else (b.front_unit(pos) or {}).get("id")
            if combatant and combatant not in allowed and f.is_combatant(combatant):
                allowed.append(combatant)
    return option("active.melees[].defender_id", f"Enemy {unit['id']} attacks in melee", "choice",
                  allowed=allowed, forbidden=forbidden)


def character_options(b: Battle, c: dict[str, Any]) -> tuple[list[dict], bool]:
    opts: list[dict] = []
    side_key = "active" if c["side"] == b.active else "passive"
    if c["stacked_on"] is not None or c["position"] is not None:
        combatant = c["stacked_on"] or c["id"]
        if c["status"] == "active" and (c["engaged"] or c["stacked_on"] is None):
            opts.append(option(f"{side_key}.stars.{combatant}", "Star of the stack", "choice", allowed=[c["id"]]))
    if c["magician"] and sheets.conscious(c) and not c["spell_cast"]:
        opts.append(option(f"{side_key}.spells[].caster_id", "Cast a spell", "choice", allowed=[c["id"]],
                           power_points=c["power_points"]))
    if side_key == "passive" or c["status"] != "active" or c["position"] is None:
        return opts, False
    sources, forbidden = ["free"], []
    corps = b.corps[c["corps_id"]]
    cost = command.MOVE_COST + (sum(s["value"] for s in command.character_surcharges(
        c["role"], *reversed(movement.general_distance(b, corps, [{"position": c["position"]}]))))
        if c["role"] == "champion" else 0)
    if corps_left(corps) >= cost and c["pa_benefit"] + cost <= command.LIMITS["champion_pa_per_bound"] \
            and not b.s["options"]["simple_generals"]:
        sources.append("corps")
    else:
        forbidden.append(why("corps", "not enough corps PA, or the champion's cap of 5 PA is reached", "S5.4"))
    personal = max(0, c["personal_pa"] + sheets.pa_modifier(c["wound_state"]))
    if c["role"] == "champion" and c["personal_pa_spent"] < personal and c["pa_benefit"] < 5:
        sources.append("personal")
    else:
        forbidden.append(why("personal", "no personal PA left", "S7.8"))
    movable = "corps" in sources or "personal" in sources
    paths = character_paths(b, c) if movable and not b.char_aloft(c) else []
    if b.in_engagement(c["id"]):
        allowance = movement.character_allowance(b, c, [])
        if not all(allowance > b.units[e]["move"] for e in b.engaged_with(c["id"]) if e in b.units):
            paths = []
            forbidden.append(why("path", "a lone character leaves an engagement only against slower enemies", "S7.5"))
    opts.append(option("active.actions[kind=character].pa_source", "Who pays the move", "choice",
                       allowed=sources, default="free", forbidden=forbidden, pa_cost=cost))
    opts.append(option("active.actions[kind=character].path", f"Path of {c['id']}", "list", allowed=paths, default=[]))
    opts.append(option("active.actions[kind=character].engaged", "Engaged at the front of the stack", "boolean",
                       default=c["engaged"]))
    return opts, False


def side_options(b: Battle, side: str) -> tuple[list[dict], bool]:
    active = side == b.active
    key = "active" if active else "passive"
    opts = []
    for name in ACTIVE_ONLY:
        if active:
            opts.append(option(f"active.{name}", name.replace("_", " "), "list", default=[]))
    forbidden = [] if active else [why(name, "only the active side declares this", "S9.13") for name in ACTIVE_ONLY]
    for name in EITHER:
        opts.append(option(f"{key}.{name}", name.replace("_", " "), "object" if name in ("stars", "adventurers_follow", "escapes") else "list",
                           default={} if name in ("stars", "adventurers_follow", "escapes") else [],
                           forbidden=forbidden if name == "spells" else []))
    if active:
        captives = [c["id"] for c in b.s["characters"] if c["status"] == "captured" and c["captured_by"] in b.units
                    and b.units[c["captured_by"]]["side"] == side]
        opts.append(option("active.executions[]", "Execute a captive", "choice", allowed=captives))
        opts.append(option("active.actions[].use_cinc_extra_pa", "Use the C-in-C's extra PA", "boolean", default=False,
                           forbidden=[] if movement.Payer(b).cinc_extra_available() else
                           [why(True, "the C-in-C's extra PA is used or he is absent", "S5.4")]))
    pairs, refused = [], []
    generals = [b.general_of(c) for c in b.side_corps(side)]
    for general in generals:
        for corps in b.side_corps(side):
            problem = rally_problem(b, general, corps)
            value = {"general_id": general["id"], "corps_id": corps["id"]}
            if problem is None:
                pairs.append(value)
            else:
                refused.append(why(value, problem[1], "S5.6"))
    opts.append(option(f"{key}.rallies[]", "General and corps of a rally attempt", "choice", allowed=pairs,
                       forbidden=refused))
    must = active and bool(b.s["pending"]["impetuous"])
    return opts, must


def corps_options(b: Battle, corps: dict[str, Any]) -> tuple[list[dict], bool]:
    active = corps["side"] == b.active
    left = corps_left(corps) if active else 0
    opts = [option("active.actions[].corps_id", f"Actions of corps {corps['id']}", "choice",
                   allowed=[corps["id"]] if left > 0 else [],
                   forbidden=[] if left > 0 else [why(corps["id"], "no PA left this bound", "S5.4")], pa_left=left)]
    must = active and any(b.units[u]["corps_id"] == corps["id"] for u in b.s["pending"]["impetuous"])
    return opts, must


@ruleset.operation("declaration-options", OptionsInput, summary="What a participant may declare now, and why not the rest.")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    state = load_state(data.state)
    b = Battle(state, ctx.dice, ctx.log)
    p = data.participant
    if state["status"] != "ongoing":
        opts, must = [], False
    elif p.kind in ("side", "commander"):
        if p.id not in b.sides:
            raise InvalidInput.field("participant.id", "unknown side")
        opts, must = side_options(b, p.id)
    elif p.kind == "corps":
        if p.id not in b.corps:
            raise InvalidInput.field("participant.id", "unknown corps")
        opts, must = corps_options(b, b.corps[p.id])
    elif p.kind == "unit":
        if p.id not in b.units:
            raise InvalidInput.field("participant.id", "unknown unit")
        opts, must = unit_options(b, b.units[p.id])
    else:
        if p.id not in b.chars:
            raise InvalidInput.field("participant.id", "unknown character")
        opts, must = character_options(b, b.chars[p.id])
    ctx.log.add("S11.2", "options.listed", "{count} declaration options for {kind} {id}.", count=len(opts), kind=p.kind, id=p.id)
    phase = "ended" if state["status"] == "ended" else "declarations"
    return {"participant": p.model_dump(), "round": state["bound"], "phase": phase, "must_declare": must, "options": opts}
