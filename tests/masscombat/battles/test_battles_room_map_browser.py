"""The D&D 5e demo battle's map in three browsers through daphne: placement, then moves picked with two taps.

The GM (desktop, English) places an orc stand before round 1; both players see
it move without reloading.  Then each player picks a move on the map: a tap
on their stand highlights where it may end, a tap on one of those squares
fills the form's select with the shortest path there and draws it.  Aline
plays on a 390x844 phone in French, Bastien on a desktop in English.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, gm_and_players, no_sideways_scroll, shot_of, tap

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

ORCS, LEGION = "A-regiment_orque", "B-ligne_hobgobeline"
SQUARE = 32  # masscombat.maps.render.SQUARE: the size of a square in the SVG's units


ANCHOR = """id => { const r = document.querySelector(`#battle-map [data-piece="${id}"] > rect`);
    return r && [Math.floor(r.x.baseVal.value / %d), Math.floor(r.y.baseVal.value / %d)]; }""" % (SQUARE, SQUARE)


# Counts the swaps into the map part: the answer to a placement, and the redraw its "placed" event brings.
SWAPS_COUNTED = """() => { window.mapSwaps = 0;
    document.getElementById('battle-map').addEventListener('htmx:afterSwap', () => { window.mapSwaps += 1; }); }"""


def square_of(page, piece):
    """The anchor square of a stand (its top-left square, whatever its footprint), as the page draws it now."""
    return page.evaluate(ANCHOR, piece)


def shoot(page, screenshot, name):
    """The whole page, and the map panel alone beside it."""
    screenshot(page, name)
    shot_of(page.locator("#battle-map"), f"{name}-map")


def pick_a_move(page, screenshot, unit, name, phone):
    stand = f"{unit}-1"
    select = page.locator(f'select[name="units.{unit}.stands[0].move"]')
    expect(select).to_have_attribute("data-piece", stand)
    tap(page.locator(f'#battle-map [data-piece="{stand}"]'), phone)
    paths = [json.loads(v) for v in select.locator("option[data-cells]").evaluate_all("os => os.map(o => o.value)")]
    ends = {f"{p[-1][0]},{p[-1][1]}" for p in paths}
    expect(page.locator("#battle-map .highlights .pick-dest")).to_have_count(len(ends))
    expect(page.locator(f'#battle-map [data-piece="{stand}"].selected')).to_have_count(1)
    shoot(page, screenshot, f"{name}-1-destinations")

    farthest = max(paths, key=len)[-1]
    end = f"{farthest[0]},{farthest[1]}"
    tap(page.locator(f'#battle-map .highlights .pick-dest[data-c="{end}"]'), phone)
    chosen = json.loads(select.input_value())
    assert chosen == min((p for p in paths if p[-1] == farthest), key=len)
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)
    expect(page.locator("#battle-map g.pick-path .pick-step")).to_have_count(len(chosen) - 1)
    # The line under the map names the field and the move, punctuated as the page's language writes it.
    french = page.evaluate("document.documentElement.lang") == "fr"
    line = "Mouvement avant l'action : →" if french else "Move before acting: →"
    expect(page.locator("[data-map-pick-status] [data-status-text]")).to_contain_text(line)
    no_sideways_scroll(page)
    shoot(page, screenshot, f"{name}-2-path")

    page.locator(f'form[data-participant="unit:{unit}"] button[type=submit]').click()
    expect(page.locator(f'form[data-participant="unit:{unit}"] .message[role=status]')).to_be_visible()
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)  # drawn again after the swap

    # From the form to the map: the second stand's "Choose on the map" brings the map up with its moves.
    second = page.locator(f'[data-map-pick-show="units.{unit}.stands[1].move"]')
    tap(second, phone)
    expect(page.locator(f'#battle-map [data-piece="{unit}-2"].selected')).to_have_count(1)
    page.wait_for_function("() => document.getElementById('battle-map').getBoundingClientRect().top < window.innerHeight / 2")
    # Chosen by hand in the select: drawn the same; a tap where the stand cannot go clears the map.
    by_hand = page.locator(f'select[name="units.{unit}.stands[1].move"]')
    by_hand.select_option(index=1)
    last = by_hand.locator("option").nth(1).get_attribute("data-cells").split(" ")[-1]
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", last)
    tap(page.locator('#battle-map .terrain [data-c="15,0"]'), phone)
    expect(page.locator("#battle-map .pick-dest, #battle-map g.pick-path")).to_have_count(0)
    return chosen


def test_placement_then_moves_picked_on_the_map(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    errors = []
    gm, aline, bastien = gm_and_players(browser, base, "dnd5e", bastien=DESKTOP, errors=errors)
    for page in (aline, bastien):
        expect(page.locator("[data-place-toggle]")).to_have_count(0)

    # The GM zooms in, then places the third orc stand; the zoom stays, everyone sees the stand move.
    stand = f"{ORCS}-3"
    gm.locator("#battle-map [data-map-zoom=in]").click()
    zoomed = gm.locator("#battle-map svg.battle-map").get_attribute("viewBox")
    version = gm.locator('#battle-map [name="version"]').input_value()
    tap(gm.locator("[data-place-toggle]"), False)
    expect(gm.locator("[data-place-toggle]")).to_have_attribute("aria-pressed", "true")
    tap(gm.locator(f'#battle-map [data-piece="{stand}"]'), False)
    # The answer to the placement says it is placed; the "placed" event then draws the map part again on
    # every screen, the GM's too, in either order on a busy machine: once both are in, the GM still reads it.
    gm.evaluate(SWAPS_COUNTED)
    with gm.expect_response(lambda r: r.url.endswith("/place/") and r.request.method == "POST",
                            timeout=30_000) as placed:
        tap(gm.locator('#battle-map .terrain [data-c="5,4"]'), False)
    assert placed.value.ok
    gm.wait_for_function("() => window.mapSwaps >= 2", timeout=30_000)  # the answer, and the event's redraw
    expect(gm.locator('#battle-map .message[role="status"]')).to_have_text("The piece is placed.")
    expect(gm.locator('#battle-map .message[role="status"]')).to_be_visible()
    expect(gm.locator('#battle-map [name="version"]')).to_have_value(str(int(version) + 1))
    expect(gm.locator("#battle-map svg.battle-map")).to_have_attribute("viewBox", zoomed)
    cells = gm.locator("#battle-map .terrain [data-c]").count()
    for page in (gm, aline, bastien):
        page.wait_for_function(f"() => JSON.stringify(({ANCHOR})('{stand}')) === '[5,4]'")
        # The push left the terrain out; each page put back its own.
        expect(page.locator("#battle-map .terrain [data-c]")).to_have_count(cells)
        expect(page.locator("#battle-map g.terrain[data-kept]")).to_have_count(0)
    shoot(gm, screenshot, "room-map-en-desktop-gm-1-placed")

    # Deep water: the engine refuses, the GM reads why, nothing moves.
    tap(gm.locator("#battle-map [data-map-zoom=reset]"), False)
    tap(gm.locator(f'#battle-map [data-piece="{ORCS}-2"]'), False)
    tap(gm.locator('#battle-map .terrain [data-c="10,1"]'), False)
    expect(gm.locator("#battle-map .place-manual .errorlist")).to_contain_text("water")
    assert square_of(gm, f"{ORCS}-2") != [10, 1]
    shoot(gm, screenshot, "room-map-en-desktop-gm-2-refused")
    tap(gm.locator("[data-place-toggle]"), False)
    expect(gm.locator("[data-place-toggle]")).to_have_attribute("aria-pressed", "false")

    pick_a_move(aline, screenshot, ORCS, "room-map-fr-phone-player", True)
    pick_a_move(bastien, screenshot, LEGION, "room-map-en-desktop-player", False)
    expect(gm.locator(f'.slot.done[data-key="unit:{ORCS}"]')).to_be_visible()
    expect(gm.locator(f'.slot.done[data-key="unit:{LEGION}"]')).to_be_visible()

    # The GM's forms are folded, each loaded when opened: a tap on a stand opens its unit's, its picker active.
    fold = gm.locator(f'details.gm-declare[data-participant="unit:{LEGION}"]')
    expect(fold.locator("form")).to_have_count(0)
    tap(gm.locator(f'#battle-map [data-piece="{LEGION}-1"]'), False)
    expect(fold.locator(f'select[data-map-pick][data-piece="{LEGION}-1"]')).to_have_count(1)
    expect(gm.locator(f'#battle-map [data-piece="{LEGION}-1"].selected')).to_have_count(1)
    expect(gm.locator("#battle-map .highlights .pick-dest").first).to_be_attached()
    expect(fold.locator("[data-map-pick-show]").first).to_be_visible()
    shot_of(fold, "room-map-en-desktop-gm-3-fold-opened")
    assert errors == []
