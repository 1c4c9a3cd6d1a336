"""What an army and a hero are for each ruleset's engine.

A roster stores the engine's own input format; this module says, per ruleset
slug, which engine model that is, how to compute its sheet with the engine's
derivation operations, which derived number is its "strength" (charted over the
campaign), and what a new one starts as.  Data only: no rule is computed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules import registry
from rules.errors import InvalidInput
from rules.validate import parse


@dataclass(frozen=True)
class Kind:
    """One roster entity (army or hero) of one ruleset."""

    model: Callable[[], type[BaseModel]]
    blank: Callable[[str], dict] = field(default=lambda name: {"name": name})

    def validate(self, data: Any) -> dict:
        """The data as the engine accepts it, or :class:`InvalidInput` with one message per path."""
        if not isinstance(data, dict):
            raise InvalidInput("The data must be a JSON object.", {"": "must be an object"})
        parse(self.model(), data)
        return data

    def schema(self) -> dict:
        return self.model().model_json_schema()


@dataclass(frozen=True)
class Adapter:
    slug: str
    army: Kind
    hero: Kind

    @property
    def ruleset(self):
        return registry.get(self.slug)

    def army_summary(self, data: dict) -> dict:
        """The numbers charted for an army (filled in once the sheets are wired)."""
        return {}


def _model(path: str) -> Callable[[], type[BaseModel]]:
    """The engine model at ``module:Name``, imported when first needed."""
    module, name = path.split(":")

    def load() -> type[BaseModel]:
        import importlib

        return getattr(importlib.import_module(module), name)

    return load


ADAPTERS: dict[str, Adapter] = {
    "jdrwiki": Adapter(
        "jdrwiki",
        army=Kind(_model("rules.jdrwiki.entities:ArmyDefinition")),
        hero=Kind(_model("rules.jdrwiki.entities:HeroDefinition")),
    ),
    "seventh_sea": Adapter(
        "seventh_sea",
        army=Kind(_model("rules.seventh_sea.entities:SideSetup")),
        hero=Kind(_model("rules.seventh_sea.entities:Hero")),
    ),
    "heros": Adapter(
        "heros",
        army=Kind(_model("rules.heros.sheet_ops:ArmySheetInput")),
        hero=Kind(_model("rules.heros.entities:CharacterDef")),
    ),
    "synapse": Adapter(
        "synapse",
        army=Kind(_model("rules.synapse.entities:Army")),
        hero=Kind(_model("rules.synapse.entities:Character")),
    ),
    "dnd5e": Adapter(
        "dnd5e",
        army=Kind(_model("rules.dnd5e.battle_ops:NewBattleInput")),
        hero=Kind(_model("rules.dnd5e.entities:Profile")),
    ),
}


def get(slug: str) -> Adapter:
    return ADAPTERS[slug]
