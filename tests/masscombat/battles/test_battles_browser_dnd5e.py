"""The D&D 5e demo battle at the ford, in three browsers through daphne.

Aline (390x844 phone, French) commands the orcs and plays her hero; Bastien
(tablet, English) the hobgoblins; the GM (desktop, English) resolves.  Stands
and the hero move by a tap on the piece then a tap on a highlighted square,
an archer shoots, two rounds are played; Aline's connection drops during the
second and her page catches up when it comes back; the GM ends the battle
and writes the aftermath.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import gm_and_players, leave_the_room, no_sideways_scroll, resolve

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
HERO = "A-chef_de_guerre_orque"
ORCS = "A-regiment_orque"
LINE = "B-ligne_hobgobeline"
ARCHERS = "B-archers_hobgobelins"


def move_on_map(page, piece: str, cell: str):
    """Tap the piece, then the square: the piece's path select holds a path ending there."""
    page.locator(f'svg.battle-map .pieces [data-piece="{piece}"]').click()
    expect(page.locator("svg.battle-map .pick-dest").first).to_be_attached()
    page.locator(f'svg.battle-map .pick-dest[data-c="{cell}"]').click()  # the highlighted square
    picked = page.locator(f'#battle-declare select[data-map-pick][data-piece="{piece}"]').first
    expect(picked.locator("option:checked")).to_have_attribute("data-cells", re.compile(rf"(^| ){cell}$"))


def test_a_dnd5e_battle_played_on_the_map(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm, aline, bastien = gm_and_players(browser, base, "dnd5e", bastien=TABLET)
    for page in (gm, aline, bastien):
        expect(page.locator(f'svg.battle-map [data-piece="{HERO}"]')).to_have_count(1)
        expect(page.locator(f'svg.battle-map [data-piece="{ARCHERS}-1"]')).to_have_count(1)
    no_sideways_scroll(aline)
    screenshot(aline, "battle-dnd5e-fr-phone-1-start")
    screenshot(gm, "battle-dnd5e-en-desktop-1-start")

    # Round 1: Aline's hero walks south, her regiment changes to march; Bastien's line advances,
    # his archers shoot at the hero.
    move_on_map(aline, HERO, "4,6")
    screenshot(aline, "battle-dnd5e-fr-phone-2-hero-path")
    hero_form = aline.locator(f'form[data-participant="solo:{HERO}"]')
    hero_form.get_by_role("button", name="Déclarer").click()
    expect(aline.locator(f'form[data-participant="solo:{HERO}"].declared')).to_be_visible()
    orcs = aline.locator(f'form[data-participant="unit:{ORCS}"]')
    orcs.locator("label.choice", has_text="Configurer").first.click()
    orcs.locator("label.choice", has_text="Marche").first.click()
    orcs.get_by_role("button", name="Déclarer").click()
    expect(aline.locator(f'form[data-participant="unit:{ORCS}"].declared')).to_be_visible()

    move_on_map(bastien, f"{LINE}-1", "0,7")
    bastien.locator(f'form[data-participant="unit:{LINE}"]').get_by_role("button", name="Declare").click()
    expect(bastien.locator(f'form[data-participant="unit:{LINE}"].declared')).to_be_visible()
    archers = bastien.locator(f'form[data-participant="unit:{ARCHERS}"]')
    archers.locator("label.choice", has_text="Attack").first.click()
    archers.locator("label.choice", has_text="longbow → Chef de guerre orque").click()
    archers.get_by_role("button", name="Declare").click()
    expect(bastien.locator(f'form[data-participant="unit:{ARCHERS}"].declared')).to_be_visible()
    screenshot(bastien, "battle-dnd5e-en-tablet-1-declared")
    expect(gm.locator(f'.slot.done[data-key="unit:{ARCHERS}"]')).to_be_visible()
    screenshot(gm, "battle-dnd5e-en-desktop-2-declared")
    resolve(gm, 1)  # the orc war chief stays silent: his default orders
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    expect(bastien.locator("#battle-reports .report").first).to_contain_text("Archers hobgobelins 1 attacks")
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Chef de guerre orque se déplace de")
    screenshot(aline, "battle-dnd5e-fr-phone-3-round1")
    screenshot(gm, "battle-dnd5e-en-desktop-3-round1")

    # Round 2: Aline's phone loses the network; the others play on; she comes back and catches up.
    aline.context.set_offline(True)
    expect(aline.locator("#live-status.online")).to_have_count(0)
    archers = bastien.locator(f'form[data-participant="unit:{ARCHERS}"]')
    archers.locator("label.choice", has_text="Attack").first.click()
    archers.locator("label.choice", has_text="longbow → Chef de guerre orque").click()
    archers.get_by_role("button", name="Declare").click()
    expect(bastien.locator(f'form[data-participant="unit:{ARCHERS}"].declared')).to_be_visible()
    resolve(gm, 2)
    expect(gm.locator(".round-head h2")).to_have_text("Round 3")
    screenshot(aline, "battle-dnd5e-fr-phone-4-offline")
    aline.context.set_offline(False)
    expect(aline.locator("#live-status.online")).to_be_visible(timeout=30_000)
    expect(aline.locator(".round-head h2")).to_have_text("Tour 3", timeout=30_000)
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 2")
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Archers hobgobelins 1 attaque")
    no_sideways_scroll(aline)
    screenshot(aline, "battle-dnd5e-fr-phone-5-caught-up")

    gm.locator("details.end-battle summary").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_be_visible()
    screenshot(gm, "battle-dnd5e-en-desktop-4-aftermath")
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté", timeout=15_000)  # after a live event
    screenshot(aline, "battle-dnd5e-fr-phone-6-closed")
    screenshot(gm, "battle-dnd5e-en-desktop-5-closed")
    leave_the_room(gm, aline, bastien)
