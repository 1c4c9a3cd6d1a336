"""The D&D 5e demo battle: the rosters demo's orc horde (first demo player) against a small
hobgoblin legion (second demo player, created here: the rosters demo has one D&D army),
with the demo's hero at the orcs' side, on the maps demo's square map.

Both sides deploy on the western bank (north and south edges), a few squares apart, so
that the stands meet in the first or second round: a battle a GM can finish in a few
rounds, or end at any time.  Running it again finds what exists and creates nothing.
"""

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Escarmouche du gué de la Rivière-Grise"
LEGION = "Légion hobgobeline"
_HOBGOBLIN = {"name": "Hobgobelin", "size": "medium", "ac": 18, "hp_max": 11, "speed_m": 9,
              "abilities": {"str": 13, "dex": 12, "con": 12, "int": 10, "wis": 10, "cha": 9},
              "attacks": [{"name": "longsword", "kind": "melee", "to_hit": 3,
                           "damage": [{"dice": "1d8+1", "type": "slashing"}]},
                          {"name": "longbow", "kind": "ranged", "to_hit": 3,
                           "damage": [{"dice": "1d8+1", "type": "piercing"}], "range_m": 45, "long_range_m": 180}]}
LEGION_DATA = {
    "name": LEGION,
    "profiles": {"hobgoblin": _HOBGOBLIN},
    "units": {
        "u1": {"name": "Ligne hobgobeline", "type": "regiment", "configuration": "march",
               "stands": [{"id": "s1", "profile": "hobgoblin"}, {"id": "s2", "profile": "hobgoblin"}]},
        "u2": {"name": "Archers hobgobelins", "type": "skirmishers",
               "stands": [{"id": "s1", "profile": "hobgoblin"}]},
    },
}


def load(campaign, gm, players) -> Battle | None:
    from masscombat.maps.models import BattleMap

    existing = Battle.objects.filter(campaign=campaign, name=BATTLE_NAME).first()
    grid = BattleMap.objects.filter(campaign=campaign, kind="square").order_by("pk").first()
    horde = Army.objects.filter(campaign=campaign).exclude(name=LEGION).order_by("pk").first()
    if existing is not None or grid is None or horde is None:
        return existing
    legion = Army.objects.filter(campaign=campaign, name=LEGION).first()
    if legion is None:
        commander = players[1] if len(players) > 1 else None
        legion = roster_services.create_army(campaign, name=LEGION, user=gm, data=LEGION_DATA, commander=commander,
                                             player_may_edit=commander is not None)
    hero = Hero.objects.filter(campaign=campaign).order_by("pk").first()
    return services.create_battle(
        campaign, gm, name=BATTLE_NAME, armies={"A": horde, "B": legion}, heroes=[(hero, "A")] if hero else [],
        options={"map": str(grid.pk), "deploy_a": "north", "deploy_b": "south", "objective_squares": "none",
                 "vp_per_unit": 3, "victory_threshold": 10})
