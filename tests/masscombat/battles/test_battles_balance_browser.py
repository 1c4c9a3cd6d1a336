"""The GM's odds in a browser, through the real server: the round preview's bar fed over the room's socket, its
figures, and the balance on the setup page; 7th Sea and D&D 5e, on a desktop and a 390x844 phone, in English
and in French."""

import gzip
import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DESKTOP, PHONE, enter_battle, leave_the_room, resolve, shot_of

pytestmark = pytest.mark.browser
expect.set_options(timeout=60_000)

# Every value a running preview's bar took in the page, whichever way its HTML came.
SEEN_BARS = """() => {
  window.seenBars = [];
  const note = () => document.querySelectorAll("[data-preview-state=running] progress")
    .forEach((bar) => window.seenBars.push(Number(bar.getAttribute("value"))));
  new MutationObserver(note).observe(document.body, {childList: true, subtree: true, attributes: true});
}"""
BAR = re.compile(r'data-preview-state="running".*?<progress max="100" value="(\d+)"', re.S)
WORDS = {"en": {"preview": "Preview this round", "units": "What the round does to each unit", "new": "New battle",
                "tries": "tries of this round", "wins": "wins"},
         "fr": {"preview": "Prévoir ce tour", "units": "Ce que le tour fait à chaque unité",
                "new": "Nouvelle bataille", "tries": "essais de ce tour", "wins": "gagne"}}
# Long enough for the bar to be seen between two tenths on a loaded machine (the first figures come after 25).
RESOLUTIONS = {"seventh_sea": "6000", "dnd5e": "1500"}
# Each GM previews a round of their own (the same battle as it stands answers with the figures it has): the
# first, in English, resolves round 1 before handing over.
CASTS = {"seventh_sea": [("en", DESKTOP, "desktop"), ("fr", PHONE, "phone")],
         "dnd5e": [("en", PHONE, "phone"), ("fr", DESKTOP, "desktop")]}


ARCHERS = "B-archers_hobgobelins"


def declare_the_archers(player) -> None:
    """D&D 5e: Bastien's archers shoot at the orc war chief, so that the round as declared does something (on
    their default orders no D&D 5e unit acts)."""
    archers = player.locator(f'form[data-participant="unit:{ARCHERS}"]')
    archers.locator("label.choice", has_text="Attack").first.click()
    archers.locator("label.choice", has_text="longbow → Chef de guerre orque").click()
    archers.get_by_role("button", name="Declare").click()
    expect(player.locator(f'form[data-participant="unit:{ARCHERS}"].declared')).to_be_visible()


def shot_while_pushed(page, selector: str, name: str) -> None:
    """A screenshot of a part the socket keeps replacing: taken again if it was swapped out meanwhile."""
    for _ in range(10):
        try:
            shot_of(page.locator(selector), name)
            return
        except PlaywrightError as exc:
            if "not attached" not in str(exc):
                raise
    raise AssertionError(f"{selector} never held still for a screenshot")


def socket_frames(page) -> list[dict]:
    """Every message the room's socket receives, decoded (text JSON, or gzipped JSON in binary frames)."""
    heard: list[dict] = []

    def follow(socket):
        def note(payload):
            raw = gzip.decompress(payload).decode() if isinstance(payload, bytes) else payload
            heard.append(json.loads(raw))
        socket.on("framereceived", note)

    page.on("websocket", follow)
    return heard


@pytest.mark.parametrize("slug", ["seventh_sea", "dnd5e"])
def test_the_gm_previews_a_round_with_its_bar_on_the_socket_then_sees_the_balance(browser, daphne_server, slug):
    base = daphne_server(demo=True, BALANCE_BATTLES="12", BALANCE_ROUND_CAP="10", PREVIEW_RESOLUTIONS=RESOLUTIONS[slug])
    player = None
    if slug == "dnd5e":
        player = browser.new_context(locale="en-GB", **DESKTOP).new_page()
        enter_battle(player, base, "demo-player2", slug)
    for turn, (language, device, kind) in enumerate(CASTS[slug]):
        if player is not None:
            declare_the_archers(player)
        words = WORDS[language]
        name = f"{slug}-{language}-{kind}"
        gm = browser.new_context(locale="fr-FR" if language == "fr" else "en-GB", **device).new_page()
        errors = []
        gm.on("pageerror", lambda exc: errors.append(str(exc)))
        heard = socket_frames(gm)
        enter_battle(gm, base, "demo-gm", slug)
        gm.evaluate(SEEN_BARS)
        gm.get_by_role("button", name=words["preview"]).click()

        # The bar moves past a tenth while the GM waits: its value reached the page in the status part the socket
        # pushed after a preview event (not in a request of the page's own).
        part = gm.locator("[data-preview-part]")
        expect(part.locator("[data-preview-state=running] progress")).to_have_attribute("value", re.compile(r"^[1-9]\d$"))
        shot_while_pushed(gm, "[data-preview-part]", f"preview-bar-{name}")
        pushed = [int(value) for message in heard if message.get("type") == "parts"
                  for value in BAR.findall(message["html"].get("status", ""))]
        events = [message["payload"]["progress"] for message in heard
                  if message.get("type") == "event" and message.get("kind") == "preview"]
        shown = gm.evaluate("window.seenBars")
        between = [value for value in pushed if 0 < value < 100]
        assert between and set(between) & set(shown), (pushed, shown)
        assert any(0 < progress < 1 for progress in events), events

        # Then the last figures, the bar gone: the sides and what the round does to each unit, in words.
        done = part.locator("[data-preview-state=done]")
        expect(done).to_be_visible(timeout=300_000)
        expect(done).to_contain_text(words["tries"])
        expect(done.locator(".preview-sides tbody tr")).to_have_count(2)
        expect(done.locator(".preview-units li").first).to_be_visible()
        expect(done).to_contain_text(words["units"])
        expect(part.locator("progress")).to_have_count(0)
        shot_while_pushed(gm, "[data-preview-part]", f"preview-result-{name}")
        if turn == 0:
            resolve(gm, 1)

        # The setup page: picking two armies brings their balance, first figures then the last.
        gm.goto(base + gm.locator("a", has_text="← ").first.get_attribute("href"))
        gm.locator("a", has_text=words["new"]).first.click()
        gm.select_option("#id_army_a", index=1)
        gm.select_option("#id_army_b", index=2)
        expect(gm.locator('[data-balance="ready"]')).to_be_visible(timeout=300_000)
        expect(gm.locator(".balance-figures")).to_contain_text(words["wins"])
        expect(gm.locator(".balance-units li").first).to_be_visible()
        shot_of(gm.locator("[data-balance-part]"), f"balance-{name}")
        assert errors == []
        leave_the_room(gm)
    if player is not None:
        leave_the_room(player)
