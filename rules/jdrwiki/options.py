"""``declaration-options``: what a participant may declare now, and why anything else is not allowed.

The answers come from the same rules the engine applies (costs and caps,
S4.16; ranges, S4.18; total-melee restrictions, S7.1.3; hero availability,
S7.4; talents, S7.7), so a form never re-implements a rule.  Every value in
an ``allowed`` list is accepted by ``resolve-round`` (an action listed with
``requires`` needs that allocation too).
"""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.jdrwiki import combat, sheets, tables, terrain
from rules.jdrwiki.answers import section
from rules.jdrwiki.battle import Battle
from rules.jdrwiki.combat import full_action
from rules.jdrwiki.declare import ENEMY_TARGETED
from rules.jdrwiki.messages import MESSAGES

ALLOCATION_FLOOR = -20  # how far below zero a form offers to push an attention criterion


def _option(path: str, key: str, type_: str, *, params: dict | None = None, default=None, required: bool = False,
            **extra) -> dict:
    """One option; its ``label`` is the English template of ``key`` (``label_key``) filled with ``params``."""
    params = params or {}
    return {"path": path, "label": MESSAGES[key]["en"].format(**params), "label_key": key, "label_params": params,
            "type": type_, "default": default, "required": required, "forbidden": [], **extra}


def _forbid(option: dict, value, key: str, rule: str, **params) -> None:
    """A value refused, with its reason as a message key (``key``, ``params``) and in English (``reason``)."""
    option["forbidden"].append({"value": value, "reason": MESSAGES[key]["en"].format(**params), "rule": rule,
                                "key": key, "params": params})


def options(battle: Battle, kind: str, pid: str, draft: dict | None = None) -> tuple[bool, list[dict]]:
    """(must_declare, options) for one participant.

    ``draft`` (the declarations known so far, the engine's object) is given by
    the contract's callers: the choices that depend on another field of the
    same declaration (a hero's dropped bonuses on his moderation) are then
    offered for that field's value only.
    """
    st = battle.state
    if kind == "gm":
        return False, gm_options(battle)
    if kind == "side":
        if pid not in ("a", "b"):
            raise InvalidInput.field("participant.id", "a side is 'a' or 'b'")
        must, found = False, []
        for army_id, army in sorted(st["armies"].items()):
            if army["side"] == pid:
                found += army_options(battle, army_id)
                for cid in battle.active_corps():
                    if battle.corps(cid)["army_id"] == army_id:
                        corps_must, corps_opts = corps_options(battle, cid)
                        must, found = must or corps_must, found + corps_opts
        return must, found
    if kind in ("army", "commander"):
        if pid not in st["armies"]:
            raise InvalidInput.field("participant.id", "unknown army")
        return False, army_options(battle, pid)
    if kind in ("corps", "unit"):
        if pid not in st["corps"]:
            raise InvalidInput.field("participant.id", "unknown corps")
        return corps_options(battle, pid)
    if kind == "hero":
        if pid not in st["heroes"]:
            raise InvalidInput.field("participant.id", "unknown hero")
        return False, hero_options(battle, pid, draft)
    raise InvalidInput.field("participant.kind", "one of side, army, commander, corps, unit, hero, gm")


# ---------------------------------------------------------------- corps


def budget(battle: Battle, cid: str) -> int:
    """S4.16: points this corps may still commit this round.

    The ruthless point (S7.7.9) is kept aside whenever the army holds the
    talent, since its commander may switch the mode on in this very round.
    In the initiative phase a corps that rolls (forced at 0, or by choice
    with a small pool, S5.4.1) is sure only of the lowest roll,
    ``d20 = 1`` (S5.4.2): the budget is what both pools can pay.
    """
    army = battle.army_of(cid)
    pool = battle.corps(cid)["initiative"]
    if battle.state["phase"] == "initiative" and pool <= battle.sheet_of(cid)["reroll_cap"]:
        lowest_roll = max(0, 1 + battle.eff_init(cid))
        pool = lowest_roll if pool == 0 else min(pool, lowest_roll)
    return min(battle.sheet_of(cid)["spend_cap"], pool) - (
        1 if army["ruthless"] or "ruthless" in army["talents"] else 0)


