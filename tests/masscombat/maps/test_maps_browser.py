"""A GM builds one map of each kind in the editor (mouse on a desktop, touch-sized on a phone), in English and French.

Screenshots of each editor and map page go to ``.screenshots/maps-*``.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from masscombat.campaigns import services as campaign_services
from masscombat.maps.models import BattleMap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
TEXT = {
    "en": {"new": "New map", "create": "Create the map", "save": "Save", "saved": "Map saved.", "login": "Log in",
           "forest": "Forest", "objective": "Objective square", "rough": "Rough ground", "wooded": "Wooded",
           "add": "Add a zone", "link": "Link two zones", "select": "Select a zone", "undo": "Undo",
           "zone": "Zone", "objective_name": "Objective 1", "forest_help": "Woods"},
    "fr": {"new": "Nouvelle carte", "create": "Créer la carte", "save": "Enregistrer", "saved": "Carte enregistrée.",
           "login": "Connexion", "forest": "Forêt", "objective": "Case objectif", "rough": "Terrain accidenté",
           "wooded": "Boisé", "add": "Ajouter une zone", "link": "Relier deux zones", "select": "Choisir une zone",
           "undo": "Annuler", "zone": "Zone", "objective_name": "Objectif 1", "forest_help": "Des bois"},
}
PASSWORD = "correct horse battery"


def _log_in(page, live_server, username):
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()


def _fits(page):
    """No horizontal scrolling, and nothing wider than the screen (the page hides its own overflow).

    The map inside its frame and the editor's strip of tools scroll on their own, by design.
    """
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url
    assert page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(el => !el.closest('.map-viewport > svg, .editor-tools'))
        .every(el => el.getBoundingClientRect().right <= window.innerWidth + 1)"""), page.url


def _cell(page, key):
    page.wait_for_selector("#map-editor:not([data-busy])", state="attached")
    return page.locator(f'#map-editor svg.battle-map [data-c="{key}"]').first


def _drag(page, keys):
    """Paint across cells with the pointer held down."""
    _cell(page, keys[0]).scroll_into_view_if_needed()
    boxes = [_cell(page, key).bounding_box() for key in keys]
    centre = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in boxes]
    page.mouse.move(*centre[0])
    page.mouse.down()
    for x, y in centre[1:]:
        page.mouse.move(x, y, steps=4)
    page.mouse.up()


def _tap(page, key):
    _cell(page, key).scroll_into_view_if_needed()
    box = _cell(page, key).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _tool(page, name):
    page.locator("#map-editor .tool", has_text=name).first.click()


def _new_map(page, campaign, text, name):
    page.goto(campaign["url"])
    page.get_by_role("link", name=text["new"]).click()
    page.fill("#id_name", name)
    page.get_by_role("button", name=text["create"]).click()
    expect(page.locator("#map-editor svg.battle-map")).to_be_visible()


