"""The campaign websocket: members hear that the campaign changed; others cannot listen.

Runs on whichever channel layer the settings chose: in-memory in pass 1,
Redis in pass 2 of ``bin/test``.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from masscombat.asgi import application
from masscombat.campaigns import selectors, services
from masscombat.campaigns.consumers import CampaignConsumer

pytestmark = pytest.mark.django_db(transaction=True)


def connect(user, campaign_id):
    communicator = WebsocketCommunicator(CampaignConsumer.as_asgi(), f"/ws/campaigns/{campaign_id}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"campaign_id": campaign_id}}
    return communicator


def test_a_member_hears_a_join(campaign, player, outsider):
    async def scenario():
        communicator = connect(player, campaign.pk)
        connected, _ = await communicator.connect()
        assert connected
        code = await database_sync_to_async(lambda: selectors.active_invitation(campaign).code)()
        await database_sync_to_async(services.join_campaign)(outsider, code)
        assert await communicator.receive_json_from(timeout=5) == {"type": "campaign.changed"}
        await communicator.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_outsiders_are_refused(campaign, outsider, who):
    user = outsider if who == "outsider" else AnonymousUser()

    async def scenario():
        communicator = connect(user, campaign.pk)
        connected, code = await communicator.connect()
        assert not connected and code == 4403

    async_to_sync(scenario)()


def test_the_channel_layer_round_trips():
    layer = get_channel_layer()

    async def scenario():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ping"})
        assert await layer.receive(channel) == {"type": "ping"}

    async_to_sync(scenario)()


def test_the_asgi_router_serves_the_websocket_route(campaign, client_for, gm):
    """Through the real ASGI application: session cookie, origin check, route."""
    client = client_for(gm)
    cookie = client.cookies["sessionid"].value

    async def scenario():
        communicator = WebsocketCommunicator(
            application,
            f"/ws/campaigns/{campaign.pk}/",
            headers=[(b"cookie", f"sessionid={cookie}".encode()), (b"origin", b"http://testserver"), (b"host", b"testserver")],
        )
        connected, _ = await communicator.connect()
        assert connected
        await communicator.disconnect()

    async_to_sync(scenario)()
