"""Which kind of map each ruleset plays on, and the terms its terrain is made of.

The terms (terrain values, flags, level ranges) are read from the engines'
own input schemas (``new-battle``), never copied here, so the editor offers
exactly what the engine accepts.  Only their labels live here, because the
engines speak English and the interface speaks French too.
"""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext_lazy as _

from masscombat.core import engines

# D&D 5e: 6 m squares; HÉROS: odd-q hexes; JdRWiki: zones.  SYNAPSE and 7th Sea
# fight on one terrain chosen at battle setup: they have no map.
KIND_OF_RULESET = {"dnd5e": "square", "heros": "hex", "jdrwiki": "zones"}
RULESET_OF_KIND = {kind: slug for slug, kind in KIND_OF_RULESET.items()}

TERRAIN_LABELS = {
    # D&D 5e (S3.7)
    "road": _("Road"),
    "forest": _("Forest"),
    "shallow_water": _("Shallow water"),
    "deep_water": _("Deep water"),
    # HÉROS (S3.1)
    "open": _("Open ground"),
    "rough": _("Rough ground"),
    "difficult": _("Difficult ground"),
    "impassable": _("Impassable"),
    # JdRWiki characteristics (S2.7)
    "unstable_ground": _("Unstable ground"),
    "stronghold": _("Stronghold"),
    "cover": _("Cover"),
    "heights": _("Heights"),
    "weather": _("Weather"),
}

FLAG_LABELS = {
    "difficult": _("Difficult ground"),
    "wooded": _("Wooded"),
    "built_up": _("Built-up"),
    "river": _("River"),
    "river_bank": _("River bank"),
    "wall": _("Wall"),
    "fortified": _("Fortified"),
}


def label(term: str) -> str:
    return str(TERRAIN_LABELS.get(term) or FLAG_LABELS.get(term) or term)


def _defs(slug: str) -> dict:
    return engines.operation_schema(slug, "new-battle").get("$defs", {})


@cache
def schema(kind: str) -> dict:
    """The JSON Schemas of the engine's map (``map``) and, for D&D 5e, of an objective square."""
    slug = RULESET_OF_KIND[kind]
    operation = engines.operation_schema(slug, "new-battle")
    defs = operation.get("$defs", {})
    result = {"map": {**operation["properties"]["map"], "$defs": defs}}
    if "objective_squares" in operation["properties"]:
        result["objective_squares"] = {**operation["properties"]["objective_squares"], "$defs": defs}
    return result


def _resolve(kind: str, ref_or_schema: dict) -> dict:
    ref = ref_or_schema.get("$ref")
    if ref:
        return _defs(RULESET_OF_KIND[kind])[ref.rsplit("/", 1)[1]]
    return ref_or_schema


@cache
def vocabulary(kind: str) -> dict:
    """What one cell (or zone) may hold, from the engine's schema.

    ``{"terrains": [...], "flags": [...], "levels": {name: (min, max)}}``: the
    terrain enum (square, hex), the yes/no overlays, and the numeric levels
    (elevation; a JdRWiki zone's five characteristics).
    """
    defs = _defs(RULESET_OF_KIND[kind])
    if kind == "zones":
        props = defs["Terrain"]["properties"]
        return {
            "terrains": [],
            "flags": [],
            "levels": {name: (p.get("minimum", 0), p["maximum"]) for name, p in props.items()},
        }
    cell = defs["Cell" if kind == "square" else "HexDef"]["properties"]
    return {
        "terrains": list(cell["terrain"]["enum"]),
        "flags": [name for name, p in cell.items() if p.get("type") == "boolean"],
        "levels": {"elevation": (cell["elevation"]["minimum"], cell["elevation"]["maximum"])},
    }


@cache
def size_bounds(kind: str) -> tuple[int, int]:
    """The smallest and largest side the engine accepts, capped by what a page can show."""
    from masscombat.maps.models import MAX_SIDE

    if kind == "zones":
        return 1, 12
    props = _resolve(kind, schema(kind)["map"])["properties"]
    return max(1, props["width"].get("minimum", 1)), min(MAX_SIDE, props["width"].get("maximum", MAX_SIDE))


def kind_of_campaign(campaign) -> str | None:
    """The kind of map the campaign's ruleset plays on, ``None`` for a game without one."""
    return KIND_OF_RULESET.get(campaign.ruleset)


@cache
def objective_bounds() -> dict[str, tuple[int, int]]:
    """An objective square's numbers the GM sets (D&D 5e S3.8), each with the engine's bounds."""
    entry = next(iter(schema("square")["objective_squares"]["patternProperties"].values()))
    square = _resolve("square", entry)
    return {name: (prop["minimum"], prop["maximum"]) for name, prop in square["properties"].items()
            if name in ("hp_max", "vp", "ac")}
