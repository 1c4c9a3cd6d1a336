"""The battle state as read by ``resolve-round``, ``end-battle`` and the web helpers (S3.10).

These operations trust a state (H58): they check the types and enums of the
fields they read, and that the ids it refers to exist, but never re-derive a
value.  They work on a deep copy of the state as given, so every field they do
not read (the full unit sheets...) passes through unchanged.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field, WrapValidator

from rules.errors import InvalidInput
from rules.model import Input
from rules.synapse.entities import BIG, CombatType, Distance, FortClass, Group, Mode, Options, Side, Terrain, Weather
from rules.validate import parse

# Size caps: ten times the largest battle of the spec, as new-battle accepts them (40 units a side).
MAX_UNITS = 40
MAX_FORMATIONS = 2 * MAX_UNITS + 8
MAX_CHARACTERS = 200
Key = Annotated[str, Field(max_length=80)]
Name = Annotated[str, Field(max_length=200)]
Int = Field(ge=-BIG, le=BIG)
Count = Field(ge=0, le=BIG)
PRESENT = ("active", "routed")
OUT = ("fled", "destroyed", "withdrawn")


class WeaponLine(Input):
    weapon_damage: int | None = Field(ge=0, le=BIG)
    attack_power: int = Count
    usable: bool


class FormationState(Input):
    id: Key
    side: Side
    group: Group
    order: int = Count
    combat_mode: Literal["melee", "ranged"]
    unit_ids: list[Key] = Field(min_length=1, max_length=MAX_UNITS)
    headcount: int = Count
    strength: int = Field(ge=1, le=BIG)
    attack_power: int = Count
    attack_power_contact: int = Count
    combat: int = Int
    combat_initial: int = Int
    defence: int = Count
    defence_contact: int = Count
    break_pct: int = Count
    break_threshold: int | None = Count
    fearless: bool
    armour: int | None = Count
    weapon_lines: list[WeaponLine] = Field(max_length=200)
    losses: int = Count
    damage_state: Literal["fresh", "engaged", "shaken", "decimated", "annihilated"]
    status: Literal["reserve", "active", "routed", "fled", "destroyed", "withdrawn"]
    routed_round: int | None = Count
    pursued: bool
    counter_bonus: int = Count
    retreat_penalty: Literal[0, -2, -4]
    in_contact_with: list[Key] = Field(max_length=MAX_FORMATIONS)
    engaged: bool


class UnitState(Input):
    category: Literal["troop", "vehicle"] = "troop"
    unit_type: str | None = Field(None, max_length=40)
    headcount: int = Count
    strength: int = Field(ge=1, le=BIG)
    soldier_points: int | None = Field(None, ge=1, le=BIG)
    crew_total: int | None = Field(None, ge=0, le=BIG)


class CharacterState(Input):
    id: Key
    name: Name | None = None
    unit_id: Key
    armour: int = Field(0, ge=0, le=100)


class ArmyState(Input):
    name: Name
    command_rating: int = Int
    rally_rating: int = Int
    army_combat: int = Int
    radio: bool
    siege_equipment: bool
    longest_range: bool
    command_modifier: int = Int
    reserve_significant: bool | None
    auto_commit_reserve: bool
    withdrawn: bool
    abandoned_units: list[Key] = Field(max_length=MAX_UNITS)
    undeployed_units: list[Key] = Field(max_length=MAX_UNITS)
    units: dict[Key, UnitState] = Field(max_length=MAX_UNITS)
    characters: list[CharacterState] = Field(max_length=MAX_CHARACTERS)


class Armies(Input):
    A: ArmyState
    B: ArmyState


class CommandState(Input):
    round: int = Count
    initiative: Side | None
    surprised: Side | None


class FortState(Input):
    class_: FortClass = Field(alias="class")
    defender: Side
    optimal_garrison: int = Field(ge=1, le=BIG)
    factor: int = Field(ge=1, le=10)
    defence_mod: int = Field(ge=0, le=50)
    inaccessible_site: bool


class BattleState(Input):
    ruleset: Literal["synapse"]
    mode: Mode
    terrain: Terrain
    weather: Weather
    options: Options
    engagement_distance: Distance
    combat_type: CombatType | None
    base_difficulty: int | None = Field(ge=0, le=1000)
    numbers_advantage_allowed: bool
    surprise_allowed: bool
    mobility_edge: Side | None
    fortification: FortState | None
    round: int = Field(ge=0, le=100_000)
    status: Literal["ongoing", "over"]
    winner: Side | None
    end_reason: Literal["rout", "withdrawal", "mutual", "gm"] | None
    command: CommandState | None
    armies: Armies
    formations: dict[Key, FormationState] = Field(max_length=MAX_FORMATIONS)


def _checked_raw(value: Any, handler) -> Any:
    """Validate against :class:`BattleState` (its caps, its error paths) but keep the raw object:
    the operations pass every field they do not read through unchanged."""
    handler(value)
    return value


StateIn = Annotated[BattleState, WrapValidator(_checked_raw)]
"""An operation's ``state`` field: checked and published (``ops`` schema) as :class:`BattleState`."""


def parse_at(model: type[Input], payload: Any, path: str) -> Input:
    """Validate a nested object of the input, reporting problems under its own JSON path."""
    try:
        return parse(model, payload)
    except InvalidInput as exc:
        def at(k: str) -> str:
            return f"{path}.{k}" if k else path

        fields = {at(k): v for k, v in exc.fields.items()}
        first = next(iter(fields))
        raise InvalidInput(f"Invalid input at {first}: {fields[first]}.", fields,
                           {at(k): message for k, message in exc.messages.items()}) from None


def load_state(raw: Any, path: str = "state") -> dict:
    """Check a state's references; return a private deep copy to work on.

    Its types, enums and caps were checked with the operation's input (every
    ``state`` field is a :data:`StateIn`)."""
    state = json.loads(json.dumps(raw))  # a private copy; JSON's own round trip is the fastest deep copy
    formations = state["formations"]
    for fid, f in formations.items():
        where = f"{path}.formations.{fid}"
        if f["id"] != fid:
            raise InvalidInput.field(f"{where}.id", "must equal the formation's key")
        for other in f["in_contact_with"]:
            if other not in formations:
                raise InvalidInput.field(f"{where}.in_contact_with", f"unknown formation {other!r}")
        units = state["armies"][f["side"]]["units"]
        for unit_id in f["unit_ids"]:
            if unit_id not in units:
                raise InvalidInput.field(f"{where}.unit_ids", f"unknown unit {unit_id!r}")
    return state


def ordered(state: dict) -> list[dict]:
    """Formations in resolution order (S3.9)."""
    return sorted(state["formations"].values(), key=lambda f: (f["order"], f["id"]))


def is_present(f: dict) -> bool:
    return f["status"] in PRESENT


def is_out(f: dict) -> bool:
    return f["status"] in OUT
