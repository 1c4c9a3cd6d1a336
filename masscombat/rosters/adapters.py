"""What an army and a hero are for each ruleset's engine.

A roster stores the engine's own input format.  This module says, per ruleset
slug, what that format is (its JSON Schema, for the forms), which derivation
operations compute its sheet, how their input is built from the stored data,
which derived number is its "strength" (charted over the campaign) and what a
new one starts as.  Data only: every number comes from the engine (``engines.call``),
and running the derivations is also how the data is validated, so the engine's
own rules (ranges, enums, consistency) decide what is accepted.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext

from masscombat.core import engines
from masscombat.core.engines import InvalidInput, parse
from masscombat.rosters import catalogue


@dataclass(frozen=True)
class Derivation:
    """One engine call of a sheet: ``op`` run on ``payload(data)``.

    ``prefix`` is where the data sits in the payload (``"army"`` for
    ``{"army": data}``), so that an error path of the engine can be reported
    on the stored data's own path.  ``pick`` takes the interesting part of the
    output (7th Sea's army sheet answers for both sides).
    """

    op: str
    payload: Callable[[dict], dict]
    prefix: str = ""
    pick: Callable[[dict], dict] = lambda output: output
    # When the payload is a part of the data (one D&D 5e unit): where that part sits in the data,
    # and which payload keys come from the data's top level instead (its profiles).
    at: str = ""
    top_level: tuple[str, ...] = ()
    # A check only: its refusals are the data's, its output is left off the sheet (a HÉROS unit's own sheet).
    shown: bool = True

    def data_path(self, path: str) -> str:
        """An error path of the engine, as a path of the stored data."""
        local = _local_path(path, self.prefix)
        if not self.at or local.split(".", 1)[0].split("[", 1)[0] in self.top_level:
            return local
        return f"{self.at}.{local}" if local and not local.startswith("[") else f"{self.at}{local}"


def _once(schema: Callable[[], dict]) -> Callable[[], dict]:
    """A schema is fixed for the life of the process: built once (callers must not change it)."""
    return cache(schema)


@dataclass(frozen=True)
class Kind:
    """One roster entity (army or hero) of one ruleset."""

    schema: Callable[[], dict]
    derivations: Callable[[dict], list[tuple[str, Derivation]]]
    blank: Callable[[str], dict]
    strength: Callable[[dict], int | float | None] = lambda sheet: None
    # For an entity without a derivation of its own: the engine model that still validates it.
    model: Callable[[], type] | None = None
    # The JSON Schema of what a sheet may be computed for (SYNAPSE: the battle's mode and terrain),
    # chosen on the army page; the derivations receive it as ``options``.
    options: Callable[[], dict] | None = None

    def sheet(self, slug: str, data: Any, options: dict | None = None) -> dict:
        """Every derivation's output by name, each with its ``log``; :class:`InvalidInput` if refused.

        The error paths are those of ``data`` (``units[0].headcount``), merged
        over all the derivations.
        """
        if not isinstance(data, dict):
            raise InvalidInput("The data must be a JSON object.", {"": "must be an object"})
        if self.model is not None:
            parse(self.model(), data)
        sheets: dict[str, dict] = {}
        problems: dict[str, str] = {}
        first_error = ""
        for name, derivation in self.derivations(data):
            payload = derivation.payload(data)
            if options and self.options is not None:
                payload = {**payload, **options}
            try:
                output = engines.call(slug, derivation.op, payload)
            except InvalidInput as error:
                first_error = first_error or error.error
                for path, message in error.fields.items():
                    problems.setdefault(derivation.data_path(path), message)
                continue
            if derivation.shown:
                picked = dict(derivation.pick(output))
                picked.setdefault("log", output.get("log", []))
                sheets[name] = picked
        if problems or first_error:
            raise InvalidInput(first_error, problems)
        return sheets

    def validate(self, slug: str, data: Any) -> dict:
        self.sheet(slug, data)
        return data

    def __post_init__(self):
        object.__setattr__(self, "schema", _once(self.schema))
        if self.options is not None:
            object.__setattr__(self, "options", _once(self.options))


def _local_path(path: str, prefix: str) -> str:
    """``army.units[0].x`` seen from the data under ``army``: ``units[0].x``."""
    if not prefix:
        return path
    if path == prefix:
        return ""
    for separator in (".", "["):
        if path.startswith(prefix + separator):
            rest = path[len(prefix) :]
            return rest[1:] if separator == "." else rest
    return path


def _input_property(slug: str, op: str, name: str) -> dict:
    """The JSON Schema of one property of an operation's input, with the definitions it uses."""
    schema = engines.operation_schema(slug, op)
    result = copy.deepcopy(schema["properties"][name])
    if "$defs" in schema:
        result["$defs"] = schema["$defs"]
    return result


def _input(slug: str, op: str, drop: tuple[str, ...] = ("seed", "dice")) -> dict:
    schema = copy.deepcopy(engines.operation_schema(slug, op))
    for name in drop:
        schema.get("properties", {}).pop(name, None)
        if name in schema.get("required", []):
            schema["required"].remove(name)
    return schema


def _sum(values) -> int | float:
    return sum(value for value in values if isinstance(value, int | float))


# --- JdRWiki: the army meta-character (F1) and heroes (S3.5) ---------------------------------

_JDRWIKI_CRITERIA = (
    "hierarchy", "communication", "logistics", "cohesion", "equipment", "training", "motivation", "mobility",
    "diversity", "melee_means", "ranged_means", "defense_means", "knowledge", "culture", "history",
)

_JDRWIKI = {
    "army": Kind(
        schema=lambda: _input_property("jdrwiki", "army-sheet", "army"),
        derivations=lambda data: [
            ("army", Derivation("army-sheet", lambda d: {"army": d}, prefix="army")),
        ],
        blank=lambda name: {
            "name": name,
            "commander": {"name": "", "level": 1, "is_pc": False, "strategist_rank": 0, "int": 10, "wis": 10,
                          "cha": 10},
            "aides": [],
            "criteria": {name: 0 for name in _JDRWIKI_CRITERIA},
            "talents": [],
            "units": [{"name": _first_unit(), "value": 1, "count": 100, "speed": 1}],
            "has_magic": False,
        },
        strength=lambda sheet: sheet["army"].get("hp"),
    ),
    "hero": Kind(
        schema=lambda: _input_property("jdrwiki", "hero-sheet", "hero"),
        derivations=lambda data: [("hero", Derivation("hero-sheet", lambda d: {"hero": d}, prefix="hero"))],
        blank=lambda name: {"name": name, "level": 7, "is_pc": False, "race_power": 0,
                            "bonuses": {"morale": 1, "will": 1, "parry": 1, "reflex": 1}, "heroism_points": 1},
    ),
}

# --- 7th Sea: one side (S3.3) and heroes (S3.5) ----------------------------------------------
# The army sheet needs both sides; a lone army is sheeted against its mirror image,
# so its own pools, strength and terrain modifier are exact and the ratio is even.

_SEVENTH_SEA = {
    "army": Kind(
        schema=lambda: _input_property("seventh_sea", "army-sheet", "sides")["$defs"]["SideSetup"]
        | {"$defs": _input_property("seventh_sea", "army-sheet", "sides")["$defs"]},
        derivations=lambda data: [
            (
                "army",
                Derivation(
                    "army-sheet",
                    lambda d: {"sides": {"a": d, "b": d}},
                    prefix="sides.a",
                    pick=lambda output: output["sides"]["a"],
                ),
            )
        ],
        blank=lambda name: {"name": name, "troops": 1000, "general": {"wits": 2, "strategy": 1}},
        strength=lambda sheet: sheet["army"].get("effective_strength"),
    ),
    "hero": Kind(
        schema=lambda: _input_property("seventh_sea", "hero-sheet", "hero"),
        derivations=lambda data: [("hero", Derivation("hero-sheet", lambda d: {"hero": d}, prefix="hero"))],
        blank=lambda name: {"id": _slug(name), "name": name, "side": "a", "wits": 2, "tactics": 1,
                            "leadership": 1, "brawn": 2, "resolve": 2, "unit_type": "infantry"},
    ),
}

# --- HÉROS: the army list (S9.3 army-sheet input) and characters (S3.5) ------------------------

_HEROS = {
    "army": Kind(
        schema=lambda: _heros_army_schema(),
        derivations=lambda data: [("army", Derivation("army-sheet", lambda d: d)), *_heros_units(data)],
        blank=lambda name: {
            "side_id": _slug(name),
            "corps": [{"id": "c1", "name": gettext("Corps %(number)s") % {"number": 1}, "kind": "cinc",
                       "general_id": "g1"}],
            "units": [{"id": "u1", "name": _first_unit(), "corps_id": "c1", **_heros_troop("Sp")}],
            "characters": [{"id": "g1", "name": gettext("General"), "corps_id": "c1", "role": "cinc"}],
        },
        strength=lambda sheet: sheet["army"]["army"]["ep_total"] - sheet["army"]["army"]["ep_lost_effective"],
    ),
    "hero": Kind(
        schema=lambda: _input_property("heros", "character-sheet", "character"),
        derivations=lambda data: [
            ("character", Derivation("character-sheet", lambda d: {"character": d}, prefix="character"))
        ],
        blank=lambda name: {"id": _slug(name), "name": name, "role": "champion", "combat_bonus": 1},
    ),
}

# --- SYNAPSE: the army with its units (S3.2) and characters (S3.6) -----------------------------

_SYNAPSE = {
    "army": Kind(
        schema=lambda: _input_property("synapse", "army-sheet", "army"),
        derivations=lambda data: [("army", Derivation("army-sheet", lambda d: {"army": d}, prefix="army"))],
        blank=lambda name: {
            "name": name,
            "commander": None,
            "units": [{"id": "u1", "name": _first_unit(), "unit_type": "human_infantry", "headcount": 100,
                       "weapon_damage": 4, "combat_base": 3}],
        },
        strength=lambda sheet: _sum(group.get("strength") for group in sheet["army"].get("groups", {}).values()),
        options=lambda: _synapse_context(),
    ),
    # A character has no sheet of its own in SYNAPSE: the engine's model still validates it.
    "hero": Kind(
        schema=lambda: engines.model("synapse", "Character").model_json_schema(),
        derivations=lambda data: [],
        blank=lambda name: {"id": _slug(name), "name": name, "unit_id": "u1", "armour": 0},
        model=lambda: engines.model("synapse", "Character"),
    ),
}

def _synapse_context() -> dict:
    """The army sheet's ``context`` (S9.3): mode, terrain, assault role... without a target's armour."""
    context = _input_property("synapse", "army-sheet", "context")
    defs = context.pop("$defs", {})
    schema = copy.deepcopy(defs[context["$ref"].rsplit("/", 1)[-1]]) if "$ref" in context else context
    schema["properties"].pop("target_armour", None)
    return {"type": "object", "properties": {"context": schema}}


# --- D&D 5e: a side's profiles and units (S9.3 unit-sheet, one per unit), solos (S9.2) ---------


def _dnd5e_units(data: dict) -> list[tuple[str, Derivation]]:
    units = data.get("units")
    if not isinstance(units, dict) or not units:
        raise InvalidInput("An army needs at least one unit.", {"units": "needs at least one unit"})
    profiles = data.get("profiles", {})
    return [
        (
            unit_id,
            Derivation(
                "unit-sheet",
                lambda d, unit=unit: {**(unit if isinstance(unit, dict) else {}), "profiles": profiles},
                at=f"units.{unit_id}",
                top_level=("profiles",),
            ),
        )
        for unit_id, unit in units.items()
    ]


def _dnd5e_army_schema() -> dict:
    unit = _input("dnd5e", "unit-sheet", drop=("seed", "dice", "profiles"))
    unit["properties"] = {"name": {"type": "string", "maxLength": 80, "title": "Name"}, **unit["properties"]}
    profiles = _input_property("dnd5e", "unit-sheet", "profiles")
    defs = {**unit.pop("$defs", {}), **profiles.pop("$defs", {})}
    return {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 80, "title": "Name"},
            "profiles": profiles,
            "units": {"type": "object", "additionalProperties": unit, "minProperties": 1, "title": "Units"},
        },
        "required": ["profiles", "units"],
        "$defs": defs,
    }


