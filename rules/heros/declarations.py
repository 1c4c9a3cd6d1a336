"""Shapes of the ``resolve-round`` declarations (S9.13): active side, passive side, GM."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rules.heros.entities import Facing, HexRef, Id
from rules.model import ClosedInput, Input

Path = Annotated[list[HexRef], Field(max_length=40)]
Ids = Annotated[list[Id], Field(max_length=100)]
Power = Annotated[int, Field(ge=0, le=99)]


class GodFollow(Input):
    god_id: Id
    path: Path = []
    facing: Optional[Facing] = None


class Action(Input):
    """One action of any kind; each kind reads its own fields (S9.13 table)."""

    id: Id
    kind: Literal["move", "climb", "land", "hold", "advance", "character", "god", "lurker"]
    corps_id: Optional[Id] = None
    units: Ids = []
    paths: Annotated[dict[Id, Path], Field(max_length=100)] = {}
    facings: Annotated[dict[Id, Facing], Field(max_length=100)] = {}
    use_cinc_extra_pa: bool = False
    pa_source: Optional[Literal["corps", "adventurer", "personal", "free"]] = None
    god_follows: Annotated[list[GodFollow], Field(max_length=10)] = []
    hexes: Annotated[dict[Id, HexRef], Field(max_length=100)] = {}
    hold_exception: Optional[Literal["sub_general_unmoved", "cinc_extra_pa", "strong_position"]] = None
    character_id: Optional[Id] = None
    path: Path = []
    stack_on: Optional[Id] = None
    engaged: Optional[bool] = None
    carry: bool = False
    god_id: Optional[Id] = None
    action: Literal["move", "swap"] = "move"
    facing: Optional[Facing] = None
    swap_with: Optional[Id] = None
    unit_id: Optional[Id] = None
    target_id: Optional[Id] = None
    hex: Optional[HexRef] = None
    contact: Literal["front", "flank"] = "front"


class Shooting(Input):
    id: Id
    shooters: Annotated[list[Id], Field(min_length=1, max_length=20)]
    target_id: Id


class Support(Input):
    unit_id: Id
    kind: Literal["overlap", "flank", "rear"]


class Melee(Input):
    id: Id
    attacker_id: Id
    defender_id: Id
    contact: Literal["front", "flank", "rear"] = "front"
    attacker_support: Annotated[list[Support], Field(max_length=12)] = []
    defender_support: Annotated[list[Support], Field(max_length=12)] = []
    attacker_surrounded: bool = False
    defender_surrounded: bool = False


class Effect(Input):
    kind: Literal["attack", "modifier", "heal", "other"]
    target_id: Optional[Id] = None
    factor: Annotated[int, Field(ge=-1, le=12)] = 0
    range: Annotated[int, Field(ge=0, le=30)] = 0
    combat_id: Optional[Id] = None
    combatant_id: Optional[Id] = None
    value: Annotated[int, Field(ge=-10, le=10)] = 0
    character_id: Optional[Id] = None
    text: Annotated[str, Field(max_length=500)] = ""


class Spell(Input):
    id: Id
    caster_id: Id
    cost: Power = 0
    effect: Effect


class CounterSpell(Input):
    id: Id
    caster_id: Id
    against_caster_id: Id
    cost: Power = 0


class RallyMove(Input):
    unit_id: Id
    path: Path = []
    facing: Optional[Facing] = None


class Rally(Input):
    general_id: Id
    corps_id: Id
    moves: Annotated[list[RallyMove], Field(max_length=24)] = []


class Transfer(Input):
    character_id: Id
    to_unit_id: Id


class PassiveDeclarations(ClosedInput):
    """Keys either side may use (marked P in S9.13)."""

    spells: Annotated[list[Spell], Field(max_length=50)] = []
    counter_spells: Annotated[list[CounterSpell], Field(max_length=50)] = []
    rallies: Annotated[list[Rally], Field(max_length=20)] = []
    immediate_rallies: Annotated[list[Rally], Field(max_length=20)] = []
    stars: Annotated[dict[Id, Id], Field(max_length=200)] = {}
    adventurer_flee: Ids = []
    adventurers_follow: Annotated[dict[Id, bool], Field(max_length=100)] = {}
    decline_pursuit: Ids = []
    escapes: Annotated[dict[Id, HexRef], Field(max_length=100)] = {}


class ActiveDeclarations(PassiveDeclarations):
    executions: Ids = []
    captive_transfers: Annotated[list[Transfer], Field(max_length=50)] = []
    actions: Annotated[list[Action], Field(max_length=200)] = []
    shootings: Annotated[list[Shooting], Field(max_length=100)] = []
    melees: Annotated[list[Melee], Field(max_length=200)] = []


class Arrival(Input):
    unit_id: Id
    hex: HexRef
    facing: Facing = 0


class Departure(Input):
    unit_id: Id
    reason: Literal["unstable", "other"] = "other"


class GMModifier(Input):
    combat_id: Id
    combatant_id: Id
    value: Annotated[int, Field(ge=-10, le=10)]
    label: Annotated[str, Field(max_length=200)] = ""


class GMDeclarations(ClosedInput):
    arrivals: Annotated[list[Arrival], Field(max_length=100)] = []
    departures: Annotated[list[Departure], Field(max_length=100)] = []
    modifiers: Annotated[list[GMModifier], Field(max_length=100)] = []


class Declarations(ClosedInput):
    active: ActiveDeclarations = ActiveDeclarations()
    passive: PassiveDeclarations = PassiveDeclarations()
    gm: GMDeclarations = GMDeclarations()
