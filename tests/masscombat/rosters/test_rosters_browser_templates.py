"""A GM builds a first army from a template on a phone, in French, for every ruleset, and fights with it.

From the new-army gallery to a battle, all in the browser: pick a worked example, rename the army, add a unit
from a troop type (7th Sea, whose armies are a head-count: reinforce it with a company), name it, meet a refusal
of the rules on its field (a real rules reason where the ruleset has one for a unit: SYNAPSE's pieces on
infantry, HÉROS's class for flyers, D&D 5e's configuration of skirmishers; a value left out where it has none)
whose message names the unit, fix it, save; create the opponent from the gallery and set the battle up on the
new-battle page as a GM would.  The battle's pieces (HÉROS, D&D 5e) and its state (every ruleset) carry the
names typed, never an id.  Screenshots of the editor (phone and desktop, French and English) go to
``.screenshots/``.
"""

import json
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from masscombat.battles.models import Battle
from masscombat.campaigns import services as campaign_services
from masscombat.maps import demo as maps_demo
from masscombat.rosters import presets
from masscombat.rosters import services as roster_services
from tests.masscombat.battles.conftest import (
    DESKTOP,
    PHONE,
    no_sideways_scroll,
    shot_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Scenario:
    template: str  # the gallery card: "<section>:<key>"
    troop: str  # the troop type added from the editor (7th Sea: the troop that reinforces the army)
    wrong: tuple[str, str]  # a field of the new unit ({n}: its place) and a value the rules refuse ("": left out)
    right: str  # the value that fixes it
    said: str  # words of the rules' reason the field's message must hold
    unit_name: str | None  # the name typed for the new unit (7th Sea armies have none)
    error_at: str = ""  # where the message shows, when the rules refuse the whole unit ({n}: its place)
    setup: dict = field(default_factory=dict)  # the new-battle page's choices besides the armies: name -> value


SCENARIOS = {
    "synapse": Scenario("armies:Ost d'Hannibal", "human_infantry", ("units[{n}].pieces", "3"), "",
                        "seule l’artillerie a des pièces", "Fantassins du Nord"),
    "jdrwiki": Scenario("armies:Ost de Loreval", "archers", ("units[{n}].count", ""), "150",
                        "doit être rempli", "Archers du Nord",
                        setup={"deploy_a": "{map}:north", "deploy_b": "{map}:ford"}),
    "heros": Scenario("armies:Armée rouge", "Fl", ("units[{n}].class", "X"), "S",
                      "classe non permise pour Fl", "Griffons du Nord"),
    "dnd5e": Scenario("armies:Horde orque", "goblin", ("units[{n}].type", "skirmishers"), "regiment",
                      "les tirailleurs n’ont pas de configuration", "Gobelins du Nord", error_at="units[{n}]"),
    "seventh_sea": Scenario("armies:Montaigne", "company", ("troops", ""), "4500", "doit être rempli", None),
}


def log_in(page, base, user):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "correct horse battery")
    page.locator("main").locator("button[type=submit]").click()


def _units(page) -> int:
    return page.locator('[name^="units["][name$="].name"]').count()


def _set(control, value: str) -> None:
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)


def _from_the_gallery(page, base, campaign, template: str) -> None:
    page.goto(f"{base}{campaign.get_absolute_url()}")
    page.get_by_role("link", name="Nouvelle armée").click()
    section = template.partition(":")[0]
    if page.locator(f"#gallery-{section}").get_attribute("open") is None:
        page.locator(f"#gallery-{section} > summary").tap()
    card = page.locator(f'button[name="template"][value="{template}"]')
    card.scroll_into_view_if_needed()
    card.tap()
    expect(page.locator("#roster-form")).to_be_visible(timeout=30_000)  # the first call loads the engines


