"""The battle websocket: who may join, what each one hears, catch-up after a reconnect.

Runs on whichever channel layer the settings chose: in-memory in pass 1,
Redis in pass 2 of ``bin/test``.
"""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import OperationalError
from django.utils import timezone

from masscombat.asgi import application
from masscombat.battles import live, presence, selectors, services
from masscombat.battles.consumers import BattleConsumer
from masscombat.battles.models import Battle, Connection

pytestmark = pytest.mark.django_db(transaction=True)


def socket(user, battle_id):
    communicator = WebsocketCommunicator(BattleConsumer.as_asgi(), f"/ws/battles/{battle_id}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"battle_id": battle_id}}
    return communicator


async def joined(user, battle_id, last_seq=0):
    """Connect, say hello, and return the socket with what it caught up on."""
    communicator = socket(user, battle_id)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "hello", "last_seq": last_seq})
    caught_up = []
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == "ready":
            return communicator, caught_up
        caught_up.append(message)


async def drain(communicator, *, frames=False):
    """Every message waiting on the socket, in order; the ``parts`` frames (the pushed HTML after each
    event) only when ``frames``."""
    out = []
    while not await communicator.receive_nothing(timeout=0.3):
        message = await communicator.receive_json_from(timeout=1)
        if frames or message["type"] != "parts":
            out.append(message)
    return out


async def until_pushed(communicator, names, timeout=20):
    """Every message until ``parts`` frames have brought the HTML of every part in ``names``: (the events
    and other messages, the HTML by part as last pushed)."""
    heard, html = [], {}
    while not set(names) <= set(html):
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == "parts":
            html.update(message["html"])
        else:
            heard.append(message)
    return heard, html


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_outsiders_and_anonymous_are_refused(battle, outsider, who):
    user = outsider if who == "outsider" else AnonymousUser()

    async def scenario():
        connected, code = await socket(user, battle.pk).connect()
        assert not connected and code == 4403

    async_to_sync(scenario)()


def test_an_unknown_battle_is_refused(gm):
    async def scenario():
        connected, code = await socket(gm, 999999).connect()
        assert not connected and code == 4403

    async_to_sync(scenario)()


