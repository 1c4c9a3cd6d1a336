"""Live battle fan-out: from the GM's resolve request to the last connected client; prints figures.

    .venv/bin/python benchmarks/live_fanout.py [--rounds 20] [--big-rounds 5] [--battles 50] [--clients 8]

Needs PostgreSQL and Redis on 127.0.0.1 (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/masscombat_bench``, dropped and created
again; ``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/7``, emptied).  It starts
daphne (the real ASGI server, Redis channel layer) and measures, per battle
and round, the time from sending the GM's HTTP ``POST /battles/<id>/resolve/``
to the moment the last of the battle's N websocket clients has received the
``round_resolved`` event; then the GM undoes the round (so the same battle can
be resolved again) and the clients receive that too.  Scenarios:

1. 1 battle x 8 clients, and 50 battles x 8 clients resolved at once;
2. the floor: a bare ``websockets`` broadcast server doing the same fan-out
   (one message from a "GM" socket relayed to the battle's 8 clients), no
   HTTP, database, rules engine or channel layer;
3. two daphne processes sharing Redis and PostgreSQL, each battle's clients
   spread over both, the GM posting to either: checks that every client
   receives every event, in order, and reports the same latency.

Everything on loopback, bounded loops; median and 95th percentile printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CSRF = secrets.token_hex(16)  # 32 characters: accepted by Django as an unmasked CSRF secret
WAIT = 60  # seconds before a missing event counts as lost


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def figures(label: str, samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (f"{label:<48} n={len(ms):>4}  median {statistics.median(ms):7.1f} ms  "
            f"p95 {percentile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms")


# ---------------------------------------------------------------- setup (Django ORM, this process)

def reset_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def build_world(battles: int, clients: int) -> dict:
    """Users, sessions, one 7th Sea campaign and ``battles`` battles with round 1 declared."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from masscombat.accounts.models import User
    from masscombat.battles import services
    from masscombat.campaigns import services as campaign_services
    from masscombat.rosters import services as roster_services

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    gm = User.objects.create_user("bench-gm", password="x")
    players = [User.objects.create_user(f"bench-p{i}", password="x") for i in range(clients)]
    campaign = campaign_services.create_campaign(gm, name="Bench", ruleset="seventh_sea")
    for player in players:
        campaign.memberships.create(user=player, role="player")
    army_a = roster_services.create_army(campaign, name="A", user=gm, commander=players[0], data={
        "name": "A", "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}})
    army_b = roster_services.create_army(campaign, name="B", user=gm, commander=players[1], data={
        "name": "B", "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0})
    hero = roster_services.create_hero(campaign, name="Lucie", user=gm, owner=players[0], data={
        "id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "tactics": 3, "leadership": 2, "brawn": 3,
        "resolve": 2, "unit_type": "artillery"})
    ids = []
    for index in range(battles):
        battle = services.create_battle(campaign, gm, name=f"Bench {index}", armies={"a": army_a, "b": army_b},
                                        heroes=[(hero, "a")], options={"attacker": "a"})
        services.declare(players[0], battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
        services.declare(players[1], battle.pk, "side:b", {"sides.b.strategy": "entrenchment"}, expected_round=1)
        services.declare(players[0], battle.pk, "hero:lucie", {"heroes.lucie.engagement": "support"},
                         expected_round=1)
        ids.append(battle.pk)

    def session(user) -> str:
        store = SessionStore()
        store["_auth_user_id"] = str(user.pk)
        store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        store["_auth_user_hash"] = user.get_session_auth_hash()
        store.create()
        return store.session_key

    return {"battles": ids, "gm": session(gm), "players": [session(p) for p in players]}


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:  # daphne waits for open connections; the run is over
        process.kill()
        process.wait(timeout=10)


def start_daphne(env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("daphne")), "-b", "127.0.0.1", "-p", str(port),
         "masscombat.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=open(os.environ["BENCH_SERVER_LOG"], "ab") if os.environ.get("BENCH_SERVER_LOG") else subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
            return process, port
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit("daphne did not start")


# ---------------------------------------------------------------- clients

class Client:
    """One websocket client: records every event it receives, with the time."""

    def __init__(self, socket_, name: str):
        self.socket, self.name = socket_, name
        self.events: list[dict] = []
        self.arrived = asyncio.Event()

    async def read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            message["at"] = time.perf_counter()
            self.events.append(message)
            self.arrived.set()

    async def first(self, predicate, after: int) -> dict:
        deadline = time.perf_counter() + WAIT
        while True:
            for message in self.events[after:]:
                if predicate(message):
                    return message
            self.arrived.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: event not received")
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass


async def connect_battle_client(port: int, battle_id: int, session: str, name: str) -> Client:
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/ws/battles/{battle_id}/", max_size=2**22,
                       additional_headers={"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"})
    client = Client(ws, name)
    asyncio.get_running_loop().create_task(client.read())
    await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
    await client.first(lambda m: m.get("type") == "ready", 0)
    client.events.clear()  # the catch-up of earlier scenarios; only what follows is checked
    return client


async def post(port: int, path: str, session: str, body: str) -> int:
    """A bare HTTP/1.1 POST with the GM's session and CSRF cookie: no client-side thread pool in the way."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = f"{body}&csrfmiddlewaretoken={CSRF}".encode()
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: sessionid={session}; csrftoken={CSRF}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(data)}\r\n"
        f"Connection: close\r\n\r\n".encode() + data
    )
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status


async def play_battle(ports: list[int], battle_id: int, clients: list[Client], gm: str, rounds: int,
                      samples: list[float]) -> None:
    """Resolve round 1 and undo it, ``rounds`` times; one latency sample per resolution."""
    for index in range(rounds):
        port = ports[index % len(ports)]
        marks = [len(c.events) for c in clients]
        started = time.perf_counter()
        status = await post(port, f"/battles/{battle_id}/resolve/", gm, "round=1")
        if status != 302:
            raise SystemExit(f"resolve answered {status}")
        received = await asyncio.gather(*(
            c.first(lambda m: m.get("kind") == "round_resolved", mark) for c, mark in zip(clients, marks)))
        samples.append(max(m["at"] for m in received) - started)
        marks = [len(c.events) for c in clients]
        if await post(port, f"/battles/{battle_id}/undo/", gm, "round=1") != 302:
            raise SystemExit("undo failed")
        await asyncio.gather(*(c.first(lambda m: m.get("kind") == "round_undone", mark)
                               for c, mark in zip(clients, marks)))


async def masscombat_scenario(ports: list[int], world: dict, battles: int, clients: int, rounds: int):
    chosen = world["battles"][:battles]
    per_battle = {}
    for b, battle_id in enumerate(chosen):
        per_battle[battle_id] = [
            await connect_battle_client(ports[(b + i) % len(ports)], battle_id, world["players"][i], f"b{battle_id}c{i}")
            for i in range(clients)
        ]
    warm_up: list[float] = []  # the first request of a process imports and connects: not measured
    await asyncio.gather(*(play_battle(ports, battle_id, per_battle[battle_id], world["gm"], 1, warm_up)
                           for battle_id in chosen[: len(ports)]))
    samples: list[float] = []
    await asyncio.gather(*(play_battle(ports, battle_id, per_battle[battle_id], world["gm"], rounds, samples)
                           for battle_id in chosen))
    in_order = True
    for battle_id, group in per_battle.items():
        for client in group:
            seqs = [m["seq"] for m in client.events if m.get("type") == "event"]
            kinds = [m["kind"] for m in client.events if m.get("type") == "event"]
            expected = rounds + (1 if battle_id in chosen[: len(ports)] else 0)
            if (seqs != sorted(set(seqs)) or kinds.count("round_resolved") != expected
                    or kinds.count("round_undone") != expected):
                in_order = False
    for group in per_battle.values():
        for client in group:
            await client.socket.close()
    return samples, in_order


# ---------------------------------------------------------------- the floor: bare websockets broadcast

BARE_SERVER = '''
import asyncio, json, sys
from websockets.asyncio.server import serve, broadcast
rooms = {}
async def handler(ws):
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] == "join":
            rooms.setdefault(message["battle"], set()).add(ws)
            await ws.send(json.dumps({"type": "ready"}))
        elif message["type"] == "resolve":
            broadcast(rooms.get(message["battle"], ()), json.dumps({"type": "event", "kind": "round_resolved"}))
async def main():
    async with serve(handler, "127.0.0.1", int(sys.argv[1]), max_size=2**22):
        await asyncio.Future()
asyncio.run(main())
'''


async def bare_scenario(battles: int, clients: int, rounds: int) -> list[float]:
    from websockets.asyncio.client import connect

    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", BARE_SERVER, str(port)])
    try:
        for _ in range(100):
            try:
                probe = await connect(f"ws://127.0.0.1:{port}/")
                await probe.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        rooms = {}
        for battle in range(battles):
            group = []
            for i in range(clients):
                ws = await connect(f"ws://127.0.0.1:{port}/")
                client = Client(ws, f"bare{battle}-{i}")
                asyncio.get_running_loop().create_task(client.read())
                await ws.send(json.dumps({"type": "join", "battle": battle}))
                await client.first(lambda m: m.get("type") == "ready", 0)
                group.append(client)
            rooms[battle] = (await connect(f"ws://127.0.0.1:{port}/"), group)
        samples: list[float] = []

        async def play(battle: int) -> None:
            gm, group = rooms[battle]
            for _ in range(rounds):
                marks = [len(c.events) for c in group]
                started = time.perf_counter()
                await gm.send(json.dumps({"type": "resolve", "battle": battle}))
                got = await asyncio.gather(*(c.first(lambda m: m.get("kind") == "round_resolved", mark)
                                             for c, mark in zip(group, marks)))
                samples.append(max(m["at"] for m in got) - started)

        await asyncio.gather(*(play(battle) for battle in rooms))
        for gm, group in rooms.values():
            await gm.close()
            for client in group:
                await client.socket.close()
        return samples
    finally:
        stop(process)


# ---------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20, help="resolutions per battle, 1-battle scenario")
    parser.add_argument("--big-rounds", type=int, default=5, help="resolutions per battle, many-battles scenario")
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--skip-two-process", action="store_true")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/masscombat_bench")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
    reset_database(database)
    import redis as redis_client

    # Its own Redis database, emptied: group memberships of an earlier run's dead sockets would
    # otherwise receive (and slow) every broadcast until they expire.
    redis_client.Redis.from_url(redis).flushdb()
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis, "DEBUG": "1",
           "DJANGO_SETTINGS_MODULE": "masscombat.settings", "LOG_LEVEL": "WARNING"}
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")})
    world = build_world(args.battles, args.clients)
    print(f"daphne + Redis channel layer + PostgreSQL, 7th Sea battles, {args.clients} clients per battle")

    results = []
    daphne, port = start_daphne(env)
    try:
        for battles, rounds in ((1, args.rounds), (args.battles, args.big_rounds)):
            samples, ordered = asyncio.run(masscombat_scenario([port], world, battles, args.clients, rounds))
            results.append(figures(f"masscombat, {battles} battle(s) x {args.clients} clients, 1 process", samples)
                           + ("" if ordered else "  EVENTS MISSING OR OUT OF ORDER"))
            floor = asyncio.run(bare_scenario(battles, args.clients, rounds))
            results.append(figures(f"floor: bare websockets, {battles} x {args.clients}", floor))
            print("\n".join(results[-2:]), flush=True)
    finally:
        stop(daphne)

    if not args.skip_two_process:
        first, port_a = start_daphne(env)
        second, port_b = start_daphne(env)
        try:
            samples, ordered = asyncio.run(masscombat_scenario(
                [port_a, port_b], world, args.battles, args.clients, args.big_rounds))
            line = figures(f"masscombat, {args.battles} x {args.clients}, 2 processes", samples)
            print(line + ("  every client got every event in order" if ordered else "  EVENTS MISSING OR OUT OF ORDER"))
        finally:
            for process in (first, second):
                stop(process)


if __name__ == "__main__":
    main()
