"""The campaign websocket: members hear that the campaign changed; others cannot listen.

A member removed, or every member of a deleted campaign, is closed with the
refusal code; unreadable messages get an error event.

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
from masscombat.campaigns.consumers import REFUSED, CampaignConsumer
from masscombat.core.permissions import Role

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
        assert (await communicator.receive_json_from(timeout=5))["type"] == "campaign.changed"
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


async def opened(user, campaign_id):
    communicator = connect(user, campaign_id)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def test_a_removed_member_is_closed_and_hears_no_more_changes(campaign, gm, player):
    async def scenario():
        page, master = await opened(player, campaign.pk), await opened(gm, campaign.pk)
        membership = await database_sync_to_async(lambda: campaign.memberships.get(user=player))()
        await database_sync_to_async(services.remove_member)(campaign, membership)
        assert await page.receive_output(timeout=5) == {"type": "websocket.close", "code": REFUSED}
        assert (await master.receive_json_from(timeout=5))["type"] == "campaign.changed"  # the GM stays
        await database_sync_to_async(services.update_campaign)(campaign, name="Renamed")
        assert await page.receive_nothing(timeout=0.5)
        assert (await master.receive_json_from(timeout=5))["type"] == "campaign.changed"
        await page.disconnect()
        await master.disconnect()

    async_to_sync(scenario)()


def test_a_role_change_keeps_the_campaign_page_open(campaign, player):
    async def scenario():
        page = await opened(player, campaign.pk)
        membership = await database_sync_to_async(lambda: campaign.memberships.get(user=player))()
        await database_sync_to_async(services.set_role)(campaign, membership, Role.GM)
        assert (await page.receive_json_from(timeout=5))["type"] == "campaign.changed"
        assert await page.receive_nothing(timeout=0.5)  # still allowed: not closed
        await page.disconnect()

    async_to_sync(scenario)()


def test_deleting_the_campaign_closes_every_page_of_it(campaign, gm, player, make_user):
    elsewhere = services.create_campaign(gm, name="Elsewhere", ruleset="dnd5e")

    async def scenario():
        pages = [await opened(user, campaign.pk) for user in (gm, player)]
        other = await opened(gm, elsewhere.pk)
        await database_sync_to_async(services.delete_campaign)(campaign)
        for page in pages:
            assert await page.receive_output(timeout=5) == {"type": "websocket.close", "code": REFUSED}
            await page.disconnect()
        assert await other.receive_nothing(timeout=0.5)  # the GM's other campaign stays open
        await other.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "{", "\ud800"])
def test_unreadable_messages_get_an_error_event(campaign, player, text):
    async def scenario():
        page = await opened(player, campaign.pk)
        await page.send_to(text_data=text)
        assert (await page.receive_json_from(timeout=5))["type"] == "error"
        await page.send_to(bytes_data=b"\x00")
        assert (await page.receive_json_from(timeout=5))["type"] == "error"
        await page.send_json_to({"type": "anything"})  # readable: nothing to answer, still open
        assert await page.receive_nothing(timeout=0.3)
        await page.disconnect()

    async_to_sync(scenario)()