def corps_options(battle: Battle, cid: str) -> tuple[bool, list[dict]]:
    """The corps' declarations; in the initiative phase its re-roll first.

    ``resolve-round`` takes a state in either phase and plays the initiative
    phase (R1) before reading the declarations (R2, S5.3), so the web layer
    declares both in one go: the re-roll alone would leave the corps without
    actions every round after the first.  Actions are priced on the current
    pool, the one a corps that does not re-roll keeps.
    """
    if not battle.active(cid):
        return False, []
    corps = battle.corps(cid)
    prefix = f"corps.{cid}"
    result: list[dict] = []
    forced = False
    if battle.state["phase"] == "initiative":
        forced, reroll = _reroll_option(battle, cid)
        result.append(reroll)
    available = corps["advantage"]
    points = budget(battle, cid)
    result += [action_options(battle, cid, points, available), _regroup_option(battle, cid, points)]
    result += allocation_options(battle, cid, available)
    counter = _option(f"{prefix}.defensive_counter", "option.defensive_counter", "choice",
                      allowed=[None] + (battle.enemies(cid) if points >= 1 else []))
    if points < 1:
        _forbid(counter, "any enemy corps", "refusal.counter_no_point", "S7.8")
    result.append(counter)
    result += hero_choice_options(battle, cid)
    if "opportune_attack" in battle.talents_of(cid):
        result.append(_option(f"{prefix}.opportune", "option.opportune", "choice",
                              default={"mode": "counter", "action": "massive_assault"},
                              allowed=[{"mode": m, "action": a} for m in ("counter", "category_6")
                                       for a in ("massive_assault", "subtle_assault")]))
    if corps["total_melee_with"] is not None:
        result.append(_option(f"{prefix}.melee_characteristic", "option.melee_characteristic", "choice",
                              allowed=["str", "dex"], default=None))
    return forced or available < 0, result


def _reroll_option(battle: Battle, cid: str) -> tuple[bool, dict]:
    """S5.4.1: (forced, option) -- an empty pool must be re-rolled, a small one may be."""
    corps = battle.corps(cid)
    cap = battle.sheet_of(cid)["reroll_cap"]
    forced = corps["initiative"] == 0
    army = battle.army_of(cid)
    rank = army["commander"]["strategist_rank"]
    option = _option(f"rerolls[].{cid}", "option.reroll", "boolean", params={"corps": cid}, default=forced,
                     required=forced, item=cid, advantage_change=sheets.grace_delta(rank, army["talents"]) + rank)
    if forced:
        _forbid(option, False, "refusal.reroll_forced", "S5.4.1")
    elif corps["initiative"] > cap:
        _forbid(option, True, "refusal.reroll_cap", "S5.4.1", cap=cap)
    return forced, option


def action_options(battle: Battle, cid: str, points: int, available: int) -> dict:
    corps = battle.corps(cid)
    adaptation = "adaptation" in battle.talents_of(cid)
    option = _option(
        f"corps.{cid}.actions", "option.actions", "list", default=[], allowed=[], budget=max(0, points),
        max_items=3 if adaptation else 2,
        constraints=("two actions of any types, or three different actions (Adaptation)" if adaptation
                     else "at most two actions of different types") + "; total cost within the budget",
        catalogue={a: {"type": row["type"], "cost": row["cost"]} for a, row in tables.ACTIONS.items()},
        requires={"mining": {f"corps.{cid}.allocation.preparation": 1}})
    in_melee = corps["total_melee_with"] is not None
    for act, row in tables.ACTIONS.items():
        if act == "regroup":
            continue  # concerted: its own option
        cost = 1 if row["cost"] == "moves" else row["cost"]
        if in_melee and ((row["type"] == "maneuver" and act != "withdraw") or act == "total_melee"):
            _forbid(option, {"action": act}, "refusal.total_melee_manoeuvre", "S7.1.3")
            continue
        if cost > points:
            _forbid(option, {"action": act}, "refusal.cost", "S4.16", cost=cost, left=max(0, points))
            continue
        if act == "mining" and available < 1:
            _forbid(option, {"action": act}, "refusal.mining_preparation", "S6.13")
            continue
        candidates = _candidates(battle, cid, act, points)
        if not candidates:
            _forbid(option, {"action": act}, _why_none(act), "S7.9" if act not in ENEMY_TARGETED else "S4.18")
        option["allowed"] += candidates
    return option


