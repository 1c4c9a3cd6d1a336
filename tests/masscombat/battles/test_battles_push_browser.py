"""The room without JavaScript, and pushed forms that post, in real browsers through the server.

Aline's phone has JavaScript off: her room is whole (every part is in the page
as its audience's rendering), she declares with the plain form and the page
that comes back shows it.  The GM, with JavaScript, sees her declaration
arrive on the pushed status part and pauses the battle from that pushed
part's form: its CSRF token is the page's, put in place of the mark left in
the shared HTML.
"""

import pytest
from playwright.sync_api import expect

from masscombat.battles import parts
from tests.masscombat.battles.conftest import DEMO_BATTLES, DESKTOP, PHONE, enter_battle, leave_the_room

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def test_a_phone_without_javascript_declares_and_the_gm_pauses_from_a_pushed_part(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "seventh_sea")
    aline = browser.new_context(locale="fr-FR", java_script_enabled=False, **PHONE).new_page()
    aline.goto(base + "/accounts/login/")
    aline.fill("#id_username", "demo-player1")
    aline.fill("#id_password", "masscombat-demo")
    aline.locator("main button[type=submit]").click()
    campaign, battle = DEMO_BATTLES["seventh_sea"]
    aline.locator("a", has_text=campaign).first.click()
    aline.locator("a", has_text=battle).click()
    for part in ("status", "declare", "reports"):
        expect(aline.locator(f'[data-part="{part}"] > *').first).to_be_attached()
    assert parts.CSRF_MARK not in aline.content() and parts.ORIGIN_MARK not in aline.content()

    form = aline.locator('form[data-participant="side:a"]')
    form.locator("label.choice", has_text="Enveloppement").click()
    form.get_by_role("button", name="Déclarer").click()  # a plain POST: the room comes back with it
    expect(aline.locator('form[data-participant="side:a"].declared')).to_be_visible()
    expect(aline.locator(".messages")).to_contain_text("Déclaration enregistrée")
    screenshot(aline, "push-fr-phone-no-javascript-declared")

    expect(gm.locator('.slot.done[data-key="side:a"]')).to_be_visible()  # pushed to the GM's open room
    gm.get_by_role("button", name="Pause").click()  # the pushed status part's form, with the page's token
    expect(gm.locator(".messages .error")).to_have_count(0)
    expect(gm.get_by_role("button", name="Resume")).to_be_visible()
    aline.reload()
    expect(aline.locator("#battle-status .notice")).to_contain_text("pause")
    leave_the_room(gm, aline)
