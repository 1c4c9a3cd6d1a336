"""A heroic opportunity offered live: the GM offers, Lucie's player answers from her phone, the round starts it.

The demo 7th Sea battle through daphne.  Before the browsers open, the battle's seed is set (in the
server's database) to one with which round 1, as declared below, ends with Lucie offered an
opportunity: the engine decides that, with the same dice the server will roll.  Round 1 is declared
and resolved; Aline (demo-player1, Lucie's player) on a 390x844 phone in French sees that the GM will
propose one, then sees the GM's offer arrive without reloading, accepts it; the GM resolves; both
reports tell it started.  Screenshots go to ``.screenshots/``.
"""

import json
import sqlite3

import pytest
from playwright.sync_api import expect

from rules import registry
from tests.masscombat.battles.conftest import gm_and_players, leave_the_room, no_sideways_scroll, shot_of

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

BATTLE = "Bataille du col de la Rose"
ROUND_1 = {"sides": {"a": {"strategy": "march", "free_raises_spent": 0}, "b": {"strategy": "march",
                                                                                "free_raises_spent": 0}},
           "heroes": {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "support"}}}


def _pin_an_offering_seed(database) -> None:
    """Give the demo battle a seed whose round 1 offers Lucie an opportunity (round seed = seed + 1)."""
    with sqlite3.connect(database) as db:
        (state,) = db.execute("SELECT state FROM battles_battle WHERE name = ?", (BATTLE,)).fetchone()
        state = json.loads(state)
        for seed in range(200):
            after = registry.run("seventh_sea", "resolve-round", {"state": state, "declarations": ROUND_1},
                                 seed=seed + 1)["state"]
            lucie = next(hero for hero in after["heroes"] if hero["id"] == "lucie")
            if lucie["opportunity_pending"] and lucie["status"] == "active":
                db.execute("UPDATE battles_battle SET seed = ? WHERE name = ?", (seed, BATTLE))
                return
    raise AssertionError("no seed offers Lucie an opportunity in round 1")


def lucie_form(page):
    return page.locator('form[data-participant="hero:lucie"]')


def _gm_declare(gm, summary: str, participant: str, choices: list[str]) -> None:
    gm.locator("details.gm-declare > summary", has_text=summary).click()
    form = gm.locator(f'form[data-participant="{participant}"]')
    for choice in choices:
        form.locator("label.choice", has_text=choice).first.click()
    form.get_by_role("button", name="Declare").click()
    expect(gm.locator(f'.slot.done[data-key="{participant}"]')).to_be_visible(timeout=10_000)


def test_the_gm_offers_an_opportunity_and_the_phone_accepts_it(browser, daphne_server, screenshot, tmp_path):
    base = daphne_server(demo=True)
    _pin_an_offering_seed(tmp_path / "db.sqlite3")
    gm, aline = gm_and_players(browser, base, "seventh_sea", bastien=None)

    # Round 1: Aline declares from her phone, the GM for side B and Gaston; the GM resolves.
    side_a = aline.locator('form[data-participant="side:a"]')
    side_a.locator("label.choice", has_text="Marche").click()
    side_a.get_by_role("button", name="Déclarer").click()
    expect(aline.locator('form[data-participant="side:a"].declared')).to_be_visible()
    hero = lucie_form(aline)
    hero.locator("label.choice", has_text="Première ligne").click()
    hero.get_by_role("button", name="Déclarer").click()
    expect(aline.locator('form[data-participant="hero:lucie"].declared')).to_be_visible()
    _gm_declare(gm, "Castille", "side:b", ["Marche"])
    _gm_declare(gm, "Gaston", "hero:gaston", ["Support"])
    expect(gm.locator(".slot.done")).to_have_count(4, timeout=10_000)
    gm.get_by_role("button", name="Resolve round 1").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")

    # Round 2: Lucie's player learns an opportunity is hers and waits for the GM's offer.
    waiting = lucie_form(aline).locator("[data-follows-gm]")
    expect(waiting).to_contain_text("le meneur de jeu va vous en proposer une", timeout=10_000)
    screenshot(aline, "sea-opportunity-fr-phone-1-pending")
    shot_of(lucie_form(aline), "sea-opportunity-fr-phone-1b-form")
    no_sideways_scroll(aline)

    gm.locator("details.gm-declare > summary", has_text="Game master's overrides").click()
    overrides = gm.locator('form[data-participant="gm"]')
    overrides.locator("fieldset", has_text="Lucie — Heroic opportunity to offer").locator(
        "label.choice", has_text="Push them back!").click()
    screenshot(gm, "sea-opportunity-en-desktop-1-offer")
    shot_of(overrides, "sea-opportunity-en-desktop-1b-overrides")
    overrides.get_by_role("button", name="Declare").click()
    expect(gm.locator("#battle-declare .message")).to_contain_text("Declaration saved")

    # The offer reaches the phone live: its name and terms, and a yes/no to answer.
    expect(waiting).to_contain_text("Le meneur de jeu vous propose : Repoussez-les !", timeout=10_000)
    expect(waiting).to_contain_text("première ligne")
    screenshot(aline, "sea-opportunity-fr-phone-2-offered")
    shot_of(lucie_form(aline), "sea-opportunity-fr-phone-2b-form")
    no_sideways_scroll(aline)
    hero = lucie_form(aline)
    hero.locator("fieldset", has_text="Accepter l’opportunité").locator("label.choice", has_text="Oui").click()
    hero.locator("label.choice", has_text="Soutien").click()
    hero.get_by_role("button", name="Déclarer").click()
    expect(waiting).to_contain_text(
        "Engagement imposé ce tour-ci : Première ligne")
    side_a = aline.locator('form[data-participant="side:a"]')
    side_a.locator("label.choice", has_text="Charge").first.click()
    side_a.get_by_role("button", name="Déclarer").click()
    expect(aline.locator('form[data-participant="side:a"].declared')).to_be_visible()
    screenshot(aline, "sea-opportunity-fr-phone-3-accepted")
    shot_of(lucie_form(aline), "sea-opportunity-fr-phone-3b-form")

    # The GM sees the answer, declares side B and Gaston, and resolves: the opportunity starts.
    expect(gm.locator('.slot[data-key="hero:lucie"] .slot-choices')).to_contain_text("Accept the opportunity: Yes",
                                                                                     timeout=10_000)
    _gm_declare(gm, "Castille", "side:b", ["Regroupement"])
    _gm_declare(gm, "Gaston", "hero:gaston", ["Disengaged"])
    gm.get_by_role("button", name="Resolve round 2").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 3")
    expect(gm.locator("#battle-reports .report").first).to_contain_text(
        "Lucie seizes the opportunity: Push them back!")
    screenshot(gm, "sea-opportunity-en-desktop-2-report")
    report = aline.locator("#battle-reports .report").first
    expect(report).to_contain_text("Tour 2", timeout=10_000)
    expect(report).to_contain_text("Lucie saisit l’opportunité : Repoussez-les !")
    screenshot(aline, "sea-opportunity-fr-phone-4-report")
    shot_of(report, "sea-opportunity-fr-phone-4b-report")
    no_sideways_scroll(aline)
    leave_the_room(gm, aline)
