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

from typing import Any, Literal, Optional

from rules.contract import GM, Known, Viewer
from rules.errors import InvalidInput
from rules.heros import command, fog, hexgrid, movement, offers, ruleset, sheets
from rules.heros.entities import Id
from rules.heros.fighting import Fights
from rules.heros.offer import option, why
from rules.heros.reach import character_paths, unit_paths
from rules.heros.round import load_state, rally_problem
from rules.heros.state import Battle, StateModel, StillBattle
from rules.heros.visibility import check_viewer
from rules.model import ClosedInput, Input
from rules.registry import Context

ACTIVE_ONLY = ("executions", "captive_transfers", "actions", "shootings", "melees")
EITHER = ("spells", "counter_spells", "rallies", "immediate_rallies", "stars", "adventurer_flee",
          "adventurers_follow", "decline_pursuit", "escapes")


class Participant(Input):
    kind: Literal["side", "commander", "corps", "unit", "hero", "character", "solo", "gm"]
    id: Id


class OptionsInput(ClosedInput):
    state: StateModel
    participant: Participant
    viewer: Optional[Viewer] = None
    declarations: Optional[Known] = None


def corps_left(corps: dict[str, Any]) -> int:
    return corps["pa"]["available"] - corps["pa"]["spent"]


def unit_options(b: Battle, unit: dict[str, Any]) -> tuple[list[dict], bool]:
    opts: list[dict] = []
    uid = unit["id"]
    side_key = "active" if unit["side"] == b.active else "passive"
    must = uid in b.s["pending"]["impetuous"]
    if unit["troop_type"] == "Av":
        opts.append(option(f"{side_key}.adventurer_flee", "option.adventurer_flee", {"unit": uid}, "boolean", default=False))
    if unit["troop_type"] == "Bm":
        opts.append(option(f"{side_key}.decline_pursuit", "option.decline_pursuit", {"unit": uid}, "boolean", default=False))
    if unit["troop_type"] == "Av":
        opts.append(offers.follow_option(unit, side_key))
    if unit["magician"] and b.grounded(unit):
        opts.append(option(f"{side_key}.spells[].caster_id", "option.spell_caster", {"caster": uid}, "choice",
                           allowed=[uid], power_points=unit["power_points"]))
        opts += offers.spell_options(b, unit, side_key)
    if side_key == "active" and unit["troop_type"] == "Lu" and unit["status"] == "pool":
        opts.append(lurker_option(b, unit))
    rally_move = offers.rally_move_option(b, unit, side_key) if b.on_map(unit) else None
    if rally_move is not None:
        opts.append(rally_move)
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
            forbidden.append(why("hold", "refusal.hold", {}, "S5.4.1"))
        opts.append(option("active.actions[].kind", "option.impetuous", {"unit": uid}, "choice", allowed=kinds,
                           default=kinds[0], required=True, forbidden=forbidden))
        if exceptions:
            opts.append(option("active.actions[kind=hold].hold_exception", "option.hold_exception", {"unit": uid}, "choice",
                               allowed=exceptions, default=exceptions[0]))
        target = movement.advance_target(b, unit)
        paths = unit_paths(b, unit, advance_target=target) if target and not unit["high_altitude"] else []
        opts.append(option(f"active.actions[kind=advance].paths.{uid}", "option.advance_path", {"unit": uid}, "list",
                           allowed=[[]] + paths, default=[]))
    move_forbidden = []
    if unit["troop_type"] in ("Gd", "Lu"):
        move_forbidden.append(why("move", "refusal.own_actions", {}, "S5.5.4"))
    elif unit["high_altitude"]:
        move_forbidden.append(why("move", "refusal.aloft_move", {}, "S7.3"))
    elif corps_left(corps) < 1:
        move_forbidden.append(why("move", "refusal.no_pa", {}, "S5.4"))
    elif b.in_engagement(uid) and unit["troop_type"] != "Ma" and not all(
            unit["move"] > b.units[e]["move"] for e in b.engaged_with(uid) if e in b.units):
        move_forbidden.append(why("move", "refusal.engaged_faster", {}, "S5.5.4"))
    if not move_forbidden:
        cost = command.MOVE_COST + sum(s["value"] for s in movement.group_surcharges(b, corps, [unit]))
        paths = unit_paths(b, unit) if cost <= corps_left(corps) else []
        if cost > corps_left(corps):
            move_forbidden.append(why("move", "refusal.move_cost", {"cost": cost, "left": corps_left(corps)}, "S6.4"))
        opts.append(option(f"active.actions[kind=move].paths.{uid}", "option.move_path", {"unit": uid, "cost": cost}, "list",
                           allowed=paths, default=None, forbidden=move_forbidden, pa_cost=cost))
    else:
        opts.append(option(f"active.actions[kind=move].paths.{uid}", "option.move_path_refused", {"unit": uid}, "list", allowed=[],
                           forbidden=move_forbidden))
    opts.append(option(f"active.actions[kind=move].facings.{uid}", "option.facing", {"unit": uid}, "integer", min=0, max=5,
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
        return option("active.actions[kind=climb].units", "option.climb", {"unit": uid, "cost": cost}, "choice",
                      allowed=[uid] if ok else [], pa_cost=cost,
                      forbidden=[] if ok else [why(uid, "refusal.climb_pa", {}, "S7.3")])
    cost = command.MOVE_COST + sum(s["value"] for s in movement.group_surcharges(b, corps, [unit], landing=True))
    hexes = []
    if cost <= corps_left(corps):
        width, height = b.s["map"]["width"], b.s["map"]["height"]
        for col in range(width):
            for row in range(height):
                h = {"col": col, "row": row}
                if movement.fits(lambda h=h: movement.landing_ok(b, unit, h, "hex")):
                    hexes.append(h)
    return option(f"active.actions[kind=land].hexes.{uid}", "option.land", {"unit": uid, "cost": cost}, "hex",
                  allowed=hexes, pa_cost=cost,
                  forbidden=[] if hexes else [why(uid, "refusal.land_pa", {}, "S7.3")])


def god_options(b: Battle, god: dict[str, Any]) -> list[dict[str, Any]]:
    """A god's own moves and swap, paid from its own PA (S7.11)."""
    pa = b.s["gods_pa"].get(god["id"], {"available": 0, "spent": 0})
    left = pa["available"] - pa["spent"]
    if left < 1:
        return [option("active.actions[kind=god].god_id", "option.god_actions", {"unit": god["id"]}, "choice", allowed=[],
                       forbidden=[why(god["id"], "refusal.god_pa", {}, "S7.11")])]
    front = hexgrid.neighbour(god["position"], god["facing"])
    swaps = [u["id"] for u in b.units_at(front) if u["side"] == god["side"] and u["facing"] == god["facing"]
             and len(b.units_at(front)) == 1 and not b.in_engagement(u["id"]) and not b.in_engagement(god["id"])]
    return [option("active.actions[kind=god].path", "option.god_path", {"unit": god["id"]}, "list",
                   allowed=unit_paths(b, god), pa_left=left),
            option("active.actions[kind=god].swap_with", "option.god_swap", {"unit": god["id"]}, "choice", allowed=swaps)]


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
            forbidden.append(why(target["id"], "refusal.lurker_hex", {}, "S7.9"))
        elif cost > corps_left(corps):
            forbidden.append(why(target["id"], "refusal.lurker_cost", {"cost": cost}, "S7.9"))
        else:
            allowed.append(target["id"])
    return option("active.actions[kind=lurker].target_id", "option.lurker", {"unit": lurker["id"], "cost": cost}, "choice",
                  allowed=allowed, forbidden=forbidden, pa_cost=cost)


def shooting_option(b: Battle, unit: dict[str, Any]) -> dict[str, Any]:
    allowed, forbidden = [], []
    own_forbidden = []
    if unit["high_altitude"] or b.in_engagement(unit["id"]) or unit["projection_failed"]:
        own_forbidden.append(why(unit["id"], "refusal.cannot_shoot", {}, "S5.9"))
    for target in targets(b, unit["side"]):
        tid, pos = target
        if b.in_engagement(tid):
            forbidden.append(why(tid, "refusal.engaged_target", {}, "S5.9"))
        elif hexgrid.distance(unit["position"], pos) > unit["range"]:
            forbidden.append(why(tid, "refusal.range", {"range": unit["range"]}, "S5.9"))
        elif not own_forbidden:
            allowed.append(tid)
    return option("active.shootings[].target_id", "option.shooting", {"unit": unit["id"]}, "choice",
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
        forbidden.append(why(unit["id"], "refusal.not_combatant", {}, "S5.11"))
    else:
        for tid, pos in targets(b, unit["side"]):
            if hexgrid.distance(unit["position"], pos) != 1:
                continue
            combatant = tid if tid not in b.units else (b.front_unit(pos) or {}).get("id")
            if combatant and combatant not in allowed and f.is_combatant(combatant):
                allowed.append(combatant)
    return option("active.melees[].defender_id", "option.melee", {"unit": unit["id"]}, "choice",
                  allowed=allowed, forbidden=forbidden)


def character_options(b: Battle, c: dict[str, Any]) -> tuple[list[dict], bool]:
    opts: list[dict] = []
    side_key = "active" if c["side"] == b.active else "passive"
    if c["stacked_on"] is not None or c["position"] is not None:
        combatant = c["stacked_on"] or c["id"]
        if c["status"] == "active" and (c["engaged"] or c["stacked_on"] is None):
            opts.append(option(f"{side_key}.stars.{combatant}", "option.star", {"character": c["id"], "combatant": combatant}, "choice", allowed=[c["id"]]))
    if c["magician"] and sheets.conscious(c) and not c["spell_cast"]:
        opts.append(option(f"{side_key}.spells[].caster_id", "option.spell_caster", {"caster": c["id"]}, "choice",
                           allowed=[c["id"]], power_points=c["power_points"]))
        opts += offers.spell_options(b, c, side_key)
    if c["status"] == "active" and c["position"] is not None and not b.char_aloft(c):
        opts.append(offers.escape_option(b, c, side_key))
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
        forbidden.append(why("corps", "refusal.corps_pa", {}, "S5.4"))
    personal = max(0, c["personal_pa"] + sheets.pa_modifier(c["wound_state"]))
    if c["role"] == "champion" and c["personal_pa_spent"] < personal and c["pa_benefit"] < 5:
        sources.append("personal")
    else:
        forbidden.append(why("personal", "refusal.personal_pa", {}, "S7.8"))
    movable = "corps" in sources or "personal" in sources
    paths = character_paths(b, c) if movable and not b.char_aloft(c) else []
    if b.in_engagement(c["id"]):
        allowance = movement.character_allowance(b, c, [])
        if not all(allowance > b.units[e]["move"] for e in b.engaged_with(c["id"]) if e in b.units):
            paths = []
            forbidden.append(why("path", "refusal.leave_engagement", {}, "S7.5"))
    opts.append(option("active.actions[kind=character].pa_source", "option.pa_source", {"character": c["id"], "cost": cost}, "choice",
                       allowed=sources, default="free", forbidden=forbidden, pa_cost=cost))
    opts.append(option("active.actions[kind=character].path", "option.character_path", {"character": c["id"]}, "list", allowed=paths, default=[]))
    opts.append(option("active.actions[kind=character].engaged", "option.engaged", {"character": c["id"]}, "boolean",
                       default=c["engaged"]))
    return opts, False


def side_values(b: Battle, side: str) -> dict[str, list]:
    """The values S9.13 lets a side give in its lists of ids, for a form or a policy to choose from: the items
    of a list (executions and captive transfers S5.5.1, Av that flee A2, Bm that decline a pursuit S7.1), the
    whole objects of an object (an Av unit that does not follow its adventurer, S7.4)."""
    units = [u for u in b.s["units"] if u["side"] == side and u["status"] == "active"]
    held = [c for c in b.s["characters"] if c["status"] == "captured" and c["captured_by"] in b.units
            and b.units[c["captured_by"]]["side"] == side]
    transfers = [{"character_id": c["id"], "to_unit_id": u["id"]} for c in held for u in units
                 if u["id"] != c["captured_by"] and b.grounded(u) and b.grounded(b.units[c["captured_by"]])
                 and hexgrid.distance(u["position"], b.units[c["captured_by"]]["position"]) == 1]
    adventurers = [u["id"] for u in units if u["troop_type"] == "Av"]
    return {"executions": [c["id"] for c in held], "captive_transfers": transfers, "adventurer_flee": adventurers,
            "decline_pursuit": [u["id"] for u in units if u["troop_type"] == "Bm"],
            "adventurers_follow": [{}] + [{uid: False} for uid in adventurers]}


def side_options(b: Battle, side: str) -> tuple[list[dict], bool]:
    active = side == b.active
    key = "active" if active else "passive"
    opts = []
    values = side_values(b, side)
    for name in ACTIVE_ONLY:
        if active:
            opts.append(option(f"active.{name}", f"option.list.{name}", {}, "list", default=[], allowed=values.get(name)))
    forbidden = [] if active else [why(name, "refusal.active_only", {}, "S9.13") for name in ACTIVE_ONLY]
    for name in EITHER:
        opts.append(option(f"{key}.{name}", f"option.list.{name}", {}, "object" if name in ("stars", "adventurers_follow", "escapes") else "list",
                           default={} if name in ("stars", "adventurers_follow", "escapes") else [],
                           forbidden=forbidden if name == "spells" else [], allowed=values.get(name)))
    if active:
        captives = [c["id"] for c in b.s["characters"] if c["status"] == "captured" and c["captured_by"] in b.units
                    and b.units[c["captured_by"]]["side"] == side]
        opts.append(option("active.executions[]", "option.execution", {}, "choice", allowed=captives))
        opts.append(option("active.actions[].use_cinc_extra_pa", "option.cinc_extra", {}, "boolean", default=False,
                           forbidden=[] if movement.Payer(b).cinc_extra_available() else
                           [why(True, "refusal.cinc_extra", {}, "S5.4")]))
    pairs, refused = [], []
    generals = [b.general_of(c) for c in b.side_corps(side)]
    for general in generals:
        for corps in b.side_corps(side):
            problem = rally_problem(b, general, corps)
            value = {"general_id": general["id"], "corps_id": corps["id"]}
            if problem is None:
                pairs.append(value)
            else:
                refused.append(why(value, *offers.rally_refusal(problem), "S5.6"))
    opts.append(option(f"{key}.rallies[]", "option.rally", {}, "choice", allowed=pairs,
                       forbidden=refused))
    opts.append(offers.immediate_rally_option(key, pairs, refused))
    must = active and bool(b.s["pending"]["impetuous"])
    return opts, must


def corps_options(b: Battle, corps: dict[str, Any]) -> tuple[list[dict], bool]:
    active = corps["side"] == b.active
    left = corps_left(corps) if active else 0
    opts = [option("active.actions[].corps_id", "option.corps_actions", {"corps": corps["id"]}, "choice",
                   allowed=[corps["id"]] if left > 0 else [],
                   forbidden=[] if left > 0 else [why(corps["id"], "refusal.corps_spent", {}, "S5.4")], pa_left=left)]
    must = active and any(b.units[u]["corps_id"] == corps["id"] for u in b.s["pending"]["impetuous"])
    return opts, must


def options_for(b: Battle, kind: str, pid: str) -> tuple[list[dict], bool]:
    """The options of one participant and whether the round waits for it, in the battle ``b`` (as its viewer sees it)."""
    if b.s["status"] != "ongoing":
        return [], False
    if kind == "gm":
        return offers.gm_options(b), False
    if kind in ("side", "commander"):
        if pid not in b.sides:
            raise InvalidInput.field("participant.id", "unknown side")
        return side_options(b, pid)
    if kind == "corps":
        if pid not in b.corps:
            raise InvalidInput.field("participant.id", "unknown corps")
        return corps_options(b, b.corps[pid])
    if kind == "unit":
        if pid not in b.units:
            raise InvalidInput.field("participant.id", "unknown unit")
        return unit_options(b, b.units[pid])
    if pid not in b.chars:
        raise InvalidInput.field("participant.id", "unknown character")
    return character_options(b, b.chars[pid])


@ruleset.operation("declaration-options", OptionsInput, summary="What a participant may declare now, and why not the rest.")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    """``viewer`` (a side, or the GM): the options come from what that viewer sees (``fog.view_of``).

    ``declarations`` (the others' answers) are accepted for the room's uniform
    call; HÉROS options describe the bound as it starts, and
    ``check-declaration`` weighs the other declarations (``docs/rules/heros.md``).
    """
    state = load_state(data.state)
    check_viewer(state, data.viewer)
    p = data.participant
    if p.kind == "gm" and data.viewer not in (None, GM):
        raise InvalidInput.field("participant.kind", "only the GM sees the GM's options")
    seen = fog.view_of(state, data.viewer)
    opts, must = options_for(StillBattle(seen, ctx.dice, ctx.log), p.kind, p.id)
    ctx.log.add("S11.2", "options.listed", "{count} declaration options for {kind} {id}.", count=len(opts), kind=p.kind, id=p.id)
    phase = "ended" if state["status"] == "ended" else "declarations"
    out = {"participant": p.model_dump(), "round": state["bound"], "phase": phase, "must_declare": must, "options": opts,
           "names": fog.names(seen)}
    if data.viewer is not None:
        out["viewer"] = data.viewer
    return out
