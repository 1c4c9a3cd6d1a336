"""Real faults: PostgreSQL and Redis stopped and restarted under a running app.

Marked ``services``: bin/test runs them on their own, serially, after the
PostgreSQL + Redis pass (they stop the services every other test uses).  They
skip on the embedded defaults and fail when the services cannot be reached or
restarted.  Every test starts the services again in a ``finally``.
"""

import asyncio
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import reverse

from masscombat.battles import services as battle_services
from masscombat.battles.models import BattleEvent
from masscombat.routing import websocket_urlpatterns
from tests.masscombat.hardening import services

pytestmark = pytest.mark.services
ROOT = Path(__file__).resolve().parents[3]

DB_PAGE = "/accounts/reset/MQ/set-password/"  # reads the user table, anonymously


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def post_json(url: str, data: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_postgresql_restarts_under_a_running_server(daphne_server):
    """Clear 503s while it is down; the very next request after it is back is served."""
    database, channel = services.required()
    name = f"masscombat_faults_{os.getpid()}"
    try:
        url = services.fresh_database(database, name)
        base = daphne_server(DATABASE_URL=url, REDIS_URL=channel)  # connections kept, in the pool
        token = base + "/api/token/"
        assert get(base + DB_PAGE)[0] == 200
        assert post_json(token, {"username": "nobody", "password": "x"})[0] == 400

        services.pg_ctl(database, "stop")
        status, page = get(base + DB_PAGE)
        assert status == 503 and "cannot reach its database" in page
        status, body = post_json(token, {"username": "nobody", "password": "x"})
        assert status == 503 and "cannot reach its database" in body["detail"]

        services.pg_start(database)
        assert get(base + DB_PAGE)[0] == 200  # the kept connection was checked and replaced
        assert post_json(token, {"username": "nobody", "password": "x"})[0] == 400

        services.pg_ctl(database, "restart")
        services.wait_for(lambda: services.pg_up(database), "PostgreSQL after restart")
        assert [get(base + DB_PAGE)[0] for _ in range(3)] == [200, 200, 200]
    finally:
        services.pg_start(database)
        connections.close_all()  # this process's own connections died with the server
    services.drop_database(database, name)


@pytest.mark.django_db(transaction=True)
def test_redis_restart_live_updates_resume_and_clients_catch_up_from_the_database(world, client_for):
    _database, channel = services.required()
    battle, users = world["battle"], world["users"]
    router = URLRouter(websocket_urlpatterns)

    def declare(user, key, path, value):
        battle_services.declare(user, battle.pk, key, {path: value}, expected_round=1)

    def api_status():
        return client_for(users["gm"]).get("/api/campaigns/").status_code

    def login_status():
        return Client().post(reverse("login"), {"username": "gandalf", "password": "correct horse battery"}).status_code

    async def connect(last_seq):
        """As battle.js does: retry until the socket opens (the first try after a restart may fail)."""
        for _attempt in range(10):
            communicator = WebsocketCommunicator(router, f"/ws/battles/{battle.pk}/")
            communicator.scope["user"] = users["player"]
            try:
                connected, _ = await communicator.connect(timeout=10)
            except Exception:  # noqa: BLE001 - the consumer died on a stale Redis connection: retry
                await asyncio.sleep(0.5)
                continue
            if connected:
                break
        assert connected
        await communicator.send_json_to({"type": "hello", "last_seq": last_seq})
        caught_up = []
        while (message := await communicator.receive_json_from(timeout=10))["type"] != "ready":
            caught_up.append(message)
        return communicator, caught_up

    async def next_event(communicator, kind):
        while True:
            message = await communicator.receive_json_from(timeout=10)
            if message.get("kind") == kind:
                return message

    async def scenario():
        start = await database_sync_to_async(lambda: BattleEvent.objects.filter(battle=battle).count())()
        first, _ = await connect(start)
        await database_sync_to_async(declare)(users["player"], "side:a", "sides.a.strategy", "march")
        live = await next_event(first, "declared")
        assert live["seq"] > start and live["payload"]["participant"] == "side:a"

        await asyncio.to_thread(services.redis_stop, channel)
        try:
            # Saved while Redis is away; nobody hears it live.
            await database_sync_to_async(declare)(users["other_side"], "side:b", "sides.b.strategy", "march")
            await database_sync_to_async(declare)(users["player"], "hero:lucie", "heroes.lucie.engagement", "support")
            # The rate-limit counters live in Redis too: the API and logins go on, uncounted.
            assert await database_sync_to_async(api_status)() == 200
            assert await database_sync_to_async(login_status)() == 302
        finally:
            await asyncio.to_thread(services.redis_start, channel)
        try:
            await first.disconnect()
        except Exception:  # noqa: BLE001 - its consumer may already have died with the layer
            pass

        # The page reconnects with the last event it has: it gets what it missed, once, in order.
        second, caught_up = await connect(live["seq"])
        seqs = [m["seq"] for m in caught_up]
        assert seqs == sorted(set(seqs)) and seqs[0] > live["seq"]
        assert [m["payload"]["participant"] for m in caught_up if m["kind"] == "declared"] == ["side:b", "hero:lucie"]
        # And live updates flow again through the restarted Redis.
        await database_sync_to_async(declare)(users["player"], "side:a", "sides.a.strategy", "entrenchment")
        again = await next_event(second, "declared")
        assert again["seq"] > seqs[-1] and again["payload"]["participant"] == "side:a"
        await second.disconnect()

    try:
        async_to_sync(scenario)()
    finally:
        services.redis_start(channel)


def test_workers_killed_mid_broadcast_and_reconnecting_clients_miss_nothing():
    """benchmarks/reconnect_soak.py, small: two workers, two killed mid-broadcast, clients dropping and
    reconnecting; every client ends with exactly the events the database lets it see, once, in order."""
    database, channel = services.required()
    name = f"masscombat_soak_{os.getpid()}"
    env = {**os.environ,
           "SOAK_DATABASE_URL": services.sibling_database_url(database, name),
           "SOAK_REDIS_URL": channel.rsplit("/", 1)[0] + "/9"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "reconnect_soak.py"), "--reconnects", "150", "--clients", "3",
         "--kills", "2"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    services.drop_database(database, name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "workers killed mid-broadcast  2;" in result.stdout
    assert result.stdout.count("every event exactly once, in order") == 3
