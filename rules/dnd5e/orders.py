"""The declarations of a round (S9.13.2) and the checks of S9.13.3.

Orders that can never be legal are invalid input (exit 2, with the JSON path
of the offending field); orders that only became impossible are cut short
later, during resolution (H5).  The predicates here also feed
``declaration-options``, so a form built from them is always accepted.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

from pydantic import Field, model_validator

from rules.dnd5e import caps
from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import AttackName, Configuration, Direction, Ident, Modifier, Square
from rules.dnd5e.geometry import dm
from rules.dnd5e.sheets import attacks_per_action, reach_bonus_attack
from rules.dnd5e.tables import ACTION_WHO, BROKEN_ACTIONS, NUMBERS
from rules.errors import InvalidInput
from rules.model import Input

Path = Annotated[list[Square], Field(max_length=caps.PATH)]
UnitAction = Literal["attack", "cast_spell", "configure", "dash", "hide", "disengage", "none"]
StandAction = Literal["attack", "dash", "disengage", "hide", "none"]
SoloAction = Literal["attack", "cast_spell", "dash", "hide", "join", "disengage", "none"]
BonusAction = Literal["prepare", "motivate", "rally", "become_commander", "cease_commander"]


class AttackOrder(Input):
    attack: AttackName
    target: Ident
    reach_bonus: bool = False
    advantage: bool = False
    disadvantage: bool = False
    to_hit_modifier: Modifier = 0
    damage_modifier: Modifier = 0


class SpellOrder(Input):
    name: AttackName
    targets: Annotated[list[Ident], Field(max_length=50)] = []
    origin: Square | None = None
    direction: Direction | None = None
    extra_side: Literal["high", "low"] = "high"
    advantage: bool = False
    disadvantage: bool = False
    to_hit_modifier: Modifier = 0
    damage_modifier: Modifier = 0


Attacks = Annotated[list[AttackOrder], Field(max_length=12)]


class StandOrder(Input):
    stand: Ident
    action: StandAction | None = None
    move: Path = []
    move_after: Path = []
    road_step: Direction | None = None
    attacks: Attacks = []
    support: Ident | None = None
    spell: SpellOrder | None = None
    hide: bool = True


class UnitOrders(Input):
    action: UnitAction = "none"
    configuration: Configuration | None = None
    stands: Annotated[list[StandOrder], Field(max_length=caps.STANDS_PER_UNIT)] = []


class UnitDeclaration(UnitOrders):
    if_rallied: UnitOrders | None = None


class SoloOrder(Input):
    action: SoloAction = "none"
    move: Path = []
    move_after: Path = []
    attacks: Attacks = []
    spell: SpellOrder | None = None
    hide: bool = True
    join: Ident | None = None
    detach_to: Square | None = None
    switch_to: Ident | None = None
    detach_when: Literal["before_action", "after_action"] = "before_action"
    timing: Literal["before_stands", "after_stands"] | None = None
    bonus_action: BonusAction | None = None
    road_step: Direction | None = None


class CasualtyShift(Input):
    if_eliminated: Ident
    shift: Ident


class Fallback(Input):
    reattach_to: Ident | None = None
    position: Square | None = None

    @model_validator(mode="after")
    def _one(self) -> "Fallback":
        if (self.reattach_to is None) == (self.position is None):
            raise ValueError("give exactly one of reattach_to and position")
        return self


AdjustmentType = Literal["set_hp", "move", "place_solo", "remove", "set_hidden", "set_broken", "set_configuration",
                         "set_condition", "set_commander", "set_spell_uses"]


class Adjustment(Input):
    type: AdjustmentType
    id: Ident
    hp: Annotated[int, Field(ge=0, le=2000)] | None = None
    position: Square | None = None
    hidden: bool | None = None
    broken: bool | None = None
    configuration: Configuration | None = None
    condition: Literal["active", "dying", "stable", "dead"] | None = None
    commander: Ident | None = None
    spell: AttackName | None = None
    uses: Annotated[int, Field(ge=0, le=99)] | None = None


class VpAward(Input):
    side: Ident
    vp: Annotated[int, Field(ge=-100, le=100)]
    reason: Annotated[str, Field(max_length=200)] = ""


class GmDeclaration(Input):
    adjustments: Annotated[list[Adjustment], Field(max_length=caps.ADJUSTMENTS)] = []
    isolation_overrides: Annotated[dict[Ident, bool], Field(max_length=caps.STANDS + caps.SOLOS)] = {}
    hide_dc: Annotated[int, Field(ge=0, le=40)] | None = None
    custom_achieved: Annotated[list[Ident], Field(max_length=caps.OBJECTIVES)] = []
    award_vp: Annotated[list[VpAward], Field(max_length=20)] = []


class Declarations(Input):
    units: Annotated[dict[Ident, UnitDeclaration], Field(max_length=caps.UNITS)] = {}
    solos: Annotated[dict[Ident, SoloOrder], Field(max_length=caps.SOLOS)] = {}
    casualty_shifts: Annotated[list[CasualtyShift], Field(max_length=caps.STANDS)] = []
    solo_fallbacks: Annotated[dict[Ident, Fallback], Field(max_length=caps.SOLOS)] = {}
    gm: GmDeclaration = GmDeclaration()


def bad(path: str, problem: str) -> InvalidInput:
    return InvalidInput(f"Invalid declaration at {path}: {problem}.", {path: problem})


# -- what the rules allow (shared with declaration-options) ------------------------


def unit_actions(b: Battle, uid: str, *, broken: bool | None = None) -> dict[str, str | None]:
    """Every unit action → None if allowed, else the reason it is forbidden (S6.5)."""
    u = b.units[uid]
    broken = u["broken"] if broken is None else broken
    out: dict[str, str | None] = {}
    for action in ("attack", "cast_spell", "configure", "dash", "hide", "disengage", "none"):
        who = ACTION_WHO[action]["regiment_stand" if u["type"] == "regiment" else "skirmisher_stand"]
        reason = None
        if broken and action not in BROKEN_ACTIONS + ["none"]:
            reason = "a broken unit may only Disengage or do nothing (S5.13.3)"
        elif who is False:
            reason = f"{u['type']} cannot take the {action} action (S6.5)"
        elif who == "not in defense" and u["configuration"] == "defense":
            reason = "a regiment in the defense configuration cannot attack (S6.4)"
        elif action == "attack" and not any(b.profile(s).attacks for s in u["stands"]):
            reason = "no stand of the unit has an attack (S6.5)"
        elif action == "cast_spell" and not any(b.profile(s).spells for s in u["stands"]):
            reason = "no stand of the unit has a spell (S6.5)"
        out[action] = reason
    return out


def stand_own_actions(b: Battle, uid: str) -> list[str]:
    """Under Cast a Spell, what a stand without spells may do instead (S5.8.2)."""
    allowed = unit_actions(b, uid, broken=False)
    return [a for a in ("attack", "dash", "disengage", "hide", "none") if allowed[a] is None]


def attack_list_problem(b: Battle, cid: str, attacks: list[AttackOrder]) -> tuple[int, str, str] | None:
    """S4.14: (index, field, problem) of the first bad attack of a list, or None."""
    p = b.profile(cid)
    is_stand = cid in b.stands
    threshold = dm(NUMBERS["reach_bonus_threshold_m"])
    plain = []
    bonus = 0
    for j, a in enumerate(attacks):
        attack = p.attack(a.attack)
        if attack is None:
            return j, "attack", "the profile has no such attack"
        if a.reach_bonus:
            bonus += 1
            if not (reach_bonus_attack(p, is_stand) and attack.kind == "melee" and dm(attack.reach_m) >= threshold):
                return j, "reach_bonus", "the reach bonus attack needs a stand and a melee attack of reach 3 m or more"
            if bonus > 1:
                return j, "reach_bonus", "only one reach bonus attack"
        else:
            plain.append(a.attack)
            if p.multiattack:
                if Counter(plain) - Counter(p.multiattack):
                    return j, "attack", "the attacks must be part of the Multiattack"
            elif len(plain) > attacks_per_action(p):
                return j, "attack", "one attack per Attack action without Multiattack"
        if not target_is_foe(b, cid, a.target):
            return j, "target", "must be an enemy stand, an enemy solo or an objective square"
    return None


def target_is_foe(b: Battle, cid: str, target: str) -> bool:
    if target in b.squares:
        return True
    return (target in b.stands or target in b.solos) and b.enemy_of(cid, target)


def spell_problem(b: Battle, cid: str, order: SpellOrder) -> tuple[str, str] | None:
    """S9.13.3 item 8: (field, problem) of a bad spell order, or None."""
    p = b.profile(cid)
    spell = p.spell(order.name)
    entity = b.stands.get(cid) or b.solos[cid]
    if spell is None:
        return "name", "the profile has no such spell"
    if spell.uses is not None and entity["spell_uses"].get(spell.name, 0) <= 0:
        return "name", "no use of this spell is left"
    if spell.targeting == "targeted":
        if not order.targets:
            return "targets", "a targeted spell needs targets"
        slots = 0
        for k, t in enumerate(order.targets):
            if not target_is_foe(b, cid, t):
                return f"targets[{k}]", "must be an enemy stand, an enemy solo or an objective square"
            if cid in b.solos and t in b.squares:
                return f"targets[{k}]", "a solo's targeted spell cannot target an objective square"
            if cid in b.solos and t in b.stands and spell.max_targets < 5:
                return f"targets[{k}]", "a solo's spell reaches stands only if it targets 5 or more creatures"
            slots += 5 if (cid in b.solos and t in b.stands) else 1
        if len(set(order.targets)) != len(order.targets):
            return "targets", "a target is listed twice"
        if slots > spell.max_targets:
            return "targets", f"uses {slots} target slots, the spell has {spell.max_targets}"
    else:
        if order.origin is None:
            return "origin", "an area spell needs an origin"
        if spell.area.shape in ("cone", "line") and order.direction is None:
            return "direction", "a cone or a line needs a direction"
    return None


def bonus_problem(b: Battle, hid: str, bonus: str, joining: bool) -> str | None:
    """S9.13.3 item 7 for bonus actions, judged at the start of the round."""
    h = b.solos[hid]
    commands = next((uid for uid, u in b.units.items() if u["commander"] == hid), None)
    if bonus in ("prepare", "motivate", "cease_commander") and commands is None:
        return "only a commander may do this"
    if bonus == "rally" and (commands is None or not b.units[commands]["broken"]):
        return "only the commander of a broken unit may rally it"
    if bonus == "become_commander" and h["attached_to"] is None and not joining:
        return "a solo must be attached, or joining, to become commander"
    return None


# -- the checks --------------------------------------------------------------------


def validate(b: Battle, decl: Declarations) -> None:
    """S9.13.3, against the state at the start of the round (paths: :func:`validate_paths`)."""
    root = "declarations"
    for uid, orders in decl.units.items():
        path = f"{root}.units.{uid}"
        if uid not in b.units:
            raise bad(path, "unknown unit")
        if b.units[uid]["eliminated_round"] is not None:
            raise bad(path, "the unit is eliminated")
        _validate_unit_orders(b, uid, orders, path, broken=b.units[uid]["broken"])
        if orders.if_rallied is not None:
            _validate_unit_orders(b, uid, orders.if_rallied, f"{path}.if_rallied", broken=False)
    for hid, order in decl.solos.items():
        _validate_solo(b, hid, order, f"{root}.solos.{hid}")
    for i, shift in enumerate(decl.casualty_shifts):
        path = f"{root}.casualty_shifts[{i}]"
        for field in ("if_eliminated", "shift"):
            if getattr(shift, field) not in b.stands:
                raise bad(f"{path}.{field}", "unknown stand")
        if b.side(shift.if_eliminated) != b.side(shift.shift):
            raise bad(f"{path}.shift", "both stands must be of the same side")
    for hid, fb in decl.solo_fallbacks.items():
        path = f"{root}.solo_fallbacks.{hid}"
        if hid not in b.solos:
            raise bad(path, "unknown solo")
        if fb.reattach_to is not None and (fb.reattach_to not in b.stands or b.side(fb.reattach_to) != b.side(hid)):
            raise bad(f"{path}.reattach_to", "must be a stand of the solo's side")
    gm = decl.gm
    for cid in gm.isolation_overrides:
        if cid not in b.stands and cid not in b.solos:
            raise bad(f"{root}.gm.isolation_overrides.{cid}", "unknown stand or solo")
    for i, oid in enumerate(gm.custom_achieved):
        if b.st["objectives"].get(oid, {}).get("type") != "custom":
            raise bad(f"{root}.gm.custom_achieved[{i}]", "not a custom objective")
    for i, award in enumerate(gm.award_vp):
        if award.side not in b.st["sides"]:
            raise bad(f"{root}.gm.award_vp[{i}].side", "unknown side")


def _validate_unit_orders(b: Battle, uid: str, orders: UnitOrders, path: str, broken: bool) -> None:
    u = b.units[uid]
    reason = unit_actions(b, uid, broken=broken)[orders.action]
    if reason:
        raise bad(f"{path}.action", reason)
    if orders.action == "configure" and orders.configuration is None:
        raise bad(f"{path}.configuration", "Configure needs the new configuration")
    seen: set[str] = set()
    for i, so in enumerate(orders.stands):
        sp = f"{path}.stands[{i}]"
        sid = so.stand
        if sid not in b.stands or b.stands[sid]["unit"] != uid:
            raise bad(f"{sp}.stand", "not a stand of this unit")
        if not b.in_play(sid):
            raise bad(f"{sp}.stand", "the stand is not in play")
        if sid in seen:
            raise bad(f"{sp}.stand", "stand listed twice")
        seen.add(sid)
        p = b.profile(sid)
        action = orders.action
        if so.action is not None:
            if orders.action != "cast_spell" or p.spells:
                raise bad(f"{sp}.action", "a stand's own action is only for stands without spells under Cast a Spell")
            if so.action not in stand_own_actions(b, uid):
                raise bad(f"{sp}.action", "the unit could not take this action")
            action = so.action
        elif orders.action == "cast_spell" and not p.spells:
            action = "none"
        if so.attacks and action != "attack":
            raise bad(f"{sp}.attacks", "attacks need the Attack action")
        if so.support is not None:
            if action != "attack" or u["configuration"] != "support":
                raise bad(f"{sp}.support", "support needs the Attack action in the support configuration")
            if so.attacks:
                raise bad(f"{sp}.support", "a supporting stand gives up its attacks")
            if so.support == sid or so.support not in u["stands"]:
                raise bad(f"{sp}.support", "must name another stand of the unit")
        if so.spell is not None:
            if orders.action != "cast_spell" or not p.spells:
                raise bad(f"{sp}.spell", "a spell needs the Cast a Spell action and a stand with spells")
            problem = spell_problem(b, sid, so.spell)
            if problem:
                raise bad(f"{sp}.spell.{problem[0]}", problem[1])
        problem = attack_list_problem(b, sid, so.attacks)
        if problem:
            j, field, text = problem
            raise bad(f"{sp}.attacks[{j}].{field}", text)
        if so.move and so.move_after and u["type"] == "regiment":
            raise bad(f"{sp}.move_after", "a regiment stand moves before or after its action, not both")


def validate_paths(b: Battle, decl: Declarations, before: dict[str, list] | None = None) -> list[str]:
    """S9.13.3 item 6, after the GM adjustments: paths start from where the creatures now stand.

    A creature the adjustments took off the grid is skipped: its orders are cut short (H5).  So is
    one they moved (``before``: positions at the start of the round) whose path is well formed from
    where it stood: its controller could not know of the move, and the walk stops where the path
    breaks (S5.7.2 ``path_broken``).  Returns the ids whose paths were kept that way.
    """
    before = before or {}
    cut: list[str] = []

    def check(cid: str, move: list, move_after: list, prefix: str) -> None:
        try:
            validate_path(b, cid, move, move_after, prefix)
        except InvalidInput:
            start = before.get(cid)
            entity = b.stands.get(cid) or b.solos[cid]
            if start is None or start == entity["position"]:
                raise
            validate_path(b, cid, move, move_after, prefix, start=start)
            cut.append(cid)

    for uid, orders in decl.units.items():
        for key, unit_orders in (("", orders), (".if_rallied", orders.if_rallied)):
            for i, so in enumerate(unit_orders.stands if unit_orders else []):
                if b.in_play(so.stand) and b.stands[so.stand]["position"] is not None:
                    check(so.stand, so.move, so.move_after, f"declarations.units.{uid}{key}.stands[{i}].")
    for hid, o in decl.solos.items():
        if b.solos[hid]["position"] is not None:
            check(hid, o.move, o.move_after, f"declarations.solos.{hid}.")
    return cut


def validate_path(b: Battle, cid: str, move: list, move_after: list, path: str, start: list | None = None) -> None:
    """S5.7.1: one orthogonal step at a time from the position (or ``start``); off the grid only as the last anchor."""
    entity = b.stands.get(cid) or b.solos[cid]
    prev = entity["position"] if start is None else start
    anchors = [("move", i, p) for i, p in enumerate(move)] + [("move_after", i, p) for i, p in enumerate(move_after)]
    size = b.side_of_box(cid)
    for k, (name, i, p) in enumerate(anchors):
        if abs(prev[0] - p[0]) + abs(prev[1] - p[1]) != 1:
            raise bad(f"{path}{name}[{i}]", "each anchor must be one orthogonal step from the previous one")
        on_grid = 0 <= p[0] and 0 <= p[1] and p[0] + size <= b.terrain.width and p[1] + size <= b.terrain.height
        if not on_grid and k != len(anchors) - 1:
            raise bad(f"{path}{name}[{i}]", "only the last step may leave the grid")
        prev = p


def _validate_solo(b: Battle, hid: str, o: SoloOrder, path: str) -> None:
    if hid not in b.solos:
        raise bad(path, "unknown solo")
    h = b.solos[hid]
    if h["condition"] in ("dead", "fled") or (h["position"] is None and h["attached_to"] is None):
        raise bad(path, "the solo is dead, fled or awaiting placement")
    p = b.profile(hid)
    attached = h["attached_to"] is not None
    if o.road_step is not None:
        raise bad(f"{path}.road_step", "only stands take the road step")
    if attached:
        if o.action not in ("attack", "cast_spell", "none"):
            raise bad(f"{path}.action", "an attached solo may only attack, cast a spell or do nothing (H29)")
        if o.move or o.move_after:
            raise bad(f"{path}.move", "an attached solo moves with its stand")
        if o.join is not None:
            raise bad(f"{path}.join", "the solo is already attached")
        if o.switch_to is not None and o.switch_to not in b.stands:
            raise bad(f"{path}.switch_to", "unknown stand")
    else:
        for field in ("detach_to", "switch_to", "timing"):
            if getattr(o, field) is not None:
                raise bad(f"{path}.{field}", "only for an attached solo")
        if o.action == "join":
            if o.join is None:
                raise bad(f"{path}.join", "Join needs a stand")
            if o.join not in b.stands or b.side(o.join) != h["side"]:
                raise bad(f"{path}.join", "must be a stand of the solo's side")
            if not b.size_rule(hid, o.join):
                raise bad(f"{path}.join", "the solo is more than one size larger than the stand's creatures")
            if o.move_after:
                raise bad(f"{path}.move_after", "nothing may follow a Join")
    if o.action == "attack" and not p.attacks:
        raise bad(f"{path}.action", "the profile has no attack")
    if o.action == "cast_spell" and not p.spells:
        raise bad(f"{path}.action", "the profile has no spell")
    if o.attacks and o.action != "attack":
        raise bad(f"{path}.attacks", "attacks need the Attack action")
    problem = attack_list_problem(b, hid, o.attacks)
    if problem:
        j, field, text = problem
        raise bad(f"{path}.attacks[{j}].{field}", text)
    if o.spell is not None:
        if o.action != "cast_spell":
            raise bad(f"{path}.spell", "a spell needs the Cast a Spell action")
        problem = spell_problem(b, hid, o.spell)
        if problem:
            raise bad(f"{path}.spell.{problem[0]}", problem[1])
    if o.bonus_action is not None:
        reason = bonus_problem(b, hid, o.bonus_action, o.action == "join")
        if reason:
            raise bad(f"{path}.bonus_action", reason)
