"""Declaration options beyond moves and attacks: magic, escapes, adventurers, rally moves, the GM's part.

S11.2 lists who declares what; each function here gives one participant the
choices of one row of that table, with what a player needs to choose (costs,
power points, distances), computed from the state the participant's viewer
may see (``options.py`` builds the :class:`Battle` on it).
"""

from __future__ import annotations

from typing import Any

from rules.heros import hexgrid, movement, sheets
from rules.heros.fighting import ESCAPE_RADIUS, Fights
from rules.heros.offer import option
from rules.heros.reach import unit_paths
from rules.heros.round import rally_problem
from rules.heros.state import Battle
from rules.heros.tables import RALLY

HEALABLE = ("light", "serious", "unconscious")
EFFECT_KINDS = ["attack", "modifier", "heal", "other"]
RALLY_REFUSALS = {"general.role": "refusal.rally_role", "general.condition": "refusal.rally_dead",
                  "general.rally_failed": "refusal.rally_failed", "corps.rally_attempted": "refusal.rally_attempted",
                  "distance": "refusal.rally_distance"}


def rally_refusal(problem: tuple[str, str]) -> tuple[str, dict[str, Any]]:
    """The message key and parameters of a :func:`command.rally_problem` answer."""
    return RALLY_REFUSALS[problem[0]], {"range": RALLY["range_hexes"]}


def able_caster(b: Battle, caster: dict[str, Any]) -> bool:
    """The S5.7 conditions ``resolve-round`` checks on a caster (conscious, free, on the ground)."""
    if "role" in caster:
        return (caster["magician"] and sheets.conscious(caster) and not caster["spell_cast"]
                and caster["position"] is not None and not b.char_aloft(caster))
    return caster["magician"] and b.grounded(caster)


def combatants(b: Battle) -> list[tuple[str, dict]]:
    """Units on the ground and lone characters, with their hexes: what a modifier or an attack may name."""
    found = [(u["id"], u["position"]) for u in b.s["units"] if b.grounded(u)]
    found += [(c["id"], c["position"]) for c in b.s["characters"]
              if c["status"] == "active" and c["stacked_on"] is None and c["position"] is not None]
    return found


def combat_ids(b: Battle) -> list[str]:
    """Ids the round's combats will carry: the engagements, and the melees and shootings the room merges
    (``m-<attacker>``, ``s-<first shooter>``, see ``merge.py``)."""
    fights = Fights(b, {s: {"stars": {}} for s in b.sides}, [], set())
    ids = [e["id"] for e in b.s["engagements"]]
    for u in b.s["units"]:
        if u["side"] == b.active and b.grounded(u):
            if fights.is_combatant(u["id"]):
                ids.append(f"m-{u['id']}"[:40])
            if sheets.derive(u)["can_shoot"]:
                ids.append(f"s-{u['id']}"[:40])
    return ids


def spell_options(b: Battle, caster: dict[str, Any], side_key: str) -> list[dict[str, Any]]:
    """A spell (S5.7): its cost in power points and its effect, and the counter-spell alternative."""
    if not able_caster(b, caster):
        return []
    cid, pos, points = caster["id"], caster["position"], caster["power_points"]
    who = {"caster": cid, "power_points": points}
    enemies = [(tid, tpos) for tid, tpos in combatants(b) if b.side_of(tid) != caster["side"]]
    friends = [c["id"] for c in b.s["characters"] if c["side"] == caster["side"] and c["position"] is not None
               and c["status"] == "active" and c["wound_state"] in HEALABLE and hexgrid.distance(c["position"], pos) <= 1]
    magicians = [m["id"] for m in b.s["units"] + b.s["characters"] if m["side"] != caster["side"] and m["magician"]
                 and (b.grounded(m) if "role" not in m else m["status"] == "active")]
    spell, counter = f"{side_key}.spells[]", f"{side_key}.counter_spells[]"
    return [
        option(f"{spell}.cost", "option.spell_cost", who, "integer", min=0, max=points, default=0),
        option(f"{spell}.effect.kind", "option.spell_effect", who, "choice", allowed=EFFECT_KINDS, default="other"),
        option(f"{spell}.effect.target_id", "option.spell_target", who, "choice", allowed=[t for t, _p in enemies],
               distances={t: hexgrid.distance(pos, p) for t, p in enemies}),
        option(f"{spell}.effect.factor", "option.spell_factor", who, "integer", min=-1, max=12, default=0),
        option(f"{spell}.effect.range", "option.spell_range", who, "integer", min=0, max=30, default=0),
        option(f"{spell}.effect.combat_id", "option.spell_combat", who, "choice", allowed=combat_ids(b)),
        option(f"{spell}.effect.combatant_id", "option.spell_combatant", who, "choice",
               allowed=[t for t, _p in combatants(b)]),
        option(f"{spell}.effect.value", "option.spell_value", who, "integer", min=-10, max=10, default=0),
        option(f"{spell}.effect.character_id", "option.spell_heal", who, "choice", allowed=friends),
        option(f"{spell}.effect.text", "option.spell_text", who, "text", max_length=500, default=""),
        option(f"{counter}.against_caster_id", "option.counter_against", who, "choice", allowed=magicians),
        option(f"{counter}.cost", "option.counter_cost", who, "integer", min=0, max=points, default=0),
    ]


