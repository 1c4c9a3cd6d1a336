"""A SYNAPSE battle in three browsers through daphne: orders from two phones, the GM resolves and closes it.

The other side's log stays hidden from the players (SYNAPSE S11.2), only the GM
reads it; the aftermath's new headcounts go to the rosters.
"""

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import gm_and_players, leave_the_room, no_sideways_scroll

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def test_a_synapse_battle_from_two_phones(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm, aline, bastien = gm_and_players(browser, base, "synapse")
    screenshot(aline, "battle-synapse-fr-phone-1-orders")
    no_sideways_scroll(aline)

    for number in (1, 2):
        for page, side in ((aline, "A"), (bastien, "B")):  # the forms of this round are in place
            expect(page.locator(f'form[data-participant="side:{side}"] input[name=round][value="{number}"]')).to_have_count(1)
        side_a = aline.locator('form[data-participant="side:A"]')
        side_a.locator("label.choice", has_text="Attaquer").first.click()
        side_a.get_by_role("button", name="Déclarer").or_(side_a.get_by_role("button", name="Changer ma déclaration")).click()
        expect(aline.locator('form[data-participant="side:A"].declared')).to_be_visible()
        side_b = bastien.locator('form[data-participant="side:B"]')
        side_b.get_by_role("button", name="Declare").or_(side_b.get_by_role("button", name="Change my declaration")).click()
        expect(gm.locator('.slot.done[data-key="side:B"]')).to_be_visible()
        expect(gm.locator('.slot.done[data-key="side:A"]')).to_be_visible()
        gm.get_by_role("button", name=f"Resolve round {number}").click()
        expect(gm.locator(".round-head h2")).to_have_text(f"Round {number + 1}")
        expect(aline.locator("#battle-reports .report").first).to_contain_text(f"Tour {number}")
        expect(bastien.locator("#battle-reports .report").first).to_contain_text(f"Round {number}")

    expect(gm.locator("#battle-reports .report").first.locator("details.explanation")).to_have_count(1)
    expect(bastien.locator("#battle-reports details.explanation")).to_have_count(0)  # the log is the GM's
    expect(bastien.locator(".timeline polyline")).to_have_count(1)  # only its own strength
    screenshot(bastien, "battle-synapse-en-phone-1-report")
    screenshot(gm, "battle-synapse-en-desktop-1-report")

    gm.locator("details.end-battle summary").click()
    gm.locator("details.end-battle label.choice", has_text="Ost").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_contain_text("men_at_arms")
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté")
    screenshot(aline, "battle-synapse-fr-phone-2-closed")
    screenshot(gm, "battle-synapse-en-desktop-2-closed")
    leave_the_room(gm, aline, bastien)
