"""Campaign pages through daphne (issue #17): battles appear live, the invitation is shared and revoked with care.

- A player's open campaign page (French phone) shows a battle the GM (English desktop) starts, then
  its new status when the GM ends it, without a reload.
- The invitation page: "Copy the link" puts the link on the clipboard; "Share" shows only where the
  browser has navigator.share; "Revoke" asks first (Cancel keeps the invitation, confirming revokes
  it), and without JavaScript the form will not go until its "I am sure" box is ticked.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE
from tests.masscombat.browser.test_live_updates import log_in

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

SEA = "Démo — 7th Sea"



def open_campaign(page, base, username):
    log_in(page, base, username)
    page.locator("a", has_text=SEA).first.click()
    expect(page.locator("#battles")).to_be_visible()


def test_a_battle_started_and_ended_shows_on_the_players_open_page(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    player = browser.new_context(locale="fr-FR", **PHONE).new_page()
    open_campaign(player, base, "demo-player1")
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    open_campaign(gm, base, "demo-gm")
    player.wait_for_timeout(1000)  # the page's socket opens after load

    gm.get_by_role("link", name="New battle").click()
    gm.fill("#id_name", "Escarmouche du moulin")
    gm.locator("#id_army_a").select_option(index=1)
    gm.locator("#id_army_b").select_option(index=2)
    gm.get_by_role("button", name="Start the battle").click()
    expect(gm.locator(".battle-room")).to_be_visible()

    card = player.locator("#battles .card", has_text="Escarmouche du moulin")
    expect(card).to_be_visible()  # no reload: the campaign's socket said it changed
    expect(card.locator(".badge")).to_have_text("en cours")
    screenshot(player, "campaign-live-fr-phone-1-battle-started")

    gm.locator("details.end-battle summary").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_be_visible()
    expect(card.locator(".badge")).not_to_have_text("en cours")
    screenshot(player, "campaign-live-fr-phone-2-battle-ended")
    assert player.evaluate("performance.getEntriesByType('navigation').length") == 1


def invitation_of(page, base):
    page.locator("a", has_text=SEA).first.click()
    page.get_by_role("link", name=re.compile("Invite players|Inviter des joueurs")).click()
    expect(page.locator(".join-code")).to_be_visible()


def test_invitation_copy_share_and_revoke(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    context = browser.new_context(locale="en-GB", **DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    gm = context.new_page()
    log_in(gm, base, "demo-gm")
    invitation_of(gm, base)
    link = gm.locator("#invitation-link").input_value()
    # The GM is on 127.0.0.1: the link names this machine's address on the network, on the same port,
    # and only when it has none does the page warn that a phone cannot open it.
    port = base.rsplit(":", 1)[1]
    host = re.fullmatch(rf"http://([^/:]+):{port}/join/\w+/", link).group(1)
    warning = gm.locator(".link-warning")
    if host == "127.0.0.1":
        expect(warning).to_be_visible()
    else:
        expect(warning).to_have_count(0)

    gm.get_by_role("button", name="Copy the link").click()
    expect(gm.locator("[data-share-status]")).to_have_text("Link copied.")
    assert gm.evaluate("navigator.clipboard.readText()") == link
    assert gm.get_by_role("button", name="Share").is_visible() == gm.evaluate("!!navigator.share")

    # On a French phone first: the question in French, cancelled.
    phone = browser.new_context(locale="fr-FR", **PHONE).new_page()
    log_in(phone, base, "demo-gm")
    invitation_of(phone, base)
    code = phone.locator(".join-code").inner_text()
    phone.get_by_role("button", name="Révoquer").click()
    dialog = phone.locator("dialog.confirm-dialog")
    expect(dialog).to_contain_text("Révoquer cette invitation ?")
    expect(dialog.locator("[data-confirm-cancel]")).to_have_text("Annuler")
    screenshot(phone, "invitation-fr-phone-revoke-asked")
    dialog.locator("[data-confirm-cancel]").click()
    phone.reload()
    expect(phone.locator(".join-code")).to_have_text(code)

    gm.get_by_role("button", name="Revoke").click()
    expect(gm.locator("dialog.confirm-dialog")).to_contain_text("Revoke this invitation?")
    screenshot(gm, "invitation-en-desktop-revoke-asked")
    gm.locator("dialog.confirm-dialog [data-confirm-ok]").click()
    expect(gm.locator("main")).to_contain_text("There is no open invitation")


def test_without_javascript_revoke_waits_for_the_box(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm = browser.new_context(locale="fr-FR", java_script_enabled=False, **PHONE).new_page()
    log_in(gm, base, "demo-gm")
    invitation_of(gm, base)
    expect(gm.locator("[data-copy]")).to_be_hidden()  # it needs the script
    gm.get_by_role("button", name="Révoquer").click()
    gm.wait_for_timeout(500)
    expect(gm.locator(".join-code")).to_be_visible()  # the browser asked for the box instead
    screenshot(gm, "invitation-fr-phone-nojs-box")
    gm.get_by_label("J'en suis sûr").check()
    gm.get_by_role("button", name="Révoquer").click()
    expect(gm.locator("main")).to_contain_text("aucune invitation ouverte", ignore_case=True)