def escape_option(b: Battle, c: dict[str, Any], side_key: str) -> dict[str, Any]:
    """Where a character surrounded in a melee runs on a natural 2 (S5.12); elsewhere the nearest friend."""
    pos = c["position"]
    hexes = [h for h in hexgrid.within(pos, ESCAPE_RADIUS) if b.inside(h) and not hexgrid.same(h, pos)
             and movement.enter_cost(b, None, None, h) is not None and not b.units_at(h)
             and b.side_at(h) in (None, c["side"])]
    return option(f"{side_key}.escapes.{c['id']}", "option.escape", {"character": c["id"]}, "hex",
                  allowed=sorted(hexes, key=hexgrid.key))


def follow_option(unit: dict[str, Any], side_key: str) -> dict[str, Any]:
    """An adventurer unit on a unit that advances or pursues goes with it unless told to stay (S7.4)."""
    return option(f"{side_key}.adventurers_follow.{unit['id']}", "option.adventurers_follow", {"unit": unit["id"]},
                  "boolean", default=True)


def immediate_rally_option(key: str, pairs: list[dict], refused: list[dict]) -> dict[str, Any]:
    """The rally tried at once if the general is captured this bound (S5.6 point 6), declared in advance."""
    return option(f"{key}.immediate_rallies[]", "option.immediate_rally", {}, "choice", allowed=pairs, forbidden=refused)


def rally_move_option(b: Battle, unit: dict[str, Any], side_key: str) -> dict[str, Any] | None:
    """The path of this unit if a rally of its corps succeeds (S5.6 point 4), offered to the unit itself.

    Offered when some general of its side may try to rally its corps and the
    corps is demoralised (rallying is what ends a demoralisation).  A rally
    move is free and is not a march move; the paths start from where the unit
    stands now.  The moves run in the order of the units' keys.
    """
    corps = b.corps[unit["corps_id"]]
    if not (corps["demoralised"] and b.grounded(unit) and unit["troop_type"] != "Lu" and not unit["projection_failed"]):
        return None
    generals = [b.general_of(c) for c in b.side_corps(unit["side"])]
    if all(rally_problem(b, g, corps) is not None for g in generals):
        return None
    saved, unit["activations"] = unit["activations"], 0
    paths = unit_paths(b, unit)
    unit["activations"] = saved
    return option(f"{side_key}.rallies[].moves.{unit['id']}", "option.rally_move", {"unit": unit["id"]}, "list",
                  allowed=[[]] + paths, default=[])


def arrival_hexes(b: Battle, unit: dict[str, Any], cache: dict) -> list[dict]:
    """Every hex the unit may arrive on (S5.5.2), the same for every unit of one kind."""
    mclass = sheets.derive(unit)["movement_class"]
    kind = (unit["troop_type"], mclass, unit["character_unit"])
    if kind not in cache:
        cache[kind] = [h for h in hexgrid.all_hexes(b.s["map"]["width"], b.s["map"]["height"])
                       if movement.enter_cost(b, unit["troop_type"], mclass, h) is not None
                       and movement.fits(lambda h=h: movement.check_destination(b, unit, h, "hex"))]
    return cache[kind]


def gm_options(b: Battle) -> list[dict[str, Any]]:
    """The GM's declarations (S9.13, S11.4): arrivals, departures, a listed modifier (M15); and the three
    lists whole, in the engine's shapes, for what the fields do not cover (several modifiers)."""
    opts: list[dict[str, Any]] = []
    cache: dict = {}
    for u in b.s["units"]:
        if u["status"] == "reserve" or (u["status"] == "dispersed" and u["troop_type"] == "St"):
            opts.append(option(f"gm.arrivals.{u['id']}.hex", "option.arrival_hex", {"unit": u["id"]}, "hex",
                               allowed=arrival_hexes(b, u, cache)))
            opts.append(option(f"gm.arrivals.{u['id']}.facing", "option.arrival_facing", {"unit": u["id"]}, "integer",
                               min=0, max=5, default=u["facing"]))
    for u in b.s["units"]:
        if u["status"] == "active":
            opts.append(option(f"gm.departures.{u['id']}", "option.departure", {"unit": u["id"]}, "choice",
                               allowed=["other", "unstable"]))
    opts += [option(f"gm.{name}", f"option.list.{name}", {}, "list", default=[]) for name in ("arrivals", "departures", "modifiers")]
    opts += [
        option("gm.modifiers[].combat_id", "option.modifier_combat", {}, "choice", allowed=combat_ids(b)),
        option("gm.modifiers[].combatant_id", "option.modifier_combatant", {}, "choice",
               allowed=[t for t, _p in combatants(b)]),
        option("gm.modifiers[].value", "option.modifier_value", {}, "integer", min=-10, max=10, default=0),
        option("gm.modifiers[].label", "option.modifier_label", {}, "text", max_length=200, default=""),
    ]
    return opts
