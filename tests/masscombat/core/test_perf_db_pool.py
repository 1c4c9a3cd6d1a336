"""PostgreSQL connections come from a pool (issue #20): daphne runs each request in a thread of its own,
where a connection kept per thread (CONN_MAX_AGE) is never used again; SQLite is left as it was."""

import json
import threading

import pytest
from django.db import connection

from tests.masscombat.test_settings import run

POOL_PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps(settings.DATABASES["default"].get("OPTIONS", {}).get("pool")))
"""
PG = "postgres://someone@db.example:5432/battles"


def pool(**env):
    result = run(POOL_PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_postgresql_pools_by_default_and_the_size_is_configurable():
    assert pool(DATABASE_URL=PG) == {"min_size": 2, "max_size": 10, "timeout": 10}
    assert pool(DATABASE_URL=PG, DB_POOL_MAX_SIZE="1", DB_POOL_TIMEOUT="3") == {
        "min_size": 1, "max_size": 1, "timeout": 3}


def test_no_pool_when_switched_off_or_on_sqlite():
    assert pool(DATABASE_URL=PG, DB_POOL_MAX_SIZE="0") is None
    assert pool(DATABASE_URL=PG, DB_POOL_MAX_SIZE="0", CONN_MAX_AGE="60") is None
    assert pool() is None
    assert pool(DATABASE_URL="sqlite:////tmp/x.sqlite3", DB_POOL_MAX_SIZE="5") is None


def test_persistent_connections_and_the_pool_are_not_mixed():
    result = run(POOL_PROBE, DATABASE_URL=PG, CONN_MAX_AGE="60")
    assert result.returncode != 0 and "set DB_POOL_MAX_SIZE=0" in result.stderr


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="only PostgreSQL connections are pooled")
@pytest.mark.django_db(transaction=True)
def test_requests_in_threads_of_their_own_leave_their_connection_to_the_pool():
    """Each thread stands for one request under daphne: it connects, asks, and closes at the end.  A closed
    connection stays open in the pool for the next request instead of ending with its thread."""
    backends = []

    def request():
        from django.db import connection as theirs

        with theirs.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backends.append(cursor.fetchone()[0])
        theirs.close()

    for _ in range(6):
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    assert connection.pool is not None and len(backends) == 6
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [sorted(set(backends))])
        assert cursor.fetchone()[0] == len(set(backends))  # every one still open, kept by the pool
    assert connection.pool.get_stats()["pool_size"] <= 10
