"""Round reports read as sentences in the reader's language (issue #17).

Each ruleset's demo battle is played two rounds with orders drawn among those the engine offers
(the simulator's ``random`` policy, seeded), then its reports part is read in French: every event is
a sentence naming what it concerns, with no engine id and no English word of the report's own
sentences (the list is derived from them); each round starts with a line per side; the chart draws
from round 0, the state before round 1.
"""

import re
from functools import cache
from unittest import mock
from html import unescape

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from masscombat.battles import pages, selectors, services
from masscombat import games
from masscombat.battles.models import Battle
from masscombat.battles.templatetags import event_sentences
from masscombat.campaigns import services as campaign_services
from masscombat.core import engine_values, explain
from masscombat.core.permissions import Action, Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import demo as rosters_demo
from rules.simulate_engine import Engine
from rules.simulate_policy import Chooser, Picker

pytestmark = pytest.mark.django_db

RULESETS = ("jdrwiki", "seventh_sea", "heros", "synapse", "dnd5e")
SETUP_SEED = 1
SEEDS = {"jdrwiki": 18, "seventh_sea": 2, "heros": 2, "synapse": 3, "dnd5e": 8}  # two rounds, varied events


@pytest.fixture
def people(make_user):
    return make_user("gm-reports", display_name="Gérald"), [
        make_user("aline-reports", display_name="Aline"), make_user("bastien-reports", display_name="Bastien")]


def demo_battle(slug: str, gm, players) -> Battle:
    """The ruleset's demo battle, as ``manage.py demo`` sets it up, at round 1."""
    campaign = campaign_services.create_campaign(gm, name=f"Rapports {slug}", ruleset=slug)
    for player in players:
        campaign.memberships.create(user=player, role=Role.PLAYER)
    rosters_demo.load(campaign, gm, players)
    maps_demo.load(campaign)
    # The set-up's dice too (who has the initiative, where the stands start), not only the rounds' from ``play``.
    with mock.patch.object(Battle._meta.get_field("seed"), "_get_default", lambda: SETUP_SEED):
        games.demo_battle(campaign, gm, players)
    return Battle.objects.get(campaign=campaign)


def play(battle: Battle, gm, rounds: int, seed: int) -> Battle:
    """``rounds`` rounds, every side participant's orders drawn among those the engine offers, the dice
    from ``seed`` (the battle's own seed is drawn at random)."""
    Battle.objects.filter(pk=battle.pk).update(seed=seed)
    engine = Engine(battle.ruleset)
    for number in range(1, rounds + 1):
        battle.refresh_from_db()
        chooser = Chooser(engine, "random", Picker(seed * 100 + number))
        answers = chooser.answers(battle.state, engine.participants(battle.state), {}, seed)
        for key, answer in answers.items():
            services.declare(gm, battle.pk, key, answer, expected_round=number)
        services.resolve_round(gm, battle.pk, expected_round=number)
    battle.refresh_from_db()
    assert battle.round == rounds
    return battle


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{4,}", re.sub(r"%\(\w+\)s", " ", text)))


@cache
def french_words() -> frozenset[str]:
    """Every word of the project's French catalogue ("commander" is French too)."""
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    return frozenset(word for entry in catalogue
                     for text in [entry.msgstr, *entry.msgstr_plural.values()] for word in words(text))


def english_words(slug: str) -> set[str]:
    """The words of the ruleset's report sentences in English that no French sentence uses."""
    english = set()
    for sentence in event_sentences.SENTENCES[slug].values():
        for template in sentence.templates:
            with translation.override("en"):
                english |= words(template(2) if sentence.count else template())
    return english - french_words()


def events_text(page: str) -> list[str]:
    """The report's event sentences, one per list item, as text (without the folded dice and steps of each)."""
    lists = re.findall(r'<ul class="events small">(.*?)</ul>', without_details(page), re.S)
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip() for block in lists
            for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


def without_details(page: str) -> str:
    return re.sub(r'<details class="event-detail">.*?</details>', "", page, flags=re.S)


def event_details(page: str) -> list[str]:
    """Each event's folded dice and steps, as HTML."""
    return re.findall(r'<details class="event-detail">(.*?)</details>', page, re.S)


