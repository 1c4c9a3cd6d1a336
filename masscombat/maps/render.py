"""Battle maps drawn as SVG on the server.

One function, :func:`render_map_svg`, draws any of the three kinds (square
grid, flat-topped odd-q hexes, zones) with its terrain, the pieces on it
(units, stands, solos, characters, corps, each with its side's colour, a short
label and badges for its state), the cells to highlight (legal moves), the
cells an area template would cover and, on grids, the columns' and rows' names
along the edges.  Colours come from CSS classes
(``static/css/maps.css``), so the markup stays small and a 40 x 30 map with 60
stands is drawn in a few milliseconds.

Cells carry ``data-c`` (``"x,y"``, ``"col,row"`` or a zone id) and pieces
``data-piece``: ``static/js/map-view.js`` turns taps on them into
``map:select-cell`` and ``map:select-piece`` events.

A piece is a dict: ``id``, ``at`` (``[x, y]``, ``{"col", "row"}`` or a zone
id), ``label`` (a few letters drawn on it), ``title`` (its full name),
``side_index`` (0, 1, ... for the colour), ``kind`` (``stand``, ``unit``,
``solo``, ``character``, ``corps``), optional ``size`` (footprint in squares),
``badges`` (states among :data:`BADGES`), ``selected`` and ``mine``.
Whoever builds pieces for a viewer builds them from what that viewer may see
(:func:`masscombat.maps.selectors.pieces_of`): this module draws what it is given.

The terrain group carries a digest of its content (``data-keep``): the battle
room's pushes leave the terrain out (:func:`without_terrain`, most of a map's
bytes, and the same from round to round) and the page puts back the one it
shows when the digests match (``static/js/battle.js``).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from html import escape

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from masscombat.maps.kinds import label as term_label
from masscombat.maps.layout import zone_slots
from masscombat.maps.naming import objective_names, zone_names

SQUARE = 32
HEX_R = 20
HEX_H = math.sqrt(3) * HEX_R
ZONE_W, ZONE_H, ZONE_GAP = 150, 92, 44
GUTTER = 24  # the band left and above a grid where its columns' and rows' names are written

# States a piece can show, in the order their badges are drawn, with their glyph.
BADGES = {
    "wounded": ("+", gettext_lazy("Wounded")),
    "casualty": ("×", gettext_lazy("Casualty")),
    "routed": ("»", gettext_lazy("Routed")),
    "broken": ("!", gettext_lazy("Broken")),
    "isolated": ("○", gettext_lazy("Isolated")),
    "hidden": ("?", gettext_lazy("Hidden")),
}
ROUND_KINDS = {"solo", "character"}


def _fmt(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def normalise_source(source) -> tuple[str, int, int, dict]:
    """``(kind, width, height, data)`` of a stored map, a ``{"kind", "width", "height", "data"}`` dict or an engine map."""
    if hasattr(source, "kind"):
        return source.kind, source.width, source.height, source.data or {}
    if "kind" in source:
        return source["kind"], source["width"], source["height"], source.get("data") or {}
    if "zones" in source:
        zones = {zid: dict(zone) for zid, zone in source["zones"].items()}
        slots = zone_slots(zones)
        width = max([x for x, _ in slots.values()] + [0]) + 1
        height = max([y for _, y in slots.values()] + [0]) + 1
        for zid, at in slots.items():
            zones[zid]["at"] = list(at)
        return "zones", width, height, {"zones": zones}
    if "hexes" in source:
        return "hex", source["width"], source["height"], {"hexes": source["hexes"]}
    return "square", source["width"], source["height"], {"cells": source.get("cells", [])}


def cell_key(kind: str, at) -> str:
    """The ``data-c`` of a cell, from the engine's own way of naming it."""
    if kind == "zones":
        return str(at)
    if isinstance(at, dict):
        return f"{at['col']},{at['row']}"
    return f"{at[0]},{at[1]}"


# -- geometry ------------------------------------------------------------------


def _hex_center(col: int, row: int) -> tuple[float, float]:
    return HEX_R + col * 1.5 * HEX_R, HEX_H / 2 + row * HEX_H + (col & 1) * HEX_H / 2


