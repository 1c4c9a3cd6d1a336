"""In chromium, through daphne: the content security policy breaks nothing, and the outage page reads well.

Every page a GM reaches from the demo campaigns is opened; the browser must
report no policy violation and no script error, htmx must work (the members
list swaps in place) and the battle room's websocket must go live.  Then the
database file is taken away under the running server: the pages answer the
503 page, screenshotted on a phone in French and on a desktop in English.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.browser.conftest import browser, screenshot  # noqa: F401 - shared fixtures

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
LINKS = re.compile(r"^/(battles/\d+/|campaigns/\d+/(maps|armies|heroes)/\d+/)$")


def log_in(page, base, username="demo-gm"):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "masscombat-demo")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(base + "/")


def watch(page) -> list[str]:
    """Console errors and uncaught exceptions of the page, as they come."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def test_every_page_works_under_the_content_security_policy(browser, daphne_server):  # noqa: F811
    base = daphne_server(demo=True)
    page = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    problems = watch(page)
    log_in(page, base)
    campaigns = sorted({href for href in page.locator("main a").evaluate_all("l => l.map(a => a.getAttribute('href'))")
                        if href and re.fullmatch(r"/campaigns/\d+/", href)})
    assert len(campaigns) >= 5
    visited = []
    for campaign in campaigns:
        page.goto(base + campaign)
        visited.append(campaign)
        hrefs = page.locator("main a").evaluate_all("l => l.map(a => a.getAttribute('href'))")
        for href in sorted({h for h in hrefs if h and LINKS.match(h)}):
            page.goto(base + href)
            visited.append(href)
            if href.startswith("/battles/"):
                expect(page.locator("#live-status")).to_have_class(re.compile(r"\bonline\b"), timeout=10_000)
    assert any(v.startswith("/battles/") for v in visited) and any("/maps/" in v for v in visited)
    assert problems == [], problems

    # htmx still posts (with its CSRF header) and swaps in place under the policy.
    page.goto(base + campaigns[0] + "invitation/")
    page.goto(base + campaigns[0])
    before = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#members li", has_text="Bastien").get_by_role("button", name="Remove").click()
    expect(page.locator("#members")).not_to_contain_text("Bastien")
    assert page.url == before and problems == []


def test_the_outage_page(browser, daphne_server, tmp_path, screenshot):  # noqa: F811
    base = daphne_server(demo=True)
    phone = browser.new_context(locale="fr-FR", **PHONE).new_page()
    log_in(phone, base, "demo-player1")
    desktop = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    log_in(desktop, base)

    database = tmp_path / "db.sqlite3"
    database.rename(tmp_path / "away.sqlite3")  # the server's next query finds no table
    try:
        for page, name in ((phone, "fr-phone-hardening-503"), (desktop, "en-desktop-hardening-503")):
            problems = watch(page)
            response = page.goto(base + "/")
            assert response.status == 503
            expect(page.locator("h1")).to_have_text("De retour dans un instant" if "fr" in name else "Back in a moment")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            screenshot(page, name)
            assert [p for p in problems if "status of 503" not in p] == []  # the page's own status is logged
    finally:
        (tmp_path / "db.sqlite3").unlink(missing_ok=True)
        (tmp_path / "away.sqlite3").rename(database)
    assert phone.goto(base + "/").status == 200
