"""A 7th Sea campaign ready for a battle: a GM, one player per side, an outsider.

Side A (Montaigne) is commanded by Pippin, whose hero Lucie fights in it;
side B (Castille) by Merry.  ``battle`` is the battle set up from them.

Below them, the browser tests' helpers for the demo battle rooms (log in, open a room, device
sizes, taps, screenshots of a part), imported by those tests rather than copied into each.
"""

import time

import pytest

from masscombat.battles import services
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.rosters import services as roster_services


@pytest.fixture
def other_player(make_user):
    return make_user("merry", display_name="Merry")


@pytest.fixture
def sea_campaign(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Théah", ruleset="seventh_sea")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def sea_rosters(sea_campaign, gm, player, other_player):
    montaigne = roster_services.create_army(
        sea_campaign, name="Montaigne", user=gm, commander=player,
        data={"name": "Montaigne", "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}},
    )
    castille = roster_services.create_army(
        sea_campaign, name="Castille", user=gm, commander=other_player,
        data={"name": "Castille", "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0},
    )
    lucie = roster_services.create_hero(
        sea_campaign, name="Lucie", user=gm, owner=player, army=montaigne,
        data={"id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "tactics": 3, "leadership": 2,
              "brawn": 3, "resolve": 2, "unit_type": "artillery", "reputation": 10},
    )
    return {"a": montaigne, "b": castille, "lucie": lucie}


@pytest.fixture
def battle(sea_campaign, sea_rosters, gm):
    return services.create_battle(
        sea_campaign, gm, name="Bataille du col",
        armies={"a": sea_rosters["a"], "b": sea_rosters["b"]},
        heroes=[(sea_rosters["lucie"], "a")],
        options={"attacker": "a", "wound_checks": True},
    )


def _browser_fixtures():
    """The browser tests' fixtures (Debian's chromium, screenshots), shared rather than copied."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "browser" / "conftest.py"
    spec = importlib.util.spec_from_file_location("masscombat_browser_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.browser, module.screenshot, module.SCREENSHOTS


browser, screenshot, SCREENSHOTS = _browser_fixtures()

# The helpers of the browser tests that open a battle room (and of the maps' battle test), kept
# here once: those tests import them as ``tests.masscombat.battles.conftest``, the name pytest's
# importlib mode gives this module, so they share it rather than copy it.

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

# The link texts leading to each ruleset's demo battle: its campaign, then the battle itself.
DEMO_BATTLES = {
    "seventh_sea": ("Démo — 7th Sea", "Bataille du col de la Rose"),
    "dnd5e": ("Démo — D&D 5e", "Escarmouche du gué de la Rivière-Grise"),
    "heros": ("Démo — HÉROS", "Bataille de la Plaine de Cendres"),
    "jdrwiki": ("Démo — JdRWiki", "Bataille du gué de Loreval"),
    "synapse": ("Démo — SYNAPSE", "Bataille de la Trébie"),
}


def enter_battle(page, base: str, username: str, ruleset: str) -> None:
    """Log a demo user in and open the ruleset's demo battle, once its live connection is up.

    The room's updates only reach a page whose socket is open, so every scenario waits for
    ``#live-status.online`` before it acts.
    """
    from playwright.sync_api import expect

    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "masscombat-demo")
    page.locator("main button[type=submit]").click()
    campaign, battle = DEMO_BATTLES[ruleset]
    page.locator("a", has_text=campaign).first.click()
    page.locator("a", has_text=battle).click()
    expect(page.locator("#live-status.online")).to_be_visible()


def gm_and_players(browser, base: str, ruleset: str, *, bastien=PHONE, errors=None):
    """The demo cast, each in a browser of their own and in the ruleset's demo battle room.

    The GM on a desktop in English, Aline (demo-player1, the first side) on a phone in French and,
    unless ``bastien`` is None, Bastien (demo-player2, the other side) in English on that device.
    With an ``errors`` list, every script error of their pages lands in it from the first load on.
    """
    cast = [("en-GB", DESKTOP, "demo-gm"), ("fr-FR", PHONE, "demo-player1")]
    if bastien is not None:
        cast.append(("en-GB", bastien, "demo-player2"))
    pages = []
    for locale, device, username in cast:
        page = browser.new_context(locale=locale, **device).new_page()
        if errors is not None:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        enter_battle(page, base, username, ruleset)
        pages.append(page)
    return pages


def leave_the_room(*pages) -> None:
    """Close the browsers, so that their sockets close now and the server can stop at once; the wait
    lets it finish the disconnections before the fixture stops it."""
    for page in pages:
        page.context.close()
    time.sleep(2)


def resolve(gm, number: int) -> None:
    """The GM resolves round ``number``; with declarations missing, the room first names them and their
    default orders, and the GM confirms."""
    with gm.expect_navigation():
        gm.get_by_role("button", name=f"Resolve round {number}").click()
    confirm = gm.get_by_role("button", name="Resolve with these default orders")
    if confirm.count():
        confirm.click()


def resolve_while_offline(gm, aline, bastien, number: int) -> None:
    """The GM resolves round ``number`` while Aline's phone is offline; back online, her page shows the
    next round and the report without a reload (the demo cast of :func:`gm_and_players`)."""
    from playwright.sync_api import expect

    aline.context.set_offline(True)
    expect(aline.locator("#live-status.online")).to_have_count(0)
    resolve(gm, number)
    expect(gm.locator(".round-head h2")).to_have_text(f"Round {number + 1}")
    expect(bastien.locator("#battle-reports .report").first).to_contain_text(f"Round {number}")
    expect(aline.locator(".round-head h2")).to_have_text(f"Tour {number}")  # still the page she had
    aline.context.set_offline(False)
    expect(aline.locator("#live-status.online")).to_be_visible(timeout=30_000)
    expect(aline.locator(".round-head h2")).to_have_text(f"Tour {number + 1}", timeout=30_000)
    expect(aline.locator("#battle-reports .report").first).to_contain_text(f"Tour {number}")


def no_sideways_scroll(page, *, every_element: bool = False) -> None:
    """The page is no wider than the screen; with ``every_element``, no element outside a map sticks out
    either (one can overflow a clipped box without widening the page)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    if every_element:
        wider = page.evaluate("""[...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('svg'))
            .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
        assert wider == []


def tap(locator, phone: bool) -> None:
    """Touch the element as a thumb would on a phone, click it with a mouse elsewhere."""
    locator.scroll_into_view_if_needed()
    if phone:
        locator.tap()
    else:
        locator.click()


def shot_of(locator, name: str) -> None:
    """A screenshot of one part of a page (``.screenshots/<name>.png``): a whole room is too long to read."""
    SCREENSHOTS.mkdir(exist_ok=True)
    locator.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
