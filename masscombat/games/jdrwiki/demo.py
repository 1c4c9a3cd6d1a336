"""The JdRWiki demo battle, for ``manage.py demo``: the rosters demo's two armies on the maps demo's
valley.  Running it again finds what exists and creates only what is missing."""

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.maps.models import BattleMap
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Bataille du gué de Loreval"


def load(campaign, gm, players) -> Battle | None:
    """The rosters demo's two armies on the maps demo's valley, its first hero with the first army."""
    existing = Battle.objects.filter(campaign=campaign, name=BATTLE_NAME).first()
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk")[:2])
    valley = BattleMap.objects.filter(campaign=campaign, kind="zones").order_by("pk").first()
    if existing is not None or len(armies) < 2 or valley is None:
        return existing
    zones = sorted((valley.data or {}).get("zones", {}))
    deploy = {"north": "north", "south": "ford"} if {"north", "ford"} <= set(zones) else dict(zip(("north", "south"), zones))
    hero = Hero.objects.filter(campaign=campaign).order_by("pk").first()
    return services.create_battle(
        campaign, gm, name=BATTLE_NAME, armies={"a": armies[0], "b": armies[1]},
        heroes=[(hero, "a")] if hero else [],
        options={"deploy_a": f"{valley.pk}:{deploy['north']}", "deploy_b": f"{valley.pk}:{deploy['south']}"})
