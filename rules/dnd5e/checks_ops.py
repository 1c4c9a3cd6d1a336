"""Operations that resolve one roll situation described explicitly:
``resolve-attack``, ``resolve-spell``, ``commander-action``, ``morale-check``,
``death-saves`` and ``end-battle`` (S9.7, S9.8, S9.10-S9.12, S9.14).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.contract import outcome
from rules.dice import D20
from rules.dnd5e import ruleset
from rules.dnd5e.battle import Battle
from rules.dnd5e.combat import resolve_attack, resolve_spell, slot_cost
from rules.dnd5e.entities import Attack, BattleState, DamageType, Ident, Modifier, Spell
from rules.dnd5e.geometry import dm, squares_range
from rules.dnd5e.rolls import d20, one_d20, sequence
from rules.dnd5e.sheets import mod
from rules.dnd5e.standing import stamp
from rules.dnd5e.tables import NUMBERS
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context

Elevation = Annotated[int, Field(ge=-100, le=100)]
DamageTypes = Annotated[list[DamageType], Field(max_length=13)]


class AttackerInput(Input):
    kind: Literal["stand", "solo"]
    isolated: bool = False
    motivated: bool = False
    hidden: bool = False
    elevation: Elevation = 0
    adjacent_enemy: bool = False
    supported: bool = False


class TargetInput(Input):
    kind: Literal["stand", "solo", "objective"]
    ac: Annotated[int, Field(ge=0, le=40)] | None = None
    isolated: bool = False
    hidden: bool = False
    unconscious: bool = False
    elevation: Elevation = 0
    forest_cover: bool = False
    defense_configuration: bool = False
    resistances: DamageTypes = []
    vulnerabilities: DamageTypes = []
    immunities: DamageTypes = []


class ResolveAttackInput(Input):
    attacker: AttackerInput
    attack: Attack
    target: TargetInput
    distance: Annotated[int, Field(ge=0, le=1000)]
    reach_bonus: bool = False
    advantage: bool = False
    disadvantage: bool = False
    to_hit_modifier: Modifier = 0
    damage_modifier: Modifier = 0


def _check_kinds(prefix: str, kind: str, flags: dict[str, tuple[bool, tuple[str, ...]]]) -> None:
    for name, (value, kinds) in flags.items():
        if value and kind not in kinds:
            raise InvalidInput.field(f"{prefix}.{name}", f"only for a {' or '.join(kinds)}")


@ruleset.operation("resolve-attack", ResolveAttackInput, summary="One attack roll and its damage (S5.9).", rolls=True)
def resolve_attack_op(data: ResolveAttackInput, ctx: Context) -> dict:
    a, t = data.attacker, data.target
    _check_kinds("attacker", a.kind, {"motivated": (a.motivated, ("stand",)), "supported": (a.supported, ("stand",))})
    _check_kinds("target", t.kind, {"forest_cover": (t.forest_cover, ("stand",)),
                                    "defense_configuration": (t.defense_configuration, ("stand",)),
                                    "unconscious": (t.unconscious, ("solo",))})
    if t.kind != "objective" and t.ac is None:
        raise InvalidInput.field("target.ac", "required for a stand or a solo")
    attack = data.attack
    if attack.kind == "melee":
        if not (data.distance == 1 or (t.kind == "objective" and data.distance == 0)):
            raise InvalidInput.field("distance", "a melee attack needs an adjacent target (distance 1)")
    elif data.distance > squares_range(attack.long_range):
        raise InvalidInput.field("distance", "the target is beyond the attack's long range")
    if data.reach_bonus and not (a.kind == "stand" and attack.kind == "melee"
                                 and dm(attack.reach_m) >= dm(NUMBERS["reach_bonus_threshold_m"])):
        raise InvalidInput.field("reach_bonus", "needs a stand and a melee attack with a reach of 3 m or more")
    out = resolve_attack(ctx, "", attack, a.model_dump(), t.model_dump(), data.distance,
                         advantage=data.advantage, disadvantage=data.disadvantage,
                         to_hit_modifier=data.to_hit_modifier, damage_modifier=data.damage_modifier)
    out.pop("d20")
    return out


class CasterInput(Input):
    kind: Literal["stand", "solo"]
    isolated: bool = False
    motivated: bool = False
    hidden: bool = False
    adjacent_enemy: bool = False
    elevation: Elevation = 0


class SpellTargetInput(TargetInput):
    id: Ident
    save_bonus: Annotated[int, Field(ge=-10, le=30)] | None = None
    distance: Annotated[int, Field(ge=0, le=1000)] | None = None
    coverage: Literal["full", "partial"] = "full"
    skirmisher: bool = False
    prepared: bool = False
    attached: bool = False


class ResolveSpellInput(Input):
    caster: CasterInput
    spell: Spell
    targets: Annotated[list[SpellTargetInput], Field(min_length=1, max_length=50)]
    advantage: bool = False
    disadvantage: bool = False


@ruleset.operation("resolve-spell", ResolveSpellInput, summary="One spell against described targets (S5.10).",
                   rolls=True)
def resolve_spell_op(data: ResolveSpellInput, ctx: Context) -> dict:
    spell, caster = data.spell, data.caster
    targeted = spell.targeting == "targeted"
    _check_kinds("caster", caster.kind, {"motivated": (caster.motivated, ("stand",))})
    seen: set[str] = set()
    for i, t in enumerate(data.targets):
        path = f"targets[{i}]"
        if t.id in seen:
            raise InvalidInput.field(f"{path}.id", "ids must be unique in the list")
        seen.add(t.id)
        _check_kinds(path, t.kind, {
            "forest_cover": (t.forest_cover, ("stand",)), "defense_configuration": (t.defense_configuration, ("stand",)),
            "skirmisher": (t.skirmisher, ("stand",)), "prepared": (t.prepared, ("stand",)),
            "unconscious": (t.unconscious, ("solo",)), "attached": (t.attached, ("solo",)),
            "coverage": (t.coverage == "partial", ("stand",))})
        if spell.resolution == "attack" and t.kind != "objective" and t.ac is None:
            raise InvalidInput.field(f"{path}.ac", "required for a spell attack")
        if spell.resolution == "save" and t.kind != "objective" and t.save_bonus is None:
            raise InvalidInput.field(f"{path}.save_bonus", "required for a spell with a saving throw")
        if targeted:
            if caster.kind == "solo" and t.kind == "objective":
                raise InvalidInput.field(f"{path}.kind", "a solo's targeted spell cannot target an objective square")
            if caster.kind == "solo" and t.kind == "stand" and spell.max_targets < 5:
                raise InvalidInput.field(f"{path}.kind", "a solo's spell reaches stands only if it targets 5 or more")
            if not t.attached:
                if t.distance is None:
                    raise InvalidInput.field(f"{path}.distance", "required for a targeted spell")
                if t.distance > squares_range(spell.range_m):
                    raise InvalidInput.field(f"{path}.distance", "the target is out of the spell's range")
    slots = None
    if targeted:
        slots = sum(slot_cost(caster.kind, t.model_dump()) for t in data.targets)
        if slots > spell.max_targets:
            raise InvalidInput.field("targets", f"uses {slots} target slots, the spell has {spell.max_targets}")
        ctx.log.add("S4.16", "spell.slots", "{spell} uses {slots} of {max} target slots.",
                    spell=spell.name, slots=slots, max=spell.max_targets)
    rolled, results = resolve_spell(ctx, "", spell, caster.model_dump(), [t.model_dump() for t in data.targets],
                                    advantage=data.advantage, disadvantage=data.disadvantage)
    return {"target_slots_used": slots, "damage_rolled": rolled, "results": dict(sorted(results.items()))}


class CommanderInput(Input):
    cha_check_bonus: Annotated[int, Field(ge=-10, le=30)] | None = None
    cha_mod: Annotated[int, Field(ge=-10, le=10)] | None = None


class RallyUnitInput(Input):
    broken: bool
    morale_modifier: Annotated[int, Field(ge=-10, le=10)]
    prepared: bool = False


class CommanderActionInput(Input):
    action: Literal["prepare", "motivate", "rally"]
    round: Annotated[int, Field(ge=1, le=100_000)] = 1
    commander: CommanderInput
    unit: RallyUnitInput | None = None


def command_check(ctx: Context, name: str, action: str, bonus: int, round_: int) -> dict:
    """Prepare / Motivate (S5.12): d20 + cha_check_bonus against DC 15."""
    dc = NUMBERS[f"{action}_check_dc"]
    natural = one_d20(ctx, name)
    total = natural + bonus
    success = total >= dc
    ctx.log.add("S5.12", "command.check", "{action}: d20 {natural} + {bonus} = {total} against DC {dc}.",
                action=action, natural=natural, bonus=bonus, total=total, dc=dc)
    effect = {"prepare": "saves_advantage", "motivate": "attacks_advantage"}[action]
    if success:
        ctx.log.add("S5.12", "command.success", "{action} succeeds until the end of round {until}.",
                    action=action, until=round_ + 1)
    else:
        ctx.log.add("S5.12", "command.failure", "{action} fails: no effect.", action=action)
    return {"success": success, "natural": natural, "total": total, "dc": dc,
            "effect": effect if success else None, "until_round": round_ + 1 if success else None}


def rally_roll(ctx: Context, name: str, prepared: bool, modifier: int) -> dict:
    """Rally (S5.5 T1, H11): the unit's WIS save plus the commander's CHA modifier, DC 10."""
    mode = "advantage" if prepared else "normal"
    rolled, natural = d20(ctx, name, mode)
    total = natural + modifier
    dc = NUMBERS["rally_save_dc"]
    success = total >= dc
    ctx.log.add("S5.5", "rally.roll", "Rally: d20 {dice} ({mode}) keeps {natural} + {modifier} = {total} against "
                "DC {dc}: {result}.", dice=rolled, mode=mode, natural=natural, modifier=modifier, total=total, dc=dc,
                result="rallied" if success else "still broken")
    return {"roll_mode": mode, "d20": rolled, "natural": natural, "total": total, "dc": dc, "success": success}


@ruleset.operation("commander-action", CommanderActionInput, summary="Prepare, Motivate or Rally (S5.12).", rolls=True)
def commander_action_op(data: CommanderActionInput, ctx: Context) -> dict:
    if data.action != "rally":
        if data.commander.cha_check_bonus is None:
            raise InvalidInput.field("commander.cha_check_bonus", "required for prepare and motivate")
        return command_check(ctx, "check", data.action, data.commander.cha_check_bonus, data.round)
    if data.unit is None:
        raise InvalidInput.field("unit", "required for rally")
    if data.commander.cha_mod is None:
        raise InvalidInput.field("commander.cha_mod", "required for rally")
    if not data.unit.broken:
        raise InvalidInput.field("unit.broken", "only a broken unit can rally")
    out = rally_roll(ctx, "rally", data.unit.prepared, data.unit.morale_modifier + data.commander.cha_mod)
    out.pop("d20")
    return {**out, "broken": not out["success"]}


class MoraleUnitInput(Input):
    starting_stands: Annotated[int, Field(ge=1, le=50)]
    surviving_stands: Annotated[int, Field(ge=1, le=50)]
    broken: bool = False
    prepared: bool = False


class MemberInput(Input):
    id: Ident
    kind: Literal["stand", "solo"]
    wis: Annotated[int, Field(ge=1, le=30)]


class MoraleCheckInput(Input):
    unit: MoraleUnitInput
    members: Annotated[list[MemberInput], Field(max_length=100)] | None = None


def morale_roll(ctx: Context, name: str, prepared: bool, modifier: int) -> dict:
    """S5.13.3: WIS save DC 10 with the best WIS modifier, advantage when prepared."""
    mode = "advantage" if prepared else "normal"
    rolled, natural = d20(ctx, name, mode)
    total = natural + modifier
    dc = NUMBERS["morale_save_dc"]
    success = total >= dc
    ctx.log.add("S5.13.3", "morale.roll", "Morale: d20 {dice} ({mode}) keeps {natural} + {modifier} = {total} "
                "against DC {dc}.", dice=rolled, mode=mode, natural=natural, modifier=modifier, total=total, dc=dc)
    if success:
        ctx.log.add("S5.13.3", "morale.holds", "The unit holds.")
    else:
        ctx.log.add("S5.13.3", "morale.broken", "The unit is broken.")
    return {"roll_mode": mode, "d20": rolled, "natural": natural, "total": total, "dc": dc, "success": success}


@ruleset.operation("morale-check", MoraleCheckInput, summary="End-of-round morale check of a unit (S5.13.3).",
                   rolls=True)
def morale_check_op(data: MoraleCheckInput, ctx: Context) -> dict:
    u = data.unit
    if u.surviving_stands > u.starting_stands:
        raise InvalidInput.field("unit.surviving_stands", "must not exceed starting_stands")
    lost = u.starting_stands - u.surviving_stands
    due = (not u.broken) and lost * 2 > u.starting_stands
    ctx.log.add("S4.12", "morale.losses", "{lost} of {starting} stands lost: {twice} > {starting} is {due}.",
                lost=lost, starting=u.starting_stands, twice=lost * 2, due=lost * 2 > u.starting_stands)
    out = {"lost_stands": lost, "check_required": due, "modifier": None, "roll_mode": None, "natural": None,
           "total": None, "dc": NUMBERS["morale_save_dc"], "success": None, "broken": u.broken}
    if not due:
        ctx.log.add("S5.13.3", "morale.not_due", "No morale check is due.")
        return out
    if not data.members:
        raise InvalidInput.field("members", "required when a morale check is due")
    modifier = max(mod(m.wis) for m in data.members)
    roll = morale_roll(ctx, "save", u.prepared, modifier)
    out.update(modifier=modifier, roll_mode=roll["roll_mode"], natural=roll["natural"], total=roll["total"],
               success=roll["success"], broken=not roll["success"])
    return out


def death_save_run(ctx: Context, name: str, successes: int, failures: int) -> dict:
    """S5.13.2 / S6.13: death saves one after another until an outcome (at most ten)."""
    tally = {"s": successes, "f": failures, "outcome": None}

    def outcome(rolls: list[int]) -> bool:
        s, f, result = successes, failures, None
        for r in rolls:
            if r == 20:
                result = "revived"
                break
            if r >= NUMBERS["death_save_success_at"]:
                s += 1
            else:
                f += 2 if r == 1 else 1
            if s >= 3:
                result = "stable"
                break
            if f >= 3:
                result = "dead"
                break
        tally.update(s=s, f=f, outcome=result)
        return result is not None

    rolls = sequence(ctx, name, D20, NUMBERS["max_death_saves_per_round"], outcome)
    outcome(rolls)
    ctx.log.add("S5.13.2", "death.roll", "Death saves {rolls}: {successes} successes, {failures} failures.",
                rolls=rolls, successes=tally["s"], failures=tally["f"])
    result = tally["outcome"]
    if result is not None:
        ctx.log.add("S6.13", f"death.{result}", "Outcome: {outcome}.", outcome=result)
    return {"rolls": rolls, "successes": tally["s"], "failures": tally["f"], "outcome": result}


class DyingSoloInput(Input):
    condition: Literal["active", "dying", "stable", "dead", "fled"]
    death_save_successes: Annotated[int, Field(ge=0, le=2)] = 0
    death_save_failures: Annotated[int, Field(ge=0, le=2)] = 0


class DeathSavesInput(Input):
    solo: DyingSoloInput


@ruleset.operation("death-saves", DeathSavesInput, summary="Death saves of a dying solo (S5.13.2).", rolls=True)
def death_saves_op(data: DeathSavesInput, ctx: Context) -> dict:
    if data.solo.condition != "dying":
        raise InvalidInput.field("solo.condition", "must be dying")
    run = death_save_run(ctx, "death_saves", data.solo.death_save_successes, data.solo.death_save_failures)
    condition = {"revived": "active", "stable": "stable", "dead": "dead"}[run["outcome"]]
    reset = run["outcome"] in ("revived", "stable")
    solo = {"condition": condition, "hp": 1 if run["outcome"] == "revived" else 0,
            "death_save_successes": 0 if reset else run["successes"],
            "death_save_failures": 0 if reset else run["failures"]}
    return {**run, "solo": solo}


class EndSideInput(Input):
    victory_points: Annotated[int, Field(ge=0, le=100_000)]
    surviving_units: Annotated[list[Ident], Field(max_length=100)]


class EndBattleInput(Input):
    sides: Annotated[dict[Ident, EndSideInput], Field(min_length=2, max_length=2)] | None = None
    on_tie: Literal["draw", "extra_round"] = "draw"
    victory_threshold: Annotated[int, Field(ge=1, le=100)] = 10
    state: BattleState | None = None
    # The winner whoever ends the battle expects: the points decide it (S6.12), a different one is refused.
    winner: Ident | None = None


def battle_outcome(ctx: Context, sides: dict[str, dict], on_tie: str, threshold: int) -> dict:
    """S5.14 / S6.12; ``sides``: id → {victory_points, surviving_units}."""
    (a, sa), (b, sb) = sorted(sides.items())
    margin = abs(sa["victory_points"] - sb["victory_points"])
    ctx.log.add("S6.12", "end.margin", "{a} {va} VP, {b} {vb} VP: margin {margin}.",
                a=a, va=sa["victory_points"], b=b, vb=sb["victory_points"], margin=margin)
    winner = loser = None
    if margin:
        winner, loser = (a, b) if sa["victory_points"] > sb["victory_points"] else (b, a)
    rout_rolls: dict[str, int] = {}
    routed: list[str] = []
    if margin >= NUMBERS["total_victory_margin"]:
        outcome = "total_victory"
        ctx.log.add("S5.14", "end.total", "{winner} wins a total victory.", winner=winner)
        for unit in sorted(set(sides[loser]["surviving_units"])):
            roll = one_d20(ctx, f"rout.{unit}")
            rout_rolls[unit] = roll
            fled = roll >= NUMBERS["rout_eliminated_at"]
            if fled:
                routed.append(unit)
            ctx.log.add("S5.14", "end.rout", "{unit} rolls {roll}: {result}.", unit=unit, roll=roll,
                        result="routed" if fled else "stays")
    elif margin:
        outcome = "tactical_victory"
        ctx.log.add("S5.14", "end.tactical", "{winner} wins a tactical victory.", winner=winner)
    else:
        outcome = on_tie
        ctx.log.add("S7.7", f"end.{on_tie}", "Equal VP: {choice}.", choice=on_tie)
    remaining = {s: sorted(u for u in set(v["surviving_units"]) if u not in routed) for s, v in sides.items()}
    return {"outcome": outcome, "winner": winner, "loser": loser, "margin": margin,
            "threshold_reached": any(v["victory_points"] >= threshold for v in sides.values()),
            "rout_rolls": rout_rolls, "routed_units": routed, "remaining_units": remaining}


@ruleset.operation("end-battle", EndBattleInput, summary="Outcome of the battle and rout (S5.14).", rolls=True)
def end_battle_op(data: EndBattleInput, ctx: Context) -> dict:
    """S9.14; given the final ``state`` instead of (or beside) ``sides``, the points and surviving units are read
    from it (as S9.14 tells the web to) and the ended state comes back with its ``outcome``."""
    if data.sides is None and data.state is None:
        raise InvalidInput.field("sides", "give sides, or the state to read them from")
    st = Battle.from_input(data.state, ctx.log).st if data.state is not None else None
    if data.sides is not None:
        owner: dict[str, str] = {}
        for side, v in data.sides.items():
            for i, unit in enumerate(v.surviving_units):
                if owner.setdefault(unit, side) != side:
                    raise InvalidInput.field(f"sides.{side}.surviving_units[{i}]", "a unit belongs to one side")
        sides = {k: v.model_dump() for k, v in data.sides.items()}
    else:
        sides = {side: {"victory_points": v["victory_points"],
                        "surviving_units": sorted(u for u, x in st["units"].items()
                                                  if x["side"] == side and x["eliminated_round"] is None)}
                 for side, v in st["sides"].items()}
    threshold = data.victory_threshold if st is None or "victory_threshold" in data.model_fields_set \
        else st["victory_threshold"]
    result = battle_outcome(ctx, sides, data.on_tie, threshold)
    if data.winner is not None and data.winner != result["winner"]:
        raise InvalidInput.keyed("winner", "refusal.winner_by_points",
                                 "The victory points decide who wins: end the battle without naming a winner.")
    if data.on_tie == "extra_round" and st is not None and st.get("tie_break_round") is not None:
        raise InvalidInput.field("on_tie", "One more round is fought once after a tie: the battle ends now.")
    if st is not None:
        result["state"] = ended(st, result)
    return result


def ended(st: dict, result: dict) -> dict:
    """The final state after ``end-battle``: over, except when the GM chose one more round on a tie (S7.7)."""
    extra = result["outcome"] == "extra_round"
    st["battle_over"] = not extra
    if extra:
        st["tie_break_round"] = st["round"]
    stamp(st)
    if extra:
        return st
    reason = {"total_victory": "end.total", "tactical_victory": "end.tactical", "draw": "end.draw"}[result["outcome"]]
    st["outcome"] = outcome(over=True, winner=result["winner"], tie=result["winner"] is None, reason=reason)
    return st
