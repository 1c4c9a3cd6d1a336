"""The HÉROS demo battle, for ``manage.py demo``: two small armies on the demo hex map.

The first demo player commands the Ost de Valombre (side A, along the north
edge, first to play), the second the Horde des Cendres (side B, south); the
rosters demo's hero goes with side A as a character played by its owner.
Running it again finds what exists and creates only what is missing.
"""

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero

BATTLE_NAME = "Bataille de la Plaine de Cendres"


def _unit(uid, name, troop_type, foot, mounted, move, **extra) -> dict:
    return {"id": uid, "name": name, "corps_id": "c1", "troop_type": troop_type, "factor_vs_foot": foot,
            "factor_vs_mounted": mounted, "move": move, **extra}


ARMIES = [
    ("Ost de Valombre", {
        "side_id": "valombre",
        "corps": [{"id": "c1", "name": "Bannière du duc", "kind": "cinc", "general_id": "aldric"}],
        "units": [_unit("lanciers", "Lanciers de Valombre", "Sp", 4, 4, 3),
                  _unit("archers", "Archers du Val", "Bw", 2, 4, 3, range=3),
                  _unit("chevaliers", "Chevaliers du Lys", "Kn", 3, 4, 4)],
        "characters": [{"id": "aldric", "name": "Duc Aldric", "corps_id": "c1", "role": "cinc", "combat_bonus": 2}],
    }),
    ("Horde des Cendres", {
        "side_id": "cendres",
        "corps": [{"id": "c1", "name": "Meute de Gorbag", "kind": "cinc", "general_id": "gorbag"}],
        "units": [_unit("guerriers", "Guerriers des Cendres", "Wb", 3, 2, 3, regular=False),
                  _unit("frondeurs", "Frondeurs", "Ps", 2, 2, 4, regular=False, range=2),
                  _unit("loups", "Chevaucheurs de loups", "LH", 2, 2, 5, regular=False)],
        "characters": [{"id": "gorbag", "name": "Gorbag", "corps_id": "c1", "role": "cinc", "combat_bonus": 2}],
    }),
]


def load(campaign, gm, players) -> Battle | None:
    from masscombat.maps.models import BattleMap

    existing = Battle.objects.filter(campaign=campaign, name=BATTLE_NAME).first()
    plain = BattleMap.objects.filter(campaign=campaign, kind="hex").order_by("pk").first()
    if existing is not None or plain is None:
        return existing
    armies = {}
    for (name, data), side, commander in zip(ARMIES, ("a", "b"), list(players) + [None, None]):
        armies[side] = Army.objects.filter(campaign=campaign, name=name).first() or roster_services.create_army(
            campaign, name=name, user=gm, data=data, commander=commander, player_may_edit=commander is not None)
    hero = Hero.objects.filter(campaign=campaign).exclude(status=Hero.Status.DEAD).order_by("pk").first()
    return services.create_battle(
        campaign, gm, name=BATTLE_NAME, armies=armies, heroes=[(hero, "a")] if hero else [],
        options={"map": str(plain.pk), "first_side": "a", "deploy_a": "north", "deploy_b": "south",
                 "max_turns": None})
