"""The service worker in Debian's chromium: a push message becomes a notification with the message's title,
body and link.  The message is handed to the worker through the DevTools protocol, as a push service would."""

import json
import shutil
import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def registration_id(page, cdp, scope: str) -> str:
    """The worker's registration, from the DevTools events (Playwright hands them over while it waits)."""
    found = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: found.update({r["scopeURL"]: r["registrationId"] for r in event["registrations"]}))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 20
    while scope not in found and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    return found[scope]


def test_a_push_message_shows_its_notification(browser, daphne_server, tmp_path):
    base = daphne_server(demo=True).replace("127.0.0.1", "localhost")  # a secure context: workers run
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"),
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
    context.grant_permissions(["notifications"], origin=base)
    page = context.pages[0]
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "demo-player1")
    page.fill("#id_password", "masscombat-demo")
    page.locator("main button[type=submit]").click()
    page.goto(base + "/accounts/notifications/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    expect(page.locator("#push-subscribe")).to_be_visible()  # this browser can push: the button is offered

    cdp = context.new_cdp_session(page)
    message = {"title": "Col: your turn", "body": "Round 2 has begun: give your orders.",
               "url": "https://elsewhere.example/battles/7/#battle-rounds", "tag": "battle-7-turn"}
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": base + "/", "registrationId": registration_id(page, cdp, base + "/"),
                                                   "data": json.dumps(message)})
    shown = []
    deadline = time.monotonic() + 20
    while not shown and time.monotonic() < deadline:
        shown = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.getNotifications())"
                              ".then(list => list.map(n => ({title: n.title, body: n.body, tag: n.tag, data: n.data})))")
        page.wait_for_timeout(200)
    assert shown == [{"title": message["title"], "body": message["body"], "tag": message["tag"],
                      "data": {"url": message["url"]}}]
    context.close()