def _save(page, text):
    page.locator('[data-editor="save"]').click()
    expect(page.locator(".editor-status")).to_have_text(text["saved"])


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_gm_builds_a_map_of_each_kind(browser, live_server, screenshot, django_user_model, lang, device):
    text = TEXT[lang]
    gm = django_user_model.objects.create_user(username=f"gm_{lang}_{device}", password=PASSWORD, display_name="Morgane")
    campaigns = {}
    for ruleset in ("dnd5e", "heros", "jdrwiki"):
        made = campaign_services.create_campaign(gm, name=f"Campagne {ruleset}", ruleset=ruleset)
        campaigns[ruleset] = {"url": f"{live_server.url}{made.get_absolute_url()}", "obj": made}

    context = browser.new_context(locale=LOCALES[lang], **DEVICES[device])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _log_in(page, live_server, gm.username)
    shot = f"maps-{lang}-{device}"

    # Square grid (D&D 5e): paint a forest, an objective square, undo a stray stroke, save.
    _new_map(page, campaigns["dnd5e"], text, "Le gué")
    _tool(page, text["forest"])
    # The picked tool says what it paints, under the tools; its radio button is described by it.
    expect(page.locator('[data-tool-help="terrain:forest"]')).to_be_visible()
    expect(page.locator('[data-tool-help="terrain:forest"]')).to_contain_text(text["forest_help"])
    assert page.locator('input[value="terrain:forest"]').get_attribute("aria-describedby") == "mh-forest"
    _drag(page, ["2,2", "3,2", "4,2", "4,3"])
    expect(_cell(page, "3,2")).to_have_class("cell t-forest")
    _drag(page, ["6,6", "7,6"])
    page.get_by_role("button", name=text["undo"]).click()
    _tool(page, text["objective"])
    _tap(page, "8,4")
    expect(page.locator("#map-editor svg.battle-map g.objective")).to_have_count(1)
    # Called by its rank, never by its id.
    expect(page.locator("#map-editor svg.battle-map g.objective title")).to_contain_text(text["objective_name"])
    _save(page, text)
    screenshot(page, f"{shot}-1-square-editor")
    if device == "phone":
        _fits(page)
    square = BattleMap.objects.get(campaign=campaigns["dnd5e"]["obj"])
    forest = {tuple(c["at"]) for c in square.data["cells"] if c["terrain"] == "forest"}
    assert forest == {(2, 2), (3, 2), (4, 2), (4, 3)}
    assert [o["at"] for o in square.data["objective_squares"].values()] == [[8, 4]]
    page.goto(f"{live_server.url}{square.get_absolute_url()}")
    expect(page.locator("svg.battle-map")).to_be_visible()
    screenshot(page, f"{shot}-2-square-map")

    # Hex grid (HÉROS): rough wooded ground.
    _new_map(page, campaigns["heros"], text, "Plaine des Cendres")
    _tool(page, text["rough"])
    _drag(page, ["3,3", "4,3"])
    _drag(page, ["5,4"])
    _tool(page, text["wooded"])
    _drag(page, ["3,3", "4,3"])
    expect(page.locator("#map-editor svg.battle-map .glyph").first).to_be_attached()
    _save(page, text)
    screenshot(page, f"{shot}-3-hex-editor")
    hexes = BattleMap.objects.get(campaign=campaigns["heros"]["obj"]).data["hexes"]
    assert {(h["col"], h["row"]): (h["terrain"], h["wooded"]) for h in hexes} == {
        (3, 3): ("rough", True), (4, 3): ("rough", True), (5, 4): ("rough", False)}

    # Zones (JdRWiki): a new map has one zone; two more, two links, a name and a cover level.
    _new_map(page, campaigns["jdrwiki"], text, "Loreval")
    _tool(page, text["add"])
    for zone, slot in (("z2", "1,0"), ("z3", "1,1")):
        _tap(page, f"slot:{slot}")
        expect(page.locator("#map-editor .zone-panel")).to_be_visible()
        expect(_cell(page, zone)).to_be_attached()
    # A new zone is named in the GM's language after its number, its id never shown.
    expect(page.locator('[name="zone-name"]')).to_have_value(f"{text['zone']} 3")
    expect(page.locator("[data-zone-title]")).to_have_text(f"{text['zone']} 3")
    names = page.locator("#map-editor svg.battle-map text.zone-name").all_text_contents()
    assert sorted(names) == [f"{text['zone']} {n}" for n in (1, 2, 3)], names
    page.locator('[name="zone-name"] ~ details.help > summary').click()  # help, one tap away
    expect(page.locator("#mh-zone_name")).to_be_visible()
    page.fill('[name="zone-name"]', "Bois du Nord")
    expect(page.locator("[data-zone-title]")).to_have_text("Bois du Nord")
    page.fill('[name="zone-cover"]', "2")
    _tool(page, text["link"])
    _tap(page, "z1")
    _tap(page, "z2")
    _tap(page, "z2")
    _tap(page, "z3")
    expect(page.locator("#map-editor svg.battle-map .link")).to_have_count(2)
    _save(page, text)
    screenshot(page, f"{shot}-4-zones-editor")
    zones = BattleMap.objects.get(campaign=campaigns["jdrwiki"]["obj"]).data["zones"]
    assert zones["z2"]["neighbors"] == ["z1", "z3"]
    assert zones["z3"]["name"] == "Bois du Nord" and zones["z3"]["terrain"] == {"cover": 2}
    zone_map = BattleMap.objects.get(campaign=campaigns["jdrwiki"]["obj"])
    page.goto(f"{live_server.url}{zone_map.get_absolute_url()}")
    expect(page.locator("main")).to_contain_text("Bois du Nord")
    screenshot(page, f"{shot}-6-zones-map")
    if device == "phone":
        _fits(page)
    page.goto(campaigns["jdrwiki"]["url"])
    expect(page.locator("#maps")).to_contain_text("Loreval")
    screenshot(page, f"{shot}-5-campaign")
    if device == "phone":
        _fits(page)
    assert errors == []
    context.close()
