"""Input models of the SYNAPSE entities (spec S3): battle, army, units, characters.

Field names, enums, defaults and ranges are those of S3.  Every number has a
bound, even where the spec gives none, so that no input can make the
arithmetic explode.  Cross-field rules (a ranged unit needs a rate of fire...)
are checked by :mod:`rules.synapse.checks`, which reports them under the exact
JSON path of the spec.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Field, Tag

from rules.model import Input

# Ceilings the spec leaves open: far above any battle, low enough for exact integer arithmetic.
BIG = 10**12
MOD = 100

Id = Annotated[str, Field(pattern=r"^[a-z0-9_]{1,32}$")]
Side = Literal["A", "B"]
Mode = Literal["field", "assault", "vehicles"]
Terrain = Literal["open", "broken", "very_broken", "forest", "marsh", "urban"]
Distance = Literal["short", "medium", "long", "very_long"]
CombatType = Literal["ground", "air", "naval", "space"]
Group = Literal["melee", "ranged", "artillery", "reserve"]
DamageState = Literal["fresh", "engaged", "shaken", "decimated"]
FortClass = Literal["entrenchment", "small_fort", "fortress"]
Result = Literal["crushing_defeat", "defeat", "status_quo", "marginal_victory", "victory", "decisive_victory"]
UnitType = Literal[
    "archers_crossbowmen", "berserkers", "cavalry", "war_chariots", "dinosaurs", "dragons", "war_elephants",
    "dwarf_warriors", "orc_warriors", "human_infantry", "trolls", "zombies", "artillery", "other",
]
Rate = Union[Annotated[int, Field(ge=0, le=1000)], Annotated[str, Field(max_length=12)]]
Modifier = Annotated[int, Field(ge=-MOD, le=MOD)]


class Weather(Input):
    """S3.8 weather."""

    visibility: Literal["good", "poor", "very_poor"] = "good"
    strong_wind: bool = False
    extreme_temperature: bool = False
    gruelling_climate: bool = False


class Options(Input):
    """S3.8 optional rules."""

    poor_visibility_combat_penalty: bool = False
    halve_ranged_power_in_bad_conditions: bool = False
    round_break_pct_to_5: bool = False


class Commander(Input):
    """S3.3 commander-in-chief."""

    name: str = Field("", max_length=200)
    mental_mod: int = Field(ge=-5, le=10)
    presence_mod: int = Field(0, ge=-5, le=10)
    combat: int = Field(ge=-5, le=20)
    art_of_war: int = Field(0, ge=0, le=20)
    diplomacy: int = Field(0, ge=0, le=20)


class TroopUnit(Input):
    """S3.4 troop unit."""

    id: Id
    name: str | None = Field(None, max_length=200)
    category: Literal["troop"] = "troop"
    unit_type: UnitType
    combat_mode: Literal["melee", "ranged"] | None = None
    group: Group | None = None
    headcount: int = Field(ge=1, le=1_000_000)
    pieces: int | None = Field(None, ge=1, le=10_000)
    weapon_damage: int = Field(ge=0, le=100_000)
    secondary_damage: int = Field(0, ge=0, le=100_000)
    thrown_only: bool = False
    rate_of_fire: Rate | None = None
    area_of_effect: int = Field(1, ge=1, le=10_000)
    weapon_range: Distance | None = None
    weapon_tech: Literal["archaic", "firearm"] = "archaic"
    contact_capable: bool | None = None
    zero_defence_in_contact: bool | None = None
    attack_mod: int = Field(0, ge=-10, le=10)
    combat_base: int = Field(ge=-10, le=30)
    toughness: int | None = Field(None, ge=1, le=100_000)
    type_multiplier: int | None = Field(None, ge=1, le=1000)
    armour: int = Field(0, ge=0, le=100_000)
    partial_armour: bool = False
    armour_extra: int = Field(0, ge=0, le=2)
    shield: bool = False
    flying: bool = False
    assault_multiplier: int = Field(2, ge=2, le=3)
    fearless: bool = False
    break_pct_override: int | None = Field(None, ge=0, le=1000)
    attack_power_override: int | None = Field(None, ge=0, le=10_000_000)


class Weapon(Input):
    """S3.5 weapon of a vehicle."""

    name: str = Field("", max_length=200)
    count: int = Field(1, ge=1, le=1000)
    weapon_damage: int = Field(ge=0, le=10_000_000)
    rate_of_fire: Rate = 1
    area_of_effect: int = Field(1, ge=1, le=10_000)
    role: Literal["main", "secondary"] = "main"
    short_range: bool = False
    attack_mod: int = Field(0, ge=-10, le=10)
    usable_in: list[CombatType] = Field(default_factory=lambda: ["ground", "air", "naval", "space"], max_length=4)


class VehicleType(Input):
    """S3.5 vehicle model of a unit."""

    name: str = Field(max_length=200)
    count: int = Field(ge=1, le=100_000)
    toughness: int = Field(ge=1, le=10_000_000)
    armour: int = Field(0, ge=0, le=10_000_000)
    control_mod: int = Field(0, ge=-10, le=10)
    defence_mod: int = Field(0, ge=-10, le=10)
    crew: int = Field(0, ge=0, le=100_000)
    weapons: list[Weapon] = Field(default_factory=list, max_length=8)


class VehicleUnit(Input):
    """S3.5 vehicle unit."""

    id: Id
    name: str | None = Field(None, max_length=200)
    category: Literal["vehicle"]
    group: Literal["ranged", "reserve"] = "ranged"
    crew_combat: int = Field(ge=-10, le=30)
    vehicle_types: list[VehicleType] = Field(min_length=1, max_length=4)
    fearless: bool = False
    break_pct_override: int | None = Field(None, ge=0, le=1000)
    attack_power_override: int | None = Field(None, ge=0, le=10_000_000)


def category_tag(value: Any) -> str:
    """Which unit model validates ``value``: a vehicle only when it says so; anything else is
    checked as a troop, so that a wrong ``category`` is reported at its own path."""
    category = value.get("category") if isinstance(value, dict) else getattr(value, "category", None)
    return "vehicle" if category == "vehicle" else "troop"


Unit = Annotated[
    Union[Annotated[TroopUnit, Tag("troop")], Annotated[VehicleUnit, Tag("vehicle")]],
    Discriminator(category_tag),
]


class Character(Input):
    """S3.6 player character."""

    id: Id
    name: str | None = Field(None, max_length=200)
    unit_id: str = Field(max_length=32)
    armour: int = Field(0, ge=0, le=100)


class Army(Input):
    """S3.2 army of one side."""

    name: str = Field(min_length=1, max_length=80)
    commander: Commander | None = None
    units: list[Unit] = Field(min_length=1, max_length=40)
    characters: list[Character] = Field(default_factory=list, max_length=200)
    radio: bool = False
    siege_equipment: bool = True
    longest_range: bool = False
    command_modifier: int = Field(0, ge=-20, le=20)
    notes: str = Field("", max_length=5000)


class Fortification(Input):
    """S3.7 fortified place (``class`` is a Python keyword, hence the alias)."""

    class_: FortClass = Field(alias="class")
    defender: Side
    optimal_garrison: int = Field(ge=1, le=10_000_000)
    factor: int | None = Field(None, ge=1, le=10)
    defence_mod: int | None = Field(None, ge=0, le=50)
    inaccessible_site: bool = False


class SheetContext(Input):
    """S9.2 context of a unit sheet."""

    mode: Mode = "field"
    terrain: Terrain = "open"
    assault_role: Literal["attacker", "defender"] = "attacker"
    fortification_factor: int = Field(1, ge=1, le=10)
    combat_type: CombatType = "ground"
    target_armour: int = Field(0, ge=0, le=BIG)
