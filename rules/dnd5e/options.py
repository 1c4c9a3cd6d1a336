"""What a participant may declare now (``declaration-options``), answered from
the same predicates that ``resolve-round`` uses to refuse orders, so that a
form built from the allowed values is always accepted (S9.13.3, S11.2).
"""

from __future__ import annotations

from rules.dnd5e.battle import Battle
from rules.dnd5e.geometry import DIRECTIONS, Box, dist, squares_range
from rules.dnd5e.adjustments import free_and_enterable
from rules.dnd5e.reachability import reachable
from rules.dnd5e.orders import AdjustmentType, bonus_problem, stand_own_actions, unit_actions
from rules.dnd5e.sheets import attacks_per_action, reach_bonus_attack


def option(path: str, label: str, type_: str, *, allowed=None, default=None, required: bool = False,
           forbidden=None, **extra) -> dict:
    out = {"path": path, "label": label, "type": type_, "default": default, "required": required,
           "forbidden": forbidden or []}
    if allowed is not None:
        out["allowed"] = allowed
    out.update(extra)
    return out


def attack_options(b: Battle, cid: str, base: str) -> list[dict]:
    p = b.profile(cid)
    allowed, forbidden = [], []
    box = b.box(cid)
    foes = [t for t in b.stands_in_play() if b.enemy_of(cid, t)]
    foes += [h for h in b.solos if b.solos[h]["position"] is not None and b.enemy_of(cid, h)]
    foes += [q for q in b.squares if b.squares[q]["hp"] > 0]
    for a in p.attacks:
        reach = 1 if a.kind == "melee" else squares_range(a.long_range)
        for t in sorted(foes):
            d = dist(box, b.box(t))
            ok = d == 1 or (t in b.squares and d == 0) if a.kind == "melee" else d <= reach
            if ok:
                allowed.append({"attack": a.name, "target": t, "distance": d,
                                "reach_bonus_possible": a.kind == "melee" and reach_bonus_attack(p, cid in b.stands)})
            else:
                forbidden.append({"value": {"attack": a.name, "target": t},
                                  "reason": f"{t} is out of reach of {a.name} from here (distance {d})",
                                  "key": "refusal.out_of_reach", "params": {"target": t, "attack": a.name, "distance": d},
                                  "rule": "S5.9.1"})
    max_attacks = attacks_per_action(p) + (1 if reach_bonus_attack(p, cid in b.stands) else 0)
    return [option(f"{base}.attacks", "Attacks (attack name and target)", "list", allowed=allowed, default=[],
                   forbidden=forbidden, min=0, max=max_attacks, multiattack=p.multiattack)]


def spell_options(b: Battle, cid: str, base: str) -> list[dict]:
    p = b.profile(cid)
    entity = b.stands.get(cid) or b.solos[cid]
    allowed, forbidden = [], []
    for s in p.spells:
        if s.uses is not None and entity["spell_uses"].get(s.name, 0) <= 0:
            forbidden.append({"value": s.name, "reason": f"no use of {s.name} is left", "rule": "S5.8.2"})
        else:
            allowed.append(s.name)
    opts = [option(f"{base}.spell.name", "Spell", "choice", allowed=allowed, forbidden=forbidden)]
    box = b.box(cid)
    is_solo = cid in b.solos
    targets, origins = [], []
    foes = None
    for s in p.spells:
        if s.name not in allowed:
            continue
        if s.targeting == "targeted":
            reach = squares_range(s.range_m)
            if foes is None:  # the same for every targeted spell: distance from here, once
                found = [t for t in b.stands_in_play() if b.enemy_of(cid, t)]
                found += [h for h in b.solos if b.solos[h]["position"] is not None and b.enemy_of(cid, h)]
                found += [] if is_solo else [q for q in b.squares if b.squares[q]["hp"] > 0]
                foes = [(t, dist(box, b.box(t))) for t in sorted(found)]
            for t, d in foes:
                cost = 5 if is_solo and t in b.stands else 1
                if d <= reach and cost <= s.max_targets:
                    targets.append({"spell": s.name, "target": t, "slots": cost, "max_slots": s.max_targets})
        elif s.self_range:
            spots = [sq for sq in _ring(box) if 0 <= sq[0] < b.terrain.width and 0 <= sq[1] < b.terrain.height]
            origins.append({"spell": s.name, "squares": [list(sq) for sq in spots]})
        else:
            origins.append({"spell": s.name, "squares": _within(box, squares_range(s.range_m), b.terrain)})
    opts.append(option(f"{base}.spell.targets", "Targets of a targeted spell (within range now)", "list",
                       allowed=targets, default=[]))
    opts.append(option(f"{base}.spell.origin", "Origin square of an area spell", "square", allowed=origins))
    opts.append(option(f"{base}.spell.direction", "Direction of a cone or a line", "choice",
                       allowed=list(DIRECTIONS), default=None))
    return opts


