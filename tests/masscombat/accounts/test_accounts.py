"""Sign up, log in and out, passwords, profile."""

import re
import types

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from masscombat.core.security import rate

pytestmark = pytest.mark.django_db

GOOD = {"username": "aragorn", "display_name": "Strider", "email": "a@example.org",
        "password1": "Tabletop-battle-42", "password2": "Tabletop-battle-42"}


def test_signup_logs_in(client):
    response = client.post("/accounts/signup/", GOOD, follow=True)
    assert response.context["user"].display_name == "Strider"
    assert "Welcome, Strider!" in response.content.decode()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"username": ""}, "username"),
        ({"username": "bad name!"}, "username"),
        ({"email": "nope"}, "email"),
        ({"password2": "different-42-x"}, "password2"),
        ({"password1": "123", "password2": "123"}, "password2"),
        ({"display_name": "x" * 101}, "display_name"),
    ],
)
def test_signup_refuses_bad_input_per_field(client, change, field):
    response = client.post("/accounts/signup/", {**GOOD, **change})
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not get_user_model().objects.exists()


def test_signup_refuses_a_taken_username(client, make_user):
    make_user("aragorn")
    response = client.post("/accounts/signup/", GOOD)
    assert "username" in response.context["form"].errors


def test_login_logout(client, player):
    response = client.post("/accounts/login/", {"username": "pippin", "password": "correct horse battery"})
    assert response["Location"] == "/"
    assert client.get("/").context["user"] == player
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_login_failure_says_so(client, player):
    response = client.post("/accounts/login/", {"username": "pippin", "password": "wrong"})
    assert response.status_code == 200 and response.context["form"].non_field_errors()


def test_password_change(client_for, player):
    client = client_for(player)
    response = client.post(
        "/accounts/password_change/",
        {"old_password": "correct horse battery", "new_password1": "Another-pass-77", "new_password2": "Another-pass-77"},
    )
    assert response["Location"] == "/accounts/password_change/done/"
    player.refresh_from_db()
    assert player.check_password("Another-pass-77")


def test_password_reset_by_mail(client, player, mailoutbox):
    client.post("/accounts/password_reset/", {"email": "pippin@example.org"})
    assert len(mailoutbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mailoutbox[0].body).group(1)
    form_url = client.get(link)["Location"]  # Django hides the token behind a redirect
    response = client.post(form_url, {"new_password1": "Reset-pass-91", "new_password2": "Reset-pass-91"})
    assert response["Location"] == "/accounts/reset/done/"
    player.refresh_from_db()
    assert player.check_password("Reset-pass-91")


def test_password_reset_mail_in_french(client, player, mailoutbox):
    client.post("/accounts/password_reset/", {"email": "pippin@example.org"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Réinitialisez" in mailoutbox[0].subject


def test_profile_update(client_for, player):
    client = client_for(player)
    client.post("/accounts/profile/", {"display_name": "Peregrin", "email": "p@example.org",
                                       "current_password": "correct horse battery"})
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Peregrin", "p@example.org")
    response = client.post("/accounts/profile/", {"display_name": "", "email": "bad"})
    assert "email" in response.context["form"].errors


def test_shown_name_falls_back_to_username(make_user):
    assert make_user("legolas").shown_name == "legolas"


# -- sign-up rate limit ---------------------------------------------------------------------------

TEN_MINUTES_INTO_AN_HOUR = 1_800_000_000.0 + 600  # 1_800_000_000 is a whole number of hours


@pytest.fixture
def pinned_clock(monkeypatch):
    """Every sign-up of a test falls in one counting window (see the hardening rate-limit tests)."""
    monkeypatch.setattr("masscombat.core.security.time", types.SimpleNamespace(time=lambda: TEN_MINUTES_INTO_AN_HOUR))


def _signup(n, addr, language="en", **change):
    return Client().post("/accounts/signup/", {**GOOD, "username": f"player{n}", "email": f"p{n}@example.org",
                                               **change}, REMOTE_ADDR=addr, HTTP_ACCEPT_LANGUAGE=language)


def test_signups_are_rate_limited_per_address(pinned_clock):
    attempts, seconds = rate("signup")
    assert (attempts, seconds) == (20, 3600)
    for n in range(attempts):
        assert _signup(n, "10.0.0.1").status_code == 302, n
    refused = _signup(attempts, "10.0.0.1")
    assert refused.status_code == 429 and refused["Retry-After"] == "3000"
    assert "Too many accounts were created from this address. Try again in 50 minutes." in refused.content.decode()
    assert 'value="player20"' in refused.content.decode()  # the form comes back as typed
    assert not get_user_model().objects.filter(username="player20").exists()
    assert _signup(attempts, "10.0.0.2").status_code == 302  # another address is not held up


def test_refused_signup_forms_do_not_count(pinned_clock, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "signup": "2/hour"}}
    for n in range(5):
        assert _signup(n, "10.0.0.3", password2="typo-in-the-password").status_code == 200
    assert [_signup(n, "10.0.0.3").status_code for n in range(3)] == [302, 302, 429]


def test_the_signup_limit_speaks_french(pinned_clock, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "signup": "1/hour"}}
    _signup(0, "10.0.0.4")
    refused = _signup(1, "10.0.0.4", language="fr")
    assert refused.status_code == 429
    assert "Trop de comptes ont été créés depuis cette adresse. Réessayez dans 50 minutes." in refused.content.decode()
