"""The settings page: each user switches each kind per channel, for themselves only; the reminder job by name."""

import pytest
from django.core import mail
from django.urls import reverse

from masscombat.notifications import tasks
from masscombat.notifications.models import KINDS, Preferences

pytestmark = pytest.mark.django_db


def test_the_page_saves_the_switches_of_its_user_only(client_for, player, other_player):
    url = reverse("notifications:settings")
    page = client_for(player).get(url).content.decode()
    assert all(f'name="push_{kind}"' in page and f'name="email_{kind}"' in page for kind, _label in KINDS)
    response = client_for(player).post(url, {"push_your_turn": "on", "email_round_resolved": "on"})
    assert response.status_code == 302
    mine = Preferences.objects.get(user=player)
    switched_on = {f"{channel}_{kind}" for channel in ("push", "email") for kind, _label in KINDS
                   if mine.wants(channel, kind)}
    assert switched_on == {"push_your_turn", "email_round_resolved"}
    assert not Preferences.objects.filter(user=other_player).exists()


def test_the_page_speaks_french(client_for, player):
    page = client_for(player).get(reverse("notifications:settings"), headers={"Accept-Language": "fr"})
    assert "Autoriser les notifications sur cet appareil" in page.content.decode()


def test_the_profile_links_to_the_settings(client_for, player):
    assert reverse("notifications:settings") in client_for(player).get(reverse("accounts:profile")).content.decode()


def test_the_reminder_job_reminds_by_its_name(battle, player, other_player):
    assert tasks.remind_missing.name == tasks.TASK_NAME == "notifications.remind_missing"
    assert tasks.remind_missing(battle_id=battle.pk, round=1) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["merry@example.org", "pippin@example.org"]