@pytest.mark.parametrize("slug", RULESETS)
def test_after_two_rounds_every_event_reads_as_a_french_sentence_naming_units_and_no_id(
        slug, people, client_for):
    gm, players = people
    battle = play(demo_battle(slug, gm, players), gm, 2, SEEDS[slug])
    page = client_for(gm).get(reverse("battles:part", args=[battle.pk, "reports"]),
                              HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    lines = events_text(page)
    events = [event for resolved in battle.rounds.all() for event in resolved.events]
    assert lines and events, "the demo rounds produced no event"
    names = selectors.seen_names(selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk))
    assert any(name in line for line in lines for name in names.values()), lines
    text = " ".join(lines)
    leftover = text
    for name in sorted(names.values(), key=len, reverse=True):  # an engine's name may hold its id
        leftover = leftover.replace(name, " ")
    ids = {ident for ident in names if len(ident) > 2}
    assert [ident for ident in ids if re.search(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", leftover)] == []
    english = english_words(slug)
    assert english and [word for word in re.findall(r"[A-Za-z]+", leftover) if word in english] == []
    assert not re.search(r"\b(type|visible_to|seq)\b|%\(|·\s*\w+ ·", leftover), text
    assert "Tour 2" in page and "Comptes rendus des tours" in page


def test_every_event_type_an_engine_writes_has_a_sentence_translated_in_french():
    """The event types are read from the engines' own code (every ``event("...")`` they write), so a
    new one without a sentence fails here; each sentence is translated (French differs from English)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "rules"
    for slug in RULESETS:
        source = "\n".join(path.read_text() for path in (root / slug).glob("*.py"))
        written = set(re.findall(r"(?:event|unit_event)\(\s*\"(\w+)\"", source))
        assert written, slug
        assert sorted(written - set(event_sentences.SENTENCES[slug])) == [], slug
        for sentence in event_sentences.SENTENCES[slug].values():
            for template in sentence.templates:
                with translation.override("en"):
                    english = template(2) if sentence.count else template()
                with translation.override("fr"):
                    french = template(2) if sentence.count else template()
                assert french != english, english


def test_one_resolved_round_already_draws_a_line_from_round_zero_with_its_figures(people, client_for):
    gm, players = people
    battle = play(demo_battle("jdrwiki", gm, players), gm, 1, SEEDS["jdrwiki"])
    viewer = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk)
    chart = pages.chart(viewer, list(battle.rounds.all()))
    start = battle.rounds.get().state_before["strength"]
    assert [n for n, _values in chart["table"]] == [0, 1]
    assert [values for n, values in chart["table"]][0] == [start[line["side"]] for line in chart["lines"]]
    assert all(len(line["dots"]) == 2 for line in chart["lines"]) and len(chart["lines"]) == 2
    page = client_for(gm).get(reverse("battles:part", args=[battle.pk, "reports"]),
                              HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    svg = re.search(r'<svg class="chart"[^>]*>.*?</svg>', page, re.S).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="chart-label"' in svg
    assert '<title id="chart-label">Points de vie des corps, tour par tour (0 : avant le tour 1)</title>' in svg
    assert svg.count("<polyline") == 2 and ">tour</text>" in svg
    assert "<caption>Points de vie des corps, tour par tour" in page and "Les chiffres" in page


def test_each_round_starts_with_a_line_per_side_of_its_strength_and_its_change(people, client_for):
    gm, players = people
    battle = play(demo_battle("seventh_sea", gm, players), gm, 2, SEEDS["seventh_sea"])
    first, second = battle.rounds.all()
    page = client_for(gm).get(reverse("battles:part", args=[battle.pk, "reports"]),
                              HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    lines = [unescape(re.sub(r"<[^>]+>", "", line))
             for line in re.findall(r'<p class="round-sides small">(.*?)</p>', page, re.S)]
    assert len(lines) == 2  # newest round first
    for line, resolved in zip(lines, (second, first)):
        assert line.startswith("Total du jet du général — ")
        for side, name in (("a", "Montaigne"), ("b", "Castille")):
            after, before = resolved.strength[side], resolved.state_before["strength"][side]
            change = "sans changement" if after == before else f"{'+' if after > before else '−'}{abs(after - before)}"
            assert f"{name} : {after} ({change})" in line, line


def test_a_player_reads_only_the_strength_lines_the_engine_shows_their_side(people):
    """SYNAPSE keeps the enemy's strength from a side (its ``visible-state``): the round's line for
    that player names their own side only, as the chart does."""
    gm, players = people
    battle = play(demo_battle("synapse", gm, players), gm, 1, SEEDS["synapse"])
    player = next(p.user for p in battle.participants.select_related("user") if p.side == "B" and p.kind == "side")
    report, = pages.reports(selectors.viewer(player, Action.BATTLE_VIEW, battle.pk), list(battle.rounds.all()))
    assert [line["side"] for line in report["summary"]] == ["B"]
    master, = pages.reports(selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk), list(battle.rounds.all()))
    assert [line["side"] for line in master["summary"]] == ["A", "B"]


def test_a_die_is_labelled_by_what_it_was_for_and_whose_it_is():
    names = {"a": "Montaigne", "a1": "Ost de Loreval", "A.melee": "Phalange"}
    with translation.override("fr"):
        assert explain.die_label("general:a", names) == "jet du général · Montaigne"
        assert explain.die_label("a1/a0/attack", names) == "Ost de Loreval · attaque"
        assert explain.die_label("attack:A.melee", names) == "attaque · Phalange"
        assert explain.die_label("a1.atk2.damage_1", names) == "Ost de Loreval · attaque · dégâts"
        assert explain.die_label("hidden-unit", names) == "dé"  # nothing the reader may read: no id either


@pytest.mark.parametrize("slug", RULESETS)
def test_every_word_a_log_step_gives_as_a_parameter_is_named_by_the_engine(people, slug):
    """After two rounds, each parameter of the log that is an engine's word (``in_ranks``, ``success``,
    ``break_pct``, ``not on a road``) is an id the reader knows by its name or has the engine's
    ``value.<word>`` message: a French page renders none of them as the engine wrote it."""
    gm, players = people
    battle = play(demo_battle(slug, gm, players), gm, 2, SEEDS[slug])
    master = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk)
    names = selectors.seen_names(master)
    unnamed = set()

    def check(value, key):
        if isinstance(value, str) and re.fullmatch(r"[a-z][a-z_ ,-]*", value) and value not in names \
                and engine_values.label(slug, value) is None:
            unnamed.add((key, value))
        elif isinstance(value, (list, tuple)):
            for item in value:
                check(item, key)

    for resolved in selectors.rounds(battle):
        for step in resolved.log:
            for value in (step.get("params") or {}).values():
                check(value, step["key"])
    assert sorted(unnamed) == [], sorted(unnamed)


@pytest.mark.parametrize("slug", RULESETS)
def test_each_event_has_its_dice_and_its_rule_cited_steps_one_tap_away(slug, people, client_for):
    """Under an event's sentence, folded: the dice it rolled and the engine's steps that explain it, each
    with its rule, in French and naming what they concern; the round's whole log stays below."""
    gm, players = people
    battle = play(demo_battle(slug, gm, players), gm, 2, SEEDS[slug])
    page = client_for(gm).get(reverse("battles:part", args=[battle.pk, "reports"]),
                              HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    details = event_details(page)
    assert len(details) >= len(events_text(page)) // 2, (len(details), len(events_text(page)))
    assert all("<summary>Dés et règles</summary>" in detail for detail in details)
    steps = [step for detail in details for step in re.findall(r'<li><span class="rule">(S[\d.]+|H\d+)</span> (.*?)</li>',
                                                                detail, re.S)]
    assert steps and all(text.strip() for _rule, text in steps)
    if slug in ("jdrwiki", "dnd5e", "synapse"):  # rolled dice the events name (7th Sea's are the sides')
        assert any('<p class="dice">' in detail for detail in details)
    names = selectors.seen_names(selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk))
    text = unescape(re.sub(r"<[^>]+>", " ", " ".join(details)))
    assert any(name in text for name in names.values())
    assert 'class="explanation"' in page  # the round's whole log, as before
