"""``{% battle_map %}`` draws a map anywhere (the battle room, a map page); ``{% maps_section %}`` lists a campaign's maps."""

from django import template
from django.utils.safestring import mark_safe

from masscombat.maps.kinds import label
from masscombat.maps.render import legend, render_map_svg
from masscombat.maps.selectors import maps_section_context

register = template.Library()


@register.inclusion_tag("maps/_map.html")
def battle_map(source, pieces=(), highlights=(), template=(), label="", controls=True):
    """The map's SVG with zoom controls and its legend; ``source`` is a stored map, a spec dict or an engine map."""
    return {
        "svg": mark_safe(render_map_svg(source, pieces=pieces, highlights=highlights, template=template, label=label)),
        "legend": legend(source, pieces),
        "controls": controls,
    }


@register.inclusion_tag("maps/_section.html")
def maps_section(access):
    """The campaign page's maps panel: the list, and for the GM the buttons to make more."""
    return maps_section_context(access)


@register.simple_tag
def map_key(battle_map):
    """The map in words under the drawing: objective squares (D&D 5e) and zones with their links (JdRWiki)."""
    data = battle_map.data or {}
    objectives = [{"id": oid, "x": o["at"][0], "y": o["at"][1], "hp_max": o["hp_max"], "vp": o["vp"], "ac": o.get("ac", 15)}
                  for oid, o in data.get("objective_squares", {}).items()]
    zones = data.get("zones", {})
    names = {zid: zone.get("name") or zid for zid, zone in zones.items()}
    return {
        "objectives": objectives,
        "zones": [{"name": names[zid],
                   "terrain": " · ".join(f"{label(k)} {v}" for k, v in zone.get("terrain", {}).items() if v),
                   "links": ", ".join(names.get(n, n) for n in zone.get("neighbors", []))}
                  for zid, zone in zones.items()],
    }
