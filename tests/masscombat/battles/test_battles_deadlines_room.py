"""Round deadlines in the pages: the setup's duration, the room's countdown and the GM's clock controls."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from masscombat.battles import deadlines
from masscombat.battles.models import Battle, BattleEvent

pytestmark = pytest.mark.django_db

SETUP = {"name": "Col", "attacker": "b", "wound_checks": "on"}


def setup_post(rosters, **extra) -> dict:
    return {**SETUP, "army_a": rosters["a"].pk, "army_b": rosters["b"].pk, "heroes_a": [rosters["lucie"].pk], **extra}


def status_part(client, battle) -> str:
    return client.get(reverse("battles:part", args=[battle.pk, "status"])).content.decode()


def clock_post(client, battle, **data):
    return client.post(reverse("battles:deadline", args=[battle.pk]), data, follow=True)


def test_the_setup_gives_the_battle_its_round_deadline(sea_campaign, sea_rosters, client_for, gm):
    url = reverse("battles:create", args=[sea_campaign.pk])
    assert 'name="deadline-amount"' in client_for(gm).get(url).content.decode()
    response = client_for(gm).post(url, setup_post(sea_rosters, **{"deadline-amount": "3", "deadline-unit": "days"}))
    battle = Battle.objects.get(name="Col")
    assert response.status_code == 302
    assert battle.deadline_minutes == 3 * 24 * 60 and 3 * 86400 - 5 <= deadlines.seconds_left(battle) <= 3 * 86400


def test_a_setup_without_deadline_waits_for_the_gm(sea_campaign, sea_rosters, client_for, gm):
    client_for(gm).post(reverse("battles:create", args=[sea_campaign.pk]), setup_post(sea_rosters))
    battle = Battle.objects.get(name="Col")
    assert battle.deadline_minutes is None and battle.deadline_at is None
    assert "data-countdown" not in status_part(client_for(gm), battle)


@pytest.mark.parametrize("amount, unit", [("0", "hours"), ("abc", "hours"), ("29", "days"), ("2", "weeks")])
def test_a_setup_with_a_bad_deadline_starts_nothing(sea_campaign, sea_rosters, client_for, gm, amount, unit):
    response = client_for(gm).post(reverse("battles:create", args=[sea_campaign.pk]),
                                   setup_post(sea_rosters, **{"deadline-amount": amount, "deadline-unit": unit}))
    assert response.status_code == 200 and not Battle.objects.exists()
    assert 'class="field has-error"' in response.content.decode()


def test_everyone_sees_the_countdown_readable_without_javascript(battle, client_for, gm, player):
    deadlines.set_rule(gm, battle.pk, 150)
    battle.refresh_from_db()
    for who in (gm, player):
        page = client_for(who).get(battle.get_absolute_url()).content.decode()
        time = re.search(r'<time datetime="([^"]+)" data-countdown[^>]*>([^<]+)</time>', page)
        assert time, "the countdown's <time> element"
        assert time.group(1) == timezone.localtime(battle.deadline_at).isoformat()
        assert time.group(2) in ("2\xa0hours, 29\xa0minutes", "2\xa0hours, 30\xa0minutes")
        assert "js/countdown.js" in page
    assert 'action="/battles/%d/deadline/"' % battle.pk in status_part(client_for(gm), battle)
    assert "/deadline/" not in status_part(client_for(player), battle)


def test_the_gm_sets_pauses_extends_and_takes_away_the_clock_from_the_room(battle, client_for, gm):
    client = client_for(gm)
    response = clock_post(client, battle, action="set", amount="2", unit="hours", auto_resolve="1")
    battle.refresh_from_db()
    assert response.status_code == 200 and battle.deadline_minutes == 120 and battle.auto_resolve
    assert "2\xa0hours per round" in response.content.decode()
    clock_post(client, battle, action="pause")
    battle.refresh_from_db()
    assert battle.deadline_at is None and battle.deadline_left > 7100
    assert "clock is stopped" in status_part(client, battle)
    clock_post(client, battle, action="extend", amount="1", unit="days")
    battle.refresh_from_db()
    assert battle.deadline_left > 7100 + 86400
    clock_post(client, battle, action="resume")
    battle.refresh_from_db()
    assert deadlines.seconds_left(battle) > 7100 + 86400
    clock_post(client, battle, action="clear", auto_resolve="")
    battle.refresh_from_db()
    assert battle.deadline_minutes is None and battle.deadline_at is None and battle.deadline_left is None
    assert battle.auto_resolve  # taking the clock away leaves the early resolution as it was
    assert BattleEvent.objects.filter(battle=battle, kind="deadline").count() == 5


@pytest.mark.parametrize("data", [
    {"action": "extend", "amount": "", "unit": "hours"},
    {"action": "extend", "amount": "-3", "unit": "hours"},
    {"action": "set", "amount": "5", "unit": "fortnights"},
    {"action": "set", "amount": "9" * 30, "unit": "days"},
    {"action": "explode"},
    {},
])
def test_bad_clock_requests_change_nothing_and_say_why(battle, client_for, gm, data):
    deadlines.set_rule(gm, battle.pk, 60)
    battle.refresh_from_db()
    response = clock_post(client_for(gm), battle, **data)
    assert response.status_code == 200 and 'class="message error' in response.content.decode()
    assert Battle.objects.get(pk=battle.pk).deadline_version == battle.deadline_version


def test_players_may_not_touch_the_clock(battle, client_for, player, outsider):
    url = reverse("battles:deadline", args=[battle.pk])
    assert client_for(player).post(url, {"action": "set", "amount": "1", "unit": "minutes"}).status_code == 403
    assert client_for(outsider).post(url, {"action": "pause"}).status_code == 404
    assert Battle.objects.get(pk=battle.pk).deadline_version == 0
