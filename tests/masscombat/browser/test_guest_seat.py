"""A guest on a 390x844 phone: joins the demo 7th Sea campaign by link with only a name, declares in
a battle, closes the page, comes back after a "restart" of the phone and finds the same seat.

The server is daphne on the demo data (websockets included).  The battle the guest commands a side
of is set up through the services in the server's own database (a ``manage.py shell`` beside it).
A phone restart keeps the browser's cookies and nothing else: the context's ``storage_state`` is
saved and a new context opened from it; a second restart also loses the session, so that only the
seat cookie brings the guest back.  Screenshots go to ``.screenshots/``.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import PHONE, no_sideways_scroll

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[3]
CAMPAIGN = "Démo — 7th Sea"

# Run in the server's database: the demo campaign's invitation code, or a battle where the guest
# (found by its name) commands Montaigne against the demo's Castille.
CODE = """
from masscombat.campaigns.models import Campaign
from masscombat.campaigns import selectors
print("RESULT", selectors.active_invitation(Campaign.objects.get(name=%r)).code)
"""
BATTLE = """
from masscombat.accounts.models import User
from masscombat.battles import services
from masscombat.campaigns.models import Campaign
from masscombat.rosters import services as rosters
campaign = Campaign.objects.get(name=%r)
gm = User.objects.get(username="demo-gm")
guest = User.objects.exclude(guest_key_hash="").get(display_name=%r)
a = rosters.create_army(campaign, name="Rohan", user=gm, commander=guest, data={
    "name": "Rohan", "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}})
b = rosters.create_army(campaign, name="Isengard", user=gm, data={
    "name": "Isengard", "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0})
battle = services.create_battle(campaign, gm, name="Gué de l'Isen", armies={"a": a, "b": b}, heroes=[],
                                options={"attacker": "a", "wound_checks": True})
print("RESULT", battle.pk)
"""


def in_server(tmp_path, script: str) -> str:
    """Run ``script`` in the database of :func:`daphne_server` (its default SQLite file): what it printed after RESULT."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c", script], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True, timeout=120)
    return next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("RESULT "))


def test_a_guest_joins_by_link_declares_and_keeps_the_seat_after_a_restart(browser, daphne_server, tmp_path,
                                                                            screenshot):
    base = daphne_server(demo=True)
    code = in_server(tmp_path, CODE % CAMPAIGN)

    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.goto(f"{base}/join/{code}/")
    expect(page.locator("main")).to_contain_text(CAMPAIGN)
    expect(page.get_by_role("heading", name="Jouer en invité")).to_be_visible()
    expect(page.locator("main").get_by_role("link", name="Connexion")).to_be_visible()
    no_sideways_scroll(page)
    screenshot(page, "guest-fr-phone-1-choices")
    page.fill("#id_name", "  Éowyn <b>  ")
    page.get_by_role("button", name="Jouer maintenant").click()
    expect(page.locator("h1")).to_have_text(CAMPAIGN)
    me = page.locator("#members .member", has_text="Éowyn <b>")
    expect(me.locator(".badge.guest")).to_have_text("invité")
    no_sideways_scroll(page)
    screenshot(page, "guest-fr-phone-2-campaign")

    battle = in_server(tmp_path, BATTLE % (CAMPAIGN, "Éowyn <b>"))
    page.goto(f"{base}/battles/{battle}/")
    expect(page.locator("#live-status.online")).to_be_visible()
    form = page.locator('form[data-participant="side:a"]')
    form.locator("label.choice", has_text="Enveloppement").click()
    form.get_by_role("button", name="Déclarer").click()
    expect(page.locator('form[data-participant="side:a"].declared')).to_be_visible()
    no_sideways_scroll(page)
    screenshot(page, "guest-fr-phone-3-declared")

    # The phone restarts: the page is closed, the browser's cookies stay.
    state = context.storage_state()
    seat = [c for c in state["cookies"] if c["name"] == "masscombat_guest"]
    assert len(seat) == 1 and seat[0]["httpOnly"] and seat[0]["sameSite"] == "Lax" and seat[0]["expires"] > 0
    page.close()
    context.close()
    for label, cookies in (("restart", state["cookies"]),
                           ("session-lost", [c for c in state["cookies"] if c["name"] != "sessionid"])):
        again = browser.new_context(locale="fr-FR", storage_state={**state, "cookies": cookies}, **PHONE)
        back = again.new_page()
        back.goto(f"{base}/battles/{battle}/")
        expect(back.locator("#live-status.online")).to_be_visible()
        expect(back.locator('form[data-participant="side:a"].declared')).to_be_visible()
        expect(back.locator("header")).to_contain_text("Éowyn <b>")
        screenshot(back, f"guest-fr-phone-4-back-after-{label}")
        again.close()

    # Another browser with no seat cookie gets nothing: the log-in page.
    stranger = browser.new_context(locale="fr-FR", **PHONE)
    other = stranger.new_page()
    other.goto(f"{base}/battles/{battle}/")
    expect(other.locator("h1")).to_have_text("Connexion")
    stranger.close()
