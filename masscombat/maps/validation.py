"""Checking a map before it is saved: bounds, the engine's terrain terms, links.

Three layers, so that nothing the engine would refuse at battle setup is ever
stored: the engine's own JSON Schema of its map (value domains: terrain
names, levels), the integrity of the stored shape (inside the grid, one entry
per cell, zone links to existing zones, one zone per slot), and for D&D 5e a
dry run of the engine's ``new-battle`` with the map, which applies the rules
about terrain combinations (water is never elevated, only open ground is
difficult) and objective squares.  Errors come back per field, each path
naming the offending entry (``cells[3].elevation``, ``zones.ford.neighbors``).
"""

from __future__ import annotations

import json
import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from jsonschema import Draft202012Validator

from masscombat.core import engines
from masscombat.maps.kinds import RULESET_OF_KIND, schema, size_bounds
from masscombat.maps.layout import zone_slots
from masscombat.maps.naming import objective_names, zone_names

CELL_DEFAULTS = {"terrain": "open", "difficult": False, "elevation": 0}
HEX_DEFAULTS = {"terrain": "open", "wooded": False, "built_up": False, "river": False, "river_bank": False,
                "wall": False, "fortified": False, "elevation": 0, "feature_id": None}


class MapInvalid(Exception):
    """A map that cannot be saved; ``fields`` maps a path to what is wrong there."""

    def __init__(self, fields: dict[str, str]):
        super().__init__(_("The map is not valid."))
        self.fields = fields

    def as_dict(self) -> dict:
        return {"error": _("The map is not valid: see the fields."), "fields": self.fields}


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(error) -> str:
    """A translated sentence for a JSON Schema error (the engines' schemas speak English)."""
    kind = error.validator
    if kind == "enum":
        return _("Choose one of: %(values)s.") % {"values": ", ".join(map(str, error.validator_value))}
    if kind in ("minimum", "maximum"):
        schema_ = error.schema
        return _("Must be between %(low)s and %(high)s.") % {"low": schema_.get("minimum", "…"),
                                                              "high": schema_.get("maximum", "…")}
    if kind == "required":
        return _("This field is required.")
    if kind == "type":
        return _("Wrong type of value.")
    if kind in ("maxItems", "maxProperties"):
        return _("Too many entries.")
    if kind in ("minItems", "minProperties"):
        return _("At least one entry is needed.")
    return _("Invalid value.")


def _schema_errors(instance, json_schema: dict, prefix: list) -> dict[str, str]:
    errors = {}
    for error in Draft202012Validator(json_schema).iter_errors(instance):
        where = list(error.absolute_path)
        if error.validator == "required":
            missing = error.message.split("'")[1] if "'" in error.message else ""
            where.append(missing)
        errors.setdefault(_path(prefix + where), _message(error))
    return errors


def _cell_list_errors(width: int, height: int, name: str, cells, map_schema: dict) -> dict[str, str]:
    """The engine's schema applied to a map's list of cells, quickly.

    A painted map repeats a few kinds of cell thousands of times: each kind is
    checked once against the engine's schema (positions aside, which
    :func:`_clean_square` and :func:`_clean_hex` check), and an error is
    reported at the first cell of that kind.
    """
    errors = _schema_errors({"width": width, "height": height, name: []}, map_schema, [])
    if not isinstance(cells, list):
        return {**errors, name: _("Wrong type of value.")}
    item_schema = {**map_schema["$defs"][map_schema["$ref"].rsplit("/", 1)[1]]["properties"][name]["items"],
                   "$defs": map_schema["$defs"]}
    positions = ("at",) if name == "cells" else ("col", "row")
    placeholder = {"at": [0, 0]} if name == "cells" else {"col": 0, "row": 0}
    seen = set()
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            errors.setdefault(f"{name}[{index}]", _("Wrong type of value."))
            continue
        for key in positions:
            value = cell.get(key)
            ok = (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)) if key == "at" \
                else (type(value) is int and value >= 0)
            if not ok:
                errors.setdefault(f"{name}[{index}].{key}", _("Wrong type of value."))
        shape = json.dumps({k: v for k, v in cell.items() if k not in positions}, sort_keys=True, default=str)
        if shape in seen:
            continue
        seen.add(shape)
        errors.update({k: v for k, v in _schema_errors({**cell, **placeholder}, item_schema, [name, index]).items()
                       if k not in errors})
    return errors


