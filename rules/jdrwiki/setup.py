"""Setting up a battle (S5.2, operation ``new-battle``) and its aftermath (S5.16)."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.jdrwiki import initiative, sheets, tables
from rules.jdrwiki.battle import Battle


def new_battle(data: dict, dice: Dice, log: Log) -> dict:
    """Build the round-1 state from the GM's setup; every S5.2 check raises with its input path."""
    zones = data["map"]["zones"]
    armies, corps, seen_zones = {}, {}, {}
    sides = set()
    for index, army in enumerate(data["armies"]):
        path = f"armies[{index}]."
        if army["id"] in armies:
            raise InvalidInput.field(f"{path}id", "army ids must be unique")
        sheets.validate_army(army, path)
        sheet = sheets.army_sheet(army)
        sides.add(army["side"])
        setup = army.pop("corps")
        given = [c["hp"] for c in setup]
        if len(setup) == 1 and given[0] is None:
            setup[0]["hp"] = sheet["hp"]
        elif any(hp is None for hp in given) or sum(given) != sheet["hp"]:
            raise InvalidInput.field(f"{path}corps", f"the corps' hit points must be given and sum to {sheet['hp']} (S5.2)")
        for k, item in enumerate(setup):
            where = f"{path}corps[{k}]"
            if item["id"] in corps:
                raise InvalidInput.field(f"{where}.id", "corps ids must be unique in the battle")
            if item["zone"] not in zones:
                raise InvalidInput.field(f"{where}.zone", "unknown zone")
            if item["zone"] in seen_zones:
                raise InvalidInput.field(f"{where}.zone", "one corps per zone (H42)")
            seen_zones[item["zone"]] = item["id"]
            corps[item["id"]] = {"id": item["id"], "army_id": army["id"], "zone": item["zone"], "hp": item["hp"],
                                 "advantage": sheet["start_advantage"], "initiative": 0, "status": "active",
                                 "total_melee_with": None, "effects": []}
        armies[army["id"]] = {**army, "ruthless": False, "army_heroism_points": sheet["army_heroism_points"],
                              "confusion_round": None, "confusion_penalty": 0, "status": "active"}
    if sides != {"a", "b"}:
        raise InvalidInput.field("armies", "a battle needs armies on both sides a and b (S5.2)")
    advantaged = {a["side"] for a in armies.values() if "tactical_advantage" in a["talents"]}
    if advantaged == {"a", "b"}:
        raise InvalidInput.field("armies", "only one side may hold tactical_advantage (H45)")
    heroes = {}
    commanders: set[str] = set()
    for index, hero in enumerate(data["heroes"]):
        path = f"heroes[{index}]."
        if hero["id"] in heroes:
            raise InvalidInput.field(f"{path}id", "hero ids must be unique")
        if hero["army_id"] not in armies:
            raise InvalidInput.field(f"{path}army_id", "unknown army")
        if hero["corps_id"] not in corps or corps[hero["corps_id"]]["army_id"] != hero["army_id"]:
            raise InvalidInput.field(f"{path}corps_id", "must be a corps of the hero's army")
        info = sheets.validate_hero_bonuses(hero, path)
        if not info["can_be_hero"]:
            raise InvalidInput.field(f"{path}level", "an ordinary character cannot be a hero (S4.9)")
        if hero["is_commander"]:
            if hero["army_id"] in commanders:
                raise InvalidInput.field(f"{path}is_commander", "at most one commander-hero per army (S5.2)")
            commanders.add(hero["army_id"])
        heroes[hero["id"]] = {**hero, "available_from_round": 1, "status": "active", "fate": None,
                              "death_avoided": False}
    participants = sum(sum(u["count"] for u in a["units"]) for a in armies.values())
    if participants < tables.MINIMUM_PARTICIPANTS:
        raise InvalidInput.field("armies", f"{participants} combatants: a battle needs at least "
                                           f"{tables.MINIMUM_PARTICIPANTS} (S6.12, H41)")
    minutes = tables.round_minutes(participants)
    state = {"ruleset": "jdrwiki", "name": data["name"], "round": 1, "phase": "declaration",
             "conflict_started": data["conflict_started"],
             "clock": {"round_minutes": minutes, "start_time": data["start_time"], "elapsed_minutes": 0},
             "map": data["map"], "armies": armies, "corps": corps, "heroes": heroes, "ended": False, "winner": None}
    battle = Battle(state, dice, log, path="")
    log.add("S4.17", "battle.clock", "{participants} participants: rounds of {minutes} minutes.",
            participants=participants, minutes=minutes)
    for cid in sorted(corps):  # S5.2 step 6: the first roll, no grace round
        initiative.roll(battle, cid)
    order = battle.resolution_order()
    return {"battle": battle, "participants": participants, "round_minutes": minutes, "resolution_order": order,
            "declaration_order": list(reversed(order))}


def aftermath(battle: Battle) -> dict:
    """S5.16: losses in hit points, heroes' fates, army outcomes."""
    st = battle.state
    standing = {side: any(battle.side_of(c) == side for c in battle.active_corps()) for side in ("a", "b")}
    winner = st["winner"]
    if winner is None and standing["a"] != standing["b"]:
        winner = "a" if standing["a"] else "b"
    armies = {}
    for army_id, army in sorted(st["armies"].items()):
        initial = battle.sheets[army_id]["hp"]
        final = sum(c["hp"] for c in st["corps"].values() if c["army_id"] == army_id and c["status"] in ("active", "fled"))
        lost = max(0, initial - final)
        if army["status"] in ("annihilated", "fled"):
            status = army["status"]
        else:
            status = "victorious" if winner == army["side"] else "standing"
        armies[army_id] = {"status": status, "hp_initial": initial, "hp_final": final, "hp_lost": lost,
                           "hp_lost_percent": 100 * lost // initial}
        battle.log.add("S5.16", "aftermath.army", "{army}: {status}, {lost} hp lost of {initial} ({percent}%).",
                       army=army_id, status=status, lost=lost, initial=initial, percent=armies[army_id]["hp_lost_percent"])
    heroes = {}
    for hero_id, hero in sorted(st["heroes"].items()):
        if armies[hero["army_id"]]["status"] == "annihilated":
            fate = "dead"
        elif hero["status"] == "out":
            fate = hero["fate"] or "dead"
        else:
            fate = "unharmed"
        points = st["armies"][hero["army_id"]]["commander"]["heroism_points"] if hero["is_commander"] \
            else hero["heroism_points"]
        heroes[hero_id] = {"fate": fate, "heroism_points": points}
        battle.log.add("S7.4.6", "aftermath.hero", "{hero}: {fate}.", hero=hero_id, fate=fate)
    return {"winner": winner, "armies": armies, "heroes": heroes,
            "elapsed_minutes": st["clock"]["elapsed_minutes"]}
