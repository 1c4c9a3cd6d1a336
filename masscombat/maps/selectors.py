"""Read paths: a campaign's maps, and a battle state turned into the pieces one viewer sees on the map.

:func:`pieces_of` is given the state a viewer may see (the engine's
``visible-state`` for a player's side, which the battle room asks once per
request; the whole state for the GM), so a hidden unit, a lurker or a
high-altitude flyer of the other side never reaches the page or the
websocket.  Where a piece may go is not decided here: the room's declaration
forms offer the engine's ``declaration-options`` for the viewer, and the map
draws the cells of the picked option.
"""

from __future__ import annotations

from functools import cache

from django.db.models import QuerySet

from masscombat.core import engines
from masscombat.core.permissions import Action
from masscombat.maps.kinds import kind_of_campaign
from masscombat.maps.models import BattleMap


def maps_of(campaign) -> QuerySet[BattleMap]:
    """The campaign's maps for a list: no terrain data loaded (it can be large)."""
    return BattleMap.objects.filter(campaign=campaign).defer("data").order_by("name", "pk")


def maps_for(access) -> QuerySet[BattleMap]:
    """The maps this member may see: all for the GM, the shown ones for a player."""
    found = maps_of(access.campaign)
    return found if access.can(Action.MAP_EDIT) else found.filter(visible_to_players=True)


def map_for(access, map_id: int) -> BattleMap | None:
    """One map of the campaign, if this member may see it."""
    found = BattleMap.objects.filter(campaign=access.campaign, pk=map_id)
    if not access.can(Action.MAP_EDIT):
        found = found.filter(visible_to_players=True)
    return found.first()


def maps_section_context(access) -> dict:
    """What the campaign page's maps panel shows to this member: the list, and whether they may edit."""
    kind = kind_of_campaign(access.campaign)
    return {
        "access": access,
        "campaign": access.campaign,
        "can_edit": access.can(Action.MAP_EDIT),
        "kind": kind,
        "maps": list(maps_for(access)) if kind else [],
    }


def initials(name: str, fallback: str) -> str:
    words = [w for w in (name or "").replace("-", " ").replace("_", " ").split() if w]
    if not words:
        return fallback[:3]
    return "".join(w[0] for w in words[:2]).upper() if len(words) > 1 else words[0][:3]


# -- D&D 5e ------------------------------------------------------------------------


@cache
def footprint_of_size(size: str) -> int:
    """A creature's footprint in squares for its 5e size, from the engine's creature sheet (S6.1)."""
    probe = {"name": size, "size": size, "ac": 10, "hp_max": 1, "speed_m": 0,
             "abilities": dict.fromkeys(("str", "dex", "con", "int", "wis", "cha"), 10)}
    role = "solo" if size == "gargantuan" else "stand"
    return engines.call("dnd5e", "creature-sheet", {"profile": probe, "role": role})["footprint"]


def _footprints(state: dict) -> dict[str, int]:
    return {pid: footprint_of_size(p["size"]) for pid, p in state.get("profiles", {}).items() if p.get("size")}


def _hurt(entry: dict, profile: dict | None) -> bool:
    if entry.get("health") is not None:
        return entry["health"] not in ("unhurt", "healthy", "full")
    hp = entry.get("hp")
    return hp is not None and profile is not None and 0 < hp < profile.get("hp_max", hp)


def _dnd5e_pieces(state: dict, names: dict[str, str]) -> list[dict]:
    sides = list(state.get("sides", {}))
    profiles = state.get("profiles", {})
    footprint = _footprints(state)
    pieces = []
    for uid, unit in state.get("units", {}).items():
        # The engine numbers a unit's stands among those still in play (``stands[i]`` of its options).
        in_play = [sid for sid in unit.get("stands", [])
                   if state.get("stands", {}).get(sid, {}).get("status") in ("active", "casualty")]
        for index, sid in enumerate(in_play):
            stand = state["stands"][sid]
            if stand.get("position") is None:
                continue
            badges = [b for b, on in (
                ("wounded", _hurt(stand, profiles.get(stand.get("profile")))),
                ("casualty", stand.get("status") == "casualty"),
                ("broken", unit.get("broken")),
                ("isolated", stand.get("isolated")),
                ("hidden", stand.get("hidden")),
            ) if on]
            pieces.append({
                "id": sid, "kind": "stand", "at": stand["position"], "unit": uid,
                "participant": {"kind": "unit", "id": uid}, "option_marker": f"units.{uid}.stands[{index}].",
                "size": footprint.get(stand.get("profile"), 1),
                "label": f"{initials(names.get(uid), uid)}{index + 1}",
                "title": names.get(sid) or f"{names.get(uid, uid)} {index + 1}",
                "side": unit.get("side"), "side_index": sides.index(unit["side"]) if unit.get("side") in sides else 0,
                "controller": unit.get("controller"), "badges": badges,
            })
    for hid, solo in state.get("solos", {}).items():
        if solo.get("position") is None or solo.get("condition") in ("dead", "fled"):
            continue
        badges = [b for b, on in (
            ("wounded", _hurt(solo, profiles.get(solo.get("profile")))),
            ("casualty", solo.get("condition") in ("dying", "stable")),
            ("isolated", solo.get("isolated")),
            ("hidden", solo.get("hidden")),
        ) if on]
        pieces.append({
            "id": hid, "kind": "solo", "at": solo["position"], "participant": {"kind": "solo", "id": hid},
            "option_marker": f"solos.{hid}.", "size": footprint.get(solo.get("profile"), 1),
            "label": initials(names.get(hid), hid), "title": names.get(hid, hid),
            "side": solo.get("side"), "side_index": sides.index(solo["side"]) if solo.get("side") in sides else 0,
            "controller": solo.get("controller"), "badges": badges,
        })
    return pieces


