"""Room redraw: from the GM's resolve request to the last client having the new HTML of every part; prints figures.

    .venv/bin/python benchmarks/room_redraw.py [--rounds 10] [--clients 8] [--many] [--battles 50]

What a player sees after the GM resolves a round is not the websocket event but
the parts of the room redrawn after it.  This starts the server as ``bin/run``
serves it (``DEBUG=0``, collected static files, PostgreSQL, Redis channel layer
and cache), loads ``manage.py demo`` and, for the D&D 5e and SYNAPSE demo
battles, connects N clients per battle (the two demo players' sessions,
alternately, so both sides are watched).  Each client opens the room once
(in French, as the demo's players read it) and follows its socket as
``static/js/battle.js`` does, whichever way the server redraws the room:

- pushed parts (this code base): each event names the parts it redraws
  (``refresh``) and the socket sends their HTML in ``parts`` frames (gzipped
  JSON, as the page asks); a part named in a ``fetch`` message is asked for by
  GET, as the page does;
- parts reloaded by the page (the code before, for the "before" figures): each
  client reads from the room which parts follow which event
  (``hx-trigger="battle-round from:body"`` / ``"battle-changed from:body"``)
  and reloads them as htmx does (``hx-sync="this:queue last"``), with
  ``HX-Request`` and ``Accept-Encoding: gzip``.

One sample per resolution: from sending ``POST /battles/<id>/resolve/`` to the
moment the last client has the new HTML of every part the round redraws (a
frame, or the answer to a request sent after the event).  The GM then undoes
the round (so the same battle resolves again) and everything settles before the
next sample.  Beside the times: bytes per client per resolved round (websocket
frames as sent, and part answers after their headers), the server's CPU time
per resolve + undo (on a shared machine it varies far less than the times), a
count of websocket connections that failed (each retried; never an abort) and
of clients never redrawn, and the load average.  Printed beside them, measured
in the same run on the same machine:

- the floor of the event alone: a bare ``websockets`` broadcast of one message
  to the battle's N clients (``benchmarks/live_fanout.py``'s);
- the floor of a request: a static 2 KB file (``js/countdown.js``) served by
  the same server to N clients at once, per request.

``--many`` adds ``--battles`` battles x N clients resolved in one wave (heavy:
minutes on 2 cores).  ``BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/masscombat_room_bench``) is dropped and
created again, ``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/6``) emptied.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_fanout import (  # noqa: E402  (a sibling script, found through the path above)
    CSRF, WAIT, Client, bare_scenario, figures, percentile, post, reset_database, start_daphne, stop,
)

# The events whose parts battle.js had reloaded before the parts were pushed (its ROUND_KINDS then).
ROUND_KINDS = {"round_resolved", "round_undone", "status", "created", "placed"}
RULESETS = ("dnd5e", "synapse")
STATIC_FILE = "js/countdown.js"  # 2.2 KB


# ---------------------------------------------------------------- setup (Django ORM, this process)

def build_world(battles: int, clients: int) -> dict:
    """``manage.py demo``, ``battles`` copies of the D&D 5e and SYNAPSE demo battles, one session per client."""
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client as TestClient
    from django.core.management import call_command

    from masscombat.accounts.models import User
    from masscombat import games
    from masscombat.games.dnd5e import demo as demo_dnd5e
    from masscombat.games.synapse import demo as demo_synapse
    from masscombat.campaigns.models import Campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    call_command("demo", verbosity=0, stdout=open(os.devnull, "w"))
    gm = User.objects.get(username="demo-gm")
    players = [User.objects.get(username=name) for name in ("demo-player1", "demo-player2")]
    ids = {}
    for ruleset in RULESETS:
        campaign = Campaign.objects.get(ruleset=ruleset, memberships__user=gm)
        found = []
        for index in range(battles):
            # The demo loaders find their battle by name: another name makes another battle.
            (demo_dnd5e if ruleset == "dnd5e" else demo_synapse).BATTLE_NAME = f"Bench {index}"
            found.append(games.demo_battle(campaign, gm, players).pk)
        ids[ruleset] = found

    def session(user) -> str:
        client = TestClient()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    return {"battles": ids, "gm": session(gm), "players": [session(players[i % 2]) for i in range(clients)]}


# ---------------------------------------------------------------- HTTP, as a browser's htmx asks

async def get(port: int, path: str, session: str, *, htmx: bool = False, compressed: bool = True,
              language: str = "fr") -> tuple[int, int, bytes]:
    """A bare HTTP/1.1 GET: (status, bytes on the wire after the headers, body as sent)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
               f"Accept-Language: {language}"]
    if session:
        headers.append(f"Cookie: sessionid={session}; csrftoken={CSRF}")
    if compressed:
        headers.append("Accept-Encoding: gzip, deflate, br")
    if htmx:
        headers.append("HX-Request: true")
    writer.write(("\r\n".join(headers) + "\r\n\r\n").encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    body = await reader.read()
    writer.close()
    return status, len(body), body


@dataclass
class Part:
    """One part of one client's room: when it last got new HTML (a pushed frame, or a reload's answer)."""

    path: str
    loading: bool = False
    again: bool = False
    done: list = field(default_factory=list)  # (asked or pushed at, had it at), each time it got HTML


FAILED_CONNECTS = [0]  # websocket connections refused, reset or timed out (each retried)


class Room(Client):
    """One client's room: its websocket, read as battle.js reads it (binary gzipped frames too), and its parts."""

    def __init__(self, port: int, session: str, parts: dict[str, Part], reloads: dict[str, list[str]]):
        super().__init__(None, session[:8])
        self.port, self.session, self.parts, self.reloads = port, session, parts, reloads
        self.pushed = not reloads  # parts pushed by the socket, else reloaded by the page (the code before)
        self.bytes: dict[int, int] = {}  # by the event they follow: its frames, and the answers it made asked
        self.heard = 0  # the number of the last event heard
        self.failed = 0
        self.expected: dict[int, list[str]] = {}  # event number: the parts it redraws
        self.tasks: set[asyncio.Task] = set()

    async def connect(self, battle_id: int, language: str, attempts: int = 8) -> None:
        from websockets.asyncio.client import connect

        for attempt in range(attempts):
            try:
                self.socket = await connect(
                    f"ws://127.0.0.1:{self.port}/ws/battles/{battle_id}/", max_size=2**22, open_timeout=30,
                    additional_headers={"Cookie": f"sessionid={self.session}", "Origin": f"http://127.0.0.1:{self.port}"})
                break
            except Exception:  # noqa: BLE001 - refused, reset, timed out, 5xx: counted, tried again
                FAILED_CONNECTS[0] += 1
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
        self.reader = asyncio.get_running_loop().create_task(self.read())
        await self.socket.send(json.dumps({"type": "hello", "last_seq": 0, "lang": language, "gzip": True}))
        await self.first(lambda m: m.get("type") in ("ready", "reload"), 0)

    async def read(self) -> None:
        async for raw in self.socket:
            message = json.loads(gzip.decompress(raw) if isinstance(raw, bytes) else raw)
            if message.get("type") == "event":
                self.heard = message["seq"]
            seq = message.get("seq", self.heard) if message.get("type") in ("event", "parts", "fetch") else self.heard
            self.bytes[seq] = self.bytes.get(seq, 0) + len(raw)
            message["at"] = time.perf_counter()
            self.events.append(message)
            self.arrived.set()
            self.follow(message)

    def follow(self, message: dict) -> None:
        """What battle.js does with a message: swap pushed parts, ask for the others, or reload them."""
        kind = message.get("type")
        if kind == "parts":
            for name in message["html"]:
                if name in self.parts:
                    self.parts[name].done.append((message["at"], message["at"]))
        elif kind == "fetch":
            for name in message["parts"]:
                self.reload(self.parts[name])
        elif kind == "event" and not self.pushed:
            triggers = ["battle-changed"] + (["battle-round"] if message.get("kind") in ROUND_KINDS else [])
            for trigger in triggers:
                for name in self.reloads.get(trigger, []):
                    self.reload(self.parts[name])

    def settled(self) -> bool:
        return not any(part.loading for part in self.parts.values())

    def reload(self, part: Part) -> None:
        if part.loading:
            part.again = True
            return
        part.loading = True
        task = asyncio.get_running_loop().create_task(self._load(part))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _load(self, part: Part) -> None:
        while True:
            part.again = False
            sent, asked_after = time.perf_counter(), self.heard
            status, size, _ = await get(self.port, part.path, self.session, htmx=True)
            if status != 200:
                self.failed += 1
            self.bytes[asked_after] = self.bytes.get(asked_after, 0) + size
            part.done.append((sent, time.perf_counter()))
            if not part.again:
                break
        part.loading = False

    def redrawn_after(self, event: dict) -> float | None:
        """When every part this event redraws had new HTML (asked or pushed after it); None: not yet."""
        names = [name for name in event["refresh"] if name in self.parts] if self.pushed else list(self.parts)
        ends = []
        for name in names:
            after = [end for sent, end in self.parts[name].done if sent >= event["at"]]
            if not after:
                return None
            ends.append(min(after))
        return max(ends, default=event["at"])


SECTION = re.compile(r'<section id="[^"]+"([^>]*)>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


async def open_room(port: int, battle_id: int, session: str, language: str = "fr") -> Room:
    status, _, body = await get(port, f"/battles/{battle_id}/", session, compressed=False, language=language)
    if status != 200:
        raise SystemExit(f"the room answered {status}")
    parts: dict[str, Part] = {}
    reloads: dict[str, list[str]] = {}
    for attributes in SECTION.findall(body.decode()):
        found = dict(ATTRIBUTE.findall(attributes))
        if "hx-get" not in found:
            continue
        name = found.get("data-part") or found["hx-get"].rstrip("/").rsplit("/", 1)[-1]
        parts[name] = Part(found["hx-get"].replace("&amp;", "&"))
        for event in ("battle-changed", "battle-round"):  # the code before: the page reloads its parts
            if f"{event} from:body" in found.get("hx-trigger", ""):
                reloads.setdefault(event, []).append(name)
    room = Room(port, session, parts, reloads)
    await room.connect(battle_id, re.search(r'<html lang="([^"]+)"', body.decode()).group(1))
    return room


async def settle(rooms: list[Room]) -> None:
    deadline = time.perf_counter() + WAIT
    while not all(room.settled() for room in rooms):
        if time.perf_counter() > deadline:
            raise SystemExit("parts still loading after a minute")
        await asyncio.sleep(0.01)


@dataclass
class Result:
    samples: list = field(default_factory=list)  # resolve -> last client redrawn
    gm: list = field(default_factory=list)  # the GM's resolve POST and room
    bytes: list = field(default_factory=list)  # per client per resolved round
    missed: int = 0  # clients never redrawn within WAIT (their resolution has no sample)


async def play(port: int, battle_id: int, rooms: list[Room], gm: str, rounds: int, result: Result) -> None:
    """Resolve round 1 and undo it, ``rounds`` times: one sample per resolution."""
    for _ in range(rounds):
        await settle(rooms)
        marks = [len(room.events) for room in rooms]
        started = time.perf_counter()
        status = await post(port, f"/battles/{battle_id}/resolve/", gm, "round=1&confirm_missing=1")
        if status != 302:
            raise SystemExit(f"resolve answered {status}")
        await get(port, f"/battles/{battle_id}/", gm)  # the GM's browser follows the redirect
        result.gm.append(time.perf_counter() - started)
        try:
            events = await asyncio.gather(*(room.first(lambda m: m.get("kind") == "round_resolved", mark)
                                            for room, mark in zip(rooms, marks)))
        except TimeoutError:
            result.missed += len(rooms)
            events = None
        deadline = time.perf_counter() + WAIT
        while events is not None:
            ends = [room.redrawn_after(event) for room, event in zip(rooms, events)]
            if all(end is not None for end in ends):
                result.samples.append(max(ends) - started)
                break
            if time.perf_counter() > deadline:
                result.missed += sum(end is None for end in ends)
                break
            await asyncio.sleep(0.002)
        await settle(rooms)
        marks = [len(room.events) for room in rooms]
        if await post(port, f"/battles/{battle_id}/undo/", gm, "round=1") != 302:
            raise SystemExit("undo failed")
        try:
            undone = await asyncio.gather(*(room.first(lambda m: m.get("kind") == "round_undone", mark)
                                            for room, mark in zip(rooms, marks)))
        except TimeoutError:
            result.missed += len(rooms)
            undone = None
        if events is not None and undone is not None:  # what the round's events brought, up to the undo
            result.bytes.extend(sum(size for seq, size in room.bytes.items() if resolved["seq"] <= seq < back["seq"])
                                for room, resolved, back in zip(rooms, events, undone))
        await settle(rooms)


async def room_scenario(port: int, world: dict, ruleset: str, battles: int, clients: int, rounds: int) -> dict:
    FAILED_CONNECTS[0] = 0
    chosen = world["battles"][ruleset][:battles]
    rooms = {battle_id: list(await asyncio.gather(*(open_room(port, battle_id, world["players"][i])
                                                    for i in range(clients))))
             for battle_id in chosen}
    await play(port, chosen[0], rooms[chosen[0]], world["gm"], 1, Result())  # warm-up, not counted
    result = Result()
    await asyncio.gather(*(play(port, battle_id, rooms[battle_id], world["gm"], rounds, result)
                           for battle_id in chosen))
    first = rooms[chosen[0]][0]
    out = {"result": result, "failed_parts": sum(room.failed for group in rooms.values() for room in group),
           "failed_connects": FAILED_CONNECTS[0], "parts": len(first.parts), "pushed": first.pushed}
    for group in rooms.values():
        for room in group:
            room.reader.cancel()
            await room.socket.close()
    return out


async def static_floor(port: int, path: str, clients: int, requests: int) -> list[float]:
    """Per-request time of ``path`` with ``clients`` asking at once, ``requests`` each."""
    samples: list[float] = []

    async def one_client() -> None:
        for _ in range(requests):
            started = time.perf_counter()
            status, _, _ = await get(port, path, "", compressed=False)
            samples.append(time.perf_counter() - started)
            if status != 200:
                raise SystemExit(f"static file answered {status}")

    await asyncio.gather(*(one_client() for _ in range(clients)))
    return samples


def cpu_seconds(process: subprocess.Popen) -> float:
    """User + system CPU the server has used so far: what a round costs it, whatever else the machine runs."""
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ratio(label: str, samples: list[float], floor: list[float]) -> str:
    if not samples:
        return f"  {label}: no sample"
    return (f"  {label}: median x{statistics.median(samples) / statistics.median(floor):.0f}, "
            f"p95 x{percentile(samples, 0.95) / percentile(floor, 0.95):.0f}")


# ---------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10, help="resolutions per battle, 1-battle scenario")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--many", action="store_true", help="also --battles battles resolved in one wave (heavy)")
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--big-rounds", type=int, default=3, help="resolutions per battle, many-battles scenario")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/masscombat_room_bench")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
    reset_database(database)
    import redis as redis_client

    redis_client.Redis.from_url(redis).flushdb()  # no dead sockets' groups nor cached answers of an earlier run
    static_root = tempfile.mkdtemp(prefix="masscombat-room-static-")
    # As bin/run serves (masscombat/core/serve_env.py): no DEBUG, plain HTTP, collected static files.
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis, "DEBUG": "0",
           "SECRET_KEY": secrets.token_urlsafe(50), "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
           "SECURE_HSTS_SECONDS": "0", "ALLOWED_HOSTS": "127.0.0.1", "STATIC_ROOT": static_root,
           "DJANGO_SETTINGS_MODULE": "masscombat.settings", "LOG_LEVEL": "WARNING"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                   cwd=ROOT, env=env, check=True)
    static_path = "/static/" + json.loads((Path(static_root) / "staticfiles.json").read_text())["paths"][STATIC_FILE]
    # The same settings here (sessions are signed with SECRET_KEY), the demo's mails not printed.
    os.environ.update({**env, "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"})
    world = build_world(args.battles if args.many else 1, args.clients)
    print(f"1 server process (DEBUG=0) + Redis + PostgreSQL, demo battles, {args.clients} clients per battle; "
          f"{os.cpu_count()} CPUs, shared with whatever else runs; {load_average()}")

    waves = [(1, args.rounds)] + ([(args.battles, args.big_rounds)] if args.many else [])
    server, port = start_daphne(env)
    try:
        for battles, rounds in waves:
            static = asyncio.run(static_floor(port, static_path, args.clients, 25))
            bare = asyncio.run(bare_scenario(battles, args.clients, rounds * 2))
            print(figures(f"floor: static 2 KB, {args.clients} at once", static))
            print(figures(f"floor: bare websockets, {battles} x {args.clients}", bare))
            for ruleset in RULESETS:
                cpu = cpu_seconds(server)
                out = asyncio.run(room_scenario(port, world, ruleset, battles, args.clients, rounds))
                cpu = (cpu_seconds(server) - cpu) / (battles * rounds + 1)  # the warm-up round included
                result = out["result"]
                how = "pushed" if out["pushed"] else "reloaded"
                label = f"{ruleset}, {battles} x {args.clients}, {out['parts']} parts {how}"
                print(figures(f"{label}: resolve -> last redrawn", result.samples or [float("nan")]))
                print(figures(f"{ruleset}, {battles} x {args.clients}: GM's POST + room", result.gm))
                print(ratio("x static floor", result.samples, static) + "  "
                      + ratio("x websockets floor", result.samples, bare).strip()
                      + f"  bytes per client per round: {statistics.median(result.bytes or [0]):.0f}"
                      + f"  server CPU per resolve + undo: {cpu * 1000:.0f} ms")
                print(f"  failed websocket connections: {out['failed_connects']}  clients never redrawn: "
                      f"{result.missed}  part requests failed: {out['failed_parts']}  {load_average()}", flush=True)
    finally:
        stop(server)


def load_average() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
