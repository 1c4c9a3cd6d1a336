"""The campaign socket's numbers: each change message carries one, and the socket says the last one, so a page
that lost a message sees the gap.

The loss is made by numbering a change whose message never reaches the
channel layer, as when the server's Redis link is cut while it is in flight.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import transaction

from masscombat.campaigns import consumers, live, selectors, services
from tests.masscombat.campaigns.test_live import connect

pytestmark = pytest.mark.django_db(transaction=True)


def join(campaign, user) -> None:
    services.join_campaign(user, selectors.active_invitation(campaign).code)


async def hello(communicator) -> dict:
    await communicator.send_json_to({"type": "hello"})
    return await communicator.receive_json_from(timeout=5)


def test_changes_are_numbered_and_the_socket_says_the_last_number(campaign, player, outsider):
    async def scenario():
        page = connect(player, campaign.pk)
        assert (await page.connect())[0]
        ready = await hello(page)
        assert ready["type"] == "ready"
        await database_sync_to_async(join)(campaign, outsider)
        changed = await page.receive_json_from(timeout=5)
        assert changed == {"type": "campaign.changed", "seq": ready["last_seq"] + 1}
        assert (await hello(page)) == {"type": "ready", "last_seq": changed["seq"]}
        await page.disconnect()

    async_to_sync(scenario)()


def test_a_lost_message_shows_in_the_next_heartbeat(campaign, player, monkeypatch):
    monkeypatch.setattr(consumers, "COUNT_SECONDS", 0.05)

    async def scenario():
        page = connect(player, campaign.pk)
        assert (await page.connect())[0]
        ready = await hello(page)

        def lost_change():
            with monkeypatch.context() as patch:
                patch.setattr(live, "get_channel_layer", lambda: None)  # the send fails: the message is lost
                with transaction.atomic():
                    live.campaign_changed(campaign.pk)

        await database_sync_to_async(lost_change)()
        heartbeat = await page.receive_json_from(timeout=5)
        assert heartbeat == {"type": "heartbeat", "last_seq": ready["last_seq"] + 1}  # one the page never got
        await page.disconnect()

    async_to_sync(scenario)()


def test_a_rolled_back_change_takes_no_number(campaign):
    before = live.last_seq(campaign.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        live.campaign_changed(campaign.pk)
        raise RuntimeError
    assert live.last_seq(campaign.pk) == before


def test_without_a_hello_the_socket_sends_only_changes(campaign, player, outsider, monkeypatch):
    """Clients that never say hello (older pages) hear what they heard before, with the number added."""
    monkeypatch.setattr(consumers, "COUNT_SECONDS", 0.05)

    async def scenario():
        page = connect(player, campaign.pk)
        assert (await page.connect())[0]
        assert await page.receive_nothing(timeout=0.3)
        await page.disconnect()

    async_to_sync(scenario)()


def test_the_page_carries_the_number_it_was_drawn_at(campaign, player, client_for):
    """A change made between the page being drawn and its socket opening is a gap in the first "ready"."""
    join(campaign, player)
    live.campaign_changed(campaign.pk)
    page = client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert live.last_seq(campaign.pk) > 0
    assert f'data-seq="{live.last_seq(campaign.pk)}"' in page
