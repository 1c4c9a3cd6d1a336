"""Issue #16, part A, proven one finding at a time: password guessing on every door, the engine
API's time budget and per-user cap, tokens that end with the password, the client address behind
proxies, request and websocket message sizes, and deeply nested JSON everywhere it is decoded.
"""

import asyncio
import re
import threading
import time
import types
from typing import Annotated

import pytest
from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse
from pydantic import Field
from rest_framework.throttling import AnonRateThrottle

from masscombat.asgi import application
from masscombat.battles.forms import EngineJSONField
from masscombat.campaigns import services as campaign_services
from masscombat.core import engine_budget
from masscombat.core.limits import BodySizeLimit, WebsocketMessageLimit
from masscombat.core.security import client_ip, rate
from rules import registry
from rules.model import Input
from rules.registry import Context, Ruleset

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture(autouse=True)
def _one_rate_window(monkeypatch):
    """Every attempt of a test falls in the same fixed window of the rate limits."""
    monkeypatch.setattr("masscombat.core.security.time", types.SimpleNamespace(time=lambda: 1_800_000_000.0))


def token(client, username, password, addr="10.0.0.1", **extra):
    return client.post("/api/token/", {"username": username, "password": password},
                       content_type="application/json", REMOTE_ADDR=addr, **extra)


# -- 1. every credential endpoint, per user name and per address, 429 with Retry-After ------------


def test_token_requests_are_limited_per_name_and_per_address(gm, player):
    attempts, _seconds = rate("login")
    client = Client()
    for _ in range(attempts):
        assert token(client, "gandalf", "wrong").status_code == 400
    refused = token(client, "gandalf", PASSWORD)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert token(Client(), "gandalf", PASSWORD, addr="10.9.9.9").status_code == 429  # the name, elsewhere
    assert token(Client(), "pippin", PASSWORD, addr="10.0.0.1").status_code == 429  # the address, another name
    assert token(Client(), "pippin", PASSWORD, addr="10.7.7.7").status_code == 200


def test_the_admin_login_shares_the_site_login_counters(gm):
    gm.is_staff = gm.is_superuser = True
    gm.save()
    attempts, _seconds = rate("login")
    for index in range(attempts):  # guesses through the API and the site's form count for the admin
        if index % 2:
            token(Client(), "gandalf", "wrong", addr=f"10.1.0.{index}")
        else:
            Client().post(reverse("login"), {"username": "gandalf", "password": "wrong"}, REMOTE_ADDR=f"10.1.0.{index}")
    admin = Client()
    refused = admin.post("/admin/login/", {"username": "gandalf", "password": PASSWORD}, REMOTE_ADDR="10.2.0.1")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many login attempts" in refused.content.decode()
    assert "_auth_user_id" not in admin.session


def test_the_admin_login_alone_is_limited(gm):
    gm.is_staff = True
    gm.save()
    attempts, _seconds = rate("login")
    client = Client()
    for _ in range(attempts):
        assert client.post("/admin/login/", {"username": "gandalf", "password": "wrong"}).status_code == 200
    assert client.post("/admin/login/", {"username": "gandalf", "password": PASSWORD}).status_code == 429


# -- 2. the engine API: a time budget and a per-user cap on runs at once ----------------------------


slow = Ruleset("slow", {"en": "Slow", "fr": "Lent"})
release = threading.Event()


class Nothing(Input):
    steps: Annotated[int, Field(ge=0, le=10)] = 0


@slow.operation("ponder", Nothing, summary="Waits until the test lets it end.")
def ponder(data: Nothing, ctx: Context) -> dict:
    release.wait(30)
    ctx.log.add("T1", "slow.ponder", "Done.")
    return {"steps": data.steps}


@pytest.fixture
def slow_engine(monkeypatch, settings):
    """A ruleset whose operation blocks until released, a budget of a fifth of a second, one run per user."""
    monkeypatch.setattr(registry, "_discover", lambda: {"slow": slow})
    settings.ENGINE_API_SECONDS = 0.2
    settings.ENGINE_API_CONCURRENT = 1
    release.clear()
    yield
    release.set()
    deadline = time.monotonic() + 30
    while engine_budget._running and time.monotonic() < deadline:
        time.sleep(0.01)


