"""What the GM and each side may declare for a round (S5.3, S9.13), and the checks of it.

The same rules answer ``resolve-round`` (a declaration breaking them is
invalid input) and ``declaration-options`` (which lists only what they allow),
so a form built from the options is always accepted.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.synapse.entities import MOD, Distance
from rules.synapse.state import is_out, is_present, ordered

Action = Literal["attack", "hold", "riposte", "retreat"]
SIDES = ("A", "B")
LAND_ACTIONS = ("attack", "hold", "riposte")


class WeatherPatch(Input):
    visibility: Literal["good", "poor", "very_poor"] | None = None
    strong_wind: bool | None = None
    extreme_temperature: bool | None = None
    gruelling_climate: bool | None = None


class FormationModifiers(Input):
    attack: int = Field(0, ge=-MOD, le=MOD)
    defence: int = Field(0, ge=-MOD, le=MOD)
    ranged_cover: int = Field(0, ge=-MOD, le=MOD)
    distance: Distance | None = None
    attack_power_factor: Literal["full", "half", "none"] = "full"


class CommandModifiers(Input):
    A: int = Field(0, ge=-20, le=20)
    B: int = Field(0, ge=-20, le=20)


class GmDeclarations(Input):
    new_command_test: bool = False
    end_battle: bool = False
    weather: WeatherPatch = Field(default_factory=WeatherPatch)
    engagement_distance: Distance | None = None
    mobility_edge: Literal["A", "B", "none"] | None = None
    numbers_advantage_allowed: bool | None = None
    surprise_allowed: bool | None = None
    encircled: list[str] = Field(default_factory=list, max_length=200)
    command_modifiers: CommandModifiers = Field(default_factory=CommandModifiers)
    rally_modifiers: dict[str, int] = Field(default_factory=dict)
    formation_modifiers: dict[str, FormationModifiers] = Field(default_factory=dict)


class Order(Input):
    action: Action
    target: str | None = Field(None, max_length=80)


class SideDeclarations(Input):
    retreat: bool = False
    commit_reserve: bool = False
    rally: list[str] = Field(default_factory=list, max_length=200)
    orders: dict[str, Order] = Field(default_factory=dict)


class SidesDeclarations(Input):
    A: SideDeclarations = Field(default_factory=SideDeclarations)
    B: SideDeclarations = Field(default_factory=SideDeclarations)


class Declarations(Input):
    gm: GmDeclarations = Field(default_factory=GmDeclarations)
    sides: SidesDeclarations = Field(default_factory=SidesDeclarations)


def enemy(side: str) -> str:
    return "B" if side == "A" else "A"


def uncommitted_reserve(state: dict, side: str) -> list[dict]:
    return [f for f in ordered(state) if f["side"] == side and f["status"] == "reserve"]


def commits_reserve(state: dict, side: str, declared: bool) -> bool:
    """S5.4: a reserve enters on the side's word, or by itself when nothing else is left."""
    return bool(uncommitted_reserve(state, side)) and (declared or state["armies"][side]["auto_commit_reserve"])


def melee_screen(state: dict, side: str, commits: bool | None) -> bool | None:
    """S5.3 / S7.4: does ``side`` keep an active melee-mode formation this round?

    ``commits`` is whether it commits its reserve; ``None`` (not known, the
    declarations being secret) answers ``None`` when the answer depends on it.
    """
    if any(f["side"] == side and f["status"] == "active" and f["combat_mode"] == "melee" for f in ordered(state)):
        return True
    reserve_melee = any(f["combat_mode"] == "melee" for f in uncommitted_reserve(state, side))
    if not reserve_melee:
        return False
    if state["armies"][side]["auto_commit_reserve"]:
        return True
    return None if commits is None else commits