_HEX_CORNERS = [(HEX_R * math.cos(math.pi / 3 * i), HEX_R * math.sin(math.pi / 3 * i)) for i in range(6)]


def _hex_points(col: int, row: int, shrink: float = 0) -> str:
    cx, cy = _hex_center(col, row)
    k = 1 - shrink
    return " ".join(f"{_fmt(cx + dx * k)},{_fmt(cy + dy * k)}" for dx, dy in _HEX_CORNERS)


def _zone_box(at) -> tuple[float, float]:
    return ZONE_GAP / 2 + at[0] * (ZONE_W + ZONE_GAP), ZONE_GAP / 2 + at[1] * (ZONE_H + ZONE_GAP)


def _size(kind: str, width: int, height: int) -> tuple[float, float]:
    if kind == "square":
        return width * SQUARE, height * SQUARE
    if kind == "hex":
        return HEX_R * (1.5 * width + 0.5), HEX_H * (height + (0.5 if width > 1 else 0))
    return width * (ZONE_W + ZONE_GAP), height * (ZONE_H + ZONE_GAP)


def _shape(kind: str, key: str, cls: str, zones: dict) -> str:
    """One cell's outline, for highlights and templates."""
    if kind == "square":
        x, y = (int(v) for v in key.split(","))
        return f'<rect class="{cls}" data-c="{key}" x="{x * SQUARE}" y="{y * SQUARE}" width="{SQUARE}" height="{SQUARE}"/>'
    if kind == "hex":
        col, row = (int(v) for v in key.split(","))
        return f'<polygon class="{cls}" data-c="{key}" points="{_hex_points(col, row)}"/>'
    zone = zones.get(key)
    if zone is None:
        return ""
    x, y = _zone_box(zone["at"])
    return (f'<rect class="{cls}" data-c="{escape(key)}" x="{_fmt(x)}" y="{_fmt(y)}" '
            f'width="{ZONE_W}" height="{ZONE_H}" rx="12"/>')


# -- terrain -------------------------------------------------------------------


def _square_cells(width: int, height: int, data: dict, out: list[str]) -> None:
    special = {tuple(c["at"]): c for c in data.get("cells", [])}
    extras = []
    for y in range(height):
        for x in range(width):
            cell = special.get((x, y))
            terrain = cell.get("terrain", "open") if cell else "open"
            out.append(f'<rect class="cell t-{terrain}" data-c="{x},{y}" x="{x * SQUARE}" y="{y * SQUARE}" '
                       f'width="{SQUARE}" height="{SQUARE}"/>')
            if cell and cell.get("difficult"):
                extras.append(f'<rect class="difficult" x="{x * SQUARE}" y="{y * SQUARE}" '
                              f'width="{SQUARE}" height="{SQUARE}"/>')
            if cell and cell.get("elevation"):
                extras.append(f'<text class="elev" x="{x * SQUARE + 3}" y="{y * SQUARE + 11}">▲{cell["elevation"]}</text>')
    objectives = data.get("objective_squares", {})
    called = objective_names(objectives)  # "Objective 1": an id is never drawn
    for oid, square in objectives.items():
        x, y = square["at"]
        extras.append(
            f'<g class="objective"><title>{escape(called[oid])}: {square["hp_max"]} {_("HP")}, {square["vp"]} {_("VP")}</title>'
            f'<rect x="{x * SQUARE + 2}" y="{y * SQUARE + 2}" width="{SQUARE - 4}" height="{SQUARE - 4}" rx="4"/>'
            f'<text x="{x * SQUARE + SQUARE / 2}" y="{y * SQUARE + SQUARE - 5}">★</text></g>'
        )
    out.extend(extras)


_HEX_GLYPHS = {"wooded": "♣", "built_up": "⌂", "fortified": "⛫"}