def ponder_as(client):
    return client.post("/api/rules/slow/ponder/", '{"steps": 3}', content_type="application/json")


def test_an_engine_run_past_its_budget_answers_503_and_is_dropped(slow_engine, client_for, player):
    response = ponder_as(client_for(player))
    assert response.status_code == 503 and int(response["Retry-After"]) >= 0
    assert response.json()["fields"] == {} and "did not finish" in response.json()["error"]
    assert engine_budget.running(f"user:{player.pk}") == 1  # abandoned, still counted until it ends


def test_runs_at_once_are_capped_per_user_until_they_really_end(slow_engine, client_for, player, gm):
    pippin = client_for(player)
    assert ponder_as(pippin).status_code == 503
    refused = ponder_as(pippin)
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert "already have 1" in refused.json()["error"]
    assert ponder_as(client_for(gm)).status_code == 503  # another user has a slot of their own
    release.set()
    deadline = time.monotonic() + 30
    while engine_budget.running(f"user:{player.pk}") and time.monotonic() < deadline:
        time.sleep(0.01)
    answer = ponder_as(pippin)
    assert answer.status_code == 200 and answer.json()["steps"] == 3


def test_an_engine_refusal_still_answers_400_through_the_worker(slow_engine, client_for, player):
    response = client_for(player).post("/api/rules/slow/ponder/", '{"steps": 11}', content_type="application/json")
    assert response.status_code == 400 and "steps" in response.json()["fields"]


def the_reviews_dnd5e_battle() -> dict:
    """The review's request: a 200 x 200 map and one unit of 50 stands walking 100 m (55.6 s, 176 MB)."""
    orc = {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 100,
           "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
           "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 5,
                        "damage": [{"dice": "1d12+3", "type": "slashing"}], "reach_m": 1.5}]}
    return {
        "name": "Review", "map": {"width": 200, "height": 200, "cells": []}, "profiles": {"orc": orc},
        "sides": {"A": {"name": "A"}, "B": {"name": "B"}},
        "units": {"u_a": {"side": "A", "type": "regiment", "configuration": "march",
                          "stands": [{"id": f"s{i}", "profile": "orc", "position": [i, 0]} for i in range(50)]},
                  "u_b": {"side": "B", "type": "regiment", "configuration": "march",
                          "stands": [{"id": "b1", "profile": "orc", "position": [30, 30]}]}},
        "objectives": {"oa": {"side": "A", "type": "attrition", "vp_per_unit": 3}},
    }


def test_the_reviews_dnd5e_battle_is_refused_over_http_before_the_engine_works(client_for, make_user, monkeypatch):
    """Posted by a self-registered user to /api/rules/dnd5e/new-battle/: 400 naming each cap passed, and the
    operation itself never entered (its input is refused by the schema's caps, in milliseconds)."""
    import dataclasses
    import json

    dnd5e = registry.get("dnd5e")
    entered = []
    operation = dnd5e.operations["new-battle"]
    monkeypatch.setitem(dnd5e.operations, "new-battle", dataclasses.replace(
        operation, func=lambda data, ctx: entered.append(data) or operation.func(data, ctx)))
    client = client_for(make_user("newcomer"))
    started = time.process_time()
    answer = client.post("/api/rules/dnd5e/new-battle/", json.dumps(the_reviews_dnd5e_battle()),
                         content_type="application/json")
    cpu = time.process_time() - started
    assert answer.status_code == 400, answer.content[:300]
    assert {"map.width", "map.height", "profiles.orc.speed_m", "units.u_a.stands"} <= set(answer.json()["fields"])
    assert entered == []
    print(f"refused in {cpu * 1000:.0f} ms of CPU")  # the figure, not a verdict: the verdict is `entered`
    small = the_reviews_dnd5e_battle()
    small["map"] = {"width": 40, "height": 40, "cells": []}
    small["profiles"]["orc"]["speed_m"] = 9
    small["units"]["u_a"]["stands"] = small["units"]["u_a"]["stands"][:2]
    assert client.post("/api/rules/dnd5e/new-battle/", json.dumps(small),
                       content_type="application/json").status_code == 200
    assert len(entered) == 1  # the spy sees the operation when it does run


# -- 4. a new password ends the tokens; a new email needs the password -------------------------------


