"""What the GM and each side may declare for a round (S5.3, S9.13), and the checks of it.

The same rules answer ``resolve-round`` (a declaration breaking them is
invalid input) and ``declaration-options`` (which lists only what they allow),
so a form built from the options is always accepted.
"""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.synapse.entities import MOD, Distance
from rules.synapse.messages import MESSAGES
from rules.synapse.state import MAX_FORMATIONS, is_out, is_present, ordered

FormationId = Annotated[str, Field(max_length=80)]
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
    encircled: list[FormationId] = Field(default_factory=list, max_length=200)
    command_modifiers: CommandModifiers = Field(default_factory=CommandModifiers)
    rally_modifiers: dict[FormationId, int] = Field(default_factory=dict, max_length=MAX_FORMATIONS)
    formation_modifiers: dict[FormationId, FormationModifiers] = Field(default_factory=dict, max_length=MAX_FORMATIONS)


class Order(Input):
    action: Action
    target: str | None = Field(None, max_length=80)


class SideDeclarations(Input):
    retreat: bool = False
    commit_reserve: bool = False
    rally: list[FormationId] = Field(default_factory=list, max_length=200)
    orders: dict[FormationId, Order] = Field(default_factory=dict, max_length=MAX_FORMATIONS)


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


class Problem(NamedTuple):
    """Why a declared value is refused: the English sentence, the rule, and its message key and params
    (templates in :mod:`rules.synapse.messages`) for the web to say it in the reader's language."""

    text: str
    rule: str
    key: str
    params: dict


def problem(rule: str, key: str, **params) -> Problem:
    return Problem(MESSAGES[key]["en"].format(**params), rule, key, params)


def target_problem(state: dict, attacker: dict, target_id: str | None, enemy_commits: bool | None) -> Problem | None:
    """Why ``attacker`` may not attack ``target_id``, or ``None`` when it may (S5.3)."""
    if target_id is None:
        return problem("S5.3", "refusal.no_target")
    target = state["formations"].get(target_id)
    if target is None:
        return problem("S5.3", "refusal.no_formation", formation=target_id)
    if target["side"] == attacker["side"]:
        return problem("S5.3", "refusal.own_target")
    if not is_present(target):
        return problem("S5.3", "refusal.target_out")
    if state["mode"] == "vehicles" or attacker["combat_mode"] == "ranged":
        return None
    if target["status"] == "routed" or target["combat_mode"] == "melee":
        return None
    screened = melee_screen(state, target["side"], enemy_commits)
    if screened is None:
        # Worded so as not to reveal the enemy's secret reserve (S11.2).
        return problem("S7.4", "refusal.may_be_screened")
    if screened:
        return problem("S7.4", "refusal.screened")
    return None


def allowed_actions(state: dict, f: dict) -> dict[str, Problem | None]:
    """Each action with the reason it is forbidden to formation ``f`` (``None``: allowed)."""
    vehicles = state["mode"] == "vehicles"
    routed = f["status"] == "routed"
    out: dict[str, Problem | None] = {"hold": None}
    if vehicles:
        out["attack"] = None
        out["retreat"] = None
        out["riposte"] = problem("S5.3", "refusal.no_vehicle_riposte")
    else:
        out["attack"] = problem("S5.3", "refusal.routed_attack") if routed else None
        out["riposte"] = None if routed else problem("S5.3", "refusal.riposte_routed_only")
        out["retreat"] = problem("S5.3", "refusal.retreat_vehicles_only")
    return out


def declaration_problems(state: dict, decl: Declarations) -> dict[str, Problem]:
    """S5.3 and S9.13: every declared value the rules forbid, by its JSON path.

    A melee formation's charge at ranged troops is judged on what its side
    could know when it declared: the enemy's reserve and its commitment are
    secret (S11.2), so a charge that such a reserve screens is not refused
    here; ``resolve-round`` stops it at the screen instead (S7.4).
    """
    problems: dict[str, Problem] = {}
    formations = state["formations"]
    vehicles = state["mode"] == "vehicles"
    gm = decl.gm
    for index, fid in enumerate(gm.encircled):
        if fid not in formations:
            problems[f"declarations.gm.encircled[{index}]"] = problem("S9.13", "refusal.no_formation", formation=fid)
    for name in ("rally_modifiers", "formation_modifiers"):
        for fid, value in getattr(gm, name).items():
            if fid not in formations:
                problems[f"declarations.gm.{name}.{fid}"] = problem("S9.13", "refusal.no_formation", formation=fid)
            elif name == "rally_modifiers" and not -MOD <= value <= MOD:
                problems[f"declarations.gm.{name}.{fid}"] = problem("S9.13", "refusal.modifier_range", low=-MOD,
                                                                    high=MOD)
    sides = {"A": decl.sides.A, "B": decl.sides.B}
    for side, d in sides.items():
        base = f"declarations.sides.{side}"
        if d.retreat and vehicles:
            problems[f"{base}.retreat"] = problem("S5.3", "refusal.no_army_retreat")
        if d.commit_reserve and not uncommitted_reserve(state, side):
            problems[f"{base}.commit_reserve"] = problem("S5.4", "refusal.no_reserve")
        if d.rally and vehicles:
            problems[f"{base}.rally"] = problem("H26", "refusal.no_vehicle_rally")
        seen: set[str] = set()
        for index, fid in enumerate(d.rally):
            f = formations.get(fid)
            if f is None or f["side"] != side or f["status"] != "routed" or fid in seen:
                problems[f"{base}.rally[{index}]"] = problem("S5.7", "refusal.rally_not_routed")
            seen.add(fid)
        commits = commits_reserve(state, side, d.commit_reserve)
        for fid, order in d.orders.items():
            where = f"{base}.orders.{fid}"
            f = formations.get(fid)
            if f is None or f["side"] != side:
                problems[where] = problem("S5.3", "refusal.not_own", side=side)
                continue
            if is_out(f) or (f["status"] == "reserve" and not commits):
                problems[where] = problem("S5.3", "refusal.cannot_act")
                continue
            forbidden = allowed_actions(state, f)[order.action]
            if forbidden:
                problems[f"{where}.action"] = forbidden
                continue
            if order.action == "attack":
                found = target_problem(state, f, order.target, commits_reserve(state, enemy(side), False))
                if found:
                    problems[f"{where}.target"] = found
    return problems


def check_declarations(state: dict, decl: Declarations) -> None:
    """Refuse, with its JSON path, anything :func:`declaration_problems` finds."""
    problems = {path: found.text for path, found in declaration_problems(state, decl).items()}
    if problems:
        first = next(iter(problems))
        raise InvalidInput(f"Invalid declaration at {first}: {problems[first]}.", problems)
