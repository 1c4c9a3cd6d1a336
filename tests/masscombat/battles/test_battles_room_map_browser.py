"""The battle room's map in the browser: a move picked with two taps, and the GM's placement before round 1.

Driven against pytest-django's live server (in this process), so the room
plays D&D 5e through the test adapter of ``test_battles_room_map`` over the
real engine.  Desktop and a 390x844 phone, in English and French.
"""

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from masscombat.battles import adapters, services
from masscombat.battles.models import Battle
from masscombat.core.permissions import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SHOTS = Path(__file__).resolve().parents[3] / ".screenshots"
DEVICES = [("en", "desktop"), ("fr", "phone"), ("fr", "desktop"), ("en", "phone")]


def _room_map_tests():
    spec = importlib.util.spec_from_file_location("room_map_tests", Path(__file__).with_name("test_battles_room_map.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROOM_MAP = _room_map_tests()


@pytest.fixture
def bridge(monkeypatch, campaign, gm, player, make_user):
    adapter = ROOM_MAP.FieldAdapter()
    real = adapters.get
    monkeypatch.setattr(adapters, "get", lambda slug: adapter if slug == "dnd5e" else real(slug))
    other = make_user("merry", display_name="Merry")
    campaign.memberships.create(user=other, role=Role.PLAYER)
    armies = {"A": SimpleNamespace(commander=player), "B": SimpleNamespace(commander=other)}
    return services.create_battle(campaign, gm, name="Le pont", armies=armies, heroes=[], options={})


def open_room(browser, live_server, user, battle, lang, device):
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale={"en": "en-GB", "fr": "fr-FR"}[lang], **(PHONE if device == "phone" else DESKTOP))
    host = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "domain": host, "path": "/"}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server.url + battle.get_absolute_url())
    return page, errors


def shoot(page, screenshot, name):
    """The whole page, and the map panel alone (where the picking happens) beside it."""
    screenshot(page, name)
    page.locator("#battle-map").screenshot(path=str(SHOTS / f"{name}-map.png"))


def tap(page, locator, device):
    locator.scroll_into_view_if_needed()
    if device == "phone":
        locator.tap()
    else:
        locator.click()


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize(("lang", "device"), DEVICES)
def test_a_player_picks_a_move_with_two_taps(browser, live_server, screenshot, bridge, player, lang, device):
    page, errors = open_room(browser, live_server, player, bridge, lang, device)
    name = "units.a_reg.stands[0].move"
    select = page.locator(f'select[name="{name}"]')
    expect(select).to_have_attribute("data-piece", "ar1")
    tap(page, page.locator('#battle-map [data-piece="ar1"]'), device)
    destinations = page.locator("#battle-map .highlights .pick-dest")
    ends = {cells.split(" ")[-1] for cells in select.locator("option[data-cells]").evaluate_all(
        "options => options.map(o => o.dataset.cells)")}
    expect(destinations).to_have_count(len(ends))
    expect(page.locator('#battle-map [data-piece="ar1"]')).to_have_class(lambda_has("selected"))
    shoot(page, screenshot, f"room-map-{lang}-{device}-1-destinations")

    paths = json.loads(select.locator("option[data-cells]").evaluate_all("options => JSON.stringify(options.map(o => o.value))"))
    target = max((json.loads(p) for p in paths), key=len)  # the farthest: drawn with the most steps
    end = f"{target[-1][0]},{target[-1][1]}"
    tap(page, page.locator(f'#battle-map .highlights .pick-dest[data-c="{end}"]'), device)
    chosen = json.loads(select.input_value())
    assert chosen[-1] == target[-1]
    assert len(chosen) == min(len(json.loads(p)) for p in paths if json.loads(p)[-1] == target[-1])
    expect(page.locator("#battle-map g.pick-path .pick-end")).to_have_attribute("data-c", end)
    expect(page.locator("#battle-map g.pick-path .pick-step")).to_have_count(len(chosen) - 1)
    expect(page.locator("[data-map-pick-status]")).to_be_visible()
    no_sideways_scroll(page)
    shoot(page, screenshot, f"room-map-{lang}-{device}-2-path")

    # A tap where the stand cannot go clears the picker; choosing by hand draws again.
    tap(page, page.locator('#battle-map .terrain [data-c="15,0"]'), device)
    expect(page.locator("#battle-map .pick-dest")).to_have_count(0)
    select.select_option(index=1)
    expect(page.locator("#battle-map g.pick-path polyline")).to_have_count(1)

    page.locator(f'form[data-participant="unit:a_reg"] button[type=submit]').click()
    expect(page.locator('form[data-participant="unit:a_reg"] .message')).to_be_visible()
    expect(page.locator("#battle-map g.pick-path polyline")).to_have_count(1)  # redrawn after the swap
    assert errors == []


def lambda_has(css_class):
    import re

    return re.compile(rf"(^|\s){css_class}(\s|$)")


@pytest.mark.parametrize(("lang", "device"), [("fr", "desktop"), ("en", "phone")])
def test_the_gm_places_a_stand_before_round_1(browser, live_server, screenshot, bridge, gm, lang, device):
    page, errors = open_room(browser, live_server, gm, bridge, lang, device)
    viewport = page.locator("#battle-map [data-map-view]")
    page.locator("#battle-map [data-map-zoom=in]").click()
    zoomed = page.locator("#battle-map svg.battle-map").get_attribute("viewBox")
    toggle = page.locator("[data-place-toggle]")
    tap(page, toggle, device)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    tap(page, page.locator('#battle-map [data-piece="ar1"]'), device)
    tap(page, page.locator('#battle-map .terrain [data-c="5,4"]'), device)
    expect(page.locator('#battle-map .message[role="status"]')).to_be_visible()
    expect(page.locator('#battle-map [name="version"]')).to_have_value(str(bridge.version + 1))
    assert Battle.objects.get(pk=bridge.pk).state["stands"]["ar1"]["position"] == [5, 4]
    expect(page.locator("#battle-map svg.battle-map")).to_have_attribute("viewBox", zoomed)  # the zoom is kept
    expect(page.locator("[data-place-toggle]")).to_have_attribute("aria-pressed", "true")
    shoot(page, screenshot, f"room-map-{lang}-{device}-3-placed")

    # Deep water: the engine's refusal comes back in the form, nothing moves.
    tap(page, page.locator("#battle-map [data-map-zoom=reset]"), device)
    tap(page, page.locator('#battle-map [data-piece="ar2"]'), device)
    tap(page, page.locator('#battle-map [data-piece="ar3"]'), device)  # a piece: it becomes the one to move
    tap(page, page.locator('#battle-map .terrain [data-c="8,1"]'), device)  # deep water
    expect(page.locator("#battle-map .place-manual .errorlist")).to_be_visible()
    assert Battle.objects.get(pk=bridge.pk).state["stands"]["ar3"]["position"] == [3, 6]
    no_sideways_scroll(page)
    shoot(page, screenshot, f"room-map-{lang}-{device}-4-refused")
    assert viewport.count() == 1 and errors == []