@pytest.mark.parametrize("slug", sorted(SCENARIOS))
def test_a_gm_builds_an_army_from_a_template_and_fights_with_it(browser, live_server, gm, slug):
    plan = SCENARIOS[slug]
    campaign = campaign_services.create_campaign(gm, name=f"Première campagne {slug}", ruleset=slug)
    battle_map = maps_demo.load(campaign)  # the map is not this test's subject: the demo's
    page = browser.new_context(locale="fr-FR", **PHONE).new_page()
    log_in(page, live_server.url, gm)
    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    page.get_by_role("link", name="Nouvelle armée").click()
    no_sideways_scroll(page)
    shot_of(page.locator("main"), f"rosters-templates-{slug}-fr-phone-gallery")
    _from_the_gallery(page, live_server.url, campaign, plan.template)

    page.fill("#id_meta-name", "Ost du Nord")  # renamed: one name, in the settings, never an id
    before = _units(page)
    adder = "troops" if slug == "seventh_sea" else "units"
    troops_before = page.locator('[name="troops"]').input_value() if slug == "seventh_sea" else ""
    page.select_option(f'select[name="_template:{adder}"]', plan.troop)
    page.locator(f'button[name="_add"][value="{adder}"]').tap()
    expect(page.locator('button[name="_undo"][data-server]')).to_be_visible()  # re-rendered, undoable
    expect(page.locator("#id_meta-name")).to_have_value("Ost du Nord")  # the typed name survives the re-render
    if plan.unit_name:
        expect(page.locator('[name^="units["][name$="].name"]')).to_have_count(before + 1)
        new = page.locator('[name^="units["][name$="].name"]').nth(before)
        expect(new).to_have_value(f"{presets.find(slug, 'troops', plan.troop).names['fr']} 1")
        new.fill(plan.unit_name)
    else:  # 7th Sea: a company of 200 reinforces the army
        expect(page.locator('[name="troops"]')).to_have_value(str(int(troops_before) + 200))
    wrong_field = plan.wrong[0].format(n=before)
    control = page.locator(f'[name="{wrong_field}"]')
    control.scroll_into_view_if_needed()
    _set(control, plan.wrong[1])
    page.locator("main").get_by_role("button", name="Enregistrer").tap()
    error_at = (plan.error_at or plan.wrong[0]).format(n=before)
    error = page.locator(f'[id="e-{error_at}"]')
    expect(error).to_be_visible()
    expect(page.locator(".form-errors")).to_contain_text("Rien n’a été enregistré")
    expect(error).to_contain_text(plan.said)  # the rules' reason, in French
    if plan.unit_name:
        expect(error).to_contain_text(plan.unit_name)  # naming the unit, by the name typed
    described = page.locator(f'[aria-describedby~="e-{error_at}"]')
    expect(described.first).to_be_attached()  # the message is tied to its control for screen readers
    _nothing_sticks_out(page)
    error.scroll_into_view_if_needed()
    # The unit (or group) that carries the message, as the GM sees it; a field of the army itself (7th Sea's
    # troops) is in no group: its own line then.
    group = error.locator("xpath=ancestor::*[self::details or self::fieldset][1]")
    shot_of(group if group.count() else error.locator("xpath=.."), f"rosters-templates-{slug}-fr-phone-error")
    _set(page.locator(f'[name="{wrong_field}"]'), plan.right)
    page.locator(f'[name="{wrong_field}"] ~ details.help > summary').tap()  # help, one tap away
    expect(page.locator(f'[id="h-{wrong_field}"]')).to_be_visible()
    page.locator("main").get_by_role("button", name="Enregistrer").tap()
    expect(page.locator("h1")).to_have_text("Ost du Nord")
    ours = campaign.armies.get(name="Ost du Nord")

    # The opponent: a tap on the first worked example; the battle: the new-battle page, as a GM sets one up.
    _from_the_gallery(page, live_server.url, campaign, f"armies:{presets.templates(slug, 'armies')[0].key}")
    theirs = campaign.armies.exclude(pk=ours.pk).get()
    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    page.get_by_role("link", name="Nouvelle bataille").click()
    page.fill("#id_name", "Première bataille")
    page.select_option("#id_army_a", str(ours.pk))
    page.select_option("#id_army_b", str(theirs.pk))
    for name, value in plan.setup.items():
        page.select_option(f"#id_{name}", value.replace("{map}", str(battle_map.pk)))
    no_sideways_scroll(page)
    page.locator("main").get_by_role("button", name="Lancer la bataille").tap()
    expect(page.locator("main")).to_contain_text("Ost du Nord", timeout=30_000)
    battle = Battle.objects.get(campaign=campaign, name="Première bataille")
    main = page.locator("main")
    expect(main).to_contain_text(theirs.name)
    state = json.dumps(battle.state, ensure_ascii=False)
    assert "Ost du Nord" in state  # the army by the name typed...
    if plan.unit_name:
        assert plan.unit_name in state  # ...and the unit too
    if slug in ("heros", "dnd5e"):  # the room draws units as pieces, each titled with its name
        expect(main).to_contain_text(plan.unit_name)
        expect(page.locator("svg .piece title").filter(has_text=plan.unit_name).first).to_be_attached()
    no_sideways_scroll(page)
    shot_of(main, f"rosters-templates-{slug}-fr-phone-battle")
    page.context.close()


