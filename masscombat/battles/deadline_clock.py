"""The deadline clock of the embedded default (SQLite): a heap of due jobs in the server process.

procrastinate keeps its jobs in PostgreSQL; SQLite has no such queue, so a
server without PostgreSQL runs the very same procrastinate tasks, found by
their names in procrastinate's registry (the round's resolution,
:func:`masscombat.battles.tasks.resolve_at_deadline`, and the notifications
app's reminder, which the battles app knows only by name), from here: each
job is fed by the same call that defers it on PostgreSQL
(:func:`masscombat.battles.deadlines.schedule`), after its transaction commits.
One thread, started with the server (``DEADLINES_IN_PROCESS``, set by
``bin/run``), sleeps until the next job is due.  Nothing here survives a
restart: the thread's first act is to feed itself every deadline the database
still holds (:func:`masscombat.battles.deadlines.pending`), so the database
stays the one record.  It reads them again every ``SWEEP`` (a deadline written
by another process, such as ``manage.py import_campaign``, is then on the
clock within a minute); a job already held is not held twice.  A job that
runs twice is harmless anyway: the resolution checks the battle's round and
deadline version, the reminder also keeps a record of the ones it sent.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from datetime import datetime

from django.db import close_old_connections
from django.utils import timezone
from procrastinate.contrib.django import app

logger = logging.getLogger(__name__)

_lock = threading.Condition()
_heap: list[tuple[datetime, int, str, dict]] = []
_held: set[tuple] = set()  # what the heap holds, by _key: the sweep feeds nothing twice
_order = itertools.count()  # ties keep the order they were fed in
_started = False
SWEEP = 60  # seconds between two readings of the database's deadlines


def _key(run_at: datetime, job: str, kwargs: dict) -> tuple:
    return run_at, job, tuple(sorted(kwargs.items()))


def add(run_at: datetime, job: str, kwargs: dict) -> None:
    """Run the procrastinate task named ``job`` with ``kwargs`` once ``run_at`` has come."""
    with _lock:
        if _key(run_at, job, kwargs) in _held:
            return
        _held.add(_key(run_at, job, kwargs))
        heapq.heappush(_heap, (run_at, next(_order), job, kwargs))
        _lock.notify()


def run_due(now: datetime | None = None) -> int:
    """Run, in this thread, every job due by ``now``; how many ran.  A failing job is logged, not retried."""
    ran = 0
    while True:
        with _lock:
            if not _heap or _heap[0][0] > (now or timezone.now()):
                return ran
            at, _n, job, kwargs = heapq.heappop(_heap)
            _held.discard(_key(at, job, kwargs))
        try:
            app.tasks[job](**kwargs)
        except Exception:
            logger.exception("deadline job %s%r failed", job, kwargs)
        ran += 1


def pending_jobs() -> list[tuple[datetime, str, dict]]:
    """What the clock holds, soonest first."""
    with _lock:
        return [(at, job, kwargs) for at, _n, job, kwargs in sorted(_heap)]


def start(feed) -> None:
    """Start the clock's thread once per process; ``feed`` is called in it first (the restart sweep)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=_loop, args=(feed,), name="deadline-clock", daemon=True).start()


def _loop(feed) -> None:
    fed = None
    while True:
        if fed is None or time.monotonic() - fed >= SWEEP:
            fed = time.monotonic()
            try:
                feed()
            except Exception:
                logger.exception("deadline clock: the pending deadlines could not be read")
            close_old_connections()
        with _lock:
            wait = (_heap[0][0] - timezone.now()).total_seconds() if _heap else None
            if wait is None or wait > 0:
                _lock.wait(timeout=min(SWEEP, wait) if wait is not None else SWEEP)
                continue
        run_due()
        close_old_connections()