def test_the_session_cookie_authenticates_through_the_asgi_app(battle, client_for, player):
    cookie = client_for(player).cookies["sessionid"].value

    async def scenario():
        communicator = WebsocketCommunicator(
            application, f"/ws/battles/{battle.pk}/",
            headers=[(b"cookie", f"sessionid={cookie}".encode()), (b"origin", b"http://testserver"),
                     (b"host", b"testserver")],
        )
        connected, _ = await communicator.connect()
        assert connected
        await communicator.disconnect()
        anonymous = WebsocketCommunicator(application, f"/ws/battles/{battle.pk}/",
                                          headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
        connected, code = await anonymous.connect()
        assert not connected and code == 4403

    async_to_sync(scenario)()


def test_declarations_reach_everyone_without_their_content(battle, gm, player, other_player):
    async def scenario():
        sockets = {}
        for name, user in (("gm", gm), ("own", player), ("other", other_player)):
            sockets[name], _ = await joined(user, battle.pk)
        await drain(sockets["gm"])  # presence events
        await database_sync_to_async(services.declare)(
            player, battle.pk, "side:a", {"sides.a.strategy": "envelopment"}, expected_round=1)
        for name, communicator in sockets.items():
            heard = [m for m in await drain(communicator) if m["kind"] == "declared"]
            assert [m["payload"] for m in heard] == [{"round": 1, "participant": "side:a"}], name
            assert "envelopment" not in str(heard)
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_gm_only_events_do_not_reach_players(battle, gm, player):
    async def scenario():
        watcher, _ = await joined(player, battle.pk)
        master, early = await joined(gm, battle.pk)  # its presence event goes to the GM audience only
        assert [m["kind"] for m in await drain(watcher)] == []
        presence = [m for m in early + await drain(master) if m["kind"] == "presence"]
        assert presence and all(m["audience"] == live.GM for m in presence)
        await watcher.disconnect()
        await master.disconnect()

    async_to_sync(scenario)()


def test_a_client_that_comes_back_catches_up_in_order(battle, gm, player, other_player):
    async def scenario():
        communicator, _ = await joined(player, battle.pk)
        seen = max([0, *[m["seq"] for m in await drain(communicator)]])
        seen = max(seen, await database_sync_to_async(lambda: Battle.objects.get(pk=battle.pk).last_seq)())
        await communicator.disconnect()  # phone locked
        await database_sync_to_async(services.declare)(
            other_player, battle.pk, "side:b", {"sides.b.strategy": "march"}, expected_round=1)
        await database_sync_to_async(services.set_paused)(gm, battle.pk, True)
        back, missed = await joined(player, battle.pk, last_seq=seen)
        assert [m["kind"] for m in missed] == ["declared", "status"]
        assert [m["seq"] for m in missed] == sorted(m["seq"] for m in missed)
        assert all(m["seq"] > seen for m in missed)
        await back.disconnect()

    async_to_sync(scenario)()


def test_too_much_missed_means_reload(battle, player, monkeypatch):
    monkeypatch.setattr(live, "CATCH_UP_LIMIT", 0)

    async def scenario():
        communicator = socket(player, battle.pk)
        await communicator.connect()
        await communicator.send_json_to({"type": "hello", "last_seq": 0})
        assert await communicator.receive_json_from(timeout=5) == {"type": "reload"}
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_bad_messages_get_an_error_event(battle, player):
    async def scenario():
        communicator = socket(player, battle.pk)
        await communicator.connect()
        for bad in ({"type": "shout"}, {"type": "hello", "last_seq": "x"}, {"type": "hello", "last_seq": -1}):
            await communicator.send_json_to(bad)
            assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_resolving_twice_broadcasts_one_result(battle, gm, player, other_player):
    hero = battle.participants.get(kind="hero").ref

    async def scenario():
        communicator, _ = await joined(other_player, battle.pk)
        for key, user, data in (("side:a", player, {"sides.a.strategy": "march"}),
                                ("side:b", other_player, {"sides.b.strategy": "march"}),
                                (f"hero:{hero}", player, {f"heroes.{hero}.engagement": "engaged"})):
            await database_sync_to_async(services.declare)(user, battle.pk, key, data, expected_round=1)
        for _ in range(2):  # double click, or two GM tabs
            await database_sync_to_async(services.resolve_round)(gm, battle.pk, expected_round=1)
        kinds = [m["kind"] for m in await drain(communicator)]
        assert kinds.count("round_resolved") == 1
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_presence_follows_open_sockets(battle, gm, player):
    async def scenario():
        communicator, _ = await joined(player, battle.pk)
        count = database_sync_to_async(lambda: Connection.objects.filter(battle_id=battle.pk, user=player).count())
        assert await count() == 1
        await communicator.disconnect()
        assert await count() == 0

    async_to_sync(scenario)()


def _ghost(battle, user, channel_name="daphne.dead!ghost"):
    """A row left by a server process that was killed (kill -9): its socket is gone, nobody deleted it."""
    long_ago = timezone.now() - timedelta(seconds=presence.STALE_AFTER_SECONDS + 1)
    return Connection.objects.create(battle=battle, user=user, channel_name=channel_name, last_seen=long_ago)


def test_rows_of_a_dead_process_do_not_count_and_go_at_the_next_connect(battle, gm, player, other_player):
    _ghost(battle, other_player)
    Connection.objects.create(battle=battle, user=player, channel_name="daphne.alive!1")
    assert selectors.present_users(battle) == [player]

    async def scenario():
        master, early = await joined(gm, battle.pk)
        heard = [m["payload"] for m in early + await drain(master) if m["kind"] == "presence"]
        assert {"user": other_player.pk, "connected": False} in heard
        rows = await database_sync_to_async(
            lambda: sorted(Connection.objects.filter(battle=battle).values_list("user__username", flat=True)))()
        assert rows == sorted([gm.username, player.username])
        await master.disconnect()

    async_to_sync(scenario)()


def test_the_heartbeat_keeps_an_open_socket_present_and_clears_ghosts(battle, gm, player, other_player, monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    rows = database_sync_to_async(lambda: {c.user_id: c.last_seen for c in Connection.objects.filter(battle=battle)})

    async def scenario():
        master, _ = await joined(gm, battle.pk)
        watcher, _ = await joined(player, battle.pk)
        await drain(master)
        old = timezone.now() - timedelta(seconds=presence.STALE_AFTER_SECONDS - 1)  # nearly stale, then refreshed
        await database_sync_to_async(lambda: Connection.objects.filter(user=player).update(last_seen=old))()
        await database_sync_to_async(_ghost)(battle, other_player)
        heard = []
        for _ in range(40):
            heard += [m["payload"] for m in await drain(master) if m["kind"] == "presence"]
            seen = await rows()
            if other_player.pk not in seen and seen.get(player.pk, old) > old:
                break
        assert seen[player.pk] > old and other_player.pk not in seen
        assert heard == [{"user": other_player.pk, "connected": False}]  # said once, by one heartbeat
        await watcher.disconnect()
        await master.disconnect()
        await asyncio.sleep(0.2)  # heartbeats stopped with their sockets: nothing comes back
        assert await rows() == {}

    async_to_sync(scenario)()


def test_a_heartbeat_writes_back_a_row_removed_under_an_open_socket(battle, gm, player):
    presence.beat(battle.pk, player, "daphne.alive!2")
    assert [(c.user, c.channel_name) for c in presence.live_connections(battle.pk)] == [(player, "daphne.alive!2")]
    assert battle.events.filter(kind="presence").latest("seq").payload == {"user": player.pk, "connected": True}


def test_a_heartbeat_during_a_database_outage_is_skipped(battle, player, monkeypatch, caplog):
    def down(*args):
        raise OperationalError("the database is away")

    monkeypatch.setattr(presence, "beat", down)
    presence.safe_beat(battle.pk, player, "daphne.alive!3")
    assert "heartbeat skipped" in caplog.text


def test_a_heartbeat_for_a_deleted_battle_writes_nothing(battle, player):
    battle_id = battle.pk
    Battle.objects.filter(pk=battle_id).delete()
    presence.safe_beat(battle_id, player, "daphne.alive!4")
    assert not Connection.objects.exists()


def test_the_gm_page_shows_no_ghost(battle, client_for, gm, player, other_player):
    _ghost(battle, other_player)
    Connection.objects.create(battle=battle, user=player, channel_name="daphne.alive!5")
    page = client_for(gm).get(battle.get_absolute_url()).content.decode()
    assert '<span class="online">Pippin</span>' in page and "Merry" not in page.split("Here now")[1].split("</p>")[0]
