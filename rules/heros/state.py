"""The battle state (S9.12): its validated shape and the lookups every battle rule needs.

:class:`Battle` wraps one state dict (already a private copy) with indexes by
id, the occupancy of hexes and the event list of the round; the rule modules
(movement, fighting, bounds) read and change the state only through it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import Field

from rules.contract import outcome
from rules.dice import Dice
from rules.explain import Log
from rules.heros import caps, hexgrid, sheets
from rules.heros.entities import BigEP, CharacterState, Id, MapDef, Small, UnitState
from rules.model import Input

HEX_DEFAULTS = {"terrain": "open", "wooded": False, "built_up": False, "river": False, "river_bank": False,
                "wall": False, "fortified": False, "elevation": 0, "feature_id": None}


class SideState(Input):
    id: Id
    name: Optional[Annotated[str, Field(max_length=200)]] = None
    cinc_id: Id
    cinc_extra_used: bool = False
    broken: bool = False


class PA(Input):
    roll: Optional[Annotated[int, Field(ge=2, le=5)]] = None
    available: Small = 0
    spent: Small = 0


class CorpsState(Input):
    id: Id
    side: Id
    name: Optional[Annotated[str, Field(max_length=200)]] = None
    kind: Literal["cinc", "sub", "ally"]
    general_id: Id
    dwarf: bool = False
    ep_total: BigEP = 0
    ep_lost: BigEP = 0
    demoralised: bool = False
    rallied: bool = False
    rallied_at_loss: Optional[BigEP] = None
    rally_attempted: bool = False
    pa: PA = PA()


class Engagement(Input):
    id: Annotated[str, Field(max_length=120)]
    attacker_id: Id
    defender_id: Id
    since_bound: Small = 0


class Options(Input):
    simple_generals: bool = False


class Pending(Input):
    impetuous: Annotated[list[Id], Field(max_length=caps.UNITS)] = []


class StateModel(Input):
    ruleset: Literal["heros"] = "heros"
    schema_version: Literal[1] = 1
    battle_id: Optional[Annotated[str, Field(max_length=120)]] = None
    status: Literal["ongoing", "ended"]
    result: Optional[Annotated[dict[str, Any], Field(max_length=20)]] = None
    turn: Annotated[int, Field(ge=1, le=200)]
    bound: Annotated[int, Field(ge=1, le=400)]
    active_side: Id
    first_side: Id
    max_turns: Optional[Annotated[int, Field(ge=1, le=99)]] = None
    options: Options = Options()
    map: MapDef
    sides: Annotated[list[SideState], Field(min_length=2, max_length=2)]
    corps: Annotated[list[CorpsState], Field(min_length=2, max_length=caps.CORPS)]
    units: Annotated[list[UnitState], Field(max_length=caps.UNITS)]
    characters: Annotated[list[CharacterState], Field(max_length=caps.CHARACTERS)]
    engagements: Annotated[list[Engagement], Field(max_length=caps.ENGAGEMENTS)] = []
    gods_pa: Annotated[dict[Id, PA], Field(max_length=caps.UNITS)] = {}
    pending: Pending = Pending()


def dump_state(model: StateModel) -> dict[str, Any]:
    """The state as plain JSON data (``class`` keys restored)."""
    return model.model_dump(by_alias=True)


def normalise(state: dict[str, Any]) -> dict[str, Any]:
    """EP values as JSON integers when integral (S9.0); the battle room's ``outcome`` and ``strength``."""
    for item in state["units"] + state["characters"]:
        item["ep"] = sheets.num(item["ep"])
    for corps in state["corps"]:
        for key in ("ep_total", "ep_lost", "rallied_at_loss"):
            if corps[key] is not None:
                corps[key] = sheets.num(corps[key])
    state["outcome"] = outcome_of(state)
    state["strength"] = strength_of(state)
    return state


def outcome_of(state: dict[str, Any]) -> dict[str, Any]:
    """Over once ``end-battle`` (or a broken army, S5.13) closed it; the winner of S5.15, a tie when none."""
    result = state.get("result") or {}
    if state["status"] != "ended":
        return outcome(over=False, reason="outcome.ongoing")
    winner = result.get("winner")
    return outcome(over=True, winner=winner, tie=winner is None, reason=f"outcome.{result.get('reason', 'gm_decision')}")


def strength_of(state: dict[str, Any]) -> dict[str, float]:
    """Each side's morale points (EP) not yet lost, summed over its corps (S4.6): what the timeline charts."""
    out: dict[str, float] = {s["id"]: 0 for s in state["sides"]}
    for corps in state["corps"]:
        if corps["side"] in out:
            out[corps["side"]] += corps["ep_total"] - corps["ep_lost"]
    return {side: sheets.num(value) for side, value in out.items()}


