"""What a player's room costs in bytes on a phone: the first load, then each resolved round; prints figures.

    .venv/bin/python benchmarks/room_bytes.py [--rounds 3] [--server uvicorn] [--ruleset dnd5e ...]

The app is served as ``bin/run`` serves it (``masscombat.server``, ``DEBUG=0``,
collected static files, compression on; SQLite and the in-memory layer: bytes
do not depend on them) with ``manage.py demo``.  Debian's chromium (through
Playwright, a 390x844 phone in French) reaches it through a small TCP proxy
that counts every byte the server sends to the browser: headers, compressed
bodies, websocket frames as deflated on the wire.  For each demo battle the
first demo player, logged in beforehand, opens the room with an empty cache
(no service worker: a phone on ``http://`` to a LAN address gets none) and the
proxy counts until the page has been quiet for a second: the first load, split
by kind (HTML, CSS, JavaScript, other) from the browser's own sizes of the
encoded bodies.  Then the GM resolves round 1 (over HTTP, not through the
proxy) and the bytes the player's page takes until quiet again are one
resolved round; the GM undoes it (not counted) and resolves again,
``--rounds`` times.  Targets of issue #20: at most 60 KB on first load and
8 KB per resolved round.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_fanout import free_port, load_average, post, start_server, stop  # noqa: E402  (a sibling script)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
QUIET = 1.0  # seconds without a byte: the page is done
KINDS = (("html", "text/html"), ("css", "text/css"), ("js", "javascript"))


class CountingProxy:
    """TCP proxy to the server on its own thread: counts what goes back to the browser."""

    def __init__(self, upstream: int):
        self.upstream, self.port, self.down, self.last = upstream, free_port(), 0, time.monotonic()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", self.port))
        ready.set()
        self.loop.run_forever()

    async def _connection(self, client_reader, client_writer) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        await asyncio.gather(self._pipe(client_reader, server_writer, False),
                             self._pipe(server_reader, client_writer, True), return_exceptions=True)

    async def _pipe(self, reader, writer, counted: bool) -> None:
        try:
            while data := await reader.read(65536):
                if counted:
                    self.down += len(data)
                    self.last = time.monotonic()
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    def until_quiet(self, since: int, timeout: float = 60) -> int:
        """Bytes sent after ``since`` once nothing has come for ``QUIET`` seconds (and something came)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.down > since and time.monotonic() - self.last >= QUIET:
                return self.down - since
            time.sleep(0.05)
        raise SystemExit("the page never went quiet")


def demo_battles(rulesets: list[str]) -> dict[str, int]:
    from masscombat.battles.models import Battle

    found = {}
    for ruleset in rulesets:
        battle = Battle.objects.filter(campaign__ruleset=ruleset).order_by("pk").first()
        if battle is None:
            raise SystemExit(f"no demo battle for {ruleset}")
        found[ruleset] = battle.pk
    return found


def session_of(username: str) -> str:
    from django.conf import settings
    from django.test import Client

    from masscombat.accounts.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def gm_posts(port: int, path: str, session: str, body: str) -> int:
    """The GM's POST, straight to the server, from a thread of its own (Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, post(port, path, session, body)).result()


def first_load(browser, base: str, path: str, cookie: str, proxy: CountingProxy):
    """(page, context, total bytes, bytes by kind) of opening ``path`` with an empty cache."""
    context = browser.new_context(locale="fr-FR", service_workers="block", **PHONE)
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    before = proxy.down
    page.goto(base + path)
    page.wait_for_load_state("networkidle")
    total = proxy.until_quiet(before)
    by_kind = dict.fromkeys([kind for kind, _ in KINDS] + ["other"], 0)
    files = []
    for response in responses:
        kind = next((kind for kind, marker in KINDS if marker in (response.headers.get("content-type") or "")), "other")
        sizes = response.request.sizes()
        by_kind[kind] += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        files.append((sizes["responseBodySize"], sizes["responseHeadersSize"],
                      response.headers.get("content-encoding", "-"), response.url.removeprefix(base)))
    return page, context, total, by_kind, files


def main() -> None:
    from masscombat import server as asgi_server

    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--server", choices=asgi_server.SERVERS, default=asgi_server.DEFAULT)
    parser.add_argument("--ruleset", action="append", help="default: the five demo battles")
    parser.add_argument("--files", action="store_true",
                        help="also each file of the first load: encoded body and headers sizes")
    args = parser.parse_args()
    rulesets = args.ruleset or ["dnd5e", "synapse", "seventh_sea", "heros", "jdrwiki"]

    work = tempfile.mkdtemp(prefix="masscombat-room-bytes-")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"DATABASE_URL": f"sqlite:///{work}/db.sqlite3", "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
                "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "SECURE_HSTS_SECONDS": "0",
                "ALLOWED_HOSTS": "127.0.0.1", "STATIC_ROOT": f"{work}/static", "LOG_LEVEL": "WARNING",
                "DJANGO_SETTINGS_MODULE": "masscombat.settings",
                "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"})
    for step in (["migrate"], ["demo"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *step, "-v0"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    os.environ.update(env)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop runs in this thread, beside the ORM
    import django

    django.setup()
    battles = demo_battles(rulesets)
    player, gm = session_of("demo-player1"), session_of("demo-gm")

    import shutil

    from playwright.sync_api import sync_playwright

    server, port = start_server(env, args.server)
    proxy = CountingProxy(port)
    base = f"http://127.0.0.1:{proxy.port}"
    print(f"a player's room on a phone (fr), {args.server}, DEBUG=0, compressed as served; "
          f"{os.cpu_count()} CPUs; {load_average()}")
    print(f"{'battle':<14}{'first load':>12}{'html':>9}{'css':>9}{'js':>9}{'other':>9}{'per round':>11}  (bytes)")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=["--headless", "--no-sandbox", "--disable-gpu"])
            for ruleset, battle_id in battles.items():
                _page, context, total, by_kind, files = first_load(browser, base, f"/battles/{battle_id}/", player,
                                                                   proxy)
                rounds = []
                for _ in range(args.rounds):
                    before = proxy.down
                    if gm_posts(port, f"/battles/{battle_id}/resolve/", gm, "round=1&confirm_missing=1") != 302:
                        raise SystemExit("resolve failed")
                    rounds.append(proxy.until_quiet(before))
                    before = proxy.down
                    if gm_posts(port, f"/battles/{battle_id}/undo/", gm, "round=1") != 302:
                        raise SystemExit("undo failed")
                    proxy.until_quiet(before)
                context.close()
                print(f"{ruleset:<14}{total:>12,}" + "".join(f"{by_kind[kind]:>9,}" for kind in by_kind)
                      + f"{statistics.median(rounds):>11,.0f}", flush=True)
                if args.files:
                    for size, headers, encoding, url in sorted(files, reverse=True):
                        print(f"  {size:>9,} + {headers:>5,} headers  {encoding:<6} {url}")
            browser.close()
    finally:
        stop(server)
    print(f"targets: first load <= 61,440, per round <= 8,192; {load_average()}")


if __name__ == "__main__":
    main()