_ORC = {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
        "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
        "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 5,
                     "damage": [{"dice": "1d12+3", "type": "slashing"}]}]}

_DND5E = {
    "army": Kind(
        schema=_dnd5e_army_schema,
        derivations=_dnd5e_units,
        blank=lambda name: {
            "name": name,
            "profiles": {"orc": copy.deepcopy(_ORC)},
            "units": {"u1": {"name": _first_unit(), "type": "regiment", "configuration": "march",
                             "stands": [{"id": "s1", "profile": "orc"}]}},
        },
        strength=lambda sheet: _sum(unit.get("surviving_stands") for unit in sheet.values()),
    ),
    "hero": Kind(
        schema=lambda: _input_property("dnd5e", "creature-sheet", "profile"),
        derivations=lambda data: [
            ("creature", Derivation("creature-sheet", lambda d: {"profile": d, "role": "solo"}, prefix="profile"))
        ],
        blank=lambda name: {**copy.deepcopy(_ORC), "name": name},
    ),
}


def _first_unit() -> str:
    """A new army's first unit, named in the GM's language ("Unité 1") rather than left blank."""
    return gettext("Unit %(number)s") % {"number": 1}


def _heros_troop(code: str) -> dict:
    """A HÉROS troop type with the combat factors and move its template holds, so a new army can go to battle."""
    template = catalogue.find("heros", "troops", code)
    return dict(template.data) if template is not None else {"troop_type": code}


