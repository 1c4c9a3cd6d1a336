"""E-mail: reminders reach only those the round still waits for, in their language, as their switches allow."""

import logging
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.notifications import dispatch
from masscombat.notifications.models import Preferences, PushSubscription
from masscombat.notifications.reminders import remind_missing
from tests.masscombat.notifications.conftest import declare_for_pippin

pytestmark = pytest.mark.django_db


def test_a_reminder_reaches_only_those_with_orders_to_give(battle, player, other_player):
    declare_for_pippin(battle, player)
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() + timedelta(minutes=9, seconds=30))
    assert remind_missing(battle.pk, 1) == 1
    [sent] = mail.outbox
    assert sent.to == ["merry@example.org"]
    assert sent.subject == "Bataille du col: orders missing"
    assert sent.body.startswith("Round 1 still waits for your orders: 10 minutes left.")
    assert f"https://battle.example/battles/{battle.pk}/" in sent.body
    assert "https://battle.example/accounts/notifications/" in sent.body


def test_nobody_is_reminded_of_a_round_that_is_over_or_fully_declared(battle, gm, player, other_player):
    declare_for_pippin(battle, player)
    services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": "entrenchment"}, expected_round=1)
    assert remind_missing(battle.pk, 1) == 0
    services.resolve_round(gm, battle.pk, expected_round=1)
    assert remind_missing(battle.pk, 1) == 0  # round 1 is over: its reminder comes too late
    assert remind_missing(battle.pk + 1000, 1) == 0  # no such battle
    assert mail.outbox == []


def test_without_a_deadline_the_reminder_names_no_minutes(battle, player, other_player):
    remind_missing(battle.pk, 1)
    assert sorted(m.to[0] for m in mail.outbox) == ["merry@example.org", "pippin@example.org"]
    assert {m.body.split("\n")[0] for m in mail.outbox} == {"Round 1 still waits for your orders."}


def test_a_switched_off_kind_is_not_sent_and_a_device_takes_the_place_of_mail(battle, player, other_player):
    Preferences.objects.create(user=other_player, email_reminder=False)
    PushSubscription.objects.create(user=player, endpoint="http://127.0.0.1:9/none", p256dh="x", auth="y")
    Preferences.objects.create(user=player, push_reminder=False)
    assert remind_missing(battle.pk, 1) == 0
    assert mail.outbox == []  # Merry switched reminders off; Pippin has a device, and switched its reminders off


def test_the_language_last_used_is_the_language_of_the_mail(battle, player, other_player):
    client = Client()
    logged_in = client.post(reverse("login"), {"username": "merry", "password": "correct horse battery"},
                            headers={"Accept-Language": "fr"})
    assert logged_in.status_code == 302
    assert Preferences.objects.get(user=other_player).language == "fr"  # the language of the log-in page
    declare_for_pippin(battle, player)
    remind_missing(battle.pk, 1)
    [sent] = mail.outbox
    assert sent.subject == "Bataille du col : ordres manquants"
    assert sent.body.startswith("Le round 1 attend encore vos ordres.")
    client.post(reverse("set_language"), {"language": "en"})
    assert Preferences.objects.get(user=other_player).language == "en"  # the language switched to
    client.post(reverse("set_language"), {"language": "xx"})
    assert Preferences.objects.get(user=other_player).language == "en"  # not a language of the site


def test_an_ordinary_page_costs_no_query_for_notifications(client_for, player, django_assert_num_queries):
    client = client_for(player)
    client.get(reverse("accounts:profile"))
    with django_assert_num_queries(2):  # the session and the user, as before notifications
        client.get(reverse("accounts:profile"))
    assert not Preferences.objects.exists()


def test_a_new_battle_mails_the_campaign_and_its_first_turn(sea_campaign, sea_rosters, gm, player, other_player,
                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.create_battle(sea_campaign, gm, name="Second col",
                                        armies={"a": sea_rosters["a"], "b": sea_rosters["b"]}, heroes=[],
                                        options={"attacker": "a", "wound_checks": True})
    by_subject = sorted((m.subject, m.to[0]) for m in mail.outbox)
    assert by_subject == [("Second col: your turn", "merry@example.org"), ("Second col: your turn", "pippin@example.org"),
                          ("Théah: a battle starts", "merry@example.org"), ("Théah: a battle starts", "pippin@example.org")]
    assert all(f"/battles/{battle.pk}/" in m.body for m in mail.outbox)  # the GM who started it hears nothing


def test_a_resolved_round_mails_its_players_and_the_next_turn(battle, gm, player, other_player,
                                                             django_capture_on_commit_callbacks):
    Preferences.objects.create(user=player, email_your_turn=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    assert sorted((m.subject, m.to[0]) for m in mail.outbox) == [
        ("Bataille du col: round 1 resolved", "merry@example.org"),
        ("Bataille du col: round 1 resolved", "pippin@example.org"),
        ("Bataille du col: your turn", "merry@example.org"),
    ]


def test_a_failing_mail_backend_never_fails_the_round(battle, gm, settings, caplog, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "tests.masscombat.notifications.test_notifications_mail.BrokenBackend"
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    assert Battle.objects.get(pk=battle.pk).round == 1
    assert "email notification round_resolved to user" in caplog.text


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("no mail server")


def test_jobs_run_in_the_pool_off_the_request_and_their_failures_are_logged(settings, caplog):
    settings.NOTIFICATIONS_THREADS = 1
    ran_in = []

    def job(word):
        ran_in.append((threading.current_thread().name, word))
        raise RuntimeError("push service down")

    with caplog.at_level(logging.ERROR):
        dispatch.later(job, "hello").result(timeout=10)
    assert ran_in[0][0].startswith("notifications") and ran_in[0][0] != threading.current_thread().name
    assert ran_in[0][1] == "hello" and "notification job job('hello',) failed" in caplog.text
