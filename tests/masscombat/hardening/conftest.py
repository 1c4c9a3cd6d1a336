"""A campaign world for the hardening tests: every kind of object, every kind of caller."""

import pytest

from masscombat.battles import services as battle_services
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.maps import services as map_services
from masscombat.rosters import services as roster_services


@pytest.fixture
def make_world(gm, player, outsider, make_user):
    """A 7th Sea campaign with a battle between side A (Pippin's) and side B (Merry's), and a map campaign.

    ``make_world(label)`` names every object with ``label(default name)``: the
    hostile-content tests give them dangerous names.
    """

    def make(label=lambda name: name):
        other = make_user("merry", display_name=label("Merry"))
        campaign_services.create_campaign(outsider, name="Isengard", ruleset="heros")
        sea = campaign_services.create_campaign(gm, name=label("Théah"), ruleset="seventh_sea",
                                                description=label("Swashbuckling"))
        zones = campaign_services.create_campaign(gm, name=label("Loreval"), ruleset="jdrwiki")
        for campaign in (sea, zones):
            campaign.memberships.create(user=player, role=Role.PLAYER)
            campaign.memberships.create(user=other, role=Role.PLAYER)
        campaign_services.regenerate_invitation(sea, by=gm)
        army_a = roster_services.create_army(
            sea, name=label("Montaigne"), user=gm, commander=player,
            data={"name": label("Montaigne")[:80], "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}},
        )
        army_b = roster_services.create_army(
            sea, name=label("Castille"), user=gm, commander=other,
            data={"name": label("Castille")[:80], "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0},
        )
        hero = roster_services.create_hero(
            sea, name=label("Lucie"), user=gm, owner=player, army=army_a,
            data={"id": "lucie", "name": label("Lucie")[:80], "side": "a", "wits": 2, "tactics": 3, "leadership": 2,
                  "brawn": 3, "resolve": 2, "unit_type": "artillery", "reputation": 10},
        )
        battle = battle_services.create_battle(
            sea, gm, name=label("Bataille du col"), armies={"a": army_a, "b": army_b}, heroes=[(hero, "a")],
            options={"attacker": "a", "wound_checks": True},
        )
        battle_map = map_services.create_map(zones, name=label("Le gué"), width=3, height=2)
        return {
            "sea": sea, "zones": zones, "army": army_a, "hero": hero, "battle": battle, "map": battle_map,
            "target": other, "users": {"anonymous": None, "outsider": outsider, "other_side": other,
                                        "player": player, "gm": gm},
        }

    return make


@pytest.fixture
def world(make_world):
    return make_world()
