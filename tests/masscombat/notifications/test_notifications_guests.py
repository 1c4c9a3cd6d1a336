"""Guests reach their notification settings: push on the browser that holds their seat, never e-mail (they have
no address), and the page says so with the way to an account."""

import pytest
from django.urls import reverse

from masscombat.notifications.models import KINDS, Preferences, PushSubscription
from tests.masscombat.accounts.test_guests import join_as_guest
from tests.masscombat.notifications.test_notifications_push import Browser, subscribe

pytestmark = pytest.mark.django_db


def test_a_guests_profile_links_to_the_notification_settings(campaign):
    client, _guest = join_as_guest(campaign, "Bilbo")
    assert reverse("notifications:settings") in client.get(reverse("accounts:profile")).content.decode()


def test_a_guest_gets_the_push_switches_and_is_told_why_there_is_no_email(campaign):
    client, _guest = join_as_guest(campaign, "Bilbo")
    page = client.get(reverse("notifications:settings")).content.decode()
    assert all(f'name="push_{kind}"' in page for kind, _label in KINDS)
    assert not any(f'name="email_{kind}"' in page for kind, _label in KINDS)
    assert "no e-mail address" in page and reverse("accounts:keep-seat") in page
    assert "messages go to your e-mail address" not in page


def test_a_guest_saves_push_switches_and_subscribes_this_browser(campaign):
    client, guest = join_as_guest(campaign, "Bilbo")
    assert client.post(reverse("notifications:settings"), {"push_your_turn": "on"}).status_code == 302
    saved = Preferences.objects.get(user=guest)
    assert saved.push_your_turn and not saved.push_reminder
    assert saved.email_your_turn and saved.email_reminder  # not on the page: left as they were
    assert subscribe(client, Browser("https://push.example/guest")).status_code == 201
    assert PushSubscription.objects.get(endpoint="https://push.example/guest").user == guest


def test_the_guests_explanation_speaks_french(campaign):
    client, _guest = join_as_guest(campaign, "Bilbo")
    page = client.get(reverse("notifications:settings"), headers={"Accept-Language": "fr"}).content.decode()
    assert "Vous jouez en invité, sans adresse e-mail" in page
