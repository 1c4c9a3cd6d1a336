"""A player's room on a 390x844 phone in French (issue #17): what to do first is on the first screen, one
Declare sends every form, and a refusal is said on its field when the player declares.

- First screen: in each of the five demo battles, for each demo player, the banner "what is left for you"
  comes first (where the round waits for the player) and the first choice of the first form (one the
  round waits for, else an optional one) lies within the first screen; the round's status, the map and
  the reports come after the forms.
- One Declare: in the D&D 5e demo, Aline changes two of her forms and presses "Déclarer toutes mes unités"
  once: every form she has is sent in turn, the choices she made are the ones saved, and the banner ends
  on "all declared".
- A refusal on its field: in the JdRWiki demo, Aline asks for two heroism points of her commander, who has
  one; the engine's check refuses it when she declares (not at the GM's resolution), in French, on the
  heroism field, and nothing is saved.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DEMO_BATTLES, PHONE, SCREENSHOTS, enter_battle, leave_the_room

pytestmark = pytest.mark.browser
expect.set_options(timeout=20_000)

SCREEN = PHONE["viewport"]["height"]
AWAITED = "#battle-declare form.declare-form[data-awaited]"
# The first thing a player does in a form: a choice, a box, a list or a number.
FIRST_CONTROL = "label.choice, select, input[type=number], input[type=text], textarea"


def top_of(locator) -> float:
    return locator.evaluate("el => el.getBoundingClientRect().top + window.scrollY")


def test_the_first_thing_to_do_is_on_the_first_screen_of_every_demo_room(browser, daphne_server):
    base = daphne_server(demo=True)
    SCREENSHOTS.mkdir(exist_ok=True)
    measured = {}
    for username in ("demo-player1", "demo-player2"):
        page = browser.new_context(locale="fr-FR", **PHONE).new_page()
        for number, ruleset in enumerate(DEMO_BATTLES):
            if number == 0:
                enter_battle(page, base, username, ruleset)
            else:
                _open(page, base, ruleset)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SCREENSHOTS / f"room-first-screen-{ruleset}-{username}-fr-phone.png"))
            forms = page.locator("#battle-declare form.declare-form")
            if not forms.count():
                continue  # nothing for this player to declare here
            awaited = page.locator(AWAITED).count() > 0
            control = (page.locator(AWAITED) if awaited else forms).first.locator(FIRST_CONTROL).first
            banner = top_of(page.locator("[data-declare-banner]")) if awaited else None
            measured[(ruleset, username)] = (banner, top_of(control), top_of(page.locator("#battle-status")))
        page.context.close()
    assert {ruleset for ruleset, _ in measured} == set(DEMO_BATTLES), measured  # a form in every demo room
    for (ruleset, username), (banner, control, status) in measured.items():
        assert control < SCREEN - 44, (ruleset, username, control)  # a whole tap target on the first screen
        assert control < status, (ruleset, username, control, status)  # the forms before the round's status
        assert banner is None or banner < control, (ruleset, username, banner, control)  # the banner first


def _open(page, base: str, ruleset: str) -> None:
    """The ruleset's demo room, from the home page as a signed-in player finds it."""
    campaign, battle = DEMO_BATTLES[ruleset]
    page.goto(base + "/")
    page.locator("a", has_text=campaign).first.click()
    page.locator("a", has_text=battle).click()
    expect(page.locator("#live-status.online")).to_be_visible()


def checked(form) -> list[str]:
    return form.locator("label.choice:has(input:checked)").all_inner_texts()


def test_one_declare_sends_every_form_with_what_was_chosen(browser, daphne_server):
    base = daphne_server(demo=True)
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    enter_battle(aline, base, "demo-player1", "dnd5e")
    awaited = aline.locator(AWAITED)
    total = awaited.count()
    assert total >= 3
    orcs = aline.locator('form[data-participant="unit:A-regiment_orque"]')
    orcs.locator("label.choice", has_text="Configurer").first.click()
    orcs.locator("label.choice", has_text="Marche").first.click()
    hero = aline.locator('form[data-participant="solo:A-chef_de_guerre_orque"]')
    hero.locator("label.choice", has_text="Foncer").click()
    chosen = {"orcs": checked(orcs), "hero": checked(hero)}
    declare_all = aline.get_by_role("button", name="Déclarer toutes mes unités")
    expect(declare_all).to_be_visible()
    declare_all.click()
    expect(awaited).to_have_count(0, timeout=60_000)
    banner = aline.locator("[data-declare-banner]")
    expect(banner).to_have_text("Tout est déclaré — en attente du meneur de jeu")
    assert checked(aline.locator('form[data-participant="unit:A-regiment_orque"]')) == chosen["orcs"]
    assert checked(aline.locator('form[data-participant="solo:A-chef_de_guerre_orque"]')) == chosen["hero"]
    expect(aline.locator("#battle-declare form.declare-form[data-draft]")).to_have_count(0)
    # What was saved is what she chose: the same forms, read again from the server.
    aline.reload()
    expect(aline.locator("#live-status.online")).to_be_visible()
    assert checked(aline.locator('form[data-participant="unit:A-regiment_orque"]')) == chosen["orcs"]
    assert checked(aline.locator('form[data-participant="solo:A-chef_de_guerre_orque"]')) == chosen["hero"]
    expect(aline.get_by_role("button", name="Déclarer toutes mes unités")).to_be_hidden()
    aline.evaluate("window.scrollTo(0, 0)")
    aline.screenshot(path=str(SCREENSHOTS / "declare-all-fr-phone-all-declared.png"))
    leave_the_room(aline)


def test_a_refused_declaration_says_why_on_its_field_in_french(browser, daphne_server):
    base = daphne_server(demo=True)
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    enter_battle(aline, base, "demo-player1", "jdrwiki")
    boxes = 'input[type=checkbox][name$=".heroism"]'
    form = aline.locator("#battle-declare form.declare-form", has=aline.locator(boxes)).first
    key = form.get_attribute("data-participant")
    for box in form.locator(boxes).all():  # both uses of the commander's one heroism point
        box.check()
    form.get_by_role("button", name="Déclarer").click()
    form = aline.locator(f'#battle-declare form.declare-form[data-participant="{key}"]')
    field = form.locator(".field.has-error", has=aline.locator(boxes))
    expect(field).to_contain_text("la réserve (le commandant) n'a pas autant de points (S7.5.3)")
    expect(form.locator(".message.error")).to_contain_text("Vérifiez les champs marqués en rouge")
    expect(form).not_to_have_class(re.compile(r"\bdeclared\b"))
    assert "more points" not in field.inner_text() and "pool" not in field.inner_text()
    field.scroll_into_view_if_needed()
    field.screenshot(path=str(SCREENSHOTS / "declare-refused-on-field-fr-phone.png"))
    leave_the_room(aline)