class Battle:
    """One battle state being changed by a round, with its dice, log and events."""

    def __init__(self, state: dict[str, Any], dice: Dice, log: Log):
        self.s = state
        self.dice = dice
        self.log = log
        self.events: list[dict[str, Any]] = []
        self.units = {u["id"]: u for u in state["units"]}
        self.chars = {c["id"]: c for c in state["characters"]}
        self.corps = {c["id"]: c for c in state["corps"]}
        self.sides = {s["id"]: s for s in state["sides"]}
        self.hexes = {hexgrid.key(h): h for h in state["map"]["hexes"]}

    # -- events -----------------------------------------------------------------
    def event(self, type_: str, visible_to: str = "all", **fields: Any) -> None:
        self.events.append({"type": type_, "visible_to": visible_to, **fields})

    def unit_event(self, type_: str, unit: dict[str, Any], **fields: Any) -> None:
        """An event about a unit: only its own side sees it while the unit is hidden (S7.14)."""
        self.event(type_, unit["side"] if unit.get("hidden") else "all", **fields)

    # -- sides ------------------------------------------------------------------
    @property
    def active(self) -> str:
        return self.s["active_side"]

    @property
    def passive(self) -> str:
        return self.other(self.active)

    def other(self, side: str) -> str:
        return next(s for s in self.sides if s != side)

    def side_corps(self, side: str) -> list[dict[str, Any]]:
        return [c for c in self.s["corps"] if c["side"] == side]

    # -- map --------------------------------------------------------------------
    def hex(self, h: hexgrid.Hex) -> dict[str, Any]:
        found = self.hexes.get(hexgrid.key(h))
        return found if found is not None else {"col": h["col"], "row": h["row"], **HEX_DEFAULTS}

    def inside(self, h: hexgrid.Hex) -> bool:
        return hexgrid.inside(h, self.s["map"]["width"], self.s["map"]["height"])

    # -- occupancy --------------------------------------------------------------
    def on_map(self, unit: dict[str, Any]) -> bool:
        return unit["status"] == "active" and unit["position"] is not None

    def grounded(self, unit: dict[str, Any]) -> bool:
        """On the map and not at high altitude: it occupies its hex (S7.3)."""
        return self.on_map(unit) and not unit["high_altitude"]

    def units_at(self, h: hexgrid.Hex) -> list[dict[str, Any]]:
        col, row = h["col"], h["row"]  # the cheap test first: this runs for every step of every path
        return [u for u in self.s["units"] if (p := u["position"]) is not None and p["col"] == col and p["row"] == row
                and self.grounded(u)]

    def chars_at(self, h: hexgrid.Hex) -> list[dict[str, Any]]:
        col, row = h["col"], h["row"]
        return [c for c in self.s["characters"] if (p := c["position"]) is not None and p["col"] == col
                and p["row"] == row and c["status"] == "active" and not self.char_aloft(c)]

    def lone_at(self, h: hexgrid.Hex) -> list[dict[str, Any]]:
        return [c for c in self.chars_at(h) if c["stacked_on"] is None]

    def char_aloft(self, c: dict[str, Any]) -> bool:
        return c["stacked_on"] is not None and self.units[c["stacked_on"]]["high_altitude"]

    def stacked_on(self, unit: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in self.s["characters"] if c["stacked_on"] == unit["id"] and c["status"] == "active"]

    def front_unit(self, h: hexgrid.Hex) -> dict[str, Any] | None:
        units = self.units_at(h)
        for u in units:
            if u["troop_type"] != "Av" and u["rank"] == "front":
                return u
        for u in units:
            if u["troop_type"] != "Av":
                return u
        return next(iter(units), None)

    def rear_unit(self, h: hexgrid.Hex) -> dict[str, Any] | None:
        front = self.front_unit(h)
        return next((u for u in self.units_at(h) if u is not front and u["troop_type"] != "Av"), None)

    def stacked_adventurer(self, h: hexgrid.Hex) -> dict[str, Any] | None:
        front = self.front_unit(h)
        if front is None or front["troop_type"] == "Av":
            return None
        return next((u for u in self.units_at(h) if u["troop_type"] == "Av"), None)

    def side_at(self, h: hexgrid.Hex) -> str | None:
        units = self.units_at(h)
        if units:
            return units[0]["side"]
        chars = self.chars_at(h)
        return chars[0]["side"] if chars else None

    def visible_enemy_units(self, side: str) -> list[dict[str, Any]]:
        return [u for u in self.s["units"] if u["side"] != side and self.grounded(u) and not u["hidden"]]

    def normalise_ranks(self, h: hexgrid.Hex | None) -> None:
        """A rear rank without a front rank becomes the front (S5.8 step 8)."""
        if h is None:
            return
        units = [u for u in self.units_at(h) if u["troop_type"] != "Av"]
        if units and not any(u["rank"] == "front" for u in units):
            units[0]["rank"] = "front"
        for u in self.units_at(h):
            if u["troop_type"] == "Av":
                u["rank"] = "front"

    # -- combatants ---------------------------------------------------------------
    def combatant_ref(self, cid: str) -> tuple[str, Any] | None:
        """``("unit", unit)`` or ``("lone", [characters])`` for a combatant id, else ``None``."""
        if cid in self.units:
            return "unit", self.units[cid]
        c = self.chars.get(cid)
        if c is not None and c["status"] == "active" and c["stacked_on"] is None and c["position"] is not None:
            return "lone", self.lone_at(c["position"])
        return None

    def position_of(self, cid: str) -> hexgrid.Hex | None:
        if cid in self.units:
            u = self.units[cid]
            return u["position"] if self.grounded(u) else None
        c = self.chars.get(cid)
        return c["position"] if c is not None and c["status"] == "active" else None

    def side_of(self, cid: str) -> str | None:
        if cid in self.units:
            return self.units[cid]["side"]
        if cid in self.chars:
            return self.chars[cid]["side"]
        return None

    def engaged_ids(self) -> set[str]:
        return {e[k] for e in self.s["engagements"] for k in ("attacker_id", "defender_id")}

    def engaged_with(self, cid: str) -> list[str]:
        found = []
        for e in self.s["engagements"]:
            if e["attacker_id"] == cid:
                found.append(e["defender_id"])
            elif e["defender_id"] == cid:
                found.append(e["attacker_id"])
        return found

    def in_engagement(self, cid: str) -> bool:
        return any(cid in (e["attacker_id"], e["defender_id"]) for e in self.s["engagements"])

    def drop_engagements(self, cid: str) -> None:
        self.s["engagements"] = [e for e in self.s["engagements"] if cid not in (e["attacker_id"], e["defender_id"])]

    # -- characters ----------------------------------------------------------------
    def general_of(self, corps: dict[str, Any]) -> dict[str, Any]:
        return self.chars[corps["general_id"]]

    def present(self, c: dict[str, Any]) -> bool:
        """Not dead, captured, unconscious or at high altitude (S5.4)."""
        return (c["status"] == "active" and c["wound_state"] not in ("unconscious", "dead")
                and c["position"] is not None and not self.char_aloft(c))

    def army_has_mounted(self, side: str) -> bool:
        return sheets.army_has_mounted([u["troop_type"] for u in self.s["units"] if u["side"] == side])

    def move_character(self, c: dict[str, Any], to: hexgrid.Hex | None, hexes: int) -> None:
        c["position"] = hexgrid.copy(to)
        c["moved_hexes"] += hexes
        if hexes > 0:
            c["has_moved"] = True

    def move_unit(self, unit: dict[str, Any], to: hexgrid.Hex, hexes: int, carry_adventurer: bool = False) -> None:
        """Move a unit and the characters on it (S5.5.4 bookkeeping)."""
        start = unit["position"]
        unit["position"] = hexgrid.copy(to)
        for c in self.stacked_on(unit):
            self.move_character(c, to, hexes)
        if carry_adventurer:
            av = next((u for u in self.units_at(start) if u["troop_type"] == "Av" and u is not unit), None)
            if av is not None:
                av["position"] = hexgrid.copy(to)
                for c in self.stacked_on(av):
                    self.move_character(c, to, hexes)
        self.normalise_ranks(start)


