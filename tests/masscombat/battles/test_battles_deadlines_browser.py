"""A round deadline in the browser, through daphne on SQLite with the server's own clock (as bin/run runs it).

The GM sets one minute per round from the room; the GM's desktop and Aline's
phone count it down; the GM stops the clock, the test moves it (two seconds
left, written in the server's database), the GM restarts it and the round
resolves by itself, with default orders, on both screens.
"""

import re
import sqlite3

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE, enter_battle, leave_the_room

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

TICKING = re.compile(r"^00:00:\d\d$")


def test_the_round_resolves_at_its_deadline_on_every_screen(browser, daphne_server, tmp_path, screenshot):
    base = daphne_server(demo=True, DEADLINES_IN_PROCESS="1")
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    errors = []
    for page, who in ((gm, "demo-gm"), (aline, "demo-player1")):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        enter_battle(page, base, who, "seventh_sea")

    gm.locator("details.deadline-controls > summary").click()
    gm.fill("#deadline-set-amount", "1")
    gm.select_option("#deadline-set-unit", "minutes")
    gm.get_by_role("button", name="Set, and restart this round's clock").click()
    for page in (gm, aline):  # Aline's page learns it from the live event, without a reload
        countdown = page.locator("time[data-countdown]")
        expect(countdown).to_have_text(TICKING)
        first = countdown.text_content()
        expect(countdown).not_to_have_text(first)  # it counts down
    screenshot(aline, "deadline-fr-phone-countdown")

    gm.locator("details.deadline-controls > summary").click()
    gm.get_by_role("button", name="Stop the clock").click()
    expect(aline.locator("#battle-status")).to_contain_text("arrêté")
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:  # the clock moved on: two seconds left
        db.execute("UPDATE battles_battle SET deadline_left = 2 WHERE deadline_left IS NOT NULL")
    gm.locator("details.deadline-controls > summary").click()
    gm.get_by_role("button", name="Restart the clock").click()

    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    expect(aline.locator(".round-head h2")).to_have_text("Tour 2")
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    expect(gm.locator("time[data-countdown]")).to_have_text(TICKING)  # round 2 has its own minute
    assert errors == []
    leave_the_room(gm, aline)
