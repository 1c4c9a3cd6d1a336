"""Fixtures of the roster tests: campaigns per ruleset, and a browser-like reader of forms."""

from html.parser import HTMLParser

import pytest

from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role


class FormReader(HTMLParser):
    """What a browser would post for the form ``#form_id``: inputs, checked boxes, selected options."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._select_first: str | None = None
        self._selected = False
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.fields.append((name, attrs.get("value", "on")))
            elif kind not in ("submit", "button", "file"):
                self.fields.append((name, attrs.get("value", "")))
        elif tag == "select" and name:
            self._select, self._select_first, self._selected = name, None, False
        elif tag == "option" and self._select is not None:
            value = attrs.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in attrs and not self._selected:
                self.fields.append((self._select, value))
                self._selected = True
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""

    def handle_data(self, data):
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select is not None:
            if not self._selected and self._select_first is not None:
                self.fields.append((self._select, self._select_first))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text))
            self._textarea = None


def form_fields(html: bytes | str, form_id: str = "roster-form") -> list[tuple[str, str]]:
    reader = FormReader(form_id)
    reader.feed(html.decode() if isinstance(html, bytes) else html)
    import html as html_module

    return [(name, html_module.unescape(value)) for name, value in reader.fields]


def as_post(fields: list[tuple[str, str]], **extra) -> dict:
    """Fields as the test client posts them (repeated names as lists)."""
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    for name, value in extra.items():
        data[name] = [value]
    return data


@pytest.fixture
def scrape():
    return form_fields


@pytest.fixture
def to_post():
    return as_post


@pytest.fixture
def other_player(make_user):
    return make_user("merry", display_name="Merry")


@pytest.fixture
def campaign_for(gm, player, other_player):
    """A campaign of the given ruleset with the GM and two players."""

    def make(ruleset: str):
        campaign = campaign_services.create_campaign(gm, name=f"Campaign {ruleset}", ruleset=ruleset)
        campaign.memberships.create(user=player, role=Role.PLAYER)
        campaign.memberships.create(user=other_player, role=Role.PLAYER)
        return campaign

    return make


def _browser_fixtures():
    """The browser tests' fixtures (Debian's chromium, screenshots), shared rather than copied."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "browser" / "conftest.py"
    spec = importlib.util.spec_from_file_location("masscombat_browser_fixtures_rosters", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.browser, module.screenshot


browser, screenshot = _browser_fixtures()
