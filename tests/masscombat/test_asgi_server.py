"""The real ASGI server (daphne) serves pages and static files, in development and production mode.

Each case starts ``daphne masscombat.asgi:application`` on a free local port
with its own SQLite file, as ``bin/run`` and the container do.
"""

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(**env) -> str:
        environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
        environment.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", STATIC_ROOT=str(tmp_path / "static"), **env)
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=environment, check=True, timeout=300)
        if env.get("DEBUG") == "0":  # development serves the source folders directly
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=environment, check=True, timeout=300)
        port = free_port()
        process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "masscombat.asgi:application"],
            cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                get(base + "/")
                return base
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"daphne exited: {process.stderr.read().decode()}")
                time.sleep(0.3)
        pytest.fail("daphne did not answer within 60 s")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


def static_urls(page: bytes) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())


def test_development_mode_serves_static_from_the_sources(serve):
    base = serve(DEBUG="1")
    status, _, page = get(base + "/")
    assert status == 200
    urls = static_urls(page)
    assert "/static/css/app.css" in urls and "/static/vendor/htmx-2.0.11.min.js" in urls
    for url in urls:
        assert get(base + url)[0] == 200


def test_production_mode_serves_hashed_compressed_static(serve):
    base = serve(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
                 SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_HSTS_SECONDS="0")
    status, _, page = get(base + "/")
    assert status == 200
    urls = static_urls(page)
    css = next(url for url in urls if url.startswith("/static/css/app."))
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", css)
    status, headers, _ = get(base + css)
    assert status == 200 and "immutable" in headers.get("Cache-Control", "")
    request = urllib.request.Request(base + css, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers.get("Content-Encoding") == "gzip"
