"""Live battle fan-out, per ASGI server and channel layer: from the GM's resolve to the last client; prints figures.

    .venv/bin/python benchmarks/live_fanout.py [--server uvicorn --server daphne --server granian]
        [--layer pubsub --layer lists] [--repeat 2] [--rounds 20] [--big-rounds 5] [--battles 50] [--clients 8]
        [--skip-many] [--skip-two-process] [--skip-resolve]

Needs PostgreSQL and Redis on 127.0.0.1 (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/masscombat_bench``, dropped and created
again; ``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/7``, emptied).  It
starts the app as ``bin/run`` serves it (``masscombat.server``: ``DEBUG=0``,
collected static files, PostgreSQL, Redis) on each ``--server`` with each
``--layer`` (``REDIS_CHANNEL_LAYER``), one after the other and ``--repeat``
times over (A B C A B C: a shared machine's load drifts over minutes), and
measures on each:

1. the floor of a request: a static 2 KB file (``js/countdown.js``) asked by
   N clients at once, per request;
2. a websocket broadcast: one message published on the channel layer by this
   process to a campaign's group (no HTTP, database, engine or rendering), to
   the last of its N sockets (campaign pages'), for 1 group and for
   ``--battles`` groups at once;
3. the GM's HTTP ``POST /battles/<id>/resolve/`` to the moment the last of the
   battle's N websocket clients has the ``round_resolved`` event (then the GM
   undoes the round, so the same battle resolves again), 1 x N and
   ``--battles`` x N resolved in one wave: 7th Sea battles, events only (what
   the room then redraws is ``benchmarks/room_redraw.py``'s);
4. the same wave on two server processes sharing Redis and PostgreSQL, each
   battle's clients spread over both, the GM posting to either;

and beside them the floor of the event alone: a bare ``websockets`` broadcast
server doing the same fan-out.  Each line gives median, p95 and max, the
websocket connections that failed (each retried, up to 5 times) and the
server's CPU time per sample (user + system, its processes together: on a
shared machine it varies far less than the times).  The load average is
printed at the start and the end.  Everything on loopback, bounded loops.
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
import tempfile
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
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:  # open connections can hold a graceful stop; the run is over
        process.kill()
        process.wait(timeout=10)


def start_server(env: dict, server: str | None = None) -> tuple[subprocess.Popen, int]:
    """The app on a free port as ``bin/run`` serves it (``masscombat.server``); ``server``: which one (default: bin/run's)."""
    from masscombat import server as asgi_server

    port = free_port()
    process = subprocess.Popen(
        asgi_server.command(server or asgi_server.DEFAULT, "127.0.0.1", port),
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=open(os.environ["BENCH_SERVER_LOG"], "ab") if os.environ.get("BENCH_SERVER_LOG") else subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
            return process, port
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"{server} exited with {process.returncode}")
            time.sleep(0.3)
    process.kill()
    raise SystemExit(f"{server} did not start")


start_daphne = start_server  # the old name (room_redraw.py, reconnect_soak.py): the server bin/run serves


def cpu_seconds(process: subprocess.Popen) -> float:
    """User + system CPU of the server so far, its child processes included (granian runs its workers there)."""
    ticks = 0
    tree = {process.pid}
    for stat in sorted(Path("/proc").glob("[0-9]*/stat"), key=lambda path: int(path.parent.name)):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(stat.parent.name), int(fields[1])
        if pid in tree or parent in tree:  # /proc lists parents before their children
            tree.add(pid)
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


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


FAILED_CONNECTS = [0]  # websocket connections refused or timed out, each retried
FAILED_POSTS = [0]  # the GM's resolve or undo not answered with its redirect (a 503: every pooled connection taken)


async def connect_battle_client(port: int, battle_id: int, session: str, name: str, last_seq: int = 0,
                                attempts: int = 5) -> Client:
    """A battle socket that has said hello with ``last_seq`` and heard ``ready``; a failed try counts, then retries."""
    from websockets.asyncio.client import connect

    for attempt in range(attempts):
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/battles/{battle_id}/", max_size=2**22, open_timeout=20,
                               additional_headers={"Cookie": f"sessionid={session}",
                                                   "Origin": f"http://127.0.0.1:{port}"})
            break
        except (OSError, asyncio.TimeoutError, Exception):  # noqa: BLE001 - refused, reset, timed out, 5xx
            FAILED_CONNECTS[0] += 1
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    client = Client(ws, name)
    asyncio.get_running_loop().create_task(client.read())
    await ws.send(json.dumps({"type": "hello", "last_seq": last_seq}))
    await client.first(lambda m: m.get("type") in ("ready", "reload"), 0)
    client.events.clear()  # the catch-up of earlier scenarios; only what follows is checked
    return client


