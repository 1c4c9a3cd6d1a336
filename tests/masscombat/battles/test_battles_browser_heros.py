"""The HÉROS demo battle on the demo hex map, in three browsers through daphne.

The GM (desktop, English), Aline (side A, a 390x844 phone, French) and
Bastien (side B, desktop, English).  Aline moves her spears with two taps on
the map (the unit, then a highlighted hex) and the GM resolves while
Bastien's connection is down; it comes back, his page catches up with the
bound he missed, he moves his warband and the GM resolves again; then the GM
ends the battle and writes the aftermath to the rosters.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import (
    DESKTOP, SCREENSHOTS, gm_and_players, leave_the_room, no_sideways_scroll,
)

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def in_view(locator, name):
    """A shot of one part of the page as the phone shows it (a full page is too long to read)."""
    locator.scroll_into_view_if_needed()
    locator.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def move_by_taps(page, unit, tap, forward):
    """Tap the unit on the map, then the highlighted hex of the path going furthest ``forward`` (+1 south,
    -1 north); the select then holds that path, and the map draws it."""
    select = page.locator(f'select[name="active.actions[kind=move].paths.{unit}"]')
    expect(select).to_have_attribute("data-piece", unit)
    piece = page.locator(f'#battle-map [data-piece="{unit}"]')
    piece.scroll_into_view_if_needed()
    tap(piece)
    expect(page.locator("#battle-map .highlights .pick-dest").first).to_be_visible()
    values = select.locator("option[data-cells]").evaluate_all("options => options.map(o => o.value)")
    paths = [json.loads(value) for value in values]
    target = max(paths, key=lambda p: (forward * p[-1]["row"], -len(p)))
    end = f'{target[-1]["col"]},{target[-1]["row"]}'
    tap(page.locator(f'#battle-map .highlights .pick-dest[data-c="{end}"]'))
    assert json.loads(select.input_value())[-1] == target[-1]
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)
    return end


def piece_on(page, unit, cell):
    """Wait until the unit's counter is drawn on the hex ``cell`` (its centre inside the hex)."""
    page.wait_for_function("""([unit, cell]) => {
        const piece = document.querySelector(`#battle-map [data-piece="${unit}"]`);
        const hex = document.querySelector(`#battle-map .terrain [data-c="${cell}"]`);
        if (!piece || !hex) return false;
        const p = piece.getBoundingClientRect(), h = hex.getBoundingClientRect();
        const x = p.left + p.width / 2, y = p.top + p.height / 2;
        return x > h.left && x < h.right && y > h.top && y < h.bottom;
    }""", arg=[unit, cell], timeout=15_000)


def declare_and_resolve(gm, page, unit, button, number):
    """The player declares the unit's form; the GM, who sees it declared, resolves round ``number``."""
    page.locator(f'form[data-participant="unit:{unit}"]').get_by_role("button", name=button).click()
    expect(page.locator(f'form[data-participant="unit:{unit}"].declared')).to_be_visible()
    expect(gm.locator(f'.slot.done[data-key="unit:{unit}"]')).to_be_visible()
    gm.get_by_role("button", name=f"Resolve round {number}").click()
    expect(gm.locator(".round-head h2")).to_have_text(f"Round {number + 1}")


def test_a_heros_battle_on_the_hex_map(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    errors = []
    gm, aline, bastien = gm_and_players(browser, base, "heros", bastien=DESKTOP, errors=errors)
    for page in (gm, aline, bastien):
        expect(page.locator('svg.battle-map [data-piece="a-lanciers"]')).to_have_count(1)
        expect(page.locator('svg.battle-map [data-piece="b-guerriers"]')).to_have_count(1)
    no_sideways_scroll(aline, every_element=True)
    screenshot(aline, "battle-heros-fr-phone-1-room")
    in_view(aline.locator('form[data-participant="side:a"]'), "battle-heros-fr-phone-1b-forms")
    # Her choices name her general and corps, not the engine's ids.
    expect(aline.locator('form[data-participant="side:a"]')).to_contain_text("Duc Aldric rallie le corps Bannière du duc")
    expect(aline.locator("#battle-declare")).not_to_contain_text("a-aldric")
    screenshot(gm, "battle-heros-en-desktop-1-room")

    # Bound 1, side A: Aline moves her spears with two taps while Bastien's connection is down.
    bastien.context.set_offline(True)
    expect(bastien.locator("#live-status.online")).to_have_count(0)
    end = move_by_taps(aline, "a-lanciers", lambda target: target.tap(), forward=1)
    screenshot(aline, "battle-heros-fr-phone-2-path")
    in_view(aline.locator("#battle-map"), "battle-heros-fr-phone-2b-path-map")
    in_view(aline.locator('form[data-participant="unit:a-lanciers"]'), "battle-heros-fr-phone-2c-path-form")
    declare_and_resolve(gm, aline, "a-lanciers", "Déclarer", 1)
    for page in (gm, aline):
        piece_on(page, "a-lanciers", end)
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    screenshot(aline, "battle-heros-fr-phone-3-bound-1")
    in_view(aline.locator("#battle-reports .report").first, "battle-heros-fr-phone-3b-report")
    screenshot(gm, "battle-heros-en-desktop-2-bound-1")
    screenshot(bastien, "battle-heros-en-desktop-3-offline")

    # Bound 2, side B: Bastien is back, catches up with what he missed, and moves his warband.
    bastien.context.set_offline(False)
    expect(bastien.locator("#live-status.online")).to_be_visible()
    piece_on(bastien, "a-lanciers", end)
    expect(bastien.locator("#battle-reports .report").first).to_contain_text("Round 1")
    end = move_by_taps(bastien, "b-guerriers", lambda target: target.click(), forward=-1)
    declare_and_resolve(gm, bastien, "b-guerriers", "Declare", 2)
    for page in (gm, aline, bastien):
        piece_on(page, "b-guerriers", end)
    expect(bastien.locator("#battle-reports .report").first).to_contain_text("Round 2")
    screenshot(bastien, "battle-heros-en-desktop-4-bound-2")
    screenshot(aline, "battle-heros-fr-phone-4-bound-2")

    # The GM ends the battle: the engine weighs the losses; the aftermath goes to the rosters.
    gm.locator("details.end-battle summary").click()
    gm.get_by_role("button", name="End the battle", exact=True).click()
    expect(gm.locator(".aftermath")).to_contain_text("Ost de Valombre")
    screenshot(gm, "battle-heros-en-desktop-5-aftermath")
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté", timeout=15_000)  # after a live event
    no_sideways_scroll(aline, every_element=True)
    screenshot(aline, "battle-heros-fr-phone-5-closed")
    in_view(aline.locator(".aftermath"), "battle-heros-fr-phone-5b-aftermath")
    assert errors == []
    leave_the_room(gm, aline, bastien)