def _heros_units(data: dict) -> list[tuple[str, Derivation]]:
    """Each unit's own sheet, as a check: the army sheet counts morale points only, while a battle needs a
    unit's combat factors and move (S3.4), which ``unit-sheet`` refuses when they are missing."""
    units = data.get("units") if isinstance(data, dict) else None
    return [
        (f"unit:{index}", Derivation("unit-sheet", lambda d, unit=unit: {"unit": unit}, prefix="unit",
                                     at=f"units[{index}]", shown=False))
        for index, unit in enumerate(units if isinstance(units, list) else []) if isinstance(unit, dict)
    ]


def _heros_army_schema() -> dict:
    """HÉROS's army list, its units and characters with every definition field a battle takes (S3.4, S3.5).

    The army sheet reads only part of a unit (``ArmyUnit``) and ignores the
    rest; a battle needs the rest too (combat factors, move, name), so the form
    offers the engine's full definitions and keeps what the GM typed.
    """
    schema = _input("heros", "army-sheet")
    corps = schema["$defs"]["ArmyCorps"]
    corps["properties"] = {"name": {"type": "string", "maxLength": 80, "title": "Name"}, **corps["properties"]}
    for target, model in (("ArmyUnit", "UnitDef"), ("ArmyCharacter", "CharacterDef")):
        full = engines.model("heros", model).model_json_schema()
        schema["$defs"].update(full.pop("$defs", {}))
        known = schema["$defs"][target]["properties"]
        extra = {name: prop for name, prop in full["properties"].items() if name not in known}
        schema["$defs"][target]["properties"] = {"name": extra.pop("name"), **known, **extra}
    return schema


