"""Security settings, proven: content security policy, production headers and cookies,
rate limits on logins and join codes, join codes that cannot be guessed, the
websocket origin check and CSRF on forms and htmx requests.
"""

import math
import re
import secrets
import types
import urllib.request
from collections import Counter

import pytest
from asgiref.sync import async_to_sync
from channels.security.websocket import OriginValidator
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from masscombat.asgi import application
from masscombat.campaigns import selectors, services
from masscombat.campaigns.models import CODE_ALPHABET, CODE_LENGTH, new_code
from masscombat.core.security import rate
from tests.masscombat.hardening.htmlcheck import csp_violations, scan

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_rate_window(monkeypatch):
    """The web rate limits count in fixed windows of the wall clock: a test whose attempts
    straddled a minute boundary would start counting again halfway and fail at random.
    Every attempt of a test falls in the same window."""
    monkeypatch.setattr("masscombat.core.security.time", types.SimpleNamespace(time=lambda: 1_800_000_000.0))


# -- content security policy ---------------------------------------------------------------------


def test_every_html_page_carries_a_strict_policy(client_for, campaign, gm):
    response = client_for(gm).get(reverse("campaigns:detail", args=[campaign.pk]))
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert policy["connect-src"] == "'self' ws://testserver wss://testserver"
    assert "unsafe" not in response["Content-Security-Policy"]


def test_json_answers_carry_no_policy_header(client_for, gm):
    assert "Content-Security-Policy" not in client_for(gm).get("/api/me/")


def test_the_api_docs_get_their_own_looser_policy(client):
    """Swagger UI is built on inline code; only its page may run it."""
    docs = client.get(reverse("api:docs"))["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-inline'" in docs
    assert "'unsafe-inline'" not in client.get("/")["Content-Security-Policy"]


def test_htmx_is_told_not_to_inject_its_indicator_style(client):
    """htmx adds a <style> element unless configured not to: the policy would refuse it."""
    page = client.get("/").content.decode()
    assert re.search(r'<meta name="htmx-config" content=\'\{[^\']*"includeIndicatorStyles": false', page)


@pytest.mark.parametrize(
    "name",
    ["login", "accounts:signup", "home", "campaigns:create", "campaigns:join", "accounts:profile",
     "campaigns:detail", "campaigns:invitation", "campaigns:edit", "campaigns:members", "campaigns:delete"],
)
def test_pages_have_no_inline_code(client_for, campaign, gm, name):
    """What the policy would block would silently break the page: there must be none."""
    services.regenerate_invitation(campaign, by=gm)
    url = reverse(name, args=[campaign.pk]) if name.startswith("campaigns:") and name not in {
        "campaigns:create", "campaigns:join"} else reverse(name)
    user = None if name in {"login", "accounts:signup"} else gm
    response = client_for(user).get(url)
    assert response.status_code == 200
    assert csp_violations(response.content.decode()) == []


# -- production: secure cookies, HSTS, HTTPS redirect, websocket origin ---------------------------


@pytest.fixture
def production(daphne_server):
    """daphne without DEBUG, behind a TLS proxy that says ``X-Forwarded-Proto: https``.

    The HTTPS redirect is left to the proxy here (the fixture polls in plain HTTP);
    the next test proves Django's own redirect.
    """
    return daphne_server(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
                         BEHIND_TLS_PROXY="1", SECURE_SSL_REDIRECT="0")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, **headers):
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


@pytest.mark.django_db(transaction=False)
def test_production_sends_secure_cookies_and_hsts(production):
    status, headers = fetch(production + "/accounts/login/", **{"X-Forwarded-Proto": "https"})
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    cookie = next(value for value in headers.get_all("Set-Cookie") if value.startswith("csrftoken="))
    assert "Secure" in cookie and "SameSite=Lax" in cookie
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self';" in headers["Content-Security-Policy"]



@pytest.mark.django_db(transaction=True)
def test_websockets_are_opened_only_from_this_sites_pages(campaign, gm, client_for, monkeypatch):
    """The real ASGI stack, with production's host list: a hostile page open in the same
    browser (which would send the session cookie) cannot listen to a campaign."""
    validator = application.application_mapping["websocket"]
    assert isinstance(validator, OriginValidator)
    monkeypatch.setattr(validator, "allowed_origins", ["testserver"])
    cookie = client_for(gm).cookies["sessionid"].value

    async def handshake(origin: bytes) -> bool:
        headers = [(b"cookie", f"sessionid={cookie}".encode()), (b"host", b"testserver")]
        headers += [(b"origin", origin)] if origin else []
        communicator = WebsocketCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    assert async_to_sync(handshake)(b"https://evil.example") is False
    assert async_to_sync(handshake)(b"https://testserver.evil.example") is False
    assert async_to_sync(handshake)(b"") is False
    assert async_to_sync(handshake)(b"https://testserver") is True


