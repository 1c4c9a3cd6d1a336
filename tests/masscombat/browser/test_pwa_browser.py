"""The installable app and the colour theme in Debian's chromium, on a 390x844 phone.

The first test runs the production set-up (daphne without DEBUG, collected and
hashed static files) from http://localhost, a secure context where service
workers run: Chromium's own installability check passes, the worker takes the
page, and with the network cut a navigation shows the offline page in the
player's language, styled from the worker's cache. The second proves the
theme toggle (light / dark / as the system) and that the theme is on the page
before its first paint.
"""

import secrets
import shutil

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import enter_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
OFFLINE_TITLE = {"en": "You are offline", "fr": "Vous êtes hors ligne"}
# The page's ground and a side's colour in each theme (static/css/app.css --paper, --side-0).
PAPER = {"light": "rgb(246, 244, 239)", "dark": "rgb(20, 22, 27)"}
SIDE_0 = {"light": "rgb(179, 34, 0)", "dark": "rgb(255, 126, 61)"}
BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"
# Records the theme <html> carries when <body> is created, before anything can be painted.
THEME_AT_BODY = """
new MutationObserver((changes, observer) => {
  if (document.body) { window.__themeAtBody = document.documentElement.dataset.theme || "none"; observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


@pytest.fixture
def production(daphne_server):
    """The demo on daphne without DEBUG (hashed static files, the manifest hash as the worker's version),
    reached as http://localhost; plain HTTP, so without the HTTPS redirect and secure cookies."""
    base = daphne_server(demo=True, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50),
                         ALLOWED_HOSTS="localhost,127.0.0.1", SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0",
                         SECURE_HSTS_SECONDS="0")
    return base.replace("127.0.0.1", "localhost")


def piece_fill(page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('.battle-map .side-0 > rect, .battle-map .side-0 > circle')).fill")


def phone_profile(browser, folder, lang: str):
    """A phone with a profile of its own: a context from ``browser.new_context`` is off the record,
    and Chromium never offers to install an app there (installability error ``in-incognito``)."""
    return browser.browser_type.launch_persistent_context(
        str(folder), executable_path=shutil.which("chromium"), locale=LOCALES[lang], color_scheme="light",
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"], **PHONE)


def test_installable_offline_and_dark_in_the_battle_room(browser, production, tmp_path, screenshot):
    for lang in LOCALES:
        context = phone_profile(browser, tmp_path / f"profile-{lang}", lang)
        page = context.pages[0]
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        enter_battle(page, production, "demo-player1", "dnd5e")
        # A function, not an expression: the page's policy forbids the eval an expression would need.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)

        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == []
        cache = page.evaluate("caches.keys()")
        assert len(cache) == 1 and cache[0].startswith("masscombat-shell-")
        # Production's file names carry their hash: those are served from the cache first.
        assert page.evaluate("name => caches.open(name).then(c => c.keys())"
                             ".then(keys => keys.some(r => /app\\.[0-9a-f]{12}\\.css$/.test(r.url)))", cache[0])

        assert page.evaluate(BACKGROUND) == PAPER["light"] and piece_fill(page) == SIDE_0["light"]
        screenshot(page, f"{lang}-phone390-battle-light")
        page.locator("[data-theme-toggle]").click()  # as the system (light here) -> dark
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate(BACKGROUND) == PAPER["dark"] and piece_fill(page) == SIDE_0["dark"]
        screenshot(page, f"{lang}-phone390-battle-dark")

        context.set_offline(True)
        page.locator(".lang-switch button:not(.current)").click()  # a form posted as a page
        expect(page.locator("h1")).to_have_text(OFFLINE_TITLE[lang])
        page.goto(production + "/")  # a link followed
        expect(page.locator("h1")).to_have_text(OFFLINE_TITLE[lang])
        assert page.evaluate("document.documentElement.lang") == lang
        # Styled, and dark: the stylesheet and the theme script came from the worker's cache.
        assert page.evaluate(BACKGROUND) == PAPER["dark"]
        screenshot(page, f"{lang}-phone390-offline-dark")

        context.set_offline(False)
        page.goto(production + "/")
        expect(page.locator("h1")).not_to_have_text(OFFLINE_TITLE[lang])  # the real page again, never a kept one
        expect(page.locator("[data-theme-toggle]")).to_be_visible()
        # Online, a form posted as a page passes through the worker, redirect included.
        page.locator(".lang-switch button:not(.current)").click()
        expect(page.locator("html")).to_have_attribute("lang", "fr" if lang == "en" else "en")
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        assert errors == []
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_theme_toggle_cycles_and_is_remembered(browser, live_server, lang, screenshot):
    context = browser.new_context(locale=LOCALES[lang], color_scheme="dark", **PHONE)
    context.add_init_script(THEME_AT_BODY)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    toggle = page.locator("[data-theme-toggle]")
    expect(toggle).to_be_visible()
    assert toggle.bounding_box()["height"] >= 44
    # No choice yet: the system's (dark here), already there when <body> was created.
    assert page.evaluate("[window.__themeAtBody, document.documentElement.dataset.theme]") == ["dark", "dark"]
    expect(toggle).to_have_attribute("data-choice", "system")

    toggle.click()
    expect(toggle).to_have_attribute("data-choice", "dark")
    toggle.click()
    expect(toggle).to_have_attribute("data-choice", "light")
    assert page.evaluate(BACKGROUND) == PAPER["light"]
    screenshot(page, f"{lang}-phone390-login-light")

    # Remembered across pages, and applied before the first paint though the system says dark.
    page.goto(live_server.url + "/accounts/signup/")
    assert page.evaluate("window.__themeAtBody") == "light"
    assert page.evaluate("localStorage.getItem('masscombat-theme')") == "light"
    expect(page.locator("[data-theme-toggle]")).to_have_attribute("data-choice", "light")

    page.locator("[data-theme-toggle]").click()  # back to the system, which now turns light
    assert page.evaluate("localStorage.getItem('masscombat-theme')") is None
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(BACKGROUND) == PAPER["dark"]
    screenshot(page, f"{lang}-phone390-signup-dark")
    context.close()
