"""A worker process's life: run the simulation parts a pipe sends it, one at a time, each one stoppable.

The web server's worker processes (``masscombat/battles/simulation_pool.py``)
run this loop and nothing else: it needs no Django, only the engines, which
it loads before the first part so that the first figures come sooner.  A
part is a module-level function of :mod:`rules.simulate` (sent by name) and
its keyword arguments; the loop gives it ``progress`` (sent back at most
every ``PROGRESS_SECONDS``) and ``cancel``, which reads the pipe for a
``("stop", number)`` between two battles, rounds or resolutions.

Replies, each ``(kind, number, ...)``: ``progress`` with the count done,
``done`` with the part's records, ``cancelled``, ``refused`` with the
engine's sentence, ``error`` with the traceback.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection

from rules import registry
from rules.errors import InvalidInput
from rules.simulate_play import Cancelled

PROGRESS_SECONDS = 0.1


def serve(conn: Connection) -> None:
    """Run each part the pipe sends until it closes; a ``stop`` read here is for a part already over."""
    registry.rulesets()  # every engine imported now, not in the first part
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "run":
            conn.send(run_part(conn, *message[1:]))


def run_part(conn: Connection, number: int, function: Callable, arguments: dict) -> tuple:
    """Part ``number``: ``function(**arguments, progress=..., cancel=...)``, and the reply that says how it went."""
    stopped = False
    sent = 0.0

    def cancel() -> bool:
        nonlocal stopped
        while not stopped and conn.poll():
            stopped = conn.recv() == ("stop", number)
        return stopped

    def progress(done: int) -> None:
        nonlocal sent
        if time.monotonic() - sent >= PROGRESS_SECONDS:
            sent = time.monotonic()
            conn.send(("progress", number, done))

    try:
        return "done", number, function(**arguments, progress=progress, cancel=cancel)
    except Cancelled:
        return "cancelled", number
    except InvalidInput as refusal:
        return "refused", number, refusal.error
    except Exception:  # noqa: BLE001 - any fault of a part is the server's to hear, never the worker's end
        return "error", number, traceback.format_exc()
