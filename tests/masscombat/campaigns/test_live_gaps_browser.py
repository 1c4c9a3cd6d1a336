"""live.js notices a campaign change it never got and reloads the page's parts, through daphne.

Aline's campaign socket goes through Playwright's websocket route, which loses
the change the GM's pause makes (as a Redis cut loses it) and then drops her
connection.  When her page is back, the server's "ready" names a number it
never got: the parts reload once, with no event to bring the change.
"""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DEMO_BATTLES, DESKTOP, PHONE, browser, enter_battle  # noqa: F401 - fixture

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


class LossyRoute:
    """The page's campaign socket, relayed; the first change message is lost and the page's connection cut."""

    def __init__(self):
        self.lost, self.connections, self.readies = None, 0, []

    def __call__(self, ws):
        self.connections += 1
        server = ws.connect_to_server()

        def from_server(message):
            data = json.loads(message)
            if data.get("type") == "campaign.changed" and self.lost is None:
                self.lost = data
                ws.close()
                return
            if data.get("type") == "ready":
                self.readies.append(data["last_seq"])
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))


def until(page, condition, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def test_a_campaign_page_reloads_its_parts_after_a_change_it_never_got(browser, daphne_server):
    base = daphne_server(demo=True)
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    route = LossyRoute()
    aline.route_web_socket(re.compile(r"/ws/campaigns/\d+/$"), route)
    aline.goto(base + "/accounts/login/")
    aline.fill("#id_username", "demo-player1")
    aline.fill("#id_password", "masscombat-demo")
    aline.locator("main button[type=submit]").click()
    aline.locator("a", has_text=DEMO_BATTLES["seventh_sea"][0]).first.click()
    until(aline, lambda: len(route.readies) == 1)
    reloads = []
    aline.on("request", lambda request: reloads.append(request.url) if request.headers.get("hx-request") else None)

    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "seventh_sea")
    gm.get_by_role("button", name="Pause").click()
    expect(gm.get_by_role("button", name="Resume")).to_be_visible()

    until(aline, lambda: route.lost is not None and len(route.readies) == 2)
    assert route.connections == 2 and route.readies[1] == route.lost["seq"] > route.readies[0]
    until(aline, lambda: any("/members/" in url for url in reloads))  # the parts reload: the gap was seen
    expect(aline.locator("#battles")).to_contain_text(re.compile(r"pause", re.IGNORECASE))
