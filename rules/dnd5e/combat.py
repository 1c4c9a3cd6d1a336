"""Attack rolls, saving throws and damage for one attack or one spell
(S4.9, S4.10, S4.16-S4.18, S5.9, S5.10).

These functions take the situation described explicitly (the shapes of the
``resolve-attack`` and ``resolve-spell`` inputs, as plain dicts) so that the
stand-alone operations and ``resolve-round`` share one implementation; only the
prefix of the dice names differs.
"""

from __future__ import annotations

from typing import Any

from rules.dnd5e.entities import Attack, Spell, parse_dice
from rules.dnd5e.geometry import squares_range
from rules.dnd5e.rolls import d20, dice
from rules.dnd5e.tables import ADVANTAGE_ORDER, DISADVANTAGE_ORDER
from rules.registry import Context


def roll_mode(advantage: list[str], disadvantage: list[str]) -> str:
    """S4.18: any advantage and any disadvantage cancel out."""
    if advantage and disadvantage:
        return "normal"
    if advantage:
        return "advantage"
    if disadvantage:
        return "disadvantage"
    return "normal"


def _ordered(sources: set[str], order: list[str]) -> list[str]:
    return [s for s in order if s in sources]


def roll_damage(ctx: Context, components, critical: bool, name) -> list[dict]:
    """Roll each component (dice doubled on a critical hit): ``{type, dice, flat, raw}``.

    ``name(k)`` gives the dice name of the k-th component (1-based).
    """
    rolled = []
    for k, comp in enumerate(components, start=1):
        count, faces, flat = parse_dice(comp.dice)
        values = dice(ctx, name(k), count * 2 if critical else count, faces) if count else []
        rolled.append({"type": comp.type, "dice": values, "flat": flat, "raw": sum(values) + flat})
    return rolled


def final_damage(
    rolled: list[dict], *, doubled: bool = False, partial: bool = False, saved: bool = False,
    half_on_save: bool = False, modifier: int = 0, resistances=(), vulnerabilities=(), immunities=(),
) -> list[dict]:
    """S4.17 / H20: double, halve for partial cover, halve or cancel on a save, then resistances."""
    out = []
    for k, comp in enumerate(rolled):
        raw = max(0, comp["raw"] + (modifier if k == 0 else 0))
        v = raw * 2 if doubled else raw
        if partial:
            v //= 2
        if saved:
            v = v // 2 if half_on_save else 0
        if comp["type"] in immunities:
            v = 0
        else:
            if comp["type"] in resistances:
                v //= 2
            if comp["type"] in vulnerabilities:
                v *= 2
        out.append({**comp, "raw": raw, "final": v})
    return out


def _resist(target: dict) -> dict:
    return {k: target.get(k, []) for k in ("resistances", "vulnerabilities", "immunities")}


def attack_ac(target: dict) -> int:
    """S4.9 for a described target."""
    if target["kind"] == "objective":
        return target.get("ac") if target.get("ac") is not None else 15
    return target["ac"] + (2 if target.get("defense_configuration") else 0) + (2 if target.get("forest_cover") else 0)


