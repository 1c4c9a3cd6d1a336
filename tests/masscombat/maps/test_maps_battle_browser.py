"""Two rounds of a D&D 5e battle on a stored map, the map component alone in the browser.

The battle room's own test (``tests/masscombat/battles/test_battles_room_map_browser.py``)
plays the map inside the room; this one drives the component as the room
feeds it: the map drawn for side A only (``pieces_of`` on the engine's
visible state for A), a tap on one of the player's stands
(``map:select-piece``), the ends of its moves the engine offers A
highlighted, a tap on one of them (``map:select-cell``), the move declared
and resolved by the engine, and the positions redrawn.  Desktop in English,
phone in French.
"""

import importlib.util
import random
import sys
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from masscombat.campaigns import services as campaign_services
from masscombat.core import engines
from masscombat.maps import demo
from masscombat.maps.engine import new_battle_fields
from tests.masscombat.battles.conftest import DESKTOP, PHONE, tap
from tests.masscombat.maps.test_maps_fog_and_render import _moves, _view

run = engines.call

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAG = Template("{% load maps %}{% battle_map source pieces=pieces highlights=highlights %}")


def _kit():
    if "dnd5e_testkit" not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "rules" / "dnd5e" / "conftest.py"
        spec = importlib.util.spec_from_file_location("dnd5e_testkit", path)
        sys.modules["dnd5e_testkit"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules["dnd5e_testkit"])
    return sys.modules["dnd5e_testkit"]


def _setup(battle_map) -> dict:
    profiles = _kit().PROFILES
    return {
        "name": "Le gué", **new_battle_fields(battle_map),
        "profiles": {"orc": profiles["orc"], "hobgoblin": profiles["hobgoblin"], "mage": profiles["mage"]},
        "sides": {"A": {"name": "Horde"}, "B": {"name": "Légion"}},
        "units": {
            "orcs": {"side": "A", "name": "Orc band", "type": "skirmishers",
                     "stands": [{"id": f"o{i}", "profile": "orc", "position": [6, 4 + i]} for i in range(4)]},
            "hobs": {"side": "B", "name": "Hobgoblin line", "type": "regiment", "configuration": "march",
                     "stands": [{"id": f"h{i}", "profile": "hobgoblin", "position": [14, 4 + i]} for i in range(4)]},
        },
        "solos": {"mage": {"side": "B", "name": "Mage", "profile": "mage", "position": [17, 9]}},
    }


def _show(page, live_server, lang, view):
    with translation.override(lang):
        html = TAG.render(Context({"source": view["source"], "pieces": view["pieces"], "highlights": view["highlights"]}))
    static = f"{live_server.url}/static"
    page.set_content(
        f'<!doctype html><html lang="{lang}"><head><meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="stylesheet" href="{static}/css/app.css"><link rel="stylesheet" href="{static}/css/maps.css">'
        f'</head><body><main class="content">{html}</main></body></html>'
    )
    page.add_script_tag(url=f"{static}/js/map-view.js")
    page.evaluate("""() => { window.picked = [];
        document.addEventListener('map:select-piece', e => window.picked.push(['piece', e.detail.id]));
        document.addEventListener('map:select-cell', e => window.picked.push(['cell', e.detail.cell])); }""")


@pytest.mark.parametrize(("lang", "device"), [("en", "desktop"), ("fr", "phone")])
def test_player_moves_a_stand_on_the_map_for_two_rounds(browser, live_server, screenshot, gm, monkeypatch, lang, device):
    # Playwright's event loop runs in this thread: no page listens, so the change notice is not sent.
    monkeypatch.setattr("masscombat.maps.services.live.campaign_changed", lambda campaign_id: None)
    campaign = campaign_services.create_campaign(gm, name="Gué", ruleset="dnd5e")
    battle_map = demo.load(campaign)
    state = run("dnd5e", "new-battle", _setup(battle_map), seed=3)["state"]
    state["solos"]["mage"]["hidden"] = True  # the enemy mage hides: side A must never see it
    phone = device == "phone"
    context = browser.new_context(locale={"en": "en-GB", "fr": "fr-FR"}[lang],
                                  **(PHONE if phone else DESKTOP))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    rng = random.Random(7)

    for round_number, stand in ((1, "o0"), (2, "o1")):
        view = {**_view(state, "dnd5e", "A"), "highlights": []}
        assert "mage" not in {p["id"] for p in view["pieces"]}
        _show(page, live_server, lang, view)
        assert page.locator('[data-piece="mage"]').count() == 0
        tap(page.locator(f'[data-piece="{stand}"]'), phone)
        assert page.evaluate("window.picked") == [["piece", stand]]

        selected = {**view, "highlights": _moves(state, "dnd5e", "A", {"kind": "unit", "id": "orcs"}, stand)}
        assert selected["highlights"]
        _show(page, live_server, lang, selected)
        screenshot(page, f"maps-battle-{lang}-{device}-round{round_number}-moves")
        target = max(selected["highlights"], key=lambda square: (square[0], -abs(square[1] - 5)))
        tap(page.locator(f'.highlights [data-c="{target[0]},{target[1]}"]'), phone)
        assert page.evaluate("window.picked")[-1] == ["cell", f"{target[0]},{target[1]}"]

        options = run("dnd5e", "declaration-options", {"state": state, "participant": {"kind": "unit", "id": "orcs"},
                                                        "viewer": "A"})
        index = state["units"]["orcs"]["stands"].index(stand)
        paths = next(o for o in options["options"] if o["path"] == f"units.orcs.stands[{index}].move")["allowed"]
        path = next(p for p in paths if p[-1] == target)
        declarations = _kit().random_declarations(state, rng)
        declarations["units"]["orcs"] = {"action": "dash", "stands": [
            {"stand": sid, **({"move": path} if sid == stand else {})} for sid in state["units"]["orcs"]["stands"]]}
        state = run("dnd5e", "resolve-round", {"state": state, "declarations": declarations}, seed=round_number)["state"]
        assert state["stands"][stand]["position"] == target
        assert state["round"] == round_number + 1

    after = {**_view(state, "dnd5e", "A"), "highlights": []}
    _show(page, live_server, lang, after)
    for stand in ("o0", "o1"):
        expect_at = state["stands"][stand]["position"]
        assert next(p for p in after["pieces"] if p["id"] == stand)["at"] == expect_at
    # Zoom and pan change what the frame shows, never the page's width.
    viewport = page.locator("[data-map-view]")
    before = page.locator("svg.battle-map").get_attribute("viewBox")
    tap(page.locator('[data-map-zoom="in"]'), phone)
    assert page.locator("svg.battle-map").get_attribute("viewBox") != before
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"maps-battle-{lang}-{device}-after-two-rounds")
    assert viewport.count() == 1 and errors == []
    context.close()