def _change_on_the_web(client, user):
    client.force_login(user)
    client.post("/accounts/password_change/", {"old_password": PASSWORD, "new_password1": "Another-pass-77",
                                               "new_password2": "Another-pass-77"})


def _change_through_the_api(client, user):
    client.force_login(user)
    response = client.patch("/api/me/", {"current_password": PASSWORD, "new_password": "Another-pass-77"},
                            content_type="application/json")
    assert response.status_code == 200, response.content


def _reset_by_mail(client, user):
    client.post("/accounts/password_reset/", {"email": user.email})
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[-1].body).group(1)
    client.post(client.get(link)["Location"], {"new_password1": "Another-pass-77", "new_password2": "Another-pass-77"})


@pytest.mark.parametrize("change", [_change_on_the_web, _change_through_the_api, _reset_by_mail])
def test_a_new_password_ends_the_users_api_tokens(change, player, gm, mailoutbox):
    key = token(Client(), "pippin", PASSWORD).json()["token"]
    other = token(Client(), "gandalf", PASSWORD, addr="10.0.0.2").json()["token"]
    change(Client(), player)
    player.refresh_from_db()
    assert player.check_password("Another-pass-77")
    assert Client().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401
    assert Client().get("/api/me/", HTTP_AUTHORIZATION=f"Token {other}").status_code == 200
    assert token(Client(), "pippin", "Another-pass-77", addr="10.0.0.3").json()["token"] != key


def test_the_session_that_changed_the_password_stays_logged_in(client_for, player):
    client = client_for(player)
    _change_through_the_api(client, player)
    assert client.get("/api/me/").status_code == 200


@pytest.mark.parametrize(("extra", "status"), [({}, 400), ({"current_password": "wrong"}, 400),
                                               ({"current_password": PASSWORD}, 200)])
def test_a_new_email_needs_the_current_password_in_the_api(client_for, player, extra, status):
    response = client_for(player).patch("/api/me/", {"email": "new@example.org", **extra},
                                        content_type="application/json")
    assert response.status_code == status
    player.refresh_from_db()
    if status == 400:
        assert set(response.json()) == {"current_password"} and player.email == "pippin@example.org"
    else:
        assert player.email == "new@example.org" and "current_password" not in response.json()


def test_a_new_email_needs_the_current_password_on_the_web(client_for, player):
    client = client_for(player)
    response = client.post("/accounts/profile/", {"display_name": "Peregrin", "email": "new@example.org"})
    assert "current_password" in response.context["form"].errors
    player.refresh_from_db()
    assert player.email == "pippin@example.org"
    client.post("/accounts/profile/", {"display_name": "Peregrin", "email": player.email})  # same email: no password
    player.refresh_from_db()
    assert player.display_name == "Peregrin"


