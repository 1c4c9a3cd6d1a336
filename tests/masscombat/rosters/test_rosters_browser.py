"""A GM builds the spec's Hannibal army (SYNAPSE S9.3) from a phone, in both languages.

The sheet recomputes in place while typing (htmx), the saved army page shows
the spec's numbers, and its print preview is the order-of-battle sheet.
Screenshots go to ``.screenshots/``.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from masscombat.campaigns import services as campaign_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[3] / ".screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
TEXT = {"en": {"new": "New army", "create": "Create", "save": "Save", "rating": "Command rating"},
        "fr": {"new": "Nouvelle armée", "create": "Créer", "save": "Enregistrer", "rating": "Potentiel"}}


def log_in(page, base, user):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "correct horse battery")
    page.locator("main").locator("button[type=submit]").click()


def fill(page, name, value):
    """Type into a field, first unfolding the "more fields" it may be folded under (as a GM taps it open)."""
    field = page.locator(f'[name="{name}"]')
    if not field.is_visible():
        field.evaluate("e => e.closest('details.more').querySelector('summary').click()")
    field.fill(str(value))


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_gm_builds_hannibals_army_on_a_phone(browser, live_server, screenshot, gm, lang):
    campaign = campaign_services.create_campaign(gm, name="Guerres puniques", ruleset="synapse")
    text = TEXT[lang]
    context = browser.new_context(locale=LOCALES[lang], **PHONE)
    page = context.new_page()
    log_in(page, live_server.url, gm)
    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    page.get_by_role("link", name=text["new"]).click()
    page.fill("#id_name", "Ost d'Hannibal")
    page.locator("main").get_by_role("button", name=text["create"]).click()
    expect(page.locator("#roster-form")).to_be_visible()

    page.locator('[name="commander.__present"]').check()
    for field, value in {"name": "Hannibal", "mental_mod": 3, "presence_mod": 2, "combat": 5, "art_of_war": 5,
                         "diplomacy": 1}.items():
        fill(page, f"commander.{field}", value)
    for field, value in {"name": "Hommes d'armes", "headcount": 150, "weapon_damage": 4,
                         "combat_base": 8, "armour": 2, "break_pct_override": 50}.items():
        fill(page, f"units[0].{field}", value)
    page.locator('button[name="_add"][value="units"]').click()
    expect(page.locator('[name="units[1].name"]')).to_be_visible()
    assert page.locator('[name="units[1].id"]').get_attribute("type") == "hidden"  # made by the editor
    page.select_option('[name="units[1].unit_type"]', "human_infantry")
    for field, value in {"name": "Paysans", "headcount": 250, "weapon_damage": 2, "combat_base": 2,
                         "armour": 0}.items():
        fill(page, f"units[1].{field}", value)
    fill(page, "units[1].break_pct_override", "")  # the copy took the men-at-arms' override
    page.locator('[name="units[1].combat_base"]').dispatch_event("change")
    # The sheet beside the form is the engine's, recomputed without a reload: rating 13, group break 37 %.
    sheet = page.locator("#sheet")
    expect(sheet.locator(".ob-head")).to_contain_text("13")
    expect(sheet.locator("tr.total").first).to_contain_text("37")
    assert fits(page)
    screenshot(page, f"rosters-{lang}-phone-1-editor")
    for part in ("#roster-form details.item", "#sheet"):
        page.locator(part).first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"rosters-{lang}-phone-1-editor-{part.split()[-1].strip('#.')}.png"))

    page.locator("main").get_by_role("button", name=text["save"]).click()
    expect(page.locator("h1")).to_have_text("Ost d'Hannibal")
    expect(page.locator(".order-of-battle")).to_contain_text(text["rating"])
    tracks = page.locator(".order-of-battle table").last
    expect(tracks).to_contain_text("851")
    assert fits(page)
    screenshot(page, f"rosters-{lang}-phone-2-army")
    page.screenshot(path=str(SHOTS / f"rosters-{lang}-phone-2-army-top.png"))
    page.emulate_media(media="print")
    screenshot(page, f"rosters-{lang}-phone-3-print")
    context.close()

    desktop = browser.new_context(locale=LOCALES[lang], **DESKTOP)
    page = desktop.new_page()
    log_in(page, live_server.url, gm)
    army = campaign.armies.get()
    page.goto(f"{live_server.url}{army.get_absolute_url()}")
    screenshot(page, f"rosters-{lang}-desktop-army")
    page.emulate_media(media="print")
    page.pdf(path=str(SHOTS / f"rosters-{lang}-army-a4.pdf"), format="A4")
    screenshot(page, f"rosters-{lang}-desktop-print")
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}{army.get_absolute_url()}edit/")
    screenshot(page, f"rosters-{lang}-desktop-editor")
    desktop.close()
    assert army.version == 2 and army.data["units"][1]["headcount"] == 250


@pytest.mark.parametrize("slug", ["jdrwiki", "seventh_sea", "heros", "synapse", "dnd5e"])
def test_every_rulesets_pages_fit_a_phone(browser, live_server, screenshot, gm, slug):
    """The worked examples' army and hero pages and editors: readable at 390 px, no sideways scrolling."""
    from masscombat.rosters import examples, services

    campaign = campaign_services.create_campaign(gm, name=f"Démo {slug}", ruleset=slug)
    army_name, army_data = next(iter(examples.ARMIES[slug].items()))
    hero_name, hero_data = next(iter(examples.HEROES[slug].items()))
    army = services.create_army(campaign, name=army_name, user=gm, data=army_data)
    hero = services.create_hero(campaign, name=hero_name, user=gm, data=hero_data)
    for lang in ("en", "fr"):
        context = browser.new_context(locale=LOCALES[lang], **PHONE)
        page = context.new_page()
        log_in(page, live_server.url, gm)
        for item, label in ((army, "army"), (hero, "hero")):
            for suffix, step in (("", "page"), ("edit/", "editor")):
                page.goto(f"{live_server.url}{item.get_absolute_url()}{suffix}")
                expect(page.locator("#sheet")).to_be_visible()
                assert not page.locator(".sheet-problems").count(), page.locator(".sheet-problems").inner_text()
                assert fits(page), (slug, label, step)
                page.screenshot(path=str(SHOTS / f"rosters-{slug}-{lang}-phone-{label}-{step}.png"))
                if step == "editor" and page.locator("details.item").count():
                    page.locator("details.item").last.scroll_into_view_if_needed()
                    page.screenshot(path=str(SHOTS / f"rosters-{slug}-{lang}-phone-{label}-{step}-items.png"))
        context.close()