def _located(errors: dict[str, str], probed: list, given: list) -> dict[str, str]:
    """The engine's errors about ``cells[i]`` of the list it checked, at the index of the list the editor sent."""
    index_of = {tuple(cell["at"]): i for i, cell in enumerate(given)}
    located = {}
    for path, problem in errors.items():
        match = re.match(r"cells\[(\d+)\](.*)", path)
        if match and int(match.group(1)) < len(probed):
            x, y = probed[int(match.group(1))]["at"]
            path = f"cells[{index_of.get((x, y), match.group(1))}]{match.group(2)}"
        located[path] = problem
    return located


def _probe_dnd5e(width: int, height: int, cells: list, objective_squares: dict) -> dict[str, str]:
    """Set up a throwaway D&D 5e battle on the map; keep only what the engine says about the map."""
    taken = {tuple(o["at"]) for o in objective_squares.values()}
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in taken][:2]
    if len(free) < 2:
        return {}
    probe = {"name": "probe", "size": "tiny", "ac": 10, "hp_max": 1, "speed_m": 9, "swim_speed_m": 9,
             "abilities": dict.fromkeys(("str", "dex", "con", "int", "wis", "cha"), 10)}
    payload = {
        "map": {"width": width, "height": height, "cells": cells},
        "objective_squares": objective_squares,
        "profiles": {"probe": probe},
        "sides": {"A": {}, "B": {}},
        "units": {
            f"probe_unit{side}": {"side": side, "type": "skirmishers",
                   "stands": [{"id": f"probe{side}", "profile": "probe", "position": list(free[i])}]}
            for i, side in enumerate(("A", "B"))
        },
    }
    try:
        engines.call(RULESET_OF_KIND["square"], "new-battle", payload, seed=0)
    except engines.InvalidInput as refusal:
        return {
            path.removeprefix("map."): problem
            for path, problem in refusal.fields.items()
            if path.startswith(("map.", "objective_squares"))
        }
    return {}


def _clean_square(width: int, height: int, data: dict, errors: dict) -> dict:
    cells = data.get("cells", [])
    objective_squares = data.get("objective_squares", {})
    errors.update(_cell_list_errors(width, height, "cells", cells, schema("square")["map"]))
    errors.update(_schema_errors(objective_squares, schema("square")["objective_squares"], ["objective_squares"]))
    if errors:
        return {}
    kept, seen = [], set()
    for i, cell in enumerate(cells):
        x, y = cell["at"]
        if not (0 <= x < width and 0 <= y < height):
            errors[f"cells[{i}].at"] = _("Outside the map.")
        elif (x, y) in seen:
            errors[f"cells[{i}].at"] = _("This square is listed twice.")
        seen.add((x, y))
        full = {**CELL_DEFAULTS, **cell, "at": [x, y]}
        if any(full[k] != v for k, v in CELL_DEFAULTS.items()):
            kept.append(full)
    for oid, square in objective_squares.items():
        x, y = square["at"]
        if not (0 <= x < width and 0 <= y < height):
            errors[f"objective_squares.{oid}.at"] = _("Outside the map.")
    if errors:
        return {}
    kept.sort(key=lambda c: (c["at"][1], c["at"][0]))
    squares = {oid: {"ac": 15, **square} for oid, square in sorted(objective_squares.items())}
    errors.update(_located(_probe_dnd5e(width, height, kept, squares), kept, cells))
    return {"cells": kept, "objective_squares": squares}


def _clean_hex(width: int, height: int, data: dict, errors: dict) -> dict:
    hexes = data.get("hexes", [])
    errors.update(_cell_list_errors(width, height, "hexes", hexes, schema("hex")["map"]))
    if errors:
        return {}
    kept, seen = [], set()
    for i, hexagon in enumerate(hexes):
        where = (hexagon["col"], hexagon["row"])
        if not (where[0] < width and where[1] < height):
            errors[f"hexes[{i}]"] = _("Outside the map.")
        elif where in seen:
            errors[f"hexes[{i}]"] = _("This hex is listed twice.")
        seen.add(where)
        full = {**HEX_DEFAULTS, **hexagon}
        if full["feature_id"] == "":
            full["feature_id"] = None
        if any(full[k] != v for k, v in HEX_DEFAULTS.items()):
            kept.append(full)
    kept.sort(key=lambda h: (h["col"], h["row"]))
    return {"hexes": kept}


