"""Read paths: a campaign's maps, and a battle state turned into what one viewer sees on the map.

:func:`map_view` is the fog-of-war boundary.  A player's pieces are built
only from the engine's ``visible-state`` output for their side, so a hidden
unit, a lurker or a high-altitude flyer of the other side never reaches the
page or the websocket; the GM (``viewer_side=None``) sees the whole state.
Legal moves come from the engine's ``declaration-options``: nothing here
decides what a piece may do.
"""

from __future__ import annotations

from functools import cache

from django.db.models import QuerySet

from masscombat.core.permissions import Action
from masscombat.maps.kinds import kind_of_campaign
from masscombat.maps.models import BattleMap
from masscombat.maps.render import cell_key
from rules import registry

SELECTED_PATH_LIMIT = 400


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


def _initials(name: str, fallback: str) -> str:
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
    return registry.run("dnd5e", "creature-sheet", {"profile": probe, "role": role})["footprint"]


def _footprints(state: dict) -> dict[str, int]:
    return {pid: footprint_of_size(p["size"]) for pid, p in state.get("profiles", {}).items() if p.get("size")}


def _hurt(entry: dict, profile: dict | None) -> bool:
    if entry.get("health") is not None:
        return entry["health"] not in ("unhurt", "healthy", "full")
    hp = entry.get("hp")
    return hp is not None and profile is not None and 0 < hp < profile.get("hp_max", hp)


def _dnd5e_pieces(state: dict) -> list[dict]:
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
                "label": f"{_initials(unit.get('name'), uid)}{index + 1}",
                "title": f"{unit.get('name') or uid} · {sid}",
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
            "label": _initials(solo.get("name"), hid), "title": solo.get("name") or hid,
            "side": solo.get("side"), "side_index": sides.index(solo["side"]) if solo.get("side") in sides else 0,
            "controller": solo.get("controller"), "badges": badges,
        })
    return pieces


# -- HÉROS -------------------------------------------------------------------------


def _heros_pieces(state: dict) -> list[dict]:
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
            "title": f"{unit.get('name') or unit['id']} ({unit.get('troop_type', '')})",
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
            "label": _initials(char.get("name"), char["id"]), "title": char.get("name") or char["id"],
            "side": char.get("side"), "side_index": sides.index(char["side"]) if char.get("side") in sides else 0,
            "controller": char.get("player_id"), "badges": badges,
        })
    return pieces


# -- JdRWiki -----------------------------------------------------------------------


def _jdrwiki_pieces(state: dict) -> list[dict]:
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
            "option_marker": f"corps.{cid}.", "label": _initials(army.get("name"), cid),
            "title": f"{army.get('name') or corps.get('army_id')} · {cid}",
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


def pieces_of(visible_state: dict, ruleset: str, viewer_side: str | None) -> list[dict]:
    """The pieces of a state the viewer may already see (the engine's ``visible-state`` output, or the whole state for the GM).

    For callers that hold the visible state already (the battle room keeps
    one per side); :func:`map_view` calls it after asking the engine.
    """
    pieces = PIECES.get(ruleset, lambda _state: [])(visible_state)
    for piece in pieces:
        piece["mine"] = viewer_side is not None and piece.get("side") == viewer_side
    return pieces


def _is_cell(value) -> bool:
    return (isinstance(value, dict) and "col" in value and "row" in value) or (
        isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value))


def legal_moves(state: dict, ruleset: str, piece: dict) -> list:
    """The cells a piece may end a move on, from the engine's ``declaration-options`` (last cell of each legal path)."""
    answer = registry.run(ruleset, "declaration-options", {"state": state, "participant": piece["participant"]})
    cells, seen = [], set()
    for option in answer.get("options", []):
        if piece["option_marker"] not in option.get("path", ""):
            continue
        for path in (option.get("allowed") or [])[:SELECTED_PATH_LIMIT]:
            if isinstance(path, list) and path and _is_cell(path[-1]):
                key = cell_key("hex" if isinstance(path[-1], dict) else "square", path[-1])
                if key not in seen:
                    seen.add(key)
                    cells.append(path[-1])
    return cells


def map_view(battle_state: dict, ruleset: str, viewer_side: str | None, selected_piece: str | None = None,
             *, battle_map: BattleMap | None = None) -> dict:
    """What one viewer sees on the map: ``{"source", "pieces", "highlights", "hidden"}``, ready for the renderer.

    ``viewer_side`` is the engine's side id of the viewer, ``None`` for the GM.
    ``selected_piece``, when it is one of the pieces this viewer sees, gets
    its legal moves highlighted.  ``battle_map`` (the stored map the battle was
    set up on) only tells where zones are drawn.
    """
    if viewer_side is None:
        state, hidden = battle_state, []
    else:
        answer = registry.run(ruleset, "visible-state", {"state": battle_state, "side": viewer_side})
        state, hidden = answer["state"], answer.get("hidden", [])
    pieces = pieces_of(state, ruleset, viewer_side)
    highlights = []
    for piece in pieces:
        if selected_piece is not None and piece["id"] == selected_piece:
            piece["selected"] = True
            if viewer_side is None or piece["mine"]:
                highlights = legal_moves(battle_state, ruleset, piece)
    return {"source": battle_source(state, battle_map), "pieces": pieces, "highlights": highlights, "hidden": hidden}


def area_preview(battle_state: dict, *, shape: str, size_m: float, origin, direction: str | None = None,
                 extra_side: str = "high") -> list:
    """The squares a D&D 5e area of effect would cover, from the engine's ``area-template`` (S6.9).

    What the battle room draws as ``template`` while a player aims a spell,
    before declaring it; the engine also raises ``InvalidInput`` for a
    template it cannot place (a cone without a direction, say).
    """
    grid = battle_state["map"]
    payload = {"shape": shape, "size_m": size_m, "origin": list(origin), "extra_side": extra_side,
               "map": {"width": grid["width"], "height": grid["height"]}}
    if direction is not None:
        payload["direction"] = direction
    return registry.run("dnd5e", "area-template", payload)["squares"]