def resolve_attack(
    ctx: Context, prefix: str, attack: Attack, attacker: dict, target: dict, distance: int, *,
    advantage: bool = False, disadvantage: bool = False, to_hit_modifier: int = 0, damage_modifier: int = 0,
    rule: str = "S5.9",
) -> dict:
    """One attack roll and its damage (S5.9.2, S5.9.3); the ``resolve-attack`` output fields."""
    melee = attack.kind == "melee"
    objective = target["kind"] == "objective"
    adv: set[str] = set()
    dis: set[str] = set()
    if target.get("isolated") and not objective:
        adv.add("target_isolated")
    if attacker.get("motivated") and attacker["kind"] == "stand":
        adv.add("motivated")
    if melee and attacker.get("elevation", 0) > target.get("elevation", 0):
        adv.add("high_ground")
    if melee and attacker.get("supported") and attacker["kind"] == "stand":
        adv.add("supported")
    if attacker.get("hidden"):
        adv.add("hidden_attacker")
    if target["kind"] == "solo" and target.get("unconscious"):
        adv.add("target_unconscious")
    if advantage:
        adv.add("manual")
    if attacker.get("isolated"):
        dis.add("attacker_isolated")
    long_range = not melee and distance > squares_range(attack.range_m)
    if long_range:
        dis.add("long_range")
    if not melee and attacker.get("adjacent_enemy"):
        dis.add("adjacent_enemy")
    if target.get("hidden"):
        dis.add("target_hidden")
    if disadvantage:
        dis.add("manual")
    adv_list, dis_list = _ordered(adv, ADVANTAGE_ORDER), _ordered(dis, DISADVANTAGE_ORDER)
    out: dict[str, Any] = {
        "advantage_sources": adv_list, "disadvantage_sources": dis_list, "long_range": long_range,
        "target_ac": None, "natural": None, "attack_total": None, "d20": [],
    }
    if melee and objective:
        out.update(roll_mode="none", auto_hit=True, hit=True, critical=False)
        ctx.log.add(rule, "attack.hit", "{attack}: {result}.", attack=attack.name,
                    result="automatic hit on an objective square")
    else:
        mode = roll_mode(adv_list, dis_list)
        rolled, natural = d20(ctx, f"{prefix}d20", mode)
        ac = attack_ac(target)
        total = natural + attack.to_hit + to_hit_modifier
        hit = natural == 20 or (natural != 1 and total >= ac)
        critical = natural == 20
        if hit and melee and target["kind"] == "solo" and target.get("unconscious"):
            critical = True
        out.update(roll_mode=mode, d20=rolled, natural=natural, attack_total=total, target_ac=ac,
                   auto_hit=False, hit=hit, critical=critical)
        ctx.log.add("S4.18", "attack.mode", "Advantage {advantage}, disadvantage {disadvantage}: {mode} roll.",
                    advantage=adv_list, disadvantage=dis_list, mode=mode)
        ctx.log.add(rule, "attack.roll", "{attack}: d20 {dice} keeps {natural}, + {to_hit} = {total} against AC {ac}.",
                    attack=attack.name, dice=rolled, natural=natural, to_hit=attack.to_hit + to_hit_modifier,
                    total=total, ac=ac)
        ctx.log.add(rule, "attack.hit" if hit else "attack.miss", "{attack}: {result}.",
                    attack=attack.name, result="hit" if hit else "miss")
        if critical:
            ctx.log.add(rule, "attack.critical", "Critical hit: the damage dice are rolled twice.")
    doubled = out["hit"] and bool(target.get("isolated")) and not objective
    components: list[dict] = []
    if out["hit"]:
        rolled_dmg = roll_damage(ctx, attack.damage, out["critical"], lambda k: f"{prefix}damage_{k}")
        components = final_damage(rolled_dmg, doubled=doubled, modifier=damage_modifier,
                                  **({} if objective else _resist(target)))
        if doubled:
            ctx.log.add("S6.7", "attack.double", "Isolated target: the damage is doubled.")
        if any(target.get(k) for k in ("resistances", "vulnerabilities", "immunities")) and not objective:
            ctx.log.add("S4.17", "attack.resist", "Resistances {resistances}, vulnerabilities {vulnerabilities}, "
                        "immunities {immunities} applied.", **_resist(target))
    total_damage = sum(c["final"] for c in components)
    if out["hit"]:
        ctx.log.add("S4.17", "attack.damage", "{attack} deals {damage} damage.", attack=attack.name, damage=total_damage)
    out.update(damage_multiplier=2 if doubled else 1, damage_components=components, damage=total_damage)
    return out


def slot_cost(caster_kind: str, target: dict) -> int:
    """S4.16."""
    if target["kind"] == "solo" and target.get("attached"):
        return 0
    if caster_kind == "solo" and target["kind"] == "stand":
        return 5
    return 1


