"""Reconnect soak: websocket clients drop and reconnect during a live battle; prints figures.

    .venv/bin/python benchmarks/reconnect_soak.py [--reconnects 1000] [--clients 4] [--kills 0]

Needs PostgreSQL and Redis on 127.0.0.1 (``SOAK_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/masscombat_soak``, dropped and created
again; ``SOAK_REDIS_URL``, default ``redis://127.0.0.1:6379/9``, emptied).  Two
server workers (``masscombat.server``, as ``bin/run`` serves) share them.
While the GM resolves and undoes rounds over HTTP
(each a battle event), ``--clients`` players' websockets connect to either
worker, say ``hello`` with the last event they hold, linger a random moment
(sometimes leaving in the middle of the catch-up) and drop, abruptly or
cleanly, until ``--reconnects`` reconnections are spent.  ``--kills N`` also
SIGKILLs a worker N times right after a resolve was posted to the other one
(in the middle of its broadcast) and starts a replacement.

Each client keeps the events it receives as battle.js does (an event whose
number it already passed is dropped).  At the end each reconnects once more
and the run checks that every client holds exactly the events the database
says it may see, each once and in order.  Exit status 1 if any does not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.live_fanout import build_world, percentile, post, reset_database, start_daphne, stop  # noqa: E402


@dataclass
class SoakClient:
    name: str
    session: str
    last: int = 0
    accepted: list[int] = field(default_factory=list)
    duplicates: int = 0
    reloads: int = 0
    refused: int = 0
    connections: int = 0
    catch_up: list[float] = field(default_factory=list)

    async def visit(self, port: int, battle_id: int, *, linger: float, leave_early: bool) -> None:
        """One connection: hello, the catch-up, a moment of live events, then a drop."""
        from websockets.asyncio.client import connect

        try:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/battles/{battle_id}/", open_timeout=10,
                               additional_headers={"Cookie": f"sessionid={self.session}",
                                                   "Origin": f"http://127.0.0.1:{port}"})
        except (OSError, asyncio.TimeoutError, Exception):  # noqa: BLE001 - a worker killed or starting
            self.refused += 1
            await asyncio.sleep(0.1)
            return
        self.connections += 1
        started = time.perf_counter()
        leave_at = None
        try:
            await ws.send(json.dumps({"type": "hello", "last_seq": self.last}))
            while True:
                timeout = 10 if leave_at is None else leave_at - time.perf_counter()
                if timeout <= 0:
                    break
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                if message["type"] == "ready":
                    self.catch_up.append(time.perf_counter() - started)
                    leave_at = time.perf_counter() + linger
                elif message["type"] == "reload":
                    self.reloads += 1
                    break
                elif message["type"] == "event":
                    if message["seq"] <= self.last:
                        self.duplicates += 1
                    else:
                        self.accepted.append(message["seq"])
                        self.last = message["seq"]
                    if leave_early:
                        break
        except Exception:  # noqa: BLE001 - the worker died under us: reconnect, as battle.js does
            pass
        finally:
            if random.random() < 0.5:
                ws.transport.abort()  # the network went away: no closing handshake
            else:
                await ws.close()


async def soak(ports: list[int], env: dict, world: dict, args) -> dict:
    battle_id = world["battles"][0]
    clients = [SoakClient(f"player{i}", session) for i, session in enumerate(world["players"][: args.clients])]
    budget = [args.reconnects]
    done = asyncio.Event()
    figures = {"resolves": 0, "kills": 0, "posts_failed": 0}
    workers = list(ports)  # (process, port) pairs are in env["_workers"]

    async def drive() -> None:
        """The GM resolves and undoes round 1 on either worker; sometimes kills the other one."""
        kills_left = args.kills
        while not done.is_set():
            alive = [port for _process, port in env["_workers"]]
            port = random.choice(alive)
            for path in ("resolve", "undo"):
                try:
                    status = await post(port, f"/battles/{battle_id}/{path}/", world["gm"], "round=1")
                except OSError:
                    status = 0
                if status != 302:
                    figures["posts_failed"] += 1
                if path == "resolve":
                    figures["resolves"] += 1
                    if kills_left and len(env["_workers"]) > 1 and figures["resolves"] % 25 == 0:
                        await kill_other(port)
                        kills_left -= 1
            await asyncio.sleep(0.01)

    async def kill_other(spared: int) -> None:
        victim = next(pair for pair in env["_workers"] if pair[1] != spared)
        victim[0].send_signal(signal.SIGKILL)  # in the middle of the broadcast just posted
        victim[0].wait()
        env["_workers"].remove(victim)
        figures["kills"] += 1
        replacement = await asyncio.to_thread(start_daphne, env["_server_env"])
        env["_workers"].append(replacement)

    async def run_client(client: SoakClient) -> None:
        # Past the reconnect budget too until the kills asked for have happened: a faster server
        # (pooled connections) spent the budget before the GM's 50th resolution, so no second kill.
        while budget[0] > 0 or figures["kills"] < args.kills:
            budget[0] -= 1
            port = random.choice([port for _process, port in env["_workers"]])
            await client.visit(port, battle_id, linger=random.uniform(0, args.max_linger),
                               leave_early=random.random() < 0.2)

    started = time.perf_counter()
    driver = asyncio.create_task(drive())
    await asyncio.gather(*(run_client(client) for client in clients))
    done.set()
    await driver
    await asyncio.sleep(0.5)  # the last broadcasts land
    for client in clients:  # one last visit each: catch up on everything
        while True:
            port = random.choice([port for _process, port in env["_workers"]])
            before = client.connections
            await client.visit(port, battle_id, linger=0.2, leave_early=False)
            if client.connections > before:
                break
    figures["seconds"] = time.perf_counter() - started
    figures["clients"] = clients
    return figures


def visible_events(world: dict, clients: list[SoakClient]) -> dict[str, list[int]]:
    """What the database says each client may see, in order."""
    from masscombat.accounts.models import User
    from masscombat.battles import selectors
    from masscombat.battles.models import BattleEvent
    from masscombat.core.permissions import Action

    battle_id = world["battles"][0]
    expected = {}
    for index, client in enumerate(clients):
        user = User.objects.get(username=f"bench-p{index}")
        audiences = selectors.viewer(user, Action.BATTLE_VIEW, battle_id).audiences
        expected[client.name] = list(
            BattleEvent.objects.filter(battle_id=battle_id, audience__in=audiences).order_by("seq")
            .values_list("seq", flat=True))
    return expected


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reconnects", type=int, default=1000, help="reconnections, all clients together")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--kills", type=int, default=0, help="workers SIGKILLed in the middle of a broadcast")
    parser.add_argument("--max-linger", type=float, default=0.05, help="seconds a client stays after its catch-up")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    random.seed(args.seed)
    database = os.environ.get("SOAK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/masscombat_soak")
    redis_url = os.environ.get("SOAK_REDIS_URL", "redis://127.0.0.1:6379/9")
    reset_database(database)
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    server_env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis_url, "DEBUG": "1",
                  "DJANGO_SETTINGS_MODULE": "masscombat.settings", "LOG_LEVEL": "ERROR"}
    os.environ.update({k: server_env[k] for k in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")})
    world = build_world(1, max(args.clients, 2))
    env = {"_server_env": server_env, "_workers": [start_daphne(server_env), start_daphne(server_env)]}
    try:
        figures = asyncio.run(soak([port for _p, port in env["_workers"]], env, world, args))
    finally:
        for process, _port in env["_workers"]:
            stop(process)
    clients: list[SoakClient] = figures["clients"]
    expected = visible_events(world, clients)
    catch_up = [s * 1000 for c in clients for s in c.catch_up]
    reconnects = sum(c.connections for c in clients) - len(clients)
    print(f"reconnect soak: 2 server workers, Redis channel layer, PostgreSQL; {len(clients)} clients, "
          f"{figures['seconds']:.1f} s")
    print(f"  reconnections survived  {reconnects} (refused while a worker was down: {sum(c.refused for c in clients)})")
    print(f"  workers killed mid-broadcast  {figures['kills']}; GM resolutions {figures['resolves']}, "
          f"posts failed {figures['posts_failed']}")
    print(f"  catch-up (connect to ready)  median {statistics.median(catch_up):.1f} ms, "
          f"p95 {percentile(catch_up, 0.95):.1f} ms, max {max(catch_up):.1f} ms")
    print(f"  duplicates dropped by number  {sum(c.duplicates for c in clients)}; reloads asked "
          f"{sum(c.reloads for c in clients)}")
    failed = False
    for client in clients:
        ok = client.accepted == expected[client.name]
        failed = failed or not ok
        print(f"  {client.name}: {len(client.accepted)} events, "
              + ("every event exactly once, in order" if ok else
                 f"MISMATCH: missing {sorted(set(expected[client.name]) - set(client.accepted))[:10]}, "
                 f"unexpected {sorted(set(client.accepted) - set(expected[client.name]))[:10]}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