def _slug(name: str) -> str:
    """An engine id from a display name: ``Sire Aubin`` → ``sire_aubin``."""
    return (re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "x")[:32]


@dataclass(frozen=True)
class Adapter:
    slug: str
    army: Kind
    hero: Kind

    @property
    def ruleset(self):
        return engines.ruleset(self.slug)

    def army_sheet(self, data: dict) -> dict:
        return self.army.sheet(self.slug, data)

    def hero_sheet(self, data: dict) -> dict:
        return self.hero.sheet(self.slug, data)

    def validate_army(self, data: Any) -> dict:
        return self.army.validate(self.slug, data)

    def validate_hero(self, data: Any) -> dict:
        return self.hero.validate(self.slug, data)

    def army_summary(self, data: dict) -> dict:
        """The numbers charted for an army: its strength as the engine derives it."""
        try:
            strength = self.army.strength(self.army_sheet(data))
        except InvalidInput:
            return {}
        return {} if strength is None else {"strength": strength}


ADAPTERS: dict[str, Adapter] = {
    slug: Adapter(slug, army=kinds["army"], hero=kinds["hero"])
    for slug, kinds in {
        "jdrwiki": _JDRWIKI,
        "seventh_sea": _SEVENTH_SEA,
        "heros": _HEROS,
        "synapse": _SYNAPSE,
        "dnd5e": _DND5E,
    }.items()
}


def get(slug: str) -> Adapter:
    return ADAPTERS[slug]