class StillBattle(Battle):
    """A battle state that is only read (declaration options): who stands where is indexed once.

    The rule code asks "who is in this hex" for every step of every path it
    weighs; on a state nothing changes, one index answers in constant time what
    :class:`Battle` finds by scanning every unit.
    """

    def __init__(self, state: dict[str, Any], dice: Dice, log: Log):
        super().__init__(state, dice, log)
        self._units_at: dict[tuple, list] = {}
        for u in state["units"]:
            if self.grounded(u):
                self._units_at.setdefault(hexgrid.key(u["position"]), []).append(u)
        self._chars_at: dict[tuple, list] = {}
        for c in state["characters"]:
            if c["status"] == "active" and c["position"] is not None and not self.char_aloft(c):
                self._chars_at.setdefault(hexgrid.key(c["position"]), []).append(c)
        self._visible: dict[str, list] = {}

    def units_at(self, h: hexgrid.Hex) -> list[dict[str, Any]]:
        return list(self._units_at.get(hexgrid.key(h), ()))

    def chars_at(self, h: hexgrid.Hex) -> list[dict[str, Any]]:
        return list(self._chars_at.get(hexgrid.key(h), ()))

    def visible_enemy_units(self, side: str) -> list[dict[str, Any]]:
        if side not in self._visible:
            self._visible[side] = super().visible_enemy_units(side)
        return self._visible[side]
