"""Open campaign pages hear about roster changes and reload the roster lists (members only)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from masscombat.campaigns.consumers import CampaignConsumer
from masscombat.rosters import examples, services
from masscombat.rosters.models import Army


def _connect(user, campaign_id):
    communicator = WebsocketCommunicator(CampaignConsumer.as_asgi(), f"/ws/campaigns/{campaign_id}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"campaign_id": campaign_id}}
    return communicator


@pytest.mark.django_db(transaction=True)
def test_a_member_hears_an_army_saved_and_deleted(campaign_for, gm, player):
    campaign = campaign_for("synapse")

    async def scenario():
        communicator = _connect(player, campaign.pk)
        assert (await communicator.connect())[0]
        army = await database_sync_to_async(services.create_army)(
            campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await database_sync_to_async(services.update_army)(army, army.data, user=gm, expected_version=1)
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await database_sync_to_async(services.delete)(Army, campaign, army.pk)
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await communicator.disconnect()

    async_to_sync(scenario)()


@pytest.mark.django_db
def test_the_section_partial_follows_the_roster_rules(campaign_for, gm, player, outsider, client_for):
    campaign = campaign_for("synapse")
    services.create_army(campaign, name="Hidden host", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"],
                         visible_to_players=False)
    url = f"/campaigns/{campaign.pk}/rosters/"
    assert "Hidden host" in client_for(gm).get(url).content.decode()
    player_page = client_for(player).get(url)
    assert player_page.status_code == 200 and "Hidden host" not in player_page.content.decode()
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302
