"""Readable names for what a map holds, in the GM's language: "Zone 3", "Objective 1".

A zone and an objective square have ids the engine needs and a GM never
types or reads (``z3``, ``o1``).  A zone has a name of its own, which a new
zone gets at once ("Zone 3", the smallest number not yet taken) and a map
saved without one gets when it is checked; an objective square has none in
the engine's map, so it is called by its rank among the map's objectives.
Nothing here is drawn from an id.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def zone_word(number) -> str:
    return _("Zone %(n)s") % {"n": number}


def fresh_zone_name(taken) -> str:
    """``Zone n`` with the smallest ``n`` no name in ``taken`` uses."""
    used = {str(name).casefold() for name in taken}
    number = 1
    while zone_word(number).casefold() in used:
        number += 1
    return zone_word(number)


def zone_names(zones: dict) -> dict[str, str]:
    """Every zone's name, an unnamed one by the rank it would get ("Zone 2"), in the zones' order."""
    named = {zid: str(zone.get("name") or "") for zid, zone in zones.items() if isinstance(zone, dict)}
    taken = [name for name in named.values() if name]
    for zid, name in named.items():
        if not name:
            named[zid] = fresh_zone_name(taken)
            taken.append(named[zid])
    return named


def objective_names(squares: dict) -> dict[str, str]:
    """Each objective square's name: "Objective 1", "Objective 2"… in the order of their ids."""
    return {oid: _("Objective %(n)s") % {"n": rank} for rank, oid in enumerate(sorted(squares), start=1)}
