"""battle.js notices a live event it never got and catches up by itself, on an open socket, through the server.

Aline's socket goes through Playwright's websocket route, which loses the
GM's "paused" event and the parts pushed after it on their way to her page
(as a Redis cut loses them): the socket stays open.  The next event she hears
names it as the one before (``prev``); her page says hello with the last
number it has, gets the lost event and the next one from the catch-up, applies
both, in order, and the parts as they are now.
"""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE, enter_battle, leave_the_room

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


class LossyRoute:
    """A page's battle socket, relayed message by message; the first "status" event from the server is lost,
    with the parts pushed after it (binary gzipped frames), as a Redis cut loses the whole message."""

    def __init__(self):
        self.lost, self.hellos, self.events = None, [], []
        self.losing = False

    def __call__(self, ws):
        server = ws.connect_to_server()

        def from_server(message):
            if isinstance(message, bytes):  # a "parts" frame: the HTML pushed after the event before it
                if not self.losing:
                    ws.send(message)
                return
            data = json.loads(message)
            self.losing = False
            if data.get("type") == "event" and data["kind"] == "status" and self.lost is None:
                self.lost, self.losing = data, True
                return
            if data.get("type") == "event":
                self.events.append(data)
            ws.send(message)

        def from_page(message):
            data = json.loads(message)
            if data.get("type") == "hello":
                self.hellos.append(data["last_seq"])
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)


def until(page, condition, timeout=15.0):
    """Let the page run (its socket's messages reach the route) until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def test_a_page_catches_up_on_an_event_lost_under_an_open_socket(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "seventh_sea")
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    route = LossyRoute()
    aline.route_web_socket(re.compile(r"/ws/battles/\d+/$"), route)
    enter_battle(aline, base, "demo-player1", "seventh_sea")
    room = aline.locator("[data-last-seq]")
    assert len(route.hellos) == 1

    gm.get_by_role("button", name="Pause").click()
    expect(gm.get_by_role("button", name="Resume")).to_be_visible()
    until(aline, lambda: route.lost is not None)
    lost = route.lost["seq"]
    expect(room).to_have_attribute("data-last-seq", re.compile(r"\d+"))
    before = int(room.get_attribute("data-last-seq"))
    assert before < lost  # the page never saw it, and cannot know yet

    gm.get_by_role("button", name="Resume").click()
    until(aline, lambda: len(route.hellos) == 2)
    assert route.hellos[1] == before  # it asked from the last number it has, at once
    until(aline, lambda: any(e["seq"] == lost for e in route.events))  # the catch-up brought the lost one
    resumed = max(e["seq"] for e in route.events)
    expect(room).to_have_attribute("data-last-seq", str(resumed))
    # Heard live past the gap (not applied), then the catch-up: the lost one and that one again, in order.
    assert [e["seq"] for e in route.events if e["seq"] >= lost] == [resumed, lost, resumed]
    expect(aline.locator("#live-status.online")).to_be_visible()
    expect(aline.locator("#battle-status .notice")).to_have_count(0)  # running again, as the GM left it
    screenshot(aline, "gaps-fr-phone-player-caught-up")
    leave_the_room(gm, aline)
