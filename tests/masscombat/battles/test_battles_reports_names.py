"""Round reports name units, corps, characters and stands from the state the reader may see, never by
their engine ids, and never name a unit hidden from the reader."""

import re

import pytest
from django.urls import reverse

from masscombat.battles import adapters, selectors, services
from masscombat.battles.models import Battle
from masscombat.battles.templatetags import event_sentences as sentences
from masscombat.core import engines
from masscombat.core.permissions import Action

from .test_battles_dnd5e import _archers_shoot, dnd_battle, ford  # noqa: F401 - fixtures
from .test_battles_heros import ambush, battle, furthest, pin, plain  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

HEROS_ID = re.compile(r"(?<![\w-])[ab]-[a-z]")


def _events(page: str) -> str:
    """The report's lists of events (the page around them holds ids in its urls and data attributes)."""
    return "".join(re.findall(r'<ul class="events small">.*?</ul>', page, re.S))


def _move_lancers(battle, gm, player):
    pin(battle)
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": furthest(battle, "unit:a-lanciers", "a-lanciers", 7)},
        expected_round=1)
    return services.resolve_round(gm, battle.pk, expected_round=1)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_heros_player_reads_names_in_the_report_and_no_id(battle, gm, player, client_for, language):
    done = _move_lancers(battle, gm, player)
    assert {"unit_moved", "pa_rolled"} <= {event["type"] for event in done.events}
    page = client_for(player).get(reverse("battles:part", args=[battle.pk, "reports"]),
                                  HTTP_ACCEPT_LANGUAGE=language).content.decode()
    events = _events(page)
    assert "<strong>Lanciers de Valombre</strong>" in events
    assert not HEROS_ID.findall(events), events


def test_an_event_with_no_sentence_names_what_the_reader_may_know_and_nothing_else(ambush, gm, player):
    """An event type the report has no sentence for (a new one of an engine) reads as its label and the
    names it mentions, but only those the reader may know: side a's names hold no hidden slinger, so
    neither its name nor its id is read."""
    seen = selectors.seen_names(selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk))
    event = {"type": "new_kind_of_event", "caster_id": "a-aldric", "target_id": "b-frondeurs"}
    line = sentences.event_sentence(ambush, event, seen)
    assert "Aldric" in line and "a-aldric" not in line
    assert "b-frondeurs" not in line and "Frondeurs" not in line
    every = sentences.event_sentence(ambush, event, selectors.seen_names(selectors.viewer(gm, Action.BATTLE_VIEW,
                                                                                          ambush.pk)))
    assert "Frondeurs" in every and "b-frondeurs" not in every  # the GM sees all


def test_a_hidden_units_events_stay_out_of_the_other_sides_report(ambush, gm, player, other_player, client_for):
    services.declare(other_player, ambush.pk, "unit:b-frondeurs", {}, expected_round=1)
    _move_lancers(ambush, gm, player)
    url = reverse("battles:part", args=[ambush.pk, "reports"])
    events = _events(client_for(player).get(url).content.decode())
    assert "Lanciers de Valombre" in events
    assert "Frondeurs" not in events and "b-frondeurs" not in events
    assert not HEROS_ID.findall(events), events


def test_the_dnd_report_names_the_stands_units_and_the_solos(dnd_battle, client_for, gm, other_player):
    """Stand ids read as their unit's name and number, solos by their names, both from the state (a unit
    renamed in it proves the name is not made from the id)."""
    _archers_shoot(dnd_battle, client_for(other_player))
    done = services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    attack = next(event for event in done.events if event["type"] == "attack")
    state = Battle.objects.get(pk=dnd_battle.pk).state
    state["units"][state["stands"][attack["attacker"]]["unit"]]["name"] = "Arcs de Vark"
    Battle.objects.filter(pk=dnd_battle.pk).update(state=state)
    target = state["solos"][attack["target"]]["name"]
    page = client_for(other_player).get(reverse("battles:part", args=[dnd_battle.pk, "reports"])).content.decode()
    events = _events(page)
    assert f"<strong>Arcs de Vark 1</strong> attacks <strong>{target}</strong> (longbow)" in events
    assert attack["attacker"] not in events and attack["target"] not in events
    names = engines.visible_state("dnd5e", state, engines.GM)["names"]
    assert adapters.get("dnd5e").value_label("A-regiment_orque-2", names) == "Régiment orque 2"
