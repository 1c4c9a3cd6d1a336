"""A spectator follows the HÉROS demo battle live from a phone (issue #19).

The GM (desktop, English) creates the battle's watch link; an anonymous
390x844 phone in French opens it, sees the map and the round, and no form;
the GM resolves round 1 and the phone shows round 2 and the report without a
reload.  The GM then revokes the link: the phone's page stops following.
"""

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE, enter_battle, leave_the_room, no_sideways_scroll, resolve

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def test_an_anonymous_phone_watches_a_round_resolve_live(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "heros")
    with gm.expect_navigation():
        gm.locator("[data-watch-share]").click()
    link = gm.locator("[data-watch-url]").input_value()
    assert "/watch/" in link

    errors = []
    phone = browser.new_context(locale="fr-FR", **PHONE).new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(link)
    expect(phone.locator("#live-status.online")).to_be_visible()
    expect(phone.locator(".round-head h2")).to_have_text("Tour 1")
    expect(phone.locator("main")).to_contain_text("Vous êtes spectateur")
    expect(phone.locator("svg.battle-map")).to_be_visible()
    expect(phone.locator("main form")).to_have_count(0)  # no declaration, no GM control
    no_sideways_scroll(phone)

    resolve(gm, 1)
    expect(phone.locator(".round-head h2")).to_have_text("Tour 2")  # live, no reload
    expect(phone.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    expect(phone.locator("main form")).to_have_count(0)
    screenshot(phone, "spectator-heros-fr-phone-round-2")

    with gm.expect_navigation():
        gm.locator(".watch-link button.danger").click()
        gm.locator("dialog [data-confirm-ok]").click()
    expect(phone.locator("#live-status.offline")).to_be_visible()  # closed for good (4403)
    assert phone.goto(link).status == 404
    assert errors == []
    leave_the_room(gm, phone)


# The demo's HÉROS battle made an ambush, in the server's own database before anyone opens it: side B's
# slingers hidden in the Bois Noir (as the ambush of test_battles_heros), with a new version so that no
# cached part of the battle as it was is reused.
AMBUSH = """
from masscombat.battles import adapters
from masscombat.battles.models import Battle
from masscombat.games.heros.demo import BATTLE_NAME
from rules import registry
battle = Battle.objects.get(name=BATTLE_NAME)
setup = adapters.get("heros").placement(battle.setup["input"], "b-frondeurs", {"col": 3, "row": 3})
next(u for u in setup["units"] if u["id"] == "b-frondeurs")["hidden"] = True
battle.setup = {**battle.setup, "input": setup}
battle.state = registry.run("heros", "new-battle", setup, seed=battle.seed)["state"]
battle.version += 1
battle.save()
"""
STILL_HIDDEN = """
from masscombat.battles.models import Battle
from masscombat.games.heros.demo import BATTLE_NAME
state = Battle.objects.get(name=BATTLE_NAME).state
print(next(u for u in state["units"] if u["id"] == "b-frondeurs").get("hidden"))
"""
HIDDEN = ("b-frondeurs", "Frondeurs")  # the unit's id and its name


def in_the_servers_database(database: str, code: str) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, str(root / "manage.py"), "shell", "-v", "0", "-c", code], cwd=root, check=True,
                          env={**os.environ, "DATABASE_URL": database}, capture_output=True, text=True, timeout=300)
    return done.stdout.strip()


def frames_of(page) -> list[str]:
    """Every message the page's websockets receive, as text (the pushed parts come gzipped when binary)."""
    import gzip

    frames = []

    def follow(socket):
        socket.on("framereceived", lambda payload: frames.append(
            gzip.decompress(payload).decode() if isinstance(payload, bytes) else payload))

    page.on("websocket", follow)
    return frames


def test_a_spectator_sees_a_round_resolve_live_and_never_a_hidden_unit(browser, daphne_server, screenshot, tmp_path):
    database = f"sqlite:///{tmp_path / 'ambush.sqlite3'}"
    base = daphne_server(demo=True, DATABASE_URL=database)
    in_the_servers_database(database, AMBUSH)
    gm = browser.new_context(locale="en-GB", **DESKTOP).new_page()
    enter_battle(gm, base, "demo-gm", "heros")
    expect(gm.locator('#battle-map [data-piece="b-frondeurs"]')).to_have_count(1)  # the GM sees the ambushers
    with gm.expect_navigation():
        gm.locator("[data-watch-share]").click()
    link = gm.locator("[data-watch-url]").input_value()

    errors = []
    phone = browser.new_context(locale="fr-FR", **PHONE).new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    frames = frames_of(phone)
    phone.goto(link)
    expect(phone.locator("#live-status.online")).to_be_visible()
    expect(phone.locator(".round-head h2")).to_have_text("Tour 1")
    expect(phone.locator("svg.battle-map [data-piece]").first).to_be_attached()
    screenshot(phone, "spectator-heros-ambush-fr-phone-round-1")

    resolve(gm, 1)
    expect(phone.locator(".round-head h2")).to_have_text("Tour 2")  # live, no reload
    expect(phone.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    expect(phone.locator("svg.battle-map [data-piece]").first).to_be_attached()
    phone.wait_for_function("() => document.querySelector('[data-last-seq]').dataset.live === '1'")
    screenshot(phone, "spectator-heros-ambush-fr-phone-round-2")
    assert in_the_servers_database(database, STILL_HIDDEN) == "True"  # the round left them in ambush

    seen = phone.content()
    assert [secret for secret in HIDDEN if secret in seen] == []
    assert any('"round_resolved"' in frame for frame in frames)  # the socket did carry the round...
    assert [frame[:200] for frame in frames if any(secret in frame for secret in HIDDEN)] == []  # ...and no secret
    assert errors == []
    leave_the_room(gm, phone)