async def get(port: int, path: str) -> int:
    """A bare HTTP/1.1 GET, the body read to its end: its status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status


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


async def static_floor(port: int, path: str, clients: int, requests: int) -> list[float]:
    """Per-request time of a static file with ``clients`` asking at once, ``requests`` each."""
    samples: list[float] = []

    async def one_client() -> None:
        for _ in range(requests):
            started = time.perf_counter()
            if await get(port, path) != 200:
                raise SystemExit(f"{path} did not answer 200")
            samples.append(time.perf_counter() - started)

    await asyncio.gather(*(one_client() for _ in range(clients)))
    return samples


async def play_battle(ports: list[int], battle_id: int, clients: list[Client], gm: str, rounds: int,
                      samples: list[float]) -> int:
    """Resolve round 1 and undo it, ``rounds`` times; one latency sample per resolution; returns how many
    resolutions went through (a refused one, a 503 while the pool is all taken, counts in ``FAILED_POSTS``)."""
    done = 0
    for index in range(rounds):
        port = ports[index % len(ports)]
        marks = [len(c.events) for c in clients]
        started = time.perf_counter()
        if await post(port, f"/battles/{battle_id}/resolve/", gm, "round=1") != 302:
            FAILED_POSTS[0] += 1
            continue
        done += 1
        received = await asyncio.gather(*(
            c.first(lambda m: m.get("kind") == "round_resolved", mark) for c, mark in zip(clients, marks)))
        samples.append(max(m["at"] for m in received) - started)
        marks = [len(c.events) for c in clients]
        for _attempt in range(5):  # the next resolution needs round 1 open again
            if await post(port, f"/battles/{battle_id}/undo/", gm, "round=1") == 302:
                break
            FAILED_POSTS[0] += 1
            await asyncio.sleep(1)
        else:
            raise SystemExit(f"battle {battle_id}: undo failed five times")
        await asyncio.gather(*(c.first(lambda m: m.get("kind") == "round_undone", mark)
                               for c, mark in zip(clients, marks)))
    return done


async def open_clients(ports: list[int], world: dict, chosen: list[int], clients: int) -> dict[int, list[Client]]:
    """Each battle's clients, spread over the server processes, having heard ``ready`` from where the battle is."""
    per_battle = {}
    for b, battle_id in enumerate(chosen):
        per_battle[battle_id] = [
            await connect_battle_client(ports[(b + i) % len(ports)], battle_id, world["players"][i],
                                        f"b{battle_id}c{i}", world["last_seq"][battle_id])
            for i in range(clients)
        ]
    return per_battle


async def close_clients(per_battle: dict[int, list[Client]]) -> None:
    for group in per_battle.values():
        for client in group:
            await client.socket.close()


async def masscombat_scenario(ports: list[int], world: dict, battles: int, clients: int, rounds: int):
    chosen = world["battles"][:battles]
    per_battle = await open_clients(ports, world, chosen, clients)
    warm_up: list[float] = []  # the first request of a process imports and connects: not measured
    resolved = dict(zip(chosen, await asyncio.gather(*(
        play_battle(ports, battle_id, per_battle[battle_id], world["gm"], 1, warm_up)
        for battle_id in chosen[: len(ports)]))))
    samples: list[float] = []
    for battle_id, done in zip(chosen, await asyncio.gather(*(
            play_battle(ports, battle_id, per_battle[battle_id], world["gm"], rounds, samples)
            for battle_id in chosen))):
        resolved[battle_id] = resolved.get(battle_id, 0) + done
    in_order = True
    for battle_id, group in per_battle.items():
        for client in group:
            seqs = [m["seq"] for m in client.events if m.get("type") == "event"]
            kinds = [m["kind"] for m in client.events if m.get("type") == "event"]
            if (seqs != sorted(set(seqs)) or kinds.count("round_resolved") != resolved[battle_id]
                    or kinds.count("round_undone") != resolved[battle_id]):
                in_order = False
    await close_clients(per_battle)
    return samples, in_order