def _hex_cells(width: int, height: int, data: dict, out: list[str]) -> None:
    special = {(h["col"], h["row"]): h for h in data.get("hexes", [])}
    extras = []
    for col in range(width):
        for row in range(height):
            hexagon = special.get((col, row), {})
            classes = [f"t-{hexagon.get('terrain', 'open')}"]
            classes += [f"f-{flag}" for flag in ("river", "river_bank", "wall") if hexagon.get(flag)]
            out.append(f'<polygon class="cell {" ".join(classes)}" data-c="{col},{row}" points="{_hex_points(col, row)}"/>')
            if not hexagon:
                continue
            cx, cy = _hex_center(col, row)
            glyphs = "".join(g for flag, g in _HEX_GLYPHS.items() if hexagon.get(flag))
            if glyphs:
                extras.append(f'<text class="glyph" x="{_fmt(cx)}" y="{_fmt(cy + 5)}">{glyphs}</text>')
            if hexagon.get("elevation"):
                extras.append(f'<text class="elev" x="{_fmt(cx)}" y="{_fmt(cy - 8)}">{hexagon["elevation"]:+d}</text>')
    out.extend(extras)


def _zone_cells(zones: dict, out: list[str]) -> None:
    drawn = set()
    for zid, zone in zones.items():
        ax, ay = _zone_box(zone["at"])
        for other in zone.get("neighbors", []):
            if other not in zones or (other, zid) in drawn:
                continue
            drawn.add((zid, other))
            bx, by = _zone_box(zones[other]["at"])
            out.append(f'<line class="link" x1="{_fmt(ax + ZONE_W / 2)}" y1="{_fmt(ay + ZONE_H / 2)}" '
                       f'x2="{_fmt(bx + ZONE_W / 2)}" y2="{_fmt(by + ZONE_H / 2)}"/>')
    names = zone_names(zones)  # an unnamed zone is "Zone 2", never its id
    for zid, zone in zones.items():
        x, y = _zone_box(zone["at"])
        terrain = {k: v for k, v in zone.get("terrain", {}).items() if v}
        main = max(terrain, key=terrain.get) if terrain else "plain"
        summary = " · ".join(f"{term_label(k)} {v}" for k, v in terrain.items())
        name = names[zid]
        out.append(
            f'<g class="zone"><rect class="cell t-{main}" data-c="{escape(zid)}" x="{_fmt(x)}" y="{_fmt(y)}" '
            f'width="{ZONE_W}" height="{ZONE_H}" rx="12"><title>{escape(name)}{": " + escape(summary) if summary else ""}'
            f'</title></rect><text class="zone-name" x="{_fmt(x + 8)}" y="{_fmt(y + 17)}">{escape(name[:22])}</text>'
            + (f'<text class="zone-terrain" x="{_fmt(x + 8)}" y="{_fmt(y + ZONE_H - 8)}">{escape(summary[:34])}</text>'
               if summary else "")
            + "</g>"
        )


def _zone_slots(width: int, height: int, zones: dict, out: list[str]) -> None:
    taken = {tuple(zone["at"]) for zone in zones.values()}
    for y in range(height):
        for x in range(width):
            if (x, y) not in taken:
                bx, by = _zone_box((x, y))
                out.append(f'<rect class="slot" data-c="slot:{x},{y}" x="{_fmt(bx)}" y="{_fmt(by)}" '
                           f'width="{ZONE_W}" height="{ZONE_H}" rx="12"/>')


# -- coordinates on the edges ------------------------------------------------------


def column_name(x: int) -> str:
    """A square grid's column as players read it: A..Z, then AA, AB... (the battle room's lists say "C4")."""
    name = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _coordinates(kind: str, width: int, height: int, out: list[str]) -> None:
    """Column names along the top edge and row names down the left one, in the lists' notation.

    Squares read "C4" (letter, then the row counted from 1), hexes "col,row" (both from 0).
    Without a script they sit in the gutter left and above the map; ``static/js/map-view.js``
    keeps them on whatever edges are in sight, at one size on screen, as the map zooms.
    """
    if kind == "square":
        columns = [(column_name(x), (x + 0.5) * SQUARE) for x in range(width)]
        rows = [(str(y + 1), (y + 0.5) * SQUARE) for y in range(height)]
    else:
        columns = [(str(col), _hex_center(col, 0)[0]) for col in range(width)]
        rows = [(str(row), _hex_center(0, row)[1]) for row in range(height)]
    out.append(f'<g class="coords" aria-hidden="true"><g class="coords-cols" transform="translate(0 {2 - GUTTER})">')
    out.extend(f'<text x="{_fmt(x)}" y="0">{name}</text>' for name, x in columns)
    out.append(f'</g><g class="coords-rows" transform="translate({2 - GUTTER} 0)">')
    out.extend(f'<text x="0" y="{_fmt(y)}">{name}</text>' for name, y in rows)
    out.append("</g></g>")


