"""Through daphne, the real ASGI server: a GM's change reaches a player's open page by websocket."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def log_in(page, base, username):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "masscombat-demo")
    page.locator("main button[type=submit]").click()


def test_removing_a_player_updates_the_other_phones(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    player = browser.new_context(locale="fr-FR", **PHONE).new_page()
    log_in(player, base, "demo-player1")
    screenshot(player, "fr-phone-5-demo-home")
    player.get_by_role("link", name="Démo — D&D 5e").click()
    expect(player.locator("#members")).to_contain_text("Bastien (démo)")

    gm = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 860}).new_page()
    log_in(gm, base, "demo-gm")
    gm.goto(player.url)
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.locator("#members li", has_text="Bastien").get_by_role("button", name="Remove").click()
    expect(gm.locator("#members")).not_to_contain_text("Bastien")  # htmx swapped the list in place

    expect(player.locator("#members")).not_to_contain_text("Bastien", timeout=10_000)
    screenshot(player, "fr-phone-6-live-update")
    screenshot(gm, "en-desktop-4-demo-campaign")
