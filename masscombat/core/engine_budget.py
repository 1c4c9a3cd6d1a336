"""Engine operations run for the API within a time budget, and only a few at once per user.

The engines are pure computation, and some inputs make them work long (a big
battle, many rounds).  A request must not hold its server thread for that:
the operation runs in a thread of its own, the request waits at most the
budget and answers 503 past it.  Python cannot stop a thread, so an abandoned
run goes on to its end and its result is dropped.  That is why the per-user
cap counts a run until it really ends, not until its request answered: a user
whose runs overran cannot start more of them than the cap until they finish.
Runs are counted per server process.

The rules API calls :func:`run_within_budget` itself.  The battles API asks
the engines through :mod:`masscombat.core.engines` from deep in its services;
it opens a :func:`budgeted` block around a request instead, and the gateway
runs each operation through :func:`run`: the block's operations share its
time, and one raising :class:`OverBudget` inside a write's transaction rolls
the write back.
"""

from __future__ import annotations

import contextvars
import functools
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

_lock = threading.Lock()
_running: Counter[str] = Counter()


@dataclass(frozen=True)
class _Budget:
    owner: str
    ends: float  # time.monotonic() past which no operation of the block may run
    limit: int


_current: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("engine_budget", default=None)


class OverBudget(Exception):
    """The run did not end within its budget: its result, when it comes, is dropped."""


class TooManyRuns(Exception):
    """The caller already has as many runs going as allowed."""


def running(owner: str) -> int:
    """How many runs of ``owner`` are going in this process, abandoned ones included."""
    with _lock:
        return _running[owner]


def running_total() -> int:
    """How many runs are going in this process, all owners together."""
    with _lock:
        return sum(_running.values())


@contextmanager
def budgeted(owner: str, *, seconds: float, limit: int) -> Iterator[None]:
    """Within this block every engine operation (:func:`run`) counts against ``owner``: ``seconds`` in all."""
    token = _current.set(_Budget(owner, time.monotonic() + seconds, limit))
    try:
        yield
    finally:
        _current.reset(token)


def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)``: at once outside a :func:`budgeted` block, else within what is left of it."""
    budget = _current.get()
    if budget is None:
        return func(*args, **kwargs)
    left = budget.ends - time.monotonic()
    if left <= 0:
        raise OverBudget
    return run_within_budget(budget.owner, functools.partial(func, *args, **kwargs), seconds=left, limit=budget.limit)


def run_within_budget(owner: str, func: Callable[..., Any], *args: Any, seconds: float, limit: int) -> Any:
    """``func(*args)`` in a thread of its own; its result, or its exception, if it ends within ``seconds``.

    Raises :class:`TooManyRuns` when ``owner`` has ``limit`` runs going, and
    :class:`OverBudget` past ``seconds``.  The thread runs in a copy of the
    caller's context (the active language, among others).
    """
    with _lock:
        if _running[owner] >= limit:
            raise TooManyRuns
        _running[owner] += 1
    outcome: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def work() -> None:
        try:
            outcome["value"] = context.run(func, *args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting request, raised there
            outcome["error"] = exc
        finally:
            _release(owner)
            done.set()

    try:
        threading.Thread(target=work, name=f"engine-run-{owner}", daemon=True).start()
    except RuntimeError:  # no thread could be started: the slot was never used
        _release(owner)
        raise
    if not done.wait(seconds):
        raise OverBudget
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _release(owner: str) -> None:
    with _lock:
        _running[owner] -= 1
        if _running[owner] <= 0:
            del _running[owner]


def refusal(exc: OverBudget | TooManyRuns) -> tuple[str, int, int]:
    """What both APIs answer for a refused run: the sentence, the HTTP status and the seconds of Retry-After."""
    if isinstance(exc, TooManyRuns):
        return _("You already have %(count)d rules operations running. Wait for one to end.") % {
            "count": settings.ENGINE_API_CONCURRENT}, 429, 1
    seconds = settings.ENGINE_API_SECONDS
    return _("The rules engine did not finish within %(seconds)s seconds: try a smaller input.") % {
        "seconds": f"{seconds:g}"}, 503, math.ceil(seconds)
