"""Typed inputs: the entities of S3 and the sub-objects of S9.0.1.

One definition serves validation (with the contract's JSON paths), the CLI's
``ops`` schema and the web API.  Every number is bounded, even where the spec
gives no bound, so that no input can make the engine loop or blow up.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from rules.dnd5e import caps
from rules.model import Input

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{0,39}$"
NAME_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
DICE_PATTERN = r"^(?:([1-9][0-9]?)d(4|6|8|10|12|20)([+-][0-9]{1,3})?|[0-9]{1,3})$"
_DICE_RE = re.compile(DICE_PATTERN)

Ident = Annotated[str, Field(pattern=ID_PATTERN)]
AttackName = Annotated[str, Field(pattern=NAME_PATTERN)]
DiceExpr = Annotated[str, Field(pattern=DICE_PATTERN)]
Coord = Annotated[int, Field(ge=-1000, le=1000)]
Square = Annotated[list[Coord], Field(min_length=2, max_length=2)]
Text = Annotated[str, Field(max_length=500)]
ShortText = Annotated[str, Field(max_length=80)]
Controller = Annotated[str, Field(max_length=100)] | None
Round = Annotated[int, Field(ge=1, le=100_000)]
Modifier = Annotated[int, Field(ge=-20, le=20)]
Bonus = Annotated[int, Field(ge=-10, le=30)]

Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
ABILITIES: tuple[str, ...] = ("str", "dex", "con", "int", "wis", "cha")
DamageType = Literal[
    "acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic",
    "piercing", "poison", "psychic", "radiant", "slashing", "thunder",
]
Direction = Literal["north", "east", "south", "west"]
UnitType = Literal["skirmishers", "regiment"]
Configuration = Literal["support", "defense", "march"]
Shape = Literal["cone", "cube", "cylinder", "sphere", "line"]


def _one_decimal(value: float) -> float:
    if abs(value * 10 - round(value * 10)) >= 1e-6:
        raise ValueError("metres take at most one decimal")
    return value


def metres(low: float = 0, high: float = 10_000, *, positive: bool = False):
    """Metres (S3.1): a JSON number with at most one decimal, within bounds."""
    # the union of int and float keeps pydantic from writing the bounds in JSON Schema terms: say them here
    shown = {"exclusiveMinimum" if positive else "minimum": low, "maximum": high}
    bound = Field(gt=low, le=high, json_schema_extra=shown) if positive else Field(ge=low, le=high,
                                                                                     json_schema_extra=shown)
    return Annotated[int | float, bound, AfterValidator(_one_decimal)]


def parse_dice(expr: str) -> tuple[int, int, int]:
    """``NdF+M`` → (N, F, M); a plain ``M`` → (0, 0, M)."""
    match = _DICE_RE.match(expr)
    if match is None:  # pragma: no cover - the pattern was validated on input
        raise ValueError(expr)
    count, faces, flat = match.groups()
    if count is None:
        return 0, 0, int(expr)
    return int(count), int(faces), int(flat or 0)


class DamageComponent(Input):
    dice: DiceExpr
    type: DamageType


class Abilities(Input):
    str: Annotated[int, Field(ge=1, le=30)]
    dex: Annotated[int, Field(ge=1, le=30)]
    con: Annotated[int, Field(ge=1, le=30)]
    int: Annotated[int, Field(ge=1, le=30)]
    wis: Annotated[int, Field(ge=1, le=30)]
    cha: Annotated[int, Field(ge=1, le=30)]


class Attack(Input):
    """S3.2.1."""

    name: AttackName
    kind: Literal["melee", "ranged"]
    to_hit: Bonus
    damage: Annotated[list[DamageComponent], Field(min_length=1, max_length=4)]
    reach_m: metres(0, 30) = 1.5
    range_m: metres(0, 10_000, positive=True) | None = None
    long_range_m: metres(0, 10_000, positive=True) | None = None

    @model_validator(mode="after")
    def _ranges(self) -> "Attack":
        if self.kind == "ranged" and self.range_m is None:
            raise ValueError("a ranged attack needs range_m")
        if self.long_range_m is not None and self.range_m is not None and self.long_range_m < self.range_m:
            raise ValueError("long_range_m must be at least range_m")
        return self

    @property
    def long_range(self) -> float:
        return self.long_range_m if self.long_range_m is not None else self.range_m


class Area(Input):
    shape: Shape
    size_m: metres(0, 600, positive=True)  # 200 squares: wider than any grid (S3.7)


class Spell(Input):
    """S3.2.2."""

    name: AttackName
    targeting: Literal["targeted", "area"]
    range_m: metres(0, 10_000) | None = None
    self_range: bool = False
    resolution: Literal["attack", "save", "auto", "none"]
    attack_kind: Literal["melee", "ranged"] = "ranged"
    to_hit: Bonus | None = None
    save_ability: Ability | None = None
    save_dc: Annotated[int, Field(ge=1, le=40)] | None = None
    half_on_save: bool = False
    damage: Annotated[list[DamageComponent], Field(max_length=4)] = []
    max_targets: Annotated[int, Field(ge=1, le=50)] = 1
    area: Area | None = None
    uses: Annotated[int, Field(ge=1, le=99)] | None = None
    effect: Text = ""

    @model_validator(mode="after")
    def _coherent(self) -> "Spell":
        if self.range_m is None and not self.self_range:
            raise ValueError("range_m is required unless self_range")
        if self.self_range and self.targeting == "targeted":
            raise ValueError("self_range is only for area spells")
        if self.resolution == "attack" and self.targeting == "area":
            raise ValueError("an area spell cannot use an attack roll (H19)")
        if self.resolution == "attack" and self.to_hit is None:
            raise ValueError("an attack spell needs to_hit")
        if self.resolution == "save" and (self.save_ability is None or self.save_dc is None):
            raise ValueError("a save spell needs save_ability and save_dc")
        if self.targeting == "area" and self.area is None:
            raise ValueError("an area spell needs area")
        return self


class Profile(Input):
    """S3.2: the stat block of one creature."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    size: Size
    ac: Annotated[int, Field(ge=0, le=40)]
    hp_max: Annotated[int, Field(ge=1, le=2000)]
    speed_m: metres(0, caps.SPEED_M)
    swim_speed_m: metres(0, caps.SPEED_M) = 0
    abilities: Abilities
    save_bonuses: dict[Ability, Bonus] = {}
    attacks: Annotated[list[Attack], Field(max_length=caps.ATTACKS)] = []
    multiattack: Annotated[list[AttackName], Field(min_length=2, max_length=10)] | None = None
    spells: Annotated[list[Spell], Field(max_length=caps.SPELLS)] = []
    stealth_bonus: Bonus | None = None
    stealth_disadvantage: bool = False
    passive_perception: Annotated[int, Field(ge=0, le=40)] | None = None
    cha_check_bonus: Bonus | None = None
    resistances: Annotated[list[DamageType], Field(max_length=13)] = []
    vulnerabilities: Annotated[list[DamageType], Field(max_length=13)] = []
    immunities: Annotated[list[DamageType], Field(max_length=13)] = []

    @model_validator(mode="after")
    def _names(self) -> "Profile":
        names = [a.name for a in self.attacks]
        if len(set(names)) != len(names):
            raise ValueError("attack names must be unique in a profile")
        spells = [s.name for s in self.spells]
        if len(set(spells)) != len(spells):
            raise ValueError("spell names must be unique in a profile")
        for name in self.multiattack or []:
            if name not in names:
                raise ValueError(f"multiattack names unknown attack {name!r}")
        return self

    def attack(self, name: str) -> Attack | None:
        return next((a for a in self.attacks if a.name == name), None)

    def spell(self, name: str) -> Spell | None:
        return next((s for s in self.spells if s.name == name), None)


