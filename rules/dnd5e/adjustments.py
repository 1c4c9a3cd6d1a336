"""GM adjustments applied at the start of a round (S7.9), and the placement of
solos whose stand fell (S5.13.1 step 3, reused by the ``remove`` adjustment).
"""

from __future__ import annotations

from rules.dnd5e.battle import Battle
from rules.dnd5e.geometry import Box, dist
from rules.dnd5e.orders import Adjustment, bad


def free_and_enterable(b: Battle, cid: str, anchor, ignore: tuple[str, ...] = ()) -> bool:
    """On the grid, overlapping no creature, and not deep water for a non-swimmer."""
    box = Box(anchor, b.side_of_box(cid))
    if not box.on_grid(b.terrain.width, b.terrain.height):
        return False
    if b.terrain.deep_water_in(box) and not b.can_swim(cid):
        return False
    return not any(oid != cid and oid not in ignore and box.overlaps(obox) for oid, obox in b.occupants())


def apply_adjustment(b: Battle, i: int, adj: Adjustment) -> None:
    path = f"declarations.gm.adjustments[{i}]"
    t, cid = adj.type, adj.id

    def need(field: str):
        value = getattr(adj, field)
        if value is None and field not in adj.model_fields_set:
            raise bad(f"{path}.{field}", f"required for {t}")
        return value

    if t == "set_hp":
        hp = need("hp")
        if cid in b.stands and b.in_play(cid):
            if hp > b.profile(cid).hp_max:
                raise bad(f"{path}.hp", "above hp_max")
            b.stands[cid].update(hp=hp, status="active" if hp > 0 else "casualty")
        elif cid in b.solos and b.solos[cid]["condition"] not in ("dead", "fled"):
            h = b.solos[cid]
            if hp > b.profile(cid).hp_max:
                raise bad(f"{path}.hp", "above hp_max")
            h.update(hp=hp, death_save_successes=0, death_save_failures=0)
            if hp > 0:
                h["condition"] = "active"
            elif h["uses_death_saves"]:
                h["condition"] = "dying"
                b.end_command(cid, "cannot_act")
            else:
                b.kill(cid)
                b.end_command(cid, "dead")
        elif cid in b.squares:
            o = b.squares[cid]
            if hp > o["hp_max"]:
                raise bad(f"{path}.hp", "above hp_max")
            o["hp"] = hp
            o["destroyed_round"] = (o["destroyed_round"] or b.round) if hp == 0 else None
            b.refresh_roads()
        else:
            raise bad(f"{path}.id", "must be a stand in play, a living solo or an objective square")
    elif t in ("move", "place_solo"):
        position = need("position")
        if t == "move":
            ok = (cid in b.stands and b.in_play(cid)) or (cid in b.solos and b.solos[cid]["position"] is not None)
        else:
            h = b.solos.get(cid)
            ok = h is not None and h["position"] is None and h["attached_to"] is None and \
                h["condition"] in ("active", "dying", "stable")
        if not ok:
            raise bad(f"{path}.id", "no creature that this adjustment can place")
        box = Box(position, b.side_of_box(cid))
        if t == "move" and not box.on_grid(b.terrain.width, b.terrain.height):
            b.flee(cid)
        elif not free_and_enterable(b, cid, position):
            raise bad(f"{path}.position", "the footprint must be on the grid, free and enterable")
        else:
            (b.stands.get(cid) or b.solos[cid])["position"] = list(position)
    elif t == "remove":
        if cid in b.stands and b.in_play(cid):
            former = b.box(cid)
            b.stands[cid].update(status="eliminated", position=None, isolated=False, hidden=False)
            for hid in sorted(h for h, s in b.solos.items() if s["attached_to"] == cid):
                place_fallen_solo(b, hid, cid, former, None)
        elif cid in b.solos and b.solos[cid]["condition"] not in ("dead", "fled"):
            b.solos[cid].update(condition="fled", position=None, attached_to=None, isolated=False)
            b.end_command(cid, "removed")
        else:
            raise bad(f"{path}.id", "must be a stand in play or a solo on the field")
    elif t == "set_hidden":
        hidden = need("hidden")
        entity = b.stands.get(cid) or b.solos.get(cid)
        if entity is None:
            raise bad(f"{path}.id", "unknown stand or solo")
        entity["hidden"] = bool(hidden)
    elif t in ("set_broken", "set_configuration", "set_commander"):
        if cid not in b.units:
            raise bad(f"{path}.id", "unknown unit")
        u = b.units[cid]
        if t == "set_broken":
            broken = need("broken")
            u["broken"] = bool(broken)
        elif t == "set_configuration":
            configuration = need("configuration")
            if u["type"] != "regiment":
                raise bad(f"{path}.id", "only a regiment has a configuration")
            u["configuration"] = configuration
        else:
            commander = need("commander")
            if commander is not None:
                h = b.solos.get(commander)
                if h is None or h["attached_to"] not in u["stands"] or not b.solo_can_act(commander) or any(
                        o["commander"] == commander for k, o in b.units.items() if k != cid):
                    raise bad(f"{path}.commander", "must be an able solo attached to the unit, commanding no other")
            u["commander"] = commander
    elif t == "set_condition":
        condition = need("condition")
        if cid not in b.solos or b.solos[cid]["condition"] == "fled":
            raise bad(f"{path}.id", "unknown or fled solo")
        h = b.solos[cid]
        if condition == "dead":
            b.kill(cid)
            b.end_command(cid, "dead")
        else:
            hp = adj.hp if adj.hp is not None else (max(1, h["hp"]) if condition == "active" else 0)
            if (condition == "active") != (hp > 0) or hp > b.profile(cid).hp_max:
                raise bad(f"{path}.hp", "an active solo has 1 to hp_max hp, a dying or stable one 0")
            h.update(condition=condition, hp=hp, death_save_successes=0, death_save_failures=0)
            if condition != "active":
                b.end_command(cid, "cannot_act")
    elif t == "set_spell_uses":
        spell_name, uses = need("spell"), need("uses")
        entity = b.stands.get(cid) or b.solos.get(cid)
        if entity is None:
            raise bad(f"{path}.id", "unknown stand or solo")
        spell = b.profile(cid).spell(spell_name)
        if spell is None or spell.uses is None or uses > spell.uses:
            raise bad(f"{path}.uses", "must be a limited spell of the profile, within its uses")
        entity["spell_uses"][spell_name] = uses
    b.event("adjustment", adjustment=adj.model_dump(exclude_none=True))
    b.log.add("S7.9", "round.adjustment", "GM adjustment {type} on {id}.", type=t, id=cid)


