"""Links in notifications open on a phone without ``PUBLIC_URL``: never ``localhost``.

A round that resolves at its deadline is resolved by a job, with no request
whose host the links could take: they take the address the campaign was last
served from, else this machine's address on the local network (the one
``bin/run`` prints).  A GM browsing on the server itself (``localhost``) sends
phones the network address too.
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from masscombat.battles import deadlines, tasks
from masscombat.battles.models import Battle
from masscombat.campaigns import links
from masscombat.notifications import origin
from tests.masscombat.battles.test_battles_deadlines_import import empty_clock  # noqa: F401 - autouse fixture

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_public_url(settings, monkeypatch):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["testserver", "localhost", "10.1.2.3"]
    monkeypatch.setattr(links, "host_addresses", lambda: ["10.1.2.3", "fe80::1"])


def resolve_at_deadline(battle: Battle, django_capture_on_commit_callbacks) -> None:
    """The deadline passes and its job runs, as a worker runs it: no request around it."""
    battle.refresh_from_db()
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert origin.current.get() == ""
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.resolve_at_deadline(battle_id=battle.pk, round=1, version=battle.deadline_version)


def links_in(messages) -> list[str]:
    return [word for message in messages for word in message.body.split() if "://" in word]


@pytest.mark.django_db(transaction=True)  # a request's commit runs its callbacks in the request, as served
def test_a_deadline_round_links_to_where_the_campaign_was_last_served(battle, client_for, gm,
                                                                      django_capture_on_commit_callbacks):
    client_for(gm).post(reverse("battles:deadline", args=[battle.pk]),  # the GM sets the clock from the room
                        {"action": "set", "amount": 30, "unit": "minutes"}, HTTP_HOST="testserver")
    mail.outbox.clear()
    resolve_at_deadline(battle, django_capture_on_commit_callbacks)
    found = links_in(mail.outbox)
    assert found and all(link.startswith("http://testserver/") for link in found), found


def test_without_any_request_the_links_use_the_network_address(battle, gm, django_capture_on_commit_callbacks):
    deadlines.set_rule(gm, battle.pk, 30)  # no request: as after an import, or a command
    resolve_at_deadline(battle, django_capture_on_commit_callbacks)
    found = links_in(mail.outbox)
    assert found and all(link.startswith("http://10.1.2.3:8000/") for link in found), found


@pytest.mark.django_db(transaction=True)
def test_a_gm_on_the_server_itself_sends_phones_the_network_address(battle, client_for, gm):
    mail.outbox.clear()  # the battle's creation, by the fixture, outside any request
    client_for(gm).post(reverse("battles:deadline", args=[battle.pk]),
                        {"action": "set", "amount": 30, "unit": "minutes"}, HTTP_HOST="localhost:8123")
    client_for(gm).post(reverse("battles:resolve", args=[battle.pk]),
                        {"round": 1, "confirm_missing": "1"}, HTTP_HOST="localhost:8123")
    found = links_in(mail.outbox)
    assert found and all(link.startswith("http://10.1.2.3:8123/") for link in found), found
    mail.outbox.clear()
    battle.refresh_from_db()
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert tasks.resolve_at_deadline(battle_id=battle.pk, round=2, version=battle.deadline_version)
    found = links_in(mail.outbox)
    assert found and all(link.startswith("http://10.1.2.3:8123/") for link in found), found


def test_no_address_known_at_all_is_still_not_localhost(monkeypatch):
    monkeypatch.setattr(links, "host_addresses", lambda: [])
    base = origin.base()
    assert "localhost" not in base and "127.0.0.1" not in base and base.startswith("http://")
