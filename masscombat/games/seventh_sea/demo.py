"""The 7th Sea demo battle, for ``manage.py demo``: two armies (Montaigne for the first demo player,
Castille for the second), one hero each, set up at round 1.  Running it again finds what exists and
creates only what is missing."""

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Bataille du col de la Rose"
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


def load(campaign, gm, players) -> Battle:
    """The demo battle of a 7th Sea campaign."""
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
