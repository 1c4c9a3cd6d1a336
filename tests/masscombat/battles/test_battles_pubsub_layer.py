"""channels-redis's pub/sub layer, the one deployed with Redis, keeps what the battle sockets need.

Groups per audience, catch-up and the gap rules are the layer-independent tests'
(``test_battles_websocket*.py``, run on whichever layer the settings chose);
here, on the real Redis, what is the pub/sub layer's own: a cut connection.
Unlike the list-based layer, a published message is not kept anywhere: a
subscriber whose connection is cut misses what is published meanwhile, and the
layer must reconnect and subscribe again by itself.  Either cut (the
publisher's, in the middle of a broadcast; the subscriber's) leaves every page
open and ending with every event, once, in order (``prev`` and the heartbeat
show the gap, the catch-up fills it).

Needs ``REDIS_URL`` (pass 2 of ``bin/test``); the cut kills only this process's
connections (named for the test).
"""

import asyncio
import os
import threading
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers

from masscombat.battles import consumers, live, services
from masscombat.battles.models import Battle
from tests.masscombat.battles.test_battles_websocket_gaps import Follower, emit, heard

pytestmark = pytest.mark.django_db(transaction=True)
WRITE_PAUSE_MS = 3000


@pytest.fixture
def pubsub_layer(settings):
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs the real Redis (REDIS_URL): run in bin/test's PostgreSQL + Redis pass")
    import redis

    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    name = f"pubsub-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    settings.CHANNEL_LAYERS = {"default": {**settings.CHANNEL_LAYERS["default"], "CONFIG": {
        **config, "hosts": [{**config["hosts"][0], "client_name": name}]}}}
    # The cache in this process's memory: Redis's writes held by the cut must hold the broadcast only.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": name}}
    channel_layers.backends.clear()
    admin = redis.Redis.from_url(url, socket_timeout=10)
    yield name, admin
    admin.close()


def cut_publisher(admin, name, sending: threading.Event) -> list[int]:
    """Hold Redis's writes, so that the broadcast stops at its PUBLISH, and kill that connection."""
    admin.execute_command("CLIENT", "PAUSE", WRITE_PAUSE_MS, "WRITE")
    try:
        sending.set()
        for _attempt in range(WRITE_PAUSE_MS // 10 - 50):
            publishing = [c["id"] for c in admin.client_list()
                          if c.get("name") == name and "b" in c["flags"] and c["cmd"] == "publish"]
            if publishing:
                for client_id in publishing:
                    admin.client_kill_filter(_id=client_id)
                return publishing
            threading.Event().wait(0.01)
        return []
    finally:
        admin.execute_command("CLIENT", "UNPAUSE")


def subscribers(admin, name) -> list[int]:
    return [c["id"] for c in admin.client_list() if c.get("name") == name and "P" in c["flags"]]


async def open_pages(gm, player, other_player, battle_id):
    return {"gm": await Follower(gm, battle_id).open(), "a": await Follower(player, battle_id).open(),
            "b": await Follower(other_player, battle_id).open()}


async def every_page_ends_with_every_event(pages, starts, battle_id):
    audiences = {"gm": (True, []), "a": (False, ["all", "side:a"]), "b": (False, ["all", "side:b"])}
    for key, page in pages.items():
        expected = await database_sync_to_async(heard)(battle_id, *audiences[key], starts[key])
        assert await page.pump(lambda: page.applied == expected, timeout=20), (key, page.applied, expected)
        assert page.gaps_seen >= 1 and page.reconnects == 0, key  # caught up on the open socket
        await page.close()


def test_a_publish_cut_mid_broadcast_is_a_gap_the_pages_fill(pubsub_layer, battle, gm, player, other_player,
                                                             monkeypatch):
    name, admin = pubsub_layer
    monkeypatch.setattr(consumers, "COUNT_SECONDS", 0.5)

    async def cut_during(action):
        sending = threading.Event()
        cutter = asyncio.ensure_future(asyncio.to_thread(cut_publisher, admin, name, sending))
        await asyncio.to_thread(sending.wait, 10)
        await database_sync_to_async(action)()
        return await cutter

    async def scenario():
        pages = await open_pages(gm, player, other_player, battle.pk)
        starts = {key: page.last for key, page in pages.items()}
        assert await cut_during(lambda: services.set_paused(gm, battle.pk, True))  # heard by nobody
        await database_sync_to_async(services.set_paused)(gm, battle.pk, False)  # its prev names the lost one
        await database_sync_to_async(emit)(battle.pk, "declared", live.side_audience("a"))
        assert await cut_during(lambda: services.set_paused(gm, battle.pk, True))  # the last: the heartbeat
        await every_page_ends_with_every_event(pages, starts, battle.pk)

    async_to_sync(scenario)()


def test_the_subscriber_cut_reconnects_and_the_pages_fill_the_gap(pubsub_layer, battle, gm, player, other_player,
                                                                  monkeypatch):
    name, admin = pubsub_layer
    monkeypatch.setattr(consumers, "COUNT_SECONDS", 0.5)

    async def scenario():
        pages = await open_pages(gm, player, other_player, battle.pk)
        starts = {key: page.last for key, page in pages.items()}
        cut = subscribers(admin, name)
        assert cut
        for client_id in cut:
            admin.client_kill_filter(_id=client_id)
        # Published while this process has no subscriber: lost, whatever comes after.
        await database_sync_to_async(services.set_paused)(gm, battle.pk, True)
        for _attempt in range(100):  # the layer subscribes again by itself
            if [i for i in subscribers(admin, name) if i not in cut]:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the layer never subscribed again")
        last = await database_sync_to_async(lambda: Battle.objects.get(pk=battle.pk).last_seq)()
        await database_sync_to_async(services.set_paused)(gm, battle.pk, False)  # heard live again
        await every_page_ends_with_every_event(pages, starts, battle.pk)
        assert all(last + 1 in page.applied for page in pages.values())

    async_to_sync(scenario)()