def test_guessing_the_password_through_the_profile_counts_as_logins(client_for, player):
    attempts, _seconds = rate("login")
    client = client_for(player)
    for _ in range(attempts):
        wrong = client.patch("/api/me/", {"email": "x@example.org", "current_password": "guess"},
                             content_type="application/json")
        assert wrong.status_code == 400
    refused = client.patch("/api/me/", {"email": "x@example.org", "current_password": PASSWORD},
                           content_type="application/json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


# -- 5. the client address is the one the trusted proxies saw ----------------------------------------


@pytest.mark.parametrize(("proxies", "forwarded", "expected"), [
    (0, "6.6.6.6", "10.0.0.9"),
    (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),
    (1, "203.0.113.7", "203.0.113.7"),
    (2, "6.6.6.6, 203.0.113.7, 10.0.0.8", "203.0.113.7"),
    (2, "203.0.113.7", "203.0.113.7"),
])
def test_the_client_address_is_counted_from_the_right(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
    assert AnonRateThrottle().get_ident(request) == expected  # the API's throttles agree


def test_a_forged_forwarded_for_does_not_escape_the_login_limit(settings, gm):
    settings.TRUSTED_PROXY_COUNT = 1
    attempts, _seconds = rate("login")
    for index in range(attempts):
        forged = f"198.51.100.{index}, 203.0.113.7"  # the proxy appended the real address last
        token(Client(), f"user{index}", "wrong", HTTP_X_FORWARDED_FOR=forged)
    assert token(Client(), "gandalf", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.7").status_code == 429


# -- 6. request bodies and websocket messages are capped --------------------------------------------


class _Recorder:
    """An inner ASGI app that reads the whole body and answers 200 with its length."""

    def __init__(self):
        self.called = False

    async def __call__(self, scope, receive, send):
        self.called = True
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(len(body)).encode()})


def serve(app, chunks: list[bytes], length: int | None = None):
    """Run one HTTP request through ``app``: the answer's status and body."""
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    headers += [(b"content-length", str(length).encode())] if length is not None else []
    scope = {"type": "http", "method": "POST", "path": "/api/token/", "raw_path": b"/api/token/",
             "query_string": b"", "headers": headers, "scheme": "http", "server": ("testserver", 80),
             "client": ("10.0.0.1", 1234), "http_version": "1.1", "asgi": {"version": "3.0"}, "root_path": ""}
    incoming = [{"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1} for i, chunk in enumerate(chunks)]
    sent = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    async_to_sync(app)(scope, receive, send)
    start = next(message for message in sent if message["type"] == "http.response.start")
    return start["status"], b"".join(message.get("body", b"") for message in sent if message["type"] == "http.response.body")


def test_a_body_declared_too_large_is_refused_before_it_is_read(settings):
    settings.MAX_REQUEST_BYTES = 1000
    inner = _Recorder()
    status, body = serve(BodySizeLimit(inner), [b"x" * 10], length=600 * 1024 * 1024)
    assert status == 413 and b"at most 1000 bytes" in body and not inner.called


def test_a_streamed_body_is_cut_once_it_passes_the_limit(settings):
    settings.MAX_REQUEST_BYTES = 1000
    status, _body = serve(BodySizeLimit(_Recorder()), [b"x" * 400] * 3)
    assert status == 413
    status, body = serve(BodySizeLimit(_Recorder()), [b"x" * 400, b"x" * 400])
    assert (status, body) == (200, b"800")


def test_the_whole_app_answers_413_and_django_reads_no_more(settings):
    settings.MAX_REQUEST_BYTES = 1000
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024  # aligned with the default MAX_REQUEST_BYTES
    assert serve(application, [b"{}" + b" " * 2000], length=2002)[0] == 413
    assert serve(application, [b"{" + b" " * 600, b" " * 600 + b"}"])[0] == 413


class _Echo(AsyncWebsocketConsumer):
    channel_layer_alias = "none"  # no channel layer: the cap stands in front of any consumer, joined to none

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=f"got {len(text_data)}")


def test_a_websocket_message_past_the_cap_closes_the_socket(settings):
    settings.WEBSOCKET_MAX_MESSAGE_BYTES = 100

    async def talk():
        communicator = WebsocketCommunicator(WebsocketMessageLimit(_Echo.as_asgi()), "/ws/")
        assert (await communicator.connect())[0]
        await communicator.send_to(text_data="x" * 100)
        small = await communicator.receive_from()
        await communicator.send_to(text_data="é" * 51)  # 102 bytes in UTF-8
        closed = await communicator.receive_output()
        await communicator.wait()
        return small, closed

    small, closed = async_to_sync(talk)()
    assert small == "got 100" and closed == {"type": "websocket.close", "code": 1009}


# -- 8. deeply nested JSON answers 400 wherever it comes from outside --------------------------------


def test_deep_json_is_refused_by_every_api_endpoint(client_for, gm, campaign):
    client = client_for(gm)
    for method, url in [("post", "/api/token/"), ("patch", "/api/me/"), ("post", "/api/join/"),
                        ("post", f"/api/campaigns/{campaign.pk}/armies/")]:
        response = getattr(client, method)(url, DEEP, content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        assert "JSON parse error" in response.json()["detail"], url


def test_deep_json_is_refused_by_the_map_pages(world, client_for):
    client = client_for(world["users"]["gm"])
    zones, battle_map = world["zones"], world["map"]
    for name in ("maps:preview", "maps:save"):
        response = client.post(reverse(name, args=[zones.pk, battle_map.pk]), DEEP, content_type="application/json")
        assert response.status_code == 400 and response.json()["fields"] == {"": "The request is not JSON."}, name
    page = client.post(reverse("maps:import", args=[zones.pk]), {"text": DEEP})
    assert page.status_code == 200 and "This file is not JSON." in page.content.decode()


def test_deep_json_in_the_gms_json_box_is_an_invalid_value():
    field = EngineJSONField(kind="list", required=False, error_messages={"invalid": "not JSON"})
    with pytest.raises(Exception) as refused:
        field.clean(DEEP)
    assert type(refused.value).__name__ == "ValidationError" and refused.value.messages == ["not JSON"]
    assert field.clean('[{"unit": "a"}]') == [{"unit": "a"}]
    assert str(field.bound_data(DEEP, None)) == DEEP  # redisplayed as typed


def test_invitation_links_are_rate_limited(campaign, gm, outsider, client_for):
    code = campaign_services.regenerate_invitation(campaign, by=gm).code
    attempts, _seconds = rate("join")
    client = client_for(outsider)
    for index in range(attempts):
        assert client.get(reverse("campaigns:join-code", args=[f"WRONG{index:03d}"])).status_code == 200
    refused = client.get(reverse("campaigns:join-code", args=[code]))
    assert refused.status_code == 429 and "War of the Ring" not in refused.content.decode()
    assert "Too many attempts" in refused.content.decode()


def test_asking_whether_user_names_exist_counts_against_signups(gm):
    attempts, _seconds = rate("signup")
    client = Client()
    taken = {"username": "gandalf", "display_name": "", "email": "x@example.org",
             "password1": "Tabletop-battle-42", "password2": "Tabletop-battle-42"}
    for _ in range(attempts):
        answer = client.post(reverse("accounts:signup"), taken)
        assert answer.status_code == 200 and "username" in answer.context["form"].errors
    refused = client.post(reverse("accounts:signup"), taken)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "username" not in refused.context["form"].errors
    # A mistyped password is not a question about names: it costs nothing.
    typo = client.post(reverse("accounts:signup"), {**taken, "username": "newcomer", "password2": "x"})
    assert typo.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_campaign_sockets_hellos_are_limited_per_socket(campaign, player, monkeypatch):
    """As the battle socket's: a thousand hellos cost the server a handful of reads, the rest an error."""
    from masscombat.campaigns import consumers, live
    from tests.masscombat.campaigns.test_live import connect

    reads = []
    counted = live.last_seq
    monkeypatch.setattr(live, "last_seq", lambda campaign_id: reads.append(campaign_id) or counted(campaign_id))

    async def scenario():
        first, second = connect(player, campaign.pk), connect(player, campaign.pk)
        assert (await first.connect())[0] and (await second.connect())[0]
        for _ in range(consumers.HELLO_LIMIT + 20):
            await first.send_json_to({"type": "hello"})
        answers = [await first.receive_json_from(timeout=10) for _ in range(consumers.HELLO_LIMIT + 20)]
        assert [answer["type"] for answer in answers] == ["ready"] * consumers.HELLO_LIMIT + ["error"] * 20
        assert answers[-1]["error"] == consumers.TOO_MANY_HELLOS
        await second.send_json_to({"type": "hello"})  # the limit is the socket's, not the user's
        assert (await second.receive_json_from(timeout=10))["type"] == "ready"
        await first.disconnect()
        await second.disconnect()

    async_to_sync(scenario)()
    assert len(reads) == consumers.HELLO_LIMIT + 1


@pytest.mark.django_db(transaction=True)
def test_the_campaign_sockets_hello_limit_forgets_old_hellos(campaign, player, monkeypatch):
    from masscombat.campaigns import consumers
    from tests.masscombat.campaigns.test_live import connect

    monkeypatch.setattr(consumers, "HELLO_WINDOW", 0.2)

    async def scenario():
        page = connect(player, campaign.pk)
        assert (await page.connect())[0]
        for _ in range(2):
            for _ in range(consumers.HELLO_LIMIT):
                await page.send_json_to({"type": "hello"})
            answers = [await page.receive_json_from(timeout=10) for _ in range(consumers.HELLO_LIMIT)]
            assert [answer["type"] for answer in answers] == ["ready"] * consumers.HELLO_LIMIT
            await asyncio.sleep(0.25)  # the window, not a race: past it the old hellos no longer count
        await page.disconnect()

    async_to_sync(scenario)()

