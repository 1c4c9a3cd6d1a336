"""Spectators (issue #19): the GM's watch link, the read-only room it opens, its socket, its revocation.

The battle is the HÉROS ambush of ``test_battles_heros``: side b's slingers
hidden in a wood and a lurker in b's pool, which neither side a nor the
public may learn of.  A spectator is anonymous unless said otherwise.
"""

import io

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.urls import reverse

from masscombat.battles import live, parts, services, spectators
from masscombat.battles.models import Battle, SpectatorLink
from masscombat.battles.spectator_socket import SpectatorConsumer
from masscombat.core.permissions import Role
from masscombat.maps.render import without_terrain
from tests.masscombat.battles.test_battles_websocket import until_pushed
from tests.masscombat.battles.test_battles_heros import SECRETS, GRUNDI, LURKER, WOOD, ambush, create, plain, unit  # noqa: F401

pytestmark = pytest.mark.django_db

SECRETS = ("b-frondeurs", "Frondeurs", "b-rodeur", "Rôdeur")
PARTS = ("status", "map", "reports")


def shared(client_for, gm, battle) -> str:
    """The GM creates the watch link from the room: its token."""
    response = client_for(gm).post(reverse("battles:watch_share", args=[battle.pk]))
    assert response.status_code == 302
    return spectators.live_link(battle.pk).token


def watched(client, token: str) -> list[str]:
    """The watch page and each of its parts, as text."""
    pages = [client.get(reverse("battles:watch", args=[token]))]
    pages += [client.get(reverse("battles:watch_part", args=[token, name])) for name in PARTS]
    assert [page.status_code for page in pages] == [200] * 4
    return [page.content.decode() for page in pages]


def test_the_gm_shares_one_link_and_players_may_not(ambush, client_for, gm, player, outsider):
    token = shared(client_for, gm, ambush)
    assert shared(client_for, gm, ambush) == token  # asked twice: one link
    assert client_for(player).post(reverse("battles:watch_share", args=[ambush.pk])).status_code == 403
    assert client_for(outsider).post(reverse("battles:watch_share", args=[ambush.pk])).status_code == 404
    revoked = client_for(player).post(reverse("battles:watch_revoke", args=[ambush.pk]), {"confirm": "on"})
    assert revoked.status_code == 403
    assert SpectatorLink.objects.filter(battle=ambush).count() == 1
    room = client_for(gm).get(reverse("battles:room", args=[ambush.pk])).content.decode()
    assert reverse("battles:watch", args=[token]) in room and "data-confirm" in room
    assert reverse("battles:watch", args=[token]) not in client_for(player).get(
        reverse("battles:room", args=[ambush.pk])).content.decode()


def test_a_spectator_sees_no_hidden_piece_no_form_and_no_gm_control(ambush, client_for, gm, player, other_player):
    token = shared(client_for, gm, ambush)
    services.declare(other_player, ambush.pk, "unit:b-frondeurs", {}, expected_round=1)  # the ambushers' orders
    services.declare(player, ambush.pk, "unit:a-lanciers", {}, expected_round=1)
    for text in watched(client_for(None), token):
        assert not [secret for secret in SECRETS if secret in text]
        assert 'method="post"' not in text.split("<main", 1)[-1].split("</main>", 1)[0]  # no form in the room
        for gm_only in ("battles:resolve", "battles:undo", "battles:pause", "battles:declare"):
            assert reverse(gm_only, args=[ambush.pk]) not in text
    page = watched(client_for(None), token)[0]
    assert "Lanciers" in page and "<svg" in page  # the public's pieces, on the map
    services.resolve_round(gm, ambush.pk, expected_round=1)
    ambush.refresh_from_db()
    assert unit(ambush.state, "b-frondeurs")["hidden"]
    report = watched(client_for(None), token)[3]
    assert not [secret for secret in SECRETS if secret in report]
    assert 'data-round="1"' in report


def test_a_signed_in_player_watching_sees_the_public_view_not_their_side(ambush, client_for, gm, other_player):
    token = shared(client_for, gm, ambush)
    for text in watched(client_for(other_player), token):  # side b's own player, through the link
        assert not [secret for secret in SECRETS if secret in text]


