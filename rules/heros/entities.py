"""Input shapes of the S3 entities, as pydantic models (one definition for validation and schema).

Top-level operation inputs are closed (S9.0: an unknown top-level key is
invalid); nested objects ignore unknown keys, so that a state or a unit
object copied from another output can be passed back as is.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rules.heros.tables import COMBATANT_CODES, TYPE_CODES
from rules.model import Input

ID_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"

Id = Annotated[str, Field(pattern=ID_PATTERN)]
Text = Annotated[str, Field(max_length=500)]
EP = Annotated[float, Field(ge=0, le=10, multiple_of=0.5)]
BigEP = Annotated[float, Field(ge=-10_000, le=10_000, multiple_of=0.5)]
Factor = Annotated[int, Field(ge=-1, le=12)]
Small = Annotated[int, Field(ge=0, le=1000)]
Facing = Annotated[int, Field(ge=0, le=5)]
Coord = Annotated[int, Field(ge=0, le=59)]
TroopType = Literal[TYPE_CODES]  # type: ignore[valid-type]
CombatantType = Literal[COMBATANT_CODES]  # type: ignore[valid-type]
UnitClass = Literal["S", "O", "I", "F", "X"]
Terrain = Literal["open", "rough", "difficult", "impassable"]
WoundState = Literal["none", "malus", "light", "serious", "unconscious", "dead"]
Role = Literal["cinc", "sub_general", "ally_general", "champion"]
UnitStatus = Literal["active", "pool", "reserve", "destroyed", "fled_off", "dispersed", "departed"]
CharacterStatus = Literal["active", "captured", "dead"]


class HexRef(Input):
    col: Coord
    row: Coord


class HexDef(HexRef):
    terrain: Terrain = "open"
    wooded: bool = False
    built_up: bool = False
    river: bool = False
    river_bank: bool = False
    wall: bool = False
    fortified: bool = False
    elevation: Annotated[int, Field(ge=-3, le=5)] = 0
    feature_id: Optional[Annotated[str, Field(max_length=80)]] = None


class MapDef(Input):
    width: Annotated[int, Field(ge=2, le=60)]
    height: Annotated[int, Field(ge=2, le=60)]
    hexes: Annotated[list[HexDef], Field(max_length=3600)] = []


class UnitDef(Input):
    """S3.4 definition fields; ``None`` means "not entered" (defaults of S4.1 apply)."""

    id: Id
    name: Optional[Text] = None
    corps_id: Optional[Id] = None
    troop_type: TroopType
    class_: Optional[UnitClass] = Field(None, alias="class")
    regular: Optional[bool] = None
    mounted: Optional[bool] = None
    factor_vs_foot: Optional[Factor] = None
    factor_vs_mounted: Optional[Factor] = None
    move: Optional[Annotated[int, Field(ge=0, le=20)]] = None
    range: Annotated[int, Field(ge=0, le=12)] = 0
    ep: Optional[EP] = None
    impetuous: Optional[bool] = None
    causes_fear: bool = False
    undead: bool = False
    fear_immune: bool = False
    magician: bool = False
    power_points: Annotated[int, Field(ge=0, le=99)] = 0
    enemy_malus: Optional[Annotated[int, Field(ge=0, le=3)]] = None
    axes_or_halberds: bool = False
    dragon: bool = False
    mobile: bool = False
    flyer_terrain_exempt: bool = False
    supported_by: Optional[Annotated[list[TroopType], Field(max_length=40)]] = None
    character_unit: bool = False
    profile_note: Text = ""


class UnitPlaced(UnitDef):
    """A unit of ``new-battle``: definition plus set-up fields."""

    position: Optional[HexRef] = None
    facing: Facing = 0
    rank: Literal["front", "rear"] = "front"
    hidden: bool = False
    status: UnitStatus = "active"


class UnitState(UnitPlaced):
    side: Optional[Id] = None
    high_altitude: bool = False
    climb_hex: Optional[HexRef] = None
    activations: Small = 0
    lurker_activations: Small = 0
    projection_failed: bool = False
    rally_moved: bool = False
    arrived_mid_battle: bool = False
    wound_state: WoundState = "none"
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0


class CharacterDef(Input):
    id: Id
    name: Optional[Text] = None
    corps_id: Optional[Id] = None
    role: Role
    player_id: Optional[Annotated[str, Field(max_length=80)]] = None
    combat_bonus: Optional[Annotated[int, Field(ge=0, le=6)]] = None
    ep: EP = 1
    mounted: bool = False
    dwarf: bool = False
    undead: bool = False
    magician: bool = False
    power_points: Annotated[int, Field(ge=0, le=99)] = 0
    personal_pa: Annotated[int, Field(ge=0, le=5)] = 0
    can_riposte: bool = False
    very_large: bool = False
    humanoid: bool = False
    wound_state: WoundState = "none"
    wound_malus: Annotated[int, Field(ge=0, le=20)] = 0
    status: CharacterStatus = "active"


class CharacterPlaced(CharacterDef):
    position: Optional[HexRef] = None
    stacked_on: Optional[Id] = None
    engaged: bool = False


class CharacterState(CharacterPlaced):
    side: Optional[Id] = None
    captured_by: Optional[Id] = None
    rally_failed: bool = False
    has_moved: bool = False
    moved_hexes: Small = 0
    fought: bool = False
    spell_cast: bool = False
    personal_pa_spent: Small = 0
    pa_benefit: Small = 0


class OtherEngaged(Input):
    id: Id
    combat_bonus: Annotated[int, Field(ge=0, le=6)] = 0
    wound_state: WoundState = "none"
    status: CharacterStatus = "active"
