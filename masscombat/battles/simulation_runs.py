"""Where the parts of a simulation run: on the task queue when the servers share one, else in this server's workers.

A balance (``balance.py``) or a round preview (``preview.py``) is played in
parts, each a few battles or resolutions, so that its first figures come
early and several processes share it.  Two places run them:

* **The queue** (PostgreSQL and a shared cache, Redis): each part is a
  procrastinate job on the ``simulation`` queue
  (:func:`masscombat.battles.tasks.simulate_part`), taken by whichever worker
  of whichever machine is free (``manage.py procrastinate worker --queues
  simulation``; ``bin/run`` starts ``SIMULATION_WORKERS`` of them beside the
  server).  The worker keeps the part's records in the shared cache, where
  the web servers read them, and feeds the GM's socket.
* **This server's worker processes** otherwise (the embedded default: SQLite
  has no queue, and the cache is this process's memory):
  ``SIMULATION_WORKERS`` of them (:mod:`masscombat.battles.simulation_pool`);
  the server's dispatcher thread does what the queue's worker would.

Either way a part is asked, just before it runs, whether its run is still the
wanted one and with what (the battle re-read, so a part queued before a
change never plays the old battle), and while it runs it stops between two
battles or resolutions once its run is cancelled: the queue's jobs are
cancelled in the queue too, a pool's parts are dropped or stopped.  What a
part means is its :class:`Kind`'s: the balance and the preview each register
one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Protocol

from django.conf import settings
from django.db import close_old_connections, connection

from masscombat.battles.simulation_pool import REFUSED, UNEXPECTED, Pool, Task
from masscombat.core.engines import Cancelled, InvalidInput

logger = logging.getLogger(__name__)

QUEUE = "simulation"
TASK_NAME = "battles.simulate_part"
CHECK_SECONDS = 0.2
"""A queued part asks whether its run is still wanted at most this often (one cache read)."""
PROGRESS_SECONDS = 0.1
LOCAL_CACHES = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")


class Kind(Protocol):
    """One kind of simulation part.  ``run`` names one run (its kind's key and a token); ``payload`` is one
    part's description, JSON for the queue."""

    function: Callable
    """The part itself, pure (``engines.battle_part``, ``engines.round_part``): run in a worker process."""

    def wanted(self, run: str) -> bool: ...

    def arguments(self, run: str, payload: dict) -> dict | None:
        """The function's keyword arguments, or None when the part is no longer worth running."""

    def progressed(self, run: str, index: int, done: int) -> None: ...

    def finished(self, run: str, index: int, records: list[dict]) -> None: ...

    def failed(self, run: str, code: str) -> None: ...


_kinds: dict[str, Kind] = {}
_pool: Pool | None = None
_pool_lock = threading.Lock()


def parts(count: int, first: int, largest: int) -> list[range]:
    """The indices of each part of a run of ``count``: a small first one, so that the first figures come early,
    then each twice the one before up to ``largest``, so that the figures refine often at first and the later
    parts cost little overhead."""
    found, start, size = [], 0, first
    while start < count:
        found.append(range(start, min(start + size, count)))
        start, size = start + size, min(size * 2, largest)
    return found


def register(name: str, kind: Kind) -> None:
    _kinds[name] = kind


def queued() -> bool:
    """Whether parts go to the task queue: procrastinate's tables (PostgreSQL) and a cache every process shares."""
    return settings.PROCRASTINATE_ON_PG and settings.CACHES["default"]["BACKEND"] not in LOCAL_CACHES


def submit(name: str, run: str, payloads: list[dict]) -> list[int]:
    """Start the run's parts; the ids of their jobs on the queue (none without one), for :func:`cancel`."""
    if queued():
        from procrastinate.contrib.django import app

        return [app.configure_task(TASK_NAME, queue=QUEUE, task_kwargs={
            "kind": name, "run": run, "index": index, "payload": payload}).defer()
            for index, payload in enumerate(payloads)]
    kind = _kinds[name]
    for index, payload in enumerate(payloads):
        pool().submit(Task(run, prepare=_db(partial(_prepare, kind, run, payload)),
                           progress=_db(partial(kind.progressed, run, index)),
                           done=_db(partial(kind.finished, run, index)), failed=_db(partial(kind.failed, run))))
    return []


def cancel(run: str, jobs: list[int]) -> None:
    """Stop the run's parts: its jobs waiting on the queue are cancelled (running ones are asked to stop, and
    stop at their next look at the cache), or the pool's parts dropped and stopped."""
    if queued():
        from procrastinate.contrib.django import app

        for job in jobs:
            app.job_manager.cancel_job_by_id(job, abort=True)
    elif _pool is not None:
        _pool.cancel(run)


def warm() -> None:
    """Spawn this server's workers ahead of the first part (a GM opening the setup page or the room), so that
    the first figures do not wait for a fresh interpreter to load the engines."""
    if not queued():
        pool().start()


def pool() -> Pool:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = Pool(settings.SIMULATION_WORKERS)
        return _pool


def _prepare(kind: Kind, run: str, payload: dict) -> tuple[Callable, dict] | None:
    if not kind.wanted(run):
        return None
    arguments = kind.arguments(run, payload)
    return None if arguments is None else (kind.function, arguments)


def _db(callback: Callable) -> Callable:
    """A callback of the pool's dispatcher thread, beside the server's requests: its connection is not kept
    between two calls (an idle thread would hold one for as long as the server runs)."""
    def call(*args):
        close_old_connections()
        try:
            return callback(*args)
        finally:
            connection.close()
    return call


def run_queued(name: str, run: str, index: int, payload: dict) -> str:
    """One part, in a queue worker: what the pool's dispatcher and a worker process do between them.  Returns
    how it went (for the job's result)."""
    kind = _kinds[name]
    arguments = kind.arguments(run, payload) if kind.wanted(run) else None
    if arguments is None:
        return "dropped"
    stopped, checked, sent = False, time.monotonic(), 0.0

    def cancel() -> bool:
        nonlocal stopped, checked
        if not stopped and time.monotonic() - checked >= CHECK_SECONDS:
            checked = time.monotonic()
            stopped = not kind.wanted(run)
        return stopped

    def progress(done: int) -> None:
        nonlocal sent
        if time.monotonic() - sent >= PROGRESS_SECONDS:
            sent = time.monotonic()
            kind.progressed(run, index, done)

    try:
        records = kind.function(**arguments, progress=progress, cancel=cancel)
    except Cancelled:
        return "cancelled"
    except InvalidInput as refusal:  # the engine's sentence is English and for developers: logged, the page translates
        logger.info("simulation part %s of %s refused: %s", index, run, refusal.error)
        kind.failed(run, REFUSED)
        return "refused"
    except Exception:
        kind.failed(run, UNEXPECTED)
        raise  # the job is marked failed, with its traceback, where the queue's operators look
    kind.finished(run, index, records)
    return "done"