def save_mode(spell: Spell, caster_kind: str, target: dict) -> tuple[str, list[str], list[str]]:
    """S4.10 sources for one target's save against ``spell``."""
    adv, dis = [], []
    if target["kind"] == "stand":
        if target.get("skirmisher") and spell.save_ability == "dex":
            adv.append("skirmisher_dex")
        if target.get("prepared"):
            adv.append("prepared")
    if (target["kind"] == "solo" and target.get("isolated") and spell.targeting == "targeted"
            and caster_kind == "stand"):
        dis.append("isolated_solo")
    return roll_mode(adv, dis), adv, dis


def target_order(targets: list[dict]) -> list[dict]:
    """S5.10.3: stands, then solos, then objective squares, each by ascending id."""
    rank = {"stand": 0, "solo": 1, "objective": 2}
    return sorted(targets, key=lambda t: (rank[t["kind"]], t["id"]))


def resolve_spell(
    ctx: Context, prefix: str, spell: Spell, caster: dict, targets: list[dict], *,
    advantage: bool = False, disadvantage: bool = False, to_hit_modifier: int = 0, damage_modifier: int = 0,
) -> tuple[int | None, dict[str, dict]]:
    """Per-target resolution (S5.10.3): returns (damage_rolled, results by id).

    The GM's manual modifiers (S7.9) add to the spell attack roll and to the
    first damage component of each target.
    """
    is_area = spell.targeting == "area"
    stand_caster = caster["kind"] == "stand"
    results: dict[str, dict] = {}
    empty = {"attack_roll_mode": None, "attack_natural": None, "attack_total": None, "hit": None,
             "critical": None, "save_roll_mode": None, "save_natural": None, "save_total": None, "saved": None}
    has_damage = bool(spell.damage)
    ordered = target_order(targets)
    if spell.resolution == "attack":
        for t in ordered:
            r = dict(empty)
            adv: set[str] = set()
            dis: set[str] = set()
            if t.get("isolated") and t["kind"] != "objective":
                adv.add("target_isolated")
            if stand_caster and caster.get("motivated"):
                adv.add("motivated")
            if spell.attack_kind == "melee" and caster.get("elevation", 0) > t.get("elevation", 0):
                adv.add("high_ground")
            if caster.get("hidden"):
                adv.add("hidden_attacker")
            if t["kind"] == "solo" and t.get("unconscious"):
                adv.add("target_unconscious")
            if advantage:
                adv.add("manual")
            if caster.get("isolated"):
                dis.add("attacker_isolated")
            if spell.attack_kind == "ranged" and caster.get("adjacent_enemy"):
                dis.add("adjacent_enemy")
            if t.get("hidden"):
                dis.add("target_hidden")
            if disadvantage:
                dis.add("manual")
            mode = roll_mode(list(adv), list(dis))
            rolled, natural = d20(ctx, f"{prefix}attack.{t['id']}", mode)
            ac = attack_ac(t)
            total = natural + spell.to_hit + to_hit_modifier
            hit = natural == 20 or (natural != 1 and total >= ac)
            # the spec is silent on melee spell attacks against an unconscious solo: 5e makes such a hit critical,
            # as S5.9.3 does for weapon attacks
            critical = natural == 20 or (hit and spell.attack_kind == "melee" and t["kind"] == "solo"
                                          and bool(t.get("unconscious")))
            r.update(attack_roll_mode=mode, attack_natural=natural, attack_total=total, hit=hit, critical=critical)
            ctx.log.add("S5.10.3", "spell.attack", "{spell} against {target}: d20 {dice} ({mode}) keeps {natural}, "
                        "total {total} against AC {ac}: {result}.", spell=spell.name, target=t["id"], dice=rolled,
                        mode=mode, natural=natural, total=total, ac=ac, result="hit" if hit else "miss")
            doubled = hit and bool(t.get("isolated")) and t["kind"] != "objective"
            damage = 0
            if hit and has_damage:
                rolled_dmg = roll_damage(ctx, spell.damage, critical, lambda k: f"{prefix}damage_{k}.{t['id']}")
                damage = _apply_target(ctx, spell, t, rolled_dmg, doubled=doubled, modifier=damage_modifier)
            r.update(affected=hit, doubled=doubled, halved_partial=False, damage=damage)
            results[t["id"]] = r
        return None, results

    saved: dict[str, bool] = {}
    if spell.resolution == "save":
        for t in ordered:
            r = dict(empty)
            if t["kind"] == "objective":
                r.update(save_roll_mode="none", saved=False)
                saved[t["id"]] = False
            else:
                mode, adv, dis = save_mode(spell, caster["kind"], t)
                rolled, natural = d20(ctx, f"{prefix}save.{t['id']}", mode)
                bonus = t["save_bonus"] + (2 if spell.save_ability == "dex" and t.get("forest_cover") else 0)
                total = natural + bonus
                ok = total >= spell.save_dc
                saved[t["id"]] = ok
                r.update(save_roll_mode=mode, save_natural=natural, save_total=total, saved=ok)
                ctx.log.add("S4.10", "spell.save", "{target} saves against {spell}: d20 {dice} ({mode}) keeps "
                            "{natural} + {bonus} = {total} against DC {dc}: {result}.", target=t["id"],
                            spell=spell.name, dice=rolled, mode=mode, natural=natural, bonus=bonus, total=total,
                            dc=spell.save_dc, result="success" if ok else "failure")
            results[t["id"]] = r
    else:
        for t in ordered:
            results[t["id"]] = dict(empty)

    takes_damage = {
        t["id"]: has_damage and spell.resolution != "none"
        and (not saved.get(t["id"], False) or spell.half_on_save)
        for t in ordered
    }
    damage_rolled = None
    rolled_dmg: list[dict] = []
    if any(takes_damage.values()):
        rolled_dmg = roll_damage(ctx, spell.damage, False, lambda k: f"{prefix}damage_{k}")
        damage_rolled = sum(c["raw"] for c in rolled_dmg)
        ctx.log.add("S5.10.3", "spell.damage", "{spell}: damage roll {dice} = {total}.", spell=spell.name,
                    dice=[c["dice"] for c in rolled_dmg], total=damage_rolled)
    for t in ordered:
        r = results[t["id"]]
        partial = t["kind"] == "stand" and t.get("coverage", "full") == "partial"
        ok = saved.get(t["id"], False)
        if spell.resolution == "save":
            doubled = (is_area and stand_caster) or (
                not is_area and stand_caster and t["kind"] == "solo" and bool(t.get("isolated")) and not ok)
        else:
            doubled = spell.resolution == "auto" and is_area and stand_caster
        damage = 0
        if takes_damage[t["id"]]:
            damage = _apply_target(ctx, spell, t, rolled_dmg, doubled=doubled, partial=partial, saved=ok,
                                   modifier=damage_modifier)
        if spell.resolution == "save":
            affected = (not ok) or (ok and damage > 0)
        else:
            affected = True
        if partial and not has_damage:
            affected = False
            ctx.log.add("S5.10.3", "spell.unaffected", "{target} is only partly in the area of a spell without "
                        "damage: no effect.", target=t["id"])
        r.update(affected=affected, doubled=doubled and takes_damage[t["id"]], halved_partial=partial and has_damage,
                 damage=damage)
    return damage_rolled, results


def _apply_target(ctx: Context, spell: Spell, t: dict, rolled: list[dict], *, doubled: bool,
                  partial: bool = False, saved: bool = False, modifier: int = 0) -> int:
    comps = final_damage(rolled, doubled=doubled, partial=partial, saved=saved, half_on_save=spell.half_on_save,
                         modifier=modifier, **({} if t["kind"] == "objective" else _resist(t)))
    if doubled:
        ctx.log.add("S6.8", "spell.double", "{target} takes double damage.", target=t["id"])
    if partial:
        ctx.log.add("S5.10.3", "spell.partial", "{target} is partly in the area: half damage.", target=t["id"])
    return sum(c["final"] for c in comps)
