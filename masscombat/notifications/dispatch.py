"""Running notification jobs off the request: a small thread pool, or at once when it has no threads (tests).

Why threads and not the procrastinate queue: its tables exist only on
PostgreSQL, and a notification must also leave a SQLite server; a job is a few
HTTP posts, lost at worst when the server stops.  Each job logs its own
failure: nothing raised here reaches the request or the round.
"""

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import connection

from masscombat.notifications import origin

logger = logging.getLogger(__name__)
_pool: ThreadPoolExecutor | None = None


def later(job, *args) -> Future | None:
    """Run ``job(*args)`` in the pool (with this request's origin, if any, for its links), or now without threads."""
    if settings.NOTIFICATIONS_THREADS <= 0:
        _run(job, args)
        return None
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(settings.NOTIFICATIONS_THREADS, thread_name_prefix="notifications")
    return _pool.submit(_in_thread, origin.current.get(), job, args)


def _in_thread(request_origin: str, job, args) -> None:
    origin.current.set(request_origin)
    try:
        _run(job, args)
    finally:
        connection.close()  # the pool's threads live on: never leave a connection open behind a job


def _run(job, args) -> None:
    try:
        job(*args)
    except Exception:
        logger.exception("notification job %s%r failed", job.__name__, args)
