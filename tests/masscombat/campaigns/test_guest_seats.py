"""Guest seats on the campaign side: their sockets as a member's, and the GM removing them.

Through the real ASGI application (session cookie, origin check), on the
channel layer the settings chose.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from masscombat.accounts import guests
from masscombat.asgi import application
from masscombat.campaigns import selectors
from masscombat.campaigns.consumers import REFUSED

pytestmark = pytest.mark.django_db(transaction=True)


def guest_browser(campaign, name: str = "Éowyn") -> Client:
    browser = Client()
    response = browser.post(f"/join/{selectors.active_invitation(campaign).code}/", {"name": name})
    assert response.status_code == 302
    return browser


def socket(browser: Client, campaign) -> WebsocketCommunicator:
    session = browser.cookies["sessionid"].value
    return WebsocketCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=[
        (b"cookie", f"sessionid={session}".encode()), (b"origin", b"http://testserver"), (b"host", b"testserver")])


def test_the_gm_removing_a_guest_closes_its_socket(campaign, client_for, gm):
    browser = guest_browser(campaign)
    guest_id = int(browser.session["_auth_user_id"])
    master = client_for(gm)
    page = master.get(f"/campaigns/{campaign.pk}/members/").content.decode()
    assert f"/campaigns/{campaign.pk}/members/{guest_id}/remove/" in page  # offered like a member's

    async def scenario():
        communicator = socket(browser, campaign)
        connected, _ = await communicator.connect()
        assert connected
        removed = await database_sync_to_async(master.post)(f"/campaigns/{campaign.pk}/members/{guest_id}/remove/")
        assert removed.status_code == 302
        assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": REFUSED}
        refused = socket(browser, campaign)
        assert (await refused.connect())[0] is False  # no way back in through the socket

    async_to_sync(scenario)()
    assert not campaign.memberships.filter(user_id=guest_id).exists()
    assert browser.get(campaign.get_absolute_url()).status_code == 404


def test_a_restarted_phone_gets_its_socket_back_from_the_seat_cookie(campaign):
    browser = guest_browser(campaign)
    restarted = Client()
    restarted.cookies[guests.COOKIE] = browser.cookies[guests.COOKIE].value
    assert restarted.get(campaign.get_absolute_url()).status_code == 200  # the page logs the seat in

    async def scenario():
        communicator = socket(restarted, campaign)
        connected, _ = await communicator.connect()
        assert connected
        await communicator.disconnect()

    async_to_sync(scenario)()