# -- pieces --------------------------------------------------------------------


def _piece_title(piece: dict) -> str:
    states = ", ".join(str(BADGES[b][1]) for b in piece.get("badges", ()) if b in BADGES)
    title = piece.get("title") or piece.get("label") or piece["id"]
    return escape(f"{title} ({states})" if states else title)


def _piece(piece: dict, cx: float, cy: float, r: float) -> str:
    classes = ["piece", f"side-{piece.get('side_index', 0)}", f"k-{piece.get('kind', 'stand')}"]
    classes += [f"s-{b}" for b in piece.get("badges", ()) if b in BADGES]
    if piece.get("selected"):
        classes.append("selected")
    if piece.get("mine"):
        classes.append("mine")
    if piece.get("kind") in ROUND_KINDS:
        body = f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}"/>'
    else:
        body = (f'<rect x="{_fmt(cx - r)}" y="{_fmt(cy - r)}" width="{_fmt(2 * r)}" height="{_fmt(2 * r)}" '
                f'rx="{_fmt(r / 4)}"/>')
    label = escape(str(piece.get("label") or piece["id"])[:4])
    font = max(7.0, min(13.0, r * 0.8))
    badges = []
    for i, badge in enumerate(b for b in BADGES if b in piece.get("badges", ())):
        bx, by = cx + r - 1 - i * 9, cy - r + 1
        badges.append(f'<g class="pbadge b-{badge}"><circle cx="{_fmt(bx)}" cy="{_fmt(by)}" r="5"/>'
                      f'<text x="{_fmt(bx)}" y="{_fmt(by + 3)}">{BADGES[badge][0]}</text></g>')
    return (f'<g class="{" ".join(classes)}" data-piece="{escape(str(piece["id"]))}" tabindex="0">'
            f"<title>{_piece_title(piece)}</title>{body}"
            f'<text x="{_fmt(cx)}" y="{_fmt(cy + font / 3)}" font-size="{_fmt(font)}">{label}</text>'
            f'{"".join(badges)}</g>')


def _pieces(kind: str, pieces: Iterable[dict], zones: dict, out: list[str]) -> None:
    by_place: dict[str, list[dict]] = defaultdict(list)
    for piece in pieces:
        if piece.get("at") is not None:
            by_place[cell_key(kind, piece["at"])].append(piece)
    for key, here in by_place.items():
        if kind == "square":
            x, y = (int(v) for v in key.split(","))
            for i, piece in enumerate(here):
                size = piece.get("size") or 1
                r = SQUARE * size / 2 - 3 - i * 3
                out.append(_piece(piece, (x + size / 2) * SQUARE, (y + size / 2) * SQUARE, max(r, 5)))
        elif kind == "hex":
            col, row = (int(v) for v in key.split(","))
            cx, cy = _hex_center(col, row)
            r = 11 if len(here) == 1 else 8
            for i, piece in enumerate(here):
                dx = 0 if len(here) == 1 else (i - (len(here) - 1) / 2) * 10
                out.append(_piece(piece, cx + dx, cy + (0 if len(here) == 1 else 3 * (i % 2)), r))
        else:
            zone = zones.get(key)
            if zone is None:
                continue
            x, y = _zone_box(zone["at"])
            for i, piece in enumerate(here[:6]):
                out.append(_piece(piece, x + 24 + i * 34, y + ZONE_H / 2 + 4, 14))


# -- the whole map ---------------------------------------------------------------


