"""A whole 7th Sea battle in three browsers through daphne: a GM and two players.

The GM on a desktop in English, Aline on a 390x844 phone in French, Bastien
on a phone in English.  The players declare from their phones, the GM
resolves, everyone sees each result without reloading; Aline's phone loses
its network for a round and catches up when it comes back; the GM ends the
battle and writes the aftermath to the rosters.  Screenshots go to
``.screenshots/``.
"""

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import gm_and_players, leave_the_room, no_sideways_scroll, shot_of

pytestmark = pytest.mark.browser
# The machine is shared: give page updates time rather than fail on a slow second.
expect.set_options(timeout=15_000)


def declare(page, side, strategy, engagement, button):
    form = page.locator(f'form[data-participant="side:{side}"]')
    form.locator("label.choice", has_text=strategy).click()
    form.get_by_role("button", name=button).click()
    expect(page.locator(f'form[data-participant="side:{side}"].declared')).to_be_visible()
    hero = page.locator('form[data-participant^="hero:"]')
    hero.locator("label.choice", has_text=engagement).first.click()
    hero.get_by_role("button", name=button).click()
    expect(page.locator('form[data-participant^="hero:"].declared')).to_be_visible()


def test_a_whole_battle_with_a_gm_and_two_phones(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm, aline, bastien = gm_and_players(browser, base, "seventh_sea")
    screenshot(aline, "battle-fr-phone-1-declare")
    no_sideways_scroll(aline)
    no_sideways_scroll(bastien)

    # Round 1: both players declare from their phones; the GM sees it arrive, not the content for the others.
    declare(aline, "a", "Enveloppement", "Soutien", "Déclarer")
    expect(bastien.locator('.slot.done[data-key="side:a"]')).to_be_visible(timeout=10_000)
    expect(bastien.locator("#battle-status")).not_to_contain_text("Enveloppement")
    declare(bastien, "b", "En rangs", "Engaged", "Declare")
    expect(gm.locator(".slot.done")).to_have_count(4, timeout=10_000)
    screenshot(gm, "battle-en-desktop-1-all-declared")
    gm.get_by_role("button", name="Resolve round 1").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    for page, title in ((aline, "Tour 1"), (bastien, "Round 1")):
        expect(page.locator("#battle-reports .report").first).to_contain_text(title, timeout=10_000)
    expect(aline.locator(".round-head h2")).to_have_text("Tour 2", timeout=10_000)
    screenshot(aline, "battle-fr-phone-2-round-report")
    shot_of(aline.locator("#battle-reports .report").first, "battle-fr-phone-2b-report-detail")
    screenshot(bastien, "battle-en-phone-1-round-report")

    # Aline's phone loses the network: round 2 is declared for her by the GM and resolved meanwhile.
    aline.context.set_offline(True)
    expect(aline.locator("#live-status.offline")).to_be_visible(timeout=15_000)
    declare(bastien, "b", "En rangs", "Engaged", "Declare")
    gm.locator("details.gm-declare > summary", has_text="Montaigne").click()
    gm_form = gm.locator('form[data-participant="side:a"]')
    gm_form.locator("label.choice", has_text="Charge").first.click()
    gm_form.get_by_role("button", name="Declare").click()
    expect(gm.locator('.slot.done[data-key="side:a"]')).to_be_visible(timeout=10_000)
    gm.get_by_role("button", name="Resolve round 2").click()  # Lucie's engagement is missing: the GM is asked first
    expect(gm.locator(".missing-declarations")).to_contain_text("Lucie")
    gm.get_by_role("link", name="Wait for the declarations").click()
    expect(gm.locator("#live-status.online")).to_be_visible()
    gm.locator("details.gm-declare > summary", has_text="Lucie").click()
    gm_hero = gm.locator('form[data-participant^="hero:"]').first
    gm_hero.locator("label.choice", has_text="Support").click()
    gm_hero.get_by_role("button", name="Declare").click()
    expect(gm.locator(".slot.done")).to_have_count(4, timeout=10_000)
    gm.get_by_role("button", name="Resolve round 2").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 3")
    aline.context.set_offline(False)
    expect(aline.locator("#live-status.online")).to_be_visible(timeout=20_000)
    expect(aline.locator(".round-head h2")).to_have_text("Tour 3", timeout=10_000)
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 2")
    screenshot(aline, "battle-fr-phone-3-caught-up")

    # The GM undoes round 2, resolves it again (same dice), then ends the battle and confirms the aftermath.
    gm.get_by_role("button", name="Undo round 2").click()
    gm.locator("dialog.confirm-dialog[open] [data-confirm-ok]").click()  # static/js/confirm.js asks first
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    expect(aline.locator(".round-head h2")).to_have_text("Tour 2", timeout=10_000)
    gm.get_by_role("button", name="Resolve round 2").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 3")
    expect(gm.locator(".timeline svg polyline")).to_have_count(2)
    screenshot(gm, "battle-en-desktop-2-timeline")
    gm.locator("details.end-battle summary").click()
    gm.locator("details.end-battle label.choice", has_text="Montaigne").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_contain_text("Lucie")
    screenshot(gm, "battle-en-desktop-3-aftermath")
    expect(aline.locator(".aftermath")).to_contain_text("Le meneur de jeu vérifie le bilan", timeout=10_000)
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(gm.locator(".aftermath")).to_contain_text("The aftermath is written to the rosters.")
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté", timeout=10_000)
    screenshot(aline, "battle-fr-phone-4-closed")
    no_sideways_scroll(aline)

    gm.get_by_role("link", name="Replay").click()
    expect(gm.locator(".replay-step .badge.danger")).to_have_count(0)
    expect(gm.locator(".replay-step")).to_have_count(3)
    screenshot(gm, "battle-en-desktop-4-replay")
    leave_the_room(gm, aline, bastien)
