"""Playwright on Debian's chromium, against pytest-django's live server.

Never ``playwright install``: the browser is the system's ``chromium``.  A
missing chromium fails the tests (``bin/setup --browser`` installs it).
Screenshots go to ``.screenshots/`` for a person to look at.
"""

import os
import shutil
import sys
import types
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[3] / ".screenshots"


# The apps' test folders load this file again under their own names to share its
# fixtures, which makes several session fixtures called ``browser``.  Playwright's
# sync API runs once per thread: the first one to start owns the browser, the
# others lend it.
@pytest.fixture(scope="session")
def browser():
    shared = sys.modules.setdefault("_masscombat_shared_browser", types.ModuleType("_masscombat_shared_browser"))
    if getattr(shared, "browser", None) is not None:
        yield shared.browser
        return
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # tests make between page actions are still plain synchronous ones.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("chromium is not installed: run bin/setup --browser", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        shared.browser = browser
        try:
            yield browser
        finally:
            shared.browser = None
            browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return take