def place_fallen_solo(b: Battle, hid: str, fallen: str, former: Box, order) -> None:
    """S5.13.1 step 3: a solo whose stand was removed stays in play somewhere."""
    h = b.solos[hid]
    unit_id = b.stands[fallen]["unit"]
    unit = b.units[unit_id]
    h["attached_to"] = None

    def reattach(sid: str) -> bool:
        if b.in_play(sid) and b.stands[sid]["unit"] == unit_id and dist(b.box(sid), former) <= 1 \
                and b.size_rule(hid, sid):
            h["attached_to"] = sid
            return True
        return False

    def place(anchor) -> bool:
        box = Box(anchor, b.side_of_box(hid))
        if box.overlaps(former) and free_and_enterable(b, hid, anchor):
            h["position"] = list(anchor)
            return True
        return False

    done = False
    if order is not None:
        done = reattach(order.reattach_to) if order.reattach_to is not None else place(order.position)
        if not done:
            b.log.add("S5.13.1", "end.fallback_failed", "The fallback order of {solo} is impossible.", solo=hid)
    if not done:
        done = any(place(sq) for sq in former.squares())
    if not done:
        done = any(reattach(sid) for sid in unit["stands"])
    if h["attached_to"] is None and unit["commander"] == hid:
        b.end_command(hid, "stand_fell")
    if done:
        b.event("solo_placed", solo=hid, position=h["position"], attached_to=h["attached_to"])
        b.log.add("S5.13.1", "end.solo_placed", "{solo} is placed at {position}, attached to {stand}.",
                  solo=hid, position=h["position"], stand=h["attached_to"])
    else:
        b.event("solo_unplaced", solo=hid)
        b.log.add("S5.13.1", "end.solo_unplaced", "{solo} cannot be placed; the GM will place it.", solo=hid)
