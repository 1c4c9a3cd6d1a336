"""axe-core (through axe-playwright-python) finds no accessibility violation on the pages people use most.

The D&D 5e demo campaign's page, one of its rosters, its map and its battle room, as the GM; and the five
rulesets' demo rooms after two rounds (reports, chart), as the GM and as each player, with the GM's replay
and a confirmation dialog; each on a desktop and on a 390x844 phone, in French and in English: any
violation fails, listed by rule, page and element so it can be fixed where it is.
"""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE
from tests.masscombat.browser import test_french_crawl as crawl
from tests.masscombat.browser.test_live_updates import log_in

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

CAMPAIGN = "Démo — D&D 5e"
PAGES = {  # what a link on the campaign page leads to
    "roster": r"/campaigns/\d+/(?!maps/|battles/)[a-z]+/\d+/$",
    "map": r"/campaigns/\d+/maps/\d+/$",
    "battle": r"/battles/\d+/$",
}


def violations(axe, page, name):
    found = axe.run(page).response["violations"]
    return [f"{name}: {v['id']} ({v['impact']}) {v['help']} at {[n['target'] for n in v['nodes']][:4]}" for v in found]


def test_no_axe_violation_on_the_main_pages(browser, daphne_server):
    base = daphne_server(demo=True)
    axe = Axe()
    found = []
    for locale, device, label in (("en-GB", DESKTOP, "en-desktop"), ("fr-FR", DESKTOP, "fr-desktop"),
                                  ("en-GB", PHONE, "en-phone"), ("fr-FR", PHONE, "fr-phone")):
        page = browser.new_context(locale=locale, **device).new_page()
        log_in(page, base, "demo-gm")
        page.locator("a", has_text=CAMPAIGN).first.click()
        expect(page.locator("#battles")).to_be_visible()
        links = page.eval_on_selector_all("main a[href]", "as => as.map(a => a.getAttribute('href'))")
        found += violations(axe, page, f"{label} campaign")
        for name, pattern in PAGES.items():
            href = next(link for link in links if re.search(pattern, link))
            page.goto(base + href)
            if name == "battle":
                expect(page.locator("#live-status.online")).to_be_visible()
            found += violations(axe, page, f"{label} {name}")
        page.context.close()
    assert found == [], "\n".join(found)


USERS = ("demo-gm", "demo-player1", "demo-player2")


def test_no_axe_violation_in_the_five_rooms_after_two_rounds(browser, daphne_server):
    """Every ruleset's demo room after two rounds (its round reports and strength chart), as the GM and
    as each player, on a desktop and on a phone, in French and in English; the GM's replay, and the
    confirmation dialog of an Undo open over the room."""
    base = daphne_server(demo=True, THROTTLE_LOGIN="100/min")  # 13 log-ins from one address in a minute
    gm = browser.new_context(locale="fr-FR", **DESKTOP).new_page()
    log_in(gm, base, "demo-gm")
    rooms = crawl.battle_urls(gm, base)
    for room in rooms.values():
        for number in (1, 2):
            crawl.resolve(gm, room, number)  # everyone on the rules' default orders
    gm.context.close()
    axe = Axe()
    found = []
    for locale, device, label in (("fr-FR", PHONE, "fr-phone"), ("en-GB", DESKTOP, "en-desktop"),
                                  ("fr-FR", DESKTOP, "fr-desktop"), ("en-GB", PHONE, "en-phone")):
        for user in USERS:
            page = browser.new_context(locale=locale, **device).new_page()
            log_in(page, base, user)
            for ruleset, room in rooms.items():
                page.goto(room)
                expect(page.locator("#live-status.online")).to_be_visible()
                expect(page.locator("#battle-rounds .chart, #battle-rounds svg").first).to_be_attached()
                found += violations(axe, page, f"{label} {user} {ruleset} room")
                if user == "demo-gm":
                    page.goto(f"{room}replay/")
                    found += violations(axe, page, f"{label} {user} {ruleset} replay")
            if user == "demo-gm":
                page.goto(rooms["dnd5e"])
                expect(page.locator("#live-status.online")).to_be_visible()
                page.locator("form[action$='/undo/'] button[type=submit]").click()
                expect(page.locator("dialog[open]")).to_be_visible()
                found += violations(axe, page, f"{label} {user} undo dialog")
            page.context.close()
    assert found == [], "\n".join(found)
