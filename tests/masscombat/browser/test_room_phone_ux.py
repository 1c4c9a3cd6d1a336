"""The battle room on a 390x844 phone, in French and in English (issue #17), through daphne.

- The map: the zoom buttons sit above it, never over it; a tap on a stand zooms so a square is at
  least 44 px, with the stand in sight and every square it may end on when they fit; the names of columns and rows
  drawn on the map's edges, read off the screen beside the square, are the ones the move list uses.
- The tab: "À vous" / "Your turn" in the title and a dot on the icon while the player has something
  to declare, gone once every declaration is sent.
- The GM's Undo asks first (static/js/confirm.js): Cancel and Escape keep the round, confirming undoes it.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE, enter_battle, leave_the_room, shot_of, tap

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

ORCS, LEGION = "A-regiment_orque", "B-ligne_hobgobeline"
TAP = 44

# For a cell of the map (its data-c), the names of the column and the row written on the map's edges
# whose middle, on screen, lies within that cell's span, counting only those inside the map's frame.
EDGE_NAMES = """key => {
  const svg = document.querySelector('#battle-map svg.battle-map');
  const frame = svg.closest('[data-map-view]').getBoundingClientRect();
  const cell = svg.querySelector(`.terrain [data-c="${key}"]`).getBoundingClientRect();
  const seen = r => r.width > 0 && r.left >= frame.left - 1 && r.right <= frame.right + 1
    && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
  const names = (selector, within) => [...svg.querySelectorAll(selector)]
    .filter(t => { const r = t.getBoundingClientRect(); return seen(r) && within(r); }).map(t => t.textContent);
  return [names('.coords-cols text', r => (r.left + r.right) / 2 > cell.left && (r.left + r.right) / 2 < cell.right),
          names('.coords-rows text', r => (r.top + r.bottom) / 2 > cell.top && (r.top + r.bottom) / 2 < cell.bottom)];
}"""

BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def box(locator):
    return locator.evaluate(BOX)


def inside(inner, outer, slop=1):
    return (inner[0] >= outer[0] - slop and inner[1] >= outer[1] - slop
            and inner[2] <= outer[2] + slop and inner[3] <= outer[3] + slop)


def edge_name(page, key: str) -> str:
    columns, rows = page.evaluate(EDGE_NAMES, key)
    assert len(columns) == 1 and len(rows) == 1, (key, columns, rows)
    return columns[0] + rows[0]


def zoom_bar_beside_the_map(page):
    bar, frame = box(page.locator("#battle-map .map-zoom")), box(page.locator("#battle-map .map-viewport"))
    assert bar[3] <= frame[1] or bar[1] >= frame[3], (bar, frame)  # above or below, never over
    for button in page.locator("#battle-map [data-map-zoom]").all():
        left, top, right, bottom = box(button)
        assert right - left >= TAP and bottom - top >= TAP


def pick_on_the_phone(page, unit: str, name: str, screenshot):
    """Tap the unit's first stand, check the zoom and the edges' names, pick the farthest square."""
    stand = f"{unit}-1"
    select = page.locator(f'select[name="units.{unit}.stands[0].move"]')
    whole = page.locator("#battle-map svg.battle-map").get_attribute("viewBox")
    tap(page.locator(f'#battle-map [data-piece="{stand}"]'), True)
    expect(page.locator("#battle-map .highlights .pick-dest").first).to_be_attached()
    expect(page.locator("#battle-map svg.battle-map")).not_to_have_attribute("viewBox", whole)
    frame = box(page.locator("#battle-map .map-viewport"))
    cell = box(page.locator(f'#battle-map .terrain [data-c]').first)
    assert cell[2] - cell[0] >= TAP - 0.5 and cell[3] - cell[1] >= TAP - 0.5, cell
    assert inside(box(page.locator(f'#battle-map [data-piece="{stand}"]')), frame)
    ends = [box(dest) for dest in page.locator("#battle-map .highlights .pick-dest").all()]
    span = [min(b[0] for b in ends), min(b[1] for b in ends), max(b[2] for b in ends), max(b[3] for b in ends)]
    if span[2] - span[0] <= frame[2] - frame[0] and span[3] - span[1] <= frame[3] - frame[1]:
        assert inside(span, frame), "the squares the stand may end on fit in the frame but are not all in sight"
    zoom_bar_beside_the_map(page)
    shot_of(page.locator("#battle-map"), f"{name}-1-zoomed")

    def in_sight(option):
        cell = page.locator(f'#battle-map .terrain [data-c="{option.get_attribute("data-cells").split(" ")[-1]}"]')
        return inside(box(cell), frame)

    options = [o for o in select.locator("option[data-cells]").all() if in_sight(o)]
    farthest = max(options, key=lambda o: len(o.get_attribute("data-cells").split(" ")))
    end = farthest.get_attribute("data-cells").split(" ")[-1]
    listed = re.search(r"→ (\S+) ·", farthest.inner_text()).group(1)
    assert edge_name(page, end) == listed  # read off the zoomed map
    tap(page.locator(f'#battle-map .highlights .pick-dest[data-c="{end}"]'), True)
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)
    # A move chosen: the whole map again, the path on it, the names still beside the square.
    expect(page.locator("#battle-map svg.battle-map")).to_have_attribute("viewBox", whole)
    assert edge_name(page, end) == listed
    zoom_bar_beside_the_map(page)
    shot_of(page.locator("#battle-map"), f"{name}-2-chosen")
    return select


def declare_everything(page):
    """Send every declaration the page still waits for, each as its form stands."""
    awaited = page.locator("#battle-declare form[data-awaited]")
    while awaited.count():
        form = awaited.first
        participant = form.get_attribute("data-participant")
        form.locator("button[type=submit]").click()
        expect(page.locator(f'#battle-declare form[data-participant="{participant}"].declared')).to_be_attached()


def turn_shown(page, label: str):
    expect(page).to_have_title(re.compile(f"^● {label} · "))
    page.wait_for_function("() => document.querySelector('link[rel~=icon]').href.startsWith('data:image/png')")


def turn_gone(page, label: str):
    expect(page).not_to_have_title(re.compile(label))
    page.wait_for_function("() => document.querySelector('link[rel~=icon]').href.endsWith('.svg')")


@pytest.mark.parametrize(("locale", "username", "unit", "turn"), [
    ("fr-FR", "demo-player1", ORCS, "À vous"),
    ("en-GB", "demo-player2", LEGION, "Your turn"),
])
def test_phone_map_and_the_tab_on_a_players_turn(browser, daphne_server, screenshot, locale, username, unit, turn):
    base = daphne_server(demo=True)
    page = browser.new_context(locale=locale, **PHONE).new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    enter_battle(page, base, username, "dnd5e")
    name = f"room-ux-{locale[:2]}-phone"
    zoom_bar_beside_the_map(page)
    turn_shown(page, turn)
    screenshot(page, f"{name}-0-your-turn")

    pick_on_the_phone(page, unit, name, screenshot)
    declare_everything(page)
    turn_gone(page, turn)
    screenshot(page, f"{name}-3-declared")
    assert errors == []
    leave_the_room(page)


def resolve(gm, number: int):
    """Resolve the round; confirm it if asked (declarations missing: in a dialog, or on a page of its own)."""
    gm.get_by_role("button", name=f"Resolve round {number}").click()
    asked = gm.locator("dialog.confirm-dialog[open] [data-confirm-ok]")
    page_asks = gm.get_by_role("button", name="Resolve with these default orders")
    head = gm.locator(".round-head h2", has_text=f"Round {number + 1}")
    expect(asked.or_(page_asks).or_(head)).to_be_visible()
    for question in (asked, page_asks):
        if question.is_visible():
            question.click()
    expect(gm.locator(".round-head h2")).to_have_text(f"Round {number + 1}")


def test_undo_asks_first(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "dnd5e")
    resolve(gm, 1)
    undo = gm.get_by_role("button", name="Undo round 1")
    dialog = gm.locator("dialog.confirm-dialog")

    undo.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Undo round 1? The battle goes back")
    expect(dialog.locator("[data-confirm-cancel]")).to_be_focused()  # the safe answer first
    expect(gm.locator(".confirm-check")).to_be_hidden()  # the no-script checkbox gives way to the dialog
    screenshot(gm, "room-ux-en-desktop-gm-undo-asked")
    dialog.locator("[data-confirm-cancel]").click()
    expect(dialog).to_be_hidden()
    undo.click()
    expect(dialog).to_be_visible()
    gm.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    gm.wait_for_timeout(500)  # nothing was sent: the round stays
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")

    undo.click()
    dialog.locator("[data-confirm-ok]").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 1")
    leave_the_room(gm)


def test_the_hex_map_on_a_phone_zooms_to_a_tap_target(browser, daphne_server):
    """The HÉROS demo's hexes on a French phone: a tap on a piece a form moves zooms so that a hex is a tap
    target of at least 44 px, with the piece in sight and the zoom buttons beside the map; a tap on a hex it
    may end on picks that move in the form."""
    base = daphne_server(demo=True)
    page = browser.new_context(locale="fr-FR", **PHONE).new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    enter_battle(page, base, "demo-player1", "heros")
    expect(page.locator("#battle-map svg.battle-map")).to_be_visible()
    zoom_bar_beside_the_map(page)
    select = page.locator("#battle-declare select[data-map-pick][data-piece]").first
    piece = select.get_attribute("data-piece")
    whole = page.locator("#battle-map svg.battle-map").get_attribute("viewBox")
    hex_before = box(page.locator("#battle-map .terrain [data-c]").first)
    tap(page.locator(f'#battle-map [data-piece="{piece}"]').first, True)
    expect(page.locator("#battle-map .highlights .pick-dest").first).to_be_attached()
    expect(page.locator("#battle-map svg.battle-map")).not_to_have_attribute("viewBox", whole)
    frame = box(page.locator("#battle-map .map-viewport"))
    cell = box(page.locator("#battle-map .terrain [data-c]").first)
    assert cell[2] - cell[0] >= TAP - 0.5 and cell[3] - cell[1] >= TAP - 0.5, (hex_before, cell)
    assert inside(box(page.locator(f'#battle-map [data-piece="{piece}"]').first), frame)
    zoom_bar_beside_the_map(page)
    shot_of(page.locator("#battle-map"), "room-ux-fr-phone-hex-1-zoomed")
    ends = [dest for dest in page.locator("#battle-map .highlights .pick-dest").all() if inside(box(dest), frame)]
    assert ends, "no hex the piece may end on is in sight"
    end = ends[-1].get_attribute("data-c")
    tap(ends[-1], True)
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)
    chosen = select.locator("option:checked").get_attribute("data-cells")
    assert chosen and chosen.split(" ")[-1] == end
    shot_of(page.locator("#battle-map"), "room-ux-fr-phone-hex-2-chosen")
    assert errors == []
    leave_the_room(page)
