"""Templates a GM starts from: the specs' worked examples, typical troop types, army sizes.

The catalogue of templates is :mod:`masscombat.rosters.catalogue` (its names
are re-exported here for the views and forms); this module builds armies and
heroes from them.

Three kinds per ruleset: ``armies`` (a whole army), ``heroes`` and ``troops``
(one unit added to an army: :func:`add_troop`; an army made of one troop:
:func:`army_from`).  Every template is validated by its engine in
``tests/masscombat/rosters/test_rosters_presets.py``.
"""

from __future__ import annotations

import copy
from functools import cache

from django.utils.translation import gettext as _

from masscombat.core import engines
from masscombat.rosters import adapters, catalogue, examples, naming
from masscombat.rosters.catalogue import KINDS, Template, find, templates

__all__ = ["KINDS", "Template", "add_troop", "find", "gallery", "start", "templates"]

def gallery(slug: str, entity: str) -> list[tuple[str, list[Template]]]:
    """What the new-army or new-hero page offers, in sections: worked examples and sizes, then troop types."""
    if entity == "hero":
        return [("heroes", templates(slug, "heroes"))]
    sections = [("armies", templates(slug, "armies"))]
    if slug != "seventh_sea":  # a 7th Sea army is only a head-count: its sizes are already armies
        sections.append(("troops", [t for t in templates(slug, "troops") if _stands_alone(slug, t.key)]))
    return [(name, items) for name, items in sections if items]


@cache
def _stands_alone(slug: str, key: str) -> bool:
    """Whether an army of this one troop can go to battle: a HÉROS general stands on a unit of his corps, which
    a god, a lurker waiting in its pool or a character presented as a unit cannot carry (the engine's
    ``can_stack``, S5.5.4).  Such troops are offered only as units added to an army."""
    if slug != "heros":
        return True
    template = find(slug, "troops", key)
    if template is None or template.data.get("status", "active") != "active":
        return False
    try:
        sheet = engines.call(slug, "unit-sheet", {"unit": {"id": "x", **template.data}})["sheet"]
    except engines.InvalidInput:
        return False
    return bool(sheet.get("can_stack"))


def start(slug: str, entity: str, kind: str, key: str, name: str) -> dict | None:
    """The data of a new army or hero made from a template, named ``name``; None for an unknown template."""
    template = find(slug, kind, key)
    if template is None:
        return None
    adapter = adapters.get(slug)
    if kind == "troops":
        data = adapter.army.blank(name)
        _clear_units(slug, data)
        return add_troop(slug, data, template)
    data = copy.deepcopy(template.data)
    if entity == "army" and template.key not in examples.ARMIES.get(slug, {}):
        data = {**adapter.army.blank(name), **data}  # a size: the blank army with that head-count
    if entity == "hero" or "name" in data:
        data["name"] = name
    return data


def _clear_units(slug: str, data: dict) -> None:
    if slug == "dnd5e":
        data["units"], data["profiles"] = {}, {}
    elif isinstance(data.get("units"), list):
        data["units"] = []


def add_troop(slug: str, data: dict, template: Template, count: int = 1) -> dict:
    """``data`` with ``count`` new units of ``template`` (each with a fresh id and a numbered name)."""
    data = copy.deepcopy(data)
    for _n in range(max(1, count)):
        _ADD[slug](data, template)
    return data


def _listed(data: dict, template: Template, *, with_id: bool, extra: dict | None = None) -> None:
    units = data.setdefault("units", [])
    unit = {**copy.deepcopy(template.data), **(extra or {})}
    unit["name"] = naming.numbered(template.name, naming.names_in(units))
    if with_id:
        unit = {"id": naming.fresh_id("u", naming.ids_in(units)), **unit}
    units.append(unit)


def _heros(data: dict, template: Template) -> None:
    corps = data.get("corps") or [{}]
    cinc = next((c for c in corps if c.get("kind") == "cinc"), corps[0])
    _listed(data, template, with_id=True, extra={"corps_id": cinc.get("id", "c1")})


def _dnd5e(data: dict, template: Template) -> None:
    profiles, units = data.setdefault("profiles", {}), data.setdefault("units", {})
    profile = {**template.data["profile"], "name": template.name}  # the creature in the GM's language ("Gobelin")
    key = template.key
    if key in profiles and profiles[key] != profile:
        key = naming.fresh_id(f"{template.key}_", profiles)
    profiles[key] = copy.deepcopy(profile)
    count = int(catalogue.setting("dnd5e", "stands_per_unit", 4))
    units[naming.fresh_id("u", units)] = {
        "name": naming.numbered(template.name, naming.names_in(units)),
        "type": "regiment", "configuration": "march",
        "stands": [{"id": f"s{n}", "profile": key} for n in range(1, count + 1)],
    }


def _seventh_sea(data: dict, template: Template) -> None:
    """A 7th Sea army is a head-count (S3.3): a company, a regiment... added to it reinforces it."""
    data["troops"] = int(data.get("troops") or 0) + int(template.data.get("troops", 0))


_ADD = {
    "synapse": lambda data, template: _listed(data, template, with_id=True),
    "jdrwiki": lambda data, template: _listed(data, template, with_id=False),
    "heros": _heros,
    "dnd5e": _dnd5e,
    "seventh_sea": _seventh_sea,
}


def section_title(section: str) -> str:
    return {"armies": _("Worked examples and starting armies"), "heroes": _("Heroes"),
            "troops": _("Start from one troop type")}[section]
