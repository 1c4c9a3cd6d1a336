"""The templates' catalogue: what each ruleset offers a GM to start from, read from data.

The templates are data (``presets/<slug>.yaml``, names in French and English);
the worked examples' numbers stay in :mod:`masscombat.rosters.examples` (the
demo and the spec tests read them there), the YAML names them.  Where an
engine already carries the list (HÉROS troop types, D&D 5e SRD creatures),
the templates are read from the engine so the two cannot drift apart.  This
module only reads: building armies from templates is :mod:`masscombat.rosters.presets`'s,
which the roster adapters' blank armies feed, so the catalogue sits below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from django.utils.translation import get_language

from masscombat.core import engines
from masscombat.rosters import examples

_FOLDER = Path(__file__).with_name("presets")
KINDS = ("armies", "heroes", "troops")


@dataclass(frozen=True)
class Template:
    key: str
    names: dict
    rule: str
    data: dict

    @property
    def name(self) -> str:
        """The name in the reader's language (French or English)."""
        language = (get_language() or "en")[:2]
        return self.names.get(language) or self.names.get("en") or self.key


@cache
def _raw(slug: str) -> dict:
    return yaml.safe_load((_FOLDER / f"{slug}.yaml").read_text(encoding="utf-8")) or {}


def setting(slug: str, name: str, default):
    """A ruleset's template setting kept beside its templates (e.g. D&D 5e's stands per unit)."""
    return _raw(slug).get(name, default)


def _from_entries(slug: str, kind: str) -> list[Template]:
    found = []
    for entry in _raw(slug).get(kind, []):
        if "example" in entry:
            key = entry["example"]
            data = examples.starting(slug, key) if kind == "armies" else examples.HEROES[slug][key]
        else:
            key, data = entry["key"], entry["data"]
        found.append(Template(key, entry["name"], entry.get("rule", ""), data))
    return found


def _engine_troops(slug: str) -> list[Template]:
    """HÉROS troop types (S6.2) and D&D 5e creatures (S3.2), as their engines list them."""
    if slug == "heros":
        troop_types = engines.table("heros", "TROOP_TYPES")
        numbers = _raw(slug).get("troop_numbers", {})
        return [Template(code, {"fr": troop_types[code]["fr"], "en": troop_types[code]["en"].capitalize()}, "S6.2",
                         {"troop_type": code, **extra}) for code, extra in numbers.items()]
    if slug == "dnd5e":
        french = _raw(slug).get("creature_names_fr", {})
        creatures = engines.run("dnd5e", "creature-presets", {})["creatures"]
        return [Template(key, {"fr": french.get(key, profile["name"]), "en": profile["name"]}, "S3.2",
                         {"profile": profile}) for key, profile in creatures.items()]
    return []


def _engine_heroes(slug: str) -> list[Template]:
    """D&D 5e: every SRD creature may also fight alone, as a solo (S3.3), the only way for a Gargantuan one."""
    if slug != "dnd5e":
        return []
    return [Template(t.key, t.names, "S3.3", t.data["profile"]) for t in _engine_troops(slug)]


@cache
def _all(slug: str, kind: str) -> tuple[Template, ...]:
    found = _from_entries(slug, kind)
    if kind == "troops" and _raw(slug).get("troops_from_engine"):
        # A Gargantuan creature cannot form a stand (S3.3): it is offered as a solo hero only.
        found += [t for t in _engine_troops(slug) if t.data.get("profile", {}).get("size") != "gargantuan"]
    if kind == "heroes":
        found += _engine_heroes(slug)
    return tuple(found)


def templates(slug: str, kind: str) -> list[Template]:
    """The templates of one kind (``armies``, ``heroes``, ``troops``) of a ruleset."""
    return list(_all(slug, kind))


def find(slug: str, kind: str, key: str) -> Template | None:
    return next((template for template in _all(slug, kind) if template.key == key), None)