Profiles = Annotated[dict[Ident, Profile], Field(min_length=1, max_length=caps.PROFILES)]


# -- map and objectives (S3.7, S3.8) -------------------------------------------


class Cell(Input):
    at: Square
    terrain: Literal["open", "road", "forest", "shallow_water", "deep_water"] = "open"
    difficult: bool = False
    elevation: Annotated[int, Field(ge=0, le=20)] = 0


class MapInput(Input):
    width: Annotated[int, Field(ge=1, le=caps.MAP_SIDE)]
    height: Annotated[int, Field(ge=1, le=caps.MAP_SIDE)]
    cells: Annotated[list[Cell], Field(max_length=caps.CELLS)] = []


class ObjectiveSquareSetup(Input):
    at: Square
    hp_max: Annotated[int, Field(ge=10, le=100)]
    vp: Annotated[int, Field(ge=1, le=5)]
    ac: Annotated[int, Field(ge=1, le=30)] = 15


class ObjectiveSquareState(ObjectiveSquareSetup):
    hp: Annotated[int, Field(ge=0, le=100)] | None = None
    destroyed_round: Round | None = None


SquareIds = Annotated[list[Ident], Field(min_length=1, max_length=caps.OBJECTIVE_SQUARES)]


class AttritionObjective(Input):
    side: Ident
    type: Literal["attrition"]
    description: Text = ""
    vp_per_unit: Annotated[int, Field(ge=1, le=10)]