def broadcast_campaigns(world: dict, count: int, clients: int) -> None:
    """``count`` campaigns with the world's players as members: one group of ``clients`` sockets each."""
    from masscombat.accounts.models import User
    from masscombat.campaigns import services as campaign_services

    gm = User.objects.get(username="bench-gm")
    players = [User.objects.get(username=f"bench-p{i}") for i in range(clients)]
    world["campaigns"] = []
    for index in range(count):
        campaign = campaign_services.create_campaign(gm, name=f"Broadcast {index}", ruleset="seventh_sea")
        for player in players:
            campaign.memberships.create(user=player, role="player")
        world["campaigns"].append(campaign.pk)


async def connect_campaign_client(port: int, campaign_id: int, session: str, name: str) -> Client:
    """A campaign page's socket (the simplest one: it relays what the layer brings), having heard ``ready``."""
    from websockets.asyncio.client import connect

    for attempt in range(5):
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/campaigns/{campaign_id}/", open_timeout=20,
                               additional_headers={"Cookie": f"sessionid={session}",
                                                   "Origin": f"http://127.0.0.1:{port}"})
            break
        except (OSError, asyncio.TimeoutError, Exception):  # noqa: BLE001 - refused, reset, timed out, 5xx
            FAILED_CONNECTS[0] += 1
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    client = Client(ws, name)
    asyncio.get_running_loop().create_task(client.read())
    await ws.send(json.dumps({"type": "hello"}))
    await client.first(lambda m: m.get("type") == "ready", 0)
    return client


