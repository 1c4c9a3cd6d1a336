"""Fixtures of the web application's tests.

When ``DATABASE_URL`` or ``REDIS_URL`` is set, the suite was told to use the
real services: a session fixture checks that they answer before any test
runs, and every test errors if they do not (a skipped run proves nothing).
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.test import Client

from masscombat.campaigns import services
from masscombat.campaigns.models import Campaign
from masscombat.core.permissions import Role

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def required_services():
    """Fail hard when a service the run was pointed at is unreachable."""
    if os.environ.get("DATABASE_URL"):
        import psycopg

        try:
            psycopg.connect(os.environ["DATABASE_URL"], connect_timeout=5).close()
        except psycopg.Error as exc:
            pytest.fail(f"DATABASE_URL is set but PostgreSQL is unreachable: {exc}", pytrace=False)
    if os.environ.get("REDIS_URL"):
        import redis

        try:
            redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=5).ping()
        except redis.RedisError as exc:
            pytest.fail(f"REDIS_URL is set but Redis is unreachable: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite the test database is a file, as the app's own database is, not Django's shared memory.

    In shared memory a connection meets another's write at once with "database
    table is locked": a test whose server threads (a socket rendering, the
    simulation dispatcher) read beside a write failed now and then under load.
    A file in write-ahead-log mode lets them read meanwhile and makes writers
    wait their turn (the settings' timeout), as in production.  It lies in
    shared memory when the machine has it (/dev/shm), one per test process.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3") and not database.get("TEST", {}).get("NAME"):
        folder = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path(tempfile.gettempdir())
        database.setdefault("TEST", {})["NAME"] = str(folder / f"masscombat-test-{os.getpid()}.sqlite3")


@pytest.fixture(autouse=True)
def _requests_keep_the_test_connection():
    """A request served in-process (WSGI or ASGI app called directly) leaves the test's connection open.

    Django closes a connection that is inside a transaction when a request ends;
    in a test that transaction is the test's own.  Django's test client turns
    this off for its requests; this does the same for every other caller.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets its own channel layer.

    channels-redis binds its receive lock to the event loop that took it; a
    test whose loop ended while a consumer was receiving would otherwise leave
    the next test a lock from a dead loop.
    """
    from channels.layers import channel_layers

    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Templates resolve static files from the source folders, without collectstatic."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashing costs a fifth of a second per user; tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttles(settings):
    """Rate limits count in the cache: each test starts from zero under a key prefix of its own.

    Not ``cache.clear()``: on Redis that empties the database the channel layer
    of every other test worker shares.
    """
    settings.CACHES = {
        alias: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"} for alias, config in settings.CACHES.items()
    }


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(
            username=username, password="correct horse battery", email=f"{username}@example.org", **extra
        )

    return make


@pytest.fixture
def gm(make_user):
    return make_user("gandalf", display_name="Gandalf")


@pytest.fixture
def player(make_user):
    return make_user("pippin", display_name="Pippin")


@pytest.fixture
def outsider(make_user):
    return make_user("saruman")


@pytest.fixture
def campaign(gm, player) -> Campaign:
    """A campaign with one GM and one player."""
    campaign = services.create_campaign(gm, name="War of the Ring", ruleset="dnd5e", description="Middle-earth.")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def client_for():
    """A test client logged in as the given user (or anonymous for None)."""

    def make(user) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def asgi_server(tmp_path):
    """Start the real ASGI server as ``bin/run`` does (``masscombat.server``) on a free port with its own
    SQLite file; returns its base URL.

    ``asgi_server(demo=True, DEBUG="0", ...)``: the keywords are environment
    variables (``DATABASE_URL`` and ``REDIS_URL`` too: none by default);
    ``demo`` loads the demo data first.  Collects static files when
    ``DEBUG=0`` (production serves only collected, hashed files).
    """
    from masscombat.server import DEFAULT, command

    started = []

    def start(demo: bool = False, **env) -> str:
        environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
        # Its own SQLite file unless DATABASE_URL is given (the fault tests point it at PostgreSQL).
        environment.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "STATIC_ROOT": str(tmp_path / "static"),
                            **env})
        manage = [sys.executable, str(ROOT / "manage.py")]
        steps = [["migrate", "--noinput"]]
        steps += [["demo"]] if demo else []
        steps += [["collectstatic", "--noinput"]] if env.get("DEBUG") == "0" else []
        for step in steps:
            subprocess.run([*manage, *step, "-v0"], cwd=ROOT, env=environment, check=True, timeout=300,
                           stdout=subprocess.DEVNULL)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        log_path = tmp_path / f"server-{port}.log"
        log = open(log_path, "wb")
        process = subprocess.Popen(command(DEFAULT, "127.0.0.1", port), cwd=ROOT, env=environment, stdout=log,
                                   stderr=subprocess.STDOUT)
        started.append((process, log))
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(base + "/", timeout=5).close()
                return base
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"{DEFAULT} exited: {log_path.read_text()}")
                time.sleep(0.3)
        pytest.fail(f"{DEFAULT} did not answer within 60 s")

    yield start
    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:  # a graceful stop waits for requests still running
            process.kill()
            process.wait(timeout=10)
        log.close()


@pytest.fixture
def daphne_server(asgi_server):
    """The old name of :func:`asgi_server`, kept for the tests that still ask for it (the server is uvicorn now)."""
    return asgi_server


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium under Playwright, one per test process, whichever folder's tests ask.

    Never ``playwright install``; a missing chromium fails the tests
    (``bin/setup --browser`` installs it).  Use it through the ``browser``
    fixture of ``tests/masscombat/browser/conftest.py``.
    """
    import shutil

    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("chromium is not installed: run bin/setup --browser", pytrace=False)
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # tests make between page actions are still plain synchronous ones.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture(autouse=True)
def _fresh_database_pool():
    """Each test ends by closing PostgreSQL's connection pool (the next one opens a new pool).

    A connection a thread took from the pool and never gave back (a test's own threads) is lost
    to the pool for good: ten of those and every later test of the worker waited 10 s for one.
    """
    yield
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.alias in getattr(connection, "_connection_pools", {}):
            connection.close_pool()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test ends in the default language: a French request (its middleware activates French in the
    thread and leaves it so) must not make a later test of the worker read French."""
    yield
    from django.utils import translation

    translation.deactivate()
