"""Stopping and starting the real PostgreSQL and Redis the suite was pointed at.

The cluster is the one listening on ``DATABASE_URL``'s port (``pg_lsclusters``),
restarted with ``pg_ctlcluster``; Redis is the server on ``REDIS_URL``'s port,
stopped with ``redis-cli shutdown nosave`` and started again with the options CI
uses.  Every helper raises when a command fails or a service does not come
back: a fault test that cannot make its fault must fail, not pass.
"""

import os
import subprocess
import time
from urllib.parse import urlsplit

import psycopg
import pytest
import redis

REDIS_DIR = os.environ.get("FAULT_REDIS_DIR", "/var/lib/redis")
REDIS_LOG = "/var/log/redis/ci.log"


def required() -> tuple[str, str]:
    """(DATABASE_URL, REDIS_URL) of the services pass; skip on the embedded defaults."""
    database, channel = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not (database.startswith("postgres") and channel):
        pytest.skip("needs PostgreSQL and Redis: run by bin/test's service-fault pass")
    return database, channel


def _run(*command: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stdout}{result.stderr}")
    return result.stdout


def pg_cluster(database_url: str) -> tuple[str, str]:
    """(version, name) of the local cluster serving ``database_url``."""
    port = str(urlsplit(database_url).port or 5432)
    for line in _run("pg_lsclusters", "--no-header").splitlines():
        version, name, cluster_port, *_rest = line.split()
        if cluster_port == port:
            return version, name
    raise RuntimeError(f"no local PostgreSQL cluster listens on port {port}")


def pg_ctl(database_url: str, action: str) -> None:
    version, name = pg_cluster(database_url)
    extra = ["-m", "fast"] if action in ("stop", "restart") else []
    _run("pg_ctlcluster", "--skip-systemctl-redirect", version, name, action, *extra)


def pg_up(database_url: str) -> bool:
    try:
        psycopg.connect(database_url, connect_timeout=2).close()
        return True
    except psycopg.Error:
        return False


def pg_start(database_url: str) -> None:
    if not pg_up(database_url):
        if pg_cluster_status(database_url) != "online":
            pg_ctl(database_url, "start")
        wait_for(lambda: pg_up(database_url), "PostgreSQL to accept connections")


def pg_cluster_status(database_url: str) -> str:
    version, name = pg_cluster(database_url)
    line = _run("pg_lsclusters", "--no-header", version, name)
    return line.split()[3]


def redis_up(redis_url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(redis_url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def redis_stop(redis_url: str) -> None:
    port = str(urlsplit(redis_url).port or 6379)
    subprocess.run(["redis-cli", "-p", port, "shutdown", "nosave"], capture_output=True, timeout=30)
    wait_for(lambda: not redis_up(redis_url), "Redis to stop")


def redis_start(redis_url: str) -> None:
    if redis_up(redis_url):
        return
    port = str(urlsplit(redis_url).port or 6379)
    _run("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", port, "--save", "",
         "--appendonly", "no", "--dir", REDIS_DIR, "--logfile", REDIS_LOG)
    wait_for(lambda: redis_up(redis_url), "Redis to answer")


def wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise RuntimeError(f"gave up waiting for {what} after {timeout} s")


def sibling_database_url(database_url: str, name: str) -> str:
    """The URL of database ``name`` on ``database_url``'s server."""
    return urlsplit(database_url)._replace(path=f"/{name}").geturl()


def drop_database(database_url: str, name: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_database(database_url: str, name: str) -> str:
    """An empty database ``name`` beside ``database_url``'s; its URL."""
    drop_database(database_url, name)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return sibling_database_url(database_url, name)
