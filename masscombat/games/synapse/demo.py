"""The SYNAPSE demo battle, for ``manage.py demo``: the rosters demo's two worked-example armies and
its character.  Running it again finds what exists and creates only what is missing."""

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Bataille de la Trébie"


def load(campaign, gm, players) -> Battle | None:
    """The demo battle of a SYNAPSE campaign, once its two armies exist."""
    existing = Battle.objects.filter(campaign=campaign, name=BATTLE_NAME).first()
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk")[:2])
    if existing is not None or len(armies) < 2:
        return existing
    heroes = [(hero, "A") for hero in Hero.objects.filter(campaign=campaign)
              if any(unit.get("id") == hero.data.get("unit_id") for unit in armies[0].data.get("units", []))]
    return services.create_battle(campaign, gm, name=BATTLE_NAME, armies={"A": armies[0], "B": armies[1]},
                                  heroes=heroes, options={})