def _why_none(act: str) -> str:
    """The message key of why an action has no possible value now."""
    if act in ENEMY_TARGETED:
        return "refusal.no_target"
    keys = {"move": "refusal.no_free_zone", "withdraw": "refusal.no_withdraw_zone", "divide": "refusal.no_divide",
            "modify_terrain": "refusal.no_terrain_change"}
    return keys.get(act, "refusal.not_possible")


def _candidates(battle: Battle, cid: str, act: str, points: int) -> list[dict]:
    corps = battle.corps(cid)
    zones = battle.state["map"]["zones"]
    neighbours = zones[corps["zone"]]["neighbors"]
    free = [z for z in neighbours if combat.free(battle, z)] if act in ("move", "withdraw", "divide") else []
    if act in ENEMY_TARGETED:
        found = []
        for target in battle.enemies(cid):
            action = full_action(action=act, target=target)
            if combat.impossible(battle, cid, action) is None:
                found.append({"action": act, "target": target})
        return found
    if act == "move":
        return [{"action": "move", "moves": m, "path": [z]} for z in free for m in range(1, min(5, points) + 1)]
    if act == "withdraw":
        return [{"action": "withdraw", "to_zone": z} for z in free]
    if act == "divide":
        if corps["hp"] < 2 or not free:
            return []
        new_id = _fresh_id(battle, cid)
        return [{"action": "divide", "new_corps": [{"id": new_id, "zone": z, "hp": corps["hp"] // 2}]} for z in free]
    if act == "modify_terrain":
        found = []
        magic = battle.army_of(cid)["has_magic"]
        for zone in [corps["zone"], *neighbours]:
            levels = zones[zone]["terrain"]
            for key in ("unstable_ground", "stronghold", "cover"):
                for direction, step in (("up", 1), ("down", -1)):
                    if 0 <= levels[key] + step <= tables.TERRAIN_MAX[key]:
                        found.append({"action": act, "zone": zone, "characteristic": key, "direction": direction})
            if magic:
                found += [{"action": act, "zone": zone, "characteristic": "weather", "level": lv}
                          for lv in range(tables.TERRAIN_MAX["weather"] + 1) if lv != levels["weather"]]
        return found
    return []


def _fresh_id(battle: Battle, cid: str) -> str:
    base = f"{cid[:30]}-r{battle.round}"
    candidate, n = base, 1
    while candidate in battle.state["corps"]:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _regroup_option(battle: Battle, cid: str, points: int) -> dict:
    """S7.2.3: partners of the same army next to each other; every participant declares the same."""
    corps = battle.corps(cid)
    option = _option(f"corps.{cid}.actions[].regroup", "option.regroup", "object", allowed=[], concerted=True)
    if corps["total_melee_with"] is not None or points < tables.ACTIONS["regroup"]["cost"]:
        _forbid(option, {"action": "regroup"}, "refusal.regroup", "S7.2.3")
        return option
    for other in battle.active_corps():
        same = other != cid and battle.corps(other)["army_id"] == corps["army_id"]
        if same and battle.corps(other)["total_melee_with"] is None and terrain.adjacent(
                battle.state["map"], corps["zone"], battle.corps(other)["zone"]):
            option["allowed"] += [{"action": "regroup", "with": [other], "into": into} for into in (cid, other)]
    return option


def allocation_options(battle: Battle, cid: str, available: int) -> list[dict]:
    """S4.11: the six criteria; the sum may not exceed the points available."""
    prefix = f"corps.{cid}.allocation"
    required = available < 0
    found = []
    for key in tables.ATTENTION:
        default = min(0, available) if key == "environment" else 0
        found.append(_option(f"{prefix}.{key}", "option.allocation", "integer", params={"criterion": key},
                             default=default, required=required, min=ALLOCATION_FLOOR + min(0, available),
                             max=max(0, available), constraint=f"all six together at most {available}"))
    for key in tables.SPENT:
        top = 1 if key == "preparation" else max(0, available)
        option = _option(f"{prefix}.{key}", "option.allocation", "integer", params={"criterion": key}, default=0,
                         min=0, max=min(top, max(0, available)), constraint=f"all six together at most {available}")
        if available < 1:
            _forbid(option, 1, "refusal.no_advantage", "S4.11")
        found.append(option)
    return found


def hero_choice_options(battle: Battle, cid: str) -> list[dict]:
    """S7.4.2 / S7.4.7: which heroes of the corps may intervene or transfer."""
    intervene = _option(f"corps.{cid}.heroes", "option.heroes", "list", default=[], allowed=[])
    transfer = _option(f"corps.{cid}.hero_transfers", "option.hero_transfers", "list", default=[], allowed=[])
    for hero_id, hero in sorted(battle.state["heroes"].items()):
        if hero["corps_id"] != cid:
            continue
        if hero["status"] != "active":
            _forbid(intervene, {"hero_id": hero_id}, "refusal.hero_fallen", "S7.4.6")
            continue
        if battle.round < hero["available_from_round"]:
            _forbid(intervene, {"hero_id": hero_id}, "refusal.hero_cooldown", "S7.4.2",
                    round=hero["available_from_round"])
            intervene["allowed"].append({"hero_id": hero_id, "sacrifice": True})
        else:
            intervene["allowed"].append({"hero_id": hero_id})
        for dest in battle.active_corps():
            if (dest != cid and battle.corps(dest)["army_id"] == hero["army_id"]
                    and battle.distance(cid, dest) <= 20):
                transfer["allowed"].append({"hero_id": hero_id, "to_corps": dest})
    return [intervene, transfer]


# ---------------------------------------------------------------- armies, heroes, GM


def army_options(battle: Battle, army_id: str) -> list[dict]:
    army = battle.state["armies"][army_id]
    prefix = f"armies.{army_id}"
    ruthless = _option(f"{prefix}.ruthless", "option.ruthless", "boolean", default=army["ruthless"])
    if "ruthless" not in army["talents"]:
        _forbid(ruthless, True, "refusal.needs_ruthless", "S7.7.9")
        _forbid(ruthless, False, "refusal.needs_ruthless", "S7.7.9")
    pools = {"commander": army["commander"]["heroism_points"], "army": army["army_heroism_points"]}
    heroism = _option(f"{prefix}.heroism", "option.heroism", "list", default=[],
                      allowed=[{"pool": p, "use": u} for p in pools for u in ("advantage", "auto_success") if pools[p]],
                      max_per_pool=pools)
    for pool, left in pools.items():
        if not left:
            _forbid(heroism, {"pool": pool}, "refusal.pool_empty", "S7.5.3", pool=pool)
    save = _option(f"{prefix}.save_from_fatal", "option.save_from_fatal", "choice", default=None,
                   allowed=[None] + [p for p in pools if pools[p]])
    withdraw = _option(f"{prefix}.withdraw", "option.withdraw", "boolean", default=False)
    return [ruthless, heroism, save, withdraw]


def hero_options(battle: Battle, hero_id: str, draft: dict | None = None) -> list[dict]:
    """S7.4.5 / S7.4.6: the hero's player decides heroism and accepts a sacrifice."""
    hero = battle.state["heroes"][hero_id]
    prefix = f"corps.{hero['corps_id']}.heroes[].{hero_id}"
    army = battle.state["armies"][hero["army_id"]]
    points = army["commander"]["heroism_points"] if hero["is_commander"] else hero["heroism_points"]
    heroism = _option(f"{prefix}.heroism", "option.hero_heroism", "boolean", default=False)
    sacrifice = _option(f"{prefix}.sacrifice", "option.sacrifice", "boolean", default=False,
                        required=battle.round < hero["available_from_round"])
    if hero["status"] != "active":
        for option in (heroism, sacrifice):
            _forbid(option, True, "refusal.hero_out", "S7.4.6")
    elif points < 1:
        _forbid(heroism, True, "refusal.no_heroism_point", "S7.4.5")
    if draft is not None and _drafted_entry(draft, hero) is not None and battle.round < hero["available_from_round"]:
        _forbid(sacrifice, False, "refusal.sacrifice_required", "S7.4.2", round=hero["available_from_round"])
    return [heroism, sacrifice, *moderation_options(battle, hero_id, prefix, draft)]


def moderation_options(battle: Battle, hero_id: str, prefix: str, draft: dict | None = None) -> list[dict]:
    """S7.4.4 / S4.10: rounds of cooldown removed, and the positive bonuses given up for them.

    ``resolve-round`` wants exactly two dropped bonuses per round removed
    (``count_per_moderation``), each a distinct positive bonus, with at least
    one positive bonus kept (H35); so the rounds offered stop where that
    would drop them all, and never exceed the cooldown they shorten.  A
    valid hero has at least four positive bonuses (S4.9: the class points
    exceed three times the class limit), so one round is always possible.

    With a ``draft``, the bonuses are offered for the moderation it holds
    (0 when none): exactly ``2 x moderation`` of them (``min_items`` =
    ``max_items``), none at all without moderation, since S4.10 refuses any
    other count.
    """
    hero = battle.state["heroes"][hero_id]
    positive = sorted(t for t, v in hero["bonuses"].items() if v > 0)
    most = max(0, min(battle.hero_info[hero_id]["cooldown"] or 0, (len(positive) - 1) // 2))
    moderation = _option(f"{prefix}.moderation", "option.moderation", "integer", default=0, min=0, max=most)
    dropped = _option(f"{prefix}.dropped_bonuses", "option.dropped_bonuses", "list", default=[],
                      allowed=[], count_per_moderation=2, max_items=2 * most,
                      constraint="exactly two distinct positive bonuses per round of moderation")
    if hero["status"] != "active":
        for target in positive:
            _forbid(dropped, target, "refusal.hero_out", "S7.4.6")
    elif draft is not None:
        rounds = _drafted_moderation(draft, hero, most)
        dropped.update(min_items=2 * rounds, max_items=2 * rounds, allowed=positive if rounds else [])
        if not rounds:
            for target in positive:
                _forbid(dropped, target, "refusal.dropped_without_moderation", "S4.10")
    else:
        dropped["allowed"] = positive
    return [moderation, dropped]


def _drafted_entry(draft: dict, hero: dict) -> dict | None:
    """The hero's intervention in the draft, if his commander sends him in."""
    for entry in section(section(section(draft, "corps"), hero["corps_id"]), "heroes", list):
        if isinstance(entry, dict) and entry.get("hero_id") == hero["id"]:
            return entry
    return None


def _drafted_moderation(draft: dict, hero: dict, most: int) -> int:
    """The moderation the draft gives this hero (0 when it gives none or an out-of-range value)."""
    value = (_drafted_entry(draft, hero) or {}).get("moderation", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most else 0


def gm_options(battle: Battle) -> list[dict]:
    zones = sorted(battle.state["map"]["zones"])
    corps = battle.active_corps()
    return [
        _option("gm.weather", "option.gm_weather", "object", default={}, allowed=zones, min=0,
                max=tables.TERRAIN_MAX["weather"]),
        _option("gm.manual_modifiers", "option.gm_manual_modifiers", "list", default=[], allowed=corps,
                targets=list(tables.SKILLS) + ["all_skills", "attack_rolls", "damage", "protection"]),
        _option("gm.adjustments", "option.gm_adjustments", "list", default=[], allowed=corps,
                fields=["hp", "advantage", "initiative"]),
        _option("gm.commander_changes", "option.gm_commander_changes", "object", default={},
                allowed=sorted(battle.state["armies"])),
        _option("gm.conflict_started", "option.gm_conflict_started", "boolean",
                default=battle.state["conflict_started"]),
        _option("gm.end_battle", "option.gm_end_battle", "boolean", default=False),
    ]