def render_map_svg(source, *, pieces: Iterable[dict] = (), highlights: Iterable = (), template: Iterable = (),
                   label: str = "", editing: bool = False) -> str:
    """The map as an ``<svg>`` element (a string ready to mark safe: every text is escaped).

    ``highlights`` and ``template`` are cells named the engine's way (``[x, y]``,
    ``{"col", "row"}``, zone ids): legal moves, and the area a spell or
    template would cover.  ``editing`` also draws the free places of a zone
    map (``data-c="slot:x,y"``), where the editor adds zones.
    """
    kind, width, height, data = normalise_source(source)
    zones = data.get("zones", {}) if kind == "zones" else {}
    w, h = _size(kind, width, height)
    gutter = 0 if kind == "zones" else GUTTER
    w, h = w + gutter, h + gutter
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="battle-map kind-{kind}" data-kind="{kind}" '
        f'viewBox="{-gutter} {-gutter} {_fmt(w)} {_fmt(h)}" width="{_fmt(w)}" height="{_fmt(h)}" role="img" '
        f'aria-label="{escape(label or _("Battle map"))}">'
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6"/></pattern></defs>'
    ]
    terrain: list[str] = []
    if kind == "square":
        _square_cells(width, height, data, terrain)
    elif kind == "hex":
        _hex_cells(width, height, data, terrain)
    else:
        if editing:
            _zone_slots(width, height, zones, terrain)
        _zone_cells(zones, terrain)
    drawn = "".join(terrain)
    digest = hashlib.blake2s(drawn.encode(), digest_size=8).hexdigest()
    out.append(f'<g class="terrain" data-keep="{digest}">{drawn}{_TERRAIN_END}')
    out.extend(_shape(kind, cell_key(kind, at), "hl", zones) for at in highlights)
    out.append('</g><g class="template">')
    out.extend(_shape(kind, cell_key(kind, at), "tpl", zones) for at in template)
    out.append("</g>")
    if kind != "zones":
        _coordinates(kind, width, height, out)
    out.append('<g class="pieces">')
    _pieces(kind, pieces, zones, out)
    out.append("</g></svg>")
    return "".join(out)


_TERRAIN_END = '</g><g class="highlights">'  # the terrain group is always followed by the highlights
_TERRAIN = re.compile(r'(<g class="terrain" data-keep="[0-9a-f]+")>.*?(?=' + re.escape(_TERRAIN_END) + ")", re.S)


def without_terrain(html: str) -> str:
    """``html`` with each map's terrain left out: ``<g class="terrain" data-keep="<digest>" data-kept></g>``,
    for a page that already shows that terrain to fill in from its own."""
    return _TERRAIN.sub(r"\1 data-kept>", html)


def legend(source, pieces: Iterable[dict] = ()) -> list[tuple[str, str]]:
    """``(css class, label)`` of each terrain and state the map shows: the key printed under it."""
    kind, _w, _h, data = normalise_source(source)
    entries: dict[str, str] = {}
    if kind == "square":
        entries["t-open"] = term_label("open")
        for cell in data.get("cells", []):
            entries.setdefault(f"t-{cell.get('terrain', 'open')}", term_label(cell.get("terrain", "open")))
            if cell.get("difficult"):
                entries.setdefault("difficult", term_label("difficult"))
        if data.get("objective_squares"):
            entries["objective"] = _("Objective square")
    elif kind == "hex":
        entries["t-open"] = term_label("open")
        for hexagon in data.get("hexes", []):
            entries.setdefault(f"t-{hexagon.get('terrain', 'open')}", term_label(hexagon.get("terrain", "open")))
            for flag in ("river", "river_bank", "wall", "wooded", "built_up", "fortified"):
                if hexagon.get(flag):
                    entries.setdefault(f"f-{flag}", term_label(flag))
    else:
        for zone in data.get("zones", {}).values():
            for name, level in zone.get("terrain", {}).items():
                if level:
                    entries.setdefault(f"t-{name}", term_label(name))
    shown = {b for piece in pieces for b in piece.get("badges", ())}
    for badge, (_glyph, text) in BADGES.items():
        if badge in shown:
            entries[f"b-{badge}"] = str(text)
    return list(entries.items())