class DestructionObjective(Input):
    side: Ident
    type: Literal["destruction"]
    description: Text = ""
    squares: SquareIds


class ProtectionObjective(Input):
    side: Ident
    type: Literal["protection"]
    description: Text = ""
    squares: SquareIds
    vp_per_round: Annotated[int, Field(ge=1, le=5)] = 1


class CustomObjective(Input):
    side: Ident
    type: Literal["custom"]
    description: Text = ""
    vp: Annotated[int, Field(ge=1, le=10)]
    achieved_round: Round | None = None


Objective = Annotated[
    AttritionObjective | DestructionObjective | ProtectionObjective | CustomObjective,
    Field(discriminator="type"),
]


# -- battle state (S3.10) --------------------------------------------------------


class SideState(Input):
    name: ShortText = ""
    controller: Controller = None
    victory_points: Annotated[int, Field(ge=0, le=100_000)] = 0


class UnitState(Input):
    side: Ident
    name: ShortText = ""
    controller: Controller = None
    type: UnitType
    configuration: Configuration | None
    stands: Annotated[list[Ident], Field(min_length=1, max_length=caps.STANDS_PER_UNIT)]
    starting_stands: Annotated[int, Field(ge=1, le=caps.STANDS_PER_UNIT)]
    broken: bool
    commander: Ident | None
    prepare_until_round: Round | None
    motivate_until_round: Round | None
    initiative: Annotated[int, Field(ge=-100, le=100)]
    surprised: bool
    eliminated_round: Round | None


SpellUses = Annotated[dict[AttackName, Annotated[int, Field(ge=0, le=99)]], Field(max_length=caps.SPELLS)]


class StandState(Input):
    unit: Ident
    profile: Ident
    hp: Annotated[int, Field(ge=0, le=2000)]
    status: Literal["active", "casualty", "eliminated", "fled"]
    position: Square | None
    hidden: bool
    isolated: bool
    spell_uses: SpellUses


class SoloState(Input):
    side: Ident
    name: ShortText = ""
    controller: Controller = None
    profile: Ident
    hp: Annotated[int, Field(ge=0, le=2000)]
    condition: Literal["active", "dying", "stable", "dead", "fled"]
    position: Square | None
    attached_to: Ident | None
    uses_death_saves: bool
    death_save_successes: Annotated[int, Field(ge=0, le=2)]
    death_save_failures: Annotated[int, Field(ge=0, le=2)]
    hidden: bool
    isolated: bool
    initiative: Annotated[int, Field(ge=-100, le=100)]
    surprised: bool
    spell_uses: SpellUses


class InitiativeEntry(Input):
    id: Ident
    kind: Literal["unit", "solo"]
    total: Annotated[int, Field(ge=-100, le=100)]
    modifier: Annotated[int, Field(ge=-100, le=100)]


class BattleState(Input):
    ruleset: Literal["dnd5e"]
    name: ShortText = ""
    round: Round
    battle_over: bool
    # The round fought after a tie (S7.7), set by end-battle's extra_round: the battle ends after it whatever the VP.
    tie_break_round: Round | None = None
    victory_threshold: Annotated[int, Field(ge=1, le=100)]
    map: MapInput
    profiles: Profiles
    sides: Annotated[dict[Ident, SideState], Field(min_length=2, max_length=2)]
    units: Annotated[dict[Ident, UnitState], Field(min_length=1, max_length=caps.UNITS)]
    stands: Annotated[dict[Ident, StandState], Field(max_length=caps.STANDS)]
    solos: Annotated[dict[Ident, SoloState], Field(max_length=caps.SOLOS)]
    objective_squares: Annotated[dict[Ident, ObjectiveSquareState], Field(max_length=caps.OBJECTIVE_SQUARES)]
    objectives: Annotated[dict[Ident, Objective], Field(max_length=caps.OBJECTIVES)]
    initiative_order: Annotated[list[InitiativeEntry], Field(max_length=caps.INITIATIVE)]