def target_problem(state: dict, attacker: dict, target_id: str | None, enemy_commits: bool | None) -> tuple[str, str] | None:
    """Why ``attacker`` may not attack ``target_id`` (problem, rule), or ``None`` when it may (S5.3)."""
    if target_id is None:
        return "an attack needs a target", "S5.3"
    target = state["formations"].get(target_id)
    if target is None:
        return f"no formation {target_id!r}", "S5.3"
    if target["side"] == attacker["side"]:
        return "a formation attacks only enemy formations", "S5.3"
    if not is_present(target):
        return "the target is not on the battlefield", "S5.3"
    if state["mode"] == "vehicles" or attacker["combat_mode"] == "ranged":
        return None
    if target["status"] == "routed" or target["combat_mode"] == "melee":
        return None
    screened = melee_screen(state, target["side"], enemy_commits)
    if screened is None:
        # Worded so as not to reveal the enemy's secret reserve (S11.2).
        return "ranged troops cannot be charged while their side may still field a melee formation", "S7.4"
    if screened:
        return "ranged troops cannot be charged while their side keeps a melee formation", "S7.4"
    return None


def allowed_actions(state: dict, f: dict) -> dict[str, tuple[str, str] | None]:
    """Each action with the reason it is forbidden to formation ``f`` (``None``: allowed)."""
    vehicles = state["mode"] == "vehicles"
    routed = f["status"] == "routed"
    out: dict[str, tuple[str, str] | None] = {"hold": None}
    if vehicles:
        out["attack"] = None
        out["retreat"] = None
        out["riposte"] = ("no riposte in a vehicle battle", "S5.3")
    else:
        out["attack"] = ("a routed formation may only hold or riposte", "S5.3") if routed else None
        out["riposte"] = None if routed else ("only a routed formation ripostes", "S5.3")
        out["retreat"] = ("a formation retreats alone only in a vehicle battle", "S5.3")
    return out


def check_declarations(state: dict, decl: Declarations) -> None:
    """S5.3 and S9.13: refuse, with its JSON path, anything the rules forbid."""
    problems: dict[str, str] = {}
    formations = state["formations"]
    vehicles = state["mode"] == "vehicles"
    gm = decl.gm
    for index, fid in enumerate(gm.encircled):
        if fid not in formations:
            problems[f"declarations.gm.encircled[{index}]"] = f"no formation {fid!r}"
    for name in ("rally_modifiers", "formation_modifiers"):
        for fid, value in getattr(gm, name).items():
            if fid not in formations:
                problems[f"declarations.gm.{name}.{fid}"] = f"no formation {fid!r}"
            elif name == "rally_modifiers" and not -MOD <= value <= MOD:
                problems[f"declarations.gm.{name}.{fid}"] = f"must be between {-MOD} and {MOD}"
    sides = {"A": decl.sides.A, "B": decl.sides.B}
    for side, d in sides.items():
        base = f"declarations.sides.{side}"
        if d.retreat and vehicles:
            problems[f"{base}.retreat"] = "no army retreat in a vehicle battle"
        if d.commit_reserve and not uncommitted_reserve(state, side):
            problems[f"{base}.commit_reserve"] = "the side has no uncommitted reserve"
        if d.rally and vehicles:
            problems[f"{base}.rally"] = "no rally in a vehicle battle"
        seen: set[str] = set()
        for index, fid in enumerate(d.rally):
            f = formations.get(fid)
            if f is None or f["side"] != side or f["status"] != "routed" or fid in seen:
                problems[f"{base}.rally[{index}]"] = "must be an own routed formation, listed once"
            seen.add(fid)
        commits = commits_reserve(state, side, d.commit_reserve)
        for fid, order in d.orders.items():
            where = f"{base}.orders.{fid}"
            f = formations.get(fid)
            if f is None or f["side"] != side:
                problems[where] = f"not a formation of side {side}"
                continue
            if is_out(f) or (f["status"] == "reserve" and not commits):
                problems[where] = "this formation cannot act this round"
                continue
            forbidden = allowed_actions(state, f)[order.action]
            if forbidden:
                problems[f"{where}.action"] = forbidden[0]
                continue
            if order.action == "attack":
                enemy_commits = commits_reserve(state, enemy(side), sides[enemy(side)].commit_reserve)
                problem = target_problem(state, f, order.target, enemy_commits)
                if problem:
                    problems[f"{where}.target"] = problem[0]
    if problems:
        first = next(iter(problems))
        raise InvalidInput(f"Invalid declaration at {first}: {problems[first]}.", problems)
