"""A whole SYNAPSE battle in three browsers through daphne, from the first orders to the closed aftermath.

Two rounds of attacks, the second resolved while Aline's phone is offline (her page
catches up when it comes back); in the third both armies withdraw, which ends the
battle by the rules (S5.6: both sides withdraw, no winner). The other side's log
stays hidden from the players (S11.2), only the GM reads it; the aftermath's new
headcounts go to the rosters.
"""

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import (
    gm_and_players, leave_the_room, no_sideways_scroll, resolve_while_offline,
)

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def declare(aline, bastien, number: int, *, action: str = "Attaquer", withdraw: bool = False) -> None:
    """Both players declare this round: Aline's corps ``action`` (in French), Bastien keeps his defaults;
    with ``withdraw`` both tick the withdrawal of their whole army."""
    for page, side in ((aline, "A"), (bastien, "B")):  # the forms of this round are in place
        expect(page.locator(f'form[data-participant="side:{side}"] input[name=round][value="{number}"]')).to_have_count(1)
    side_a = aline.locator('form[data-participant="side:A"]')
    side_a.locator("label.choice", has_text=action).first.click()
    side_b = bastien.locator('form[data-participant="side:B"]')
    if withdraw:
        side_a.get_by_label("Retirer toute l’armée").check()
        side_b.get_by_label("Withdraw the whole army").check()
    side_a.get_by_role("button", name="Déclarer").click()
    expect(aline.locator('form[data-participant="side:A"].declared')).to_be_visible()
    side_b.get_by_role("button", name="Declare").click()
    expect(bastien.locator('form[data-participant="side:B"].declared')).to_be_visible()


def test_a_whole_synapse_battle_from_two_phones(browser, daphne_server, screenshot):
    base = daphne_server(demo=True)
    gm, aline, bastien = gm_and_players(browser, base, "synapse")
    screenshot(aline, "battle-synapse-fr-phone-1-orders")
    no_sideways_scroll(aline)

    # Round 1: both attack; everyone's page shows the report.
    declare(aline, bastien, 1)
    expect(gm.locator('.slot.done[data-key="side:A"]')).to_be_visible()
    expect(gm.locator('.slot.done[data-key="side:B"]')).to_be_visible()
    gm.get_by_role("button", name="Resolve round 1").click()
    expect(gm.locator(".round-head h2")).to_have_text("Round 2")
    expect(aline.locator("#battle-reports .report").first).to_contain_text("Tour 1")
    expect(bastien.locator("#battle-reports .report").first).to_contain_text("Round 1")
    expect(gm.locator("#battle-reports .report").first.locator("details.explanation")).to_have_count(1)
    # A player reads the log as the engine's visible-round gives it (S11.2): its own steps, the enemy's without numbers.
    expect(bastien.locator("#battle-reports .report").first.locator("details.explanation")).to_have_count(1)
    expect(bastien.locator(".timeline polyline")).to_have_count(1)  # only its own strength
    screenshot(bastien, "battle-synapse-en-phone-1-report")

    # Round 2: Aline declares, then her phone loses the network; the GM resolves without her.
    declare(aline, bastien, 2)
    resolve_while_offline(gm, aline, bastien, 2)
    screenshot(aline, "battle-synapse-fr-phone-2-caught-up")

    # Round 3: both armies withdraw; the rules end the battle there, without a winner.
    declare(aline, bastien, 3, action="Tenir", withdraw=True)
    gm.get_by_role("button", name="Resolve round 3").click()
    expect(gm.locator(".aftermath")).to_contain_text("nobody (withdrawal)")
    expect(gm.locator(".aftermath")).to_contain_text("Hommes d'armes")  # a unit by its name, not its id
    expect(aline.locator(".aftermath")).to_contain_text("Le meneur de jeu vérifie le bilan")
    expect(bastien.locator(".aftermath")).to_contain_text("nobody (withdrawal)")
    screenshot(gm, "battle-synapse-en-desktop-2-aftermath")
    gm.get_by_role("button", name="Confirm and write to the rosters").click()
    expect(gm.locator(".aftermath")).to_contain_text("The aftermath is written to the rosters.")
    expect(aline.locator(".aftermath")).to_contain_text("Le bilan est reporté", timeout=15_000)  # after a live event
    expect(bastien.locator(".aftermath")).to_contain_text("The aftermath is written to the rosters.")
    no_sideways_scroll(aline)
    screenshot(aline, "battle-synapse-fr-phone-3-closed")
    screenshot(bastien, "battle-synapse-en-phone-3-closed")
    screenshot(gm, "battle-synapse-en-desktop-3-closed")
    leave_the_room(gm, aline, bastien)
