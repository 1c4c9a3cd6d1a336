"""A JdRWiki battle on the demo valley map, in three browsers through daphne.

Aline (390x844 phone, French) orders her corps' action, Bastien (phone, English)
declares for his, the GM resolves; the map shows both corps on their zones;
the GM ends the battle and writes the aftermath.
"""

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import gm_and_players, leave_the_room, no_sideways_scroll, shot_of

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def test_a_jdrwiki_battle_on_a_map(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm, aline, bastien = gm_and_players(browser, base, "jdrwiki")
    for page in (gm, aline, bastien):
        expect(page.locator('svg.battle-map [data-piece="a1"]')).to_have_count(1)
        expect(page.locator('svg.battle-map [data-piece="b1"]')).to_have_count(1)
    no_sideways_scroll(aline, every_element=True)
    screenshot(aline, "battle-jdrwiki-fr-phone-1-orders")
    shot_of(aline.locator("#battle-reports .battle-map-panel"), "battle-jdrwiki-fr-phone-1b-map")

    side_a = aline.locator('form[data-participant="side:a"]')
    side_a.locator("label.choice", has_text="Assaut combiné").first.click()
    side_a.get_by_role("button", name="Déclarer").click()
    expect(aline.locator('form[data-participant="side:a"].declared')).to_be_visible()
    bastien.locator('form[data-participant="side:b"]').get_by_role("button", name="Declare").click()
    expect(gm.locator('.slot.done[data-key="side:b"]')).to_be_visible()
    gm.get_by_role("button", name="Resolve round 1").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    expect(bastien.locator("#battle-reports .report").first).to_contain_text("Round 1")
    screenshot(gm, "battle-jdrwiki-en-desktop-1-round")
    screenshot(bastien, "battle-jdrwiki-en-phone-1-round")

    gm.locator("details.end-battle summary").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_be_visible()
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté")
    screenshot(gm, "battle-jdrwiki-en-desktop-2-closed")
    leave_the_room(gm, aline, bastien)
