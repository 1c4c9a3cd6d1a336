"""The player's declaration flow in a browser (issue #17), on the D&D 5e demo battle at the ford.

Aline (390x844 phone, French) declares for her orcs' hero and units; the GM watches on a desktop.
Choices she made in one form survive the Declare of another and a reload; a Declare pressed while
her phone is offline waits on the page, marked, and goes through by itself when the network comes
back; the banner at the top of her room counts down to "all declared"; the tab title says it is her
turn; a page coming back from sleep asks the server again (another device may have declared).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import (DESKTOP, PHONE, SCREENSHOTS, enter_battle, gm_and_players, leave_the_room,
                                               no_sideways_scroll, shot_of)

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

HERO = 'form[data-participant="solo:A-chef_de_guerre_orque"]'
ORCS = 'form[data-participant="unit:A-regiment_orque"]'
OTHER_AWAITED = '#battle-declare form[data-awaited]:not([data-participant="unit:A-regiment_orque"])'
UNSAVED = "Pas encore enregistré"
UNSENT = "Non envoyé — nouvel essai automatique"


def checked_labels(form) -> list[str]:
    return form.locator("label.choice:has(input:checked)").all_inner_texts()


def test_nothing_chosen_is_lost_and_an_offline_declare_goes_through(browser, daphne_server):
    base = daphne_server(demo=True)
    gm, aline = gm_and_players(browser, base, "dnd5e", bastien=None)
    awaited = aline.locator("#battle-declare form[data-awaited]")
    total = awaited.count()
    assert total >= 3
    banner = aline.locator("[data-declare-banner]")
    expect(banner).to_contain_text(f"Il vous reste {total} unités sur {total} à déclarer")
    # The banner is the first thing under the battle's name, on the first screen of the phone.
    box = banner.bounding_box()
    assert box["y"] + box["height"] <= 844
    assert box["y"] < aline.locator("#battle-status").bounding_box()["y"]
    expect(aline).to_have_title(re.compile("^● À vous · "))
    aline.screenshot(path=str(SCREENSHOTS / "declare-flow-fr-phone-1-first-screen.png"))
    # The banner's link brings the first form still awaited into view.
    banner.get_by_role("link").click()
    expect(awaited.first).to_be_in_viewport()
    aline.screenshot(path=str(SCREENSHOTS / "declare-flow-fr-phone-1b-first-form.png"))

    # Choices in the orcs' form and a move picked in the hero's select; then only the hero is declared.
    orcs = aline.locator(ORCS)
    orcs.locator("label.choice", has_text="Configurer").first.click()
    orcs.locator("label.choice", has_text="Marche").first.click()
    chosen = checked_labels(orcs)
    assert any("Marche" in label for label in chosen)
    expect(orcs.locator("[data-draft-state][role=status]")).to_have_text(UNSAVED)
    hero = aline.locator(HERO)
    hero.locator("label.choice", has_text="Foncer").click()
    hero.get_by_role("button", name="Déclarer").click()
    expect(aline.locator(f"{HERO}.declared")).to_be_visible()
    expect(aline.locator(f"{HERO} [data-draft-state][role=status]")).to_be_hidden()
    orcs = aline.locator(ORCS)  # a new form, swapped in with the part
    assert checked_labels(orcs) == chosen
    expect(orcs.locator("[data-draft-state][role=status]")).to_have_text(UNSAVED)
    expect(banner).to_contain_text(f"Il vous reste {total - 1} unités sur {total} à déclarer")
    shot_of(orcs, "declare-flow-fr-phone-2-kept")

    # A reload keeps them too (the draft lives in the tab), and a select's value in another form.
    select = aline.locator(OTHER_AWAITED).first.locator("select").first
    value = select.locator("option").nth(1).get_attribute("value")
    select.select_option(value)
    aline.reload()
    expect(aline.locator("#live-status.online")).to_be_visible()
    assert checked_labels(aline.locator(ORCS)) == chosen
    expect(aline.locator(OTHER_AWAITED).first.locator("select").first).to_have_value(value)
    expect(aline.locator(OTHER_AWAITED).first.locator("[data-draft-state][role=status]")).to_have_text(UNSAVED)

    # Offline, the orcs' Declare stays on the page, marked, and is sent when the network is back.
    aline.context.set_offline(True)
    expect(aline.locator("#live-status.online")).to_have_count(0)
    orcs = aline.locator(ORCS)
    orcs.get_by_role("button", name="Déclarer").click()
    expect(orcs.locator("[data-draft-state][role=status]")).to_have_text(UNSENT)
    assert checked_labels(orcs) == chosen
    expect(gm.locator('.slot[data-key="unit:A-regiment_orque"]')).not_to_have_class(re.compile(r"\bdone\b"))
    shot_of(orcs, "declare-flow-fr-phone-3-not-sent")
    aline.context.set_offline(False)
    expect(aline.locator(f"{ORCS}.declared")).to_be_visible(timeout=30_000)
    expect(aline.locator(ORCS)).to_contain_text("Déclaration enregistrée")
    expect(aline.locator(f"{ORCS} [data-draft-state][role=status]")).to_be_hidden()
    expect(gm.locator('.slot.done[data-key="unit:A-regiment_orque"]')).to_be_visible()
    assert checked_labels(aline.locator(ORCS)) == chosen
    left = total - 2
    expect(banner).to_contain_text(f"Il vous reste {left} {'unité' if left == 1 else 'unités'} sur {total} à déclarer")
    shot_of(aline.locator(ORCS), "declare-flow-fr-phone-4-sent")

    # The rest, one by one, down to "all declared"; the tab's title stops calling.
    for still in range(left, 0, -1):
        awaited.first.get_by_role("button", name="Déclarer").click()
        expect(awaited).to_have_count(still - 1)
    expect(banner).to_have_text("Tout est déclaré — en attente du meneur de jeu")
    expect(aline).not_to_have_title(re.compile("À vous"))
    no_sideways_scroll(aline)
    aline.evaluate("window.scrollTo(0, 0)")
    aline.screenshot(path=str(SCREENSHOTS / "declare-flow-fr-phone-5-all-declared.png"))
    leave_the_room(gm, aline)


def test_a_page_waking_up_shows_what_the_server_has_now(browser, daphne_server):
    """Aline's phone sleeps while her laptop declares everything: woken, the phone's tab title, banner and
    forms follow the server, and the draft she had started gives way to the newer save."""
    base = daphne_server(demo=True)
    phone = browser.new_context(locale="fr-FR", **PHONE).new_page()
    enter_battle(phone, base, "demo-player1", "dnd5e")
    expect(phone).to_have_title(re.compile("^● À vous · "))
    phone.evaluate("document.title = 'Escarmouche'")  # what a tab may show after a long sleep
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(phone).to_have_title(re.compile("^● À vous · "))
    phone.locator(ORCS).locator("label.choice", has_text="Configurer").first.click()
    expect(phone.locator(f"{ORCS} [data-draft-state][role=status]")).to_have_text(UNSAVED)

    laptop = browser.new_context(locale="fr-FR", **DESKTOP).new_page()
    enter_battle(laptop, base, "demo-player1", "dnd5e")
    awaited = laptop.locator("#battle-declare form[data-awaited]")
    for still in range(awaited.count(), 0, -1):
        awaited.first.get_by_role("button", name="Déclarer").click()
        expect(awaited).to_have_count(still - 1)

    phone.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(phone.locator("[data-declare-banner]")).to_have_text("Tout est déclaré — en attente du meneur de jeu")
    expect(phone).not_to_have_title(re.compile("À vous"))
    expect(phone.locator(f"{ORCS}.declared [data-draft-state][role=status]")).to_be_hidden()
    leave_the_room(phone, laptop)
