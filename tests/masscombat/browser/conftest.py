"""Playwright on Debian's chromium, against pytest-django's live server.

Never ``playwright install``: the browser is the system's ``chromium``.  A
missing chromium fails the tests (``bin/setup --browser`` installs it).
Screenshots go to ``.screenshots/`` for a person to look at.
"""

import os
import shutil
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[3] / ".screenshots"


@pytest.fixture(scope="session")
def browser():
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
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return take