async def broadcast_scenario(port: int, world: dict, layer_backend: str, groups: int, clients: int,
                             rounds: int) -> list[float]:
    """One message published on the channel layer by this process to each of ``groups`` campaign groups
    of ``clients`` sockets, as ``campaigns.live`` does after a commit, to the last socket that relays it:
    the layer and the server's websockets alone (no HTTP, database, engine or rendering)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    from masscombat.campaigns import live as campaign_live

    layer = import_string(layer_backend)(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    chosen = world["campaigns"][:groups]
    per_group = {campaign_id: [await connect_campaign_client(port, campaign_id, world["players"][i], f"c{campaign_id}s{i}")
                               for i in range(clients)] for campaign_id in chosen}
    samples: list[float] = []
    for index in range(rounds + 1):  # the first one warms the layer's connections: not counted
        marks = {campaign_id: [len(c.events) for c in group] for campaign_id, group in per_group.items()}
        seq = 10**9 + index
        started = time.perf_counter()
        await asyncio.gather(*(layer.group_send(campaign_live.group_name(campaign_id),
                                                {"type": campaign_live.CHANGED, "seq": seq})
                               for campaign_id in chosen))

        async def last_of(campaign_id: int) -> float:
            got = await asyncio.gather(*(c.first(lambda m: m.get("seq") == seq, mark)
                                         for c, mark in zip(per_group[campaign_id], marks[campaign_id])))
            return max(m["at"] for m in got)

        ends = await asyncio.gather(*(last_of(campaign_id) for campaign_id in chosen))
        if index:
            samples.extend(end - started for end in ends)
    await close_clients(per_group)
    # Its connections closed; not the list layer's flush, which would empty the server's groups too.
    await (layer.close_pools() if hasattr(layer, "close_pools") else layer.flush())
    return samples


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

class Results:
    """Samples per scenario and set-up, gathered over the repeats; printed as one table at the end."""

    def __init__(self):
        self.samples: dict[tuple[str, str], list[float]] = {}
        self.cpu: dict[tuple[str, str], list[float]] = {}
        self.notes: dict[tuple[str, str], set[str]] = {}

    def add(self, scenario: str, setup: str, samples: list[float], cpu: float | None = None, note: str = "") -> None:
        key = (scenario, setup)
        self.samples.setdefault(key, []).extend(samples)
        if cpu is not None:
            self.cpu.setdefault(key, []).append(cpu / max(1, len(samples)))
        if note:
            self.notes.setdefault(key, set()).add(note)
        extra = f"  server CPU {cpu / max(1, len(samples)) * 1000:6.1f} ms/sample" if cpu is not None else ""
        print(figures(f"{setup:<16} {scenario}", samples) + extra + (f"  {note}" if note else ""), flush=True)

    def table(self) -> None:
        scenarios = list(dict.fromkeys(scenario for scenario, _ in self.samples))
        setups = list(dict.fromkeys(setup for _, setup in self.samples))
        print(f"\nsummary: median / p95 ms (server CPU ms per sample); {load_average()}")
        print(f"{'':<34}" + "".join(f"{setup:>24}" for setup in setups))
        for scenario in scenarios:
            cells = []
            for setup in setups:
                samples = self.samples.get((scenario, setup))
                if not samples:
                    cells.append(f"{'-':>24}")
                    continue
                ms = [s * 1000 for s in samples]
                cpu = self.cpu.get((scenario, setup))
                cell = f"{statistics.median(ms):.1f} / {percentile(ms, 0.95):.1f}"
                cell += f" ({statistics.median(cpu) * 1000:.1f})" if cpu else ""
                cell += " !" if self.notes.get((scenario, setup)) else ""
                cells.append(f"{cell:>24}")
            print(f"{scenario:<34}" + "".join(cells))
        if any(self.notes.values()):
            print("!: " + "; ".join(f"{setup} {scenario}: {', '.join(sorted(notes))}"
                                    for (scenario, setup), notes in self.notes.items()))


def waves(args) -> list[tuple[int, int]]:
    """(battles, samples per battle) of each scenario: one battle, then many at once unless skipped."""
    return [(1, args.rounds)] + ([] if args.skip_many or args.battles == 1 else [(args.battles, args.big_rounds)])


def failures(ordered: bool) -> str:
    """What went wrong in a resolve scenario, for its line: nothing, ideally."""
    notes = [] if ordered else ["EVENTS MISSING OR OUT OF ORDER"]
    notes += [f"{FAILED_CONNECTS[0]} ws connects failed"] if FAILED_CONNECTS[0] else []
    notes += [f"{FAILED_POSTS[0]} GM posts failed"] if FAILED_POSTS[0] else []
    return ", ".join(notes)


def last_seqs(world: dict) -> None:
    """Where each battle's numbering is now: clients say hello from there, so no earlier run is replayed."""
    from masscombat.battles.models import Battle

    world["last_seq"] = dict(Battle.objects.filter(pk__in=world["battles"]).values_list("pk", "last_seq"))


def run_setup(results: Results, server: str, layer: str, env: dict, world: dict, static_path: str, args) -> None:
    from django.conf import settings

    setup = f"{server}/{layer}"
    env = {**env, "REDIS_CHANNEL_LAYER": layer}
    backend = settings.REDIS_CHANNEL_LAYERS[layer]
    process, port = start_server(env, server)
    try:
        cpu = cpu_seconds(process)
        results.add(f"static 2 KB, {args.clients} at once", setup,
                    asyncio.run(static_floor(port, static_path, args.clients, 25)), cpu_seconds(process) - cpu)
        for battles, rounds in waves(args):
            last_seqs(world)
            FAILED_CONNECTS[0], cpu = 0, cpu_seconds(process)
            samples = asyncio.run(broadcast_scenario(port, world, backend, battles, args.clients, rounds))
            results.add(f"broadcast, {battles} x {args.clients}", setup, samples, cpu_seconds(process) - cpu,
                        f"{FAILED_CONNECTS[0]} ws connects failed" if FAILED_CONNECTS[0] else "")
            if args.skip_resolve:
                continue
            last_seqs(world)
            FAILED_CONNECTS[0], FAILED_POSTS[0], cpu = 0, 0, cpu_seconds(process)
            samples, ordered = asyncio.run(masscombat_scenario([port], world, battles, args.clients, rounds))
            results.add(f"resolve, {battles} x {args.clients}", setup, samples, cpu_seconds(process) - cpu,
                        failures(ordered))
    finally:
        stop(process)
    if args.skip_two_process or args.skip_resolve or len(waves(args)) == 1:
        return
    (first, port_a), (second, port_b) = start_server(env, server), start_server(env, server)
    try:
        last_seqs(world)
        FAILED_CONNECTS[0] = FAILED_POSTS[0] = 0
        cpu = cpu_seconds(first) + cpu_seconds(second)
        samples, ordered = asyncio.run(masscombat_scenario([port_a, port_b], world, args.battles, args.clients,
                                                           args.big_rounds))
        results.add(f"resolve, {args.battles} x {args.clients}, 2 procs", setup, samples,
                    cpu_seconds(first) + cpu_seconds(second) - cpu, failures(ordered))
    finally:
        for process in (first, second):
            stop(process)


