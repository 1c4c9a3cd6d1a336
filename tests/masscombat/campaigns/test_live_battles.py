"""A campaign page's socket hears when a battle starts or ends, and not at every declaration."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from masscombat.battles import services
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.rosters import services as roster_services
from tests.masscombat.campaigns.test_live import connect

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_campaign_page_hears_a_battle_start_pause_and_end(gm, player):
    sea_campaign = campaign_services.create_campaign(gm, name="Théah", ruleset="seventh_sea")
    sea_campaign.memberships.create(user=player, role=Role.PLAYER)
    armies = {side: roster_services.create_army(
        sea_campaign, name=name, user=gm, commander=player if side == "a" else None,
        data={"name": name, "troops": 2000, "general": {"wits": 2, "strategy": 2}})
        for side, name in (("a", "Montaigne"), ("b", "Castille"))}

    def start():
        return services.create_battle(sea_campaign, gm, name="Col", armies=armies, heroes=[], options={"attacker": "a"})

    async def scenario():
        communicator = connect(player, sea_campaign.pk)
        assert (await communicator.connect())[0]
        battle = await database_sync_to_async(start)()
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await database_sync_to_async(services.declare)(player, battle.pk, "side:a", {}, expected_round=1)
        assert await communicator.receive_nothing(timeout=0.5)  # a declaration changes nothing the page lists
        await database_sync_to_async(services.set_paused)(gm, battle.pk, True)
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await database_sync_to_async(services.end_battle)(gm, battle.pk, winner="none")
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await communicator.disconnect()

    async_to_sync(scenario)()
