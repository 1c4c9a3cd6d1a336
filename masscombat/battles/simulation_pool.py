"""Worker processes of this server for the simulations, where there is no task queue (the embedded default).

The engines are pure Python and CPU-bound: in a thread of the web server a
simulation would hold the interpreter's lock against every request.  So the
parts of a balance or of a round preview run in ``SIMULATION_WORKERS``
processes of their own, spawned (a fresh interpreter, safe whatever threads
daphne runs) and free of Django: a part needs only its arguments and the
engines.  Unlike a ``ProcessPoolExecutor``'s, a part already running can be
stopped: between two battles (two rounds, two resolutions) the worker reads
its pipe, and a ``stop`` the server sent makes it drop the part, so that a
superseded run frees its workers at once; parts still waiting are dropped
before any worker takes them.  The workers' own loop is
:mod:`rules.simulate_worker`.

The server side is one dispatcher thread.  It hands each waiting part to an
idle worker (asking the part, just before, whether it is still wanted and
with which arguments: :attr:`Task.prepare`), and calls the part's callbacks
as the workers' messages come back: its progress, its records, or why it
failed.  A worker that dies
(killed, out of memory) is replaced and its part reported failed.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import wait
from typing import Any

from masscombat.core.engines import serve_simulation_parts

logger = logging.getLogger(__name__)

REFUSED, UNEXPECTED = "refused", "unexpected"


@dataclass(eq=False)
class Task:
    """One part of a run.  ``prepare`` runs in the dispatcher thread when a worker is free: the function
    for the worker (a module-level one, sent by name) and its keyword arguments, or None to drop the part.
    The callbacks run in the dispatcher thread too: ``progress(done)``, ``done(result)``, ``failed(code)``."""

    run: str
    prepare: Callable[[], tuple[Callable, dict] | None]
    progress: Callable[[int], None]
    done: Callable[[Any], None]
    failed: Callable[[str], None]
    stopped: bool = field(default=False)


class _Worker:
    def __init__(self, context):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve_simulation_parts, args=(child,), name="simulation-worker",
                                       daemon=True)
        self.process.start()
        child.close()
        self.task: Task | None = None
        self.number = 0


class Pool:
    """``size`` worker processes and their dispatcher thread, started at the first part."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self._context = get_context("spawn")
        self._lock = threading.Lock()
        self._waiting: deque[Task] = deque()
        self._preparing: Task | None = None
        self._workers: list[_Worker] = []
        self._numbers = itertools.count(1)
        self._wake_read, self._wake_write = self._context.Pipe(duplex=False)
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self) -> None:
        """Spawn the workers now (they load the engines before the first part comes)."""
        with self._lock:
            if self._thread is not None:
                return
            self._workers = [_Worker(self._context) for _ in range(self.size)]
            self._thread = threading.Thread(target=self._loop, name="simulation-dispatcher", daemon=True)
            self._thread.start()

    def submit(self, task: Task) -> None:
        self.start()
        with self._lock:
            self._waiting.append(task)
            self._wake_write.send(None)

    def cancel(self, run: str) -> None:
        """Drop the run's waiting parts and stop its running ones; their callbacks are not called again."""
        with self._lock:
            kept = deque(task for task in self._waiting if task.run != run)
            for task in self._waiting:
                if task.run == run:
                    task.stopped = True
            self._waiting = kept
            if self._preparing is not None and self._preparing.run == run:
                self._preparing.stopped = True
            for worker in self._workers:
                if worker.task is not None and worker.task.run == run and not worker.task.stopped:
                    worker.task.stopped = True
                    worker.conn.send(("stop", worker.number))

    def close(self) -> None:
        """Stop the workers and the dispatcher; the parts under way are dropped, their callbacks not called."""
        with self._lock:
            self._closed = True
            self._waiting.clear()
            for worker in self._workers:
                if worker.task is not None:
                    worker.task.stopped = True
                worker.process.kill()
            self._wake_write.send(None)
        for worker in self._workers:
            worker.process.join(timeout=10)

    def busy(self) -> int:
        """How many workers run a part now (stopping ones included)."""
        with self._lock:
            return sum(worker.task is not None for worker in self._workers)

    # -- the dispatcher thread ------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._closed:
            self._assign()
            with self._lock:
                watched = {worker.conn: worker for worker in self._workers if worker.task is not None}
            for ready in wait([self._wake_read, *watched]):
                if ready is self._wake_read:
                    while self._wake_read.poll():
                        self._wake_read.recv()
                elif not self._closed:
                    self._receive(watched[ready])

    def _assign(self) -> None:
        while True:
            with self._lock:
                idle = next((worker for worker in self._workers if worker.task is None), None)
                if idle is None or not self._waiting or self._closed:
                    return
                task = self._preparing = self._waiting.popleft()
            try:
                prepared = task.prepare()
            except Exception:
                logger.exception("a simulation part could not be prepared")
                prepared = None
                _call(task.failed, UNEXPECTED)
            with self._lock:
                self._preparing = None
                if prepared is None or task.stopped:
                    continue
                function, arguments = prepared
                idle.task, idle.number = task, next(self._numbers)
                try:
                    idle.conn.send(("run", idle.number, function, arguments))
                    continue
                except OSError:  # the worker died while idle: a fresh one takes the part
                    idle.task = None
                    self._waiting.appendleft(task)
            self._replace(idle)

    def _receive(self, worker: _Worker) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker)
            return
        kind, number, *rest = message
        with self._lock:
            task = worker.task if number == worker.number else None
            if task is not None and kind != "progress":
                worker.task = None
            live = task is not None and not task.stopped
        if not live:
            return
        if kind == "progress":
            _call(task.progress, rest[0])
        elif kind == "done":
            _call(task.done, rest[0])
        elif kind == "refused":
            logger.info("simulation part refused by the engine: %s", rest[0])
            _call(task.failed, REFUSED)
        elif kind == "error":
            logger.error("simulation part failed in its worker:\n%s", rest[0])
            _call(task.failed, UNEXPECTED)

    def _replace(self, worker: _Worker) -> None:
        """A worker died: its part failed, a fresh one takes its place."""
        logger.error("a simulation worker died (exit code %s)", worker.process.exitcode)
        with self._lock:
            task, worker.task = worker.task, None
            self._workers[self._workers.index(worker)] = _Worker(self._context)
        if task is not None and not task.stopped:
            _call(task.failed, UNEXPECTED)


def _call(callback: Callable, *args) -> None:
    """A callback's failure is logged: the dispatcher thread must outlive it."""
    try:
        callback(*args)
    except Exception:
        logger.exception("a simulation callback failed")