def _within(box: Box, reach: int, terrain) -> list[list[int]]:
    """The squares of the map at most ``reach`` from a footprint (S4.5), row by row."""
    out = []
    for y in range(max(0, box.y - reach), min(terrain.height, box.y1 + reach + 1)):
        rest = reach - max(0, box.y - y, y - box.y1)
        out += [[x, y] for x in range(max(0, box.x - rest), min(terrain.width, box.x1 + rest + 1))]
    return out


def _ring(box: Box) -> list[tuple[int, int]]:
    """The squares just outside a footprint, sharing a side with it (self-range origins, S5.10.2)."""
    out = [(x, box.y - 1) for x in range(box.x, box.x1 + 1)] + [(x, box.y1 + 1) for x in range(box.x, box.x1 + 1)]
    out += [(box.x - 1, y) for y in range(box.y, box.y1 + 1)] + [(box.x1 + 1, y) for y in range(box.y, box.y1 + 1)]
    return sorted(out, key=lambda s: (s[1], s[0]))


def stand_options(b: Battle, uid: str, index: int, sid: str, base: str, costs: dict) -> list[dict]:
    u = b.units[uid]
    p = b.profile(sid)
    path = f"{base}.stands[{index}]"
    opts = [option(f"{path}.stand", "Stand", "choice", allowed=[sid], default=sid, required=True)]
    moves = reachable(b, sid, False, False, costs)
    opts.append(option(f"{path}.move", "Path before the action (one of the paths)", "list", default=[],
                       allowed=moves, max=b.allowance(sid, False), dash_max=b.allowance(sid, True)))
    opts.append(option(f"{path}.move_after", "Path after the action (squares)", "list", default=[],
                       max=b.allowance(sid, False),
                       forbidden=[] if u["type"] == "skirmishers" else [
                           {"value": "move and move_after", "reason": "a regiment stand moves before or after its "
                            "action, not both", "rule": "S5.7.1"}]))
    opts.append(option(f"{path}.road_step", "Road step", "choice", allowed=[None, *DIRECTIONS], default=None))
    if p.attacks:
        opts += attack_options(b, sid, path)
    if u["configuration"] == "support":
        mates = [t for t in u["stands"] if t != sid and b.in_play(t)]
        opts.append(option(f"{path}.support", "Support another stand of the unit", "choice",
                           allowed=[None, *mates], default=None))
    if p.spells:
        opts += spell_options(b, sid, path)
    else:
        opts.append(option(f"{path}.action", "Own action under Cast a Spell", "choice",
                           allowed=stand_own_actions(b, uid), default="none"))
    if u["type"] == "skirmishers":
        opts.append(option(f"{path}.hide", "Tries to hide", "boolean", default=True))
    return opts


def unit_options(b: Battle, uid: str) -> tuple[bool, list[dict]]:
    u = b.units[uid]
    base = f"units.{uid}"
    if u["eliminated_round"] is not None or not any(b.in_play(s) for s in u["stands"]):
        return False, []
    actions = unit_actions(b, uid)
    opts = [option(f"{base}.action", "Battle action", "choice", default="none",
                   allowed=[a for a, why in actions.items() if why is None],
                   forbidden=[{"value": a, "reason": why, "rule": "S6.5"} for a, why in actions.items() if why])]
    if u["type"] == "regiment" and actions["configure"] is None:
        opts.append(option(f"{base}.configuration", "New configuration (with Configure)", "choice",
                           allowed=[c for c in ("support", "defense", "march") if c != u["configuration"]]))
    in_play = [s for s in u["stands"] if b.in_play(s)]
    costs: dict = {}  # step costs, shared by the stands' path searches
    for i, sid in enumerate(in_play):
        opts += stand_options(b, uid, i, sid, base, costs)
    if u["broken"] and u["commander"] is not None:
        opts.append(option(f"{base}.if_rallied", "Orders if the commander rallies the unit", "object", default=None,
                           allowed=[a for a, why in unit_actions(b, uid, broken=False).items() if why is None]))
    return True, opts