# -- HÉROS -------------------------------------------------------------------------


def _heros_pieces(state: dict, names: dict[str, str]) -> list[dict]:
    sides = [s["id"] for s in state.get("sides", [])]
    broken_sides = {s["id"] for s in state.get("sides", []) if s.get("broken")}
    demoralised = {c["id"] for c in state.get("corps", []) if c.get("demoralised")}
    pieces = []
    for unit in state.get("units", []):
        if unit.get("status") != "active" or not unit.get("position"):
            continue
        badges = [b for b, on in (
            ("wounded", unit.get("wound_state") not in (None, "none")),
            ("broken", unit.get("side") in broken_sides or unit.get("corps_id") in demoralised),
            ("hidden", unit.get("hidden")),
        ) if on]
        pieces.append({
            "id": unit["id"], "kind": "unit", "at": unit["position"], "participant": {"kind": "unit", "id": unit["id"]},
            "option_marker": f".{unit['id']}", "label": unit.get("troop_type") or unit["id"][:3],
            "title": f"{names.get(unit['id'], unit['id'])} ({unit.get('troop_type', '')})",
            "side": unit.get("side"), "side_index": sides.index(unit["side"]) if unit.get("side") in sides else 0,
            "badges": badges,
        })
    for char in state.get("characters", []):
        if char.get("status") != "active" or not char.get("position"):
            continue
        badges = [b for b, on in (("wounded", char.get("wound_state") not in (None, "none")),) if on]
        pieces.append({
            "id": char["id"], "kind": "character", "at": char["position"],
            "participant": {"kind": "character", "id": char["id"]}, "option_marker": "kind=character",
            "label": initials(names.get(char["id"]), char["id"]), "title": names.get(char["id"], char["id"]),
            "side": char.get("side"), "side_index": sides.index(char["side"]) if char.get("side") in sides else 0,
            "controller": char.get("player_id"), "badges": badges,
        })
    return pieces


# -- JdRWiki -----------------------------------------------------------------------


def _jdrwiki_pieces(state: dict, names: dict[str, str]) -> list[dict]:
    armies = state.get("armies", {})
    sides = sorted({a.get("side") for a in armies.values() if a.get("side")})
    pieces = []
    for cid, corps in state.get("corps", {}).items():
        if corps.get("status") not in (None, "active") or not corps.get("zone"):
            continue
        army = armies.get(corps.get("army_id"), {})
        side = army.get("side")
        badges = [b for b, on in (("routed", corps.get("status") == "routed"),) if on]
        pieces.append({
            "id": cid, "kind": "corps", "at": corps["zone"], "participant": {"kind": "corps", "id": cid},
            "option_marker": f"corps.{cid}.", "label": initials(names.get(corps.get("army_id")), cid),
            "title": names.get(cid, cid),
            "side": side, "side_index": sides.index(side) if side in sides else 0, "badges": badges,
        })
    return pieces


PIECES = {"dnd5e": _dnd5e_pieces, "heros": _heros_pieces, "jdrwiki": _jdrwiki_pieces}


def battle_source(state: dict, battle_map: BattleMap | None = None) -> dict:
    """What the renderer draws for a battle state: its map (fixed for the battle), zones placed as the stored map draws them."""
    engine = state.get("map", {})
    if "cells" in engine:
        return {"kind": "square", "width": engine["width"], "height": engine["height"],
                "data": {"cells": engine["cells"], "objective_squares": state.get("objective_squares", {})}}
    if "hexes" in engine:
        return {"kind": "hex", "width": engine["width"], "height": engine["height"], "data": {"hexes": engine["hexes"]}}
    if battle_map is not None and battle_map.kind == "zones":
        placed = battle_map.data.get("zones", {})
        zones = {zid: {**zone, "at": placed.get(zid, {}).get("at")} for zid, zone in engine.get("zones", {}).items()}
        return {"kind": "zones", "width": battle_map.width, "height": battle_map.height, "data": {"zones": zones}}
    return {"zones": engine.get("zones", {})}


def pieces_of(visible_state: dict, ruleset: str, viewer_side: str | None, names: dict[str, str]) -> list[dict]:
    """The pieces of a state the viewer may already see (the engine's ``visible-state`` output, or the whole state for the GM).

    The battle room keeps one visible state per viewer and passes it here.  Labels
    and titles come from ``names`` (the engine's for the viewer), never from ids.
    """
    pieces = PIECES.get(ruleset, lambda _state, _names: [])(visible_state, names)
    for piece in pieces:
        piece["mine"] = viewer_side is not None and piece.get("side") == viewer_side
    return pieces