def _clean_zones(width: int, height: int, data: dict, errors: dict) -> dict:
    zones = data.get("zones", {})
    engine_zones = {zid: {k: v for k, v in zone.items() if k != "at"} if isinstance(zone, dict) else zone
                    for zid, zone in zones.items()} if isinstance(zones, dict) else zones
    errors.update(_schema_errors({"zones": engine_zones}, schema("zones")["map"], []))
    if errors:
        return {}
    links = {zid: set() for zid in zones}
    for zid, zone in zones.items():
        for other in zone.get("neighbors", []):
            if other == zid:
                errors[f"zones.{zid}.neighbors"] = _("A zone cannot be its own neighbour.")
            elif other not in zones:
                errors[f"zones.{zid}.neighbors"] = _("Unknown zone: %(zone)s.") % {"zone": other}
            else:
                # Links go both ways (the engine reads them so, H42): store them so.
                links[zid].add(other)
                links[other].add(zid)
        at = zone.get("at")
        if at is not None and not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at)
                                   and 0 <= at[0] < width and 0 <= at[1] < height):
            errors[f"zones.{zid}.at"] = _("Outside the map.")
    if len(zones) > width * height:
        errors["zones"] = _("More zones than places to draw them: enlarge the map.")
    if errors:
        return {}
    slots = zone_slots(zones)
    if any(not (x < width and y < height) for x, y in slots.values()):
        errors["zones"] = _("More zones than places to draw them: enlarge the map.")
        return {}
    names = zone_names(zones)  # a zone saved unnamed is "Zone 2", never its id
    return {
        "zones": {
            zid: {"name": names[zid], "neighbors": sorted(links[zid]),
                  "terrain": {k: v for k, v in sorted(zone.get("terrain", {}).items()) if v},
                  "at": list(slots[zid])}
            for zid, zone in zones.items()
        }
    }


def clean_map(kind: str, width, height, data) -> dict:
    """The map's ``data`` in its stored form (defaults dropped, links symmetric, sorted), or :class:`MapInvalid`."""
    errors: dict[str, str] = {}
    low, high = size_bounds(kind)
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            errors[name] = _("Must be between %(low)s and %(high)s.") % {"low": low, "high": high}
    if not isinstance(data, dict):
        errors["data"] = _("Wrong type of value.")
    if errors:
        raise MapInvalid(_with_places(errors, data if isinstance(data, dict) else {}))
    cleaner = {"square": _clean_square, "hex": _clean_hex, "zones": _clean_zones}[kind]
    cleaned = cleaner(width, height, data, errors)
    if errors:
        raise MapInvalid(_with_places(errors, data))
    return cleaned


_FIELDS = {"name": _lazy("Name"), "width": _lazy("Width"), "height": _lazy("Height"), "zones": _lazy("Zones")}
_ZONE_OR_OBJECTIVE = re.compile(r"^(zones|objective_squares)\.([^.\[]+)")


def _with_places(errors: dict[str, str], data: dict) -> dict[str, str]:
    """Name the square, hex, zone or objective of each error, so the GM finds it on the map; never a path."""
    named = {}
    zones = data.get("zones") if isinstance(data.get("zones"), dict) else {}
    squares = data.get("objective_squares") if isinstance(data.get("objective_squares"), dict) else {}
    places = {"zones": zone_names(zones), "objective_squares": objective_names(squares)}
    for path, problem in errors.items():
        place = _ZONE_OR_OBJECTIVE.match(path)
        if place:
            where = places[place.group(1)].get(place.group(2)) or (
                _("Zone") if place.group(1) == "zones" else _("Objective square"))
            named[path] = _("%(where)s: %(problem)s") % {"where": where, "problem": problem}
            continue
        if path.split(".")[0].split("[")[0] in _FIELDS:
            named[path] = _("%(where)s: %(problem)s") % {"where": _FIELDS[path.split(".")[0].split("[")[0]],
                                                         "problem": problem}
            continue
        match = re.match(r"(cells|hexes)\[(\d+)\]", path)
        entry = None
        if match and isinstance(data.get(match.group(1)), list) and int(match.group(2)) < len(data[match.group(1)]):
            entry = data[match.group(1)][int(match.group(2))]
        if isinstance(entry, dict):
            where = entry.get("at") if match.group(1) == "cells" else [entry.get("col"), entry.get("row")]
            if isinstance(where, list) and len(where) == 2:
                label = _("Square %(x)s, %(y)s: %(problem)s") if match.group(1) == "cells" else _(
                    "Hex %(x)s, %(y)s: %(problem)s")
                problem = label % {"x": where[0], "y": where[1], "problem": problem}
        named[path] = problem
    return named