def solo_options(b: Battle, hid: str) -> tuple[bool, list[dict]]:
    h = b.solos[hid]
    base = f"solos.{hid}"
    if not b.solo_can_act(hid):
        return False, []
    p = b.profile(hid)
    opts = []
    if h["attached_to"] is not None:
        stand = h["attached_to"]
        allowed = ["none"] + [a for a, has in (("attack", p.attacks), ("cast_spell", p.spells)) if has]
        opts.append(option(f"{base}.action", "Action", "choice", allowed=allowed, default="none",
                           forbidden=[{"value": a, "reason": "an attached solo may only attack, cast or do nothing",
                                       "rule": "H29"} for a in ("dash", "hide", "join", "disengage")]))
        sbox = b.box(stand)
        side = b.side_of_box(hid)
        spots = sorted({(x, y) for x in range(sbox.x - side, sbox.x1 + 2) for y in range(sbox.y - side, sbox.y1 + 2)
                        if dist(Box((x, y), side), sbox) == 1 and free_and_enterable(b, hid, (x, y))},
                       key=lambda s: (s[1], s[0]))
        opts.append(option(f"{base}.detach_to", "Detach to", "square", allowed=[None, *map(list, spots)]))
        unit = b.unit_of(stand)
        mates = [t for t in unit["stands"] if t != stand and b.in_play(t) and dist(b.box(t), sbox) == 1
                 and b.size_rule(hid, t)]
        opts.append(option(f"{base}.switch_to", "Switch to stand", "choice", allowed=[None, *mates]))
        opts.append(option(f"{base}.detach_when", "Detach or switch", "choice",
                           allowed=["before_action", "after_action"], default="before_action"))
        opts.append(option(f"{base}.timing", "Acts", "choice", allowed=["before_stands", "after_stands"],
                           default="after_stands"))
        joining = False
    else:
        actions = ["none"] + [a for a in ("attack", "cast_spell", "dash", "hide", "join", "disengage")
                              if not (a == "attack" and not p.attacks) and not (a == "cast_spell" and not p.spells)]
        opts.append(option(f"{base}.action", "Action", "choice", allowed=actions, default="none"))
        opts.append(option(f"{base}.move", "Path before the action (squares)", "list", default=[],
                           allowed=reachable(b, hid, False, False), max=b.allowance(hid, False),
                           dash_max=b.allowance(hid, True)))
        opts.append(option(f"{base}.move_after", "Path after the action (squares)", "list", default=[]))
        stands = [s for s in b.stands_in_play(h["side"])]
        opts.append(option(f"{base}.join", "Stand to join", "choice",
                           allowed=[None, *[s for s in stands if b.size_rule(hid, s)]],
                           forbidden=[{"value": s, "reason": "the solo is more than one size larger than its creatures",
                                       "rule": "S5.8.6"} for s in stands if not b.size_rule(hid, s)]))
        joining = True
    if p.attacks:
        opts += attack_options(b, hid, base)
    if p.spells:
        opts += spell_options(b, hid, base)
    bonuses, refused = [None], []
    for bonus in ("prepare", "motivate", "rally", "become_commander", "cease_commander"):
        why = bonus_problem(b, hid, bonus, joining)
        if why is None and joining and bonus == "become_commander":
            why = "a detached solo may become commander only together with the Join action (S5.6.1)"
        if why is None:
            bonuses.append(bonus)
        else:
            refused.append({"value": bonus, "reason": why, "rule": "S5.12"})
    opts.append(option(f"{base}.bonus_action", "Bonus action", "choice", allowed=bonuses, default=None,
                       forbidden=refused))
    return True, opts


def side_options(b: Battle, side: str) -> list[dict]:
    pairs = []
    mine = b.stands_in_play(side)
    for x in sorted(mine):
        for y in sorted(mine):
            if x != y and dist(b.box(x), b.box(y)) == 1:
                pairs.append({"if_eliminated": x, "shift": y})
    solos = sorted(h for h, s in b.solos.items() if s["side"] == side and s["attached_to"] is not None)
    return [option("casualty_shifts", "If stand X falls, stand Y steps in", "list", allowed=pairs, default=[]),
            option("solo_fallbacks", "Where attached solos go if their stand falls", "object", allowed=solos,
                   default={})]


def gm_options(b: Battle) -> list[dict]:
    customs = [k for k, o in b.st["objectives"].items() if o["type"] == "custom" and o.get("achieved_round") is None]
    types = list(AdjustmentType.__args__)
    return [
        option("gm.adjustments", "Adjustments", "list", allowed=types, default=[]),
        option("gm.isolation_overrides", "Isolation overrides", "object",
               allowed=sorted(list(b.stands_in_play()) + [h for h in b.solos if b.solos[h]["position"]]), default={}),
        option("gm.hide_dc", "Hide DC", "integer", min=0, max=40, default=None),
        option("gm.custom_achieved", "Custom objectives achieved", "list", allowed=customs, default=[]),
        option("gm.award_vp", "VP awards", "list", allowed=sorted(b.st["sides"]), default=[], min=-100, max=100),
    ]