def test_plain_http_is_redirected_to_https_without_debug(settings):
    settings.SECURE_SSL_REDIRECT = True
    response = Client().get("/accounts/login/")
    assert response.status_code == 301 and response["Location"] == "https://testserver/accounts/login/"


# -- rate limits ----------------------------------------------------------------------------------


def login(client, username, password, addr="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=addr)


def test_logins_are_rate_limited_per_address_and_per_name(gm, player):
    attempts, _seconds = rate("login")
    client = Client()
    for _ in range(attempts):
        assert login(client, "gandalf", "wrong").status_code == 200
    refused = login(client, "gandalf", "correct horse battery")
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    assert int(refused["Retry-After"]) > 0
    assert "Too many login attempts" in refused.content.decode()
    # The same name from elsewhere is refused too (one account guessed from many addresses)...
    other = Client()
    login(other, "gandalf", "correct horse battery", addr="10.9.9.9")
    assert "_auth_user_id" not in other.session
    # ...while another person at another address logs in.
    third = Client()
    assert login(third, "pippin", "correct horse battery", addr="10.7.7.7").status_code == 302


def test_join_codes_typed_on_the_web_are_rate_limited(campaign, gm, outsider, client_for):
    code = services.regenerate_invitation(campaign, by=gm).code
    attempts, _seconds = rate("join")
    client = client_for(outsider)
    for index in range(attempts):
        wrong = new_code()
        assert client.post(reverse("campaigns:join"), {"code": wrong}).status_code == 200, index
    refused = client.post(reverse("campaigns:join"), {"code": code})
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert not campaign.memberships.filter(user=outsider).exists()


def test_join_codes_through_the_api_are_rate_limited(campaign, gm, outsider, client_for):
    code = services.regenerate_invitation(campaign, by=gm).code
    attempts, _seconds = rate("join")
    client = client_for(outsider)
    for _ in range(attempts):
        assert client.post("/api/join/", {"code": "ABCD-EFGH"}, content_type="application/json").status_code == 400
    assert client.post("/api/join/", {"code": code}, content_type="application/json").status_code == 429
    assert not campaign.memberships.filter(user=outsider).exists()


def test_join_codes_cannot_be_guessed():
    """Enough entropy that, at the allowed rate, a year of guessing has no real chance at one code."""
    bits = CODE_LENGTH * math.log2(len(CODE_ALPHABET))
    assert bits >= 39
    attempts, seconds = rate("join")
    guesses_per_year = attempts * (365 * 24 * 3600 / seconds)
    assert guesses_per_year / len(CODE_ALPHABET) ** CODE_LENGTH < 1e-4

    # Drawn uniformly from the whole alphabet by a cryptographic generator (no visible bias).
    codes = [new_code() for _ in range(4000)]
    assert len(set(codes)) == len(codes)
    counts = Counter("".join(codes))
    assert set(counts) == set(CODE_ALPHABET)
    expected = len(codes) * CODE_LENGTH / len(CODE_ALPHABET)
    chi_square = sum((counts[ch] - expected) ** 2 / expected for ch in CODE_ALPHABET)
    assert chi_square < 70  # 30 degrees of freedom: p < 0.0002 beyond this


# -- CSRF -----------------------------------------------------------------------------------------


def test_forms_without_the_csrf_token_are_refused(gm, campaign):
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    response = client.post(reverse("campaigns:edit", args=[campaign.pk]), {"name": "Hijacked", "ruleset": "dnd5e"})
    assert response.status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "War of the Ring"


def test_htmx_requests_send_the_token_from_the_page(gm, player, campaign):
    """base.html puts the token in ``hx-headers``: an htmx post with it passes, without it fails."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)
    url = reverse("campaigns:member-promote", args=[campaign.pk, player.pk])
    assert client.post(url, HTTP_HX_REQUEST="true").status_code == 403
    assert selectors.membership(campaign, player.pk).role == "player"
    response = client.post(url, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert selectors.membership(campaign, player.pk).role == "gm"


def test_every_post_form_carries_the_token(client_for, campaign, gm):
    services.regenerate_invitation(campaign, by=gm)
    for url in ["/", reverse("campaigns:detail", args=[campaign.pk]), reverse("campaigns:invitation", args=[campaign.pk]),
                reverse("campaigns:join"), reverse("campaigns:edit", args=[campaign.pk])]:
        found = scan(client_for(gm).get(url).content.decode())
        assert found.post_forms > 0 and found.post_forms_without_token == 0, url


def test_password_reset_mails_are_rate_limited(gm, mailoutbox):
    attempts, _seconds = rate("login")
    client = Client()
    for _ in range(attempts):
        assert client.post(reverse("password_reset"), {"email": "gandalf@example.org"}).status_code == 302
    assert len(mailoutbox) == attempts
    refused = client.post(reverse("password_reset"), {"email": "gandalf@example.org"})
    assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
    assert len(mailoutbox) == attempts
