"""Input models of the entities of S3 (sides, generals, heroes, effects, the battle state).

One definition serves validation (exit 2 with the JSON path), the JSON Schema
of ``python -m rules seventh_sea ops`` and the defaults of S3.  The engine
works on plain dicts (:func:`hero_dict`, :func:`side_dict`, :func:`state_dict`)
built from these models in the field order of the spec, so that a state goes
in, a new state comes out and nothing given is ever mutated.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.seventh_sea.messages import say
from rules.seventh_sea import tables

Id = Annotated[str, Field(max_length=32, pattern=r"^[a-z][a-z0-9_]{0,31}$")]
Side = Literal[tables.SIDES]
Engagement = Literal[tables.ENGAGEMENTS]
Situation = Literal[tables.SITUATIONS]
UnitType = Literal[tables.UNIT_TYPES]
Commission = Literal[tables.COMMISSIONS]
Strategy = Literal[tables.STRATEGIES]
OpportunityType = Literal[tables.OPPORTUNITIES]
Status = Literal[tables.STATUSES]
EffectType = Literal[tuple(k for k in tables.OPPORTUNITIES if tables.opportunity(k)["class"] != "instant")]

Trait = Annotated[int, Field(ge=1, le=5)]
Knack = Annotated[int, Field(ge=0, le=5)]
Modifier = Annotated[int, Field(ge=-100, le=100)]
Name80 = Annotated[str, Field(max_length=80)]
FORT_LOW, FORT_HIGH = tables.fortification_range()
Fortification = Annotated[int, Field(ge=FORT_LOW, le=FORT_HIGH)]
Troops = Annotated[int, Field(ge=1, le=10_000_000)]
# Values the engine tracks during a battle may legitimately outgrow the ranges
# a player enters (flesh wounds piling up with wound checks off, a huge
# shortfall): a state accepts them up to these sanity bounds (S3.1 "taken as given").
TRACKED_MAX = 1_000_000


class Terrain(Input):
    high_ground: bool = False
    difficult_terrain: bool = False
    crossing_water: bool = False


class TerrainUpdate(Input):
    """A GM terrain update: only the keys given replace the current ones (S7.9)."""

    high_ground: bool | None = None
    difficult_terrain: bool | None = None
    crossing_water: bool | None = None


class General(Input):
    name: Name80 = ""
    wits: Trait
    strategy: Knack
    incitation: Knack = 0


class Quartermaster(Input):
    name: Name80 = ""
    wits: Trait
    logistics: Knack


class Options(Input):
    wound_checks: bool = True


class SideSetup(Input):
    """S3.3 setup fields; ``name`` defaults to the side's letter in upper case."""

    silent_defaults: ClassVar[set[str]] = {"name"}
    name: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    troops: Troops
    fortification_level: Fortification = 1
    terrain: Terrain = Field(default_factory=Terrain)
    general: General
    quartermaster: Quartermaster | None = None
    free_raises: Annotated[int, Field(ge=0, le=100)] | None = None


class PendingModifier(Input):
    amount: Modifier
    source: OpportunityType
    hero_id: Id


class SideState(SideSetup):
    """S3.3 with the state-only fields."""

    free_raises: Annotated[int, Field(ge=0, le=TRACKED_MAX)] = 0
    streak: Annotated[int, Field(ge=0, le=100_000)] = 0
    rounds_won: Annotated[int, Field(ge=0, le=100_000)] = 0
    pending_modifiers: Annotated[list[PendingModifier], Field(max_length=200)] = []
    heroes_front_line_last_round: Annotated[int, Field(ge=0, le=1000)] = 0
    heroes_taken_out_last_round: Annotated[int, Field(ge=0, le=1000)] = 0


# S3.6: the extra fields each kind of effect carries.
EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "hold_the_position": ("locked_engagement",),
    "capture_enemy_banner": ("position",),
    "carry_the_message": ("position", "destination"),
    "charge_their_ranks": ("tn_to_be_hit",),
    "commander_is_dead": ("brutes_alive", "brutes_dead"),
}