@pytest.mark.parametrize("lang,locale", [("en", "en-GB"), ("fr", "fr-FR")])
def test_editor_screenshots_on_a_phone_and_a_desktop(browser, live_server, gm, lang, locale):
    """The editor with its help and folded fields, as a GM sees it on both devices, for the coordinator to look at."""
    campaign = campaign_services.create_campaign(gm, name="Guerres puniques", ruleset="synapse")
    army = roster_services.create_army(campaign, name="Ost d'Hannibal", user=gm,
                                       data=presets.start("synapse", "army", "armies", "Ost d'Hannibal", "Ost d'Hannibal"))
    for device, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_context(locale=locale, **size).new_page()
        log_in(page, live_server.url, gm)
        page.goto(f"{live_server.url}{army.get_absolute_url()}edit/")
        headcount = page.locator('[name="units[0].headcount"]')
        headcount.fill("999")
        headcount.press("Tab")  # the change is made: Undo takes back the value typed
        page.locator('button[name="_undo"]').click()
        expect(headcount).to_have_value("150")
        expect(page.locator('button[name="_undo"]')).to_be_disabled()
        page.locator('[name="units[0].headcount"] ~ details.help > summary').click()
        page.locator("#roster-form details.more > summary").first.click()
        _nothing_sticks_out(page)
        page.locator('[name="units[0].headcount"]').scroll_into_view_if_needed()
        page.screenshot(path=str(_shots() / f"rosters-editor-{lang}-{device}.png"))
        shot_of(page.locator("#roster-form details.item").first, f"rosters-editor-{lang}-{device}-unit")
        # The sheet beside the editor, every value unfolded; no table may be cut off at its right.
        page.evaluate("""() => { document.querySelectorAll('#sheet details').forEach(d => { d.open = true; });
            const aside = document.querySelector('.editor-sheet'); aside.style.maxHeight = 'none'; }""")
        _nothing_sticks_out(page)
        cut = page.evaluate("""[...document.querySelectorAll('#sheet .order-of-battle table')].filter(t => {
            const frame = t.closest('.table-wrap') || t.parentElement;
            return frame.scrollWidth > frame.clientWidth + 1; }).map(t => t.closest('section, .sheet-block')
            ?.querySelector('h2, h3')?.textContent)""")
        # A phone scrolls a wide table inside its frame; a desktop has room for the sheet's (the list of every
        # derived value, a column per value, still scrolls inside its frame).
        assert cut == [] or device == "phone", cut
        cut_select = page.evaluate("""[...document.querySelectorAll('#roster-form select')].filter(s =>
            s.offsetParent && s.scrollWidth > s.clientWidth + 1).map(s => s.name)""")
        assert cut_select == [] or device == "phone", cut_select
        shot_of(page.locator(".editor-sheet"), f"rosters-editor-{lang}-{device}-sheet")
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/armies/new/")
        page.screenshot(path=str(_shots() / f"rosters-gallery-{lang}-{device}.png"), full_page=True)
        page.context.close()


def _nothing_sticks_out(page) -> None:
    """No sideways scroll, and no element of the editor wider than the screen, but for the sheet's tables,
    which scroll inside their own frame (``.table-wrap``)."""
    no_sideways_scroll(page)
    wider = page.evaluate("""[...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('svg, .table-wrap'))
        .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    assert wider == []


def _shots():
    from tests.masscombat.battles.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
