"""Input models of the S3 entities and of the S5.5 declarations.

They validate types, enums and ranges (the S3 tables); rules that relate
several fields (talent allowance, hero points, positions...) are checked by
the engine modules so that their error paths follow the spec.  Unknown fields
are ignored (S9.0), which is also how stored derived fields (``sheet``,
hero ``class``...) are dropped when a state is read back.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, create_model, field_validator

from rules.jdrwiki import tables
from rules.model import Input

# Size caps (docs/rules/jdrwiki.md): about ten times the largest battle of the spec's examples (S9.0,
# S10: 6 zones, 4 corps, 2 heroes), and small enough that every operation at the caps stays well within
# the engine's time budget (tests/rules/jdrwiki/test_jdrwiki_caps.py).
MAX_ZONES = 300
MAX_NEIGHBOURS = 30
MAX_ARMIES = 20
MAX_CORPS = 60
MAX_HEROES = 100
MAX_EFFECTS = 40

Id = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[^/]+$")]
Name = Annotated[str, StringConstraints(max_length=200)]
Rank = Annotated[int, Field(ge=0, le=20)]
Side = Literal["a", "b"]
SkillId = Literal[tables.SKILLS]  # type: ignore[valid-type]
TalentId = Literal[tuple(tables.TALENTS)]  # type: ignore[valid-type]
ActionId = Literal[tuple(tables.ACTIONS)]  # type: ignore[valid-type]
BonusTarget = Literal[tables.HERO_BONUS_TARGETS]  # type: ignore[valid-type]
Characteristic = Literal["str", "dex"]
# Advantage and hit points can grow during a battle; these bounds only keep
# arithmetic sane whatever a client sends.
BigInt = Annotated[int, Field(ge=-(10**12), le=10**12)]
Hp = Annotated[int, Field(ge=0, le=10**12)]
Small = Annotated[int, Field(ge=-1000, le=1000)]
Time = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]


class Commander(Input):
    name: Name = ""
    level: int = Field(ge=1, le=40)
    is_pc: bool = False
    strategist_rank: int = Field(default=0, ge=0, le=6)
    force_combat_expertise: Rank = 0
    deft_combat_expertise: Rank = 0
    war_arts: Rank = 0
    int_: int = Field(alias="int", ge=1, le=40)
    wis: int = Field(ge=1, le=40)
    cha: int = Field(ge=1, le=40)
    heroism_points: int = Field(default=0, ge=0, le=3)


class Aide(Input):
    name: Name = ""
    strategist_rank: int = Field(default=0, ge=0, le=6)
    force_combat_expertise: Rank = 0
    deft_combat_expertise: Rank = 0
    war_arts: Rank = 0


Rating = Annotated[int, Field(ge=-2, le=2)]
# One required field per S2.3 criterion.
Criteria = create_model("Criteria", __base__=Input, **{c: (Rating, ...) for c in tables.CRITERIA})


class Unit(Input):
    name: Name = ""
    value: int = Field(ge=1, le=1000)
    count: int = Field(ge=0, le=10_000_000)
    speed: int = Field(default=1, ge=1, le=20)


class ArmyDefinition(Input):
    """S3.1 as the army-sheet operation reads it (runtime fields ignored)."""

    id: Id | None = None
    name: Name = ""
    side: Side | None = None
    commander: Commander
    aides: list[Aide] = Field(default_factory=list, max_length=20)
    criteria: Criteria  # type: ignore[valid-type]
    talents: list[TalentId] = Field(default_factory=list, max_length=20)  # type: ignore[valid-type]
    units: list[Unit] = Field(min_length=1, max_length=100)
    has_magic: bool = False


class Army(ArmyDefinition):
    """S3.1 inside a battle: id, side and the runtime fields."""

    id: Id
    side: Side
    ruthless: bool = False
    army_heroism_points: int | None = Field(default=None, ge=0, le=1000)
    confusion_round: int | None = Field(default=None, ge=1, le=100_000)
    confusion_penalty: int = Field(default=0, ge=0, le=100)
    status: Literal["active", "fled", "annihilated"] = "active"


class Effect(Input):
    kind: Literal["skill", "attack_rolls", "charge", "pincer", "snare"]
    skills: list[SkillId] | None = Field(default=None, max_length=20)  # type: ignore[valid-type]
    value: Small | None = None
    target: Id | None = None
    attack: Small | None = None
    damage: Small | None = None
    rounds_left: int = Field(ge=0, le=100)
    source: Name | None = None
    from_corps: Id | None = None


class Corps(Input):
    id: Id
    army_id: Id
    zone: Id
    hp: Hp
    advantage: BigInt = 0
    initiative: int = Field(ge=0, le=10_000)
    status: Literal["active", "destroyed", "fled", "merged"] = "active"
    total_melee_with: Id | None = None
    effects: list[Effect] = Field(default_factory=list, max_length=MAX_EFFECTS)


class Hero(Input):
    id: Id
    army_id: Id
    corps_id: Id
    name: Name = ""
    level: int = Field(ge=1, le=40)
    is_pc: bool = False
    race_power: int = Field(default=0, ge=0, le=40)
    is_commander: bool = False
    bonuses: dict[BonusTarget, Small] = Field(default_factory=dict, max_length=20)  # type: ignore[valid-type]
    heroism_points: int = Field(default=0, ge=0, le=3)
    available_from_round: int = Field(default=1, ge=1, le=100_000)
    status: Literal["active", "out"] = "active"
    fate: Literal["wounded", "dead"] | None = None
    death_avoided: bool = False


class HeroDefinition(Hero):
    """S3.5 as hero-sheet reads it: ids optional."""

    id: Id | None = None  # type: ignore[assignment]
    army_id: Id | None = None  # type: ignore[assignment]
    corps_id: Id | None = None  # type: ignore[assignment]


class Terrain(Input):
    unstable_ground: int = Field(default=0, ge=0, le=tables.TERRAIN_MAX["unstable_ground"])
    stronghold: int = Field(default=0, ge=0, le=tables.TERRAIN_MAX["stronghold"])
    cover: int = Field(default=0, ge=0, le=tables.TERRAIN_MAX["cover"])
    heights: int = Field(default=0, ge=0, le=tables.TERRAIN_MAX["heights"])
    weather: int = Field(default=0, ge=0, le=tables.TERRAIN_MAX["weather"])


class Zone(Input):
    name: Name = ""
    neighbors: list[Id] = Field(default_factory=list, max_length=MAX_NEIGHBOURS)
    terrain: Terrain = Field(default_factory=Terrain)


class Map(Input):
    zones: dict[Id, Zone] = Field(min_length=1, max_length=MAX_ZONES)


class Clock(Input):
    round_minutes: int = Field(default=0, ge=0, le=720)
    start_time: Time | None = None
    elapsed_minutes: int = Field(default=0, ge=0, le=10**9)


class State(Input):
    ruleset: Literal["jdrwiki"]
    name: Name = ""
    round: int = Field(ge=1, le=100_000)
    phase: Literal["initiative", "declaration"]
    conflict_started: bool = False
    clock: Clock = Field(default_factory=Clock)
    map: Map
    armies: dict[Id, Army] = Field(min_length=1, max_length=MAX_ARMIES)
    corps: dict[Id, Corps] = Field(min_length=1, max_length=MAX_CORPS)
    heroes: dict[Id, Hero] = Field(default_factory=dict, max_length=MAX_HEROES)
    ended: bool = False
    winner: Side | None = None


# ---------------------------------------------------------------- declarations (S5.5, S9.10)


class NewCorps(Input):
    id: Id
    zone: Id
    hp: int = Field(ge=1, le=10**12)
    advantage: BigInt = 0
    heroes: list[Id] = Field(default_factory=list, max_length=MAX_HEROES)


class FallbackAction(Input):
    """An action without a fallback of its own (S7.9)."""

    action: ActionId  # type: ignore[valid-type]
    target: Id | None = None
    attack_skill: SkillId | None = None  # type: ignore[valid-type]
    defense_skill: SkillId | None = None  # type: ignore[valid-type]
    damage_characteristic: Characteristic | None = None
    on_critical: Literal[tables.CRITICAL_OPTIONS] | None = None  # type: ignore[valid-type]
    critical_hero: Id | None = None
    heroic: bool = False
    as_counter: bool = False
    moves: int | None = Field(default=None, ge=1, le=5)
    path: list[Id] | None = Field(default=None, min_length=1, max_length=50)
    to_zone: Id | None = None
    push_to_zone: Id | None = None
    opposed_by: Id | None = None
    new_corps: list[NewCorps] | None = Field(default=None, min_length=1, max_length=10)
    with_: list[Id] | None = Field(default=None, alias="with", max_length=20)
    into: Id | None = None
    zone: Id | None = None
    characteristic: Literal[tables.TERRAIN_KEYS] | None = None  # type: ignore[valid-type]
    direction: Literal["up", "down"] | None = None
    level: int | None = Field(default=None, ge=0, le=tables.TERRAIN_MAX["weather"])


class Action(FallbackAction):
    fallback: FallbackAction | None = None


class Allocation(Input):
    environment: Small = 0
    security: Small = 0
    focus: Small = 0
    protection: int = Field(default=0, ge=0, le=1000)
    fury: int = Field(default=0, ge=0, le=1000)
    preparation: int = Field(default=0, ge=0, le=1)


class Support(Input):
    mode: Literal["cooldown", "bonus"]
    target: BonusTarget | None = None  # type: ignore[valid-type]


class HeroIntervention(Input):
    hero_id: Id
    heroism: bool = False
    sacrifice: bool = False
    moderation: int = Field(default=0, ge=0, le=10)
    dropped_bonuses: list[BonusTarget] = Field(default_factory=list, max_length=20)  # type: ignore[valid-type]
    support: Support | None = None


class HeroTransfer(Input):
    hero_id: Id
    to_corps: Id


class Opportune(Input):
    mode: Literal["counter", "category_6"] = "counter"
    action: Literal["massive_assault", "subtle_assault"] = "massive_assault"


class CorpsDeclaration(Input):
    actions: list[Action] = Field(default_factory=list, max_length=3)
    allocation: Allocation | None = None
    heroes: list[HeroIntervention] = Field(default_factory=list, max_length=MAX_HEROES)
    hero_transfers: list[HeroTransfer] = Field(default_factory=list, max_length=MAX_HEROES)
    defensive_counter: Id | None = None
    opportune: Opportune | None = None
    melee_characteristic: Characteristic | None = None


class HeroismSpend(Input):
    pool: Literal["commander", "army"]
    use: Literal["advantage", "auto_success"]


class ArmyDeclaration(Input):
    ruthless: bool | None = None
    heroism: list[HeroismSpend] = Field(default_factory=list, max_length=20)
    save_from_fatal: Literal["commander", "army"] | None = None
    withdraw: bool = False


class ManualModifier(Input):
    corps_id: Id
    target: Literal[tables.SKILLS + ("all_skills", "attack_rolls", "damage", "protection")]  # type: ignore[valid-type]
    value: Small
    reason: Name = ""


class Adjustment(Input):
    corps_id: Id
    field: Literal["hp", "advantage", "initiative"]
    delta: BigInt


class CommanderChange(Input):
    commander: Commander
    aides: list[Aide] | None = Field(default=None, max_length=20)
    talents: list[TalentId] | None = Field(default=None, max_length=20)  # type: ignore[valid-type]


class GmDeclaration(Input):
    weather: dict[Id, Annotated[int, Field(ge=0, le=tables.TERRAIN_MAX["weather"])]] = Field(default_factory=dict,
                                                                                          max_length=MAX_ZONES)
    manual_modifiers: list[ManualModifier] = Field(default_factory=list, max_length=200)
    adjustments: list[Adjustment] = Field(default_factory=list, max_length=200)
    commander_changes: dict[Id, CommanderChange] = Field(default_factory=dict, max_length=MAX_ARMIES)
    conflict_started: bool | None = None
    end_battle: bool = False


class Declarations(Input):
    rerolls: list[Id] = Field(default_factory=list, max_length=MAX_CORPS)
    gm: GmDeclaration = Field(default_factory=GmDeclaration)
    armies: dict[Id, ArmyDeclaration] = Field(default_factory=dict, max_length=MAX_ARMIES)
    corps: dict[Id, CorpsDeclaration] = Field(default_factory=dict, max_length=MAX_CORPS)

    @field_validator("rerolls")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a corps may be listed only once")
        return value