def main() -> None:
    from masscombat import server as asgi_server

    parser = argparse.ArgumentParser()
    parser.add_argument("--server", action="append", choices=asgi_server.SERVERS,
                        help=f"repeat to compare (default: {asgi_server.DEFAULT}, what bin/run serves)")
    parser.add_argument("--layer", action="append", choices=("pubsub", "lists"),
                        help="REDIS_CHANNEL_LAYER; repeat to compare (default: the settings' default)")
    parser.add_argument("--repeat", type=int, default=1, help="times each set-up runs, in turn with the others")
    parser.add_argument("--rounds", type=int, default=20, help="samples per battle, 1-battle scenarios")
    parser.add_argument("--big-rounds", type=int, default=5, help="samples per battle, many-battles scenarios")
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--skip-many", action="store_true", help="only the 1-battle scenarios")
    parser.add_argument("--skip-two-process", action="store_true")
    parser.add_argument("--skip-resolve", action="store_true", help="only the floors and the broadcasts (layers)")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/masscombat_bench")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
    reset_database(database)
    import redis as redis_client

    # Its own Redis database, emptied: group memberships of an earlier run's dead sockets would
    # otherwise receive (and slow) every broadcast until they expire.
    redis_client.Redis.from_url(redis).flushdb()
    static_root = tempfile.mkdtemp(prefix="masscombat-fanout-static-")
    # As bin/run serves (masscombat/core/serve_env.py): no DEBUG, plain HTTP, collected static files.
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis, "DEBUG": "0",
           "SECRET_KEY": secrets.token_urlsafe(50), "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
           "SECURE_HSTS_SECONDS": "0", "ALLOWED_HOSTS": "127.0.0.1", "STATIC_ROOT": static_root,
           "DJANGO_SETTINGS_MODULE": "masscombat.settings", "LOG_LEVEL": "WARNING"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                   cwd=ROOT, env=env, check=True)
    static_path = "/static/" + json.loads((Path(static_root) / "staticfiles.json").read_text())["paths"][
        "js/countdown.js"]
    os.environ.update(env)  # the same settings here: sessions are signed with SECRET_KEY
    world = build_world(args.battles, args.clients)
    broadcast_campaigns(world, args.battles, args.clients)
    from django.conf import settings

    servers = args.server or [asgi_server.DEFAULT]
    layers = args.layer or [settings.REDIS_CHANNEL_LAYER]
    print(f"7th Sea battles, {args.clients} clients per battle, PostgreSQL + Redis, DEBUG=0; servers "
          f"{', '.join(servers)}; layers {', '.join(layers)}; {args.repeat} time(s) each, in turn; "
          f"{os.cpu_count()} CPUs; {load_average()}", flush=True)
    results = Results()
    for _ in range(args.repeat):
        for server in servers:
            for layer in layers:
                run_setup(results, server, layer, env, world, static_path, args)
        for battles, rounds in waves(args):
            results.add(f"bare websockets, {battles} x {args.clients}", "floor",
                            asyncio.run(bare_scenario(battles, args.clients, rounds)))
    results.table()


if __name__ == "__main__":
    main()
