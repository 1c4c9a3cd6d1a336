"""Ready-to-play demo battles, for ``manage.py demo``.

7th Sea: two armies (Montaigne for the first demo player, Castille for the
second), one hero each, and the battle set up between them at round 1.
SYNAPSE: the rosters demo's two worked-example armies and its character.
Running it again finds what exists and creates only what is missing.
"""

import importlib

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Bataille du col de la Rose"
SYNAPSE_BATTLE_NAME = "Bataille de la Trébie"
JDRWIKI_BATTLE_NAME = "Bataille du gué de Loreval"
ARMIES = [
    ("Montaigne", {"name": "Montaigne", "troops": 2400, "general": {"name": "Général Montegue", "wits": 3,
                                                                     "strategy": 3, "incitation": 2}}),
    ("Castille", {"name": "Castille", "troops": 2000, "fortification_level": 2,
                  "general": {"name": "Don Alvaro", "wits": 3, "strategy": 2, "incitation": 1}}),
]
HEROES = [
    ("Lucie", "a", {"wits": 3, "tactics": 2, "leadership": 2, "brawn": 2, "resolve": 3, "unit_type": "cavalry",
                    "commission": "lieutenant", "reputation": 12}),
    ("Gaston", "b", {"wits": 2, "tactics": 3, "leadership": 1, "brawn": 3, "resolve": 2, "unit_type": "infantry",
                     "reputation": 8}),
]


def load(campaign, gm, players) -> Battle | None:
    """The demo battle of the campaign's ruleset, if it has one."""
    if campaign.ruleset == "seventh_sea":
        return _seventh_sea(campaign, gm, players)
    if campaign.ruleset == "synapse":
        return _synapse(campaign, gm)
    if campaign.ruleset == "jdrwiki":
        return _jdrwiki(campaign, gm)
    if campaign.ruleset in ("dnd5e", "heros"):  # played on a grid: each in a module of its own
        return importlib.import_module(f"masscombat.battles.demo_{campaign.ruleset}").load(campaign, gm, players)
    return None


def _jdrwiki(campaign, gm) -> Battle | None:
    """The rosters demo's two armies on the maps demo's valley, its first hero with the first army."""
    from masscombat.maps.models import BattleMap

    existing = Battle.objects.filter(campaign=campaign, name=JDRWIKI_BATTLE_NAME).first()
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk")[:2])
    valley = BattleMap.objects.filter(campaign=campaign, kind="zones").order_by("pk").first()
    if existing is not None or len(armies) < 2 or valley is None:
        return existing
    zones = sorted((valley.data or {}).get("zones", {}))
    deploy = {"north": "north", "south": "ford"} if {"north", "ford"} <= set(zones) else dict(zip(("north", "south"), zones))
    hero = Hero.objects.filter(campaign=campaign).order_by("pk").first()
    return services.create_battle(
        campaign, gm, name=JDRWIKI_BATTLE_NAME, armies={"a": armies[0], "b": armies[1]},
        heroes=[(hero, "a")] if hero else [],
        options={"deploy_a": f"{valley.pk}:{deploy['north']}", "deploy_b": f"{valley.pk}:{deploy['south']}"})


def _synapse(campaign, gm) -> Battle | None:
    existing = Battle.objects.filter(campaign=campaign, name=SYNAPSE_BATTLE_NAME).first()
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk")[:2])
    if existing is not None or len(armies) < 2:
        return existing
    heroes = [(hero, "A") for hero in Hero.objects.filter(campaign=campaign)
              if any(unit.get("id") == hero.data.get("unit_id") for unit in armies[0].data.get("units", []))]
    return services.create_battle(campaign, gm, name=SYNAPSE_BATTLE_NAME, armies={"A": armies[0], "B": armies[1]},
                                  heroes=heroes, options={})


def _seventh_sea(campaign, gm, players) -> Battle:
    existing = Battle.objects.filter(campaign=campaign, name=BATTLE_NAME).first()
    if existing is not None:
        return existing
    armies = {}
    for (name, data), side, commander in zip(ARMIES, "ab", players):
        army = Army.objects.filter(campaign=campaign, name=name).first() or roster_services.create_army(
            campaign, name=name, user=gm, data=data, commander=commander)
        armies[side] = army
    heroes = []
    for (name, side, data), owner in zip(HEROES, players):
        hero = Hero.objects.filter(campaign=campaign, name=name).first() or roster_services.create_hero(
            campaign, name=name, user=gm, owner=owner, army=armies[side],
            data={"id": name.lower(), "name": name, "side": side, **data})
        heroes.append((hero, side))
    return services.create_battle(campaign, gm, name=BATTLE_NAME, armies=armies, heroes=heroes,
                                  options={"attacker": "a", "wound_checks": True})