def test_a_member_who_plays_no_one_sees_the_public_view(ambush, client_for, make_user):
    follower = make_user("sam", display_name="Sam")
    ambush.campaign.memberships.create(user=follower, role=Role.PLAYER)
    client = client_for(follower)
    room = client.get(reverse("battles:room", args=[ambush.pk])).content.decode()
    assert "Lanciers" in room and "<svg" in room  # the public state, no longer nothing
    for name in PARTS:
        text = client.get(reverse("battles:part", args=[ambush.pk, name])).content.decode()
        assert not [secret for secret in SECRETS if secret in text], name


def test_a_revoked_link_is_refused_and_confirmation_is_asked(ambush, client_for, gm):
    token = shared(client_for, gm, ambush)
    client_for(gm).post(reverse("battles:watch_revoke", args=[ambush.pk]))  # not confirmed: kept
    assert client_for(None).get(reverse("battles:watch", args=[token])).status_code == 200
    client_for(gm).post(reverse("battles:watch_revoke", args=[ambush.pk]), {"confirm": "on"})
    assert client_for(None).get(reverse("battles:watch", args=[token])).status_code == 404
    assert client_for(None).get(reverse("battles:watch_part", args=[token, "reports"])).status_code == 404
    assert shared(client_for, gm, ambush) != token  # a new link is a new token
    assert client_for(None).get(reverse("battles:watch", args=["not-a-token"])).status_code == 404


@pytest.mark.parametrize(("language", "words"), [("fr", "Vous êtes spectateur"), ("en", "You are watching")])
def test_the_link_works_in_french_and_english(ambush, client_for, gm, language, words):
    token = shared(client_for, gm, ambush)
    page = client_for(None).get(reverse("battles:watch", args=[token]), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200 and words in page.content.decode()


def _socket(token: str):
    communicator = WebsocketCommunicator(SpectatorConsumer.as_asgi(), f"/ws/watch/{token}/")
    communicator.scope["user"] = AnonymousUser()
    communicator.scope["url_route"] = {"kwargs": {"token": token}}
    return communicator


@pytest.mark.django_db(transaction=True)
def test_the_spectator_socket_hears_public_events_only_and_closes_on_revoke(ambush, client_for, gm, player,
                                                                            other_player):
    token = shared(client_for, gm, ambush)

    async def scenario():
        refused, code = await _socket("not-a-token").connect()
        assert not refused and code == 4403
        spectator = _socket(token)
        assert (await spectator.connect())[0]
        await spectator.send_json_to({"type": "hello", "last_seq": 0})
        caught_up = []
        while (message := await spectator.receive_json_from(timeout=5))["type"] != "ready":
            caught_up.append(message)
        _, first = await until_pushed(spectator, ["status", "map", "reports"])  # the catch-up's parts
        await _database(lambda: services.declare(other_player, ambush.pk, "unit:b-frondeurs", {}, expected_round=1))
        await _database(lambda: services.resolve_round(gm, ambush.pk, expected_round=1))
        heard = [await spectator.receive_json_from(timeout=5)]
        _, html = await until_pushed(spectator, ["status", "map", "reports"])
        assert [m["kind"] for m in heard] == ["round_resolved"]  # the ambushers' declaration is side b's alone
        assert heard[0]["refresh"] == ["status", "map", "reports"]  # a watcher has no forms
        assert all(m["audience"] == live.ALL for m in caught_up + heard)
        assert "b-frondeurs" not in str(caught_up + heard)
        for pushed in (first, html):  # the public's HTML: nothing hidden
            assert not any(secret in str(pushed) for secret in SECRETS)
        assert html["map"] == without_terrain(await _database(lambda: parts.render(spectators.watching(token), "map")))
        await _database(lambda: spectators.revoke_link(gm, ambush.pk))
        assert (await spectator.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4403}

    async_to_sync(scenario)()


async def _database(work):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(work)()


def test_every_ruleset_demo_battle_can_be_watched_before_and_after_a_round(client_for):
    """Each ruleset's pages (state, map, reports, aftermath parts) render for the public, who plays no side."""
    call_command("demo", stdout=io.StringIO())
    battles = list(Battle.objects.all())
    assert sorted(b.ruleset for b in battles) == ["dnd5e", "heros", "jdrwiki", "seventh_sea", "synapse"]
    for battle in battles:
        gm = battle.campaign.memberships.get(role=Role.GM).user
        token = spectators.create_link(gm, battle.pk).token
        watched(client_for(None), token)
        services.resolve_round(gm, battle.pk, expected_round=battle.current_round)
        assert 'data-round="' in watched(client_for(None), token)[3], battle.ruleset
