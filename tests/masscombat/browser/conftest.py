"""Playwright on Debian's chromium, against pytest-django's live server or daphne.

``browser`` is the one chromium of the test process (``chromium`` in
``tests/masscombat/conftest.py``): a second Playwright in the same process
cannot start, so every folder's browser tests share it, even those that load
these fixtures into their own conftest.  Screenshots go to ``.screenshots/``
for a person to look at.
"""

from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[3] / ".screenshots"


@pytest.fixture(scope="session")
def browser(chromium):
    return chromium


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return take
