"""A GM signs up, creates a campaign and invites a player who joins from a phone.

Run in both languages: the browser's language picks French or English, and
the header's switch changes it for good.
"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = {
    "en": {"signup": "Sign up", "new": "New campaign", "create": "Create the campaign", "join": "Join",
           "campaigns": "Your campaigns", "members": "Members", "login_heading": "Log in"},
    "fr": {"signup": "S’inscrire", "new": "Nouvelle campagne", "create": "Créer la campagne", "join": "Rejoindre",
           "campaigns": "Vos campagnes", "members": "Membres", "login_heading": "Connexion"},
}
PASSWORD = "Tabletop-battle-42"


def sign_up(page, text, username, display_name, *, via="header"):
    """Sign up through the header's link, or the one in the page (which keeps ``next``)."""
    page.locator(via).get_by_role("link", name=text["signup"]).click()
    page.fill("#id_username", username)
    page.fill("#id_display_name", display_name)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main").get_by_role("button", name=text["signup"]).click()


def assert_fits(page):
    """No horizontal scrolling on the phone."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_gm_invites_a_player_who_joins_from_a_phone(browser, live_server, screenshot, lang):
    text = TEXT[lang]

    gm_context = browser.new_context(locale=LOCALES[lang], **DESKTOP)
    gm = gm_context.new_page()
    gm.goto(live_server.url)
    screenshot(gm, f"{lang}-desktop-1-landing")
    sign_up(gm, text, f"gm_{lang}", "Morgane")
    expect(gm.locator("h1")).to_have_text(text["campaigns"])

    gm.get_by_role("link", name=text["new"]).click()
    gm.fill("#id_name", "La bataille des Champs")
    gm.select_option("#id_ruleset", "heros")
    gm.fill("#id_description", "Deux armées, une plaine, un gué.")
    gm.get_by_role("button", name=text["create"]).click()
    code = gm.locator(".join-code").inner_text()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    link = gm.locator("input.copy-link").input_value()
    expect(gm.locator("img.qr")).to_be_visible()
    # Waits for the image itself (a string evaluated in the page would break the content security policy).
    assert gm.locator("img.qr").evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
    screenshot(gm, f"{lang}-desktop-2-invitation")

    phone_context = browser.new_context(locale=LOCALES[lang], **PHONE)
    phone = phone_context.new_page()
    # The link names this machine's LAN address (the GM browses on localhost); the test server
    # listens on the loopback only, so the phone opens the same path there.
    assert urlsplit(link).path == f"/join/{code.replace('-', '')}/"
    phone.goto(live_server.url + urlsplit(link).path)
    # Not logged in: the link offers a guest seat or an account (tests/masscombat/browser/test_guest_seat.py).
    phone.locator("main").get_by_role("link", name=text["login_heading"]).click()
    expect(phone.locator("h1")).to_have_text(text["login_heading"])
    assert_fits(phone)
    screenshot(phone, f"{lang}-phone-1-login")
    sign_up(phone, text, f"player_{lang}", "Théo", via="main")
    expect(phone.locator("main")).to_contain_text("La bataille des Champs")
    screenshot(phone, f"{lang}-phone-2-join")
    phone.locator("main").get_by_role("button", name=text["join"]).click()
    expect(phone.locator("h1")).to_have_text("La bataille des Champs")
    expect(phone.locator("#members")).to_contain_text("Théo")
    assert_fits(phone)
    screenshot(phone, f"{lang}-phone-3-campaign")

    gm.goto(live_server.url + "/")
    gm.get_by_role("link", name=re.compile("La bataille des Champs")).click()
    expect(gm.locator("#members")).to_contain_text("Théo")
    screenshot(gm, f"{lang}-desktop-3-campaign")

    phone.goto(live_server.url + "/")
    assert_fits(phone)
    screenshot(phone, f"{lang}-phone-4-home")
    gm_context.close()
    phone_context.close()


def test_language_switch_is_remembered(browser, live_server):
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.goto(live_server.url)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(live_server.url + "/accounts/login/")
    expect(page.locator("h1")).to_have_text("Log in")
    page.get_by_role("button", name="FR").click()
    expect(page.locator("h1")).to_have_text(TEXT["fr"]["login_heading"])
    context.close()
