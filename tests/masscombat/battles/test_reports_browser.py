"""The round reports of two demo battles on a French phone after two rounds, through daphne.

The rounds are played on the server's database beforehand (the orders drawn as in
``test_reports.py``); Aline (demo-player1) then opens each room on a 390x844 phone in French and
reads the chart and the last round's report: the sentences, the line per side, each event's dice
and rule-cited steps one tap away under it, and the round's whole explanation.  Screenshots go to ``.screenshots/`` (``reports-<ruleset>-fr-phone-*``).
"""

import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import PHONE, enter_battle, leave_the_room, no_sideways_scroll, shot_of

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PLAY = """
from django.contrib.auth import get_user_model
from masscombat.battles.models import Battle
from tests.masscombat.battles.test_reports import SEEDS, play
gm = get_user_model().objects.get(username="demo-gm")
for slug in ("jdrwiki", "dnd5e"):
    play(Battle.objects.get(ruleset=slug), gm, 2, SEEDS[slug])
"""


@pytest.mark.parametrize("slug, sentence, lines", [
    # Who strikes first comes from the initiative the demo battle's own (random) seed rolled at its set-up.
    ("jdrwiki", re.compile(r"inflige \d+ dégâts à (Ost de Loreval|Armée jann), à qui il reste \d+ points de vie"), 2),
    ("dnd5e", "À jouer : Régiment orque", 1),  # the enemy's hit points stay hidden from a D&D 5e side
])
def test_a_french_phone_reads_the_reports_as_sentences(browser, daphne_server, tmp_path, slug, sentence, lines):
    base = daphne_server(demo=True)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", PLAY], cwd=ROOT, env=env, check=True, timeout=300,
                   stdout=subprocess.DEVNULL)
    aline = browser.new_context(locale="fr-FR", **PHONE).new_page()
    enter_battle(aline, base, "demo-player1", slug)
    aline.reload()  # the rounds were resolved behind the server's back: no live event told the page

    timeline = aline.locator("#battle-reports .timeline")
    expect(timeline.locator("svg.chart polyline")).to_have_count(lines)
    expect(timeline.locator("svg.chart title")).to_contain_text("tour par tour (0 : avant le tour 1)")
    timeline.scroll_into_view_if_needed()
    shot_of(timeline, f"reports-{slug}-fr-phone-1-chart")
    timeline.get_by_text("Les chiffres").click()
    expect(timeline.locator("table.results tbody tr")).to_have_count(3)  # rounds 0, 1 and 2

    reports = aline.locator("#battle-reports .report")
    expect(reports).to_have_count(2)
    report = reports.first
    expect(report).to_contain_text("Tour 2")
    expect(report.locator(".round-sides")).to_contain_text(" : ")
    both = aline.locator("#battle-reports .reports")
    expect(both).to_contain_text(sentence)
    reports.nth(1).locator("summary").first.click()  # round 1 opens beside round 2
    shot_of(both, f"reports-{slug}-fr-phone-2-reports")
    # One tap under an event: its dice and its steps, each with its rule.
    detail = report.locator("details.event-detail").first
    detail.locator("summary").click()
    expect(detail.locator("ol.log li .rule").first).to_be_visible()
    expect(detail.locator("summary")).to_have_text("Dés et règles")
    shot_of(detail.locator("xpath=.."), f"reports-{slug}-fr-phone-3-event-detail")
    explanation = report.locator("details.explanation")
    explanation.locator("summary").click()
    expect(explanation.locator("ol.log li").first).to_be_visible()
    no_sideways_scroll(aline)
    leave_the_room(aline)