class Effect(Input):
    type: EffectType
    rounds_done: Annotated[int, Field(ge=0, le=100_000)]
    locked_engagement: Engagement | None = None
    position: Engagement | None = None
    destination: Literal["front_line", "support"] | None = None
    tn_to_be_hit: Annotated[int, Field(ge=5, le=100)] | None = None
    brutes_alive: Annotated[int, Field(ge=0, le=18)] | None = None
    brutes_dead: Annotated[int, Field(ge=0, le=18)] | None = None

    @model_validator(mode="after")
    def _extras(self) -> "Effect":
        missing = [name for name in EFFECT_FIELDS.get(self.type, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.type} effect needs {', '.join(missing)}")
        return self


def effect_dict(effect: Effect | dict) -> dict[str, Any]:
    data = effect.model_dump() if isinstance(effect, BaseModel) else effect
    out = {"type": data["type"], "rounds_done": data["rounds_done"]}
    for name in EFFECT_FIELDS.get(data["type"], ()):
        out[name] = data[name]
    return out


def running(effect: dict) -> bool:
    """Class of an effect (S3.6): lasting effects never block a new opportunity."""
    kind = tables.opportunity(effect["type"])["class"]
    if kind == "running_then_lasting":
        return effect["rounds_done"] < 2
    return kind == "running"


class Hero(Input):
    """S3.5, state fields allowed; ``status`` is derived (and may be forced to unconscious)."""

    silent_defaults: ClassVar[set[str]] = {"status"}
    id: Id
    name: Annotated[str, Field(min_length=1, max_length=80)]
    side: Side
    player: Name80 | None = None
    wits: Trait
    tactics: Knack = 0
    leadership: Knack = 0
    brawn: Trait
    resolve: Trait
    unit_type: UnitType = "infantry"
    commission: Commission = "none"
    dracheneisen: Knack = 0
    reputation: Annotated[int, Field(ge=-1000, le=10000)] = 0
    flesh_wounds: Annotated[int, Field(ge=0, le=999)] = 0
    dramatic_wounds: Annotated[int, Field(ge=0, le=20)] = 0
    status: Status | None = None
    battle_reputation: Annotated[int, Field(ge=0, le=TRACKED_MAX)] = 0
    reputation_lost: Annotated[int, Field(ge=0, le=TRACKED_MAX)] = 0
    last_engagement: Engagement | None = None
    opportunity_pending: bool = False
    effects: Annotated[list[Effect], Field(max_length=len(tables.OPPORTUNITIES))] = []

    @field_validator("effects")
    @classmethod
    def _effects(cls, effects: list[Effect]) -> list[Effect]:
        kinds = [effect.type for effect in effects]
        if len(set(kinds)) != len(kinds):
            raise ValueError("a hero never holds two effects of the same type (S3.6)")
        if sum(running(effect_dict(effect)) for effect in effects) > 1:
            raise ValueError("a hero holds at most one running effect (S3.6)")
        return effects


class TrackedHero(Hero):
    """A hero inside a battle state: tracked wounds may exceed the entry ranges."""

    flesh_wounds: Annotated[int, Field(ge=0, le=TRACKED_MAX)] = 0
    dramatic_wounds: Annotated[int, Field(ge=0, le=TRACKED_MAX)] = 0
    reputation: Annotated[int, Field(ge=-TRACKED_MAX, le=TRACKED_MAX)] = 0


def unconscious_at(hero: dict) -> int:
    return 2 * hero["resolve"]


def hero_dict(hero: Hero) -> dict[str, Any]:
    """The normalised hero of S3.5, fields in spec order, status derived."""
    data = hero.model_dump(exclude={"effects"})
    knocked_out = hero.status == "unconscious" or hero.dramatic_wounds >= 2 * hero.resolve
    data["status"] = "unconscious" if knocked_out else "active"
    data["effects"] = [effect_dict(effect) for effect in hero.effects]
    order = list(Hero.model_fields)
    return {name: data[name] for name in order}


def side_dict(side: SideSetup, letter: str, *, free_raises: int | None = None) -> dict[str, Any]:
    """A side of the battle state (S3.3 with its state fields)."""
    data = side.model_dump()
    state = SideState.model_fields
    out: dict[str, Any] = {
        "name": data["name"] if data["name"] is not None else letter.upper(),
        "troops": data["troops"],
        "fortification_level": data["fortification_level"],
        "terrain": data["terrain"],
        "general": data["general"],
        "quartermaster": data["quartermaster"],
        "free_raises": data["free_raises"] if free_raises is None else free_raises,
    }
    for name in ("streak", "rounds_won", "pending_modifiers", "heroes_front_line_last_round",
                 "heroes_taken_out_last_round"):
        out[name] = data.get(name, state[name].get_default(call_default_factory=True))
    return out


class Sides(Input):
    a: SideSetup
    b: SideSetup


class StateSides(Input):
    a: SideState
    b: SideState


class HistoryEntry(Input):
    round: Annotated[int, Field(ge=1, le=100_000)]
    attacker: Side
    strategies: Annotated[dict[Side, Strategy], Field(max_length=2)]
    totals: Annotated[dict[Side, Annotated[int, Field(ge=-TRACKED_MAX, le=TRACKED_MAX)]], Field(max_length=2)]
    round_winner: Side | None


ROUND_LIMIT = 10_000


class State(Input):
    """S3.7."""

    ruleset: Literal["seventh_sea"] = "seventh_sea"
    name: Annotated[str, Field(max_length=200)] = ""
    options: Options = Field(default_factory=Options)
    round: Annotated[int, Field(ge=0, le=ROUND_LIMIT)] = 0
    attacker: Side
    finished: bool = False
    winner: Side | None = None
    aftermath_applied: bool = False
    sides: StateSides
    heroes: Annotated[list[TrackedHero], Field(max_length=30)] = []
    history: Annotated[list[HistoryEntry], Field(max_length=ROUND_LIMIT)] = []


def state_dict(state: State) -> dict[str, Any]:
    """The battle state as plain data in spec order (every object new)."""
    return {
        "ruleset": "seventh_sea",
        "name": state.name,
        "options": state.options.model_dump(),
        "round": state.round,
        "attacker": state.attacker,
        "finished": state.finished,
        "winner": state.winner,
        "aftermath_applied": state.aftermath_applied,
        "sides": {letter: side_dict(getattr(state.sides, letter), letter) for letter in tables.SIDES},
        "heroes": [hero_dict(hero) for hero in state.heroes],
        "history": [entry.model_dump() for entry in state.history],
    }


def check_unique_ids(items: list[Any], path: str) -> None:
    """S3.1: ids are unique in their list; the second holder is reported."""
    seen: set[str] = set()
    for index, item in enumerate(items):
        ident = item.id if isinstance(item, BaseModel) else item["id"]
        if ident in seen:
            raise InvalidInput.field(f"{path}[{index}].id", f"duplicate id {ident!r}")
        seen.add(ident)


def log_defaults(log: Log, model: BaseModel, path: str = "") -> None:
    """Log ``input.default`` for every omitted field the engine filled in (S3.1)."""
    silent = getattr(type(model), "silent_defaults", set())
    for name, field in type(model).model_fields.items():
        where = f"{path}.{name}" if path else name
        value = getattr(model, name)
        if name not in model.model_fields_set:
            if name not in silent:
                shown = value.model_dump() if isinstance(value, BaseModel) else value
                say(log, "S3", "input.default", field=where, value=shown)
            continue
        if isinstance(value, BaseModel):
            log_defaults(log, value, where)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    log_defaults(log, item, f"{where}[{index}]")
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, BaseModel):
                    log_defaults(log, item, f"{where}.{key}")
